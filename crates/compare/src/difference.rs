//! Footprints and their difference: where A is walkable and B is not, and
//! the reverse.
//!
//! A NavMesh's *footprint* is the union of its node polygons seen from
//! above. Polygons are grouped first ([`Banding`]): by layer, or by height
//! band, so that a floor is not differenced against the floor above it.
//! Point nodes (navigation graphs without polygons) have no footprint.

use std::collections::BTreeMap;

use glam::DVec2;
use navscope_core::NavMesh;
use navscope_core::draw::Primitive;
use navscope_core::geom::world_to_plan;
use serde::Serialize;

use crate::region::Region;

/// How node polygons are grouped before they are differenced.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Banding {
    /// By the node's `layer` (the same numbering on both sides).
    Layer,
    /// By height: a node belongs to the band `round(y / band)` of its
    /// position's height `y`, so band 0 holds heights within half a band of
    /// the ground. Works across pipelines whatever their layer numbers.
    Height {
        /// Band height in metres.
        band: f64,
    },
}

impl Default for Banding {
    /// Height bands of 2 m (a standing agent's height).
    fn default() -> Self {
        Banding::Height { band: 2.0 }
    }
}

impl Banding {
    /// The band of a node at height `y` on layer `layer`.
    pub fn key(self, layer: u32, y: f64) -> i64 {
        match self {
            Banding::Layer => layer as i64,
            Banding::Height { band } => (y / band).round() as i64,
        }
    }

    /// The height the band is drawn at (its centre; 0 for layers).
    pub fn height(self, key: i64) -> f64 {
        match self {
            Banding::Layer => 0.0,
            Banding::Height { band } => key as f64 * band,
        }
    }
}

/// A NavMesh's footprint per band: the union of its node polygons.
pub fn footprints(mesh: &NavMesh, banding: Banding) -> BTreeMap<i64, Region> {
    let mut polys: BTreeMap<i64, Vec<Vec<DVec2>>> = BTreeMap::new();
    for n in &mesh.nodes {
        let Some(poly) = &n.polygon else { continue };
        polys
            .entry(banding.key(n.layer, n.position.y))
            .or_default()
            .push(poly.iter().map(|&p| world_to_plan(p)).collect());
    }
    polys
        .into_iter()
        .map(|(k, p)| (k, Region::union_of(&p)))
        .collect()
}

/// The difference of two footprints in one band.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BandDifference {
    /// The band ([`Banding::key`]).
    pub key: i64,
    /// The height to draw it at (metres; [`Banding::height`]).
    pub height: f64,
    /// Walkable in A, not in B.
    pub a_only: Region,
    /// Walkable in B, not in A.
    pub b_only: Region,
    /// Walkable in both.
    pub common: Region,
    /// A's footprint area in this band (m²).
    pub a_area: f64,
    /// B's footprint area in this band (m²).
    pub b_area: f64,
}

/// The footprint difference of two builds, band by band.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Difference {
    /// How the nodes were grouped.
    pub banding: Option<Banding>,
    /// Every band either side has, lowest first.
    pub bands: Vec<BandDifference>,
}

impl Difference {
    /// Area walkable in A and not in B (m², all bands).
    pub fn a_only_area(&self) -> f64 {
        self.bands.iter().map(|b| b.a_only.area()).sum()
    }

    /// Area walkable in B and not in A (m², all bands).
    pub fn b_only_area(&self) -> f64 {
        self.bands.iter().map(|b| b.b_only.area()).sum()
    }

    /// Area walkable in both (m², all bands).
    pub fn common_area(&self) -> f64 {
        self.bands.iter().map(|b| b.common.area()).sum()
    }

    /// A's footprint area (m², all bands).
    pub fn a_area(&self) -> f64 {
        self.bands.iter().map(|b| b.a_area).sum()
    }

    /// B's footprint area (m², all bands).
    pub fn b_area(&self) -> f64 {
        self.bands.iter().map(|b| b.b_area).sum()
    }

    /// The plan bounding box of everything either side covers.
    pub fn bounds(&self) -> Option<(DVec2, DVec2)> {
        self.bands
            .iter()
            .flat_map(|b| [&b.a_only, &b.b_only, &b.common])
            .filter_map(Region::bounds)
            .reduce(|(lo, hi), (l, h)| (lo.min(l), hi.max(h)))
    }
}

/// Primitive kind of the area walkable in A only.
pub const KIND_A_ONLY: &str = "difference/a-only";
/// Primitive kind of the area walkable in B only.
pub const KIND_B_ONLY: &str = "difference/b-only";
/// Primitive kind of the area walkable in both.
pub const KIND_COMMON: &str = "difference/common";

impl Difference {
    /// The difference as core's drawable primitives, so a viewer draws it
    /// like any artifact: filled polygons of kinds [`KIND_COMMON`],
    /// [`KIND_A_ONLY`] and [`KIND_B_ONLY`] at each band's height, element
    /// = the band's index in [`Difference::bands`].
    pub fn primitives(&self) -> Vec<Primitive> {
        let mut out = Vec::new();
        for (i, b) in self.bands.iter().enumerate() {
            for (kind, region) in [
                (KIND_COMMON, &b.common),
                (KIND_A_ONLY, &b.a_only),
                (KIND_B_ONLY, &b.b_only),
            ] {
                out.extend(
                    region
                        .polygons_at(b.height)
                        .into_iter()
                        .map(|s| Primitive::new(kind, i as u32, s)),
                );
            }
        }
        out
    }
}

/// The difference of two footprint sets, band by band.
pub fn difference_of(
    a: &BTreeMap<i64, Region>,
    b: &BTreeMap<i64, Region>,
    banding: Banding,
) -> Difference {
    let empty = Region::default();
    let mut keys: Vec<i64> = a.keys().chain(b.keys()).copied().collect();
    keys.sort_unstable();
    keys.dedup();
    let bands = keys
        .into_iter()
        .map(|key| {
            let ra = a.get(&key).unwrap_or(&empty);
            let rb = b.get(&key).unwrap_or(&empty);
            BandDifference {
                key,
                height: banding.height(key),
                a_only: ra.minus(rb),
                b_only: rb.minus(ra),
                common: ra.intersect(rb),
                a_area: ra.area(),
                b_area: rb.area(),
            }
        })
        .collect();
    Difference {
        banding: Some(banding),
        bands,
    }
}

/// The footprint difference of two NavMeshes (A − B and B − A per band).
pub fn difference(a: &NavMesh, b: &NavMesh, banding: Banding) -> Difference {
    difference_of(&footprints(a, banding), &footprints(b, banding), banding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use navscope_core::navmesh::Stance;

    fn square_mesh(x: f64, s: f64, y: f64) -> NavMesh {
        let mut m = NavMesh::new("test", "test");
        let p = |px: f64, pz: f64| DVec3::new(px, y, pz);
        m.add_node(
            p(x + s / 2.0, -s / 2.0),
            Some(vec![p(x, 0.0), p(x + s, 0.0), p(x + s, -s), p(x, -s)]),
            Stance::Stand,
            0,
        );
        m
    }

    #[test]
    fn shifted_squares_differ_by_the_strips_and_heights_band_apart() {
        let d = difference(
            &square_mesh(0.0, 2.0, 0.0),
            &square_mesh(1.0, 2.0, 0.1),
            Banding::default(),
        );
        assert_eq!(d.bands.len(), 1);
        assert!((d.a_only_area() - 2.0).abs() < 1e-9);
        assert!((d.b_only_area() - 2.0).abs() < 1e-9);
        assert!((d.common_area() - 2.0).abs() < 1e-9);
        let kinds: Vec<String> = d
            .primitives()
            .into_iter()
            .map(|p| p.kind.into_owned())
            .collect();
        assert_eq!(kinds, [KIND_COMMON, KIND_A_ONLY, KIND_B_ONLY]);
        // The same square 3 m up is another band.
        let d = difference(
            &square_mesh(0.0, 2.0, 0.0),
            &square_mesh(0.0, 2.0, 3.0),
            Banding::default(),
        );
        assert_eq!(d.bands.iter().map(|b| b.key).collect::<Vec<_>>(), [0, 2]);
        assert!((d.a_only_area() - 4.0).abs() < 1e-9);
        assert!((d.b_only_area() - 4.0).abs() < 1e-9);
        assert_eq!(d.bands[1].height, 4.0);
        // By layer both are layer 0.
        let d = difference(
            &square_mesh(0.0, 2.0, 0.0),
            &square_mesh(0.0, 2.0, 3.0),
            Banding::Layer,
        );
        assert_eq!(d.a_only_area() + d.b_only_area(), 0.0);
    }
}
