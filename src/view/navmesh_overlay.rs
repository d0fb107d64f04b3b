//! The "NavMesh" overlay, as RecastDemo draws it: the final NavMesh of the
//! build on screen (the last stage that made one) over whatever stage the
//! timeline shows, its polygons filled in their stance's colour and its
//! links drawn, so every stage can be read against the result it leads to.
//! On by default; the view panel's "NavMesh" checkbox and the N key switch
//! it. Made again only when a build is published, the toggle, the legend
//! or the view's filters change.

use bevy::prelude::*;
use navscope_core::draw::{Primitive, Shape};
use navscope_core::navmesh::NavMesh;

use crate::build::Build;
use crate::model::band::ViewFilter;
use crate::model::selection::Legend;
use crate::model::timeline::UiFocus;
use crate::view::draw::VisualAssets;
use crate::view::scene::ViewSettings;

/// Draws the overlay (needs the renderer).
pub struct NavMeshOverlayPlugin;

impl Plugin for NavMeshOverlayPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NavMeshShown>()
            .add_systems(Update, (toggle_key, draw_overlay).chain());
    }
}

/// Whether the final NavMesh is drawn now (the overlay is on and the build
/// on screen has a NavMesh), for the state report's `view.navmesh`, and the
/// kinds it draws, for the legend.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct NavMeshShown {
    /// The overlay is drawn.
    pub on: bool,
    /// The kinds it draws (those switched off in the legend included).
    pub kinds: std::collections::BTreeSet<String>,
}

/// Marks the overlay's drawing.
#[derive(Component, Clone)]
struct NavMeshVisual;

/// Depth step of the overlay's fill: the first stage's, so it lies over
/// the level and under the fills of the stage on screen (which stay
/// readable in their own colours, the final stage's included).
const FRONT: usize = 0;

/// How far above its polygons the overlay is drawn, as a share of the
/// level's size: enough to sit over the stage's own surface of the same
/// polygons without flickering into it.
const LIFT: f32 = 0.0015;

/// The primitive kind of a node of stance `stance`.
pub fn node_kind(stance: navscope_core::navmesh::Stance) -> &'static str {
    use navscope_core::navmesh::Stance;
    match stance {
        Stance::Stand => "navmesh/stand",
        Stance::Crouch => "navmesh/crouch",
        Stance::Prone => "navmesh/prone",
        Stance::Swim => "navmesh/swim",
        Stance::Sidestep => "navmesh/sidestep",
    }
}

/// The primitive kind of the overlay's links.
pub const LINK_KIND: &str = "navmesh/link";

/// A NavMesh as drawable primitives: each polygon node filled in its
/// stance's kind, a point node as a dot, each link as a segment between its
/// ends (its own segment where it has one), all raised by `lift`. Element =
/// node index for nodes, link index for links.
pub fn navmesh_primitives(mesh: &NavMesh, lift: f32) -> Vec<Primitive> {
    let up = Vec3::Y * lift;
    let mut out = Vec::with_capacity(mesh.nodes.len() + mesh.links.len());
    for (i, n) in mesh.nodes.iter().enumerate() {
        let kind = node_kind(n.stance);
        let shape = match &n.polygon {
            Some(ring) if ring.len() >= 3 => Shape::Polygon {
                outer: ring.iter().map(|p| p.as_vec3() + up).collect(),
                holes: Vec::new(),
            },
            _ => Shape::Point(n.position.as_vec3() + up),
        };
        out.push(Primitive::new(kind, i as u32, shape));
    }
    for (i, l) in mesh.links.iter().enumerate() {
        let ends = match &l.segment {
            Some(s) => Some((s[0].as_vec3(), s[1].as_vec3())),
            None => mesh
                .nodes
                .get(l.from as usize)
                .zip(mesh.nodes.get(l.to as usize))
                .map(|(a, b)| (a.position.as_vec3(), b.position.as_vec3())),
        };
        if let Some((a, b)) = ends {
            out.push(Primitive::new(
                LINK_KIND,
                i as u32,
                Shape::Segment(a + up, b + up),
            ));
        }
    }
    out
}

fn toggle_key(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut view: ResMut<ViewSettings>,
) {
    let Some(keys) = keys else { return };
    if !focus.keyboard && keys.just_pressed(KeyCode::KeyN) {
        view.navmesh = !view.navmesh;
    }
}

/// What the drawing was made from: the build's publish count, the toggle.
type Drawn = (u64, bool);

#[allow(clippy::too_many_arguments)]
fn draw_overlay(
    mut commands: Commands,
    build: Res<Build>,
    view: Res<ViewSettings>,
    filter: Res<ViewFilter>,
    mut legend: ResMut<Legend>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<NavMeshVisual>>,
    mut assets: VisualAssets,
    mut shown: ResMut<NavMeshShown>,
    mut drawn: Local<Option<Drawn>>,
) {
    let key = (build.published, view.navmesh);
    if *drawn == Some(key) && !filter.is_changed() && !legend.is_changed() {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let mesh = build
        .runner()
        .and_then(|r| r.stamped_navmesh())
        .map(|s| s.mesh);
    let on = view.navmesh && mesh.is_some_and(|m| !m.nodes.is_empty());
    let Some(mesh) = mesh.filter(|_| on) else {
        shown.set_if_neq(NavMeshShown::default());
        return;
    };
    let unit = current.extent();
    let mut prims = navmesh_primitives(mesh, LIFT * unit);
    let mut kinds = std::collections::BTreeSet::new();
    for p in &prims {
        if !kinds.contains(p.kind.as_ref()) {
            kinds.insert(p.kind.to_string());
        }
    }
    // Every kind it draws has a legend row (with the colour it is drawn
    // in), and a kind switched off there is left out.
    for k in &kinds {
        if !legend.kinds.contains_key(k) {
            let c = crate::model::style::style_for(k).color;
            legend.bypass_change_detection().kinds.insert(k.clone(), c);
        }
    }
    shown.set_if_neq(NavMeshShown { on, kinds });
    prims.retain(|p| !legend.hidden.contains(p.kind.as_ref()));
    crate::view::draw::spawn_overlay(
        &mut commands,
        &prims,
        unit,
        &filter,
        FRONT,
        &mut assets,
        NavMeshVisual,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::DVec3;
    use navscope_core::navmesh::{Link, LinkKind, Stance};

    fn square(x: f64) -> Vec<DVec3> {
        vec![
            DVec3::new(x, 0.0, 0.0),
            DVec3::new(x, 0.0, 1.0),
            DVec3::new(x + 1.0, 0.0, 1.0),
            DVec3::new(x + 1.0, 0.0, 0.0),
        ]
    }

    #[test]
    fn every_node_and_link_is_drawn_in_its_stance_kind_above_its_polygon() {
        let mut mesh = NavMesh::new("test", "test");
        mesh.add_node(
            DVec3::new(0.5, 0.0, 0.5),
            Some(square(0.0)),
            Stance::Stand,
            0,
        );
        mesh.add_node(
            DVec3::new(1.5, 0.0, 0.5),
            Some(square(1.0)),
            Stance::Crouch,
            0,
        );
        mesh.add_node(DVec3::new(5.0, 0.0, 0.0), None, Stance::Stand, 0);
        mesh.links = vec![Link::new(0, 1, LinkKind::Walk, 1.0, None)];
        let prims = navmesh_primitives(&mesh, 0.25);
        let kinds: Vec<&str> = prims.iter().map(|p| p.kind.as_ref()).collect();
        assert_eq!(
            kinds,
            [
                "navmesh/stand",
                "navmesh/crouch",
                "navmesh/stand",
                LINK_KIND
            ]
        );
        assert!(matches!(&prims[0].shape, Shape::Polygon { outer, .. }
            if outer.len() == 4 && outer.iter().all(|p| (p.y - 0.25).abs() < 1e-6)));
        assert!(matches!(prims[2].shape, Shape::Point(p) if (p.y - 0.25).abs() < 1e-6));
        // A link without its own segment joins its nodes' positions.
        assert!(matches!(prims[3].shape, Shape::Segment(a, b)
            if (a.x - 0.5).abs() < 1e-6 && (b.x - 1.5).abs() < 1e-6));
    }

    #[test]
    fn a_link_to_a_missing_node_is_left_out() {
        let mut mesh = NavMesh::new("test", "test");
        mesh.add_node(
            DVec3::new(0.5, 0.0, 0.5),
            Some(square(0.0)),
            Stance::Stand,
            0,
        );
        mesh.links = vec![Link::new(0, 7, LinkKind::Walk, 1.0, None)];
        assert_eq!(navmesh_primitives(&mesh, 0.0).len(), 1);
    }
}
