//! Stage 1, `notches` (Oliva & Pelechano §3.1, §3.3): check the floor plan
//! against the paper's conditions (1), find the notches with an exact
//! orientation test and build each notch's area of interest.

use std::collections::BTreeMap;
use std::f64::consts::PI;
use std::sync::Arc;

use glam::DVec2;
use navscope_core::draw::{Primitive, Shape};
use navscope_core::geom::{
    Orientation, PolygonWithHoles, interior_angle, orient, validate_polygon_with_holes,
};
use navscope_core::level::{Level, LevelData};
use navscope_core::{Artifact, StageContext, StageError};
use serde::Serialize;

use crate::cone::Cone;
use crate::show::{label, plan_point, plan_polygon, ring_outline};

/// One notch: a vertex whose interior angle exceeds pi (pi + tau with
/// convexity relaxation).
#[derive(Clone, Debug, Serialize)]
pub struct Notch {
    /// Vertex id: vertices are numbered ring by ring, outer ring first.
    pub vertex: u32,
    /// Ring (0 = outer boundary, `h + 1` = hole `h`).
    pub ring: u32,
    /// Index of the vertex in its ring.
    pub index: u32,
    /// Position (plan coordinates).
    pub position: DVec2,
    /// The previous vertex along the ring (free space on the left).
    pub prev: DVec2,
    /// The next vertex along the ring.
    pub next: DVec2,
    /// Interior angle in degrees (measured in the free space).
    pub angle_deg: f64,
    /// Its area of interest `I_i`.
    pub cone: Cone,
}

/// The artifact of the `notches` stage.
#[derive(Clone, Debug, Serialize)]
pub struct NotchesArtifact {
    /// The floor plan as decomposed: duplicates dropped, outer ring
    /// counter-clockwise, holes clockwise.
    pub plan: PolygonWithHoles,
    /// The notches in processing order (ring by ring, vertex by vertex).
    pub notches: Vec<Notch>,
    /// Number of strict notches (interior angle above pi), the `r` of the
    /// paper's Table 1, whatever tau is.
    pub strict_notches: u32,
    /// Strict notches that tau takes off the list (interior angle in
    /// `(180, 180 + tau]` degrees): relaxation counts them as convex.
    pub relaxed: Vec<Notch>,
    /// Tau in degrees.
    pub tau_deg: f64,
    /// Length of the area-of-interest wedges as drawn.
    pub wedge_length: f64,
}

/// The rings of a plan, outer first, as point lists.
pub fn rings(plan: &PolygonWithHoles) -> Vec<Vec<DVec2>> {
    plan.rings().map(|r| r.points.clone()).collect()
}

/// The floor plan of a level, normalised and checked against conditions (1)
/// of the paper (simple rings, holes strictly inside the outer boundary,
/// no two rings meeting). Errors name the rings and the point.
pub fn prepare(level: &Level) -> Result<PolygonWithHoles, StageError> {
    let LevelData::FloorPlan(fp) = &level.data else {
        return Err(StageError::failed(format!(
            "{}: the convex pipeline needs a floor plan, got a {}",
            level.source,
            level.kind().name()
        )));
    };
    let mut plan = fp.area.clone();
    plan.normalise();
    validate_polygon_with_holes(&plan)
        .map_err(|e| StageError::failed(format!("{}: {e}", level.source)))?;
    Ok(plan)
}

/// The notches of a normalised plan in processing order, with their areas
/// of interest widened by `tau` (radians). With `tau == 0` the test is the
/// exact orientation test of the paper's equation (2); with `tau > 0` a
/// vertex is a notch when its interior angle exceeds `pi + tau`.
pub fn find_notches(plan: &PolygonWithHoles, tau: f64) -> Vec<Notch> {
    let mut out = Vec::new();
    let mut base = 0u32;
    for (r, ring) in plan.rings().enumerate() {
        let n = ring.len();
        for i in 0..n {
            let prev = ring.at(i as isize - 1);
            let v = ring.points[i];
            let next = ring.at(i as isize + 1);
            if orient(prev, v, next) != Orientation::Clockwise {
                continue;
            }
            let angle = interior_angle(prev, v, next);
            if tau > 0.0 && angle <= PI + tau {
                continue;
            }
            out.push(Notch {
                vertex: base + i as u32,
                ring: r as u32,
                index: i as u32,
                position: v,
                prev,
                next,
                angle_deg: angle.to_degrees(),
                cone: Cone::of_corner(prev, v, next, tau),
            });
        }
        base += n as u32;
    }
    out
}

/// The stage function.
pub fn run(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let plan = prepare(ctx.level)?;
    let tau_deg = ctx.params.float("tau");
    if !(0.0..=45.0).contains(&tau_deg) {
        return Err(StageError::failed(format!(
            "tau = {tau_deg} deg is outside 0..45"
        )));
    }
    let strict = find_notches(&plan, 0.0);
    let strict_notches = strict.len() as u32;
    let notches = find_notches(&plan, tau_deg.to_radians());
    // Both lists are in vertex order: a binary search, not a scan per notch.
    let relaxed = strict
        .into_iter()
        .filter(|s| {
            notches
                .binary_search_by_key(&s.vertex, |n| n.vertex)
                .is_err()
        })
        .collect();
    let (lo, hi) = plan.bounds();
    let wedge_length = (hi - lo).length() / 12.0;
    Ok(Arc::new(NotchesArtifact {
        plan,
        notches,
        relaxed,
        strict_notches,
        tau_deg,
        wedge_length,
    }))
}

impl Artifact for NotchesArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("vertices".into(), self.plan.vertex_count() as u64),
            ("holes".into(), self.plan.holes.len() as u64),
            ("notches".into(), self.notches.len() as u64),
            ("strict notches".into(), self.strict_notches as u64),
            ("relaxed notches".into(), self.relaxed.len() as u64),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = ring_outline(&self.plan);
        for (i, n) in self.notches.iter().enumerate() {
            let len = self
                .wedge_length
                .min(1.5 * n.prev.distance(n.position).max(n.next.distance(n.position)));
            out.push(Primitive::new(
                "area-of-interest",
                i as u32,
                plan_polygon(&n.cone.triangle(len)),
            ));
            out.push(Primitive::new(
                "notch",
                i as u32,
                Shape::Point(plan_point(n.position)),
            ));
        }
        for n in &self.relaxed {
            out.push(Primitive::new(
                "notch/relaxed",
                n.vertex,
                Shape::Point(plan_point(n.position)),
            ));
        }
        let (lo, hi) = self.plan.bounds();
        out.push(label(
            DVec2::new(lo.x, hi.y),
            format!(
                "{} notches ({} strict), {} vertices",
                self.notches.len(),
                self.strict_notches,
                self.plan.vertex_count()
            ),
        ));
        out
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([
            ("notches".into(), self.strict_notches as f64),
            ("tau_notches".into(), self.notches.len() as f64),
        ])
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.notches
            .get(element as usize)
            .map(|n| serde_json::to_value(n).unwrap_or_default())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use navscope_core::geom::Polygon;
    use navscope_core::level::FloorPlan;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn level(outer: Vec<DVec2>, holes: Vec<Vec<DVec2>>) -> Level {
        let area = PolygonWithHoles::new(
            Polygon::new(outer),
            holes.into_iter().map(Polygon::new).collect(),
        );
        Level {
            source: "test.json".into(),
            data: LevelData::FloorPlan(FloorPlan {
                area,
                ..Default::default()
            }),
        }
    }

    #[test]
    fn an_l_room_has_one_notch_and_a_square_hole_four() {
        let l = vec![
            v(0., 0.),
            v(2., 0.),
            v(2., 1.),
            v(1., 1.),
            v(1., 2.),
            v(0., 2.),
        ];
        let plan = prepare(&level(l, vec![])).unwrap();
        let n = find_notches(&plan, 0.0);
        assert_eq!(n.len(), 1);
        assert_eq!(n[0].position, v(1., 1.));
        assert!((n[0].angle_deg - 270.0).abs() < 1e-9);
        // Hole given counter-clockwise: normalised to clockwise, every corner a notch.
        let sq = vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)];
        let hole = vec![v(4., 4.), v(6., 4.), v(6., 6.), v(4., 6.)];
        let plan = prepare(&level(sq, vec![hole])).unwrap();
        let n = find_notches(&plan, 0.0);
        assert_eq!(n.len(), 4);
        assert!(
            n.iter()
                .all(|n| n.ring == 1 && (n.angle_deg - 270.0).abs() < 1e-9)
        );
    }

    #[test]
    fn tau_leaves_out_shallow_notches() {
        // A wall bent by 3 degrees (interior angle 183): a strict notch, but
        // not a 5-degree one.
        let bend = (1.5f64).to_radians();
        let outer = vec![
            v(0., 0.),
            v(10., 0.),
            v(10., 10.),
            v(5., 10.0 - 5.0 * bend.tan()),
            v(0., 10.),
        ];
        let plan = prepare(&level(outer, vec![])).unwrap();
        assert_eq!(find_notches(&plan, 0.0).len(), 1);
        assert_eq!(find_notches(&plan, 5f64.to_radians()).len(), 0);
        assert_eq!(find_notches(&plan, 2f64.to_radians()).len(), 1);
    }

    #[test]
    fn collinear_vertices_are_not_notches() {
        let outer = vec![v(0., 0.), v(1., 0.), v(2., 0.), v(2., 2.), v(0., 2.)];
        let plan = prepare(&level(outer, vec![])).unwrap();
        assert!(find_notches(&plan, 0.0).is_empty());
    }

    #[test]
    fn conditions_1_violations_name_the_rings_and_the_point() {
        let sq = vec![v(0., 0.), v(10., 0.), v(10., 10.), v(0., 10.)];
        let a = vec![v(2., 2.), v(4., 2.), v(4., 4.), v(2., 4.)];
        let b = vec![v(4., 4.), v(6., 4.), v(6., 6.), v(4., 6.)];
        let e = prepare(&level(sq.clone(), vec![a, b]))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "test.json: hole 0 and hole 1 meet at (4, -4)");
        let touching = vec![v(0., 5.), v(2., 4.), v(2., 6.)];
        let e = prepare(&level(sq, vec![touching])).unwrap_err().to_string();
        assert_eq!(e, "test.json: outer boundary and hole 0 meet at (0, -5)");
    }
}
