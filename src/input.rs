//! Every player input is a leafwing action: rebindable, listed in the settings screen.
//!
//! Actions come in sets: the shell's ([`ShellAction`]: menus, help, the board's pan and zoom,
//! confirming, ending a turn, undo) and one set per scene (the battle's orders live in
//! `battle::actions`). A set implements [`ActionSet`] and is bound with [`bind`]. Bindings are
//! kept **by name** (`Binding(action: Confirm, keys: [Enter])`), so a settings file written before
//! the actions were split into sets, or before a set gained an action, keeps its keys.
//!
//! This module reads the live bindings from [`KeyBindings`] (the settings keep it up to date); it
//! imports nothing else of the game.

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeSet;
use std::sync::Mutex;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TypingText>()
        .init_resource::<Rebinding>()
        .init_resource::<KeyBindings>()
        .init_resource::<KnownActions>()
        .add_systems(Startup, spawn_controls.in_set(ControlsSpawned));
    bind::<ShellAction>(app);
}

/// A set of actions a player can bind keys to.
pub trait ActionSet: Actionlike + Copy + bevy::reflect::GetTypeRegistration {
    /// The actions listed in the settings screen, in order.
    const KEYED: &'static [Self];

    /// The action's name in the settings file and the string tables (`action.NAME`).
    fn name(self) -> &'static str;

    /// The keys of a new player.
    fn default_keys(self) -> &'static [KeyCode];

    /// Mouse buttons and axes (not rebindable), with the string key that names them on screen.
    fn mouse(_map: &mut InputMap<Self>) {}

    /// The mouse input shown beside an action's keys, if it has one.
    fn mouse_label(self) -> Option<&'static str> {
        None
    }

    fn from_name(name: &str) -> Option<Self> {
        Self::KEYED.iter().copied().find(|a| a.name() == name)
    }

    /// The default bindings of the set.
    fn defaults() -> Vec<Binding> {
        Self::KEYED.iter().map(|a| Binding { action: ActionName(a.name()), keys: a.default_keys().to_vec() }).collect()
    }
}

/// The shell's actions: the same in every scene.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect, Serialize, Deserialize)]
pub enum ShellAction {
    /// Select a piece, or order the selected one to the cell or enemy under the pointer.
    Select,
    /// Drop the selection, close a dialog.
    Cancel,
    /// Answer yes; "ready" on the hand-over screen.
    Confirm,
    EndTurn,
    Undo,
    PanUp,
    PanDown,
    PanLeft,
    PanRight,
    ZoomIn,
    ZoomOut,
    #[actionlike(Axis)]
    Zoom,
    FitField,
    /// Show or hide the event log.
    ToggleLog,
    /// Show or hide the left panel (the board takes its room).
    ToggleLeftPanel,
    /// Show or hide the right panel.
    ToggleRightPanel,
    /// Open or close the rules reference.
    OpenRules,
    /// Open the settings over the screen.
    OpenSettings,
    /// Open the saves over the screen.
    OpenSaves,
}

impl ActionSet for ShellAction {
    const KEYED: &'static [ShellAction] = &[
        ShellAction::Confirm,
        ShellAction::Cancel,
        ShellAction::EndTurn,
        ShellAction::Undo,
        ShellAction::PanUp,
        ShellAction::PanDown,
        ShellAction::PanLeft,
        ShellAction::PanRight,
        ShellAction::ZoomIn,
        ShellAction::ZoomOut,
        ShellAction::FitField,
        ShellAction::ToggleLog,
        ShellAction::ToggleLeftPanel,
        ShellAction::ToggleRightPanel,
        ShellAction::OpenRules,
        ShellAction::OpenSettings,
        ShellAction::OpenSaves,
        ShellAction::Select,
    ];

    fn name(self) -> &'static str {
        match self {
            ShellAction::Select => "Select",
            ShellAction::Cancel => "Cancel",
            ShellAction::Confirm => "Confirm",
            ShellAction::EndTurn => "EndTurn",
            ShellAction::Undo => "Undo",
            ShellAction::PanUp => "PanUp",
            ShellAction::PanDown => "PanDown",
            ShellAction::PanLeft => "PanLeft",
            ShellAction::PanRight => "PanRight",
            ShellAction::ZoomIn => "ZoomIn",
            ShellAction::ZoomOut => "ZoomOut",
            ShellAction::Zoom => "Zoom",
            ShellAction::FitField => "FitField",
            ShellAction::ToggleLog => "ToggleLog",
            ShellAction::ToggleLeftPanel => "ToggleLeftPanel",
            ShellAction::ToggleRightPanel => "ToggleRightPanel",
            ShellAction::OpenRules => "OpenRules",
            ShellAction::OpenSettings => "OpenSettings",
            ShellAction::OpenSaves => "OpenSaves",
        }
    }

    fn default_keys(self) -> &'static [KeyCode] {
        use KeyCode::*;
        match self {
            ShellAction::Select | ShellAction::Zoom => &[],
            ShellAction::Confirm => &[Enter, NumpadEnter],
            ShellAction::Cancel => &[Escape],
            ShellAction::EndTurn => &[Space],
            ShellAction::Undo => &[KeyZ, Backspace],
            ShellAction::PanUp => &[ArrowUp, KeyW],
            ShellAction::PanDown => &[ArrowDown, KeyS],
            ShellAction::PanLeft => &[ArrowLeft, KeyA],
            ShellAction::PanRight => &[ArrowRight, KeyD],
            ShellAction::ZoomIn => &[Equal, NumpadAdd],
            ShellAction::ZoomOut => &[Minus, NumpadSubtract],
            ShellAction::FitField => &[KeyF],
            ShellAction::ToggleLog => &[KeyL],
            ShellAction::ToggleLeftPanel => &[BracketLeft],
            ShellAction::ToggleRightPanel => &[BracketRight],
            ShellAction::OpenRules => &[F1],
            ShellAction::OpenSettings => &[F10],
            ShellAction::OpenSaves => &[F9],
        }
    }

    fn mouse(map: &mut InputMap<Self>) {
        map.insert(ShellAction::Select, MouseButton::Left);
        map.insert(ShellAction::Cancel, MouseButton::Right);
        map.insert_axis(ShellAction::Zoom, MouseScrollAxis::Y);
    }

    fn mouse_label(self) -> Option<&'static str> {
        match self {
            ShellAction::Select => Some("ui.key.mouse_left"),
            ShellAction::Cancel => Some("ui.key.mouse_right"),
            _ => None,
        }
    }
}

/// An action's name as kept in the settings file: a bare identifier (`Confirm`), as the file has
/// always written it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionName(pub &'static str);

impl ActionName {
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl PartialEq<&str> for ActionName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// UI limit: distinct action names kept from a settings file (names this version does not know
/// beyond it, from a newer version, are dropped).
const MAX_NAMES: usize = 1024;

/// Names read from settings files, each stored once for the run.
static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// The one copy of a name (names are few: the actions of every set, and what a newer version
/// wrote).
fn intern(name: &str) -> Option<&'static str> {
    let mut names = NAMES.lock().ok()?;
    if let Some(n) = names.get(name) {
        return Some(n);
    }
    if names.len() >= MAX_NAMES {
        return None;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(leaked);
    Some(leaked)
}

impl Serialize for ActionName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit_variant("Action", 0, self.0)
    }
}

impl<'de> Deserialize<'de> for ActionName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ActionName, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ActionName;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("the name of an action")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ActionName, E> {
                let valid = !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    return Err(E::custom(format!("`{v}` is not the name of an action")));
                }
                intern(v).map(ActionName).ok_or_else(|| E::custom("too many action names"))
            }
        }
        deserializer.deserialize_identifier(Visitor)
    }
}

/// Keys bound to one action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub action: ActionName,
    pub keys: Vec<KeyCode>,
}

/// The shell's keys of a new player (each scene adds its own, see [`KnownActions`]).
pub fn default_bindings() -> Vec<Binding> {
    ShellAction::defaults()
}

/// The player's bindings in use (kept up to date with the settings by `settings`).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyBindings(pub Vec<Binding>);

impl KeyBindings {
    /// The keys bound to an action.
    pub fn keys_of(&self, name: &str) -> impl Iterator<Item = &KeyCode> {
        self.0.iter().filter(move |b| b.action == name).flat_map(|b| &b.keys)
    }
}

/// One bindable action of a bound set, for the settings screen and for defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownAction {
    pub name: &'static str,
    /// The set it belongs to (its type's name): one key may serve two scenes' sets, never two
    /// actions of one set, nor a shell action and a scene's.
    pub set: &'static str,
    pub default_keys: &'static [KeyCode],
    pub mouse_label: Option<&'static str>,
}

/// Every bound set's actions, in the order they were bound (the shell's first).
#[derive(Resource, Clone, Debug, Default)]
pub struct KnownActions(pub Vec<KnownAction>);

impl KnownActions {
    fn get(&self, name: &str) -> Option<&KnownAction> {
        self.0.iter().find(|a| a.name == name)
    }

    /// Whether one key cannot serve both actions (they are live at the same time).
    pub fn clash(&self, a: &str, b: &str) -> bool {
        let shell = std::any::type_name::<ShellAction>();
        match (self.get(a), self.get(b)) {
            (Some(a), Some(b)) => a.name != b.name && (a.set == b.set || a.set == shell || b.set == shell),
            _ => false,
        }
    }

    /// The default bindings of every bound set.
    pub fn defaults(&self) -> Vec<Binding> {
        self.0.iter().map(|a| Binding { action: ActionName(a.name), keys: a.default_keys.to_vec() }).collect()
    }
}

/// Adds the default keys of actions that have no binding at all (settings saved before the
/// action existed).
pub fn add_missing_bindings(bindings: &mut Vec<Binding>, defaults: &[Binding]) {
    for default in defaults {
        if !bindings.iter().any(|b| b.action == default.action) {
            bindings.push(default.clone());
        }
    }
}

/// The input map of a set from the player's bindings (names of other sets are skipped), plus
/// the mouse.
pub fn input_map<A: ActionSet>(bindings: &[Binding]) -> InputMap<A> {
    let mut map = InputMap::default();
    for b in bindings {
        if let Some(action) = A::from_name(b.action.as_str()) {
            for key in &b.keys {
                map.insert(action, *key);
            }
        }
    }
    A::mouse(&mut map);
    map
}

/// Whether an action was pressed this frame. A press shorter than a frame (slow software
/// rendering, a busy browser tab) is pressed and released before the action updates; the raw
/// input still saw it go down.
pub fn just_pressed<A: ActionSet>(
    actions: &ActionState<A>,
    keys: Option<&ButtonInput<KeyCode>>,
    bindings: &KeyBindings,
    action: A,
) -> bool {
    actions.just_pressed(&action)
        || keys.is_some_and(|k| bindings.keys_of(action.name()).any(|key| k.just_pressed(*key)))
}

/// Pixels of a scroll in pixels (the browser, a touchpad) that count as one notch of a wheel,
/// which the desktop reports as one line.
pub const PIXELS_PER_NOTCH: f32 = 100.0;
/// The most notches one frame's scroll counts: a flick of a free-spinning wheel, or the events
/// of a slow frame, zoom by at most this much at once.
pub const MAX_NOTCHES_PER_FRAME: f32 = 3.0;
/// What one notch of the wheel towards the map multiplies a board's scale by (12 % closer; a
/// notch back divides by it, so in and out return to the same view).
pub const ZOOM_PER_NOTCH: f32 = 0.88;
/// How fast the zoom keys zoom: the share of the scale a second held takes off or adds.
pub const KEY_ZOOM_PER_SECOND: f32 = 1.5;

/// The factor a frame's wheel multiplies a board's scale by: [`ZOOM_PER_NOTCH`] a notch whatever
/// unit the platform reports (lines natively, pixels in the browser, where one notch is about
/// [`PIXELS_PER_NOTCH`]), at most [`MAX_NOTCHES_PER_FRAME`] notches a frame. A scroll away from
/// the player (positive) zooms in.
pub fn wheel_zoom(scroll: f32, unit: bevy::input::mouse::MouseScrollUnit) -> f32 {
    let notches = match unit {
        bevy::input::mouse::MouseScrollUnit::Line => scroll,
        bevy::input::mouse::MouseScrollUnit::Pixel => scroll / PIXELS_PER_NOTCH,
    };
    if !notches.is_finite() {
        return 1.0;
    }
    ZOOM_PER_NOTCH.powf(notches.clamp(-MAX_NOTCHES_PER_FRAME, MAX_NOTCHES_PER_FRAME))
}

/// This frame's zoom of a board: the factor its scale is multiplied by (1.0 for none), and
/// whether it came from the wheel (which zooms towards the pointer). The wheel counts only when
/// the pointer is over the board (`over_board`): over a panel, the log or the legend it scrolls
/// the panel.
pub fn board_zoom(
    actions: &ActionState<ShellAction>,
    scroll: Option<&bevy::input::mouse::AccumulatedMouseScroll>,
    over_board: bool,
    dt: f32,
) -> (f32, bool) {
    let unit = scroll.map_or(bevy::input::mouse::MouseScrollUnit::Line, |s| s.unit);
    let wheel = if over_board { actions.value(&ShellAction::Zoom) } else { 0.0 };
    let mut keys = 0.0;
    if actions.pressed(&ShellAction::ZoomIn) {
        keys += KEY_ZOOM_PER_SECOND * dt;
    }
    if actions.pressed(&ShellAction::ZoomOut) {
        keys -= KEY_ZOOM_PER_SECOND * dt;
    }
    let factor = wheel_zoom(wheel, unit) * (1.0 - keys.clamp(-0.5, 0.5));
    (factor, wheel != 0.0)
}

/// Binds a set of actions: its plugin, its defaults among the known actions, its map on the
/// [`Controls`] entity, following the player's bindings.
pub fn bind<A: ActionSet>(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<A>::default());
    app.init_resource::<KnownActions>();
    let mut known = app.world_mut().resource_mut::<KnownActions>();
    for a in A::KEYED {
        known.0.push(KnownAction {
            name: a.name(),
            set: std::any::type_name::<A>(),
            default_keys: a.default_keys(),
            mouse_label: a.mouse_label(),
        });
    }
    app.add_systems(Startup, insert_map::<A>.after(ControlsSpawned)).add_systems(PreUpdate, follow_bindings::<A>);
}

/// The entity that holds the player's controls.
#[derive(Component)]
pub struct Controls;

/// Where the controls entity is spawned.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlsSpawned;

/// The settings menu's rebinding: the key slot waiting for a key (the next key pressed goes
/// there), and what the last rebinding did.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Rebinding {
    pub waiting: Option<KeySlot>,
    pub notice: Option<String>,
}

/// One key of an action: the one at `replaces`, or a key added (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySlot {
    pub action: ActionName,
    pub replaces: Option<usize>,
}

/// What a rebinding did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rebound {
    /// The key is the action's now; no other action had it.
    Set,
    /// The key was taken from another action, which got the replaced key if it had no other.
    Moved { key: KeyCode, from: ActionName, gave: Option<KeyCode> },
    /// The key is the only one of another action, and nothing is left to give it: nothing
    /// changed.
    Refused { key: KeyCode, from: ActionName },
}

/// Puts `key` in a key slot, keeping the action's other keys. A key that another live action
/// uses (see [`KnownActions::clash`]) moves here, and that action takes the replaced key when it
/// would be left with none; where nothing can be given back, the rebinding is refused.
pub fn rebind(bindings: &mut Vec<Binding>, known: &KnownActions, slot: KeySlot, key: KeyCode) -> Rebound {
    let own = bindings.iter().find(|b| b.action == slot.action).map(|b| b.keys.clone()).unwrap_or_default();
    let old = slot.replaces.and_then(|i| own.get(i)).copied().filter(|k| *k != key);
    let mut outcome = Rebound::Set;
    for b in bindings.iter_mut() {
        if b.action == slot.action || !b.keys.contains(&key) || !known.clash(slot.action.as_str(), b.action.as_str()) {
            continue;
        }
        if b.keys.len() == 1 && old.is_none() {
            return Rebound::Refused { key, from: b.action };
        }
        b.keys.retain(|k| *k != key);
        let gave = if b.keys.is_empty() { old } else { None };
        b.keys.extend(gave);
        outcome = Rebound::Moved { key, from: b.action, gave };
    }
    let mut keys = own;
    match slot.replaces {
        Some(i) if i < keys.len() => keys[i] = key,
        _ => keys.push(key),
    }
    let mut seen = Vec::new();
    keys.retain(|k| {
        let first = !seen.contains(k);
        seen.push(*k);
        first
    });
    match bindings.iter_mut().find(|b| b.action == slot.action) {
        Some(b) => b.keys = keys,
        None => bindings.push(Binding { action: slot.action, keys }),
    }
    outcome
}

/// Whether a text field (the rules window's search box) has the keyboard: then keys type, they
/// do not command (set by the panels).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypingText(pub bool);

fn spawn_controls(mut commands: Commands) {
    commands.spawn((Name::new("Controls"), Controls));
}

fn insert_map<A: ActionSet>(
    mut commands: Commands,
    bindings: Res<KeyBindings>,
    controls: Query<Entity, With<Controls>>,
) {
    for e in &controls {
        commands.entity(e).insert(input_map::<A>(&bindings.0));
    }
}

fn follow_bindings<A: ActionSet>(bindings: Res<KeyBindings>, mut maps: Query<&mut InputMap<A>, With<Controls>>) {
    if bindings.is_changed() {
        for mut map in &mut maps {
            *map = input_map::<A>(&bindings.0);
        }
    }
}

/// A key's name for the screen.
pub fn key_name(key: KeyCode) -> String {
    let name = format!("{key:?}");
    name.strip_prefix("Key").or_else(|| name.strip_prefix("Digit")).map_or(name.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::mouse::MouseScrollUnit::{Line, Pixel};

    /// Issue 27: one notch of the wheel zooms 12 % whether the platform counts it as a line (the
    /// desktop) or as 100 pixels (the browser), and a notch back returns to the same scale.
    #[test]
    fn a_notch_zooms_the_same_in_lines_and_in_pixels_and_back() {
        assert_eq!(wheel_zoom(0.0, Line), 1.0);
        assert!((wheel_zoom(1.0, Line) - 0.88).abs() < 1e-6);
        assert!((wheel_zoom(100.0, Pixel) - 0.88).abs() < 1e-6);
        assert!((wheel_zoom(-1.0, Line) * 0.88 - 1.0).abs() < 1e-6);
        // A touchpad's small steps add up to the same zoom as a notch.
        let steps: f32 = (0..10).map(|_| wheel_zoom(10.0, Pixel)).product();
        assert!((steps - 0.88).abs() < 1e-5, "{steps}");
    }

    /// Issue 27: a burst (a free-spinning wheel, a slow frame's events) zooms at most three
    /// notches a frame, and a scroll that is not a number zooms nothing.
    #[test]
    fn a_frame_zooms_at_most_three_notches() {
        let three = 0.88f32.powi(3);
        assert!((wheel_zoom(2.0, Line) - 0.88f32.powi(2)).abs() < 1e-6, "2 notches count as 2");
        assert!((wheel_zoom(3.0, Line) - three).abs() < 1e-6);
        assert!((wheel_zoom(4.0, Line) - three).abs() < 1e-6, "4 notches count as 3");
        assert!((wheel_zoom(2500.0, Pixel) - three).abs() < 1e-6);
        assert!((wheel_zoom(-2500.0, Pixel) - 1.0 / three).abs() < 1e-4);
        assert_eq!(wheel_zoom(f32::NAN, Pixel), 1.0);
        assert_eq!(wheel_zoom(f32::INFINITY, Line), 1.0);
    }

    /// Issue 27 ("the wheel over the legend or log zooms the map"): the wheel zooms a board only
    /// with the pointer over it; over a panel it zooms nothing (the panel scrolls). The zoom keys
    /// zoom wherever the pointer is.
    #[test]
    fn the_wheel_over_a_panel_zooms_no_board() {
        let mut actions = ActionState::<ShellAction>::default();
        actions.set_value(&ShellAction::Zoom, 1.0);
        assert_eq!(board_zoom(&actions, None, false, 0.1), (1.0, false), "over a panel");
        let (factor, wheel) = board_zoom(&actions, None, true, 0.1);
        assert!((factor - 0.88).abs() < 1e-6 && wheel, "over the board: {factor}");
        actions.set_value(&ShellAction::Zoom, 0.0);
        actions.press(&ShellAction::ZoomIn);
        let (factor, wheel) = board_zoom(&actions, None, false, 0.1);
        assert!((factor - (1.0 - KEY_ZOOM_PER_SECOND * 0.1)).abs() < 1e-6 && !wheel, "a key: {factor}");
    }
}
