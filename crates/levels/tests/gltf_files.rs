//! glTF buffers outside the JSON: a `.bin` file next to a `.gltf` (read
//! only by path, only inside the level's folder) and the binary chunk of a
//! `.glb`.

use navscope_core::level::LevelData;
use navscope_levels::{load, load_bytes};

/// One triangle as 36 bytes of little-endian f32.
fn triangle_bin() -> Vec<u8> {
    [[0f32, 0., 0.], [2., 0., 0.], [0., 0., 2.]]
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

fn gltf_json(uri: Option<&str>) -> String {
    let uri = uri.map_or(String::new(), |u| format!(r#", "uri": "{u}""#));
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scenes": [{{"nodes": [0]}}], "nodes": [{{"mesh": 0}}],
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
        "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [2, 0, 2]}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
        "buffers": [{{"byteLength": 36{uri}}}]}}"#
    )
}

#[test]
fn external_bin_is_read_by_path_only() {
    let dir = std::env::temp_dir().join(format!("navscope-levels-gltf-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("tri.bin"), triangle_bin()).unwrap();
    std::fs::write(dir.join("tri.gltf"), gltf_json(Some("tri.bin"))).unwrap();
    let level = load(&dir.join("tri.gltf")).unwrap();
    let LevelData::Mesh(m) = level.data else {
        panic!("mesh")
    };
    assert_eq!(m.mesh.triangles.len(), 1);
    // From memory there is no folder to read it from.
    let e = load_bytes("tri.gltf", gltf_json(Some("tri.bin")).as_bytes()).unwrap_err();
    assert!(e.to_string().contains("load the level by path"), "{e}");
    // Escaping the folder is refused.
    std::fs::write(dir.join("sub/up.gltf"), gltf_json(Some("../tri.bin"))).unwrap();
    let e = load(&dir.join("sub/up.gltf")).unwrap_err();
    assert!(
        e.to_string()
            .contains("must be a relative path inside the level's folder"),
        "{e}"
    );
    // A missing file is named.
    std::fs::write(dir.join("gone.gltf"), gltf_json(Some("gone.bin"))).unwrap();
    let e = load(&dir.join("gone.gltf")).unwrap_err();
    assert!(e.to_string().contains("external file \"gone.bin\""), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn glb_binary_chunk() {
    let json = gltf_json(None);
    let json_len = json.len().div_ceil(4) * 4;
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&((12 + 8 + json_len + 8 + 36) as u32).to_le_bytes());
    glb.extend_from_slice(&(json_len as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(json.as_bytes());
    glb.resize(12 + 8 + json_len, b' ');
    glb.extend_from_slice(&36u32.to_le_bytes());
    glb.extend_from_slice(b"BIN\0");
    glb.extend_from_slice(&triangle_bin());
    // Recognised by its signature whatever the name says.
    let level = load_bytes("scene.bin", &glb).unwrap();
    let LevelData::Mesh(m) = level.data else {
        panic!("mesh")
    };
    assert_eq!(m.mesh.vertices[1], glam::Vec3::new(2.0, 0.0, 0.0));
    let e = load_bytes("scene.glb", &glb[..glb.len() - 10]).unwrap_err();
    assert!(e.to_string().starts_with("scene.glb: "), "{e}");
}
