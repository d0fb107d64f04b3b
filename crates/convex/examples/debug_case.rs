fn main() {
    let plan = navscope_levels::generate::floor_plan(12633918435600328640, 5).area;
    let mut p = plan.clone();
    p.normalise();
    let notches = navscope_convex::notches::find_notches(&p, 0.0);
    let d = navscope_convex::decompose::decompose(&navscope_convex::notches::rings(&p), &notches, 0.0, false);
    match d {
        Ok(_) => println!("ok"),
        Err(e) => println!("{e}"),
    }
    // Re-run without islands: walk the faces.
    let mut g = navscope_convex::graph::PlanGraph::from_rings(&navscope_convex::notches::rings(&p));
    let f = g.faces();
    println!("faces {} areas {:?}", f.walks.len(), f.walks.iter().map(|w| w.signed_area).collect::<Vec<_>>());
    let _ = &mut g;
}
