//! Reading screenshots: colours a person would look for, where they are,
//! and how much of a picture changed.

use image::{Rgba, RgbaImage};

use super::report::{Rect, dist};

pub fn near(p: Rgba<u8>, c: [u8; 3], tol: u8) -> bool {
    (0..3).all(|i| p.0[i].abs_diff(c[i]) <= tol)
}

/// Pixels of colour `c` (within `tol` per channel) within `radius` of `at`
/// (physical pixels).
pub fn count_near(img: &RgbaImage, at: (f64, f64), radius: f64, c: [u8; 3], tol: u8) -> usize {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let r = radius.ceil() as i64;
    let (cx, cy) = (at.0.round() as i64, at.1.round() as i64);
    let mut n = 0;
    for y in (cy - r).max(0)..=(cy + r).min(h - 1) {
        for x in (cx - r).max(0)..=(cx + r).min(w - 1) {
            let d2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) as f64;
            if d2 <= radius * radius && near(*img.get_pixel(x as u32, y as u32), c, tol) {
                n += 1;
            }
        }
    }
    n
}

/// Pixels of colour `c` inside `r` (physical pixels).
pub fn count_in(img: &RgbaImage, r: Rect, c: [u8; 3], tol: u8) -> usize {
    let x0 = r.x0.max(0.0) as u32;
    let y0 = r.y0.max(0.0) as u32;
    let x1 = (r.x1.min(img.width() as f64 - 1.0)).max(0.0) as u32;
    let y1 = (r.y1.min(img.height() as f64 - 1.0)).max(0.0) as u32;
    let mut n = 0;
    for y in y0..=y1 {
        for x in x0..=x1 {
            if near(*img.get_pixel(x, y), c, tol) {
                n += 1;
            }
        }
    }
    n
}

/// Integer pixel bounds of `r` clipped to a `w` x `h` picture:
/// `x0..x1`, `y0..y1` (exclusive ends).
fn clip(r: Rect, w: u32, h: u32) -> (usize, usize, usize, usize) {
    let c = |v: f64, max: u32| v.max(0.0).min(max as f64) as usize;
    (c(r.x0, w), c(r.y0, h), c(r.x1 + 1.0, w), c(r.y1 + 1.0, h))
}

/// Pixels inside `r` (physical) that differ by more than `tol` in some
/// channel between two screenshots.
pub fn count_differing(a: &RgbaImage, b: &RgbaImage, r: Rect, tol: u8) -> usize {
    if a.dimensions() != b.dimensions() {
        return (r.width() * r.height()).max(0.0) as usize;
    }
    let w = a.width() as usize;
    let (x0, y0, x1, y1) = clip(r, a.width(), a.height());
    let (ra, rb) = (a.as_raw(), b.as_raw());
    let mut n = 0;
    for y in y0..y1 {
        let row = y * w * 4;
        let pa = &ra[row + x0 * 4..row + x1 * 4];
        let pb = &rb[row + x0 * 4..row + x1 * 4];
        for (p, q) in pa.chunks_exact(4).zip(pb.chunks_exact(4)) {
            if p[0].abs_diff(q[0]) > tol || p[1].abs_diff(q[1]) > tol || p[2].abs_diff(q[2]) > tol {
                n += 1;
            }
        }
    }
    n
}

/// The most common colours (quantised to 8 levels per channel step) inside
/// `r`, for failure messages.
pub fn colour_histogram(img: &RgbaImage, r: Rect, top: usize) -> String {
    let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
    let x0 = r.x0.max(0.0) as u32;
    let y0 = r.y0.max(0.0) as u32;
    let x1 = (r.x1 as u32).min(img.width().saturating_sub(1));
    let y1 = (r.y1 as u32).min(img.height().saturating_sub(1));
    let mut total = 0usize;
    for y in (y0..=y1).step_by(5) {
        for x in (x0..=x1).step_by(5) {
            let p = img.get_pixel(x, y).0;
            *counts.entry([p[0] & !7, p[1] & !7, p[2] & !7]).or_default() += 1;
            total += 1;
        }
    }
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    v.iter()
        .take(top)
        .map(|(c, n)| {
            format!(
                "({},{},{}) {:.1}%",
                c[0],
                c[1],
                c[2],
                100.0 * *n as f64 / total.max(1) as f64
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Points of the region `r` (physical) whose whole neighbourhood of radius
/// `margin` has colour `c` (within `tol`): places well inside an area of that
/// colour, away from its edges and from anything drawn over it. Returns up to
/// `n` of them spread out by farthest-point sampling, the first one closest
/// to the region's centre.
pub fn spread_points_of_colour(
    img: &RgbaImage,
    r: Rect,
    c: [u8; 3],
    tol: u8,
    margin: u32,
    n: usize,
) -> Vec<(f64, f64)> {
    let iw = img.width() as usize;
    let (x0, y0, x1, y1) = clip(r, img.width(), img.height());
    let (w, h) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
    let raw = img.as_raw();
    // Summed-area table of the colour mask over the region.
    let mut sat = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0u32;
        let src = &raw[((y0 + y) * iw + x0) * 4..((y0 + y) * iw + x1) * 4];
        for (x, p) in src.chunks_exact(4).enumerate() {
            row += (p[0].abs_diff(c[0]) <= tol
                && p[1].abs_diff(c[1]) <= tol
                && p[2].abs_diff(c[2]) <= tol) as u32;
            sat[(y + 1) * (w + 1) + x + 1] = sat[y * (w + 1) + x + 1] + row;
        }
    }
    // Inclusive box sum.
    let sum = |ax: usize, ay: usize, bx: usize, by: usize| -> u32 {
        sat[(by + 1) * (w + 1) + bx + 1] + sat[ay * (w + 1) + ax]
            - sat[ay * (w + 1) + bx + 1]
            - sat[(by + 1) * (w + 1) + ax]
    };
    let m = margin as usize;
    let full = ((2 * m + 1) * (2 * m + 1)) as u32;
    let mut candidates = Vec::new();
    if w > 2 * m && h > 2 * m {
        for y in (m..h - m).step_by(3) {
            for x in (m..w - m).step_by(3) {
                if sum(x - m, y - m, x + m, y + m) == full {
                    candidates.push(((x0 + x) as f64, (y0 + y) as f64));
                }
            }
        }
    }
    let mut chosen: Vec<(f64, f64)> = Vec::new();
    let centre = r.center();
    if let Some(first) = candidates
        .iter()
        .copied()
        .min_by(|a, b| dist(*a, centre).total_cmp(&dist(*b, centre)))
    {
        chosen.push(first);
    }
    while chosen.len() < n {
        let next = candidates
            .iter()
            .copied()
            .map(|p| {
                (
                    p,
                    chosen.iter().map(|q| dist(p, *q)).fold(f64::MAX, f64::min),
                )
            })
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match next {
            Some((p, d)) if d > 2.0 * margin as f64 => chosen.push(p),
            _ => break,
        }
    }
    chosen
}

/// The colour the floor is drawn in inside `r`: the most common colour
/// within `search_tol` of `expected` (shading and the palette may shift it a
/// little, e.g. in the perspective view), if it covers at least 1 % of `r`.
pub fn dominant_colour_near(
    img: &RgbaImage,
    r: Rect,
    expected: [u8; 3],
    search_tol: u8,
) -> Option<[u8; 3]> {
    let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
    let x0 = r.x0.max(0.0) as u32;
    let y0 = r.y0.max(0.0) as u32;
    let x1 = (r.x1 as u32).min(img.width().saturating_sub(1));
    let y1 = (r.y1 as u32).min(img.height().saturating_sub(1));
    let mut total = 0usize;
    for y in (y0..=y1).step_by(3) {
        for x in (x0..=x1).step_by(3) {
            total += 1;
            let p = *img.get_pixel(x, y);
            if near(p, expected, search_tol) {
                *counts.entry([p.0[0], p.0[1], p.0[2]]).or_default() += 1;
            }
        }
    }
    let (c, n) = counts.into_iter().max_by_key(|(_, n)| *n)?;
    (n * 100 >= total).then_some(c)
}
