//! Raster floor plans: a PNG image plus an optional RON sidecar.
//!
//! The image's pixels are classified into obstacle and free space. A bare
//! PNG uses [`RasterSettings::default`]: 0.1 m per pixel, pixels darker than
//! luma 128 (Rec. 601 weights) are obstacles, transparent pixels (alpha
//! below 128) are obstacles. A sidecar `Raster(..)` in RON, stored as
//! `NAME.png.ron` or `NAME.ron` beside `NAME.png`, changes any of that:
//!
//! ```ron
//! Raster(
//!     metres_per_pixel: 0.05,
//!     luma_threshold: 100,
//!     obstacle_colours: [(255, 0, 0)],
//!     walkable_colours: [(40, 40, 160)],
//!     tolerance: 8,
//!     transparent: walkable,
//! )
//! ```
//!
//! Rules apply in order, first match wins: a walkable colour, an obstacle
//! colour (each within `tolerance` per channel, alpha ignored), a
//! transparent pixel (class `transparent`), then luma below
//! `luma_threshold` is an obstacle and the rest is free. `NAME.png.ron` is
//! always read as the sidecar (a broken one is an error naming it); a
//! `NAME.ron` beside the image is used only when it is a `Raster(..)`
//! (otherwise it is another level and is ignored).
//! Loading a sidecar file itself loads the image it describes: its `image`
//! field, or the sidecar's name without `.ron` (`NAME.png.ron`), or
//! `NAME.png` for `NAME.ron`.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, Limits, codecs::png::PngDecoder};
use navscope_core::level::RasterPlan;
use serde::Deserialize;

use navscope_core::num::short;

use crate::bounds::beyond;
use crate::budget::Budget;
use crate::error::Fault;
use crate::text;

/// What a class rule assigns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PixelClass {
    /// The pixel is free space.
    Walkable,
    /// The pixel is an obstacle.
    Obstacle,
}

/// How pixels are read: the sidecar's content, or the defaults.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename = "Raster", deny_unknown_fields, default)]
pub struct RasterSettings {
    /// The image file the sidecar describes, relative to the sidecar (only
    /// used when the sidecar itself is loaded).
    pub image: Option<String>,
    /// Metres per pixel (default 0.1).
    pub metres_per_pixel: f64,
    /// Pixels with luma below this are obstacles (default 128).
    pub luma_threshold: u8,
    /// Colours that are obstacles.
    pub obstacle_colours: Vec<(u8, u8, u8)>,
    /// Colours that are walkable (checked first).
    pub walkable_colours: Vec<(u8, u8, u8)>,
    /// Per-channel tolerance when matching colours (default 0: exact).
    pub tolerance: u8,
    /// Class of pixels with alpha below 128 (default obstacle).
    pub transparent: PixelClass,
}

impl Default for RasterSettings {
    fn default() -> Self {
        Self {
            image: None,
            metres_per_pixel: 0.1,
            luma_threshold: 128,
            obstacle_colours: Vec::new(),
            walkable_colours: Vec::new(),
            tolerance: 0,
            transparent: PixelClass::Obstacle,
        }
    }
}

impl RasterSettings {
    /// Parses and checks a sidecar.
    pub(crate) fn parse(text: &str) -> Result<Self, Fault> {
        text::check_depth(text)?;
        let s: RasterSettings = text::ron(text)?;
        if !(s.metres_per_pixel.is_finite() && s.metres_per_pixel > 0.0) {
            return Err(Fault::geometry(
                "metres_per_pixel",
                format!(
                    "must be a positive number, is {}",
                    short(s.metres_per_pixel)
                ),
            ));
        }
        Ok(s)
    }

    fn class(&self, p: [u8; 4]) -> PixelClass {
        let near = |c: &(u8, u8, u8)| {
            p[0].abs_diff(c.0) <= self.tolerance
                && p[1].abs_diff(c.1) <= self.tolerance
                && p[2].abs_diff(c.2) <= self.tolerance
        };
        if self.walkable_colours.iter().any(near) {
            return PixelClass::Walkable;
        }
        if self.obstacle_colours.iter().any(near) {
            return PixelClass::Obstacle;
        }
        if p[3] < 128 {
            return self.transparent;
        }
        let luma = (299 * p[0] as u32 + 587 * p[1] as u32 + 114 * p[2] as u32) / 1000;
        if luma < self.luma_threshold as u32 {
            PixelClass::Obstacle
        } else {
            PixelClass::Walkable
        }
    }
}

/// True when `bytes` start with the PNG signature.
pub(crate) fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
}

/// Decodes a PNG and classifies its pixels. The header's dimensions are
/// checked against the budget before the pixels are decoded.
pub(crate) fn parse(
    bytes: &[u8],
    settings: &RasterSettings,
    budget: &Budget,
) -> Result<RasterPlan, Fault> {
    if !is_png(bytes) {
        return Err(Fault::format("", "not a PNG image (bad signature)"));
    }
    let mut limits = Limits::default();
    // RGBA8 of the largest allowed image, plus the decoder's own buffers.
    limits.max_alloc = Some(budget.max_cells.saturating_mul(8).saturating_add(1 << 20));
    let decoder = PngDecoder::with_limits(Cursor::new(bytes), limits)
        .map_err(|e| Fault::syntax("header", format!("not a readable PNG: {}", png_problem(&e))))?;
    let (width, height) = decoder.dimensions();
    Budget::check(
        &format!("image {width}x{height}"),
        "pixels",
        width as u64 * height as u64,
        budget.max_cells,
    )?;
    if width == 0 || height == 0 {
        return Err(Fault::geometry("header", "the image has no pixels"));
    }
    let extent = f64::from(width.max(height)) * settings.metres_per_pixel;
    if let Some(problem) = beyond("size", [extent]) {
        return Err(Fault::geometry(
            format!("image {width}x{height}"),
            format!(
                "at {} m per pixel its {problem}",
                short(settings.metres_per_pixel)
            ),
        ));
    }
    let image = DynamicImage::from_decoder(decoder)
        .map_err(|e| Fault::syntax("pixels", format!("PNG data is broken: {}", png_problem(&e))))?;
    let rgba = image.into_rgba8().into_raw();
    let obstacle = rgba
        .chunks_exact(4)
        .map(|p| u8::from(settings.class([p[0], p[1], p[2], p[3]]) == PixelClass::Obstacle))
        .collect();
    Ok(RasterPlan {
        width,
        height,
        metres_per_pixel: settings.metres_per_pixel,
        obstacle,
        rgba,
    })
}

/// A decoder error as a plain sentence: the png crate writes chunk types
/// and deflate errors with Rust's debug format (`ChunkType { type: IHDR,
/// critical: true, ... }`, `DistanceTooFarBack`); a message shows the
/// chunk's name and leaves the debug names out.
fn png_problem(e: &image::ImageError) -> String {
    if let image::ImageError::Limits(_) = e {
        return "decoding it would need more memory than the budget allows".to_string();
    }
    let text = e.to_string();
    let mut text = text
        .strip_prefix("Format error decoding Png: ")
        .unwrap_or(&text)
        .to_string();
    while let Some(start) = text.find("ChunkType { type: ") {
        let name_start = start + "ChunkType { type: ".len();
        let name_end = text[name_start..]
            .find(", ")
            .map_or(text.len(), |i| name_start + i);
        let end = text[name_end..]
            .find('}')
            .map_or(text.len(), |i| name_end + i + 1);
        // Unprintable bytes of the name come as `\u{18}`: show them as `?`.
        let mut name = String::new();
        let mut rest = &text[name_start..name_end];
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("\\u{") {
                rest = after.split_once('}').map_or("", |(_, r)| r);
                name.push('?');
            } else {
                name.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        text.replace_range(start..end, &format!("\"{name}\""));
    }
    if let Some(i) = text.find("Corrupt deflate stream.") {
        text.replace_range(i.., "corrupt compressed pixel data");
    }
    text.trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use image::{ImageEncoder, codecs::png::PngEncoder};

    fn png(w: u32, h: u32, rgba: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(rgba, w, h, image::ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    #[test]
    fn decoder_errors_carry_no_debug_text() {
        let good = png(2, 2, &[0u8; 16]);
        // A broken header checksum, an unknown critical chunk, broken
        // compressed data.
        for (at, byte) in [(29, 0u8), (37, b'Q'), (43, 0xff)] {
            let mut bad = good.clone();
            bad[at] ^= byte.max(1);
            let e = parse(&bad, &RasterSettings::default(), &Budget::default()).unwrap_err();
            assert!(
                !e.problem.contains("ChunkType") && !e.problem.contains('{'),
                "{}",
                e.problem
            );
            assert!(
                !e.problem.split(|c: char| !c.is_alphanumeric()).any(|w| {
                    w.chars().filter(char::is_ascii_uppercase).count() >= 2
                        && w.chars().any(|c| c.is_ascii_lowercase())
                }),
                "CamelCase debug name in {}",
                e.problem
            );
        }
    }

    #[test]
    fn a_raster_larger_than_the_bound_is_refused() {
        let settings = RasterSettings {
            metres_per_pixel: 6e4,
            ..RasterSettings::default()
        };
        let e = parse(&png(2, 2, &[0u8; 16]), &settings, &Budget::default()).unwrap_err();
        assert_eq!(e.element, "image 2x2");
        assert_eq!(
            e.problem,
            "at 60000 m per pixel its size 120000 is beyond the largest allowed, ±100000 m"
        );
    }

    #[test]
    fn bare_png_dark_is_obstacle() {
        let px = [
            [0, 0, 0, 255],
            [255, 255, 255, 255],
            [200, 200, 200, 0],
            [127, 127, 127, 255],
        ]
        .concat();
        let r = parse(
            &png(2, 2, &px),
            &RasterSettings::default(),
            &Budget::default(),
        )
        .unwrap();
        assert_eq!(r.obstacle, vec![1, 0, 1, 1]);
        assert_eq!(r.metres_per_pixel, 0.1);
        assert_eq!(r.rgba, px);
    }

    #[test]
    fn sidecar_rules_apply_in_order() {
        let s = RasterSettings::parse(
            "Raster(metres_per_pixel: 0.5, walkable_colours: [(10, 10, 100)], obstacle_colours: [(250, 0, 0)], tolerance: 6, transparent: walkable, luma_threshold: 50)",
        )
        .unwrap();
        let px = [
            [12, 8, 104, 255],
            [255, 2, 3, 255],
            [0, 0, 0, 0],
            [60, 60, 60, 255],
            [40, 40, 40, 255],
        ]
        .concat();
        let r = parse(&png(5, 1, &px), &s, &Budget::default()).unwrap();
        assert_eq!(r.obstacle, vec![0, 1, 0, 0, 1]);
        assert_eq!(r.metres_per_pixel, 0.5);
    }

    #[test]
    fn sidecar_problems_are_named() {
        let e = RasterSettings::parse("Raster(metres_per_pixel: -1)").unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("metres_per_pixel", "must be a positive number, is -1")
        );
        let e = RasterSettings::parse("Raster(colour: 3)").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
    }

    #[test]
    fn huge_declared_size_is_refused_before_decoding() {
        // A valid 1x1 PNG whose IHDR claims 100000 x 100000 pixels (CRC
        // recomputed so only the budget can refuse it).
        let mut bytes = png(1, 1, &[0, 0, 0, 255]);
        bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let e = parse(&bytes, &RasterSettings::default(), &Budget::default()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Budget, "{e:?}");
        assert_eq!(e.element, "image 100000x100000");
    }

    /// A PNG written by hand (stored deflate block), for bit depths and
    /// colour types the encoder above does not write.
    fn raw_png(w: u32, h: u32, depth: u8, colour: u8, plte: &[u8], rows: &[&[u8]]) -> Vec<u8> {
        let chunk = |out: &mut Vec<u8>, kind: &[u8], data: &[u8]| {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let mut body = kind.to_vec();
            body.extend_from_slice(data);
            out.extend_from_slice(&body);
            out.extend_from_slice(&crc32(&body).to_be_bytes());
        };
        let mut raw = Vec::new();
        for r in rows {
            raw.push(0);
            raw.extend_from_slice(r);
        }
        let (mut a, mut b) = (1u32, 0u32);
        for &x in &raw {
            a = (a + x as u32) % 65521;
            b = (b + a) % 65521;
        }
        let mut z = vec![0x78, 0x01, 0x01];
        z.extend_from_slice(&(raw.len() as u16).to_le_bytes());
        z.extend_from_slice(&(!(raw.len() as u16)).to_le_bytes());
        z.extend_from_slice(&raw);
        z.extend_from_slice(&((b << 16) | a).to_be_bytes());
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[depth, colour, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        if !plte.is_empty() {
            chunk(&mut out, b"PLTE", plte);
        }
        chunk(&mut out, b"IDAT", &z);
        chunk(&mut out, b"IEND", &[]);
        out
    }

    #[test]
    fn one_bit_grey_and_palette_images_load() {
        // 1-bit grey, 4 pixels: black, white, white, black.
        let png = raw_png(4, 1, 1, 0, &[], &[&[0b0110_0000]]);
        let r = parse(&png, &RasterSettings::default(), &Budget::default()).unwrap();
        assert_eq!(r.obstacle, vec![1, 0, 0, 1]);
        // 2-bit palette: red, dark blue, white.
        let png = raw_png(
            3,
            1,
            2,
            3,
            &[255, 0, 0, 0, 0, 90, 255, 255, 255],
            &[&[0b0001_1000]],
        );
        let r = parse(&png, &RasterSettings::default(), &Budget::default()).unwrap();
        assert_eq!(r.obstacle, vec![1, 1, 0], "red luma 76 and navy are dark");
        assert_eq!(&r.rgba[..4], &[255, 0, 0, 255]);
    }

    fn crc32(data: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &b in data {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }
}
