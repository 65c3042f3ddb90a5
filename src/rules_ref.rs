//! The rules reference in the game: which entry the rules window shows, opened by a key (F1 by
//! default), a button, or a click on a rule ID cited in the event log or a preview. Shared by
//! every scene: the battle, and later the Great War and the campaign, cite rule IDs the same way.
//!
//! This part decides and runs headless; the window itself is drawn by `hud::rules`.

use crate::i18n::Lang;
use crate::input::{Action, Binding, Controls};
use crate::settings::Settings;
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::reference::{self, Entry, Mode, Reference, Segment};

pub(super) fn plugin(app: &mut App) {
    if let Some(mut settings) = app.world_mut().get_resource_mut::<Settings>() {
        // Settings saved before the reference existed have no key for it: give it its default.
        add_missing_bindings(&mut settings.bindings);
    }
    app.insert_resource(RulesBook::builtin())
        .init_resource::<RulesWindow>()
        .add_message::<RulesCommand>()
        .add_systems(Update, (key_to_command, follow_commands).chain().in_set(crate::AppSystems::Logic));
}

/// The shipped reference, read once (or why it could not be read).
#[derive(Resource, Clone, Debug)]
pub struct RulesBook(pub Result<Reference, String>);

impl RulesBook {
    pub fn builtin() -> RulesBook {
        RulesBook(Reference::builtin().map_err(|e| e.to_string()))
    }

    /// The entry of a rule ID in the interface's language.
    pub fn entry(&self, id: &str, lang: Lang) -> Option<&Entry> {
        self.0.as_ref().ok()?.get(id, reference_lang(lang))
    }

    /// A text cut into plain pieces and links to the entries it cites.
    pub fn segments<'a>(&self, text: &'a str, lang: Lang) -> Vec<Segment<'a>> {
        reference::segments(text, |id| self.entry(id, lang).is_some())
    }

    /// The rule IDs a text cites that have an entry, in order.
    pub fn links_in(&self, text: &str, lang: Lang) -> Vec<String> {
        self.segments(text, lang)
            .into_iter()
            .filter_map(|s| match s {
                Segment::Rule { id, .. } => Some(id),
                Segment::Text(_) => None,
            })
            .collect()
    }
}

/// The reference's language for the interface's.
pub fn reference_lang(lang: Lang) -> reference::Lang {
    match lang {
        Lang::English => reference::Lang::En,
        Lang::Russian => reference::Lang::Ru,
    }
}

/// What the rules window shows.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct RulesWindow {
    pub open: bool,
    /// The rule ID on show.
    pub entry: Option<String>,
    /// The rules shown before it (for "back"), oldest first.
    pub history: Vec<String>,
    /// The list's filter.
    pub search: String,
    /// Which war the list shows.
    pub mode: Mode,
}

impl Default for RulesWindow {
    fn default() -> Self {
        RulesWindow { open: false, entry: None, history: Vec::new(), search: String::new(), mode: Mode::Tactical }
    }
}

/// What a person asks of the rules window.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum RulesCommand {
    /// Open it, or close it if open (the key, the top bar's button).
    Toggle,
    /// Show a rule's entry (a cited ID, a "see also" link, the list).
    Open(String),
    /// The rule shown before.
    Back,
    Close,
}

fn key_to_command(
    controls: Query<&ActionState<Action>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    settings: Res<Settings>,
    window: Res<RulesWindow>,
    mut out: MessageWriter<RulesCommand>,
) {
    let Ok(actions) = controls.single() else { return };
    // As in command.rs: a press shorter than a frame still counts.
    let quick = |a: Action| {
        keys.as_ref().is_some_and(|k| {
            settings.bindings.iter().filter(|b| b.action == a).flat_map(|b| &b.keys).any(|key| k.just_pressed(*key))
        })
    };
    if actions.just_pressed(&Action::OpenRules) || quick(Action::OpenRules) {
        out.write(RulesCommand::Toggle);
    } else if window.open && (actions.just_pressed(&Action::Cancel) || quick(Action::Cancel)) {
        out.write(RulesCommand::Close);
    }
}

fn follow_commands(mut commands: MessageReader<RulesCommand>, mut window: ResMut<RulesWindow>) {
    for command in commands.read() {
        window.follow(command);
    }
}

impl RulesWindow {
    /// Applies one command.
    pub fn follow(&mut self, command: &RulesCommand) {
        match command {
            RulesCommand::Toggle => self.open = !self.open,
            RulesCommand::Close => self.open = false,
            RulesCommand::Open(id) => {
                self.open = true;
                if self.entry.as_deref() != Some(id.as_str()) {
                    if let Some(old) = self.entry.take() {
                        self.history.push(old);
                        if self.history.len() > 50 {
                            self.history.remove(0);
                        }
                    }
                    self.entry = Some(id.clone());
                }
                if let Some(mode) = Mode::of_id(id) {
                    self.mode = mode;
                }
            }
            RulesCommand::Back => {
                if let Some(id) = self.history.pop() {
                    if let Some(mode) = Mode::of_id(&id) {
                        self.mode = mode;
                    }
                    self.entry = Some(id);
                }
            }
        }
    }
}

/// Adds the default keys of actions that have no binding at all.
pub fn add_missing_bindings(bindings: &mut Vec<Binding>) {
    for default in crate::input::default_bindings() {
        if !bindings.iter().any(|b| b.action == default.action) {
            bindings.push(default);
        }
    }
}
