//! Writing a NavMesh as a polyanya `.mesh` file (version 2), the format
//! the `polyanya` crate and vleue_navigator read, so a game can load
//! navscope's meshes.
//!
//! The file holds [`PolyMesh`]'s polygons (the NavMesh's polygon nodes, with
//! T-junctions split) and its merged vertices; the mesh's `(x, y)` is world
//! `(x, z)` (as the reader in `navscope-levels` takes it), heights are
//! dropped, and point links are not part of the format. Version 2 facts
//! (the format's own description): polygons list their vertices
//! counter-clockwise in the file's `(x, y)`, and their neighbours so that
//! neighbour `i` shares the edge from vertex `i - 1` to vertex `i`; each
//! vertex lists the polygons around it counter-clockwise, `-1` for every
//! gap (obstacle or outside) between them.

use std::fmt::Write;

use glam::DVec2;
use navscope_core::NavMesh;

use super::mesh::{NONE, PolyMesh};

/// The polyanya mesh (version 2) of `mesh`'s polygons (see the module
/// docs). Floors over each other are written as they are, overlapping.
pub fn to_polyanya_mesh(mesh: &NavMesh) -> String {
    let pm = PolyMesh::new(mesh);
    // The file's (x, y) is world (x, z): plan (x, -z) mirrored, so every
    // counter-clockwise ring of the plan is written backwards.
    let file_pt = |p: DVec2| DVec2::new(p.x, -p.y);
    let mut out = String::new();
    let _ = writeln!(out, "mesh\n2\n{} {}", pm.verts.len(), pm.polys.len());
    for v in &pm.verts {
        let at = file_pt(v.p);
        let (s, e) = v.incident;
        let mut around: Vec<(f64, u32, u32)> = pm.incident[s as usize..e as usize]
            .iter()
            .map(|&(poly, i)| {
                let c = pm.corners(poly);
                let centre = c.iter().copied().sum::<DVec2>() / c.len() as f64;
                let d = file_pt(centre) - at;
                (d.y.atan2(d.x), poly, i)
            })
            .collect();
        around.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut ids: Vec<i64> = Vec::with_capacity(around.len() * 2);
        for (k, &(_, poly, i)) in around.iter().enumerate() {
            ids.push(poly as i64);
            // Counter-clockwise in the file is clockwise in plan: the next
            // polygon round is the one across this one's plan edge leaving
            // the vertex.
            let next = around[(k + 1) % around.len()].1;
            let after = pm.corner_nbr[pm.corner(poly, i)];
            if around.len() == 1 || after != next {
                ids.push(-1);
            }
        }
        let _ = write!(out, "{} {} {}", at.x, at.y, ids.len());
        for id in ids {
            let _ = write!(out, " {id}");
        }
        out.push('\n');
    }
    for p in 0..pm.polys.len() as u32 {
        let n = pm.polys[p as usize].len;
        // Corners in file order (plan order reversed) ...
        let order: Vec<u32> = (0..n).rev().collect();
        let _ = write!(out, "{n}");
        for &i in &order {
            let _ = write!(out, " {}", pm.corner_vert[pm.corner(p, i)]);
        }
        // ... and neighbour k across the edge from file corner k - 1 to k,
        // which is plan edge order[k] -> order[k - 1].
        for &edge in &order {
            let nbr = pm.corner_nbr[pm.corner(p, edge)];
            let _ = write!(out, " {}", if nbr == NONE { -1 } else { nbr as i64 });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::grid_mesh;

    #[test]
    fn two_cells_write_the_formats_lines() {
        let text = to_polyanya_mesh(&grid_mesh(2, 1, |_, _| false));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[..3], &["mesh", "2", "6 2"]);
        // Every polygon: 4 vertices, one neighbour, three walls.
        for l in &lines[9..] {
            let f: Vec<i64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            assert_eq!(f[0], 4);
            assert_eq!(f[5..].iter().filter(|x| **x == -1).count(), 3);
        }
        // A shared vertex lists both cells and one gap.
        let shared = lines[3..9]
            .iter()
            .filter(|l| l.split(' ').nth(2) == Some("3"))
            .count();
        assert_eq!(shared, 2);
    }
}
