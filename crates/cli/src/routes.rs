//! `navscope-cli routes MAP`: builds a Quake map's mesh once and, for every
//! player start ([`navscope_levels::brushes::spots::starts`]) and every
//! exit ([`navscope_levels::brushes::spots::exits`]), searches a path and
//! says its length and the entities it uses: each door with what opens it,
//! plats, teleporters and pushers by name, and how many jumps and swims.
//!
//! The build log first names every entity whose `target` names nothing
//! (Quake fires nothing; the build goes on without it). Exit status 0 when
//! every start reaches an exit, 1 otherwise (and for a map without a start
//! or without an exit, said in one line).

use std::path::Path;
use std::time::Instant;

use glam::DVec3;
use navscope_core::LinkKind;
use navscope_core::NavMesh;
use navscope_core::geom::Aabb;
use navscope_core::level::{BrushLevel, LevelData};
use navscope_core::movers::RegionKind;
use navscope_explain::floor_under;
use navscope_levels::brushes::spots::{self, Spot};
use navscope_path::{Locator, SearchOptions, find_path};

use crate::BuildOptions;
use crate::build::run_stages;
use crate::session::{CliError, agent_for, check_run, load_level, runner};

/// How far around a mover's box a route point still counts as using it,
/// metres: the agent's centre stays about half a width off the brushes.
const NEAR_MOVER: f64 = 1.0;

/// One start-to-exit search.
struct Route {
    start: String,
    exit: String,
    length: Option<f64>,
    reason: Option<String>,
    uses: Vec<String>,
}

/// Runs the command; `Ok(false)` when some start reaches no exit.
pub fn run(level_path: &Path, opts: &BuildOptions, json: bool) -> Result<bool, CliError> {
    let level = load_level(level_path, opts.budget())?;
    let LevelData::Brushes(brushes) = &level.data else {
        return Err(CliError::Usage(format!(
            "routes reads a brush level's starts and exits ({} is a {})",
            level.source,
            level.kind().name()
        )));
    };
    let brushes = brushes.clone();
    let (starts, exits) = (spots::starts(&brushes), spots::exits(&brushes));
    let missing = match (starts.is_empty(), exits.is_empty()) {
        (true, true) => Some(
            "no player start (info_player_start, coop or deathmatch) and no exit (trigger_changelevel)",
        ),
        (true, false) => Some("no player start (info_player_start, coop or deathmatch)"),
        (false, true) => Some("no exit (trigger_changelevel)"),
        (false, false) => None,
    };
    if let Some(m) = missing {
        return Err(CliError::Failed(format!("{}: {m}", level.source)));
    }
    let dangling = spots::dangling_targets(&brushes);
    if !json {
        for d in &dangling {
            eprintln!("{}: {d}; skipped", level.source);
        }
    }
    let agent = agent_for(&level, opts)?.map_or("default", |a| a.name);
    let source = level.source.clone();
    let mut r = runner(level, opts)?;
    let t0 = Instant::now();
    run_stages(&mut r);
    let build_s = t0.elapsed().as_secs_f64();
    check_run(&r)?;
    let mesh = r.navmesh().ok_or_else(|| {
        CliError::Failed(format!(
            "{source}: pipeline '{}' produced no NavMesh",
            r.pipeline().id
        ))
    })?;
    let pipeline = r.pipeline().id;
    let routes = search_all(&brushes, &mesh, &starts, &exits);
    let all_reach = starts.iter().all(|s| {
        routes
            .iter()
            .any(|r| r.start == s.label && r.length.is_some())
    });
    if json {
        let doc = serde_json::json!({
            "level": source, "pipeline": pipeline, "agent": agent,
            "build_s": build_s, "nodes": mesh.nodes.len(), "links": mesh.links.len(),
            "skipped_targets": dangling,
            "starts": starts.iter().map(spot_json).collect::<Vec<_>>(),
            "exits": exits.iter().map(spot_json).collect::<Vec<_>>(),
            "routes": routes.iter().map(|r| serde_json::json!({
                "start": r.start, "exit": r.exit, "found": r.length.is_some(),
                "length": r.length, "reason": r.reason, "uses": r.uses,
            })).collect::<Vec<_>>(),
            "every_start_reaches_an_exit": all_reach,
        });
        println!("{doc}");
    } else {
        println!(
            "{source}: {pipeline} with agent '{agent}' built in {build_s:.2} s ({} nodes, {} links)",
            mesh.nodes.len(),
            mesh.links.len()
        );
        for r in &routes {
            match (r.length, &r.reason) {
                (Some(l), _) => println!(
                    "  {} -> {}: path {l:.1} m{}",
                    r.start,
                    r.exit,
                    if r.uses.is_empty() {
                        String::new()
                    } else {
                        format!("; uses {}", r.uses.join(", "))
                    }
                ),
                (None, reason) => println!(
                    "  {} -> {}: no path ({})",
                    r.start,
                    r.exit,
                    reason.as_deref().unwrap_or("")
                ),
            }
        }
        println!(
            "{}",
            if all_reach {
                "every start reaches an exit"
            } else {
                "some start reaches no exit"
            }
        );
    }
    Ok(all_reach)
}

fn spot_json(s: &Spot) -> serde_json::Value {
    serde_json::json!({ "entity": s.entity + 1, "label": s.label, "point": [s.point.x, s.point.y, s.point.z] })
}

/// Every start against every exit.
fn search_all(level: &BrushLevel, mesh: &NavMesh, starts: &[Spot], exits: &[Spot]) -> Vec<Route> {
    let locator = Locator::new(mesh);
    let movers = Movers::of(level);
    let mut out = Vec::new();
    for s in starts {
        let from = floor_under(mesh, s.point).unwrap_or(s.point);
        for x in exits {
            let found = find_path(mesh, &locator, from, x.point, &SearchOptions::default());
            out.push(match found {
                Ok(p) => Route {
                    start: s.label.clone(),
                    exit: x.label.clone(),
                    length: Some(p.length),
                    reason: None,
                    uses: movers.used(level, mesh, &p.search.links),
                },
                Err(e) => Route {
                    start: s.label.clone(),
                    exit: x.label.clone(),
                    length: None,
                    reason: Some(e.to_string()),
                    uses: Vec::new(),
                },
            });
        }
    }
    out
}

/// The boxes of the level's doors, lifts, trains (at each stop of a ride),
/// teleporters and pushers, by entity.
struct Movers(Vec<(usize, Aabb)>);

impl Movers {
    fn of(level: &BrushLevel) -> Self {
        let m = level.movers(None);
        let regions = m
            .regions
            .iter()
            .filter(|r| {
                matches!(
                    r.kind,
                    RegionKind::Door | RegionKind::Teleport(_) | RegionKind::Push(_)
                )
            })
            .filter_map(|r| Some((r.entity?, r.bounds)));
        let lifts = m.lifts.iter().map(|l| (l.entity, l.bounds));
        let rides = m
            .rides
            .iter()
            .flat_map(|r| [(r.entity, r.from), (r.entity, r.to)]);
        Movers(regions.chain(lifts).chain(rides).collect())
    }

    /// The entity whose box (grown by [`NEAR_MOVER`]) holds `p`.
    fn at(&self, p: DVec3) -> Option<usize> {
        self.0
            .iter()
            .find(|(_, b)| {
                (p.cmpge(b.min - DVec3::splat(NEAR_MOVER))
                    & p.cmple(b.max + DVec3::splat(NEAR_MOVER)))
                .all()
            })
            .map(|(e, _)| *e)
    }

    /// What the route through `links` uses, in route order: each mover
    /// entity once (doors with their opener), then the count of jumps and
    /// swims.
    fn used(&self, level: &BrushLevel, mesh: &NavMesh, links: &[usize]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let (mut jumps, mut swims) = (0, 0);
        for l in links.iter().filter_map(|&i| mesh.links.get(i)) {
            let mover = matches!(
                l.kind,
                LinkKind::Door | LinkKind::Elevator | LinkKind::Teleport | LinkKind::Jump
            );
            let entity = mover
                .then(|| {
                    let to = mesh.nodes.get(l.to as usize).map(|n| n.position);
                    let mid = l.segment().map(|[a, b]| (a + b) * 0.5);
                    let start = l.segment().map(|[a, _]| a);
                    mid.and_then(|p| self.at(p))
                        .or_else(|| start.and_then(|p| self.at(p)))
                        .or_else(|| to.and_then(|p| self.at(p)))
                })
                .flatten();
            match (l.kind, entity) {
                (LinkKind::Swim, _) => swims += 1,
                (LinkKind::Jump, None) => jumps += 1,
                (_, Some(e)) => {
                    let ent = &level.entities[e];
                    let mut text = spots::label(ent);
                    if let Some(o) = spots::opener(level, ent) {
                        text = format!("{text} ({o})");
                    }
                    if !out.contains(&text) {
                        out.push(text);
                    }
                }
                _ => {}
            }
        }
        if jumps > 0 {
            out.push(format!("{jumps} jump(s)"));
        }
        if swims > 0 {
            out.push(format!("{swims} swim link(s)"));
        }
        out
    }
}
