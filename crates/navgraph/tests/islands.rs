//! `assets/levels/navgraph/islands.png`: two wings with pillars, separated
//! by a solid wall, so every query from one wing to the other has no path.
//! The image is generated here (checked against the committed file; set
//! `NAVSCOPE_WRITE_SAMPLES=1` to rewrite it).

mod common;

use common::{artifact, level, repo, run};
use glam::DVec3;
use navscope_navgraph::raster_stages::SuperGraphArtifact;
use navscope_path::{SearchOptions, astar};

const W: u32 = 160;
const H: u32 = 80;

/// Luma of pixel `(x, y)`: black walls and pillars, white floor.
fn pixel(x: u32, y: u32) -> u8 {
    let border = x < 2 || y < 2 || x >= W - 2 || y >= H - 2;
    let split = (78..82).contains(&x);
    let pillar = (x % 16 >= 7 && x % 16 <= 9) && (y % 16 >= 7 && y % 16 <= 9);
    if border || split || pillar { 0 } else { 255 }
}

#[test]
fn islands_png_is_up_to_date() {
    let path = repo("assets/levels/navgraph/islands.png");
    let img = image::GrayImage::from_fn(W, H, |x, y| image::Luma([pixel(x, y)]));
    if std::env::var("NAVSCOPE_WRITE_SAMPLES").is_ok() {
        img.save(&path).unwrap();
        std::fs::write(repo("assets/levels/navgraph/islands.png.ron"), "// Sidecar of islands.png (tests/islands.rs generates both): 0.25 m per pixel.\nRaster(\n    metres_per_pixel: 0.25,\n)\n").unwrap();
    }
    let committed = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_luma8();
    assert!(
        committed == img,
        "islands.png is out of date: run with NAVSCOPE_WRITE_SAMPLES=1"
    );
}

#[test]
fn the_super_graph_answers_no_path_without_the_base_graph() {
    let r = run(
        navscope_navgraph::pipeline(),
        level("assets/levels/navgraph/islands.png"),
        &[],
    );
    let sg = artifact::<SuperGraphArtifact>(&r, "supergraph");
    let (a, b) = (DVec3::new(1.25, 0.0, 1.25), DVec3::new(38.75, 0.0, 18.75));
    let route = sg.route(a, b).unwrap();
    assert!(!route.found);
    assert_eq!(route.base_expansions, 0);
    // A plain A* on the base graph expands the whole west wing to learn it.
    let base = &sg.base().mesh;
    let loc = navscope_path::Locator::new(base);
    let (s, g) = (loc.locate(a).unwrap().node, loc.locate(b).unwrap().node);
    let plain = astar(base, s, g, a, b, &SearchOptions::default());
    assert!(plain.nodes.is_none());
    let plain = plain.trace.expansions.len();
    assert!(
        plain > 10 * route.super_expansions,
        "base {plain} vs super {}",
        route.super_expansions
    );
    // Within a wing, both searches agree there is a path (to a point in a
    // lane between pillars: the wing's corner pixel beside the last pillar
    // is a pocket cut off by the dilation).
    let c = DVec3::new(15.0, 0.0, 15.0);
    assert!(sg.route(a, c).unwrap().found);
    assert!(sg.route_within_regions(a, c).unwrap().found);
}
