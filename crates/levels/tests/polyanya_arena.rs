//! The shared benchmark mesh `arena.mesh` loads as a floor plan whose free
//! area is the sum of the mesh polygons' areas.

use std::path::Path;

use navscope_core::level::LevelData;

#[test]
fn arena_free_area_equals_the_polygon_areas() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/polyanya-meshes/arena.mesh");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    // Independent area sum straight from the file.
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let (nv, np) = (
        tokens[2].parse::<usize>().unwrap(),
        tokens[3].parse::<usize>().unwrap(),
    );
    let mut i = 4;
    let mut verts = Vec::new();
    for _ in 0..nv {
        let n: usize = tokens[i + 2].parse().unwrap();
        verts.push((
            tokens[i].parse::<f64>().unwrap(),
            tokens[i + 1].parse::<f64>().unwrap(),
        ));
        i += 3 + n;
    }
    let mut sum = 0.0;
    for _ in 0..np {
        let n: usize = tokens[i].parse().unwrap();
        let vs: Vec<usize> = tokens[i + 1..i + 1 + n]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        i += 1 + 2 * n;
        for k in 0..n {
            let (a, b) = (verts[vs[k]], verts[vs[(k + 1) % n]]);
            sum += (a.0 * b.1 - b.0 * a.1) / 2.0;
        }
    }
    let level = navscope_levels::load(&path).unwrap();
    let LevelData::FloorPlan(plan) = level.data else {
        panic!("arena.mesh loads as a floor plan")
    };
    assert!(
        (plan.area.area() - sum).abs() < 1e-9 * sum,
        "{} != {}",
        plan.area.area(),
        sum
    );
    assert_eq!(sum, 2054.0);
    navscope_core::geom::validate_polygon_with_holes(&plan.area).unwrap();
}
