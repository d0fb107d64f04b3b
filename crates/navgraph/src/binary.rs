//! Stage 4, binary image: the level's obstacle mask (already thresholded by
//! the level's colour rules when it was loaded) dilated by the agent radius
//! through an exact Euclidean distance transform.
//!
//! **Clearance is exact.** Pixels are squares, and a free pixel is blocked
//! when its *square* comes closer than the agent radius to an obstacle
//! pixel's square (or to the outside of the image), so every point of every
//! remaining free pixel is at least the radius from every obstacle: the
//! contours (stage 5a) run along free pixels' edges and the simplification
//! (stage 5b) only ever cuts into free space, so the whole triangulation
//! keeps the radius with no shortfall. The price is resolution: free space
//! shrinks by up to `radius + sqrt(2)` pixels beside an obstacle instead
//! of `radius`. (Comparing pixel centres instead, as before, fell short by
//! up to half a pixel diagonal, and a radius under one pixel dilated
//! nothing.) The distance between two squares whose centres are `(dx, dy)`
//! pixels apart is the length of `(max(|dx| - 1, 0), max(|dy| - 1, 0))`,
//! which is the centre distance to the obstacle set grown by its eight
//! neighbours; the transform runs on that grown set.
//!
//! The transform is Felzenszwalb and Huttenlocher's separable lower-envelope
//! algorithm ("Distance Transforms of Sampled Functions", 2012), written by
//! hand: `imageproc` without default features has only the city-block and
//! chessboard transforms. Distances are between pixel centres, in pixels;
//! the outside of the image counts as obstacle (a one-pixel obstacle frame),
//! so the border is dilated like any wall.
//!
//! Free space is 4-connected: two free pixels that touch only at a corner
//! are not joined (stage 5 keeps their contours apart there).

use navscope_core::level::RasterPlan;
use serde::Serialize;

/// The binary image after dilation.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BinaryImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Metres per pixel.
    pub metres_per_pixel: f64,
    /// 1 for a blocked pixel (obstacle or within the agent radius), row-major
    /// from the top row.
    #[serde(skip)]
    pub blocked: Vec<u8>,
    /// Obstacle pixels in the level.
    pub obstacle_pixels: u64,
    /// Pixels blocked by the dilation (free in the level).
    pub dilated_pixels: u64,
}

impl BinaryImage {
    /// True when pixel `(x, y)` is blocked; outside the image is blocked.
    pub fn is_blocked(&self, x: i64, y: i64) -> bool {
        x < 0
            || y < 0
            || x >= self.width as i64
            || y >= self.height as i64
            || self.blocked[y as usize * self.width as usize + x as usize] != 0
    }
}

/// Squared distance, in pixels, from every pixel centre to the nearest
/// obstacle pixel centre (`obstacle[i] != 0`), with a one-pixel obstacle
/// frame around the image. Row-major, `width * height` values.
pub fn squared_distance(width: usize, height: usize, obstacle: &[u8]) -> Vec<f64> {
    let (pw, ph) = (width + 2, height + 2);
    let inf = 1e20;
    let mut f = vec![inf; pw * ph];
    for y in 0..ph {
        for x in 0..pw {
            let inner = x >= 1 && y >= 1 && x <= width && y <= height;
            if !inner || obstacle[(y - 1) * width + (x - 1)] != 0 {
                f[y * pw + x] = 0.0;
            }
        }
    }
    let n = pw.max(ph);
    let mut buf = Envelope {
        v: vec![0; n],
        z: vec![0.0; n + 1],
        d: vec![0.0; n],
        line: vec![0.0; n],
    };
    for x in 0..pw {
        for y in 0..ph {
            buf.line[y] = f[y * pw + x];
        }
        buf.transform(ph);
        for y in 0..ph {
            f[y * pw + x] = buf.d[y];
        }
    }
    for y in 0..ph {
        buf.line[..pw].copy_from_slice(&f[y * pw..(y + 1) * pw]);
        buf.transform(pw);
        f[y * pw..(y + 1) * pw].copy_from_slice(&buf.d[..pw]);
    }
    let mut out = Vec::with_capacity(width * height);
    for y in 1..=height {
        out.extend_from_slice(&f[y * pw + 1..y * pw + 1 + width]);
    }
    out
}

/// Scratch space of the 1D transform.
struct Envelope {
    v: Vec<usize>,
    z: Vec<f64>,
    d: Vec<f64>,
    line: Vec<f64>,
}

impl Envelope {
    /// The 1D squared distance transform of `line[..n]` into `d[..n]`.
    fn transform(&mut self, n: usize) {
        let f = &self.line;
        let mut k = 0usize;
        self.v[0] = 0;
        self.z[0] = f64::NEG_INFINITY;
        self.z[1] = f64::INFINITY;
        for q in 1..n {
            loop {
                let p = self.v[k];
                let s = ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64))
                    / (2.0 * (q as f64 - p as f64));
                if s <= self.z[k] && k > 0 {
                    k -= 1;
                    continue;
                }
                if s <= self.z[k] {
                    // k == 0 and the new parabola hides the first one.
                    self.v[0] = q;
                    self.z[0] = f64::NEG_INFINITY;
                    self.z[1] = f64::INFINITY;
                } else {
                    k += 1;
                    self.v[k] = q;
                    self.z[k] = s;
                    self.z[k + 1] = f64::INFINITY;
                }
                break;
            }
        }
        k = 0;
        for q in 0..n {
            while self.z[k + 1] < q as f64 {
                k += 1;
            }
            let p = self.v[k];
            let dq = q as f64 - p as f64;
            self.d[q] = dq * dq + f[p];
        }
    }
}

/// The obstacle set grown by its eight neighbours, with the pixels along
/// the image's border (neighbours of the outside) included.
fn grown(w: usize, h: usize, obstacle: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            out[y * w + x] = (border
                || (y.saturating_sub(1)..(y + 2).min(h)).any(|v| {
                    (x.saturating_sub(1)..(x + 2).min(w)).any(|u| obstacle[v * w + u] != 0)
                })) as u8;
        }
    }
    out
}

/// Runs stage 4 on a raster plan with agent radius `radius` (metres).
pub fn binary_image(plan: &RasterPlan, radius: f64) -> Result<BinaryImage, String> {
    let (w, h) = (plan.width as usize, plan.height as usize);
    if plan.obstacle.len() != w * h {
        return Err(format!(
            "raster: obstacle mask has {} bytes, expected {w} x {h}",
            plan.obstacle.len()
        ));
    }
    if !(plan.metres_per_pixel.is_finite() && plan.metres_per_pixel > 0.0) {
        return Err(format!(
            "raster: metres per pixel {} is not a positive number",
            plan.metres_per_pixel
        ));
    }
    let r = radius / plan.metres_per_pixel;
    let r2 = r * r;
    let mut blocked = plan
        .obstacle
        .iter()
        .map(|&o| (o != 0) as u8)
        .collect::<Vec<_>>();
    let obstacle_pixels = blocked.iter().filter(|&&b| b != 0).count() as u64;
    let mut dilated_pixels = 0;
    if r > 0.0 {
        let d2 = squared_distance(w, h, &grown(w, h, &plan.obstacle));
        for (b, d) in blocked.iter_mut().zip(&d2) {
            if *b == 0 && *d < r2 {
                *b = 1;
                dilated_pixels += 1;
            }
        }
    }
    Ok(BinaryImage {
        width: plan.width,
        height: plan.height,
        metres_per_pixel: plan.metres_per_pixel,
        blocked,
        obstacle_pixels,
        dilated_pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{reference_nearest, reference_squared_distance};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn edt_equals_brute_force(w in 1usize..12, h in 1usize..12, bits in proptest::collection::vec(0u8..6, 144)) {
            let obstacle: Vec<u8> = (0..w * h).map(|i| (bits[i] == 0) as u8).collect();
            prop_assert_eq!(squared_distance(w, h, &obstacle), reference_squared_distance(w, h, &obstacle));
        }

        /// A free pixel is blocked exactly when its square is nearer than
        /// the radius to an obstacle square or the outside (brute force
        /// over every pair of squares).
        #[test]
        fn dilation_compares_squares(w in 1usize..10, h in 1usize..10, bits in proptest::collection::vec(0u8..6, 100), r in 0.0f64..3.0) {
            let obstacle: Vec<u8> = (0..w * h).map(|i| (bits[i] == 0) as u8).collect();
            let plan = RasterPlan { width: w as u32, height: h as u32, metres_per_pixel: 0.5, obstacle: obstacle.clone(), rgba: vec![] };
            let b = binary_image(&plan, r * 0.5).unwrap();
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    let gap = |d: i64| (d.abs() - 1).max(0) as f64;
                    let best = reference_nearest(w, h, &obstacle, x, y, |dx, dy| gap(dx).hypot(gap(dy)));
                    let free = obstacle[y as usize * w + x as usize] == 0;
                    prop_assert_eq!(b.is_blocked(x, y), !free || (r > 0.0 && best < r), "pixel ({}, {})", x, y);
                }
            }
        }

    }

    #[test]
    fn dilation_by_one_pixel_grows_a_dot_into_a_plus() {
        let mut plan = RasterPlan {
            width: 7,
            height: 7,
            metres_per_pixel: 0.5,
            obstacle: vec![0; 49],
            rgba: vec![],
        };
        plan.obstacle[3 * 7 + 3] = 1;
        let b = binary_image(&plan, 0.5).unwrap();
        // The dot and its eight neighbours (their squares touch it), and
        // the border pixels (they touch the outside); a square one pixel
        // away is exactly the radius away and stays free.
        assert!(b.is_blocked(3, 2) && b.is_blocked(2, 3) && b.is_blocked(2, 2));
        assert!(!b.is_blocked(3, 1) && !b.is_blocked(1, 3));
        assert!(b.is_blocked(0, 3) && !b.is_blocked(1, 1));
        assert_eq!(b.obstacle_pixels, 1);
        // Radius 0 blocks nothing; any positive radius blocks the ring
        // of pixels touching an obstacle.
        assert_eq!(binary_image(&plan, 0.0).unwrap().dilated_pixels, 0);
        assert_eq!(binary_image(&plan, 0.01).unwrap().dilated_pixels, 8 + 24);
    }

    #[test]
    fn bad_masks_are_errors() {
        let plan = RasterPlan {
            width: 3,
            height: 3,
            metres_per_pixel: 1.0,
            obstacle: vec![0; 8],
            rgba: vec![],
        };
        assert!(binary_image(&plan, 0.0).unwrap_err().contains("8 bytes"));
        let plan = RasterPlan {
            width: 1,
            height: 1,
            metres_per_pixel: 0.0,
            obstacle: vec![0],
            rgba: vec![],
        };
        assert!(binary_image(&plan, 0.0).is_err());
        // Empty image: nothing to do, no panic.
        let plan = RasterPlan {
            width: 0,
            height: 0,
            metres_per_pixel: 1.0,
            obstacle: vec![],
            rgba: vec![],
        };
        assert_eq!(binary_image(&plan, 1.0).unwrap().blocked.len(), 0);
    }
}
