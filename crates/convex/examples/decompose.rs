//! Decomposes one generated plan and prints the notch and cell counts.
//! `cargo run --example decompose -- KIND SEED N [TAU] [REMOVAL]` with KIND
//! one of `rooms`, `star`, `maze` (maze: N x N).
fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!("usage: decompose rooms|star|maze SEED N [TAU] [REMOVAL]");
        std::process::exit(2);
    }
    let seed: u64 = a[2].parse().unwrap();
    let n: usize = a[3].parse().unwrap();
    let tau: f64 = a.get(4).map_or(0.0, |s| s.parse().unwrap());
    let removal = a.get(5).is_none_or(|s| s == "true");
    let plan = match a[1].as_str() {
        "rooms" => navscope_levels::generate::floor_plan(seed, n),
        "star" => navscope_levels::generate::star_polygon(seed, n),
        _ => navscope_levels::generate::rectilinear_maze(seed, n, n),
    };
    match navscope_convex::decompose_plan(&plan.area, tau, removal) {
        Ok(o) => println!("ok: {} notches, {} cells", o.strict_notches, o.cells.len()),
        Err(e) => println!("{e}"),
    }
}
