//! Compare in the headless core: pin the build as B, change a parameter,
//! and the comparison says where only B is walkable; the preset pair saved
//! from that state and loaded into a fresh app gives back A on screen and
//! B pinned.

mod support;

use bevy::prelude::*;
use navscope::app::headless;
use navscope::build::Build;
use navscope::compare::{Compare, CompareCommand};
use navscope::edit::params::ParamCommand;
use navscope::level::LevelRequest;
use navscope_core::ParamValue;
use support::until;

const LEVEL: &str = "assets/levels/floorplan/default.json";

fn voxel_built(app: &App) -> bool {
    let b = app.world().resource::<Build>();
    !b.is_busy() && b.published > 0 && b.pipeline().is_some_and(|p| p.id == "voxel")
}

fn radius(values: Option<&navscope_core::params::ParamValues>) -> Option<f64> {
    match values?.get("stand.radius")? {
        ParamValue::Float(r) => Some(*r),
        _ => None,
    }
}

#[test]
fn pin_change_compare_then_save_and_load_the_preset_pair() {
    let mut app = headless();
    app.world_mut()
        .write_message(LevelRequest::Open(LEVEL.into()));
    app.world_mut()
        .write_message(LevelRequest::Pipeline("voxel".into()));
    until(
        &mut app,
        120,
        "the voxel build of the default level",
        voxel_built,
    );
    let r0 = radius(app.world().resource::<Build>().params()).expect("stand.radius");
    app.world_mut().write_message(CompareCommand::Pin);
    until(&mut app, 30, "the pin", |app| {
        app.world().resource::<Compare>().pinned.is_some()
    });
    let r1 = r0 + 0.3;
    app.world_mut().write_message(ParamCommand::Set(
        "stand.radius".into(),
        ParamValue::Float(r1),
    ));
    // A bigger radius keeps the agent further from every wall: ground only
    // B (the pinned, smaller radius) reaches, and none only A reaches.
    until(
        &mut app,
        120,
        "the comparison of the new build with B",
        |app| {
            let b = app.world().resource::<Build>();
            let c = app.world().resource::<Compare>();
            voxel_built(app)
                && radius(b.params()) == Some(r1)
                && c.result
                    .as_ref()
                    .is_some_and(|r| r.difference.b_only_area() > 10.0)
        },
    );
    let c = app.world().resource::<Compare>();
    let d = &c.result.as_ref().unwrap().difference;
    assert!(d.a_only_area() < 0.01, "A only: {} m²", d.a_only_area());

    let file = std::env::temp_dir().join(format!("navscope-pair-{}.ron", std::process::id()));
    let _ = std::fs::remove_file(&file);
    app.world_mut()
        .write_message(CompareCommand::SavePair(file.clone()));
    until(&mut app, 30, "the preset pair written", |_| file.is_file());

    // A fresh app on the same level, another pipeline on screen.
    let mut again = headless();
    again
        .world_mut()
        .write_message(LevelRequest::Open(LEVEL.into()));
    until(&mut again, 120, "the default level built", |app| {
        let b = app.world().resource::<Build>();
        !b.is_busy() && b.published > 0
    });
    again
        .world_mut()
        .write_message(CompareCommand::LoadPair(file.clone()));
    until(
        &mut again,
        180,
        "A on screen and B pinned from the pair",
        |app| {
            let b = app.world().resource::<Build>();
            let c = app.world().resource::<Compare>();
            voxel_built(app)
                && radius(b.params()) == Some(r1)
                && c.pinned.as_ref().is_some_and(|p| {
                    p.pipeline.id == "voxel" && radius(Some(&p.params)) == Some(r0)
                })
                && c.result
                    .as_ref()
                    .is_some_and(|r| r.difference.b_only_area() > 10.0)
        },
    );
    let _ = std::fs::remove_file(&file);
}
