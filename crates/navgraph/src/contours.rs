//! Stage 5a, contours with hierarchy: the boundaries of the free pixels
//! as rings on the pixel grid, organised like OpenCV's `RETR_CCOMP`: every
//! free component has one outer boundary and any number of holes.
//!
//! Tracing follows *cracks* (the pixel edges between a free and a blocked
//! pixel) rather than pixel centres as OpenCV's Suzuki-Abe border following
//! does: a crack ring encloses exactly the free pixels. Written by hand:
//! `imageproc` finds borders through pixel centres and does not report
//! which component a hole belongs to.
//!
//! At a *saddle* (two free pixels touching only at a corner, the other two
//! blocked) two rings pass through the same corner. Free space is
//! 4-connected, so each ring turns left there, round its own pixel, and the
//! corner is replaced by a *chamfer*: the two points a quarter pixel back
//! along the incoming crack and a quarter pixel on along the outgoing one.
//! Every ring is then simple and no two rings touch, which the later stages
//! need; each chamfer removes 1/32 pixel of free area.
//!
//! Ring points are kept in quarter-pixel units: grid point `(i, j)` (column
//! `i`, row `j` from the top, both times 4) is the plan point
//! `(i * m / 4, -j * m / 4)` for `m` metres per pixel: the image's top-left
//! corner at the origin, rows along +Z as [`RasterPlan::pixel_centre`]
//! places them.
//!
//! [`RasterPlan::pixel_centre`]: navscope_core::level::RasterPlan::pixel_centre

use glam::DVec2;
use serde::Serialize;

use crate::binary::BinaryImage;

/// One contour ring.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contour {
    /// Points `(i, j)` in quarter pixels where the ring turns (corners and
    /// chamfer ends), free space on the left in plan coordinates (outer
    /// boundaries counter-clockwise, holes clockwise).
    pub corners: Vec<[i32; 2]>,
    /// True for a hole (an obstacle inside a free component).
    pub hole: bool,
    /// For a hole, the index of its component's outer contour.
    pub parent: Option<usize>,
    /// The free component (4-connected) the ring bounds.
    pub component: u32,
}

/// The contours of a binary image.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Contours {
    /// Every ring: each component's outer boundary before its holes,
    /// components in scan order.
    pub rings: Vec<Contour>,
    /// Number of free components.
    pub components: u32,
    /// Free pixels.
    pub free_pixels: u64,
    /// Saddle corners replaced by chamfers (two per saddle).
    pub chamfers: u64,
}

/// Plan point of quarter-pixel point `c` at `m` metres per pixel.
pub fn corner_to_plan(c: [i32; 2], m: f64) -> DVec2 {
    DVec2::new(c[0] as f64 * m * 0.25, -(c[1] as f64) * m * 0.25)
}

/// Twice the signed plan area of a ring, in quarter-pixel units squared
/// (16 per pixel).
pub fn doubled_area(corners: &[[i32; 2]]) -> i64 {
    let n = corners.len();
    (0..n)
        .map(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % n]);
            // Plan y is -j.
            a[0] as i64 * -(b[1] as i64) - b[0] as i64 * -(a[1] as i64)
        })
        .sum()
}

const DIRS: [[i32; 2]; 4] = [[1, 0], [0, 1], [-1, 0], [0, -1]];

/// Traces the contours of the free pixels of `img`.
pub fn trace(img: &BinaryImage) -> Contours {
    let (w, h) = (img.width as i64, img.height as i64);
    let cw = (w + 1) as usize;
    let free = |x: i64, y: i64| !img.is_blocked(x, y);
    // Outgoing cracks at each corner: a bit per direction.
    let mut out = vec![0u8; cw * (h as usize + 1)];
    let mut set = |c: [i64; 2], d: usize| out[c[1] as usize * cw + c[0] as usize] |= 1 << d;
    let mut free_pixels = 0u64;
    for y in 0..h {
        for x in 0..w {
            if !free(x, y) {
                continue;
            }
            free_pixels += 1;
            // Directions in image (i, j): 0 = +i, 1 = +j, 2 = -i, 3 = -j;
            // a left turn in plan is d -> (d + 3) % 4.
            if !free(x, y - 1) {
                set([x + 1, y], 2);
            }
            if !free(x, y + 1) {
                set([x, y + 1], 0);
            }
            if !free(x - 1, y) {
                set([x, y], 1);
            }
            if !free(x + 1, y) {
                set([x + 1, y + 1], 3);
            }
        }
    }
    let labels = label_components(img);
    let mut rings: Vec<Contour> = Vec::new();
    let mut chamfers = 0u64;
    for j in 0..=h {
        for i in 0..=w {
            let start = j as usize * cw + i as usize;
            if out[start] == 0 {
                continue;
            }
            let first_dir = out[start].trailing_zeros() as usize;
            // The free pixel left of the first crack names the component.
            let component = left_pixel(i, j, first_dir, &labels, w);
            let mut corners: Vec<[i32; 2]> = Vec::new();
            let start_saddle = is_saddle(img, i, j);
            let (mut ci, mut cj) = (i, j);
            let mut prev: Option<usize> = None;
            loop {
                let k = cj as usize * cw + ci as usize;
                let saddle = is_saddle(img, ci, cj);
                let d = match prev {
                    None => first_dir,
                    Some(p) if saddle => (p + 3) % 4,
                    Some(_) => out[k].trailing_zeros() as usize,
                };
                if d >= 4 || out[k] & (1 << d) == 0 {
                    break;
                }
                out[k] &= !(1 << d);
                let c = [4 * ci as i32, 4 * cj as i32];
                match prev {
                    Some(p) if saddle => {
                        corners.push([c[0] - DIRS[p][0], c[1] - DIRS[p][1]]);
                        corners.push([c[0] + DIRS[d][0], c[1] + DIRS[d][1]]);
                        chamfers += 1;
                    }
                    None if saddle => {}
                    _ if prev != Some(d) => corners.push(c),
                    _ => {}
                }
                prev = Some(d);
                ci += DIRS[d][0] as i64;
                cj += DIRS[d][1] as i64;
            }
            let c0 = [4 * i as i32, 4 * j as i32];
            if let Some(p) = prev {
                if start_saddle {
                    corners.push([c0[0] - DIRS[p][0], c0[1] - DIRS[p][1]]);
                    corners.push([c0[0] + DIRS[first_dir][0], c0[1] + DIRS[first_dir][1]]);
                    chamfers += 1;
                } else if p == first_dir && corners.len() > 1 && corners[0] == c0 {
                    // The first corner was mid-run.
                    corners.remove(0);
                }
            }
            let hole = doubled_area(&corners) < 0;
            rings.push(Contour {
                corners,
                hole,
                parent: None,
                component,
            });
        }
    }
    let components = labels
        .iter()
        .copied()
        .filter(|&l| l != u32::MAX)
        .max()
        .map_or(0, |m| m + 1);
    // Outer boundaries first, by component, then holes.
    let mut order: Vec<usize> = (0..rings.len()).collect();
    order.sort_by_key(|&r| (rings[r].component, rings[r].hole, r));
    let mut sorted: Vec<Contour> = order.into_iter().map(|r| rings[r].clone()).collect();
    let mut outer_of = vec![usize::MAX; components as usize];
    for (k, r) in sorted.iter().enumerate() {
        if !r.hole {
            outer_of[r.component as usize] = k;
        }
    }
    for r in &mut sorted {
        if r.hole {
            r.parent = Some(outer_of[r.component as usize]).filter(|&p| p != usize::MAX);
        }
    }
    Contours {
        rings: sorted,
        components,
        free_pixels,
        chamfers,
    }
}

/// True when the 2 x 2 block around corner `(i, j)` is a saddle.
fn is_saddle(img: &BinaryImage, i: i64, j: i64) -> bool {
    let a = !img.is_blocked(i - 1, j - 1);
    let b = !img.is_blocked(i, j - 1);
    let c = !img.is_blocked(i - 1, j);
    let d = !img.is_blocked(i, j);
    (a && d && !b && !c) || (b && c && !a && !d)
}

/// Component label of the free pixel on the left of the crack leaving
/// corner `(i, j)` in direction `d`.
fn left_pixel(i: i64, j: i64, d: usize, labels: &[u32], w: i64) -> u32 {
    let (x, y) = match d {
        2 => (i - 1, j),     // top edge, pixel below
        0 => (i, j - 1),     // bottom edge, pixel above
        1 => (i, j),         // left edge, pixel to the right
        _ => (i - 1, j - 1), // right edge, pixel to the left
    };
    labels[(y * w + x) as usize]
}

/// 4-connected labels of the free pixels in scan order (`u32::MAX` for
/// blocked ones).
fn label_components(img: &BinaryImage) -> Vec<u32> {
    let (w, h) = (img.width as usize, img.height as usize);
    let mut labels = vec![u32::MAX; w * h];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for s in 0..w * h {
        if img.blocked[s] != 0 || labels[s] != u32::MAX {
            continue;
        }
        labels[s] = next;
        stack.push(s);
        while let Some(p) = stack.pop() {
            let (x, y) = (p % w, p / w);
            let mut push = |q: usize| {
                if img.blocked[q] == 0 && labels[q] == u32::MAX {
                    labels[q] = next;
                    stack.push(q);
                }
            };
            if x > 0 {
                push(p - 1);
            }
            if x + 1 < w {
                push(p + 1);
            }
            if y > 0 {
                push(p - w);
            }
            if y + 1 < h {
                push(p + w);
            }
        }
        next += 1;
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    pub(crate) fn image(rows: &[&str]) -> BinaryImage {
        let (w, h) = (rows[0].len(), rows.len());
        let blocked = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| (b == b'#') as u8))
            .collect();
        BinaryImage {
            width: w as u32,
            height: h as u32,
            metres_per_pixel: 1.0,
            blocked,
            ..Default::default()
        }
    }

    #[test]
    fn a_room_with_a_pillar_has_one_outer_and_one_hole() {
        let img = image(&["......", ".####.", ".#..#.", ".####.", "......"]);
        let c = trace(&img);
        // The free ring around, and the free 2-pixel pocket inside the pillar.
        assert_eq!(c.components, 2);
        let outers: Vec<_> = c.rings.iter().filter(|r| !r.hole).collect();
        let holes: Vec<_> = c.rings.iter().filter(|r| r.hole).collect();
        assert_eq!((outers.len(), holes.len()), (2, 1));
        assert_eq!(holes[0].parent, Some(0));
        assert_eq!(c.rings[0].corners, vec![[0, 0], [0, 20], [24, 20], [24, 0]]);
        assert_eq!(doubled_area(&c.rings[0].corners), 60 * 16);
        assert_eq!(doubled_area(&holes[0].corners), -2 * 12 * 16);
        assert_eq!(c.free_pixels, 20);
    }

    #[test]
    fn saddles_become_chamfers_and_rings_stay_apart() {
        // A checkerboard: five single free pixels, none joined.
        let img = image(&[".#.", "#.#", ".#."]);
        let c = trace(&img);
        assert_eq!(c.components, 5);
        assert_eq!(c.rings.len(), 5);
        assert_eq!(c.chamfers, 8);
        let centre = c.rings.iter().find(|r| r.component == 2).unwrap();
        assert_eq!(centre.corners.len(), 8);
    }

    #[test]
    fn an_all_blocked_or_empty_image_has_no_rings() {
        assert!(trace(&image(&["###", "###"])).rings.is_empty());
        assert!(trace(&BinaryImage::default()).rings.is_empty());
    }

    proptest! {
        #[test]
        fn ring_areas_equal_free_pixels(w in 1usize..12, h in 1usize..12, bits in proptest::collection::vec(0u8..3, 144)) {
            let blocked: Vec<u8> = (0..w * h).map(|i| (bits[i] == 0) as u8).collect();
            let img = BinaryImage { width: w as u32, height: h as u32, metres_per_pixel: 1.0, blocked, ..Default::default() };
            let c = trace(&img);
            let area: i64 = c.rings.iter().map(|r| doubled_area(&r.corners)).sum();
            // 16 quarter-pixel units per pixel, 1/2 unit per chamfer.
            prop_assert_eq!(area, 32 * c.free_pixels as i64 - c.chamfers as i64);
            // Outer rings are counter-clockwise, one per component.
            prop_assert_eq!(c.rings.iter().filter(|r| !r.hole).count() as u32, c.components);
            for r in &c.rings {
                prop_assert!(r.corners.len() >= 4);
                prop_assert_eq!(r.hole, r.parent.is_some());
            }
            // Rings share no corner.
            let mut all: Vec<[i32; 2]> = c.rings.iter().flat_map(|r| r.corners.clone()).collect();
            let n = all.len();
            all.sort_unstable();
            all.dedup();
            prop_assert_eq!(all.len(), n);
        }
    }
}
