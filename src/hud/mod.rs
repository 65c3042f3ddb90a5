//! The shell's panels (egui): the title, set-up and loading screens, and the menus that open
//! over any screen (settings with key rebinding, saves). A scene draws its own panels (the
//! battle's are in `battle::panels`) between [`PanelsBegin`] and [`PanelsEnd`]. Buttons send the
//! same commands as keys do; nothing here touches rules state. The rules reference window
//! (`rules`) opens over any screen.

pub mod card;
pub mod legend;
mod menus;
pub mod rules;

use crate::screens::{Menu, Screen};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(EguiPlugin::default())
        .init_resource::<EguiBusy>()
        .init_resource::<legend::LegendBook>()
        .init_resource::<menus::SetupForm>()
        .init_resource::<menus::SettingsForm>()
        .configure_sets(EguiPrimaryContextPass, (PanelsBegin, PanelsEnd).chain())
        .add_systems(
            EguiPrimaryContextPass,
            (
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
                legend::legend_window,
                pointer_over_panels,
            )
                .chain()
                .in_set(PanelsEnd),
        )
        .add_systems(OnExit(Menu::Saves), menus::forget_message);
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
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        "Ubuntu-Light".to_owned(),
        std::sync::Arc::new(egui::FontData::from_static(epaint_default_fonts::UBUNTU_LIGHT)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.insert(family, vec!["Ubuntu-Light".to_owned()]);
    }
    ctx.set_fonts(fonts);
    let mut visuals = egui::Visuals::dark();
    visuals.panel_fill = egui::Color32::from_rgba_unmultiplied(34, 31, 27, 240);
    visuals.window_fill = egui::Color32::from_rgb(40, 36, 31);
    ctx.set_visuals(visuals);
    *done = true;
}

/// A root `Ui` covering the window, for panels (egui 0.36 shows panels inside a `Ui`).
pub(crate) fn root(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    )
}
