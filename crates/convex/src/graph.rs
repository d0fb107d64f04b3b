//! The planar graph the decomposition grows: the floor plan's boundary edges
//! (directed so that free space is on their left) plus the portals, with the
//! exact angular order of segments around each vertex and the faces the
//! segments bound.

use std::cmp::Ordering;

use glam::DVec2;
use navscope_core::geom::{Orientation, orient, orient_value};
use serde::Serialize;

/// What a segment of the graph is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SegKind {
    /// A piece of the boundary of ring `ring` (0 = outer), directed with
    /// free space on its left.
    Boundary {
        /// Ring index.
        ring: u32,
    },
    /// Portal number `id`.
    Portal {
        /// Portal index.
        id: u32,
    },
}

/// A segment between two vertices.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Seg {
    /// First vertex (for boundary pieces: the one free space is left of
    /// when walking to `b`).
    pub a: u32,
    /// Second vertex.
    pub b: u32,
    /// Boundary piece or portal.
    pub kind: SegKind,
    /// False once removed (a split boundary piece, a removed portal).
    pub alive: bool,
}

/// Vertices and segments; dead segments stay in `segs` so ids are stable.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlanGraph {
    /// Vertex positions (plan coordinates).
    pub points: Vec<DVec2>,
    /// Every segment ever added.
    pub segs: Vec<Seg>,
    /// Alive segments at each vertex, unordered.
    #[serde(skip)]
    pub adj: Vec<Vec<u32>>,
}

/// Half-plane rank of a direction for angular sorting: 0 for angles in
/// `[0, pi)`, 1 for `[pi, 2 pi)`.
fn half(d: DVec2) -> u8 {
    if d.y > 0.0 || (d.y == 0.0 && d.x > 0.0) {
        0
    } else {
        1
    }
}

/// Exact counter-clockwise order of the directions `p - c` and `q - c`.
pub fn ccw_cmp(c: DVec2, p: DVec2, q: DVec2) -> Ordering {
    let (hp, hq) = (half(p - c), half(q - c));
    if hp != hq {
        return hp.cmp(&hq);
    }
    match orient(c, p, q) {
        Orientation::CounterClockwise => Ordering::Less,
        Orientation::Clockwise => Ordering::Greater,
        Orientation::Collinear => Ordering::Equal,
    }
}

/// Counter-clockwise angle in `(0, 2 pi]` swept from direction `p - c` to
/// direction `q - c` (a full turn when they coincide).
pub fn ccw_angle(c: DVec2, p: DVec2, q: DVec2) -> f64 {
    let (u, w) = (p - c, q - c);
    let a = u.perp_dot(w).atan2(u.dot(w));
    if a <= 0.0 {
        a + std::f64::consts::TAU
    } else {
        a
    }
}

/// True when the counter-clockwise sector from `p - c` to `q - c` is at
/// most `pi + tau` (tau in radians): a tau-convex corner. Exact for
/// `tau == 0` (a straight corner counts as convex).
pub fn sector_ok(c: DVec2, p: DVec2, q: DVec2, tau: f64) -> bool {
    if tau > 0.0 {
        return ccw_angle(c, p, q) <= std::f64::consts::PI + tau;
    }
    let cross = orient_value(c, p, q);
    cross > 0.0 || (cross == 0.0 && (p - c).dot(q - c) < 0.0)
}

impl PlanGraph {
    /// The graph of the rings' boundary edges: vertex ids run ring by ring
    /// (outer first) in ring order; ring `r`'s edges go from vertex `i` to
    /// `i + 1`.
    pub fn from_rings(rings: &[Vec<DVec2>]) -> Self {
        let mut g = PlanGraph::default();
        for (r, ring) in rings.iter().enumerate() {
            let base = g.points.len() as u32;
            g.points.extend(ring.iter().copied());
            g.adj.extend(ring.iter().map(|_| Vec::new()));
            let n = ring.len() as u32;
            for i in 0..n {
                g.add_seg(
                    base + i,
                    base + (i + 1) % n,
                    SegKind::Boundary { ring: r as u32 },
                );
            }
        }
        g
    }

    /// Adds a segment and returns its id.
    pub fn add_seg(&mut self, a: u32, b: u32, kind: SegKind) -> u32 {
        let id = self.segs.len() as u32;
        self.segs.push(Seg {
            a,
            b,
            kind,
            alive: true,
        });
        self.adj[a as usize].push(id);
        self.adj[b as usize].push(id);
        id
    }

    /// Adds a vertex and returns its id.
    pub fn add_point(&mut self, p: DVec2) -> u32 {
        self.points.push(p);
        self.adj.push(Vec::new());
        (self.points.len() - 1) as u32
    }

    /// Removes segment `s` (it stays in `segs`, marked dead).
    pub fn kill_seg(&mut self, s: u32) {
        let seg = &mut self.segs[s as usize];
        seg.alive = false;
        let (a, b) = (seg.a, seg.b);
        self.adj[a as usize].retain(|&x| x != s);
        self.adj[b as usize].retain(|&x| x != s);
    }

    /// Splits segment `s` at the new vertex `q`; returns the two halves
    /// (from `a` to `q`, from `q` to `b`), which keep its kind.
    pub fn split_seg(&mut self, s: u32, q: u32, kinds: [SegKind; 2]) -> [u32; 2] {
        let Seg { a, b, .. } = self.segs[s as usize];
        self.kill_seg(s);
        [self.add_seg(a, q, kinds[0]), self.add_seg(q, b, kinds[1])]
    }

    /// The other end of segment `s` seen from `v`.
    pub fn other(&self, s: u32, v: u32) -> u32 {
        let seg = &self.segs[s as usize];
        if seg.a == v { seg.b } else { seg.a }
    }

    /// The alive segments at `v` in counter-clockwise order of their
    /// directions, starting with the outgoing boundary piece when there is
    /// one (so the obstacle sector, if any, is the last one).
    pub fn around(&self, v: u32) -> Vec<u32> {
        let c = self.points[v as usize];
        let mut list = self.adj[v as usize].clone();
        list.sort_by(|&s, &t| {
            ccw_cmp(
                c,
                self.points[self.other(s, v) as usize],
                self.points[self.other(t, v) as usize],
            )
            .then(s.cmp(&t))
        });
        if let Some(i) = list.iter().position(|&s| {
            let seg = &self.segs[s as usize];
            seg.a == v && matches!(seg.kind, SegKind::Boundary { .. })
        }) {
            list.rotate_left(i);
        }
        list
    }

    /// True when every free sector at `v` (between consecutive segments,
    /// leaving out the obstacle sector between the incoming and outgoing
    /// boundary pieces) is tau-convex.
    pub fn corner_ok(&self, v: u32, tau: f64) -> bool {
        let list = self.around(v);
        let c = self.points[v as usize];
        let n = list.len();
        (0..n).all(|i| {
            let (s, t) = (list[i], list[(i + 1) % n]);
            let tseg = &self.segs[t as usize];
            let obstacle =
                i + 1 == n && tseg.a == v && matches!(tseg.kind, SegKind::Boundary { .. });
            obstacle
                || sector_ok(
                    c,
                    self.points[self.other(s, v) as usize],
                    self.points[self.other(t, v) as usize],
                    tau,
                )
        })
    }

    /// The faces of the graph: closed walks with free space on their left.
    pub fn faces(&self) -> Faces {
        // Half-edges: (segment, forward?) for every alive portal in both
        // directions and every boundary piece forward only.
        let n = self.segs.len();
        let order: Vec<Vec<u32>> = (0..self.points.len() as u32)
            .map(|v| self.around(v))
            .collect();
        // Position of segment s in the order of each of its ends.
        let mut pos_a = vec![u32::MAX; n];
        let mut pos_b = vec![u32::MAX; n];
        for (v, list) in order.iter().enumerate() {
            for (i, &s) in list.iter().enumerate() {
                if self.segs[s as usize].a == v as u32 {
                    pos_a[s as usize] = i as u32;
                } else {
                    pos_b[s as usize] = i as u32;
                }
            }
        }
        let mut face_of = vec![[u32::MAX; 2]; n];
        let mut walks = Vec::new();
        for s0 in 0..n {
            let seg = &self.segs[s0];
            if !seg.alive {
                continue;
            }
            let dirs: &[usize] = if matches!(seg.kind, SegKind::Portal { .. }) {
                &[0, 1]
            } else {
                &[0]
            };
            for &d0 in dirs {
                if face_of[s0][d0] != u32::MAX {
                    continue;
                }
                let fid = walks.len() as u32;
                let mut walk = FaceWalk {
                    vertices: Vec::new(),
                    segs: Vec::new(),
                    signed_area: 0.0,
                };
                let (mut s, mut d) = (s0, d0);
                // A walk can never be longer than the number of half-edges.
                for _ in 0..=2 * n {
                    if face_of[s][d] != u32::MAX {
                        break;
                    }
                    face_of[s][d] = fid;
                    let sg = &self.segs[s];
                    let (from, to) = if d == 0 { (sg.a, sg.b) } else { (sg.b, sg.a) };
                    walk.vertices.push(from);
                    walk.segs.push(s as u32);
                    // At `to`, the next segment clockwise from the one we came along.
                    let list = &order[to as usize];
                    let i = if sg.a == to { pos_a[s] } else { pos_b[s] } as usize;
                    let t = list[(i + list.len() - 1) % list.len()] as usize;
                    s = t;
                    d = if self.segs[t].a == to { 0 } else { 1 };
                }
                let pts: Vec<DVec2> = walk
                    .vertices
                    .iter()
                    .map(|&v| self.points[v as usize])
                    .collect();
                walk.signed_area = signed_area(&pts);
                walks.push(walk);
            }
        }
        Faces { walks, face_of }
    }
}

/// Shoelace signed area (positive counter-clockwise), summed relative to the
/// first point for accuracy.
pub fn signed_area(pts: &[DVec2]) -> f64 {
    if pts.len() < 3 {
        return 0.0;
    }
    let o = pts[0];
    let mut s = 0.0;
    for i in 1..pts.len() - 1 {
        s += (pts[i] - o).perp_dot(pts[i + 1] - o);
    }
    0.5 * s
}

/// One closed walk around a face.
#[derive(Clone, Debug, Serialize)]
pub struct FaceWalk {
    /// Vertices in walking order (free space on the left).
    pub vertices: Vec<u32>,
    /// The segment leaving each vertex.
    pub segs: Vec<u32>,
    /// Positive for a face's outline (a cell), negative for the outline of
    /// an island of holes and portals floating inside a face.
    pub signed_area: f64,
}

impl FaceWalk {
    /// True for the outline of a cell: counter-clockwise and never running
    /// along the same segment twice (which a portal joining an island by
    /// itself would make it do).
    pub fn is_simple_outline(&self) -> bool {
        if self.signed_area <= 0.0 {
            return false;
        }
        let mut segs = self.segs.clone();
        segs.sort_unstable();
        segs.windows(2).all(|w| w[0] != w[1])
    }
}

/// The faces of a [`PlanGraph`].
#[derive(Clone, Debug)]
pub struct Faces {
    /// Every walk.
    pub walks: Vec<FaceWalk>,
    /// For each segment, the walk along it forwards (`[0]`, a to b) and
    /// backwards (`[1]`); `u32::MAX` where none.
    pub face_of: Vec<[u32; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn angular_order_is_exact_and_starts_at_the_outgoing_edge() {
        let sq = vec![v(0., 0.), v(2., 0.), v(2., 2.), v(0., 2.)];
        let mut g = PlanGraph::from_rings(&[sq]);
        let p = g.add_seg(0, 2, SegKind::Portal { id: 0 });
        // Around vertex 0: outgoing edge to (2,0), the diagonal, the incoming edge from (0,2).
        assert_eq!(g.around(0), vec![0, p, 3]);
        assert!(g.corner_ok(0, 0.0));
        assert_eq!(ccw_cmp(v(0., 0.), v(1., 0.), v(-1., 0.)), Ordering::Less);
        assert_eq!(
            ccw_cmp(v(0., 0.), v(1., -1e-300), v(1., 0.)),
            Ordering::Greater
        );
    }

    #[test]
    fn sectors_straight_corners_are_convex() {
        let c = v(0., 0.);
        assert!(sector_ok(c, v(1., 0.), v(-1., 0.), 0.0));
        assert!(sector_ok(c, v(1., 0.), v(0., 1.), 0.0));
        assert!(!sector_ok(c, v(1., 0.), v(0., -1.), 0.0));
        assert!(!sector_ok(c, v(1., 0.), v(1., 0.), 0.0));
        assert!(sector_ok(c, v(1., 0.), v(-1., -0.05), 5f64.to_radians()));
        assert!(!sector_ok(c, v(1., 0.), v(-1., -0.2), 5f64.to_radians()));
    }

    #[test]
    fn faces_of_a_split_square_and_a_floating_hole() {
        let sq = vec![v(0., 0.), v(4., 0.), v(4., 4.), v(0., 4.)];
        let hole = vec![v(1., 1.), v(1., 2.), v(2., 2.), v(2., 1.)];
        let mut g = PlanGraph::from_rings(&[sq, hole]);
        let f = g.faces();
        let mut areas: Vec<f64> = f.walks.iter().map(|w| w.signed_area).collect();
        areas.sort_by(f64::total_cmp);
        assert_eq!(
            areas,
            vec![-1.0, 16.0],
            "the unjoined hole is an island walk"
        );
        // Join the hole to the outer corner and split the rest.
        g.add_seg(0, 4, SegKind::Portal { id: 0 });
        g.add_seg(2, 6, SegKind::Portal { id: 1 });
        let f = g.faces();
        let mut areas: Vec<f64> = f.walks.iter().map(|w| w.signed_area).collect();
        areas.sort_by(f64::total_cmp);
        assert_eq!(areas.len(), 2);
        assert!(areas.iter().all(|a| *a > 0.0));
        assert!((areas.iter().sum::<f64>() - 15.0).abs() < 1e-12);
        for s in [8usize, 9] {
            assert_ne!(
                f.face_of[s][0], f.face_of[s][1],
                "a portal separates two faces"
            );
        }
    }
}
