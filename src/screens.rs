//! The screens of the game, as states, shared by every scene (the Napoleonic battle today, the
//! Great War and the campaign next). Each screen's panels are drawn by the menus (shell screens)
//! or by the scene in play; what changes screens lives here, in the session and in the scenes,
//! so it runs headless too.
//!
//! - [`Screen`]: the screen on show. A game in play is [`Screen::Playing`], whatever its scene.
//! - [`Mode`]: which scene a game belongs to (and which scene's systems run).
//! - [`Menu`]: an overlay (settings, saves) that opens over any screen, a running game included,
//!   and returns to it when closed.
//! - [`PlayView`]: within a game, playing or the hand-over between people at one screen.

use crate::input::{Controls, KeyBindings, Rebinding, ShellAction, TypingText, just_pressed};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_state::<Mode>()
        .init_state::<Menu>()
        .add_sub_state::<PlayView>()
        .add_computed_state::<Scene>()
        .init_resource::<SavesMenu>()
        .add_systems(Update, menu_keys.in_set(crate::AppSystems::Logic))
        .add_systems(PreUpdate, close_menu.run_if(state_changed::<Screen>))
        // The title's "Replays" is forgotten when the menu closes: a game's own "Save / load"
        // button only opens the menu, for saving and loading, never for watching over the game.
        .add_systems(OnExit(Menu::Saves), |mut saves: ResMut<SavesMenu>| saves.replay = false);
}

/// The screen on show.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    /// Choose a scenario and who plays each side.
    Setup,
    /// The chosen scenario is being read (the catalogue reads only names and descriptions).
    Loading,
    /// A game in play (its scene is [`Mode`]).
    Playing,
    Result,
    /// Step through a saved game.
    Replay,
}

/// Which war a game belongs to: its scene, and the kind of its saves.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// A Napoleonic battle (the tactical rules).
    #[default]
    Battle,
    /// The Great War (the strategic rules).
    GreatWar,
    /// A Napoleonic campaign (the strategic map with battles fought on the tactical rules).
    Campaign,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Battle, Mode::GreatWar, Mode::Campaign];

    /// Its name in saves, keys and messages.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Battle => "battle",
            Mode::GreatWar => "great_war",
            Mode::Campaign => "campaign",
        }
    }
}

/// A menu open over the screen (and over a running game, which waits under it).
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Menu {
    #[default]
    None,
    Settings,
    /// Save and load (or choose a replay).
    Saves,
    /// Play online: join a seat by its invite (`net::menu`).
    Online,
}

/// Whether the saves menu continues games or opens replays.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavesMenu {
    pub replay: bool,
}

/// The menu keys: the settings or the saves open over the screen (and close again); Esc closes
/// an open menu.
#[allow(clippy::too_many_arguments)]
fn menu_keys(
    controls: Query<&ActionState<ShellAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    rebinding: Res<Rebinding>,
    open: Res<State<Menu>>,
    mut saves: ResMut<SavesMenu>,
    mut menu: ResMut<NextState<Menu>>,
) {
    let Ok(actions) = controls.single() else { return };
    // A key pressed to rebind an action, or typed into a text field, is not a command.
    if typing.0 || rebinding.waiting.is_some() || rebinding.is_changed() {
        return;
    }
    let pressed = |a: ShellAction| just_pressed(actions, keys.as_deref(), &bindings, a);
    let toggle = |m: Menu| if *open.get() == m { Menu::None } else { m };
    if pressed(ShellAction::OpenSettings) {
        menu.set(toggle(Menu::Settings));
    } else if pressed(ShellAction::OpenSaves) {
        saves.replay = false;
        menu.set(toggle(Menu::Saves));
    } else if *open.get() != Menu::None && pressed(ShellAction::Cancel) {
        menu.set(Menu::None);
    }
}

/// Within a game: playing, or the hand-over between people at one screen.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum PlayView {
    #[default]
    Playing,
    /// The board is hidden until the next player says they are ready.
    HandOver,
}

/// The scene on the board: a game in play or a replay, of one [`Mode`]. Board entities are
/// scoped to it with `DespawnOnExit(Scene::..)`, so leaving the game (or the replay) clears them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scene {
    Playing(Mode),
    Replay(Mode),
}

impl ComputedStates for Scene {
    type SourceStates = (Screen, Mode);

    fn compute((screen, mode): (Screen, Mode)) -> Option<Scene> {
        match screen {
            Screen::Playing => Some(Scene::Playing(mode)),
            Screen::Replay => Some(Scene::Replay(mode)),
            _ => None,
        }
    }
}

impl Scene {
    pub fn mode(self) -> Mode {
        match self {
            Scene::Playing(m) | Scene::Replay(m) => m,
        }
    }
}

/// Whether a game of `mode` is in play with no menu over it (then its orders are given).
pub fn playing(mode: Mode) -> impl FnMut(Option<Res<State<Scene>>>, Res<State<Menu>>) -> bool + Clone {
    move |scene: Option<Res<State<Scene>>>, menu: Res<State<Menu>>| {
        scene.is_some_and(|s| *s.get() == Scene::Playing(mode)) && *menu.get() == Menu::None
    }
}

/// A menu closes when the screen under it changes (a game loaded from the saves menu, the title
/// screen after a game).
fn close_menu(mut menu: ResMut<NextState<Menu>>) {
    menu.set(Menu::None);
}
