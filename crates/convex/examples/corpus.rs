//! The corpus of the paper's Table 1 claims: eight generated rooms with
//! obstacles whose strict notch counts match the paper's eight scenarios
//! (15, 22, 32, 43, 55, 68, 93, 106).
//!
//! `cargo run --release -p navscope-convex --example corpus -- write DIR`
//! searches generator seeds and writes `DIR/tableN.json` (floor plan JSON);
//! `... -- table DIR` prints the Markdown table of cells and ratios for the
//! three versions of the algorithm (original, portal removal, tau = 5 deg).

use std::path::Path;

use navscope_convex::decompose_plan;
use navscope_core::level::LevelData;

/// The paper's notch counts.
const TARGETS: [usize; 8] = [15, 22, 32, 43, 55, 68, 93, 106];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(cmd), Some(dir)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: corpus write|table DIR");
        std::process::exit(2);
    };
    match cmd.as_str() {
        "write" => write(Path::new(dir)),
        "table" => table(Path::new(dir)),
        _ => {
            eprintln!("usage: corpus write|table DIR");
            std::process::exit(2);
        }
    }
}

fn write(dir: &Path) {
    std::fs::create_dir_all(dir).expect("create the corpus directory");
    for (i, &target) in TARGETS.iter().enumerate() {
        // Obstacles average about 5.5 notches; try counts around that.
        let found = (0u64..100_000).find_map(|seed| {
            let n = (target as f64 / 5.5).round() as usize + (seed % 5) as usize - 2;
            let plan = navscope_levels::generate::floor_plan(seed, n.max(1));
            let r = navscope_convex::notches::find_notches(&plan.area, 0.0).len();
            (r == target).then_some((seed, n, plan))
        });
        let (seed, n, plan) = found.expect("some seed gives the target notch count");
        let path = dir.join(format!("table{}.json", i + 1));
        std::fs::write(&path, navscope_levels::write::floor_plan_json(&plan))
            .expect("write the corpus file");
        println!(
            "{}: seed {seed}, {n} obstacles, {target} notches",
            path.display()
        );
    }
}

fn table(dir: &Path) {
    println!(
        "| plan | r (notches) | cells original | c/r | cells with removal | c/r | cells tau = 5 deg | c/r |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut sums = [0.0; 3];
    for i in 1..=TARGETS.len() {
        let path = dir.join(format!("table{i}.json"));
        let level = navscope_levels::load(&path).expect("load the corpus file");
        let LevelData::FloorPlan(fp) = &level.data else {
            panic!("{} is not a floor plan", path.display())
        };
        let cells: Vec<usize> = [(0.0, false), (0.0, true), (5.0, true)]
            .iter()
            .map(|&(tau, removal)| {
                decompose_plan(&fp.area, tau, removal)
                    .expect("decompose")
                    .cells
                    .len()
            })
            .collect();
        let r = navscope_convex::notches::find_notches(&fp.area, 0.0).len() as f64;
        let ratio: Vec<f64> = cells.iter().map(|c| *c as f64 / r).collect();
        for k in 0..3 {
            sums[k] += ratio[k];
        }
        println!(
            "| table{i} | {r} | {} | {:.2} | {} | {:.2} | {} | {:.2} |",
            cells[0], ratio[0], cells[1], ratio[1], cells[2], ratio[2]
        );
    }
    let n = TARGETS.len() as f64;
    println!(
        "| average | | | {:.2} | | {:.2} | | {:.2} |",
        sums[0] / n,
        sums[1] / n,
        sums[2] / n
    );
}
