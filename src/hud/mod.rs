//! The shell's panels (egui): the title, set-up and loading screens, and the menus that open
//! over any screen (settings with key rebinding, saves). A scene draws its own panels (the
//! battle's are in `battle::panels`) between [`PanelsBegin`] and [`PanelsEnd`]. Buttons send the
//! same commands as keys do; nothing here touches rules state. The rules reference window
//! (`rules`) opens over any screen.

pub mod board;
pub mod card;
pub mod frame;
pub mod frame_stats;
pub mod legend;
pub mod log;
pub(crate) mod menus;
pub mod rules;

use crate::screens::{Menu, Screen};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((EguiPlugin::default(), board::plugin, log::plugin, frame_stats::plugin))
        .init_resource::<EguiBusy>()
        .init_resource::<legend::LegendBook>()
        .init_resource::<menus::SettingsForm>()
        .configure_sets(EguiPrimaryContextPass, (PanelsBegin, PanelsEnd).chain())
        .add_systems(
            EguiPrimaryContextPass,
            (
                board::forget_room,
                style,
                menus::title.run_if(in_state(Screen::Title)),
                menus::setup.run_if(in_state(Screen::Setup)),
                menus::loading.run_if(in_state(Screen::Loading)),
            )
                .chain()
                .in_set(PanelsBegin),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                menus::settings.run_if(in_state(Menu::Settings)),
                menus::saves.run_if(in_state(Menu::Saves)),
                rules::rules_window,
                leave_question,
                legend::legend_window,
                pointer_over_panels,
                board::follow_room,
            )
                .chain()
                .in_set(PanelsEnd),
        )
        .add_systems(OnExit(Menu::Saves), menus::forget_message)
        .add_systems(
            PreUpdate,
            keys_for_the_game
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        );
}

/// Keys bound to the game's actions (Tab: the next unit) are not egui's: egui would move the
/// keyboard focus from button to button with Tab and draw a focus frame on them. A text field
/// that has the keyboard still gets every key.
fn keys_for_the_game(
    mut inputs: Query<&mut bevy_egui::EguiInput>,
    bindings: Res<crate::input::KeyBindings>,
    typing: Res<crate::input::TypingText>,
) {
    if typing.0 {
        return;
    }
    let tab_bound = bindings.0.iter().any(|b| b.keys.contains(&KeyCode::Tab));
    for mut input in &mut inputs {
        input.0.events.retain(|e| !(tab_bound && matches!(e, egui::Event::Key { key: egui::Key::Tab, .. })));
    }
}

/// The screens' own panels are drawn here (the title, a scene's board panels)...
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PanelsBegin;

/// ...and then the menus and windows that open over them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PanelsEnd;

/// Whether the pointer is over a panel (then the board does not take the click).
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct EguiBusy {
    pub pointer: bool,
}

fn pointer_over_panels(
    mut contexts: EguiContexts,
    mut busy: ResMut<EguiBusy>,
    mut typing: ResMut<crate::input::TypingText>,
) {
    if let Ok(ctx) = contexts.ctx_mut() {
        busy.pointer = ctx.is_pointer_over_egui() || ctx.egui_wants_pointer_input();
        typing.set_if_neq(crate::input::TypingText(ctx.egui_wants_keyboard_input()));
    }
}

fn style(mut contexts: EguiContexts, mut done: Local<bool>) {
    if *done {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    ctx.set_fonts(fonts());
    let mut visuals = egui::Visuals::dark();
    // Opaque: the board is drawn beside the panels, never under them.
    visuals.panel_fill = egui::Color32::from_rgb(34, 31, 27);
    visuals.window_fill = egui::Color32::from_rgb(40, 36, 31);
    ctx.set_visuals(visuals);
    *done = true;
}

/// The panels' font: Ubuntu Light cut to Latin, Greek and Cyrillic with punctuation, arrows and
/// mathematical signs (`assets/fonts/subset.py`, under the Ubuntu Font Licence).
pub(crate) const PANEL_FONT: &[u8] = include_bytes!("../../assets/fonts/UbuntuLight-derivative-Kriegsspiel.ttf");

/// The panels' font (Latin and Cyrillic).
pub(crate) fn fonts() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert("Ubuntu-Light".to_owned(), std::sync::Arc::new(egui::FontData::from_static(PANEL_FONT)));
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.insert(family, vec!["Ubuntu-Light".to_owned()]);
    }
    fonts
}

/// A root `Ui` covering the window, for panels (egui 0.36 shows panels inside a `Ui`).
pub(crate) fn root(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}

/// The hover text of a panel's open/close button: what it does and its key.
pub fn frame_hint(tr: &crate::i18n::Tr, bindings: &crate::input::KeyBindings, action: &str) -> String {
    let key = bindings
        .0
        .iter()
        .find(|b| b.action.0 == action)
        .and_then(|b| b.keys.first())
        .map(|k| crate::input::key_name(*k))
        .unwrap_or_default();
    tr.f("ui.panel.toggle", &[("what", tr.t(&format!("action.{action}"))), ("key", key)])
}

/// A question in a window over the screen, answered yes or no (`None` while unanswered).
pub fn question(ctx: &egui::Context, tr: &crate::i18n::Tr, text: &str) -> Option<bool> {
    let mut answer = None;
    egui::Window::new(tr.t("ui.confirm.title"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.label(text);
            ui.horizontal(|ui| {
                if ui.button(tr.t("ui.yes")).clicked() {
                    answer = Some(true);
                }
                if ui.button(tr.t("ui.no")).clicked() {
                    answer = Some(false);
                }
            });
        });
    answer
}

/// "Leave this game?", asked by the session before the game in progress is left.
fn leave_question(
    mut contexts: EguiContexts,
    tr: Res<crate::i18n::Tr>,
    asked: Res<crate::session::LeaveAsked>,
    mut out: MessageWriter<crate::session::Leave>,
) {
    if !asked.0 {
        return;
    }
    let Ok(ctx) = contexts.ctx_mut() else { return };
    match question(ctx, &tr, &tr.t("ui.confirm.leave")) {
        Some(true) => {
            out.write(crate::session::Leave::Yes);
        }
        Some(false) => {
            out.write(crate::session::Leave::No);
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{ActionName, Binding, KeyBindings, TypingText};

    fn tab(pressed: bool) -> egui::Event {
        egui::Event::Key {
            key: egui::Key::Tab,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// Tab, bound to "next unit", never reaches egui (no focus moves to a button), unless a
    /// text field has the keyboard; other keys do.
    #[test]
    fn tab_cycles_units_and_does_not_move_egui_focus() {
        let mut app = App::new();
        app.insert_resource(KeyBindings(vec![Binding { action: ActionName("NextUnit"), keys: vec![KeyCode::Tab] }]))
            .init_resource::<TypingText>()
            .add_systems(Update, keys_for_the_game);
        let ctx = app.world_mut().spawn(bevy_egui::EguiInput::default()).id();
        let frame = |app: &mut App| {
            let mut input = app.world_mut().get_mut::<bevy_egui::EguiInput>(ctx).expect("the context has an input");
            input.0.events = vec![tab(true), egui::Event::PointerGone, tab(false)];
            app.update();
            app.world().get::<bevy_egui::EguiInput>(ctx).expect("the context has an input").0.events.clone()
        };
        assert_eq!(frame(&mut app), vec![egui::Event::PointerGone], "Tab is the game's");
        app.world_mut().resource_mut::<TypingText>().0 = true;
        assert_eq!(frame(&mut app).len(), 3, "typing: the text field gets Tab");
        app.world_mut().resource_mut::<TypingText>().0 = false;
        app.world_mut().resource_mut::<KeyBindings>().0.clear();
        assert_eq!(frame(&mut app).len(), 3, "Tab bound to nothing is egui's");
    }

    /// Every character of both string tables, the rules references and the shipped scenarios and
    /// maps (names of places and units) has a glyph in the panels' font, a subset of Ubuntu Light:
    /// a missing one is drawn as "?" (the engine's "→" was, in the Great War's log).
    #[test]
    fn the_panels_font_draws_every_character_of_the_string_tables() {
        use skrifa::MetadataProvider;
        let font = skrifa::FontRef::new(PANEL_FONT).expect("the font parses");
        let map = font.charmap();
        let files = ::rules::testing::files_under(&["assets/i18n", "assets/rules", "scenarios", "maps"], "ron");
        assert!(files.len() > 20, "the shipped files are read");
        for table in &files {
            let text = std::fs::read_to_string(table).expect("the file is shipped");
            let mut missing: Vec<char> = text.chars().filter(|&c| !c.is_control() && map.map(c).is_none()).collect();
            missing.sort_unstable();
            missing.dedup();
            assert!(missing.is_empty(), "{}: no glyph for {missing:?}", table.display());
        }
        assert!(map.map('→').is_none(), "the test sees a missing glyph");
    }
}
