//! Compact vertex attributes for the big meshes the stages draw: voxel
//! tiles and fills.
//!
//! A big level's stages draw millions of vertices (`dungeon.obj` at 0.1 m
//! cells: over a million voxel cubes of eight corners each), and every
//! vertex is held by the renderer (host memory under a software renderer,
//! GPU memory elsewhere). Bevy's standard attributes take 12 bytes per
//! position and 16 per colour; these take 8 and 4:
//! - [`POSITION_UNORM16`]: a position as four 16-bit fractions of a box
//!   (the fourth unused), which the mesh entity's [`Transform`] maps back
//!   ([`box_transform`]). Over a 64-cell tile of 0.1 m cells a step is
//!   0.1 mm, and over 50 m of height 0.8 mm, far below a voxel's gap;
//! - [`COLOR_UNORM8`]: a linear colour as four bytes.
//!
//! Both keep the ids of Bevy's position and colour attributes, so the
//! standard material's shader reads them as usual: the GPU widens them to
//! the `vec3<f32>` and `vec4<f32>` the shader takes (WebGPU allows any
//! float format for a float input, and fills the missing or drops the
//! extra components).

use bevy::color::{Color, ColorToComponents};
use bevy::math::Vec3;
use bevy::mesh::{MeshVertexAttribute, VertexFormat};
use bevy::prelude::Transform;

/// A position as 16-bit fractions of the mesh's box (see the module docs).
/// Its id is that of [`Mesh::ATTRIBUTE_POSITION`](bevy::prelude::Mesh::ATTRIBUTE_POSITION) (a test holds them equal).
pub const POSITION_UNORM16: MeshVertexAttribute =
    MeshVertexAttribute::new("Vertex_Position", 0, VertexFormat::Unorm16x4);

/// A linear RGBA colour as four bytes.
/// Its id is that of [`Mesh::ATTRIBUTE_COLOR`](bevy::prelude::Mesh::ATTRIBUTE_COLOR) (a test holds them equal).
pub const COLOR_UNORM8: MeshVertexAttribute =
    MeshVertexAttribute::new("Vertex_Color", 5, VertexFormat::Unorm8x4);

/// The linear bytes of an sRGB colour scaled by `shade` (alpha kept).
pub fn linear_bytes(srgb: [f32; 4], shade: f32) -> [u8; 4] {
    Color::srgba(srgb[0] * shade, srgb[1] * shade, srgb[2] * shade, srgb[3])
        .to_linear()
        .to_f32_array()
        .map(unorm8)
}

fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The extent a box of `size` is encoded over: its size, with a flat side
/// (zero, or not finite) taken as 1 so that every point still decodes.
fn extent(size: Vec3) -> Vec3 {
    Vec3::select(
        size.cmpgt(Vec3::ZERO) & size.is_finite_mask(),
        size,
        Vec3::ONE,
    )
}

/// `p` as fractions of the box at `lo` of `size` (clamped into it).
pub fn encode(p: Vec3, lo: Vec3, size: Vec3) -> [u16; 4] {
    let f = ((p - lo) / extent(size)).clamp(Vec3::ZERO, Vec3::ONE) * 65535.0;
    [
        f.x.round() as u16,
        f.y.round() as u16,
        f.z.round() as u16,
        0,
    ]
}

/// The point `q` encodes in the box at `lo` of `size` ([`encode`]'s inverse,
/// up to a step of `size / 65535`).
pub fn decode(q: [u16; 4], lo: Vec3, size: Vec3) -> Vec3 {
    lo + Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / 65535.0 * extent(size)
}

/// The transform that places a mesh encoded in the box at `lo` of `size`:
/// the fractions' unit cube onto the box.
pub fn box_transform(lo: Vec3, size: Vec3) -> Transform {
    Transform::from_translation(lo).with_scale(extent(size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::prelude::Mesh;

    #[test]
    fn the_attributes_keep_bevys_ids() {
        assert_eq!(POSITION_UNORM16.id, Mesh::ATTRIBUTE_POSITION.id);
        assert_eq!(COLOR_UNORM8.id, Mesh::ATTRIBUTE_COLOR.id);
    }

    #[test]
    fn srgb_colours_become_clamped_linear_bytes() {
        // sRGB 0.5 is about 0.214 linear: 55 of 255.
        assert_eq!(linear_bytes([0.5, 0.5, 0.5, 1.0], 1.0), [55, 55, 55, 255]);
        assert_eq!(linear_bytes([1.0, 0.0, 0.0, 0.5], 0.5)[3], 128);
        assert_eq!(linear_bytes([2.0, -1.0, f32::NAN, 1.0], 1.0)[..2], [255, 0]);
    }

    #[test]
    fn a_flat_or_broken_box_still_decodes() {
        let lo = Vec3::new(1.0, 2.0, 3.0);
        let size = Vec3::new(4.0, 0.0, f32::NAN);
        let p = Vec3::new(3.0, 2.0, 3.0);
        assert!((decode(encode(p, lo, size), lo, size) - p).length() < 1e-4);
        let t = box_transform(lo, size);
        assert_eq!(t.scale, Vec3::new(4.0, 1.0, 1.0));
    }

    proptest::proptest! {
        /// A point inside the box comes back within a step, and the
        /// transform maps its fractions where `decode` puts it.
        #[test]
        fn encoding_round_trips_within_a_step(
            lo in proptest::array::uniform3(-1000.0f32..1000.0),
            size in proptest::array::uniform3(0.01f32..100.0),
            t in proptest::array::uniform3(0.0f32..=1.0),
        ) {
            let (lo, size) = (Vec3::from(lo), Vec3::from(size));
            let p = lo + Vec3::from(t) * size;
            let q = encode(p, lo, size);
            let back = decode(q, lo, size);
            let step = size / 65535.0;
            let err = (back - p).abs();
            // Half a step of rounding, plus f32's error at these magnitudes.
            let slack = step * 0.5 + Vec3::splat(lo.abs().max_element() * 4e-7 + 1e-6);
            proptest::prop_assert!(err.cmple(slack).all(), "{p} -> {back}");
            let unit = Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / 65535.0;
            let placed = box_transform(lo, size).transform_point(unit);
            proptest::prop_assert!((placed - back).length() <= 1e-3 + back.length() * 1e-6);
        }
    }
}
