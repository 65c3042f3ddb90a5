//! The screens of the game, as states. Each screen's panels are drawn by the HUD (view);
//! what changes screens lives here and in the session, so it runs headless too.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>().add_sub_state::<BattleView>();
}

/// The screen on show.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    /// Choose a battle and who plays each side.
    Setup,
    Battle,
    Result,
    Settings,
    /// Save and load.
    Saves,
    /// Step through a saved battle.
    Replay,
}

/// Within a battle: playing, or the hand-over between two people at one screen.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Battle)]
pub enum BattleView {
    #[default]
    Playing,
    /// The board is hidden until the next player says they are ready.
    HandOver,
}
