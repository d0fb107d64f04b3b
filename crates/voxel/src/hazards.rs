//! Slime and lava as costed hazards, as `cspace` has them.
//!
//! A brush level's slime and lava brushes (its [`Movers`]' regions, carried
//! through the conversion to a mesh) become convex volumes of area `slime`
//! and `lava` ([`hazard_volumes`]), marked on the compact heightfield like
//! any convex volume, so the regions, polygons and nodes under a liquid
//! have its area. Quake hurts the player while the point just above its
//! feet is in the liquid (`SV_CheckWater` sets `waterlevel` 1 there and
//! QuakeC's `WaterMove` takes 4 health a second in slime, 50 in lava), so
//! a volume is the liquid's plan, not grown by the agent, over floors from
//! a step under the liquid's bottom to its top.
//!
//! The cost multipliers are the parameters `slime_cost` and `lava_cost`
//! (the same as `cspace`'s; Quake's preset prices the health they take).
//! The last stage sets them as the NavMesh's area costs; 0 forbids the
//! area: every link into its nodes is left out ([`price_hazards`]).

use navscope_core::NavMesh;
use navscope_core::level::ConvexVolume;
use navscope_core::movers::{Movers, RegionKind};

/// The parameter: cost multiplier of links into slime (0 forbids them).
pub const SLIME_COST: &str = "slime_cost";
/// The parameter: cost multiplier of links into lava (0 forbids them).
pub const LAVA_COST: &str = "lava_cost";

/// The slime and lava volumes of `movers` (see the module docs); `step`
/// is the standing agent's highest step.
pub fn hazard_volumes(movers: &Movers, step: f64) -> Vec<ConvexVolume> {
    movers
        .regions
        .iter()
        .filter_map(|r| {
            let area = match r.kind {
                RegionKind::Slime | RegionKind::Lava => r.kind.area(),
                _ => return None,
            };
            let (lo, hi) = (r.bounds.min, r.bounds.max);
            Some(ConvexVolume {
                area: area.into(),
                cost: None,
                points: vec![
                    glam::DVec2::new(lo.x, lo.z),
                    glam::DVec2::new(hi.x, lo.z),
                    glam::DVec2::new(hi.x, hi.z),
                    glam::DVec2::new(lo.x, hi.z),
                ],
                min_y: lo.y - step,
                max_y: hi.y,
            })
        })
        .collect()
}

/// Sets the area costs of slime and lava on `mesh` (`costs`: area name,
/// multiplier); an area whose multiplier is 0 loses every link into its
/// nodes and its cost entry. `kept` are indices into the mesh's links,
/// renumbered to the links that stay (those into a forbidden area go).
pub fn price_hazards(mesh: &mut NavMesh, costs: &[(&str, f64)], kept: &mut Vec<usize>) {
    let forbidden: Vec<&str> = costs
        .iter()
        .filter(|(_, c)| *c <= 0.0)
        .map(|(n, _)| *n)
        .collect();
    for &(name, cost) in costs {
        if cost > 0.0 {
            mesh.area_costs.insert(name.into(), cost);
        } else {
            mesh.area_costs.remove(name);
        }
    }
    if forbidden.is_empty() {
        return;
    }
    let banned: Vec<bool> = mesh
        .nodes
        .iter()
        .map(|n| forbidden.contains(&&*n.area))
        .collect();
    let mut new_index = Vec::with_capacity(mesh.links.len());
    let mut next = 0;
    for l in &mesh.links {
        let keep = !banned.get(l.to as usize).copied().unwrap_or(false);
        new_index.push(keep.then_some(next));
        next += keep as usize;
    }
    let mut k = 0;
    mesh.links.retain(|_| {
        k += 1;
        new_index[k - 1].is_some()
    });
    *kept = kept
        .iter()
        .filter_map(|&i| new_index.get(i).copied().flatten())
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use navscope_core::movers::Region;
    use navscope_core::{Link, LinkKind, Stance};

    #[test]
    fn liquids_become_volumes_over_their_floor_and_others_do_not() {
        let movers = Movers {
            regions: vec![
                Region::new(
                    RegionKind::Slime,
                    DVec3::new(0.0, 0.0, 0.0),
                    DVec3::new(2.0, 0.5, 3.0),
                ),
                Region::new(RegionKind::Water, DVec3::ZERO, DVec3::ONE),
                Region::new(
                    RegionKind::Lava,
                    DVec3::new(5.0, -1.0, 5.0),
                    DVec3::new(6.0, 0.0, 6.0),
                ),
            ],
            ..Default::default()
        };
        let v = hazard_volumes(&movers, 0.5);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].area.as_str(), v[1].area.as_str()), ("slime", "lava"));
        assert!(v[0].contains(1.0, 0.0, 2.9), "the floor under the slime");
        assert!(!v[0].contains(2.1, 0.0, 1.0), "beside it");
        assert!(!v[0].contains(1.0, 0.6, 1.0), "above it");
        assert!(v[1].contains(5.5, -1.4, 5.5) && !v[1].contains(5.5, -1.6, 5.5));
    }

    #[test]
    fn a_forbidden_hazard_loses_the_links_into_it_and_a_priced_one_costs() {
        let mut mesh = NavMesh::new("voxel", "");
        for (x, area) in [(0.0, "default"), (1.0, "lava"), (2.0, "slime")] {
            let id = mesh.add_node(DVec3::new(x, 0.0, 0.0), None, Stance::Stand, 0);
            mesh.nodes[id as usize].area = area.into();
        }
        for (a, b) in [(0, 1), (1, 0), (0, 2), (2, 1)] {
            mesh.links.push(Link::new(a, b, LinkKind::Walk, 1.0, None));
        }
        let mut kept = vec![1, 2, 3];
        price_hazards(&mut mesh, &[("slime", 1.8), ("lava", 0.0)], &mut kept);
        let pairs: Vec<(u32, u32)> = mesh.links.iter().map(|l| (l.from, l.to)).collect();
        assert_eq!(pairs, [(1, 0), (0, 2)], "no link into lava");
        assert_eq!(kept, [0, 1], "the kept indices follow");
        assert_eq!(mesh.area_cost("slime"), 1.8);
        assert!(!mesh.area_costs.contains_key("lava"));
    }
}
