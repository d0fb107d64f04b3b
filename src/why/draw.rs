//! Draws the why tool's answer in the scene: a cross at the point asked
//! about and the things the answer and each stance's answer name, as
//! outlines (a triangle, every face of a brush, an obstacle pixel), or a
//! line to a wall met with no outline and a cross on it, in front of
//! everything, as one retained gizmo made again when the answer changes.

use bevy::prelude::*;

use crate::build::StageSystems;
use crate::why::WhyTool;

/// Colour of the point asked about and of the thing named (sRGB; far from
/// the stances', the links' and the probe's colours).
pub const WHY_COLOR: [u8; 3] = [255, 0, 110];

/// Marks the entity that draws the answer.
#[derive(Component, Debug, Clone, Copy)]
pub struct WhyVisual;

/// Draws the answer (needs the renderer's gizmos).
pub struct WhyDrawPlugin;

impl Plugin for WhyDrawPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, redraw.after(StageSystems));
    }
}

fn srgb([r, g, b]: [u8; 3]) -> Color {
    Color::srgb_u8(r, g, b)
}

/// A cross of half-size `r` at `p` in the floor's plane, with a tick up.
fn cross(asset: &mut GizmoAsset, p: Vec3, r: f32, c: Color) {
    asset.line(p - Vec3::X * r, p + Vec3::X * r, c);
    asset.line(p - Vec3::Z * r, p + Vec3::Z * r, c);
    asset.line(p, p + Vec3::Y * r, c);
}

fn redraw(
    mut commands: Commands,
    why: Res<WhyTool>,
    current: Res<crate::level::CurrentLevel>,
    old: Query<Entity, With<WhyVisual>>,
    mut assets: ResMut<Assets<GizmoAsset>>,
    mut drawn: Local<Option<u64>>,
) {
    if *drawn == Some(why.revision) {
        return;
    }
    *drawn = Some(why.revision);
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(at) = why.at else {
        return;
    };
    // Sized to the level (a Quake map is hundreds of metres across).
    let r = (current.extent() * 0.01).clamp(0.15, 2.0);
    let mut asset = GizmoAsset::new();
    let c = srgb(WHY_COLOR);
    cross(&mut asset, at, r, c);
    let answer = why.answer.as_ref().filter(|a| a.at.as_vec3() == at);
    let outlines = answer
        .into_iter()
        .flat_map(|a| std::iter::once(&a.shape).chain(a.stances.iter().map(|s| &s.shape)))
        .flatten();
    for outline in outlines {
        let ring: Vec<Vec3> = outline.iter().map(|p| p.as_vec3()).collect();
        match ring.as_slice() {
            [] => {}
            [p] => {
                asset.line(at, *p, c);
                cross(&mut asset, *p, r * 0.6, c);
            }
            ring => {
                for (i, p) in ring.iter().enumerate() {
                    asset.line(*p, ring[(i + 1) % ring.len()], c);
                }
            }
        }
    }
    commands.spawn((
        WhyVisual,
        Gizmo {
            handle: assets.add(asset),
            line_config: GizmoLineConfig {
                width: 4.0,
                ..default()
            },
            // In front of the level and the stages.
            depth_bias: -1.0,
        },
        Transform::default(),
    ));
}
