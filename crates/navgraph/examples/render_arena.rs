//! Renders a polyanya `.mesh` (version 2) to a raster floor plan: a pixel is
//! free (white) when its centre lies in one of the mesh's convex polygons,
//! else obstacle (black), at one pixel per mesh unit. Writes the PNG and a
//! sidecar with 1 m per pixel, so scenario cell `(x, y)` is the pixel whose
//! centre is world `(x + 0.5, 0, y + 0.5)`.
//!
//! `cargo run -p navscope-navgraph --example render_arena -- MESH OUT.png WIDTH HEIGHT`
//! (defaults: the shared arena mesh, `assets/levels/navgraph/arena.png`, 49 x 49).

use std::path::PathBuf;

fn main() -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mesh = args
        .first()
        .map(PathBuf::from)
        .unwrap_or(root.join("../shared/data/polyanya-meshes/arena.mesh"));
    let out = args
        .get(1)
        .map(PathBuf::from)
        .unwrap_or(root.join("assets/levels/navgraph/arena.png"));
    let w: u32 = args
        .get(2)
        .map_or(Ok(49), |s| s.parse())
        .map_err(|e| format!("width: {e}"))?;
    let h: u32 = args
        .get(3)
        .map_or(Ok(49), |s| s.parse())
        .map_err(|e| format!("height: {e}"))?;
    let text = std::fs::read_to_string(&mesh).map_err(|e| format!("{}: {e}", mesh.display()))?;
    let polys = read_mesh(&text).map_err(|e| format!("{}: {e}", mesh.display()))?;
    let mut img = image::GrayImage::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let p = (x as f64 + 0.5, y as f64 + 0.5);
            let free = polys.iter().any(|poly| inside(poly, p));
            img.put_pixel(x, y, image::Luma([if free { 255 } else { 0 }]));
        }
    }
    img.save(&out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let sidecar = format!("{}.ron", out.display());
    let note = "// Sidecar of arena.png: the shared polyanya arena.mesh rendered at one\n// pixel per unit (examples/render_arena.rs), so scenario cells map 1:1.\n";
    std::fs::write(
        &sidecar,
        format!("{note}Raster(\n    metres_per_pixel: 1.0,\n    luma_threshold: 128,\n)\n"),
    )
    .map_err(|e| format!("{sidecar}: {e}"))?;
    println!(
        "wrote {} ({} polygons) and {sidecar}",
        out.display(),
        polys.len()
    );
    Ok(())
}

/// The polygons of a version-2 polyanya mesh as point lists.
fn read_mesh(text: &str) -> Result<Vec<Vec<(f64, f64)>>, String> {
    let mut t = text.split_whitespace();
    let mut next = |what: &str| t.next().ok_or_else(|| format!("file ends before {what}"));
    if next("header")? != "mesh" {
        return Err("not a polyanya mesh".into());
    }
    let _version = next("version")?;
    let nv: usize = next("vertex count")?
        .parse()
        .map_err(|e| format!("vertex count: {e}"))?;
    let np: usize = next("polygon count")?
        .parse()
        .map_err(|e| format!("polygon count: {e}"))?;
    let mut verts = Vec::with_capacity(nv.min(1 << 20));
    for i in 0..nv {
        let x: f64 = next("vertex")?
            .parse()
            .map_err(|e| format!("vertex {i}: {e}"))?;
        let y: f64 = next("vertex")?
            .parse()
            .map_err(|e| format!("vertex {i}: {e}"))?;
        let k: usize = next("vertex")?
            .parse()
            .map_err(|e| format!("vertex {i}: {e}"))?;
        for _ in 0..k {
            next("vertex neighbours")?;
        }
        verts.push((x, y));
    }
    let mut polys = Vec::with_capacity(np.min(1 << 20));
    for i in 0..np {
        let k: usize = next("polygon")?
            .parse()
            .map_err(|e| format!("polygon {i}: {e}"))?;
        let mut poly = Vec::with_capacity(k.min(1024));
        for _ in 0..k {
            let v: usize = next("polygon vertex")?
                .parse()
                .map_err(|e| format!("polygon {i}: {e}"))?;
            poly.push(
                *verts
                    .get(v)
                    .ok_or(format!("polygon {i}: vertex {v} out of range"))?,
            );
        }
        for _ in 0..k {
            next("polygon neighbours")?;
        }
        polys.push(poly);
    }
    Ok(polys)
}

/// Point in convex polygon (either winding), boundary included.
fn inside(poly: &[(f64, f64)], p: (f64, f64)) -> bool {
    let n = poly.len();
    let (mut pos, mut neg) = (false, false);
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let c = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        pos |= c > 0.0;
        neg |= c < 0.0;
    }
    !(pos && neg)
}
