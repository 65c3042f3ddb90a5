//! Help that serves every scene: the legend of the board's marks (opened by a key or a button,
//! and once by itself on the first game a player starts, remembered in the settings), and the
//! keys of the replay viewer. This part decides and runs headless; the legend window is drawn by
//! `hud::legend` from what the scene supplies.

use crate::input::{ActionSet, Controls, KeyBindings, ShellAction, TypingText, just_pressed};
use crate::screens::Screen;
use crate::settings::Settings;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    crate::input::bind::<HelpAction>(app);
    app.init_resource::<LegendWindow>()
        .add_message::<LegendCommand>()
        .add_message::<StartTutorial>()
        .add_message::<StartGwTutorial>()
        .init_resource::<TutorialAsked>()
        .add_systems(OnEnter(Screen::Playing), first_start)
        .add_systems(Update, note_tutorials)
        .add_systems(Update, (keys_to_commands, follow_commands).chain().in_set(crate::AppSystems::Logic));
}

/// Help's keys, the same in every scene.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum HelpAction {
    /// Open or close the legend of the board's marks.
    OpenLegend,
    /// Replay viewer: the next order.
    ReplayNextOrder,
    /// Replay viewer: back one order.
    ReplayPreviousOrder,
    /// Replay viewer: the end of the next turn.
    ReplayNextTurn,
    /// Replay viewer: back to the end of the previous turn.
    ReplayPreviousTurn,
    /// Show or hide the frame time (`hud::frame_stats`, issue 30). One of help's keys rather than
    /// a set of its own: each action set is a whole input plugin in the browser's download.
    ToggleFrameStats,
}

impl ActionSet for HelpAction {
    const KEYED: &'static [HelpAction] = &[
        HelpAction::OpenLegend,
        HelpAction::ReplayNextOrder,
        HelpAction::ReplayPreviousOrder,
        HelpAction::ReplayNextTurn,
        HelpAction::ReplayPreviousTurn,
        HelpAction::ToggleFrameStats,
    ];

    fn name(self) -> &'static str {
        match self {
            HelpAction::OpenLegend => "OpenLegend",
            HelpAction::ReplayNextOrder => "ReplayNextOrder",
            HelpAction::ReplayPreviousOrder => "ReplayPreviousOrder",
            HelpAction::ReplayNextTurn => "ReplayNextTurn",
            HelpAction::ReplayPreviousTurn => "ReplayPreviousTurn",
            HelpAction::ToggleFrameStats => "ToggleFrameStats",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            HelpAction::OpenLegend => &[F2],
            HelpAction::ReplayNextOrder => &[Period],
            HelpAction::ReplayPreviousOrder => &[Comma],
            HelpAction::ReplayNextTurn => &[PageDown],
            HelpAction::ReplayPreviousTurn => &[PageUp],
            HelpAction::ToggleFrameStats => &[F8],
        }
    }
}

/// Start the tutorial (the title screen's button; the battle scene plays it).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartTutorial;

/// Start the Great War's tutorial (the title screen's button; the Great War scene plays it).
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartGwTutorial;

/// Whether the legend is on show.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegendWindow {
    pub open: bool,
}

/// What a person asks of the legend (the key, the top bar's button, the window's close box).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegendCommand {
    Toggle,
    Close,
}

/// Whether a help key was pressed this frame (never while a text field has the keyboard).
pub fn help_pressed(
    controls: &Query<&ActionState<HelpAction>, With<Controls>>,
    keys: Option<&ButtonInput<KeyCode>>,
    bindings: &KeyBindings,
    typing: &TypingText,
    action: HelpAction,
) -> bool {
    let Ok(actions) = controls.single() else { return false };
    !typing.0 && just_pressed(actions, keys, bindings, action)
}

fn keys_to_commands(
    controls: Query<&ActionState<HelpAction>, With<Controls>>,
    shell: Query<&ActionState<ShellAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    typing: Res<TypingText>,
    window: Res<LegendWindow>,
    mut out: MessageWriter<LegendCommand>,
) {
    if help_pressed(&controls, keys.as_deref(), &bindings, &typing, HelpAction::OpenLegend) {
        out.write(LegendCommand::Toggle);
    } else if window.open
        && shell.single().is_ok_and(|a| just_pressed(a, keys.as_deref(), &bindings, ShellAction::Cancel))
    {
        // Esc closes the legend, as it closes the rules window.
        out.write(LegendCommand::Close);
    }
}

fn follow_commands(mut commands: MessageReader<LegendCommand>, mut window: ResMut<LegendWindow>) {
    for command in commands.read() {
        window.open = match command {
            LegendCommand::Toggle => !window.open,
            LegendCommand::Close => false,
        };
    }
}

/// A tutorial was asked for: the game it starts opens without the legend (the tutorial's own
/// window explains, and the legend would cover the panel it points at).
#[derive(Resource, Default)]
struct TutorialAsked(bool);

fn note_tutorials(
    mut battle: MessageReader<StartTutorial>,
    mut great_war: MessageReader<StartGwTutorial>,
    mut asked: ResMut<TutorialAsked>,
) {
    if battle.read().count() + great_war.read().count() > 0 {
        asked.0 = true;
    }
}

/// The first game a player starts shows the legend once; the settings remember it was shown.
/// A tutorial's game does not count: the legend waits for the first game after it.
fn first_start(
    mut settings: ResMut<Settings>,
    mut window: ResMut<LegendWindow>,
    mut tutorial: ResMut<TutorialAsked>,
    (mut battle, mut great_war): (MessageReader<StartTutorial>, MessageReader<StartGwTutorial>),
) {
    // Asked this frame or the last (a game that starts at once), or earlier (noted in Update).
    let now = battle.read().count() + great_war.read().count() > 0;
    if std::mem::take(&mut tutorial.0) || now {
        return;
    }
    if !settings.legend_seen {
        window.open = true;
        settings.legend_seen = true;
    }
}
