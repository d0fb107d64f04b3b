//! When two polygons are neighbours across an edge, the one rule that
//! Polyanya's mesh (module `polyanya::mesh`) and the funnel's portals
//! (module `portal`) both follow: a link of a walking kind, and plan
//! edges on one line that run opposite ways and overlap by a positive
//! length.

use glam::DVec2;
use navscope_core::LinkKind;

/// True for the link kinds that mean walking across a shared edge; the
/// others (jump, ladder, door, elevator, teleport) are always point links.
pub(crate) fn is_walking(kind: LinkKind) -> bool {
    matches!(
        kind,
        LinkKind::Walk
            | LinkKind::StepUp
            | LinkKind::StepDown
            | LinkKind::Crouch
            | LinkKind::Portal
            | LinkKind::Connection
            | LinkKind::Swim
    )
}

/// Relative tolerance for "on the same line" when matching edges.
pub(crate) const LINE_TOL: f64 = 1e-9;

/// The stretch `(t0, t1)` of edge `a b` (parameters in `[0, 1]`, `t0 < t1`)
/// that edge `c d` covers, when the two lie on one line, run opposite ways
/// and overlap by a positive length. Both rings are counter-clockwise, so
/// edges that run opposite ways have their polygons on either side of the
/// line; edges that run the same way belong to polygons on the same side,
/// over each other in plan (a pool under the floor it is swum up to),
/// which no straight walk crosses from one into the other.
pub(crate) fn overlap(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> Option<(f64, f64)> {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2.is_nan() || len2 <= 0.0 || ab.dot(d - c) >= 0.0 {
        return None;
    }
    let len = len2.sqrt();
    let off = |p: DVec2| ab.perp_dot(p - a).abs() / len;
    let scale = a.abs().max(b.abs()).max_element().max(len);
    if off(c) > LINE_TOL * scale || off(d) > LINE_TOL * scale {
        return None;
    }
    let (tc, td) = ((c - a).dot(ab) / len2, (d - a).dot(ab) / len2);
    let (lo, hi) = (tc.min(td).max(0.0), tc.max(td).min(1.0));
    (hi - lo > LINE_TOL).then_some((lo, hi))
}
