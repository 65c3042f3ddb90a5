//! Every player input is a leafwing action: rebindable, listed in the settings screen.

use crate::settings::Settings;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use rules::tactical::Cell;
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<Action>::default())
        .init_resource::<HoveredCell>()
        .init_resource::<TypingText>()
        .add_systems(Startup, spawn_controls)
        .add_systems(PreUpdate, follow_bindings);
}

/// What a player can do with keys and mouse.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum Action {
    /// Select a unit, or order the selected one to the cell or enemy under the pointer.
    Select,
    /// Drop the selection, close a dialog.
    Cancel,
    /// Answer yes; "ready" on the hand-over screen.
    Confirm,
    EndTurn,
    Undo,
    TurnLeft,
    TurnRight,
    NextUnit,
    Skirmish,
    Reform,
    ToggleCounterVolley,
    ToggleCounterCharge,
    ToggleIntercept,
    Retreat,
    Capitulate,
    PanUp,
    PanDown,
    PanLeft,
    PanRight,
    ZoomIn,
    ZoomOut,
    #[actionlike(Axis)]
    Zoom,
    FitField,
    ToggleLog,
    /// Open or close the rules reference.
    OpenRules,
}

impl Action {
    /// The actions a player can rebind to keys, in the order the settings screen lists them.
    pub const KEYED: [Action; 24] = [
        Action::Confirm,
        Action::Cancel,
        Action::EndTurn,
        Action::Undo,
        Action::TurnLeft,
        Action::TurnRight,
        Action::NextUnit,
        Action::Skirmish,
        Action::Reform,
        Action::ToggleCounterVolley,
        Action::ToggleCounterCharge,
        Action::ToggleIntercept,
        Action::Retreat,
        Action::Capitulate,
        Action::PanUp,
        Action::PanDown,
        Action::PanLeft,
        Action::PanRight,
        Action::ZoomIn,
        Action::ZoomOut,
        Action::FitField,
        Action::ToggleLog,
        Action::OpenRules,
        Action::Select,
    ];

    /// Its name's key in the string tables.
    pub fn key(self) -> String {
        format!("action.{self:?}")
    }
}

/// Keys bound to one action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub action: Action,
    pub keys: Vec<KeyCode>,
}

/// The keys of a new player.
pub fn default_bindings() -> Vec<Binding> {
    use KeyCode::*;
    let b = |action, keys: &[KeyCode]| Binding { action, keys: keys.to_vec() };
    vec![
        b(Action::Select, &[]),
        b(Action::Confirm, &[Enter, NumpadEnter]),
        b(Action::Cancel, &[Escape]),
        b(Action::EndTurn, &[Space]),
        b(Action::Undo, &[KeyZ, Backspace]),
        b(Action::TurnLeft, &[KeyQ]),
        b(Action::TurnRight, &[KeyE]),
        b(Action::NextUnit, &[Tab]),
        b(Action::Skirmish, &[KeyK]),
        b(Action::Reform, &[KeyJ]),
        b(Action::ToggleCounterVolley, &[KeyV]),
        b(Action::ToggleCounterCharge, &[KeyC]),
        b(Action::ToggleIntercept, &[KeyI]),
        b(Action::Retreat, &[KeyR]),
        b(Action::Capitulate, &[KeyP]),
        b(Action::PanUp, &[ArrowUp, KeyW]),
        b(Action::PanDown, &[ArrowDown, KeyS]),
        b(Action::PanLeft, &[ArrowLeft, KeyA]),
        b(Action::PanRight, &[ArrowRight, KeyD]),
        b(Action::ZoomIn, &[Equal, NumpadAdd]),
        b(Action::ZoomOut, &[Minus, NumpadSubtract]),
        b(Action::FitField, &[KeyF]),
        b(Action::ToggleLog, &[KeyL]),
        b(Action::OpenRules, &[F1]),
    ]
}

/// The input map from the player's bindings, plus the mouse.
pub fn input_map(bindings: &[Binding]) -> InputMap<Action> {
    let mut map = InputMap::default();
    for b in bindings {
        for key in &b.keys {
            map.insert(b.action, *key);
        }
    }
    map.insert(Action::Select, MouseButton::Left);
    map.insert(Action::Cancel, MouseButton::Right);
    map.insert_axis(Action::Zoom, MouseScrollAxis::Y);
    map
}

/// The entity that holds the player's controls.
#[derive(Component)]
pub struct Controls;

/// Whether a text field (the rules window's search box) has the keyboard: then keys type, they
/// do not command (set by the panels).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypingText(pub bool);

/// The cell under the pointer (set by the board, or by a test).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoveredCell(pub Option<Cell>);

fn spawn_controls(mut commands: Commands, settings: Res<Settings>) {
    commands.spawn((Name::new("Controls"), Controls, input_map(&settings.bindings)));
}

fn follow_bindings(settings: Res<Settings>, mut maps: Query<&mut InputMap<Action>, With<Controls>>) {
    if settings.is_changed() {
        for mut map in &mut maps {
            *map = input_map(&settings.bindings);
        }
    }
}

/// A key's name for the screen.
pub fn key_name(key: KeyCode) -> String {
    let name = format!("{key:?}");
    name.strip_prefix("Key").or_else(|| name.strip_prefix("Digit")).map_or(name.clone(), str::to_string)
}
