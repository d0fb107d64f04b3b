//! `navscope-cli info`: what a level holds and which pipelines accept it.

use std::path::Path;

use navscope_core::MemoryBudget;
use navscope_core::level::LevelData;

use crate::session::{CliError, load_level, load_navmesh, looks_like_navmesh};
use crate::table;

/// Prints a level's (or a NavMesh JSON's) summary.
pub fn run(path: &Path, budget: MemoryBudget) -> Result<(), CliError> {
    if looks_like_navmesh(path) {
        let m = load_navmesh(path)?;
        println!(
            "{}: NavMesh JSON (pipeline {}, level {})",
            path.display(),
            m.pipeline,
            m.level
        );
        println!(
            "nodes {}, links {}, polygons {}",
            m.nodes.len(),
            m.links.len(),
            m.nodes.iter().filter(|n| n.polygon.is_some()).count()
        );
        return Ok(());
    }
    let level = load_level(path, budget)?;
    println!("{}: {}", path.display(), level.kind().name());
    let mut rows = vec![vec!["property".to_string(), "value".to_string()]];
    let mut row = |k: &str, v: String| rows.push(vec![k.to_string(), v]);
    match &level.data {
        LevelData::FloorPlan(fp) => {
            let (lo, hi) = fp.area.bounds();
            row("outer vertices", fp.area.outer.len().to_string());
            row("holes", fp.area.holes.len().to_string());
            row("vertices", fp.area.vertex_count().to_string());
            row("free area (m2)", format!("{:.3}", fp.area.area()));
            row(
                "size (m)",
                format!("{:.2} x {:.2}", hi.x - lo.x, hi.y - lo.y),
            );
            row("nodes", fp.nodes.len().to_string());
            row("blockers", fp.blockers.len().to_string());
        }
        LevelData::Raster(r) => {
            let obstacles = r.obstacle.iter().filter(|&&o| o != 0).count();
            row("pixels", format!("{} x {}", r.width, r.height));
            row("metres per pixel", r.metres_per_pixel.to_string());
            row(
                "size (m)",
                format!(
                    "{:.2} x {:.2}",
                    r.width as f64 * r.metres_per_pixel,
                    r.height as f64 * r.metres_per_pixel
                ),
            );
            row(
                "obstacle pixels",
                format!(
                    "{obstacles} ({:.1}%)",
                    100.0 * obstacles as f64 / r.obstacle.len().max(1) as f64
                ),
            );
        }
        LevelData::Mesh(m) => {
            let b = m.mesh.bounds();
            row("vertices", m.mesh.vertices.len().to_string());
            row("triangles", m.mesh.triangles.len().to_string());
            row("water volumes", m.water.len().to_string());
            if !b.is_empty() {
                let s = b.size();
                row("size (m)", format!("{:.2} x {:.2} x {:.2}", s.x, s.y, s.z));
            }
        }
        LevelData::Brushes(b) => {
            row("brushes", b.brushes.len().to_string());
            row(
                "planes",
                b.brushes
                    .iter()
                    .map(|x| x.planes.len())
                    .sum::<usize>()
                    .to_string(),
            );
            let mut classes: Vec<&str> = b.entities.iter().map(|e| e.classname.as_str()).collect();
            classes.sort_unstable();
            classes.dedup();
            row(
                "entities",
                format!("{} ({})", b.entities.len(), classes.join(", ")),
            );
            let mut contents: Vec<&str> = b.brushes.iter().map(|x| x.contents.name()).collect();
            contents.sort_unstable();
            let mut counted: Vec<String> = Vec::new();
            for c in contents.chunk_by(|a, b| a == b) {
                counted.push(format!("{} {}", c[0], c.len()));
            }
            row("contents", counted.join(", "));
            row("seal", navscope_core::outside::Seal::of(b).describe());
            if !b.skipped.is_empty() {
                let list: Vec<String> = b
                    .skipped
                    .iter()
                    .map(|s| format!("{}: {}", s.element, s.problem))
                    .collect();
                row(
                    "skipped brushes",
                    format!("{} ({})", b.skipped.len(), list.join("; ")),
                );
            }
        }
        LevelData::Layers(l) => {
            row("layers", l.layers.len().to_string());
            row("connections", l.connections.len().to_string());
            row(
                "vertices",
                l.layers
                    .iter()
                    .map(|x| x.area.vertex_count())
                    .sum::<usize>()
                    .to_string(),
            );
        }
    }
    let accepting: Vec<String> = navscope_pipelines::for_kind(level.kind())
        .iter()
        .map(|p| match navscope_pipelines::converts(p.id, level.kind()) {
            true => format!("{} (converted)", p.id),
            false => p.id.to_string(),
        })
        .collect();
    row(
        "pipelines",
        if accepting.is_empty() {
            "none yet".to_string()
        } else {
            accepting.join(", ")
        },
    );
    print!("{}", table::render(&rows));
    Ok(())
}
