//! Sample meshes for tests, benchmarks and the CLI's NavMesh sample.

use glam::DVec3;
use navscope_core::{LinkKind, NavMesh, Stance};

/// A flat (y = 0) NavMesh of 1 m square cells: `w` cells along +X and `h`
/// along +Z, cell `(i, j)` covering `x` in `[i, i + 1]` and `z` in `[j, j + 1]`.
///
/// Cells for which `blocked(i, j)` is true are left out. The others become
/// standing nodes on layer 0, numbered row by row (`j` outer, `i` inner),
/// with the cell centre as position and the square as polygon
/// (counter-clockwise seen from above). Every pair of open 4-neighbours is
/// joined by two `portal` links of cost 1 whose segment is the shared side.
///
/// Memory grows with `w * h`; callers choose the size.
pub fn grid_mesh(w: usize, h: usize, blocked: impl Fn(usize, usize) -> bool) -> NavMesh {
    let mut mesh = NavMesh::new("sample", &format!("grid {w}x{h}"));
    let mut id = vec![None; w * h];
    for j in 0..h {
        for i in 0..w {
            if blocked(i, j) {
                continue;
            }
            let (x, z) = (i as f64, j as f64);
            // Plan (x, -z) order (x, -z-1) (x+1, -z-1) (x+1, -z) (x, -z) is CCW.
            let polygon = vec![
                DVec3::new(x, 0.0, z + 1.0),
                DVec3::new(x + 1.0, 0.0, z + 1.0),
                DVec3::new(x + 1.0, 0.0, z),
                DVec3::new(x, 0.0, z),
            ];
            id[j * w + i] = Some(mesh.add_node(
                DVec3::new(x + 0.5, 0.0, z + 0.5),
                Some(polygon),
                Stance::Stand,
                0,
            ));
        }
    }
    for j in 0..h {
        for i in 0..w {
            let Some(a) = id[j * w + i] else { continue };
            let (x, z) = (i as f64, j as f64);
            if i + 1 < w
                && let Some(b) = id[j * w + i + 1]
            {
                let seg = [
                    DVec3::new(x + 1.0, 0.0, z),
                    DVec3::new(x + 1.0, 0.0, z + 1.0),
                ];
                mesh.add_two_way(a, b, LinkKind::Portal, 1.0, Some(seg));
            }
            if j + 1 < h
                && let Some(b) = id[(j + 1) * w + i]
            {
                let seg = [
                    DVec3::new(x, 0.0, z + 1.0),
                    DVec3::new(x + 1.0, 0.0, z + 1.0),
                ];
                mesh.add_two_way(a, b, LinkKind::Portal, 1.0, Some(seg));
            }
        }
    }
    mesh.metrics.insert("cells".into(), mesh.nodes.len() as f64);
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_has_the_cells_links_and_winding_of_the_contract() {
        let m = grid_mesh(3, 2, |i, j| i == 1 && j == 0);
        assert!(m.validate().is_ok());
        assert_eq!(m.nodes.len(), 5);
        // Horizontal pairs (0,1)-(1,1), (1,1)-(2,1); vertical (0,0)-(0,1), (2,0)-(2,1).
        assert_eq!(m.links.len(), 8);
        for n in &m.nodes {
            let p = n.polygon.as_ref().unwrap();
            let s: f64 = (0..4)
                .map(|k| p[k].x * p[(k + 1) % 4].z - p[(k + 1) % 4].x * p[k].z)
                .sum();
            assert!(s < 0.0, "node {} is not CCW seen from above", n.id);
        }
        assert_eq!(m.nodes[1].position, DVec3::new(2.5, 0.0, 0.5));
        assert!(
            m.links
                .iter()
                .all(|l| l.kind == LinkKind::Portal && l.segment.is_some())
        );
    }

    #[test]
    fn empty_grids() {
        assert!(grid_mesh(0, 5, |_, _| false).nodes.is_empty());
        assert!(grid_mesh(4, 4, |_, _| true).nodes.is_empty());
    }
}
