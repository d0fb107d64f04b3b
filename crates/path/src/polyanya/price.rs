//! The cost Polyanya minimises, of any path that crosses links by the
//! crate's one crossing rule (module `crossing`), so that another
//! method's path (A* with the funnel) can be weighed on Polyanya's scale.

use navscope_core::NavMesh;
use navscope_core::geom::world_to_plan;

use super::mesh::{NONE, PolyMesh};
use crate::funnel::Waypoint;

/// The plan length of `waypoints` plus what each of `links` (indices into
/// the NavMesh's links, in the order the path takes them) asks above its
/// walk, by Polyanya's rule (module docs of `polyanya`): nothing for a
/// shared edge, a gate's price once, a point link's price beyond the
/// walk from its entry to its exit, which the waypoints already hold (a
/// teleport's carry replaces that walk). This is [`super::AnyAnglePath::cost`]
/// for Polyanya's own path; for A* with the funnel's path
/// ([`crate::PathResult`]'s waypoints and `search.links`) Polyanya's cost is
/// never above it.
pub fn cost_of(mesh: &NavMesh, pm: &PolyMesh, waypoints: &[Waypoint], links: &[usize]) -> f64 {
    let plan = |w: &Waypoint| world_to_plan(w.position);
    let walked: f64 = waypoints
        .windows(2)
        .map(|w| plan(&w[0]).distance(plan(&w[1])))
        .sum();
    walked + links.iter().map(|&l| price(mesh, pm, l)).sum::<f64>()
}

/// What mesh link `l` adds to the plan length of a path that takes it
/// (0 where Polyanya's mesh made it a shared edge, or for an unknown link).
fn price(mesh: &NavMesh, pm: &PolyMesh, l: usize) -> f64 {
    let Some(from) = mesh.links.get(l).map(|x| x.from as usize) else {
        return 0.0;
    };
    let Some(&poly) = pm.node_poly.get(from).filter(|&&p| p != NONE) else {
        return 0.0;
    };
    let poly = &pm.polys[poly as usize];
    let own = &pm.links[poly.links_start as usize..poly.links_end as usize];
    let Some(p) = own.iter().find(|p| p.link as usize == l) else {
        return 0.0;
    };
    let between = if p.gate != NONE {
        0.0
    } else {
        p.entry.distance(p.exit)
    };
    p.cost - between
}
