//! The click tools, as RecastDemo has them: one tool is active, chosen on
//! the toolbar or with a key, and decides what a plain click in the scene
//! does. Modifier clicks work under every tool.
//!
//! | input | inspect tool | probe tool | why tool |
//! |---|---|---|---|
//! | click | select and inspect the element under the cursor | set the start, then the goal, alternately | ask why the point under the cursor is (not) on the NavMesh ([`crate::why`]) |
//! | Shift+click | set the probe's goal | set the goal | set the goal |
//! | Ctrl+click | set the probe's start | set the start | set the start |
//! | drag a marker | move it; the path follows | the same | the same |
//! | P | switch to the probe tool | back to inspect | switch to the probe tool |
//! | W | switch to the why tool | switch to the why tool | back to inspect |
//! | Esc | clear the probe, the selection and the why answer | back to inspect | back to inspect |

use bevy::prelude::*;

use crate::model::timeline::UiFocus;
use crate::probe::Probe;

/// The tool a plain click uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tool {
    /// Click selects the element under the cursor.
    #[default]
    Inspect,
    /// Clicks place the probe's start and goal.
    Probe,
    /// Click asks why the point is (not) on the NavMesh (#39, "why not
    /// here").
    Why,
}

impl Tool {
    /// Its name, as the toolbar and the automation report say it.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Inspect => "inspect",
            Tool::Probe => "probe",
            Tool::Why => "why",
        }
    }
}

/// Which probe point a plain click of the probe tool places next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ProbePoint {
    /// The start.
    #[default]
    Start,
    /// The goal.
    Goal,
}

impl ProbePoint {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            ProbePoint::Start => "start",
            ProbePoint::Goal => "goal",
        }
    }
}

/// What a click does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClickAction {
    /// Select the element under the cursor.
    Select,
    /// Put the probe's start at the point under the cursor.
    SetStart,
    /// Put the probe's goal there.
    SetGoal,
    /// Ask why the point under the cursor is (not) on the NavMesh.
    AskWhy,
}

/// The active tool and the probe tool's next point.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Tools {
    /// The active tool.
    pub tool: Tool,
    /// The point the probe tool's next plain click places.
    pub next: ProbePoint,
}

impl Tools {
    /// What a click with these modifiers does, and the tool state after it.
    pub fn click(&mut self, shift: bool, ctrl: bool) -> ClickAction {
        if shift {
            return ClickAction::SetGoal;
        }
        if ctrl {
            return ClickAction::SetStart;
        }
        match (self.tool, self.next) {
            (Tool::Inspect, _) => ClickAction::Select,
            (Tool::Why, _) => ClickAction::AskWhy,
            (Tool::Probe, ProbePoint::Start) => {
                self.next = ProbePoint::Goal;
                ClickAction::SetStart
            }
            (Tool::Probe, ProbePoint::Goal) => {
                self.next = ProbePoint::Start;
                ClickAction::SetGoal
            }
        }
    }

    /// Makes `tool` the active one; entering the probe tool starts with the
    /// start when none is set yet, else with the goal.
    pub fn choose(&mut self, tool: Tool, has_start: bool) {
        if tool == Tool::Probe && self.tool != Tool::Probe {
            self.next = if has_start {
                ProbePoint::Goal
            } else {
                ProbePoint::Start
            };
        }
        self.tool = tool;
    }
}

/// Keeps the tools (no renderer needed).
pub struct ToolPlugin;

impl Plugin for ToolPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Tools>().add_systems(Update, tool_keys);
    }
}

fn tool_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    focus: Res<UiFocus>,
    mut tools: ResMut<Tools>,
    mut probe: ResMut<Probe>,
    mut selection: ResMut<crate::model::selection::Selection>,
    mut why: ResMut<crate::why::WhyTool>,
) {
    let Some(keys) = keys else { return };
    if focus.keyboard {
        return;
    }
    // P and W each toggle their tool against inspect.
    for (key, tool) in [(KeyCode::KeyP, Tool::Probe), (KeyCode::KeyW, Tool::Why)] {
        if keys.just_pressed(key) {
            let next = if tools.tool == tool {
                Tool::Inspect
            } else {
                tool
            };
            let has_start = probe.start.is_some();
            tools.choose(next, has_start);
        }
    }
    if keys.just_pressed(KeyCode::Escape) {
        if tools.tool != Tool::Inspect {
            tools.tool = Tool::Inspect;
        } else {
            probe.clear();
            selection.0 = None;
            why.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_tool_alternates_and_modifiers_override() {
        let mut t = Tools::default();
        assert_eq!(t.click(false, false), ClickAction::Select);
        t.choose(Tool::Probe, false);
        assert_eq!(t.click(false, false), ClickAction::SetStart);
        assert_eq!(t.click(false, false), ClickAction::SetGoal);
        assert_eq!(t.click(false, false), ClickAction::SetStart);
        // Modifiers do not advance the alternation.
        assert_eq!(t.click(true, false), ClickAction::SetGoal);
        assert_eq!(t.click(false, true), ClickAction::SetStart);
        assert_eq!(t.click(false, false), ClickAction::SetGoal);
        t.choose(Tool::Inspect, true);
        assert_eq!(t.click(false, false), ClickAction::Select);
        assert_eq!(t.click(false, true), ClickAction::SetStart);
        // Re-entering with a start already set places the goal first.
        t.choose(Tool::Probe, true);
        assert_eq!(t.click(false, false), ClickAction::SetGoal);
        // The why tool asks on a plain click; modifiers still place points.
        t.choose(Tool::Why, true);
        assert_eq!(t.click(false, false), ClickAction::AskWhy);
        assert_eq!(t.click(false, false), ClickAction::AskWhy);
        assert_eq!(t.click(true, false), ClickAction::SetGoal);
    }
}
