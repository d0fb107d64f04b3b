//! The sidecar of a triangle mesh, `NAME.obj.ron` (or `NAME.gltf.ron`,
//! `NAME.glb.ron`): convex volumes that mark areas (Recast's convex volumes,
//! see [`ConvexVolume`]).
//!
//! ```ron
//! MeshSidecar(
//!     volumes: [
//!         (area: "water", points: [(4, 3), (10, 3), (10, 7), (4, 7)], min_y: -2, max_y: 0.5),
//!         (area: "mud", cost: 4, points: [(0, 0), (2, 0), (1, 2)], min_y: -1, max_y: 1),
//!     ],
//! )
//! ```
//!
//! Points are world `[x, z]` pairs of a convex polygon in either winding;
//! `cost` is optional (the pipeline's cost for the area name applies when
//! it is missing). Checked: at least 3 and at most [`MAX_VOLUME_POINTS`]
//! points, all finite and within ±`MAX_COORD`, convex with a non-zero area,
//! `min_y <= max_y`, a non-empty area name, a cost that is a finite number
//! `>= 0`, at most [`MAX_VOLUMES`] volumes.

use glam::DVec2;
use navscope_core::geom::Polygon;
use navscope_core::level::ConvexVolume;
use navscope_core::num::short;
use serde::Deserialize;

use crate::bounds::beyond;
use crate::error::Fault;
use crate::text;

/// Most volumes one sidecar may list.
pub const MAX_VOLUMES: usize = 10_000;

/// Most corners of one volume's polygon.
pub const MAX_VOLUME_POINTS: usize = 256;

/// The sidecar's content.
#[derive(Debug, Deserialize)]
#[serde(rename = "MeshSidecar", deny_unknown_fields)]
struct MeshSidecar {
    #[serde(default)]
    volumes: Vec<VolumeText>,
}

/// One volume as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VolumeText {
    area: String,
    #[serde(default)]
    cost: Option<f64>,
    points: Vec<(f64, f64)>,
    min_y: f64,
    max_y: f64,
}

/// Parses and checks a mesh sidecar into its volumes.
pub(crate) fn parse(text: &str) -> Result<Vec<ConvexVolume>, Fault> {
    text::check_depth(text)?;
    let side: MeshSidecar = text::ron(text)?;
    if side.volumes.len() > MAX_VOLUMES {
        return Err(Fault::budget(
            "volumes",
            format!(
                "{} volumes, more than the {MAX_VOLUMES} allowed",
                side.volumes.len()
            ),
        ));
    }
    side.volumes
        .into_iter()
        .enumerate()
        .map(|(i, v)| check(v).map_err(|f| f.within(&format!("volume {i}"))))
        .collect()
}

fn check(v: VolumeText) -> Result<ConvexVolume, Fault> {
    if v.area.trim().is_empty() {
        return Err(Fault::syntax("area", "the area name is empty"));
    }
    if let Some(c) = v.cost
        && !(c.is_finite() && c >= 0.0)
    {
        return Err(Fault::geometry(
            "cost",
            format!("must be a finite number >= 0, is {}", short(c)),
        ));
    }
    let n = v.points.len();
    if !(3..=MAX_VOLUME_POINTS).contains(&n) {
        return Err(Fault::geometry(
            "points",
            format!("{n} points; a volume needs 3 to {MAX_VOLUME_POINTS}"),
        ));
    }
    let coords = v
        .points
        .iter()
        .flat_map(|p| [p.0, p.1])
        .chain([v.min_y, v.max_y]);
    if coords.clone().any(|c| !c.is_finite()) {
        return Err(Fault::geometry("", "a coordinate is not a finite number"));
    }
    if let Some(problem) = beyond("coordinate", coords) {
        return Err(Fault::geometry("", problem));
    }
    if v.min_y > v.max_y {
        return Err(Fault::geometry(
            "",
            format!("min_y {} is above max_y {}", short(v.min_y), short(v.max_y)),
        ));
    }
    let mut ring = Polygon::new(v.points.iter().map(|p| DVec2::new(p.0, p.1)).collect());
    if ring.area() == 0.0 {
        return Err(Fault::geometry("points", "the polygon has no area"));
    }
    ring.set_winding(true);
    if !ring.is_convex() {
        return Err(Fault::geometry("points", "the polygon is not convex"));
    }
    Ok(ConvexVolume {
        area: v.area,
        cost: v.cost,
        points: v.points.iter().map(|p| DVec2::new(p.0, p.1)).collect(),
        min_y: v.min_y,
        max_y: v.max_y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volumes_are_read_with_optional_costs() {
        let v = parse(
            "MeshSidecar(volumes: [
                (area: \"water\", points: [(4, 3), (10, 3), (10, 7), (4, 7)], min_y: -2, max_y: 0.5),
                (area: \"mud\", cost: 4, points: [(0, 0), (1, 2), (2, 0)], min_y: -1, max_y: 1),
            ])",
        )
        .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].cost, None);
        assert_eq!(v[1].cost, Some(4.0));
        assert!(v[0].contains(5.0, 0.0, 4.0));
        assert!(!v[0].contains(5.0, 0.6, 4.0));
        // Clockwise input still holds its inside.
        assert!(v[1].contains_xz(1.0, 0.5));
        assert!(!v[1].contains_xz(1.0, 2.5));
        assert!(parse("MeshSidecar()").unwrap().is_empty());
    }

    #[test]
    fn bad_volumes_are_named() {
        let one = |body: &str| {
            let f = parse(&format!("MeshSidecar(volumes: [{body}])")).unwrap_err();
            format!("{}: {}", f.element, f.problem)
        };
        let sq = "points: [(0, 0), (1, 0), (1, 1), (0, 1)]";
        assert_eq!(
            one(&format!("(area: \"\", {sq}, min_y: 0, max_y: 1)")),
            "volume 0, area: the area name is empty"
        );
        assert_eq!(
            one(&format!(
                "(area: \"a\", cost: -1, {sq}, min_y: 0, max_y: 1)"
            )),
            "volume 0, cost: must be a finite number >= 0, is -1"
        );
        assert_eq!(
            one("(area: \"a\", points: [(0, 0), (1, 0)], min_y: 0, max_y: 1)"),
            "volume 0, points: 2 points; a volume needs 3 to 256"
        );
        assert_eq!(
            one(
                "(area: \"a\", points: [(0, 0), (2, 0), (1, 0.2), (2, 2), (0, 2)], min_y: 0, max_y: 1)"
            ),
            "volume 0, points: the polygon is not convex"
        );
        assert_eq!(
            one("(area: \"a\", points: [(0, 0), (1, 1), (2, 2)], min_y: 0, max_y: 1)"),
            "volume 0, points: the polygon has no area"
        );
        assert_eq!(
            one(&format!("(area: \"a\", {sq}, min_y: 2, max_y: 1)")),
            "volume 0: min_y 2 is above max_y 1"
        );
        assert!(one(&format!("(area: \"a\", {sq}, min_y: 0, max_y: 1e9)")).contains("beyond"));
        assert!(
            parse("MeshSidecar(volumes: [(area: \"a\")])")
                .unwrap_err()
                .problem
                .contains("missing")
        );
    }
}
