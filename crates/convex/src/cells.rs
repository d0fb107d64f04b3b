//! Stage 4, `cells`: the convex (tau-convex) cells bounded by the floor
//! plan and the portals, and the cell-and-portal graph as the common
//! [`NavMesh`].
//!
//! Cells are the faces of the planar graph of boundary edges (split where
//! portals end on them) and portals, found by walking each face with free
//! space on the left: at every vertex the walk turns onto the next segment
//! clockwise from the one it arrived along.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec2;
use navscope_core::draw::{Primitive, Shape};
use navscope_core::geom::{interior_angle, plan_to_world};
use navscope_core::{Artifact, LinkKind, NavMesh, StageContext, StageError, Stance};
use serde::Serialize;

use crate::decompose::Decomposition;
use crate::graph::SegKind;
use crate::portals::PortalsArtifact;
use crate::show::{plan_point, plan_polygon, plan_segment, ring_outline};

/// One cell.
#[derive(Clone, Debug, Serialize)]
pub struct Cell {
    /// Outline, counter-clockwise (plan coordinates).
    pub polygon: Vec<DVec2>,
    /// Area in square metres.
    pub area: f64,
    /// Area centroid.
    pub centroid: DVec2,
    /// Smallest interior angle, degrees.
    pub min_angle_deg: f64,
    /// Largest interior angle, degrees (at most 180 + tau).
    pub max_angle_deg: f64,
    /// Total bend into the cell: the sum over its corners of the angle
    /// beyond 180 degrees (0 for a convex cell). Each corner adds at most
    /// tau, but a wall of many gently reflex corners adds them all up.
    pub reflex_turn_deg: f64,
    /// How far a straight walk between two points of the cell can stray
    /// outside it, metres: the greatest distance from a point of the
    /// cell's convex hull to the cell (sampled at 32 points per hull edge;
    /// 0 for a convex cell). The cell's worst concavity.
    pub stray_m: f64,
}

/// Convex hull of `pts`, counter-clockwise (Andrew's monotone chain).
fn hull(pts: &[DVec2]) -> Vec<DVec2> {
    let mut p = pts.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut h: Vec<DVec2> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        for &q in &p {
            while h.len() >= start + 2
                && (h[h.len() - 1] - h[h.len() - 2]).perp_dot(q - h[h.len() - 2]) <= 0.0
            {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
        if pass == 0 {
            p.reverse();
        }
    }
    h
}

/// [`Cell::stray_m`] of the outline `polygon`.
fn stray(polygon: &[DVec2]) -> f64 {
    let h = hull(polygon);
    let ring = navscope_core::geom::Polygon::new(polygon.to_vec());
    let mut worst = 0.0f64;
    for k in 0..h.len() {
        let (a, b) = (h[k], h[(k + 1) % h.len()]);
        for i in 0..32 {
            let x = a.lerp(b, i as f64 / 32.0);
            if !ring.contains(x, true) {
                worst = worst.max(ring.boundary_distance(x));
            }
        }
    }
    worst
}

/// A portal between two cells.
#[derive(Clone, Debug, Serialize)]
pub struct CellLink {
    /// Portal index (as in the `portals` stage).
    pub portal: u32,
    /// The cells on its two sides.
    pub cells: [u32; 2],
    /// Portal endpoints (plan).
    pub segment: [DVec2; 2],
}

/// The artifact of the `cells` stage.
#[derive(Clone, Debug, Serialize)]
pub struct CellsArtifact {
    /// The cells.
    pub cells: Vec<Cell>,
    /// The portals between them.
    pub links: Vec<CellLink>,
    /// The cell-and-portal graph.
    pub navmesh: NavMesh,
    /// Free area of the plan, for comparison with the cells' total.
    pub free_area: f64,
    /// Outline of the plan, for drawing.
    #[serde(skip)]
    pub outline: Vec<Primitive>,
}

/// The cells and links of a decomposition; an error when a face is not a
/// simple counter-clockwise outline (which the portal loop rules out).
pub fn cells_of(d: &Decomposition) -> Result<(Vec<Cell>, Vec<CellLink>), StageError> {
    let faces = d.graph.faces();
    let mut cell_of_walk = vec![u32::MAX; faces.walks.len()];
    let mut cells = Vec::new();
    for (i, w) in faces.walks.iter().enumerate() {
        if !w.is_simple_outline() {
            let p = d.graph.points[w.vertices[0] as usize];
            return Err(StageError::failed(format!(
                "the face through ({}, {}) is not a simple convex cell (signed area {})",
                p.x, -p.y, w.signed_area
            )));
        }
        let polygon: Vec<DVec2> = w
            .vertices
            .iter()
            .map(|&v| d.graph.points[v as usize])
            .collect();
        let n = polygon.len();
        let angles: Vec<f64> = (0..n)
            .map(|k| {
                interior_angle(polygon[(k + n - 1) % n], polygon[k], polygon[(k + 1) % n])
                    .to_degrees()
            })
            .collect();
        let poly = navscope_core::geom::Polygon::new(polygon.clone());
        cell_of_walk[i] = cells.len() as u32;
        cells.push(Cell {
            area: w.signed_area,
            centroid: poly.centroid(),
            min_angle_deg: angles.iter().copied().fold(f64::INFINITY, f64::min),
            max_angle_deg: angles.iter().copied().fold(0.0, f64::max),
            reflex_turn_deg: angles.iter().map(|a| (a - 180.0).max(0.0)).sum(),
            stray_m: stray(&polygon),
            polygon,
        });
    }
    let mut links = Vec::new();
    for (s, seg) in d.graph.segs.iter().enumerate() {
        let SegKind::Portal { id } = seg.kind else {
            continue;
        };
        if !seg.alive {
            continue;
        }
        let [f0, f1] = faces.face_of[s];
        let (c0, c1) = (cell_of_walk[f0 as usize], cell_of_walk[f1 as usize]);
        if c0 == c1 {
            let p = d.graph.points[seg.a as usize];
            return Err(StageError::failed(format!(
                "portal {id} at ({}, {}) has the same cell on both sides",
                p.x, -p.y
            )));
        }
        links.push(CellLink {
            portal: id,
            cells: [c0, c1],
            segment: [
                d.graph.points[seg.a as usize],
                d.graph.points[seg.b as usize],
            ],
        });
    }
    Ok((cells, links))
}

/// The cell-and-portal graph: one node per cell (its polygon in world
/// coordinates at y = 0, counter-clockwise seen from above, positioned at
/// its centroid), two `portal` links per portal with the portal as their
/// segment and the distance between the cells' centroids as their cost.
pub fn navmesh_of(cells: &[Cell], links: &[CellLink], level: &str) -> NavMesh {
    let mut m = NavMesh::new("convex", level);
    for c in cells {
        let poly = c.polygon.iter().map(|p| plan_to_world(*p, 0.0)).collect();
        m.add_node(plan_to_world(c.centroid, 0.0), Some(poly), Stance::Stand, 0);
    }
    for l in links {
        let [a, b] = l.cells;
        let cost = cells[a as usize]
            .centroid
            .distance(cells[b as usize].centroid);
        let seg = [
            plan_to_world(l.segment[0], 0.0),
            plan_to_world(l.segment[1], 0.0),
        ];
        m.add_two_way(a, b, LinkKind::Portal, cost, Some(seg));
    }
    m
}

/// The stage function.
pub fn run(ctx: &StageContext) -> Result<Arc<dyn Artifact>, StageError> {
    let p = ctx.artifact::<PortalsArtifact>("portals")?;
    let (cells, links) = cells_of(&p.result)?;
    let navmesh = navmesh_of(&cells, &links, &ctx.level.source);
    Ok(Arc::new(CellsArtifact {
        cells,
        links,
        navmesh,
        free_area: p.plan.area(),
        outline: ring_outline(&p.plan),
    }))
}

impl Artifact for CellsArtifact {
    fn counts(&self) -> BTreeMap<String, u64> {
        BTreeMap::from([
            ("cells".into(), self.cells.len() as u64),
            ("portal links".into(), self.links.len() as u64),
        ])
    }

    fn primitives(&self) -> Vec<Primitive> {
        let mut out = self.outline.clone();
        for (i, c) in self.cells.iter().enumerate() {
            out.push(Primitive::new("cell", i as u32, plan_polygon(&c.polygon)));
        }
        for l in &self.links {
            out.push(Primitive::new(
                "portal",
                l.portal,
                plan_segment(l.segment[0], l.segment[1]),
            ));
        }
        for (i, c) in self.cells.iter().enumerate() {
            out.push(Primitive::new(
                "cell/centroid",
                i as u32,
                Shape::Point(plan_point(c.centroid)),
            ));
        }
        out
    }

    fn metrics(&self) -> BTreeMap<String, f64> {
        BTreeMap::from([("cells".into(), self.cells.len() as f64)])
    }

    fn navmesh(&self) -> Option<&NavMesh> {
        Some(&self.navmesh)
    }

    fn describe(&self, element: u32) -> serde_json::Value {
        self.describe_cell(element).unwrap_or_default()
    }

    /// Cells and portals share ids: a portal is described as the portal,
    /// a cell (or its centroid) as the cell, the outline as its shapes.
    fn describe_element(&self, kind: &str, element: u32) -> serde_json::Value {
        match kind.split('/').next() {
            Some("portal") => self.describe_portal(element),
            Some("cell") => self.describe_cell(element),
            // The plan's outline: its drawn shapes.
            _ => {
                let own: Vec<&Primitive> = self
                    .outline
                    .iter()
                    .filter(|p| p.kind == kind && p.element == element)
                    .collect();
                Some(navscope_core::describe::primitives(&own))
            }
        }
        .unwrap_or_default()
    }
}

impl CellsArtifact {
    /// A cell as a designer reads it: its size and shape, how far from
    /// convex it is (the reflex turn and the worst concavity the About text
    /// names), and its portals and neighbours as links that select them.
    fn describe_cell(&self, element: u32) -> Option<serde_json::Value> {
        use navscope_core::describe::select;
        let c = self.cells.get(element as usize)?;
        let mm = |x: f64| (x * 1000.0).round() / 1000.0;
        let centre = plan_point(c.centroid);
        let mut portals = Vec::new();
        let mut neighbours = Vec::new();
        for l in self.links.iter().filter(|l| l.cells.contains(&element)) {
            let other = if l.cells[0] == element {
                l.cells[1]
            } else {
                l.cells[0]
            };
            let width = l.segment[0].distance(l.segment[1]);
            portals.push(select(
                "portal",
                l.portal,
                format!(
                    "portal #{} to cell #{other} · {} m wide",
                    l.portal,
                    mm(width)
                ),
            ));
            neighbours.push(select("cell", other, format!("cell #{other}")));
        }
        Some(serde_json::json!({
            "area_m2": mm(c.area),
            "centre_m": [mm(centre.x as f64), mm(centre.y as f64), mm(centre.z as f64)],
            "corners": c.polygon.len(),
            "smallest_angle_deg": mm(c.min_angle_deg),
            "largest_angle_deg": mm(c.max_angle_deg),
            "reflex_turn_deg": mm(c.reflex_turn_deg),
            "worst_concavity_m": mm(c.stray_m),
            "portals": portals,
            "neighbours": neighbours,
        }))
    }

    /// A portal: its width, ends and the two cells it joins (links).
    fn describe_portal(&self, portal: u32) -> Option<serde_json::Value> {
        use navscope_core::describe::select;
        let l = self.links.iter().find(|l| l.portal == portal)?;
        let mm = |x: f64| (x * 1000.0).round() / 1000.0;
        let end = |p: DVec2| {
            let w = plan_point(p);
            [mm(w.x as f64), mm(w.y as f64), mm(w.z as f64)]
        };
        Some(serde_json::json!({
            "portal": portal,
            "width_m": mm(l.segment[0].distance(l.segment[1])),
            "from_m": end(l.segment[0]),
            "to_m": end(l.segment[1]),
            "cells": [
                select("cell", l.cells[0], format!("cell #{}", l.cells[0])),
                select("cell", l.cells[1], format!("cell #{}", l.cells[1])),
            ],
        }))
    }
}
