//! Room for the board: which of a scene's side panels are open (each toggled by its key and its
//! button), and how wide they are — fixed widths from the window's size, never widened by what
//! they hold (an army's long list scrolls, it does not push the board aside). Headless; the
//! panels are drawn by `hud::frame`.

use crate::input::{Controls, KeyBindings, ShellAction, TypingText, just_pressed};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelsShown>().add_systems(
        Update,
        toggle_keys.in_set(crate::AppSystems::Input).run_if(in_state(crate::screens::Screen::Playing)),
    );
}

/// The side panels open now.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelsShown {
    pub left: bool,
    pub right: bool,
    pub log: bool,
}

impl Default for PanelsShown {
    fn default() -> Self {
        PanelsShown { left: true, right: true, log: true }
    }
}

/// The panels' sizes for a window (logical pixels): a share of it, within bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PanelSizes {
    pub left: f32,
    pub right: f32,
    /// The log's height along the foot.
    pub log: f32,
}

/// UI limits of the side panels (logical pixels): the left panel, the right and the log take
/// these shares of the window, between these bounds.
const LEFT: (f32, f32, f32) = (0.17, 220.0, 290.0);
const RIGHT: (f32, f32, f32) = (0.19, 240.0, 320.0);
const LOG: (f32, f32, f32) = (0.15, 96.0, 150.0);

impl PanelSizes {
    pub fn for_window(window: Vec2) -> PanelSizes {
        let share = |len: f32, (s, min, max): (f32, f32, f32)| (len * s).clamp(min, max);
        PanelSizes { left: share(window.x, LEFT), right: share(window.x, RIGHT), log: share(window.y, LOG) }
    }
}

fn toggle_keys(
    controls: Query<&ActionState<ShellAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    mode: Option<Res<State<crate::screens::Mode>>>,
    mut shown: ResMut<PanelsShown>,
) {
    let Ok(actions) = controls.single() else { return };
    if typing.0 {
        return;
    }
    let pressed = |a: ShellAction| just_pressed(actions, keys.as_deref(), &bindings, a);
    if pressed(ShellAction::ToggleLeftPanel) {
        shown.left = !shown.left;
    }
    if pressed(ShellAction::ToggleRightPanel) {
        shown.right = !shown.right;
    }
    // In the Great War the key opens the whole log over the board (`great_war::summary`); the
    // foot log keeps its place (its own button folds it). Elsewhere it shows or hides the log.
    let whole_log_instead = mode.is_some_and(|m| *m.get() == crate::screens::Mode::GreatWar);
    if pressed(ShellAction::ToggleLog) && !whole_log_instead {
        shown.log = !shown.log;
    }
}
