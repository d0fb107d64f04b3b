//! glTF 2.0 (`.gltf` and `.glb`) through the `gltf` crate, built without
//! its `import` feature: navscope resolves buffers itself (the GLB binary
//! chunk, base64 `data:` URIs decoded here, or files next to the level when
//! it is loaded by path) so that it can check every size first.
//!
//! Before any vertex is read, every accessor used by a reachable primitive
//! is checked to lie inside its buffer view and every view inside its
//! buffer, and the vertex and triangle totals (counting each node instance)
//! are checked against the budget. Node hierarchies are walked with an
//! explicit stack; a node reached twice (a cycle or shared child) is an
//! error. Triangles, strips and fans are read; points and lines are skipped.

use glam::{Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;
use navscope_core::level::MeshLevel;

use super::MeshBuilder;
use crate::budget::Budget;
use crate::error::Fault;

/// Reads an external buffer by its URI (relative to the level file).
pub(crate) type ExternalReader<'a> = &'a dyn Fn(&str) -> Result<Vec<u8>, Fault>;

/// Standard base64 (with or without padding); `None` on a bad character.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes = s.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in bytes {
        acc = (acc << 6) | val(c)? as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The bytes of every buffer, in order.
fn load_buffers(g: &gltf::Gltf, external: ExternalReader) -> Result<Vec<Vec<u8>>, Fault> {
    let mut out = Vec::new();
    for b in g.document.buffers() {
        let el = || format!("buffer {}", b.index());
        let data = match b.source() {
            gltf::buffer::Source::Bin => g.blob.clone().ok_or_else(|| {
                Fault::syntax(el(), "refers to the GLB binary chunk, which is missing")
            })?,
            gltf::buffer::Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let (_, payload) = rest
                        .split_once(";base64,")
                        .ok_or_else(|| Fault::syntax(el(), "data URI is not base64"))?;
                    base64_decode(payload)
                        .ok_or_else(|| Fault::syntax(el(), "data URI holds invalid base64"))?
                } else {
                    external(uri).map_err(|f| f.within(&el()))?
                }
            }
        };
        if data.len() < b.length() {
            return Err(Fault::syntax(
                el(),
                format!("declares {} bytes but holds {}", b.length(), data.len()),
            ));
        }
        out.push(data);
    }
    Ok(out)
}

/// Checks that an accessor's elements lie inside its view and buffer.
fn check_accessor(a: &gltf::Accessor, buffers: &[Vec<u8>]) -> Result<(), Fault> {
    let el = || format!("accessor {}", a.index());
    if a.sparse().is_some() {
        return Err(Fault::syntax(el(), "sparse accessors are not supported"));
    }
    let Some(view) = a.view() else { return Ok(()) };
    let elem = a.size();
    let stride = view.stride().unwrap_or(elem).max(elem);
    let need = if a.count() == 0 {
        0
    } else {
        a.offset() + stride * (a.count() - 1) + elem
    };
    if need > view.length() {
        return Err(Fault::syntax(
            el(),
            format!(
                "needs {need} bytes but its view {} has {}",
                view.index(),
                view.length()
            ),
        ));
    }
    let have = buffers.get(view.buffer().index()).map_or(0, Vec::len);
    if view.offset() + view.length() > have {
        return Err(Fault::syntax(
            format!("view {}", view.index()),
            format!(
                "ends at byte {} but its buffer has {have}",
                view.offset() + view.length()
            ),
        ));
    }
    Ok(())
}

/// Every (mesh, world transform, name) instance of the scene.
fn instances(doc: &gltf::Document) -> Result<Vec<(gltf::Mesh<'_>, Mat4, String)>, Fault> {
    let roots: Vec<gltf::Node> = match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        None => {
            let mut is_child = vec![false; doc.nodes().len()];
            for n in doc.nodes() {
                for c in n.children() {
                    is_child[c.index()] = true;
                }
            }
            doc.nodes().filter(|n| !is_child[n.index()]).collect()
        }
    };
    let mut seen = vec![false; doc.nodes().len()];
    let mut stack: Vec<(gltf::Node, Mat4, bool)> = roots
        .into_iter()
        .map(|n| (n, Mat4::IDENTITY, false))
        .collect();
    let mut out = Vec::new();
    while let Some((node, parent, parent_water)) = stack.pop() {
        if std::mem::replace(&mut seen[node.index()], true) {
            return Err(Fault::syntax(
                format!("node {}", node.index()),
                "is reached twice (a cycle or a shared child)",
            ));
        }
        let m = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        let water = parent_water || node.name().is_some_and(super::is_water);
        if let Some(mesh) = node.mesh() {
            let name = if water {
                "water".to_string()
            } else {
                mesh.name().unwrap_or("").to_string()
            };
            out.push((mesh, m, name));
        }
        stack.extend(node.children().map(|c| (c, m, water)));
    }
    Ok(out)
}

/// Triangles of a primitive's index list by mode.
fn triangles(mode: Mode, idx: &[u32]) -> Vec<[u32; 3]> {
    match mode {
        Mode::Triangles => idx.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        Mode::TriangleStrip => (2..idx.len())
            .map(|i| {
                if i % 2 == 0 {
                    [idx[i - 2], idx[i - 1], idx[i]]
                } else {
                    [idx[i - 1], idx[i - 2], idx[i]]
                }
            })
            .collect(),
        Mode::TriangleFan => (2..idx.len())
            .map(|i| [idx[0], idx[i - 1], idx[i]])
            .collect(),
        _ => Vec::new(),
    }
}

/// Parses glTF JSON or GLB into a mesh level.
pub(crate) fn parse(
    bytes: &[u8],
    budget: &Budget,
    external: ExternalReader,
) -> Result<MeshLevel, Fault> {
    let unreadable = |e: gltf::Error| Fault::syntax("", format!("not a readable glTF: {e}"));
    // gltf-json 1.4.1's validation indexes the POSITION accessor without a
    // range check (and panics on a bad index), so attribute indices are
    // checked first on the unvalidated document; then the file is parsed
    // again with the full validation.
    let raw = gltf::Gltf::from_slice_without_validation(bytes).map_err(unreadable)?;
    let json = raw.document.as_json();
    for (mi, m) in json.meshes.iter().enumerate() {
        for (pi, p) in m.primitives.iter().enumerate() {
            if let Some(bad) = p
                .attributes
                .values()
                .map(|a| a.value())
                .find(|&a| a >= json.accessors.len())
            {
                return Err(Fault::reference(
                    format!("mesh {mi} primitive {pi}"),
                    format!(
                        "refers to accessor {bad} but there are {}",
                        json.accessors.len()
                    ),
                ));
            }
        }
    }
    drop(raw);
    let g = gltf::Gltf::from_slice(bytes).map_err(unreadable)?;
    let buffers = load_buffers(&g, external)?;
    let inst = instances(&g.document)?;
    let (mut verts, mut tris) = (0u64, 0u64);
    for (mesh, _, _) in &inst {
        for p in mesh.primitives() {
            let el = || format!("mesh {} primitive {}", mesh.index(), p.index());
            let Some(pos) = p.get(&gltf::Semantic::Positions) else {
                continue;
            };
            if pos.data_type() != DataType::F32 || pos.dimensions() != Dimensions::Vec3 {
                return Err(Fault::syntax(el(), "positions must be float VEC3"));
            }
            check_accessor(&pos, &buffers)?;
            verts += pos.count() as u64;
            let corners = match p.indices() {
                Some(i) => {
                    if i.dimensions() != Dimensions::Scalar
                        || !matches!(i.data_type(), DataType::U8 | DataType::U16 | DataType::U32)
                    {
                        return Err(Fault::syntax(
                            el(),
                            "indices must be unsigned integer scalars",
                        ));
                    }
                    check_accessor(&i, &buffers)?;
                    i.count() as u64
                }
                None => pos.count() as u64,
            };
            tris += corners;
            Budget::check(&el(), "vertices", verts, budget.max_vertices)?;
            Budget::check(
                &el(),
                "triangle corners",
                tris,
                budget.max_triangles.saturating_mul(3),
            )?;
        }
    }
    let mut b = MeshBuilder::default();
    for (mesh, m, name) in &inst {
        for p in mesh.primitives() {
            let el = || format!("mesh {} primitive {}", mesh.index(), p.index());
            let reader = p.reader(|buf| buffers.get(buf.index()).map(Vec::as_slice));
            let Some(pos) = reader.read_positions() else {
                continue;
            };
            let pos: Vec<Vec3> = pos.map(|q| m.transform_point3(Vec3::from(q))).collect();
            let idx: Vec<u32> = match reader.read_indices() {
                Some(i) => i.into_u32().collect(),
                None => (0..pos.len() as u32).collect(),
            };
            if let Some(bad) = idx.iter().find(|&&i| i as usize >= pos.len()) {
                return Err(Fault::reference(
                    el(),
                    format!("index {bad} is past its {} vertices", pos.len()),
                ));
            }
            b.add(name, &pos, triangles(p.mode(), &idx));
        }
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-triangle glTF with an embedded buffer; `count` positions are
    /// declared.
    fn triangle_gltf(node_name: &str, count: usize) -> String {
        let mut bin = Vec::new();
        for v in [[0f32, 0., 0.], [1., 0., 0.], [0., 0., 1.]] {
            for c in v {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
        let b64 = base64_encode(&bin);
        format!(
            r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
            "nodes": [{{"name": "{node_name}", "mesh": 0, "translation": [10, 0, 0]}}],
            "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
            "accessors": [{{"bufferView": 0, "componentType": 5126, "count": {count}, "type": "VEC3", "min": [0,0,0], "max": [1,0,1]}}],
            "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
            "buffers": [{{"byteLength": 36, "uri": "data:application/octet-stream;base64,{b64}"}}]}}"#
        )
    }

    fn base64_encode(data: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for ch in data.chunks(3) {
            let n = ch
                .iter()
                .enumerate()
                .fold(0u32, |acc, (i, &b)| acc | (b as u32) << (16 - 8 * i));
            for i in 0..4 {
                if i <= ch.len() {
                    s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    s.push('=');
                }
            }
        }
        s
    }

    fn no_files(uri: &str) -> Result<Vec<u8>, Fault> {
        Err(Fault::syntax("", format!("no file {uri}")))
    }

    #[test]
    fn embedded_triangle_with_node_transform() {
        let m = parse(
            triangle_gltf("floor", 3).as_bytes(),
            &Budget::default(),
            &no_files,
        )
        .unwrap();
        assert_eq!(m.mesh.triangles, vec![[0, 1, 2]]);
        assert_eq!(m.mesh.vertices[1], Vec3::new(11., 0., 0.));
    }

    #[test]
    fn water_nodes_become_volumes() {
        let e = parse(
            triangle_gltf("Water", 3).as_bytes(),
            &Budget::default(),
            &no_files,
        )
        .unwrap_err();
        assert_eq!(e.problem, "the mesh has no solid triangles");
    }

    #[test]
    fn accessor_past_its_view_is_refused() {
        let e = parse(
            triangle_gltf("floor", 1000).as_bytes(),
            &Budget::default(),
            &no_files,
        )
        .unwrap_err();
        assert_eq!(e.element, "accessor 0");
        assert!(e.problem.starts_with("needs 12000 bytes"), "{}", e.problem);
    }

    #[test]
    fn position_accessor_out_of_range_is_an_error_not_a_panic() {
        let text = triangle_gltf("floor", 3).replace("\"POSITION\": 0", "\"POSITION\": 7");
        let e = parse(text.as_bytes(), &Budget::default(), &no_files).unwrap_err();
        assert_eq!(
            (e.element.as_str(), e.problem.as_str()),
            ("mesh 0 primitive 0", "refers to accessor 7 but there are 1")
        );
    }

    #[test]
    fn base64_round_trip() {
        let data: Vec<u8> = (0..=255).collect();
        for n in [0, 1, 2, 3, 100, 256] {
            assert_eq!(
                base64_decode(&base64_encode(&data[..n])).unwrap(),
                data[..n]
            );
        }
        assert!(base64_decode("ab$c").is_none());
    }

    #[test]
    fn strips_and_fans() {
        assert_eq!(
            triangles(Mode::TriangleStrip, &[0, 1, 2, 3]),
            vec![[0, 1, 2], [2, 1, 3]]
        );
        assert_eq!(
            triangles(Mode::TriangleFan, &[0, 1, 2, 3]),
            vec![[0, 1, 2], [0, 2, 3]]
        );
        assert!(triangles(Mode::Lines, &[0, 1]).is_empty());
    }
}
