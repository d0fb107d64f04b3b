//! Point location: which node a 3D point stands on.
//!
//! The [`Locator`] keeps one R-tree (`rstar`) of the nodes' 3D bounding
//! boxes and a grid of the polygons' boxes seen from above (module
//! `plan_grid`). A query first collects every polygon whose plan (seen
//! from above) contains the point, among those whose boxes the vertical
//! line through the point meets (found through the grid), and keeps the
//! one whose surface is nearest in height. When no polygon contains the point, or the nearest containing one
//! is too far above or below, the nearest node in 3D is taken instead (a
//! polygon's distance is measured to its boundary; a point node's to its
//! position). Anything further than [`Locator::max_distance`] is off the
//! mesh. Ties go to the smallest node id, so the answer is deterministic.
//!
//! Heights follow a node's `detail` triangles where it has usable ones
//! (module `detail`): a point inside the polygon is dropped onto the detail
//! surface, a point outside goes to the closest boundary point lifted onto
//! it, and distances are measured to those points. The locator prepares
//! every node's detail once, when it is built; [`crate::find_path`] reuses
//! it for the path's waypoints.

use std::sync::Arc;

use glam::{DVec2, DVec3};
use navscope_core::NavMesh;
use navscope_core::geom::{Polygon, world_to_plan};
use rstar::{AABB, PointDistance, RTree, RTreeObject};

use crate::crossing::{Crossing, crossing_with, plan_polygon};
use crate::detail::Detail;
use crate::plan_grid::PlanGrid;
use crate::surface::{plan_ring, snap_inside, snap_to_surface};

/// Default for [`Locator::max_distance`], in metres: about a standing
/// agent's height, so a point given at eye level above the floor still finds
/// the floor, while a point in another room's air does not.
pub const DEFAULT_MAX_DISTANCE: f64 = 2.0;

/// Where a point lies on the mesh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Location {
    /// The node the point belongs to.
    pub node: u32,
    /// The point snapped onto the node: dropped vertically onto its surface
    /// (the detail triangles where the node has them, else the polygon's
    /// plane) when inside it seen from above, else the closest boundary
    /// point (at the detail's height there, where the node has detail); a
    /// point node's position.
    pub point: DVec3,
    /// Distance from the query point to [`Location::point`], metres.
    pub distance: f64,
    /// True when the node's polygon contains the point seen from above.
    pub inside: bool,
}

/// One way across a link, as the funnel needs it (see
/// [`Locator::link_crossing`] and [`Locator::portal_holder`]).
#[derive(Clone, Copy, Debug, Default)]
struct LinkCrossing {
    way: Option<Crossing>,
    holder: Option<usize>,
}

/// One node as stored in the tree.
#[derive(Clone, Debug)]
struct Entry {
    node: u32,
    shape: Arc<Shape>,
    envelope: AABB<[f64; 3]>,
}

#[derive(Clone, Debug)]
enum Shape {
    Polygon {
        points: Vec<DVec3>,
        ring: Polygon,
        detail: Option<Arc<Detail>>,
    },
    Point(DVec3),
}

impl Entry {
    /// Snapped point, distance and inside flag for `p`.
    fn snap(&self, p: DVec3) -> (DVec3, f64, bool) {
        match &*self.shape {
            Shape::Polygon {
                points,
                ring,
                detail,
            } => snap_to_surface(points, ring, detail.as_deref(), p),
            Shape::Point(q) => (*q, q.distance(p), false),
        }
    }
}

impl RTreeObject for Entry {
    type Envelope = AABB<[f64; 3]>;

    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

impl PointDistance for Entry {
    /// The squared [`Location::distance`]. It is never below the distance to
    /// the bounding box, since the snapped point lies in the node.
    fn distance_2(&self, point: &[f64; 3]) -> f64 {
        let d = self.snap(DVec3::from_array(*point)).1;
        d * d
    }
}

/// Point location on one NavMesh (see the module docs).
///
/// The locator copies what it needs from the mesh, so it can be kept
/// alongside it; rebuild it when the mesh changes.
#[derive(Clone, Debug)]
pub struct Locator {
    tree: RTree<Entry>,
    /// The polygon entries, `(x, z)` corners of their boxes first.
    columns: Vec<(DVec2, DVec2, Entry)>,
    /// [`Locator::columns`]' boxes by where they lie seen from above.
    grid: PlanGrid,
    /// Each node's prepared detail, by node id.
    details: Vec<Option<Arc<Detail>>>,
    /// For each link and way across it (from `from` to `to`, then back),
    /// prepared once for the funnel: its crossing (module `crossing`) and,
    /// for a segment crossed anywhere, the
    /// [`Detail::holder`] of that segment among the details of the node
    /// entered and the node left.
    crossings: Vec<[LinkCrossing; 2]>,
    /// A point further than this from every node (metres) is off the mesh.
    pub max_distance: f64,
}

impl Locator {
    /// Indexes every node of `mesh`. Nodes with a non-finite coordinate or a
    /// polygon of fewer than three vertices cannot be located and are left
    /// out (a validated mesh has none). Each polygon node's `detail` is
    /// prepared here; detail triangles that cannot give a height (see the
    /// `detail` module) are left out, and a node left with none keeps its
    /// polygon's plane.
    pub fn new(mesh: &NavMesh) -> Self {
        let mut entries = Vec::with_capacity(mesh.nodes.len());
        let mut details = vec![None; mesh.nodes.len()];
        for (i, n) in mesh.nodes.iter().enumerate() {
            let (shape, points): (Shape, Vec<DVec3>) = match &n.polygon {
                Some(poly) if poly.len() >= 3 => (
                    Shape::Polygon {
                        points: poly.clone(),
                        ring: plan_ring(poly),
                        detail: Detail::of_node(n).map(Arc::new),
                    },
                    poly.clone(),
                ),
                Some(_) => continue,
                None => (Shape::Point(n.position), vec![n.position]),
            };
            if points.iter().any(|p| !p.is_finite()) {
                continue;
            }
            let mut lo = points.iter().fold(DVec3::INFINITY, |a, p| a.min(*p));
            let mut hi = points.iter().fold(DVec3::NEG_INFINITY, |a, p| a.max(*p));
            // Snapped points take detail heights: the box holds them.
            if let Shape::Polygon {
                detail: Some(d), ..
            } = &shape
            {
                let (dlo, dhi) = d.bounds();
                (lo, hi) = (lo.min(dlo), hi.max(dhi));
                details[i] = Some(Arc::clone(d));
            }
            entries.push(Entry {
                node: i as u32,
                shape: Arc::new(shape),
                envelope: AABB::from_corners(lo.to_array(), hi.to_array()),
            });
        }
        let rings: Vec<Vec<DVec2>> = mesh
            .nodes
            .iter()
            .map(|n| {
                let ring = n.polygon.as_deref().and_then(plan_polygon);
                ring.map(|(plan, _)| plan).unwrap_or_default()
            })
            .collect();
        let crossings = mesh
            .links
            .iter()
            .map(|l| {
                let way = |from: u32, to: u32| {
                    let nodes = (mesh.nodes.get(from as usize), mesh.nodes.get(to as usize));
                    let (Some(a), Some(b)) = nodes else {
                        return LinkCrossing::default();
                    };
                    let (ra, rb) = (&rings[from as usize], &rings[to as usize]);
                    let way = crossing_with(a, ra, b, rb, Some(l));
                    let detail = |n: u32| details[n as usize].as_deref();
                    let holder = match way {
                        Crossing::Edge(e) => Detail::holder(e, [detail(to), detail(from)]),
                        Crossing::Points(..) => None,
                    };
                    LinkCrossing {
                        way: Some(way),
                        holder,
                    }
                };
                [way(l.from, l.to), way(l.to, l.from)]
            })
            .collect();
        let columns: Vec<(DVec2, DVec2, Entry)> = entries
            .iter()
            .filter(|e| matches!(*e.shape, Shape::Polygon { .. }))
            .map(|e| {
                let (lo, hi) = (e.envelope.lower(), e.envelope.upper());
                (
                    DVec2::new(lo[0], lo[2]),
                    DVec2::new(hi[0], hi[2]),
                    e.clone(),
                )
            })
            .collect();
        let boxes: Vec<(DVec2, DVec2)> = columns.iter().map(|c| (c.0, c.1)).collect();
        Self {
            tree: RTree::bulk_load(entries),
            grid: PlanGrid::new(&boxes),
            columns,
            details,
            crossings,
            max_distance: DEFAULT_MAX_DISTANCE,
        }
    }

    /// The prepared detail of node `node`, if it has usable detail
    /// triangles (none for an unknown id).
    pub(crate) fn detail(&self, node: u32) -> Option<&Detail> {
        self.details.get(node as usize)?.as_deref()
    }

    /// The [`Detail::holder`] of link `link`'s crossing segment, crossed
    /// from its `from` node when `forward` (else from its `to` node), among
    /// the node entered and the node left; `None` for an unknown link.
    pub(crate) fn portal_holder(&self, link: usize, forward: bool) -> Option<usize> {
        self.crossings.get(link)?[usize::from(!forward)].holder
    }

    /// The crossing (module `crossing`) of link `link` crossed from its
    /// `from` node when `forward` (else from its `to` node); `None` for an
    /// unknown link or one to an unknown node.
    pub(crate) fn link_crossing(&self, link: usize, forward: bool) -> Option<Crossing> {
        self.crossings.get(link)?[usize::from(!forward)].way
    }

    /// The same locator with another [`Locator::max_distance`].
    pub fn with_max_distance(mut self, max_distance: f64) -> Self {
        self.max_distance = max_distance;
        self
    }

    /// Number of nodes that can be located.
    pub fn len(&self) -> usize {
        self.tree.size()
    }

    /// True when no node can be located (an empty mesh).
    pub fn is_empty(&self) -> bool {
        self.tree.size() == 0
    }

    /// The node `p` stands on, or `None` when it is off the mesh (further
    /// than [`Locator::max_distance`] from every node, not a finite point,
    /// or the mesh is empty).
    pub fn locate(&self, p: DVec3) -> Option<Location> {
        if !p.is_finite() || self.is_empty() {
            return None;
        }
        let best = |a: Option<Location>, b: Location| match a {
            Some(a) if (a.distance, a.node) <= (b.distance, b.node) => Some(a),
            _ => Some(b),
        };
        // Polygons containing p seen from above, among those whose boxes
        // the vertical line through p meets.
        let q = DVec2::new(p.x, p.z);
        let mut containing: Option<Location> = None;
        for &i in self.grid.near(q) {
            let (lo, hi, e) = &self.columns[i as usize];
            if let Shape::Polygon {
                points,
                ring,
                detail,
            } = &*e.shape
                && q.cmpge(*lo).all()
                && q.cmple(*hi).all()
                && ring.contains(world_to_plan(p), true)
            {
                let (point, distance, inside) = snap_inside(points, detail.as_deref(), p);
                containing = best(
                    containing,
                    Location {
                        node: e.node,
                        point,
                        distance,
                        inside,
                    },
                );
            }
        }
        if let Some(c) = containing.filter(|c| c.distance <= self.max_distance) {
            return Some(c);
        }
        // Otherwise the nearest node, smallest id among equals.
        let mut nearest: Option<Location> = None;
        for (e, d2) in self
            .tree
            .nearest_neighbor_iter_with_distance_2(&p.to_array())
        {
            if nearest.is_some_and(|n| d2.sqrt() > n.distance) {
                break;
            }
            let (point, distance, inside) = e.snap(p);
            nearest = best(
                nearest,
                Location {
                    node: e.node,
                    point,
                    distance,
                    inside,
                },
            );
        }
        nearest.filter(|n| n.distance <= self.max_distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::{LinkKind, Stance};

    fn square(x: f64, y: f64, z: f64) -> Vec<DVec3> {
        vec![
            DVec3::new(x, y, z + 1.),
            DVec3::new(x + 1., y, z + 1.),
            DVec3::new(x + 1., y, z),
            DVec3::new(x, y, z),
        ]
    }

    /// Two stacked floors over the same square, a neighbour, and a point node.
    fn mesh() -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        m.add_node(
            DVec3::new(0.5, 0., 0.5),
            Some(square(0., 0., 0.)),
            Stance::Stand,
            0,
        );
        m.add_node(
            DVec3::new(0.5, 3., 0.5),
            Some(square(0., 3., 0.)),
            Stance::Stand,
            1,
        );
        m.add_node(
            DVec3::new(1.5, 0., 0.5),
            Some(square(1., 0., 0.)),
            Stance::Crouch,
            0,
        );
        m.add_node(DVec3::new(5., 0., 5.), None, Stance::Stand, 0);
        m.add_two_way(
            0,
            2,
            LinkKind::Portal,
            1.0,
            Some([DVec3::new(1., 0., 0.), DVec3::new(1., 0., 1.)]),
        );
        m
    }

    #[test]
    fn picks_the_containing_polygon_nearest_in_height() {
        let l = Locator::new(&mesh());
        let a = l.locate(DVec3::new(0.25, 0.5, 0.75)).unwrap();
        assert_eq!((a.node, a.inside), (0, true));
        assert_eq!(a.point, DVec3::new(0.25, 0., 0.75));
        assert!((a.distance - 0.5).abs() < 1e-12);
        let b = l.locate(DVec3::new(0.25, 2.0, 0.75)).unwrap();
        assert_eq!(b.node, 1);
        assert!((b.distance - 1.0).abs() < 1e-12);
    }

    #[test]
    fn shared_edge_goes_to_the_smaller_id() {
        let l = Locator::new(&mesh());
        assert_eq!(l.locate(DVec3::new(1.0, 0.0, 0.5)).unwrap().node, 0);
    }

    #[test]
    fn outside_points_snap_to_the_nearest_node_or_are_off_the_mesh() {
        let l = Locator::new(&mesh());
        let a = l.locate(DVec3::new(2.5, 0.0, 0.5)).unwrap();
        assert_eq!((a.node, a.inside), (2, false));
        assert_eq!(a.point, DVec3::new(2.0, 0.0, 0.5));
        let p = l.locate(DVec3::new(5.5, 0.0, 5.0)).unwrap();
        assert_eq!((p.node, p.point), (3, DVec3::new(5., 0., 5.)));
        assert!(l.locate(DVec3::new(20.0, 0.0, 0.0)).is_none());
        assert!(
            l.clone()
                .with_max_distance(100.0)
                .locate(DVec3::new(20.0, 0.0, 0.0))
                .is_some()
        );
        assert!(l.locate(DVec3::new(f64::NAN, 0.0, 0.0)).is_none());
    }

    #[test]
    fn far_containing_polygon_yields_to_a_near_neighbour() {
        let l = Locator::new(&mesh());
        // 2.5 m above node 2 (too far) but 0.5 m from the edge of floor 1.
        let a = l.locate(DVec3::new(1.05, 2.5, 0.5)).unwrap();
        assert_eq!((a.node, a.inside), (1, false));
        assert_eq!(a.point, DVec3::new(1.0, 3.0, 0.5));
        // 10 m up is nowhere.
        assert!(l.locate(DVec3::new(0.5, 13.0, 0.5)).is_none());
    }

    #[test]
    fn empty_and_broken_meshes_locate_nothing() {
        let l = Locator::new(&NavMesh::new("t", "t"));
        assert!(l.is_empty());
        assert!(l.locate(DVec3::ZERO).is_none());
        let mut m = mesh();
        m.nodes[0].polygon.as_mut().unwrap()[0].x = f64::NAN;
        m.nodes[1].polygon.as_mut().unwrap().truncate(2);
        let l = Locator::new(&m);
        assert_eq!(l.len(), 2);
        assert_eq!(l.locate(DVec3::new(0.5, 0.0, 0.5)).unwrap().node, 2);
    }
}
