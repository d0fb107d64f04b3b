//! Polyanya `.mesh` files (versions 1, 2 and 3) read as the floor plan of
//! their free space.
//!
//! A polyanya mesh lists the convex polygons of the free space. navscope
//! turns it into the free space's outline: an edge used by exactly one
//! free polygon is a boundary edge; boundary edges, directed as their
//! polygon winds (counter-clockwise, free space on the left), chain into
//! rings; the counter-clockwise ring is the outer boundary and the
//! clockwise ones are holes. Boundary edges are found by counting, so the
//! neighbour lists are only range-checked (versions 1 and 2, which differ
//! only in their order, read alike).
//!
//! Version 3 is the format of the pathfinding benchmarks' mesh maps (the
//! polyanya crate reads it; it is not layered): 1-based ids, vertices as
//! `x y` only, and every face flagged traversable (1) or not (0); only the
//! traversable faces are free space (see `read_v3`).
//!
//! Choices:
//! * The mesh's `(x, y)` is world `[x, z]` (as for raster images, rows run
//!   along +Z).
//! * Parts (free polygons joined through shared edges): a mesh in one part
//!   is a floor plan; a mesh in several is a multi-layer environment with
//!   one layer per part (`part 0` the largest by area, then by size), all
//!   horizontal at height 0 and without connections, because a floor plan
//!   holds one outline. Every part is kept.
//! * A vertex where the free space touches itself (two boundary edges leave
//!   it) is split into one copy per free wedge, each moved a millionth of
//!   the shortest boundary edge at the vertex into its wedge along the
//!   bisector: the rings no longer touch, stay simple, and the free space
//!   loses only slivers that thin (see `split_touching_vertices`).

use std::collections::HashMap;

use glam::DVec2;
use navscope_core::geom::{PolygonWithHoles, Ring, plan_from_xz};
use navscope_core::level::{FloorPlan, Layer, LayeredLevel, LevelData};

use crate::budget::Budget;
use crate::error::Fault;
use crate::rings::{build_area, ring_name};
use crate::text::clip;

/// Whitespace-separated tokens with their line numbers.
struct Tokens<'a> {
    iter: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            iter: text.char_indices().peekable(),
            text,
            line: 1,
        }
    }

    /// The next token and its line, or a "file ends" fault naming `what`.
    fn next(&mut self, what: &dyn Fn() -> String) -> Result<(&'a str, usize), Fault> {
        while let Some(&(_, c)) = self.iter.peek() {
            if !c.is_whitespace() {
                break;
            }
            if c == '\n' {
                self.line += 1;
            }
            self.iter.next();
        }
        let Some(&(start, _)) = self.iter.peek() else {
            return Err(Fault::syntax(
                format!("line {}", self.line),
                format!("file ends before {}", what()),
            ));
        };
        let mut end = self.text.len();
        while let Some(&(i, c)) = self.iter.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            self.iter.next();
        }
        Ok((&self.text[start..end], self.line))
    }

    fn int(&mut self, what: &dyn Fn() -> String) -> Result<(i64, usize), Fault> {
        let (t, line) = self.next(what)?;
        t.parse::<i64>().map(|v| (v, line)).map_err(|_| {
            Fault::syntax(
                format!("line {line}"),
                format!("{}: expected an integer, found \"{}\"", what(), clip(t)),
            )
        })
    }

    /// Reads the `n` neighbour polygon ids of `owner` (`vertex 3`,
    /// `polygon 7`): each must be -1 (none) or a polygon below `np`. They
    /// are checked, not kept.
    fn neighbours(&mut self, n: i64, np: usize, owner: &str) -> Result<(), Fault> {
        for _ in 0..n {
            let (p, line) = self.int(&|| format!("{owner} neighbour"))?;
            if p < -1 || p >= np as i64 {
                return Err(Fault::reference(
                    format!("line {line}"),
                    format!("{owner} refers to polygon {p} but there are {np}"),
                ));
            }
        }
        Ok(())
    }

    fn float(&mut self, what: &dyn Fn() -> String) -> Result<f64, Fault> {
        let (t, line) = self.next(what)?;
        let v = t.parse::<f64>().map_err(|_| {
            Fault::syntax(
                format!("line {line}"),
                format!("{}: expected a number, found \"{}\"", what(), clip(t)),
            )
        })?;
        if !v.is_finite() {
            return Err(Fault::geometry(
                format!("line {line}"),
                format!("{}: {} is not a finite number", what(), clip(t)),
            ));
        }
        Ok(v)
    }
}

/// Disjoint sets with path halving.
fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// The signed area of the polygon through `vs` (positive when
/// counter-clockwise).
fn signed_area(verts: &[[f64; 2]], vs: &[usize]) -> f64 {
    let o = DVec2::from(verts[vs[0]]);
    (1..vs.len() - 1)
        .map(|k| (DVec2::from(verts[vs[k]]) - o).perp_dot(DVec2::from(verts[vs[k + 1]]) - o))
        .sum::<f64>()
        / 2.0
}

/// How far, relative to the shortest boundary edge at it, a copy of a
/// vertex where the free space touches itself moves into its wedge.
const SPLIT_NUDGE: f64 = 1e-6;

/// Splits every vertex where the free space touches itself (more than one
/// boundary edge leaves it) into one copy per free wedge, so the boundary
/// chains into rings that do not touch. Around such a vertex, a wedge of
/// free space runs counter-clockwise from an outgoing boundary edge to the
/// first incoming one; its copy moves `SPLIT_NUDGE` times the shortest
/// boundary edge at the vertex along the wedge's bisector. The free space
/// loses only the thin slivers between each copy and the original vertex,
/// and the wedges stay apart. Returns the boundary edges (directed, free
/// space on the left) with their ends renumbered; copies are appended to
/// `verts`.
fn split_touching_vertices(
    verts: &mut Vec<[f64; 2]>,
    boundary: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let mut out_of: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut in_to: HashMap<usize, Vec<usize>> = HashMap::new();
    for (e, &(a, b)) in boundary.iter().enumerate() {
        out_of.entry(a).or_default().push(e);
        in_to.entry(b).or_default().push(e);
    }
    let mut tail: Vec<usize> = boundary.iter().map(|e| e.0).collect();
    let mut head: Vec<usize> = boundary.iter().map(|e| e.1).collect();
    let mut copies = Vec::new();
    let mut pinched: Vec<usize> = out_of
        .iter()
        .filter(|(_, es)| es.len() > 1)
        .map(|(&v, _)| v)
        .collect();
    pinched.sort_unstable();
    for v in pinched {
        let at = DVec2::from(verts[v]);
        let dir = |w: usize| DVec2::from(verts[w]) - at;
        let angle = |d: DVec2| d.y.atan2(d.x);
        let outs = &out_of[&v];
        let ins = in_to.get(&v).map_or(&[][..], |x| x);
        let shortest = outs
            .iter()
            .map(|&e| dir(boundary[e].1).length())
            .chain(ins.iter().map(|&e| dir(boundary[e].0).length()))
            .fold(f64::INFINITY, f64::min);
        for &eo in outs {
            let a_out = angle(dir(boundary[eo].1));
            // The first incoming edge counter-clockwise from this outgoing one.
            let sweep =
                |ei: usize| (angle(dir(boundary[ei].0)) - a_out).rem_euclid(std::f64::consts::TAU);
            let Some(&ei) = ins.iter().min_by(|&&x, &&y| sweep(x).total_cmp(&sweep(y))) else {
                continue;
            };
            let mid = a_out + sweep(ei) / 2.0;
            let copy = at + DVec2::new(mid.cos(), mid.sin()) * (shortest * SPLIT_NUDGE);
            tail[eo] = verts.len() + copies.len();
            head[ei] = verts.len() + copies.len();
            copies.push(copy.to_array());
        }
    }
    verts.extend(copies);
    tail.into_iter().zip(head).collect()
}

/// A free polygon as read: 0-based vertex indices, counter-clockwise; the
/// line it was written on; its number as the file counts.
struct Poly {
    vs: Vec<usize>,
    line: usize,
    id: usize,
}

/// A mesh as read: vertex positions, the free polygons, and what the
/// format calls a polygon (`polygon` or `face`).
struct Read {
    verts: Vec<[f64; 2]>,
    polys: Vec<Poly>,
    noun: &'static str,
}

/// Parses a polyanya mesh (version 1, 2 or 3) into a level: a floor plan
/// when its free space is one part, a multi-layer environment with one
/// layer per part (at height 0, no connections) when it has several.
pub(crate) fn parse(text: &str, budget: &Budget) -> Result<LevelData, Fault> {
    let mut tk = Tokens::new(text);
    let (magic, line) = tk.next(&|| "the header \"mesh\"".to_string())?;
    if magic != "mesh" {
        return Err(Fault::format(
            format!("line {line}"),
            format!("expected the header \"mesh\", found \"{}\"", clip(magic)),
        ));
    }
    let (version, line) = tk.int(&|| "the version".to_string())?;
    if !(1..=3).contains(&version) {
        return Err(Fault::format(
            format!("line {line}"),
            format!("version {version} is not supported (1, 2 and 3 are)"),
        ));
    }
    let (nv, line) = tk.int(&|| "the vertex count".to_string())?;
    let (np, _) = tk.int(&|| "the polygon count".to_string())?;
    if nv < 0 || np < 0 {
        return Err(Fault::syntax(
            format!("line {line}"),
            format!("negative count ({nv} vertices, {np} polygons)"),
        ));
    }
    let (nv, np) = (nv as u64, np as u64);
    Budget::check(&format!("line {line}"), "vertices", nv, budget.max_vertices)?;
    Budget::check(
        &format!("line {line}"),
        "polygons",
        np,
        budget.max_triangles,
    )?;
    // Every vertex needs at least 2 tokens of 2 bytes, every polygon 1:
    // a header claiming more than the file can hold is refused before any
    // allocation.
    if nv.saturating_mul(4).saturating_add(np.saturating_mul(2)) > text.len() as u64 {
        return Err(Fault::syntax(
            format!("line {line}"),
            format!(
                "header declares {nv} vertices and {np} polygons, more than a file of {} bytes can hold",
                text.len()
            ),
        ));
    }
    let (nv, np) = (nv as usize, np as usize);
    let read = if version == 3 {
        read_v3(&mut tk, nv, np)?
    } else {
        read_v2(&mut tk, nv, np)?
    };
    if let Ok((extra, line)) = tk.next(&String::new) {
        return Err(Fault::syntax(
            format!("line {line}"),
            format!("unexpected \"{}\" after the last polygon", clip(extra)),
        ));
    }
    let mut parts = free_space(read)?;
    if parts.len() == 1 {
        return Ok(LevelData::FloorPlan(FloorPlan {
            area: parts.remove(0),
            nodes: Vec::new(),
            blockers: Vec::new(),
        }));
    }
    Ok(LevelData::Layers(LayeredLevel {
        layers: parts
            .into_iter()
            .enumerate()
            .map(|(k, area)| Layer {
                name: format!("part {k}"),
                height: 0.0,
                slope: DVec2::ZERO,
                area,
            })
            .collect(),
        connections: Vec::new(),
    }))
}

/// Versions 1 and 2: `x y n neighbours...` per vertex, `n vertices...
/// neighbours...` per polygon, 0-based; every polygon is free space and
/// must be counter-clockwise.
fn read_v2(tk: &mut Tokens, nv: usize, np: usize) -> Result<Read, Fault> {
    let mut verts: Vec<[f64; 2]> = Vec::with_capacity(nv);
    for i in 0..nv {
        let what = |f: &'static str| move || format!("vertex {i} {f}");
        let x = tk.float(&what("x"))?;
        let y = tk.float(&what("y"))?;
        let (n, line) = tk.int(&what("neighbour count"))?;
        if n < 0 {
            return Err(Fault::syntax(
                format!("line {line}"),
                format!("vertex {i}: neighbour count {n} is out of range"),
            ));
        }
        tk.neighbours(n, np, &format!("vertex {i}"))?;
        verts.push([x, y]);
    }
    let mut polys: Vec<Poly> = Vec::with_capacity(np);
    for i in 0..np {
        let what = |f: &'static str| move || format!("polygon {i} {f}");
        let (n, line) = tk.int(&what("vertex count"))?;
        if n < 3 || n as u64 > nv as u64 {
            return Err(Fault::geometry(
                format!("line {line}"),
                format!("polygon {i}: vertex count {n} is out of range (3 to {nv})"),
            ));
        }
        let mut vs = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let (v, line) = tk.int(&what("vertex"))?;
            if v < 0 || v >= nv as i64 {
                return Err(Fault::reference(
                    format!("line {line}"),
                    format!("polygon {i} refers to vertex {v} but there are {nv}"),
                ));
            }
            vs.push(v as usize);
        }
        tk.neighbours(n, np, &format!("polygon {i}"))?;
        let a = signed_area(&verts, &vs);
        if a <= 0.0 {
            return Err(Fault::geometry(
                format!("line {line}"),
                format!(
                    "polygon {i} is not counter-clockwise with positive area (signed area {a})"
                ),
            ));
        }
        polys.push(Poly { vs, line, id: i });
    }
    Ok(Read {
        verts,
        polys,
        noun: "polygon",
    })
}

/// Version 3 (the mesh maps of the pathfinding benchmarks): `x y` per
/// vertex; per face `traversable n vertices... neighbours...`, all ids
/// 1-based; a neighbour is `k` (face `k`, traversable), `-k` (face `k`,
/// not) or 0 (the mesh's edge). Only traversable faces are free space. The
/// format's text says faces are counter-clockwise but its own example lists
/// them clockwise: a clockwise face is reversed; a face of no area is
/// refused.
fn read_v3(tk: &mut Tokens, nv: usize, nf: usize) -> Result<Read, Fault> {
    let mut verts: Vec<[f64; 2]> = Vec::with_capacity(nv);
    for i in 1..=nv {
        let what = |f: &'static str| move || format!("vertex {i} {f}");
        let x = tk.float(&what("x"))?;
        let y = tk.float(&what("y"))?;
        verts.push([x, y]);
    }
    let mut polys: Vec<Poly> = Vec::with_capacity(nf);
    for i in 1..=nf {
        let what = |f: &'static str| move || format!("face {i} {f}");
        let (flag, line) = tk.next(&what("traversable flag"))?;
        let traversable = match flag {
            "1" => true,
            "0" => false,
            other => {
                return Err(Fault::syntax(
                    format!("line {line}"),
                    format!(
                        "face {i}: the traversable flag must be 0 or 1, found \"{}\"",
                        clip(other)
                    ),
                ));
            }
        };
        let (n, line) = tk.int(&what("edge count"))?;
        if n < 3 || n as u64 > nv as u64 {
            return Err(Fault::geometry(
                format!("line {line}"),
                format!("face {i}: edge count {n} is out of range (3 to {nv})"),
            ));
        }
        let mut vs = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let (v, line) = tk.int(&what("vertex"))?;
            if v < 1 || v > nv as i64 {
                return Err(Fault::reference(
                    format!("line {line}"),
                    format!("face {i} refers to vertex {v} but they are numbered 1 to {nv}"),
                ));
            }
            vs.push(v as usize - 1);
        }
        for _ in 0..n {
            let (k, line) = tk.int(&what("neighbour"))?;
            if k.unsigned_abs() > nf as u64 {
                return Err(Fault::reference(
                    format!("line {line}"),
                    format!("face {i} refers to face {k} but they are numbered 1 to {nf}"),
                ));
            }
        }
        if !traversable {
            continue;
        }
        let a = signed_area(&verts, &vs);
        if a == 0.0 {
            return Err(Fault::geometry(
                format!("line {line}"),
                format!("face {i} has no area"),
            ));
        }
        if a < 0.0 {
            vs.reverse();
        }
        polys.push(Poly { vs, line, id: i });
    }
    Ok(Read {
        verts,
        polys,
        noun: "face",
    })
}

/// The free space of a mesh, one polygon with holes per part (polygons
/// joined through shared edges), largest first.
fn free_space(read: Read) -> Result<Vec<PolygonWithHoles>, Fault> {
    let Read {
        mut verts,
        polys,
        noun,
    } = read;
    if polys.is_empty() {
        return Err(Fault::geometry("", "the mesh has no free polygons"));
    }
    // Directed edges; each undirected edge may be used once each way.
    let mut edges: HashMap<(usize, usize), usize> =
        HashMap::with_capacity(polys.iter().map(|p| p.vs.len()).sum());
    // Vertex numbers as the file counts them.
    let base = usize::from(noun == "face");
    for (i, p) in polys.iter().enumerate() {
        let (vs, line, id) = (&p.vs, p.line, p.id);
        for k in 0..vs.len() {
            let (a, b) = (vs[k], vs[(k + 1) % vs.len()]);
            if a == b {
                return Err(Fault::geometry(
                    format!("line {line}"),
                    format!("{noun} {id} repeats vertex {}", a + base),
                ));
            }
            if let Some(other) = edges.insert((a, b), i) {
                return Err(Fault::geometry(
                    format!("line {line}"),
                    format!(
                        "{noun}s {} and {id} both use the edge from vertex {} to vertex {} in the same direction (overlap)",
                        polys[other].id,
                        a + base,
                        b + base
                    ),
                ));
            }
        }
    }
    let mut parent: Vec<usize> = (0..polys.len()).collect();
    for (&(a, b), &i) in &edges {
        if let Some(&j) = edges.get(&(b, a)) {
            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
            parent[ri.max(rj)] = ri.min(rj);
        }
    }
    // Polygons per part (in file order, for determinism), parts largest
    // first (ties: the part of the earlier polygon first).
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for i in 0..polys.len() {
        members.entry(find(&mut parent, i)).or_default().push(i);
    }
    let mut parts: Vec<(f64, Vec<usize>)> = members
        .into_values()
        .map(|m| {
            (
                m.iter().map(|&i| signed_area(&verts, &polys[i].vs)).sum(),
                m,
            )
        })
        .collect();
    parts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1[0].cmp(&b.1[0])));
    let several = parts.len() > 1;
    let mut out = Vec::with_capacity(parts.len());
    for (k, (_, members)) in parts.iter().enumerate() {
        let mut boundary = Vec::new();
        for &i in members {
            let vs = &polys[i].vs;
            for j in 0..vs.len() {
                let (a, b) = (vs[j], vs[(j + 1) % vs.len()]);
                if !edges.contains_key(&(b, a)) {
                    boundary.push((a, b));
                }
            }
        }
        let name = |r: Ring| {
            if several {
                format!("part {k} {}", ring_name(r))
            } else {
                ring_name(r)
            }
        };
        out.push(part_area(&mut verts, &boundary, &name)?);
    }
    Ok(out)
}

/// The polygon with holes bounded by one part's boundary edges (directed,
/// free space on the left).
fn part_area(
    verts: &mut Vec<[f64; 2]>,
    boundary: &[(usize, usize)],
    name: &dyn Fn(Ring) -> String,
) -> Result<PolygonWithHoles, Fault> {
    let boundary = split_touching_vertices(verts, boundary);
    let mut next: HashMap<usize, usize> = HashMap::with_capacity(boundary.len());
    let mut order = Vec::with_capacity(boundary.len());
    for &(a, b) in &boundary {
        if next.insert(a, b).is_some() {
            return Err(Fault::geometry(
                format!("vertex {a}"),
                "the boundary of the free space branches here",
            ));
        }
        order.push(a);
    }
    let mut rings: Vec<Vec<usize>> = Vec::new();
    let mut used: HashMap<usize, ()> = HashMap::new();
    for &start in &order {
        if used.contains_key(&start) {
            continue;
        }
        let mut ring = Vec::new();
        let mut v = start;
        while used.insert(v, ()).is_none() {
            ring.push(v);
            match next.get(&v) {
                Some(&w) => v = w,
                None => {
                    return Err(Fault::geometry(
                        format!("vertex {v}"),
                        "the boundary of the free space does not close here",
                    ));
                }
            }
        }
        rings.push(ring);
    }
    let outer_at = rings
        .iter()
        .enumerate()
        .max_by(|a, b| signed_area(verts, a.1).total_cmp(&signed_area(verts, b.1)))
        .map_or(0, |(i, _)| i);
    let outer = rings.remove(outer_at);
    let to_plan = |r: &[usize]| {
        r.iter()
            .map(|&v| plan_from_xz(verts[v]))
            .collect::<Vec<_>>()
    };
    build_area(
        to_plan(&outer),
        rings.iter().map(|r| to_plan(r)).collect(),
        name,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    /// The floor plan of a mesh that must load as one.
    fn plan(text: &str) -> FloorPlan {
        match parse(text, &Budget::default()).unwrap() {
            LevelData::FloorPlan(p) => p,
            other => panic!("not a floor plan: {other:?}"),
        }
    }

    const TWO_TRIANGLES: &str = "mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

    #[test]
    fn format_example_is_a_square() {
        let p = plan(TWO_TRIANGLES);
        assert_eq!(p.area.outer.len(), 4);
        assert_eq!(p.area.area(), 2.25);
        // The same triangles listed clockwise are refused.
        let mirrored = TWO_TRIANGLES
            .replace("3 0 1 3 -1 -1 1", "3 0 3 1 -1 1 -1")
            .replace("3 1 2 3 0 -1 -1", "3 1 3 2 0 -1 -1");
        let e = parse(&mirrored, &Budget::default()).unwrap_err();
        assert!(e.problem.contains("not counter-clockwise"), "{}", e.problem);
    }

    #[test]
    fn errors_name_the_line() {
        let b = Budget::default();
        let bad = "mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 9 -1 -1 -1\n";
        let e = parse(bad, &b).unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("line 7", "polygon 0 refers to vertex 9 but there are 3")
        );
        let e = parse("mesh\n2\n3 1\n0 0 0\n1 0", &b).unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("line 5", "file ends before vertex 1 neighbour count")
        );
        let e = parse("mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1", &b).unwrap_err();
        assert_eq!(e.problem, "file ends before polygon 0 vertex");
        let e = parse("mesh\n7\n", &b).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Format);
        let e = parse(
            "mesh\n2\n3 1\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2 -1 -1 -1\n",
            &b,
        )
        .unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("line 5", "vertex 1 y: nan is not a finite number")
        );
    }

    #[test]
    fn huge_declared_counts_are_refused_without_allocating() {
        let e = parse("mesh 2 4000000000 4000000000", &Budget::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Budget);
        let e = parse("mesh 2 1000000 1", &Budget::default()).unwrap_err();
        assert!(e.problem.contains("more than a file"), "{}", e.problem);
    }

    /// The polygon line of unit cell `(x, y)` on a grid of vertices
    /// numbered row by row, `side` to a row, without neighbours.
    fn unit_cell(side: usize, x: usize, y: usize) -> String {
        let id = |x: usize, y: usize| y * side + x;
        format!(
            "4 {} {} {} {} -1 -1 -1 -1\n",
            id(x, y),
            id(x + 1, y),
            id(x + 1, y + 1),
            id(x, y + 1)
        )
    }

    #[test]
    fn every_part_loads_as_a_layer_largest_first() {
        // A 3x3 square of 8 unit squares around a missing centre, plus a
        // far-away unit square listed first: two parts, so two layers at
        // height 0 without connections, the larger first, with its hole.
        let mut text = String::from("mesh\n2\n20 9\n");
        for y in 0..4 {
            for x in 0..4 {
                text += &format!("{x} {y} 0\n");
            }
        }
        for (x, y) in [(10, 10), (11, 10), (11, 11), (10, 11)] {
            text += &format!("{x} {y} 0\n");
        }
        text += "4 16 17 18 19 -1 -1 -1 -1\n";
        for y in 0..3 {
            for x in 0..3 {
                if (x, y) != (1, 1) {
                    text += &unit_cell(4, x, y);
                }
            }
        }
        let LevelData::Layers(l) = parse(&text, &Budget::default()).unwrap() else {
            panic!("two parts are two layers");
        };
        assert!(l.connections.is_empty());
        let names: Vec<_> = l.layers.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["part 0", "part 1"]);
        assert!(
            l.layers
                .iter()
                .all(|l| l.height == 0.0 && l.plane().is_level())
        );
        let (big, small) = (&l.layers[0].area, &l.layers[1].area);
        assert_eq!((big.area(), big.holes.len()), (8.0, 1));
        assert_eq!(big.outer.len(), 4, "collinear boundary vertices are merged");
        assert_eq!((small.area(), small.holes.len()), (1.0, 0));
        assert!(small.contains(plan_from_xz([10.5, 10.5])));
        // Without the island the same mesh is one floor plan.
        let one = text
            .replace("20 9\n", "16 8\n")
            .replace("4 16 17 18 19 -1 -1 -1 -1\n", "");
        let one: String = one
            .lines()
            .enumerate()
            .filter(|&(i, _)| !(19..23).contains(&i))
            .map(|(_, l)| format!("{l}\n"))
            .collect();
        assert_eq!(plan(&one).area.area(), 8.0);
    }

    #[test]
    fn overlapping_polygons_are_named() {
        // The same triangle twice.
        let text = "mesh\n2\n3 2\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n3 0 1 2 -1 -1 -1\n";
        let e = parse(text, &Budget::default()).unwrap_err();
        assert_eq!(e.element, "line 8");
        assert!(
            e.problem.starts_with("polygons 0 and 1 both use the edge"),
            "{}",
            e.problem
        );
        let e = parse("mesh\n2\n0 0\n", &Budget::default()).unwrap_err();
        assert_eq!(e.problem, "the mesh has no free polygons");
        let e = parse(
            "mesh\n2\n3 1\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\nextra\n",
            &Budget::default(),
        )
        .unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("line 8", "unexpected \"extra\" after the last polygon")
        );
    }

    #[test]
    fn hole_touching_the_outline_at_a_corner_joins_the_outline() {
        // A 3x3 square of unit cells without cells (1, 1) and (0, 0): the
        // missing corner cell and the missing centre meet only at (1, 1),
        // where the free space touches itself. Splitting it moves the two
        // free wedges apart, so the blocked centre joins the notch through
        // a thin channel: one outline, no hole.
        let mut text = String::from("mesh\n2\n16 7\n");
        for y in 0..4 {
            for x in 0..4 {
                text += &format!("{x} {y} 0\n");
            }
        }
        for y in 0..3 {
            for x in 0..3 {
                if (x, y) != (1, 1) && (x, y) != (0, 0) {
                    text += &unit_cell(4, x, y);
                }
            }
        }
        let p = plan(&text);
        assert!(p.area.holes.is_empty());
        assert_eq!(p.area.outer.points.len(), 10);
        assert!((p.area.area() - 7.0).abs() < 1e-5, "{}", p.area.area());
        assert!(p.area.area() < 7.0);
    }

    #[test]
    fn pinch_point_is_split_into_wedges() {
        // Unit cells on a 5x5 grid of vertices: a ring of cells around the
        // missing cell (2, 1), closed by two cells that meet only at the
        // corner (2, 2). The corner becomes one copy per free wedge, which
        // opens a thin channel of blocked space from the missing cell to
        // the outside: one simple outline, no hole, and the area loses
        // only slivers of the nudge's size.
        let cells = [(1, 1), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2), (2, 2)];
        let mut text = format!("mesh\n2\n25 {}\n", cells.len());
        for y in 0..5 {
            for x in 0..5 {
                text += &format!("{x} {y} 0\n");
            }
        }
        for (x, y) in cells {
            text += &unit_cell(5, x, y);
        }
        let p = plan(&text);
        assert!(p.area.holes.is_empty());
        assert!((p.area.area() - 7.0).abs() < 1e-5, "{}", p.area.area());
        assert!(p.area.area() < 7.0);
        let corner = plan_from_xz([2.0, 2.0]);
        let near: Vec<_> = p
            .area
            .outer
            .points
            .iter()
            .chain(p.area.holes.iter().flat_map(|h| &h.points))
            .filter(|q| q.distance(corner) < 1e-5)
            .collect();
        assert_eq!(near.len(), 2, "one copy per wedge: {near:?}");
        assert!(near.iter().all(|q| q.distance(corner) > 0.0));
    }

    /// The format's own example (`meshes/v3/format.txt` of the polyanya
    /// crate): a 10 x 10 square fanned round its centre, the bottom face
    /// not traversable, faces listed clockwise.
    const V3_EXAMPLE: &str = "mesh\n3\n5 4\n0 0\n0 10\n10 10\n10 0\n5 5\n\
        0 3   4 1 5   -4 0 -2\n1 3   1 2 5   -1 0 3\n1 3   2 3 5   2 0 4\n1 3   3 4 5   3 0 -1\n";

    #[test]
    fn version_3_keeps_the_traversable_faces_whatever_their_winding() {
        let p = plan(V3_EXAMPLE);
        // The square less the non-traversable bottom triangle.
        assert_eq!(p.area.area(), 75.0);
        assert_eq!(p.area.outer.len(), 5);
        assert!(p.area.holes.is_empty());
        assert!(p.area.contains(plan_from_xz([5.0, 8.0])));
        assert!(!p.area.contains(plan_from_xz([5.0, 2.0])));
        // The same faces listed counter-clockwise (as the benchmark maps
        // list them, neighbours following their edges) load alike.
        let ccw = V3_EXAMPLE
            .replace("1 3   1 2 5   -1 0 3", "1 3   1 5 2   0 3 -1")
            .replace("1 3   2 3 5   2 0 4", "1 3   2 5 3   0 4 2")
            .replace("1 3   3 4 5   3 0 -1", "1 3   3 5 4   0 -1 3");
        let ccw = plan(&ccw).area;
        assert_eq!(ccw.area(), 75.0);
        let mut a = ccw.outer.points.clone();
        let mut b = p.area.outer.points.clone();
        a.sort_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
        b.sort_by(|p, q| p.to_array().partial_cmp(&q.to_array()).unwrap());
        assert_eq!(a, b);
        // Every face traversable: the whole square.
        let all = V3_EXAMPLE.replace("0 3   4 1 5", "1 3   4 1 5");
        assert_eq!(plan(&all).area.area(), 100.0);
    }

    #[test]
    fn version_3_parts_load_as_layers() {
        // Two unit squares 5 apart, each two triangles, and a blocked
        // triangle between them: two parts.
        let text = "mesh\n3\n8 5\n0 0\n1 0\n1 1\n0 1\n5 0\n6 0\n6 1\n5 1\n\
            1 3 1 2 3 0 0 2\n1 3 1 3 4 1 0 0\n0 3 2 5 3 0 0 0\n1 3 5 6 7 0 0 5\n1 3 5 7 8 4 0 0\n";
        let LevelData::Layers(l) = parse(text, &Budget::default()).unwrap() else {
            panic!("two parts are two layers");
        };
        assert_eq!(l.layers.len(), 2);
        assert!(l.layers.iter().all(|l| l.area.area() == 1.0));
        assert!(l.layers[0].area.contains(plan_from_xz([0.5, 0.5])));
        assert!(l.layers[1].area.contains(plan_from_xz([5.5, 0.5])));
    }

    #[test]
    fn version_3_errors_name_the_line_and_the_face() {
        let b = Budget::default();
        let err = |text: &str| {
            let e = parse(text, &b).unwrap_err();
            (e.element, e.problem)
        };
        let bad_flag = V3_EXAMPLE.replace("1 3   2 3 5", "2 3   2 3 5");
        assert_eq!(
            err(&bad_flag),
            (
                "line 11".into(),
                "face 3: the traversable flag must be 0 or 1, found \"2\"".into()
            )
        );
        let vertex_zero = V3_EXAMPLE.replace("1 3   2 3 5", "1 3   2 0 5");
        assert_eq!(
            err(&vertex_zero),
            (
                "line 11".into(),
                "face 3 refers to vertex 0 but they are numbered 1 to 5".into()
            )
        );
        let far_face = V3_EXAMPLE.replace("2 0 4", "2 0 -9");
        assert_eq!(
            err(&far_face),
            (
                "line 11".into(),
                "face 3 refers to face -9 but they are numbered 1 to 4".into()
            )
        );
        let short = V3_EXAMPLE.replace("1 3   3 4 5   3 0 -1\n", "1 3   3 4");
        assert_eq!(
            err(&short),
            ("line 12".into(), "file ends before face 4 vertex".into())
        );
        let flat = V3_EXAMPLE.replace("1 3   2 3 5", "1 3   2 2 5");
        assert_eq!(err(&flat), ("line 11".into(), "face 3 has no area".into()));
        let none = V3_EXAMPLE.replace("\n1 3", "\n0 3");
        assert_eq!(err(&none).1, "the mesh has no free polygons");
        let e = parse("mesh\n4\n", &b).unwrap_err();
        assert_eq!(e.problem, "version 4 is not supported (1, 2 and 3 are)");
    }
}
