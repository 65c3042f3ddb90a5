//! The frame of a scene's side panels: each of fixed width (`room::PanelSizes`, from the
//! window's size; what a panel holds scrolls or wraps inside it and never widens it), each closed
//! and opened again by its button or its key (`room::PanelsShown`; `[`, `]`, L by default), so
//! the board can take the window.

use crate::room::PanelSizes;
use bevy::math::Vec2;
use bevy_egui::egui;

/// Which edge a panel stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Left,
    Right,
    Foot,
}

/// UI limit: a closed panel's strip, with the button that opens it (logical pixels).
const CLOSED: f32 = 22.0;

/// The panels' sizes for the window `ui` is in.
pub fn sizes(ui: &egui::Ui) -> PanelSizes {
    let r = ui.ctx().content_rect();
    PanelSizes::for_window(Vec2::new(r.width(), r.height()))
}

fn panel(edge: Edge, id: &str) -> egui::Panel {
    match edge {
        Edge::Left => egui::Panel::left(id.to_string()),
        Edge::Right => egui::Panel::right(id.to_string()),
        Edge::Foot => egui::Panel::bottom(id.to_string()),
    }
}

/// A side panel of `size` (its width, or the log's height) holding `add`, with a button that
/// closes it (`hint`, the button's hover text, names its key); closed, a thin strip with the
/// button that opens it.
pub fn side(
    ui: &mut egui::Ui,
    edge: Edge,
    id: &str,
    open: &mut bool,
    size: f32,
    hint: &str,
    add: impl FnOnce(&mut egui::Ui),
) {
    let (close, reopen) = match edge {
        Edge::Left => ("«", "»"),
        Edge::Right => ("»", "«"),
        Edge::Foot => ("⌄", "⌃"),
    };
    if !*open {
        panel(edge, &format!("{id}-closed")).exact_size(CLOSED).resizable(false).show(ui, |ui| {
            if ui.small_button(reopen).on_hover_text(hint).clicked() {
                *open = true;
            }
        });
        return;
    }
    panel(edge, id).exact_size(size).resizable(false).show(ui, |ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
            if ui.small_button(close).on_hover_text(hint).clicked() {
                *open = false;
            }
        });
        // Long lines wrap at the panel's width rather than widen it.
        ui.set_max_width(ui.available_width());
        add(ui);
    });
}
