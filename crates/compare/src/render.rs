//! A top-down picture of a [`Difference`] without a window: a small
//! scanline rasteriser fills the regions (common grey, A-only and B-only
//! in their colours) seen from above, +X to the right and +Z down the
//! picture, and a legend strip under it gives the colours, the areas and
//! a scale bar (with a built-in 3 × 5 pixel font: no font files).

use std::path::Path;

use glam::DVec2;
use image::{Rgb, RgbImage};

use crate::difference::Difference;
use crate::region::Region;

/// How the picture is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Picture width in pixels; the height follows the footprints' aspect.
    pub width: u32,
    /// Blank border round the footprints (pixels).
    pub margin: u32,
    /// Draw the legend strip (colours, areas, scale bar) under the plan.
    pub legend: bool,
    /// Background colour.
    pub background: [u8; 3],
    /// Walkable in A only.
    pub a_only: [u8; 3],
    /// Walkable in B only.
    pub b_only: [u8; 3],
    /// Walkable in both.
    pub common: [u8; 3],
}

impl Default for RenderOptions {
    /// 800 pixels wide, white background, A-only orange-red, B-only blue,
    /// common grey, with a legend.
    fn default() -> Self {
        Self {
            width: 800,
            margin: 16,
            legend: true,
            background: [255, 255, 255],
            a_only: [222, 84, 44],
            b_only: [44, 112, 222],
            common: [175, 175, 175],
        }
    }
}

/// Height of the legend strip (pixels).
pub const LEGEND_HEIGHT: u32 = 28;

/// The plan box a picture shows: the difference's bounds, or a 10 m
/// square round the origin when both footprints are empty.
fn view(diff: &Difference) -> (DVec2, DVec2) {
    diff.bounds()
        .filter(|(lo, hi)| (*hi - *lo).min_element() > 0.0)
        .unwrap_or((DVec2::ZERO, DVec2::splat(10.0)))
}

/// The picture's size in pixels for `diff` drawn with `opts`.
pub fn image_size(diff: &Difference, opts: &RenderOptions) -> (u32, u32) {
    let (lo, hi) = view(diff);
    let size = hi - lo;
    let inner = opts.width.saturating_sub(2 * opts.margin).max(1);
    let scale = inner as f64 / size.x;
    let plan_h = (size.y * scale).ceil() as u32;
    let legend = if opts.legend { LEGEND_HEIGHT } else { 0 };
    (opts.width.max(1), plan_h + 2 * opts.margin + legend)
}

/// Draws the difference (see the module docs).
pub fn render(diff: &Difference, opts: &RenderOptions) -> RgbImage {
    let (w, h) = image_size(diff, opts);
    let mut img = RgbImage::from_pixel(w, h, Rgb(opts.background));
    let (lo, hi) = view(diff);
    let inner = opts.width.saturating_sub(2 * opts.margin).max(1);
    let scale = inner as f64 / (hi.x - lo.x);
    // Pixel centre (px, py) is world (x, z) = plan (x, -z); the plan's top
    // (largest plan y, smallest z) is at the top of the picture.
    let to_plan = |px: f64, py: f64| {
        DVec2::new(
            lo.x + (px - opts.margin as f64) / scale,
            hi.y - (py - opts.margin as f64) / scale,
        )
    };
    let plan_rows = h - if opts.legend { LEGEND_HEIGHT } else { 0 };
    for band in &diff.bands {
        for (region, colour) in [
            (&band.common, opts.common),
            (&band.a_only, opts.a_only),
            (&band.b_only, opts.b_only),
        ] {
            fill(&mut img, plan_rows, region, &to_plan, scale, Rgb(colour));
        }
    }
    if opts.legend {
        legend(&mut img, diff, opts, scale);
    }
    img
}

/// Draws the difference and writes it as a PNG file.
pub fn save_png(diff: &Difference, opts: &RenderOptions, path: &Path) -> Result<(), String> {
    render(diff, opts)
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Fills `region` (even-odd over all its rings) into the first `rows` rows,
/// sampling pixel centres.
fn fill(
    img: &mut RgbImage,
    rows: u32,
    region: &Region,
    to_plan: &dyn Fn(f64, f64) -> DVec2,
    scale: f64,
    colour: Rgb<u8>,
) {
    if region.is_empty() {
        return;
    }
    let origin = to_plan(0.0, 0.0);
    for py in 0..rows {
        let y = to_plan(0.5, py as f64 + 0.5).y;
        let mut xs: Vec<f64> = Vec::new();
        for ring in region.rings() {
            for i in 0..ring.len() {
                let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
                if (a.y > y) != (b.y > y) {
                    xs.push(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
                }
            }
        }
        xs.sort_by(f64::total_cmp);
        for pair in xs.chunks_exact(2) {
            // Pixels whose centre lies in [x0, x1).
            let first = ((pair[0] - origin.x) * scale - 0.5).ceil().max(0.0);
            let last = ((pair[1] - origin.x) * scale - 0.5)
                .ceil()
                .min(img.width() as f64);
            for px in first as u32..last.max(first) as u32 {
                img.put_pixel(px, py, colour);
            }
        }
    }
}

/// A round length for the scale bar: about a fifth of the view, 1, 2 or 5
/// times a power of ten.
fn scale_bar_metres(view_width: f64) -> f64 {
    let target = view_width / 5.0;
    let p = 10f64.powf(target.log10().floor());
    [5.0, 2.0, 1.0]
        .into_iter()
        .map(|k| k * p)
        .find(|&v| v <= target)
        .unwrap_or(p)
}

/// Formats an area for the legend (`12.3`).
fn area_text(a: f64) -> String {
    if a >= 100.0 {
        format!("{a:.0}")
    } else {
        format!("{a:.2}")
    }
}

/// The legend strip: three swatches with their areas and a scale bar.
fn legend(img: &mut RgbImage, diff: &Difference, opts: &RenderOptions, scale: f64) {
    let top = img.height() - LEGEND_HEIGHT;
    let y = top + 9;
    let ink = Rgb([40, 40, 40]);
    let mut x = opts.margin;
    for (colour, label) in [
        (
            opts.a_only,
            format!("A only {} m2", area_text(diff.a_only_area())),
        ),
        (
            opts.b_only,
            format!("B only {} m2", area_text(diff.b_only_area())),
        ),
        (
            opts.common,
            format!("both {} m2", area_text(diff.common_area())),
        ),
    ] {
        rect(img, x, y, 10, 10, Rgb(colour));
        x = text(img, x + 14, y, &label, ink) + 16;
    }
    let (lo, hi) = view(diff);
    let metres = scale_bar_metres(hi.x - lo.x);
    let len = (metres * scale).round() as u32;
    let label = format!("{metres} m");
    let label_w = label.len() as u32 * 8;
    let x0 = img.width().saturating_sub(opts.margin + len + label_w + 6);
    if x0 > x {
        rect(img, x0, y + 4, len, 2, ink);
        rect(img, x0, y, 2, 10, ink);
        rect(img, x0 + len.saturating_sub(2), y, 2, 10, ink);
        text(img, x0 + len + 6, y, &label, ink);
    }
}

/// Fills a rectangle, clipped to the image.
fn rect(img: &mut RgbImage, x: u32, y: u32, w: u32, h: u32, c: Rgb<u8>) {
    for py in y..(y + h).min(img.height()) {
        for px in x..(x + w).min(img.width()) {
            img.put_pixel(px, py, c);
        }
    }
}

/// Rows of a 3 × 5 glyph (bit 2 is the left column).
fn glyph(c: char) -> [u8; 5] {
    match c {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 1, 1, 1],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        '.' => [0, 0, 0, 0, 2],
        '-' => [0, 0, 7, 0, 0],
        'A' => [2, 5, 7, 5, 5],
        'B' => [6, 5, 6, 5, 6],
        'b' => [4, 4, 7, 5, 7],
        'h' => [4, 4, 7, 5, 5],
        'l' => [6, 2, 2, 2, 7],
        'm' => [0, 7, 7, 5, 5],
        'n' => [0, 6, 5, 5, 5],
        'o' => [0, 7, 5, 5, 7],
        't' => [2, 7, 2, 2, 3],
        'y' => [5, 5, 7, 1, 7],
        _ => [0; 5],
    }
}

/// Writes `s` at twice the glyph size; returns the x after the text.
fn text(img: &mut RgbImage, x: u32, y: u32, s: &str, c: Rgb<u8>) -> u32 {
    let mut x = x;
    for ch in s.chars() {
        for (row, bits) in glyph(ch).iter().enumerate() {
            for col in 0..3 {
                if bits & (4 >> col) != 0 {
                    rect(img, x + 2 * col, y + 2 * row as u32, 2, 2, c);
                }
            }
        }
        x += 8;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::difference::BandDifference;

    fn square(x: f64, s: f64) -> Region {
        Region::union_of(&[vec![
            DVec2::new(x, 0.0),
            DVec2::new(x + s, 0.0),
            DVec2::new(x + s, s),
            DVec2::new(x, s),
        ]])
    }

    #[test]
    fn regions_are_filled_in_their_colours_where_they_are() {
        // A-only on the left half, B-only on the right half of a 20 x 10 m view.
        let diff = Difference {
            banding: None,
            bands: vec![BandDifference {
                a_only: square(0.0, 10.0),
                b_only: square(10.0, 10.0),
                ..Default::default()
            }],
        };
        let opts = RenderOptions {
            width: 220,
            margin: 10,
            ..Default::default()
        };
        let img = render(&diff, &opts);
        assert_eq!(image_size(&diff, &opts), (220, 100 + 20 + LEGEND_HEIGHT));
        assert_eq!(img.dimensions(), (220, 148));
        assert_eq!(img.get_pixel(60, 60).0, opts.a_only);
        assert_eq!(img.get_pixel(160, 60).0, opts.b_only);
        assert_eq!(img.get_pixel(5, 60).0, opts.background);
        // Exactly 100 pixel columns of each colour on a row.
        let row: Vec<[u8; 3]> = (0..220).map(|x| img.get_pixel(x, 50).0).collect();
        assert_eq!(row.iter().filter(|c| **c == opts.a_only).count(), 100);
        assert_eq!(row.iter().filter(|c| **c == opts.b_only).count(), 100);
        // The legend has ink.
        let ink = (0..220)
            .flat_map(|x| (120..148).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 == [40, 40, 40])
            .count();
        assert!(ink > 50, "{ink}");
    }

    #[test]
    fn scale_bars_are_round() {
        assert_eq!(scale_bar_metres(40.0), 5.0);
        assert_eq!(scale_bar_metres(100.0), 20.0);
        assert_eq!(scale_bar_metres(3.0), 0.5);
    }
}
