//! What comes back after a restart: per level file and pipeline, the
//! parameters and the stage on screen are kept in the settings and given
//! back when that file is opened again (the session plugin of the windowed
//! app, here on the headless core).

use bevy::prelude::*;
mod support;

use navscope::app::headless;
use navscope::build::Build;
use navscope::build::session::SessionPlugin;
use navscope::edit::params::ParamCommand;
use navscope::level::{CurrentLevel, LevelRequest, Loading, Settings};
use navscope::model::timeline::Timeline;
use navscope_core::ParamValue;
use support::until;

fn built(app: &App) -> bool {
    let b = app.world().resource::<Build>();
    !app.world().resource::<Loading>().is_loading()
        && app.world().resource::<CurrentLevel>().path.is_some()
        && !b.is_busy()
        && b.published > 0
}

#[test]
fn parameters_and_stage_per_level_come_back_when_the_file_is_opened_again() {
    let level = std::path::PathBuf::from("assets/levels/floorplan/default.json");
    let mut app = headless();
    app.add_plugins(SessionPlugin);
    app.world_mut()
        .write_message(LevelRequest::Open(level.clone()));
    until(&mut app, 120, "the level is built", built);
    app.world_mut()
        .write_message(ParamCommand::Set("tau".into(), ParamValue::Float(7.0)));
    app.world_mut().resource_mut::<Timeline>().set_stage(1);
    until(&mut app, 120, "the edit is built and remembered", |app| {
        let s = app.world().resource::<Settings>();
        built(app)
            && s.params.values().any(|p| p.contains("7"))
            && s.stages.values().any(|v| *v == 1)
    });
    let remembered = {
        let s = app.world().resource::<Settings>();
        (s.params.clone(), s.stages.clone())
    };

    // A new run with those settings opens the same file.
    let mut again = headless();
    again.add_plugins(SessionPlugin);
    {
        let mut s = again.world_mut().resource_mut::<Settings>();
        s.params = remembered.0;
        s.stages = remembered.1;
    }
    again.world_mut().write_message(LevelRequest::Open(level));
    until(
        &mut again,
        120,
        "the restored parameters are built",
        |app| {
            built(app)
                && app
                    .world()
                    .resource::<Build>()
                    .runner()
                    .is_some_and(|r| r.params().float("tau") == 7.0)
        },
    );
    assert_eq!(
        again.world().resource::<Timeline>().current,
        1,
        "the stage comes back"
    );
}
