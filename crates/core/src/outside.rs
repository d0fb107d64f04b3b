//! The outside of a sealed map, as Quake's compiler finds it.
//!
//! A Quake map is a closed box of world brushes: `qbsp` floods the empty
//! space from beyond the map's bounds, and every part of it the flood
//! reaches is *outside*: made solid, its faces dropped, never drawn and
//! never reached by the player. A map whose player start the flood
//! reaches *leaks*, and `qbsp` reports it rather than build it. So the
//! roof of a sealed map, the outer faces of its walls and any ledge out
//! there are not places a player can be, and no NavMesh belongs on them.
//!
//! [`Seal::of`] does the same flood on a grid of cubic cells:
//! * a cell is **solid** when it overlaps the inside of a brush that
//!   always blocks ([`Contents::blocks`]: solid, sky, clip; of the world or
//!   of an entity such as `func_wall`). The overlap test is conservative
//!   (a box counts as overlapping unless one of the brush's planes has the
//!   whole box in front of it), so thin walls and seams between brushes
//!   always block the flood; narrow gaps may close, which only ever keeps
//!   a place inside. Doors, lifts, liquids and triggers do not seal, as in
//!   `qbsp`;
//! * the flood starts from a ring of empty cells around the map's box and
//!   spreads through shared cell faces;
//! * the map is sealed when no player start ([`PLAYER_START_CLASSES`]) is
//!   reached; it leaks when one is, and then nothing is outside (the
//!   pipelines keep the whole map, and say that it leaks). A level without
//!   a player start is not a game map: nothing is outside either.
//!
//! A point is asked about with a direction ([`Outside::at`]): the cell
//! that holds it is usually solid (a point on a floor is in a cell that
//! overlaps the floor), so the answer is that of the first empty cell
//! along the direction within a reach (up from a floor, out of a face);
//! when every cell there is solid the point is inside.
//!
//! The cells are [`CELL_UNITS`] map units (half of Quake's player width),
//! grown up to [`MAX_CELL_UNITS`] so that a map has at most [`MAX_CELLS`]
//! of them (every map within Quake's ±4096-unit limits fits). A level
//! that would need coarser cells is [`Seal::TooLarge`]: coarse cells
//! would swallow whole rooms, so nothing is called outside.

use std::collections::VecDeque;

use glam::DVec3;

use crate::brush::{Brush, BrushLevel};
use crate::geom::Aabb;

/// Classes of the player's start points (single player, second episode
/// start, cooperative and deathmatch).
pub const PLAYER_START_CLASSES: [&str; 4] = [
    "info_player_start",
    "info_player_start2",
    "info_player_coop",
    "info_player_deathmatch",
];

/// Why a place outside a sealed map has no NavMesh, for explanations.
pub const WHY: &str = "outside the sealed map: the space above it is reached from beyond the \
     map's bounds, as qbsp's outside fill finds it; no player is ever here";

/// Smallest cell edge, in map units.
pub const CELL_UNITS: f64 = 16.0;

/// Largest cell edge, in map units.
pub const MAX_CELL_UNITS: f64 = 32.0;

/// Most cells a flood may use (one byte each, and a queue of at most as
/// many four-byte indices).
pub const MAX_CELLS: usize = 1 << 25;

/// Whether a brush level is sealed, and its outside when it is.
#[derive(Clone, Debug)]
pub enum Seal {
    /// The level has no player start: not a game map; nothing is outside.
    NoStart,
    /// The flood from outside reaches a player start (its index in the
    /// level's entities and its origin): the map leaks; nothing is outside.
    Leaks {
        /// The start's entity index.
        entity: usize,
        /// The start's origin.
        origin: DVec3,
        /// The way from beyond the map to the start, through empty cells
        /// (cell centres): where the map is open.
        way: Vec<DVec3>,
    },
    /// The level is too large for cells of at most [`MAX_CELL_UNITS`];
    /// nothing is outside.
    TooLarge {
        /// The cell edge it would need, metres.
        cell: f64,
    },
    /// The map is sealed.
    Sealed(Outside),
}

/// The flooded grid of a sealed map.
#[derive(Clone, Debug)]
pub struct Outside {
    /// Corner of cell (0, 0, 0).
    origin: DVec3,
    /// Cell edge, metres.
    cell: f64,
    /// Cells along x, y, z.
    dims: [usize; 3],
    /// Per cell: [`EMPTY`], [`SOLID`], or reached by the flood: [`OUT`]
    /// for a cell of the ring, `OUT + 1 + d` for one reached from its
    /// neighbour in direction `d` (see [`STEPS`]), so that the way in can
    /// be traced back.
    state: Vec<u8>,
}

const EMPTY: u8 = 0;
const SOLID: u8 = 1;
const OUT: u8 = 2;

/// The six neighbour directions, as (axis, towards +).
const STEPS: [(usize, bool); 6] = [
    (0, false),
    (0, true),
    (1, false),
    (1, true),
    (2, false),
    (2, true),
];

/// A box is in front of a plane when its nearest corner is this far (in
/// cell edges) or further: touching a brush is not overlapping it.
const TOUCH: f64 = 1e-6;

impl Seal {
    /// Floods `level` from outside (see the module docs).
    pub fn of(level: &BrushLevel) -> Seal {
        let starts: Vec<(usize, DVec3)> = level
            .entities
            .iter()
            .enumerate()
            .filter(|(_, e)| PLAYER_START_CLASSES.contains(&e.classname.as_str()))
            .filter_map(|(i, e)| Some((i, e.origin?)))
            .collect();
        if starts.is_empty() {
            return Seal::NoStart;
        }
        let blockers: Vec<(&Brush, Aabb)> = level
            .brushes
            .iter()
            .filter(|b| b.contents.blocks())
            .filter_map(|b| Some((b, brush_bounds(b)?)))
            .collect();
        let bounds = blockers
            .iter()
            .map(|(_, a)| *a)
            .chain(starts.iter().map(|(_, o)| Aabb::from_corners(*o, *o)))
            .fold(Aabb::EMPTY, Aabb::union);
        let cell = level.unit * CELL_UNITS;
        let Some(outside) =
            Outside::flood(bounds, cell, cell * MAX_CELL_UNITS / CELL_UNITS, &blockers)
        else {
            return Seal::TooLarge {
                cell: Outside::cell_for(bounds, cell),
            };
        };
        // A start is a point in the air: its own cell may overlap the floor
        // under it, so it is asked about upwards as any place is.
        let reach = outside.cell * 4.0;
        match starts
            .into_iter()
            .find(|(_, o)| outside.at(*o, DVec3::Y, reach))
        {
            Some((entity, origin)) => Seal::Leaks {
                entity,
                origin,
                way: outside.way_in(origin, DVec3::Y, reach),
            },
            None => Seal::Sealed(outside),
        }
    }

    /// The outside, when the map is sealed.
    pub fn outside(&self) -> Option<&Outside> {
        match self {
            Seal::Sealed(o) => Some(o),
            _ => None,
        }
    }

    /// One line saying what the flood found, for a stage's notes.
    pub fn describe(&self) -> String {
        match self {
            Seal::NoStart => "no player start: not a sealed game map, nothing is outside".into(),
            Seal::Leaks {
                entity,
                origin,
                way,
            } => {
                // Where the way in passes the map's box: the first cell in
                // from the ring, the hole's side of the leak.
                let hole = way.get(1).or(way.first()).copied().unwrap_or(*origin);
                format!(
                    "the map leaks: the space outside it reaches the player start (entity \
                     {entity} at {:.2}, {:.2}, {:.2}) in {} cells, coming in near {:.2}, {:.2}, \
                     {:.2}; nothing is dropped as outside",
                    origin.x,
                    origin.y,
                    origin.z,
                    way.len(),
                    hole.x,
                    hole.y,
                    hole.z
                )
            }
            Seal::TooLarge { cell } => format!(
                "too large to flood from outside (it would need cells of {cell:.2} m); \
                 nothing is dropped as outside"
            ),
            Seal::Sealed(o) => format!(
                "sealed: flooded from outside on {} cells of {:.2} m",
                o.state.len(),
                o.cell
            ),
        }
    }
}

impl Outside {
    /// Cells along each axis for cells of edge `cell`, with one ring of
    /// cells around the box so that the flood goes round it.
    fn dims(bounds: Aabb, cell: f64) -> [usize; 3] {
        let size = (bounds.max - bounds.min).max(DVec3::ZERO);
        [size.x, size.y, size.z].map(|s| ((s / cell).ceil().min(1e9) as usize).max(1) + 2)
    }

    /// The smallest cell, from `min_cell` up by quarters, that keeps the
    /// grid within [`MAX_CELLS`].
    fn cell_for(bounds: Aabb, min_cell: f64) -> f64 {
        let mut cell = min_cell.max(1e-9);
        while Self::dims(bounds, cell)
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .is_none_or(|n| n > MAX_CELLS)
        {
            cell *= 1.25;
        }
        cell
    }

    fn flood(
        bounds: Aabb,
        min_cell: f64,
        max_cell: f64,
        blockers: &[(&Brush, Aabb)],
    ) -> Option<Outside> {
        let cell = Self::cell_for(bounds, min_cell);
        if cell > max_cell {
            return None;
        }
        let dims = Self::dims(bounds, cell);
        let origin = bounds.min - DVec3::splat(cell);
        let mut o = Outside {
            origin,
            cell,
            dims,
            state: vec![EMPTY; dims[0] * dims[1] * dims[2]],
        };
        for (b, a) in blockers {
            o.mark_solid(b, *a);
        }
        o.flood_from_border();
        Some(o)
    }

    fn index(&self, c: [usize; 3]) -> usize {
        (c[2] * self.dims[1] + c[1]) * self.dims[0] + c[0]
    }

    /// The cell holding `p`, when it is on the grid.
    fn cell_of(&self, p: DVec3) -> Option<[usize; 3]> {
        let q = (p - self.origin) / self.cell;
        let c = [q.x, q.y, q.z];
        let mut out = [0; 3];
        for k in 0..3 {
            if c[k].is_nan() || c[k] < 0.0 || c[k] >= self.dims[k] as f64 {
                return None;
            }
            out[k] = c[k] as usize;
        }
        Some(out)
    }

    fn mark_solid(&mut self, brush: &Brush, bounds: Aabb) {
        let lo = ((bounds.min - self.origin) / self.cell).floor();
        let hi = ((bounds.max - self.origin) / self.cell).ceil();
        let range = |k: usize, l: f64, h: f64| {
            (l.max(0.0) as usize)..(h.max(0.0) as usize).min(self.dims[k])
        };
        let (rx, ry, rz) = (
            range(0, lo.x, hi.x),
            range(1, lo.y, hi.y),
            range(2, lo.z, hi.z),
        );
        let half = DVec3::splat(self.cell * 0.5);
        for z in rz {
            for y in ry.clone() {
                for x in rx.clone() {
                    let centre =
                        self.origin + (DVec3::new(x as f64, y as f64, z as f64) + 0.5) * self.cell;
                    if overlaps(brush, centre, half, self.cell * TOUCH) {
                        let i = self.index([x, y, z]);
                        self.state[i] = SOLID;
                    }
                }
            }
        }
    }

    fn flood_from_border(&mut self) {
        let [nx, ny, nz] = self.dims;
        let mut queue: VecDeque<u32> = VecDeque::new();
        for z in 0..nz {
            for y in 0..ny {
                for x in 0..nx {
                    let border =
                        x == 0 || y == 0 || z == 0 || x + 1 == nx || y + 1 == ny || z + 1 == nz;
                    let i = self.index([x, y, z]);
                    if border && self.state[i] == EMPTY {
                        self.state[i] = OUT;
                        queue.push_back(i as u32);
                    }
                }
            }
        }
        while let Some(i) = queue.pop_front() {
            let c = self.coords(i as usize);
            for (d, step) in STEPS.iter().enumerate() {
                let Some(n) = self.neighbour(c, *step) else {
                    continue;
                };
                let j = self.index(n);
                if self.state[j] == EMPTY {
                    // Reached from `c`, which lies in the opposite direction.
                    self.state[j] = OUT + 1 + (d ^ 1) as u8;
                    queue.push_back(j as u32);
                }
            }
        }
    }

    fn coords(&self, i: usize) -> [usize; 3] {
        let [nx, ny, _] = self.dims;
        [i % nx, (i / nx) % ny, i / (nx * ny)]
    }

    fn neighbour(&self, c: [usize; 3], (k, up): (usize, bool)) -> Option<[usize; 3]> {
        let mut n = c;
        if up {
            (n[k] + 1 < self.dims[k]).then(|| n[k] += 1)?;
        } else {
            n[k] = n[k].checked_sub(1)?;
        }
        Some(n)
    }

    fn centre(&self, c: [usize; 3]) -> DVec3 {
        self.origin + (DVec3::new(c[0] as f64, c[1] as f64, c[2] as f64) + 0.5) * self.cell
    }

    /// The first empty cell from `p` along `dir` within `reach`, or `None`
    /// when every cell there is solid; off the grid is `Err(())`.
    fn first_empty(&self, p: DVec3, dir: DVec3, reach: f64) -> Result<Option<[usize; 3]>, ()> {
        let dir = dir.normalize_or_zero();
        let step = self.cell * 0.5;
        let steps = (reach.max(0.0) / step).ceil() as usize;
        for k in 0..=steps {
            let c = self.cell_of(p + dir * (step * k as f64)).ok_or(())?;
            if self.state[self.index(c)] != SOLID {
                return Ok(Some(c));
            }
        }
        Ok(None)
    }

    /// The way the flood came to the empty cell from `p` along `dir`:
    /// cell centres from beyond the map to it (qbsp's pointfile, which
    /// shows where a map leaks); empty when that cell is not outside.
    pub fn way_in(&self, p: DVec3, dir: DVec3, reach: f64) -> Vec<DVec3> {
        let Ok(Some(mut c)) = self.first_empty(p, dir, reach) else {
            return Vec::new();
        };
        let mut way = Vec::new();
        loop {
            let s = self.state[self.index(c)];
            if s < OUT {
                return Vec::new();
            }
            way.push(self.centre(c));
            if s == OUT {
                break;
            }
            match self.neighbour(c, STEPS[(s - OUT - 1) as usize]) {
                Some(n) => c = n,
                None => break,
            }
        }
        way.reverse();
        way
    }

    /// The cell edge, metres.
    pub fn cell(&self) -> f64 {
        self.cell
    }

    /// True when a place to stand at `feet` is outside the map: the space
    /// over it, up to two cells, is (see [`Outside::at`]).
    pub fn above(&self, feet: DVec3) -> bool {
        self.at(feet, DVec3::Y, 2.0 * self.cell)
    }

    /// True when `p` is outside the map: the first cell from `p` along
    /// `dir` (within `reach` metres) that no brush overlaps was reached by
    /// the flood. False when every cell there is solid, and off the grid
    /// nothing is solid, so a point beyond the map's box is outside.
    pub fn at(&self, p: DVec3, dir: DVec3, reach: f64) -> bool {
        match self.first_empty(p, dir, reach) {
            Err(()) => true,
            Ok(None) => false,
            Ok(Some(c)) => self.state[self.index(c)] >= OUT,
        }
    }
}

/// The box of a brush's corners; `None` for a brush with no volume.
fn brush_bounds(b: &Brush) -> Option<Aabb> {
    let poly = crate::geom::polyhedron::Polyhedron::from_planes(&b.planes).ok()?;
    (!poly.bounds.is_empty()).then_some(poly.bounds)
}

/// True unless a plane of `brush` has the whole box (`centre` ± `half`)
/// at least `touch` in front of it.
fn overlaps(brush: &Brush, centre: DVec3, half: DVec3, touch: f64) -> bool {
    brush.planes.iter().all(|p| {
        let n = p.normal.normalize_or_zero();
        let nearest = n.dot(centre) - n.abs().dot(half);
        nearest < p.d / p.normal.length().max(1e-300) + touch
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brush::{Contents, Entity};

    fn cube(min: DVec3, max: DVec3, contents: Contents) -> Brush {
        Brush::cuboid(min, max, contents, None)
    }

    fn start(at: DVec3) -> Entity {
        Entity {
            classname: "info_player_start".into(),
            origin: Some(at),
            properties: Vec::new(),
        }
    }

    /// A hollow box room: floor at y 0, inner size 10 × 4 × 10, walls
    /// `t` thick, with `gap` left open in the +x wall when true.
    fn room(t: f64, gap: bool) -> Vec<Brush> {
        let s = Contents::Solid;
        let mut b = vec![
            cube(
                DVec3::new(-5.0 - t, -t, -5.0 - t),
                DVec3::new(5.0 + t, 0.0, 5.0 + t),
                s,
            ),
            cube(
                DVec3::new(-5.0 - t, 4.0, -5.0 - t),
                DVec3::new(5.0 + t, 4.0 + t, 5.0 + t),
                s,
            ),
            cube(
                DVec3::new(-5.0 - t, 0.0, -5.0 - t),
                DVec3::new(-5.0, 4.0, 5.0 + t),
                s,
            ),
            cube(
                DVec3::new(-5.0, 0.0, -5.0 - t),
                DVec3::new(5.0, 4.0, -5.0),
                s,
            ),
            cube(DVec3::new(-5.0, 0.0, 5.0), DVec3::new(5.0, 4.0, 5.0 + t), s),
        ];
        if gap {
            b.push(cube(
                DVec3::new(5.0, 0.0, -5.0 - t),
                DVec3::new(5.0 + t, 4.0, -1.0),
                s,
            ));
            b.push(cube(
                DVec3::new(5.0, 0.0, 1.0),
                DVec3::new(5.0 + t, 4.0, 5.0 + t),
                s,
            ));
        } else {
            b.push(cube(
                DVec3::new(5.0, 0.0, -5.0 - t),
                DVec3::new(5.0 + t, 4.0, 5.0 + t),
                s,
            ));
        }
        b
    }

    fn level(brushes: Vec<Brush>, starts: &[DVec3]) -> BrushLevel {
        BrushLevel {
            brushes,
            entities: starts.iter().map(|p| start(*p)).collect(),
            unit: 1.0 / 32.0,
            ..Default::default()
        }
    }

    #[test]
    fn a_sealed_room_has_its_roof_outside_and_its_floor_inside() {
        for t in [0.05, 0.25, 1.0] {
            let seal = Seal::of(&level(room(t, false), &[DVec3::new(0.0, 1.0, 0.0)]));
            let o = seal
                .outside()
                .unwrap_or_else(|| panic!("t {t}: {}", seal.describe()));
            let reach = 2.0;
            for x in [-4.5, 0.0, 3.3, 4.9] {
                for z in [-4.9, 0.2, 4.7] {
                    assert!(
                        !o.at(DVec3::new(x, 0.01, z), DVec3::Y, reach),
                        "floor ({x}, {z}) t {t}"
                    );
                    assert!(
                        o.at(DVec3::new(x, 4.0 + t + 0.01, z), DVec3::Y, reach),
                        "roof ({x}, {z}) t {t}"
                    );
                }
            }
            // The outer face of a wall faces outside, the inner one inside.
            assert!(o.at(DVec3::new(5.0 + t, 2.0, 0.0), DVec3::X, reach));
            assert!(!o.at(DVec3::new(5.0, 2.0, 0.0), -DVec3::X, reach));
        }
    }

    #[test]
    fn a_room_with_a_hole_leaks_and_names_its_start_and_the_way_in() {
        let seal = Seal::of(&level(room(0.25, true), &[DVec3::new(0.0, 1.0, 0.0)]));
        let Seal::Leaks { entity: 0, way, .. } = &seal else {
            panic!("{}", seal.describe());
        };
        // The way goes from beyond the box, in through the hole in the +x
        // wall (x 5 to 5.25, z -1 to 1), to the start, one cell at a time.
        assert!(way.len() > 2);
        assert!(
            way[0].x < -5.25
                || way[0].x > 5.25
                || way[0].y > 4.25
                || way[0].y < -0.25
                || way[0].z.abs() > 5.25
        );
        assert!(way.last().unwrap().distance(DVec3::new(0.0, 1.0, 0.0)) < 2.0);
        let cell = 0.5;
        assert!(
            way.windows(2)
                .all(|w| (w[0].distance(w[1]) - cell).abs() < 1e-9)
        );
        let through = way
            .iter()
            .find(|p| (p.x - 5.125).abs() <= 0.5)
            .expect("through the wall");
        assert!(
            through.z.abs() < 1.0 && through.y > 0.0 && through.y < 4.0,
            "{through}"
        );
        assert!(seal.outside().is_none());
        assert!(seal.describe().contains("leaks"));
    }

    #[test]
    fn doors_and_water_do_not_seal() {
        let mut brushes = room(0.25, true);
        brushes.push(cube(
            DVec3::new(5.0, 0.0, -1.0),
            DVec3::new(5.25, 4.0, 1.0),
            Contents::Door,
        ));
        let seal = Seal::of(&level(brushes.clone(), &[DVec3::new(0.0, 1.0, 0.0)]));
        assert!(matches!(seal, Seal::Leaks { .. }));
        brushes.push(cube(
            DVec3::new(5.0, 0.0, -1.0),
            DVec3::new(5.25, 4.0, 1.0),
            Contents::Clip,
        ));
        assert!(matches!(
            Seal::of(&level(brushes, &[DVec3::new(0.0, 1.0, 0.0)])),
            Seal::Sealed(_)
        ));
    }

    #[test]
    fn no_start_means_no_outside() {
        let seal = Seal::of(&level(room(0.25, false), &[]));
        assert!(matches!(seal, Seal::NoStart));
        assert!(seal.outside().is_none());
    }

    #[test]
    fn one_start_outside_a_sealed_box_is_a_leak() {
        let seal = Seal::of(&level(
            room(0.25, false),
            &[DVec3::new(0.0, 1.0, 0.0), DVec3::new(20.0, 1.0, 0.0)],
        ));
        assert!(
            matches!(seal, Seal::Leaks { entity: 1, .. }),
            "{}",
            seal.describe()
        );
    }

    /// The room and a far brush `far` metres away on every axis.
    fn room_and_far_brush(far: f64) -> Seal {
        Seal::of(&level(
            room(0.25, false)
                .into_iter()
                .chain([cube(
                    DVec3::splat(far),
                    DVec3::splat(far + 1.0),
                    Contents::Solid,
                )])
                .collect(),
            &[DVec3::new(0.0, 1.0, 0.0)],
        ))
    }

    #[test]
    fn a_large_map_grows_its_cells_within_the_bound() {
        let seal = room_and_far_brush(200.0);
        let o = seal
            .outside()
            .unwrap_or_else(|| panic!("{}", seal.describe()));
        assert!(o.state.len() <= MAX_CELLS);
        assert!(o.cell() > 0.5 && o.cell() <= 1.0, "cell {}", o.cell());
        assert!(!o.at(DVec3::new(0.0, 0.01, 0.0), DVec3::Y, 2.0 * o.cell()));
        assert!(o.at(DVec3::new(0.0, 4.26, 0.0), DVec3::Y, 2.0 * o.cell()));
    }

    #[test]
    fn a_map_too_large_for_the_cells_calls_nothing_outside() {
        let seal = room_and_far_brush(5000.0);
        assert!(
            matches!(seal, Seal::TooLarge { cell } if cell > 1.0),
            "{}",
            seal.describe()
        );
        assert!(seal.outside().is_none());
        assert!(seal.describe().contains("too large"));
    }

    #[test]
    fn degenerate_levels_do_not_panic() {
        // A start alone: nothing blocks, so the start is outside.
        assert!(matches!(
            Seal::of(&level(Vec::new(), &[DVec3::ZERO])),
            Seal::Leaks { .. }
        ));
        // A brush with no volume is ignored.
        let flat = Brush {
            planes: vec![
                crate::geom::Plane {
                    normal: DVec3::Y,
                    d: 0.0
                };
                4
            ],
            ..Default::default()
        };
        assert!(matches!(
            Seal::of(&level(vec![flat], &[DVec3::ZERO])),
            Seal::Leaks { .. }
        ));
    }

    proptest::proptest! {
        /// Any point strictly inside a sealed room's air is inside; any point above the roof or beyond a wall is outside.
        #[test]
        fn inside_and_outside_of_a_sealed_room(
            t in 0.03f64..1.5,
            x in -4.9f64..4.9, y in 0.05f64..3.9, z in -4.9f64..4.9,
        ) {
            let seal = Seal::of(&level(room(t, false), &[DVec3::new(0.0, 2.0, 0.0)]));
            let o = seal.outside().expect("sealed");
            // Asked towards the room's middle, as a surface is asked out of
            // its face.
            let p = DVec3::new(x, y, z);
            let into_room = (DVec3::new(0.0, 2.0, 0.0) - p).normalize_or(DVec3::Y);
            proptest::prop_assert!(!o.at(p, into_room, 10.0));
            proptest::prop_assert!(o.at(DVec3::new(x, 4.0 + t + 0.02, z), DVec3::Y, 2.0));
            proptest::prop_assert!(o.at(DVec3::new(5.0 + t + 0.02, y, z), DVec3::X, 2.0));
        }
    }
}
