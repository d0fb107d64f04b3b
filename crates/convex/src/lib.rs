//! # navscope-convex: ANavMG convex decomposition
//!
//! Oliva & Pelechano, "Automatic Generation of Suboptimal NavMeshes" (MIG
//! 2011 / 2013), as a navscope pipeline (`convex`). Written by hand: no
//! maintained crate implements ANavMG.
//!
//! ## The algorithm in five stages
//!
//! 1. **`notches`** (§3.1): the floor plan (outer ring counter-clockwise,
//!    holes clockwise, so free space is always on the left) is checked
//!    against the paper's conditions (1). A vertex is a *notch* when the
//!    turn at it is clockwise (exact orientation test) — with convexity
//!    relaxation (§3.3) when its interior angle exceeds pi + tau. Each notch
//!    gets its *area of interest* `I_i`: the wedge between its two edges
//!    prolonged past it. A portal from the notch to any point of that wedge
//!    splits its reflex angle into two convex ones.
//! 2. **`portals`** (§3.2): notch by notch, the closest point of the
//!    boundary or of an earlier portal inside `I_i` decides the portal:
//!    vertex-vertex, vertex-edge (projection, `q_l` or `q_r`; the new point
//!    splits the edge) or vertex-portal (to an end of the earlier portal).
//!    A uniform grid over the segments ([`grid`]) is flooded from the notch
//!    through the cells that meet the wedge, nearest first, so the search
//!    is local instead of the paper's O(r n). Portal removal (§3.2.3) runs
//!    here, right after each notch.
//! 3. **`removal`**: publishes the final and removed portal sets.
//! 4. **`cells`**: the faces of the planar graph of boundary pieces and
//!    portals are the cells; the cell-and-portal graph is the `NavMesh`.
//! 5. **`metrics`**: the figures of Table 1 and the cells' angles.
//!
//! ## Use
//!
//! Through the stage runner (`navscope_core::Runner::new(Arc::new(pipeline()),
//! level)`), as the app and CLI do, or directly:
//!
//! ```
//! use glam::DVec2;
//! use navscope_core::geom::{Polygon, PolygonWithHoles};
//!
//! // An L-shaped room: one notch at (1, 1), two convex cells.
//! let l = [(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)];
//! let room = PolygonWithHoles::new(Polygon::new(l.iter().map(|&(x, y)| DVec2::new(x, y)).collect()), vec![]);
//! let out = navscope_convex::decompose_plan(&room, 0.0, true)?;
//! assert_eq!((out.strict_notches, out.cells.len(), out.links.len()), (1, 2, 1));
//! # Ok::<(), navscope_core::StageError>(())
//! ```
//!
//! ## Choices where the paper is silent or ambiguous
//!
//! * **Closest element = closest point inside the wedge.** For every
//!   segment the closest point of its part inside the closed wedge is
//!   taken; the overall closest wins (ties: vertex, then edge, then portal,
//!   then lowest id — a total order, so output is deterministic). For an
//!   edge this is exactly the paper's rule (projection if inside, else the
//!   closest of the endpoints and `q_l`, `q_r` inside). Because it is the
//!   closest point of everything in a convex wedge, the portal to it never
//!   crosses anything.
//! * **A portal ending at an existing vertex is vertex-vertex**, even when
//!   the closest element was an edge whose endpoint was the closest point
//!   (the paper's "vertex-edge to an end vertex", Fig. 3 centre): the result
//!   is the same segment, and the vertex-vertex check then also drops the
//!   other notch when the portal lies in its area of interest. That check
//!   runs for every portal end, whatever the portal's type.
//! * **Closed wedges.** Points on the prolonged edges count as inside (the
//!   split leaves an angle of exactly pi, which is convex); `q_l` and `q_r`
//!   lie there by definition.
//! * **Tau widening** (§3.3): each boundary ray of `I_i` turns outwards by
//!   tau / 2, so the opening is alpha + tau. With `theta` the notch's
//!   interior angle, alpha = 2 pi - theta, so the paper's limit
//!   alpha + tau < pi is exactly the notch condition theta > pi + tau and
//!   holds for every tau-notch without clamping. Each side of a split is at
//!   most pi + tau / 2. The tau test is in f64; with tau = 0 all tests are
//!   exact.
//! * **Vertex-portal fallbacks.** The paper assumes the segment to the
//!   chosen end of the hit portal is free and that two portals to both ends
//!   leave convex angles. Both are checked (segment tests through the grid,
//!   with the near-miss tolerances below); if they fail, the hit portal is cut in two at the closest point
//!   and a single portal goes there (a T-junction, which the paper avoids
//!   but which is always valid). Cut portals are counted (`portals cut`).
//! * **Removal** (§3.2.3) is done during creation, as in the paper: after a
//!   notch's portals are added, every earlier portal sharing a vertex with
//!   one of them (a reading slightly broader than the paper's
//!   "the portal that was hit") is removed, in creation order, when the
//!   angle formed at each of its ends by merging the two sectors on either
//!   side of it is at most pi + tau. `portal_removal = false` gives the
//!   paper's "original" column.
//! * **What tau-convexity guarantees.** Every corner of every cell is at
//!   most pi + tau. That bounds each corner, not the cell: a wall of many
//!   gently reflex corners (a curve tessellated at 3 degrees with tau = 5)
//!   yields no notch and one cell that follows the whole curve, and two of
//!   its points may not see each other. Only with tau = 0 can an agent walk
//!   straight between any two points of a cell. Each cell therefore
//!   reports its total reflex turn and how far a straight walk inside its
//!   convex hull can stray outside it ([`cells::Cell::stray_m`]), shown in
//!   the app's inspector; `tests/degenerate.rs` builds the curved wall.
//! * **Islands** (tau > 0 only): a hole whose corners are all tau-convex
//!   (a finely tessellated round pillar) gets no portal and would float
//!   inside a cell. After the notch list, every face walk that is not a
//!   simple counter-clockwise outline has its most reflex corner split with
//!   the strict wedge, one extra sub-step each, until none is left. With
//!   tau = 0 this never triggers (all corners convex implies simple faces).
//!   Islands are handled in rounds: one corner per bad walk, then the faces
//!   are recomputed.
//! * **A notch already split when its turn comes** (an earlier portal of
//!   any type ends at it inside its area of interest) is skipped; its
//!   sub-step names the portal. This is the paper's vertex-vertex drop
//!   rule applied once more at processing time.
//! * **`r` in ratios** is the strict notch count for every variant, so the
//!   three columns of Table 1 divide by the same number.
//! * **Float points and near-degeneracies.** Split points on edges are
//!   rounded to f64, so a cell corner there may be pi plus a rounding error
//!   (tests allow 1e-9 rad; 1e-6 rad for a plan 3e7 m from the origin).
//!   Two collinear edges rotated into f64 no longer line up exactly, which
//!   would turn "the vertex on my prolonged edge" into an ill-conditioned
//!   crossing of nearly parallel lines; so the wedge search counts points
//!   within 1e-10 rad of a wedge ray as on it, the vertex-vertex drop test
//!   uses the same tolerance, and the clearance test of the vertex-portal
//!   case rejects segments passing within 1e-9 (relative) of a vertex or
//!   leaving a shared vertex within 1e-9 rad of another segment.
//!
//! ## Corpus: the paper's claims (Table 1)
//!
//! The paper tested ANavMG on 8 scenarios with 15 to 106 notches (Table 1).
//! `assets/levels/corpus/table1..8.json` are rooms with random convex and
//! concave obstacles (`navscope_levels::generate::floor_plan`), with seeds
//! chosen so their strict notch counts are exactly the paper's
//! (`cargo run --release -p navscope-convex --example corpus -- write
//! assets/levels/corpus` regenerates them, `-- table` prints this table;
//! `tests/corpus.rs` checks that this table is current). Cells for the three
//! versions of Table 1: original (strict convexity, no removal), with portal
//! removal, and with removal and tau = 5 deg; ratios are cells / r.
//!
//! | plan | r (notches) | cells original | c/r | cells with removal | c/r | cells tau = 5 deg | c/r |
//! |---|---|---|---|---|---|---|---|
//! | table1 | 15 | 11 | 0.73 | 9 | 0.60 | 9 | 0.60 |
//! | table2 | 22 | 17 | 0.77 | 17 | 0.77 | 16 | 0.73 |
//! | table3 | 32 | 25 | 0.78 | 25 | 0.78 | 24 | 0.75 |
//! | table4 | 43 | 33 | 0.77 | 31 | 0.72 | 29 | 0.67 |
//! | table5 | 55 | 39 | 0.71 | 39 | 0.71 | 38 | 0.69 |
//! | table6 | 68 | 51 | 0.75 | 48 | 0.71 | 44 | 0.65 |
//! | table7 | 93 | 64 | 0.69 | 58 | 0.62 | 55 | 0.59 |
//! | table8 | 106 | 63 | 0.59 | 61 | 0.58 | 59 | 0.56 |
//! | average | | | 0.72 | | 0.69 | | 0.65 |
//!
//! The paper reports averages of 0.80, 0.71 and 0.67. The claims hold on
//! every plan: cells never exceed r + 1 (in fact stay below r), removal never
//! raises the count and lowers it overall, and tau = 5 deg lowers it
//! further. (Outside this corpus, on spiky star-shaped rooms without holes,
//! the vertex-portal case often needs two portals and the count can exceed
//! r; the property tests do not assert the bound there.)
//!
//! **Why removal gains 4 % here and 11 % in the paper.** Not the scope of
//! the rule: navscope's removal test is broader than §3.2.3's (every
//! earlier portal sharing a vertex with a new one, not just the portal
//! hit), so it can only remove more. The difference is in the baseline and
//! in how the paper averages. Counted in cells over the whole corpus,
//! removal saves 18 of the paper's 318 cells (5.7 %) and 15 of navscope's
//! 303 (5.0 %): 0, 0, 0, 2, 0, 3, 6, 2 portals removed per plan here, out
//! of 117 vertex-portal portals. The paper's 11 % is the change of the mean
//! of the per-plan ratios (0.80 to 0.71), and its three smallest plans
//! lose 18 to 20 % each because its original version is wasteful there
//! (15 cells for 15 notches on geometry 1). navscope's original version is
//! already leaner (0.72 against 0.80: over the corpus 61 notches are split
//! by an earlier portal ending at them, dropped from the list and skipped
//! when their turn comes, each a portal never made), and after removal the two
//! agree (0.69 against 0.71). Counts from `decompose_plan` on
//! `assets/levels/corpus/table1..8.json` with tau = 0 and removal off / on.
//!
//! The same figures, with stage times and the other metrics, come from
//! `navscope-cli bench assets/levels/corpus/table*.json --pipeline convex
//! --set portal_removal=false --variant "portal_removal=true" --variant
//! "portal_removal=true;tau=5"`. Its `ill_conditioned_cells` column (cells
//! with an angle below 10 deg) also bears out §3.3's remark that relaxation
//! removes ill-conditioned cells: 31 over the corpus for the original
//! version, 22 with removal, 10 with tau = 5 deg.
//!
//! ## The paper's figures as sample levels
//!
//! `assets/levels/convex-figures/` holds one small plan per case of §3.2
//! and §3.3 (`tests/figures.rs` generates them and checks that each forces
//! its case): `figure2-vv-drop` and `figure2-vv-keep` (vertex-vertex, the
//! far notch dropped or kept), `figure3-projection-ql` (vertex-edge to the
//! projection and to q_l), `figure4-one-end`, `figure4-closer-end`,
//! `figure4-both-ends-qr-removal` (vertex-portal to one end, to the closer
//! of two ends, to both ends with two portals; also vertex-edge to q_r and
//! a removal), `figure4-cut` (an earlier portal cut in two) and
//! `figure6-relaxation` (an 80-gon pillar whose corners tau = 5 deg takes
//! off the list). Figure 3's centre case (a vertex-edge portal to an end
//! of the edge) has no sample of its own: the closest point of an edge
//! inside the area of interest is its projection, q_l, q_r or an end, and
//! an end inside the area is also a vertex of the plan at the same
//! distance, which the search takes as a vertex-vertex portal (Figure 2).
//! No step of 2,400 generated plans ended a vertex-edge portal at an end.
//!
//! ## A real map
//!
//! `../shared/data/polyanya-meshes/arena.mesh` (Polyanya's benchmark
//! mesh of the Dragon Age arena map), loaded by `navscope-levels` as the
//! union of its convex polygons (outer boundary plus holes), checked by
//! `tests/arena.rs`:
//!
//! arena.mesh: 120 polygons in the mesh; 112 vertices, 5 holes, 64 notches; cells: 41 original, 40 with removal, 40 with tau = 5 deg
//!
//! So ANavMG covers the same free space with a third of the mesh's convex
//! polygons (which come from a triangulation-based merge), every cell
//! convex.
//!
//! ## Speed
//!
//! `CARGO_TARGET_DIR=/work/tgt cargo bench -p navscope-convex` on
//! `navscope_levels::generate::big_floor_plan(1, 10_000)` (10,000 vertices,
//! 374 holes, 3,000 notches): 53 to 72 ms for the whole decomposition
//! (validation, notches, portals with removal, cells; the range is the
//! 2-core build machine with and without other builds running), 72 to 76
//! ms through the stage runner (artifacts and NavMesh included). About 30
//! ms of it is core's check of conditions (1), 16 to 30 ms the portal loop,
//! 6 ms each face extraction. The largest corpus plan (106 notches) takes
//! 0.7 ms.

pub mod cells;
pub mod cone;
pub mod decompose;
pub mod graph;
pub mod grid;
pub mod metrics;
pub mod notches;
pub mod portals;
pub mod removal;
pub mod show;

use navscope_core::geom::PolygonWithHoles;
use navscope_core::level::LevelKind;
use navscope_core::{ParamSpec, Pipeline, Stage, StageError, StageInfo};

pub use cells::{Cell, CellLink};
pub use decompose::{Decomposition, Fate, Portal, PortalKind};

/// Everything one decomposition produces, for callers outside the stage
/// runner (tests, benchmarks).
#[derive(Clone, Debug)]
pub struct Output {
    /// Strict notch count `r`.
    pub strict_notches: usize,
    /// The notches processed (tau-notches).
    pub notches: Vec<notches::Notch>,
    /// The portal loop's result.
    pub decomposition: Decomposition,
    /// The cells.
    pub cells: Vec<Cell>,
    /// The portals between cells.
    pub links: Vec<CellLink>,
}

/// Decomposes a floor plan directly (same steps as the pipeline): the plan
/// is normalised and validated, `tau_deg` is the relaxation in degrees.
pub fn decompose_plan(
    plan: &PolygonWithHoles,
    tau_deg: f64,
    portal_removal: bool,
) -> Result<Output, StageError> {
    let mut plan = plan.clone();
    plan.normalise();
    navscope_core::geom::validate_polygon_with_holes(&plan)
        .map_err(|e| StageError::failed(e.to_string()))?;
    let strict_notches = notches::find_notches(&plan, 0.0).len();
    let list = notches::find_notches(&plan, tau_deg.to_radians());
    let decomposition = decompose::decompose(
        &notches::rings(&plan),
        &list,
        tau_deg.to_radians(),
        portal_removal,
    )?;
    let (cells, links) = cells::cells_of(&decomposition)?;
    Ok(Output {
        strict_notches,
        notches: list,
        decomposition,
        cells,
        links,
    })
}

/// The pipeline's parameters.
pub fn params() -> Vec<ParamSpec> {
    vec![
        ParamSpec::float(
            "tau",
            "Convexity relaxation (tau)",
            "deg",
            0.0,
            0.0,
            45.0,
            0.5,
            "Angles up to 180 + tau degrees count as convex, and areas of interest widen by tau (paper §3.3; it recommends 5)",
        ),
        ParamSpec::bool(
            "portal_removal",
            "Portal removal",
            true,
            "Remove earlier portals made unnecessary by later ones (paper §3.2.3)",
        ),
        ParamSpec::float(
            "ill_conditioned_deg",
            "Ill-conditioned angle",
            "deg",
            10.0,
            0.0,
            60.0,
            0.5,
            "A cell whose smallest interior angle is below this counts as ill-conditioned (a sliver)",
        ),
    ]
}

/// The `convex` pipeline.
pub fn pipeline() -> Pipeline {
    Pipeline {
        id: "convex",
        stage_aliases: &[],
        title: "ANavMG convex decomposition",
        accepts: vec![LevelKind::FloorPlan],
        params: params(),
        stages: vec![
            Stage {
                info: StageInfo::new(
                    "notches",
                    "Notches and areas of interest",
                    "A notch is a corner that bends into the free space by more than 180 degrees (more than 180 + tau with relaxation): an agent walking along the wall would have to turn away from it. Every cell of a convex decomposition must cut such a corner. Each notch's area of interest is the wedge between its two walls prolonged past the corner: a single portal from the notch to anything inside that wedge leaves two angles of at most 180 degrees on either side, so one portal per notch is enough. The plan is first checked: rings simple, holes inside the outer boundary, no two rings touching.",
                    "Oliva & Pelechano 2013, §3.1, §3.3",
                    &["tau"],
                ),
                run: notches::run,
            },
            Stage {
                info: StageInfo::new(
                    "portals",
                    "Portals, notch by notch",
                    "Notches are taken in order. For each, the closest thing inside its area of interest is found: a vertex (vertex-vertex portal), a point on a wall (vertex-edge: the notch's projection onto the wall, or where a prolonged wall of the notch meets it; the wall is split there) or an earlier portal (vertex-portal: to that portal's nearer end inside the wedge, or to both ends). A portal that also lands inside another waiting notch's wedge splits that notch too, which then leaves the list. With portal removal on, an earlier portal that meets a new one is deleted when the angles at both its ends stay convex without it. Step through the notches to see the wedge, the candidates and the choice.",
                    "Oliva & Pelechano 2013, §3.2.1-§3.2.3",
                    &["portal_removal"],
                ),
                run: portals::run,
            },
            Stage {
                info: StageInfo::new(
                    "removal",
                    "Portal removal",
                    "The portals that survive and the ones removed (dashed). Removal happens during portal creation, as in the paper, because the portals that exist change what later notches find closest; this stage shows the outcome. Removing a portal merges two convex cells into one larger convex cell, which is why removal lowers the cell count. Turn the parameter off to see the paper's original version.",
                    "Oliva & Pelechano 2013, §3.2.3",
                    &[],
                ),
                run: removal::run,
            },
            Stage {
                info: StageInfo::new(
                    "cells",
                    "Convex cells and the cell-and-portal graph",
                    "The walls and the portals cut the free space into cells; each is found by walking around it keeping it on the left. Every corner of every cell is at most 180 degrees, so with tau = 0 an agent can walk straight between any two points of a cell. With relaxation a corner may reach 180 + tau degrees: that bounds each corner, not the cell, and a gently curving wall of many such corners gives one cell that bends a lot in total. The inspector shows each cell's total reflex turn and how far a straight walk between two of its points can stray outside it (its worst concavity); with tau = 0 both are 0. The cells become the navigation mesh's nodes and each portal two links, with the distance between the cells' centroids as the cost.",
                    "Oliva & Pelechano 2013, §3, §3.4",
                    &[],
                ),
                run: cells::run,
            },
            Stage {
                info: StageInfo::new(
                    "metrics",
                    "Metrics",
                    "The figures the paper reports (Table 1): notches r, cells and cells per notch, portals by type and how many were removed, plus the total portal length and each cell's smallest angle. Cells with a very small angle are slivers (ill-conditioned): agents steer badly in them. Relaxation (tau) tends to remove them.",
                    "Oliva & Pelechano 2013, §4, Table 1",
                    &["ill_conditioned_deg"],
                ),
                run: metrics::run,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipeline_is_consistent() {
        pipeline().check().unwrap();
        assert_eq!(
            pipeline()
                .stages
                .iter()
                .map(|s| s.info.id)
                .collect::<Vec<_>>(),
            vec!["notches", "portals", "removal", "cells", "metrics"]
        );
    }
}
