//! The rules reference in the game: which entry the rules window shows, opened by a key (F1 by
//! default), a button, or a click on a rule ID cited in the event log or a preview. Shared by
//! every scene: the battle, and later the Great War and the campaign, cite rule IDs the same way.
//!
//! This part decides and runs headless; the window itself is drawn by `hud::rules`.

use crate::i18n::Lang;
use crate::input::{Controls, KeyBindings, ShellAction, just_pressed};
use bevy::prelude::*;
use leafwing_input_manager::prelude::ActionState;
use rules::reference::{self, Entry, Mode, Reference, Segment};

pub(super) fn plugin(app: &mut App) {
    // Settings saved before the reference existed have no key for it: `settings` gives every
    // known action without a binding its default keys (F1 here).
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
    controls: Query<&ActionState<ShellAction>, With<Controls>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    bindings: Res<KeyBindings>,
    window: Res<RulesWindow>,
    mut out: MessageWriter<RulesCommand>,
) {
    let Ok(actions) = controls.single() else { return };
    let pressed = |a: ShellAction| just_pressed(actions, keys.as_deref(), &bindings, a);
    if pressed(ShellAction::OpenRules) {
        out.write(RulesCommand::Toggle);
    } else if window.open && pressed(ShellAction::Cancel) {
        out.write(RulesCommand::Close);
    }
}

fn follow_commands(
    mut commands: MessageReader<RulesCommand>,
    scene: Option<Res<State<crate::screens::Mode>>>,
    mut window: ResMut<RulesWindow>,
) {
    for command in commands.read() {
        // Opened by its key or button, the window shows the rules of the war being played.
        if *command == RulesCommand::Toggle
            && !window.open
            && let Some(scene) = &scene
        {
            window.show_book(book_of(*scene.get()));
        }
        window.follow(command);
    }
}

/// The book of the reference a scene's rules are in.
pub fn book_of(scene: crate::screens::Mode) -> Mode {
    match scene {
        crate::screens::Mode::GreatWar => Mode::Strategic,
        crate::screens::Mode::Battle | crate::screens::Mode::Campaign => Mode::Tactical,
    }
}

impl RulesWindow {
    /// Shows the list of `mode`'s book; an entry of the other book is put aside.
    pub fn show_book(&mut self, mode: Mode) {
        if self.entry.as_deref().and_then(Mode::of_id).is_some_and(|m| m != mode) {
            self.entry = None;
        }
        self.mode = mode;
    }

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
