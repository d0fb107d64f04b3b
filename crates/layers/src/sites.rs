//! Obstacle sites: the boundary features of every layer that face free
//! space, with connections closed.
//!
//! Each layer's obstacles are its ring edges plus every connection on it,
//! snapped to the grid and arranged so they meet only at endpoints. A piece
//! of an obstacle is a *segment site* once per side that faces free space
//! (a ring edge has one such side, a connection inside a layer has two);
//! every piece endpoint is a *point site*. A site belongs to one layer. The
//! side of a connection piece that faces its access side (left of `a -> b`
//! on the `from` layer, right of it on the `to` layer) is marked with the
//! connection: those are the sites that vanish when it is opened.

use std::collections::HashMap;

use glam::DVec2;
use navscope_core::geom::{Polygon, PolygonWithHoles, validate_polygon_with_holes};
use navscope_core::level::{LayerPlane, LayeredLevel};
use rayon::prelude::*;
use serde::Serialize;

use crate::grid::{Grid, IPt, arrange};

/// Which side of its segment a segment site faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Side {
    /// Left of the stored direction `a -> b`.
    Left,
    /// Right of it.
    Right,
}

/// Geometry of a site, in plan metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Geom {
    /// A vertex.
    Point(DVec2),
    /// A segment `a -> b`.
    Segment(DVec2, DVec2),
}

impl Geom {
    /// The point of the site closest to `p`.
    pub fn closest(&self, p: DVec2) -> DVec2 {
        match *self {
            Geom::Point(q) => q,
            Geom::Segment(a, b) => closest_on_segment(a, b, p),
        }
    }

    /// Distance from `p` to the site.
    pub fn distance(&self, p: DVec2) -> f64 {
        self.closest(p).distance(p)
    }
}

/// The point of segment `a b` closest to `p`.
pub fn closest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// One obstacle site.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Site {
    /// Layer index.
    pub layer: usize,
    /// Geometry (plan metres).
    pub geom: Geom,
    /// Grid endpoints (equal for a point site).
    pub grid: [IPt; 2],
    /// For a segment site, the side it faces.
    pub side: Option<Side>,
    /// The connection this segment belongs to, if any.
    pub connection: Option<usize>,
    /// The connection whose access side this site is, if any.
    pub access: Option<usize>,
    /// For a point site strictly inside a connection that no other obstacle
    /// ends at (a collinear ring vertex the connection covers, or where its
    /// pieces were split), that connection: the point stops being an
    /// obstacle when the connection opens. The connection's own endpoints
    /// and wall corners on it stay obstacles.
    pub within: Option<usize>,
}

impl Site {
    /// True when the site can be seen from `p`: always for a point, and for
    /// a segment when `p` lies on the side it faces.
    pub fn faces(&self, p: DVec2) -> bool {
        match (self.geom, self.side) {
            (Geom::Segment(a, b), Some(side)) => {
                let o = (b - a).perp_dot(p - a);
                match side {
                    Side::Left => o > 0.0,
                    Side::Right => o < 0.0,
                }
            }
            _ => true,
        }
    }
}

/// A connection after snapping, in plan metres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Conn {
    /// Start.
    pub a: DVec2,
    /// End.
    pub b: DVec2,
    /// Layer on its left (access side).
    pub from: usize,
    /// Layer on its right.
    pub to: usize,
    /// Index of the first connection making the same join (itself when it
    /// is the first): a reversed connection with `from` and `to` swapped
    /// joins the same two sides, so it is opened once.
    pub same_as: usize,
}

/// One obstacle piece of a layer: the input of its Voronoi diagram.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Piece {
    /// Grid start.
    pub a: IPt,
    /// Grid end.
    pub b: IPt,
    /// Segment site on each side (`[left, right]`), where free space is.
    pub sites: [Option<u32>; 2],
    /// The connection the piece belongs to, if any.
    pub connection: Option<usize>,
}

/// Every site of a level, and each layer's obstacle pieces.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Sites {
    /// All sites; ids are indices.
    pub list: Vec<Site>,
    /// Obstacle pieces per layer.
    pub pieces: Vec<Vec<Piece>>,
    /// Snapped free space per layer (metres).
    pub areas: Vec<PolygonWithHoles>,
    /// Snapped connections.
    pub conns: Vec<Conn>,
    #[serde(skip)]
    points: HashMap<(usize, IPt), u32>,
}

impl Sites {
    /// The point site at grid point `p` of `layer`, if there is one.
    pub fn point(&self, layer: usize, p: IPt) -> Option<u32> {
        self.points.get(&(layer, p)).copied()
    }

    /// The sites forming the access side of connection `c`.
    pub fn access(&self, c: usize) -> Vec<u32> {
        (0..self.list.len() as u32)
            .filter(|&s| self.list[s as usize].access == Some(c))
            .collect()
    }

    /// Builds the sites of `level` on `grid`, checking the level: it must
    /// have a layer, valid layers, connections joining two different
    /// existing layers and lying in both, with free space on their access
    /// sides, and no two different connections overlapping on a layer.
    pub fn build(level: &LayeredLevel, grid: Grid) -> Result<Sites, String> {
        if level.layers.is_empty() {
            return Err("the level has no layers".into());
        }
        // Layers are validated in parallel (the costliest check); the
        // first failing layer in index order is reported.
        let checked: Vec<Result<(), String>> = level
            .layers
            .par_iter()
            .with_max_len(1)
            .map(|layer| validate_polygon_with_holes(&layer.area).map_err(|e| e.to_string()))
            .collect();
        let mut s = Sites::default();
        let mut rings_by_layer = Vec::new();
        for ((li, layer), valid) in level.layers.iter().enumerate().zip(checked) {
            let name = format!("layer {li} ('{}')", layer.name);
            let plane = layer.plane();
            if !(plane.height.is_finite() && plane.slope.is_finite()) {
                return Err(format!("{name}: its plane is not finite"));
            }
            if plane.incline_degrees() > LayerPlane::MAX_INCLINE_DEGREES {
                return Err(format!(
                    "{name}: its plane is too steep to walk ({:.1}°, at most {}°)",
                    plane.incline_degrees(),
                    LayerPlane::MAX_INCLINE_DEGREES
                ));
            }
            valid.map_err(|e| format!("{name}: {e}"))?;
            let mut rings: Vec<Vec<IPt>> = Vec::new();
            for ring in layer.area.rings() {
                let mut pts = Vec::with_capacity(ring.len());
                for &p in &ring.points {
                    let q = grid.snap(p).ok_or_else(|| {
                        format!(
                            "{name}: vertex ({}, {}) is too far out for the {} m grid",
                            p.x, p.y, grid.step
                        )
                    })?;
                    if pts.last() != Some(&q) {
                        pts.push(q);
                    }
                }
                while pts.len() > 1 && pts.first() == pts.last() {
                    pts.pop();
                }
                if pts.len() < 3 {
                    return Err(format!(
                        "{name}: a ring collapses to fewer than 3 vertices on the {} m grid",
                        grid.step
                    ));
                }
                rings.push(pts);
            }
            let poly = |r: &Vec<IPt>| Polygon::new(r.iter().map(|&p| grid.plan(p)).collect());
            s.areas.push(PolygonWithHoles::new(
                poly(&rings[0]),
                rings[1..].iter().map(poly).collect(),
            ));
            rings_by_layer.push(rings);
        }
        for (ci, c) in level.connections.iter().enumerate() {
            let n = level.layers.len();
            if c.from >= n || c.to >= n {
                return Err(format!(
                    "connection {ci}: joins layers {} and {} but there are {n} layers",
                    c.from, c.to
                ));
            }
            if c.from == c.to {
                return Err(format!("connection {ci}: joins layer {} to itself", c.from));
            }
            let snap = |p: DVec2| {
                grid.snap(p).ok_or_else(|| {
                    format!(
                        "connection {ci}: endpoint ({}, {}) is not a usable coordinate",
                        p.x, p.y
                    )
                })
            };
            let (a, b) = (snap(c.a)?, snap(c.b)?);
            if a == b {
                return Err(format!(
                    "connection {ci}: has zero length on the {} m grid",
                    grid.step
                ));
            }
            let (pa, pb) = (grid.plan(a), grid.plan(b));
            let same_as = s
                .conns
                .iter()
                .position(|d| {
                    (d.a == pa && d.b == pb && d.from == c.from && d.to == c.to)
                        || (d.a == pb && d.b == pa && d.from == c.to && d.to == c.from)
                })
                .map_or(ci, |k| s.conns[k].same_as);
            s.conns.push(Conn {
                a: pa,
                b: pb,
                from: c.from,
                to: c.to,
                same_as,
            });
        }
        for (li, rings) in rings_by_layer.iter().enumerate() {
            s.build_layer(li, &level.layers[li].name, rings, grid)?;
        }
        Ok(s)
    }

    fn build_layer(
        &mut self,
        li: usize,
        lname: &str,
        rings: &[Vec<IPt>],
        grid: Grid,
    ) -> Result<(), String> {
        let mut segs: Vec<(IPt, IPt)> = Vec::new();
        let mut owner: Vec<Option<usize>> = Vec::new();
        for r in rings {
            for i in 0..r.len() {
                segs.push((r[i], r[(i + 1) % r.len()]));
                owner.push(None);
            }
        }
        for (ci, c) in self.conns.iter().enumerate() {
            if c.same_as == ci && (c.from == li || c.to == li) {
                segs.push((
                    grid.snap(c.a).unwrap_or_default(),
                    grid.snap(c.b).unwrap_or_default(),
                ));
                owner.push(Some(ci));
            }
        }
        let area = self.areas[li].clone();
        let mut pieces = Vec::new();
        for p in arrange(&segs) {
            let mut free = [false, false];
            let mut conn = None;
            let mut ring = false;
            for &(src, same) in &p.sources {
                match owner[src] {
                    None => {
                        ring = true;
                        free[if same { 0 } else { 1 }] = true;
                    }
                    Some(c) => {
                        if conn.is_some_and(|d| d != c) {
                            return Err(format!(
                                "connections {} and {c} overlap on layer {li} ('{lname}')",
                                conn.unwrap_or(c)
                            ));
                        }
                        conn = Some(c);
                    }
                }
            }
            let (pa, pb) = (grid.plan(p.a), grid.plan(p.b));
            // The side a connection piece is entered from (index into `free`).
            let need = if let Some(c) = conn {
                if !ring {
                    let mid = (pa + pb) * 0.5;
                    if !area.contains(mid) || area.rings().any(|r| r.on_boundary(mid)) {
                        return Err(format!(
                            "connection {c}: leaves the free space of layer {li} ('{lname}') near ({:.3}, {:.3})",
                            mid.x, mid.y
                        ));
                    }
                    free = [true, true];
                }
                // The access side, relative to the piece's direction.
                let cn = self.conns[c];
                let along = (cn.b - cn.a).dot(pb - pa) > 0.0;
                let access_left = (li == cn.from) == along;
                let need = if access_left { 0 } else { 1 };
                if !free[need] {
                    let side = if li == cn.from { "left" } else { "right" };
                    return Err(format!(
                        "connection {c}: its access side ({side} of a -> b) is not free space on layer {li} ('{lname}')"
                    ));
                }
                Some(need)
            } else {
                None
            };
            let mut sites = [None, None];
            for (k, side) in [Side::Left, Side::Right].into_iter().enumerate() {
                if free[k] {
                    sites[k] = Some(self.push(Site {
                        layer: li,
                        geom: Geom::Segment(pa, pb),
                        grid: [p.a, p.b],
                        side: Some(side),
                        connection: conn,
                        access: conn.filter(|_| need == Some(k)),
                        within: None,
                    }));
                }
            }
            pieces.push(Piece {
                a: p.a,
                b: p.b,
                sites,
                connection: conn,
            });
        }
        // For every piece endpoint: the connection of the first piece
        // ending there, and whether every piece ending there has the same.
        let mut ends: HashMap<IPt, (Option<usize>, bool)> = HashMap::with_capacity(pieces.len());
        for p in &pieces {
            for q in [p.a, p.b] {
                ends.entry(q)
                    .and_modify(|e| e.1 &= e.0 == p.connection)
                    .or_insert((p.connection, true));
            }
        }
        for p in &pieces {
            for q in [p.a, p.b] {
                if !self.points.contains_key(&(li, q)) {
                    let within = match ends.get(&q) {
                        Some(&(Some(c), true)) => {
                            let cn = self.conns[c];
                            let pq = grid.plan(q);
                            (pq != cn.a && pq != cn.b).then_some(c)
                        }
                        _ => None,
                    };
                    let id = self.push(Site {
                        layer: li,
                        geom: Geom::Point(grid.plan(q)),
                        grid: [q, q],
                        side: None,
                        connection: None,
                        access: None,
                        within,
                    });
                    self.points.insert((li, q), id);
                }
            }
        }
        self.pieces.push(pieces);
        Ok(())
    }

    fn push(&mut self, s: Site) -> u32 {
        self.list.push(s);
        (self.list.len() - 1) as u32
    }
}

/// Which side of segment `a b` the point `p` is on (`None` on its line).
pub fn side_of(a: IPt, b: IPt, p: DVec2, grid: Grid) -> Option<Side> {
    let (pa, pb) = (grid.plan(a), grid.plan(b));
    let o = (pb - pa).perp_dot(p - pa);
    if o > 0.0 {
        Some(Side::Left)
    } else if o < 0.0 {
        Some(Side::Right)
    } else {
        None
    }
}
