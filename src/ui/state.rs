//! What the panels read and change ([`UiState`]), and what they keep
//! between frames ([`PanelState`]).

use crate::build::Build;
use crate::edit::history::History;
use crate::edit::history::HistoryCommand;
use crate::edit::params::ParamCommand;
use crate::interact::pointer::ScenePointer;
use crate::interact::tool::Tools;
use crate::level::CurrentLevel;
use crate::level::HotReload;
use crate::level::LevelRequest;
use crate::level::Loading;
use crate::level::Settings;
use crate::model::elements::StageGeometry;
use crate::model::elements::StageRoot;
use crate::model::index::ElementIndex;
use crate::model::journal::Journal;
use crate::model::selection::Hover;
use crate::model::selection::Legend;
use crate::model::selection::Selection;
use crate::model::timeline::Timeline;
use crate::model::timeline::UiFocus;
use crate::probe::Probe;
use crate::probe::ProbeSearch;
use crate::probe::draw::ProbeLayers;
use crate::ui::dialogs::Dialogs;
use crate::ui::dialogs::FileAction;
use crate::ui::frames::FrameStats;
use crate::ui::widget_report::UiReport;
use crate::view::scene::ViewSettings;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;

/// Which optional windows are open.
#[derive(Resource, Debug, Default)]
pub struct PanelState {
    /// The F1 shortcuts window.
    pub help: bool,
    /// The inspected element's description, cached per build.
    pub(crate) inspected: Option<(Selection, u64, serde_json::Value)>,
    /// The height slice being edited in the View panel.
    pub(crate) slice_edit: Option<crate::model::band::HeightBand>,
    /// The pipelines that accept the open level, listed once per level
    /// revision (listing builds every pipeline's description).
    pub(crate) pipelines: Option<(u64, Vec<std::sync::Arc<navscope_core::Pipeline>>)>,
    /// The size typed in Edit > Memory budget, while it is edited.
    pub(crate) budget_text: Option<String>,
    /// Why the typed size was not taken.
    pub(crate) budget_error: Option<String>,
    /// The error notice over the view and the log's opening.
    pub(crate) notice: NoticeState,
}

/// What the error notice (`ui::notice`) keeps between frames.
#[derive(Debug, Default)]
pub(crate) struct NoticeState {
    /// The journal's error count already noticed.
    pub(crate) seen_errors: u64,
    /// The error on show, until dismissed.
    pub(crate) error: Option<String>,
    /// The log should open and scroll into sight (a new error).
    pub(crate) open_log: bool,
}

/// The text of the probe's typed point fields while they are edited.
#[derive(bevy::prelude::Resource, Debug, Default)]
pub struct ProbeFields {
    /// What is typed in the start's and the goal's field, while editing.
    pub(crate) text: [Option<String>; 2],
    /// Why the last typed point was not taken.
    pub(crate) error: Option<String>,
}

/// Everything the panels read and change.
#[derive(SystemParam)]
pub struct UiState<'w, 's> {
    pub(crate) current: Res<'w, CurrentLevel>,
    pub(crate) loading: Res<'w, Loading>,
    pub(crate) settings: Res<'w, Settings>,
    pub(crate) limit: Res<'w, crate::level::budget::MemoryLimit>,
    pub(crate) hot: ResMut<'w, HotReload>,
    pub(crate) build: ResMut<'w, Build>,
    pub(crate) timeline: ResMut<'w, Timeline>,
    pub(crate) legend: ResMut<'w, Legend>,
    pub(crate) filter: ResMut<'w, crate::model::band::ViewFilter>,
    pub(crate) selection: ResMut<'w, Selection>,
    pub(crate) probe: ResMut<'w, Probe>,
    pub(crate) probe_layers: ResMut<'w, ProbeLayers>,
    pub(crate) probe_search: Res<'w, ProbeSearch>,
    pub(crate) tools: ResMut<'w, Tools>,
    pub(crate) hover: Res<'w, Hover>,
    pub(crate) pointer: Res<'w, ScenePointer>,
    pub(crate) history: Res<'w, History>,
    pub(crate) journal: Res<'w, Journal>,
    pub(crate) view: ResMut<'w, ViewSettings>,
    pub(crate) stats: ResMut<'w, FrameStats>,
    pub(crate) panel: ResMut<'w, PanelState>,
    pub(crate) focus: ResMut<'w, UiFocus>,
    pub(crate) dialogs: ResMut<'w, Dialogs>,
    pub(crate) report: ResMut<'w, UiReport>,
    pub(crate) voxel_detail: Res<'w, crate::view::cubes::VoxelDetail>,
    pub(crate) restoring: Res<'w, crate::view::residency::RestoringStages>,
    pub(crate) roots: Query<'w, 's, &'static StageGeometry>,
    pub(crate) indexes: Query<'w, 's, (&'static StageRoot, &'static ElementIndex)>,
    pub(crate) compare: ResMut<'w, crate::compare::Compare>,
    pub(crate) navmesh_shown: Res<'w, crate::view::navmesh_overlay::NavMeshShown>,
    pub(crate) compare_commands: MessageWriter<'w, crate::compare::CompareCommand>,
    pub(crate) level_requests: MessageWriter<'w, LevelRequest>,
    pub(crate) param_commands: MessageWriter<'w, ParamCommand>,
    pub(crate) history_commands: MessageWriter<'w, HistoryCommand>,
    pub(crate) exit: MessageWriter<'w, AppExit>,
    pub(crate) restored: Option<ResMut<'w, crate::build::session::Restored>>,
    pub(crate) spots: Res<'w, crate::probe::spots::LevelSpots>,
    pub(crate) probe_fields: ResMut<'w, ProbeFields>,
    pub(crate) why: ResMut<'w, crate::why::WhyTool>,
    pub(crate) islands: ResMut<'w, crate::probe::islands::IslandView>,
    pub(crate) cursor_point: Option<Res<'w, crate::interact::clicks::CursorPoint>>,
}

impl UiState<'_, '_> {
    /// Whether anything the panels show changed since the calling system
    /// last ran, of what changes on its own occasions: a step, a click, a
    /// finished preparation, a log line ([`crate::ui::refresh`] runs the
    /// egui pass only then, on input, or while something is under way).
    /// Left out: what systems poll in every frame (the loading, the build,
    /// the probe and its search, the comparison, the dialogs, the watched
    /// file), which reads as changed in every frame and whose changes come
    /// with work under way ([`crate::ui::pacing::UnderWay`]); and what only
    /// the panels themselves write (the widget report, the input focus
    /// they claim, their own state). The frame readout (F2) shows
    /// per-frame figures, so while it is open every frame counts.
    pub(crate) fn shown_changed(&self) -> bool {
        self.stats.show
            || self.current.is_changed()
            || self.settings.is_changed()
            || self.limit.is_changed()
            || self.timeline.is_changed()
            || self.legend.is_changed()
            || self.filter.is_changed()
            || self.selection.is_changed()
            || self.probe_layers.is_changed()
            || self.tools.is_changed()
            || self.hover.is_changed()
            || self.pointer.is_changed()
            || self.history.is_changed()
            || self.journal.is_changed()
            || self.view.is_changed()
            || self.voxel_detail.is_changed()
            || self.restoring.is_changed()
            || self.why.is_changed()
            || self.islands.is_changed()
    }

    /// Notes where a widget is, for the end-to-end tests.
    pub(crate) fn tag(&mut self, name: &str, r: &egui::Response) {
        self.report.widget(
            name,
            Vec2::new(r.rect.min.x, r.rect.min.y),
            Vec2::new(r.rect.max.x, r.rect.max.y),
        );
    }

    /// Opens the file dialog for `action`, proposing a file name.
    pub(crate) fn ask_file(&mut self, action: FileAction) {
        let name = crate::ui::export::suggested_name(action, &self.current, &self.build);
        self.dialogs.ask(action, &name);
    }
}

/// An egui colour for a style-table colour (kept visible on light ground).
pub(crate) fn color32(c: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
        (c[3].max(0.6) * 255.0) as u8,
    )
}

/// The colour of error text.
pub(crate) const ERROR: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);
