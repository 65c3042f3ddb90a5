//! Player settings: language, turn timer, animation speed, key bindings; kept between sessions
//! under the key `settings`, and applied here: the language to the string table, the bindings to
//! the controls (every bound action set gets its default keys where the file has none).

use crate::i18n::{Lang, Tr};
use crate::input::{
    ActionName, Binding, KeyBindings, KnownActions, Rebinding, Rebound, add_missing_bindings, key_name, rebind,
};
use crate::storage::{self, Read};
use crate::store::{Store, StoreError};
use bevy::prelude::*;
use rules::data::{parse_ron, to_ron};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    let loaded = load_settings();
    if let Some(notice) = &loaded.notice {
        warn!("{notice}");
    }
    app.insert_resource(loaded.settings.clone())
        .insert_resource(Kept { settings: loaded.settings, writable: loaded.writable })
        .init_resource::<RunOnly>()
        .init_resource::<storage::Notices>()
        .add_systems(PreUpdate, apply)
        .add_systems(Update, capture_rebinding.in_set(crate::AppSystems::Logic))
        .add_systems(Startup, (add_default_keys, apply).chain().before(crate::input::ControlsSpawned))
        .add_systems(Last, persist);
    if let Some(notice) = loaded.notice {
        app.world_mut().resource_mut::<storage::Notices>().0.push(notice);
    }
}

/// How fast moves, volleys and melee are shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum AnimSpeed {
    Slow,
    #[default]
    Normal,
    Fast,
    /// No animation at all.
    Instant,
}

impl AnimSpeed {
    pub const ALL: [AnimSpeed; 4] = [AnimSpeed::Slow, AnimSpeed::Normal, AnimSpeed::Fast, AnimSpeed::Instant];

    /// Seconds of one animation step.
    pub fn step_seconds(self) -> f32 {
        match self {
            AnimSpeed::Slow => 0.6,
            AnimSpeed::Normal => 0.3,
            AnimSpeed::Fast => 0.12,
            AnimSpeed::Instant => 0.0,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            AnimSpeed::Slow => "ui.anim.slow",
            AnimSpeed::Normal => "ui.anim.normal",
            AnimSpeed::Fast => "ui.anim.fast",
            AnimSpeed::Instant => "ui.anim.instant",
        }
    }
}

/// Everything the player sets.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub lang: Lang,
    /// T-TURN-2: 20 s a turn (15 s in small battles), 2 minutes to set up for both sides
    /// together (T-SETUP-1): rules of the game, so on by default; the AI's seat is never timed.
    pub turn_timer: bool,
    pub anim: AnimSpeed,
    /// Keys of each action (mouse buttons stay as they are).
    pub bindings: Vec<Binding>,
    /// The legend was shown on a first game (it opens by itself only once).
    #[serde(default, skip_serializing_if = "is_false")]
    pub legend_seen: bool,
    /// The umpire server last played on (`http://HOST:PORT`), offered again.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub server: String,
    /// The seats of online games this player made or joined, newest first (their links hold
    /// their tokens, as the invites sent did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<KnownSeat>,
}

/// A seat of an online game this player holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownSeat {
    /// Its invite link.
    pub link: String,
    /// Its number and name in the game, once known.
    #[serde(default)]
    pub seat: Option<u32>,
    #[serde(default)]
    pub name: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lang: Lang::default(),
            turn_timer: true,
            anim: AnimSpeed::default(),
            bindings: crate::input::default_bindings(),
            legend_seen: false,
            server: String::new(),
            seats: Vec::new(),
        }
    }
}

/// What the command line chose for this run only (`--lang`, `--anim`, and a scripted run's
/// fast animation without timer): used while the game runs, never written to the settings.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct RunOnly {
    pub lang: Option<Lang>,
    pub anim: Option<AnimSpeed>,
    pub turn_timer: Option<bool>,
}

impl RunOnly {
    /// The settings of this run.
    pub fn apply(&self, settings: &mut Settings) {
        if let Some(lang) = self.lang {
            settings.lang = lang;
        }
        if let Some(anim) = self.anim {
            settings.anim = anim;
        }
        if let Some(timer) = self.turn_timer {
            settings.turn_timer = timer;
        }
    }

    /// The settings to keep: those of the run, except where they are still this run's
    /// command-line choice (there the player's own value stays).
    pub fn keep(&self, now: &Settings, player: &Settings) -> Settings {
        let mut kept = now.clone();
        if self.lang == Some(now.lang) {
            kept.lang = player.lang;
        }
        if self.anim == Some(now.anim) {
            kept.anim = player.anim;
        }
        if self.turn_timer == Some(now.turn_timer) {
            kept.turn_timer = player.turn_timer;
        }
        kept
    }
}

/// The settings as the player keeps them (on disk), and whether they may be written.
#[derive(Resource, Clone, Debug)]
pub struct Kept {
    pub settings: Settings,
    pub writable: bool,
}

/// While a key slot waits for a key: the next key pressed goes there (see [`rebind`]), and the
/// notice says what moved or why nothing did.
fn capture_rebinding(
    keys: Res<ButtonInput<KeyCode>>,
    known: Res<KnownActions>,
    tr: Res<Tr>,
    mut rebinding: ResMut<Rebinding>,
    mut settings: ResMut<Settings>,
) {
    let Some(slot) = rebinding.waiting else { return };
    let Some(key) = keys.get_just_pressed().next().copied() else { return };
    let mut bindings = settings.bindings.clone();
    let action = |a: ActionName| tr.t(&format!("action.{}", a.as_str()));
    let notice = match rebind(&mut bindings, &known, slot, key) {
        Rebound::Set => None,
        Rebound::Moved { key, from, gave: None } => Some(
            tr.f("ui.keys.moved", &[("key", key_name(key)), ("other", action(from)), ("action", action(slot.action))]),
        ),
        Rebound::Moved { key, from, gave: Some(old) } => Some(tr.f(
            "ui.keys.moved_back",
            &[("key", key_name(key)), ("other", action(from)), ("action", action(slot.action)), ("old", key_name(old))],
        )),
        Rebound::Refused { key, from } => {
            Some(tr.f("ui.keys.refused", &[("key", key_name(key)), ("other", action(from))]))
        }
    };
    if bindings != settings.bindings {
        settings.bindings = bindings;
    }
    *rebinding = Rebinding { waiting: None, notice };
}

/// Gives every bound action that has no binding its default keys (settings saved before the
/// action existed, or before its scene was added).
fn add_default_keys(known: Res<KnownActions>, mut settings: ResMut<Settings>) {
    let mut bindings = settings.bindings.clone();
    add_missing_bindings(&mut bindings, &known.defaults());
    if bindings != settings.bindings {
        settings.bindings = bindings;
    }
}

/// The language and the keys follow the settings.
fn apply(settings: Res<Settings>, mut tr: ResMut<Tr>, mut keys: ResMut<KeyBindings>) {
    if !settings.is_changed() {
        return;
    }
    if tr.lang != settings.lang {
        *tr = Tr::new(settings.lang);
    }
    if keys.0 != settings.bindings {
        keys.0 = settings.bindings.clone();
    }
}

/// The player's settings as read at start.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSettings {
    pub settings: Settings,
    /// False when the file exists but could not be read nor set aside: it must not be overwritten.
    pub writable: bool,
    /// What went wrong, in one sentence.
    pub notice: Option<String>,
}

const KEY: &str = "settings";

/// Reads the settings; an unreadable file is set aside (`settings.ron.corrupt-N`) and reported,
/// and the defaults are used for this run.
pub fn load_settings() -> LoadedSettings {
    match storage::store() {
        Ok(store) => load_settings_in(&store),
        Err(e) => LoadedSettings {
            settings: Settings::default(),
            writable: false,
            notice: Some(format!("Your settings cannot be kept: {e}.")),
        },
    }
}

/// [`load_settings`] from a given store.
pub fn load_settings_in(store: &Store) -> LoadedSettings {
    let defaults = |writable, notice| LoadedSettings { settings: Settings::default(), writable, notice };
    let parse = |name: &str, text: &str| parse_ron::<Settings>(name, text).map_err(|e| e.to_string());
    match storage::read_or_set_aside(store, KEY, parse) {
        Read::Missing => defaults(true, None),
        Read::Value(settings) => LoadedSettings { settings, writable: true, notice: None },
        Read::SetAside { why, name } => defaults(
            true,
            Some(format!(
                "Your settings file could not be read ({why}); it was kept as {name} and the defaults are used."
            )),
        ),
        Read::Stuck { why, aside: Some(e2) } => defaults(
            false,
            Some(format!("Your settings file could not be read ({why}) nor set aside ({e2}); it will not be changed.")),
        ),
        Read::Stuck { why, aside: None } => {
            defaults(false, Some(format!("Your settings file could not be read ({why}); it will not be changed.")))
        }
    }
}

pub fn save_settings(settings: &Settings) -> Result<(), StoreError> {
    storage::store()?.write(KEY, &to_ron(settings))
}

fn persist(settings: Res<Settings>, run_only: Res<RunOnly>, mut kept: ResMut<Kept>) {
    if !settings.is_changed() || !kept.writable {
        return;
    }
    let keep = run_only.keep(&settings, &kept.settings);
    if keep == kept.settings {
        return;
    }
    match save_settings(&keep) {
        Ok(()) => kept.settings = keep,
        Err(e) => warn!("the settings were not kept: {e}"),
    }
}
