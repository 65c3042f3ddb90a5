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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hud::board::{RoomThisFrame, leave_room};
    use crate::room::PanelsShown;

    /// The Great War's frame at a window size: the phase bar, the left panel, the log and the
    /// right column holding an army list that does not wrap (the line that widened it), then the
    /// room left to the board, in logical pixels.
    fn room(window: egui::Vec2, shown: &mut PanelsShown) -> egui::Rect {
        let ctx = egui::Context::default();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, window)),
            ..Default::default()
        };
        let mut room = RoomThisFrame::default();
        // Two frames: egui lays panels out from the first.
        for _ in 0..2 {
            let out = ctx.run_ui(input.clone(), |ctx_ui| {
                let mut ui = crate::hud::root(ctx_ui.ctx(), "frame-test");
                egui::Panel::top("bar").exact_size(30.0).show(&mut ui, |ui| {
                    ui.label("phase bar");
                });
                let sizes = sizes(&ui);
                side(&mut ui, Edge::Left, "left", &mut shown.left, sizes.left, "left", |ui| {
                    ui.label("power panel");
                });
                side(&mut ui, Edge::Foot, "log", &mut shown.log, sizes.log, "log", |ui| {
                    ui.label("log");
                });
                side(&mut ui, Edge::Right, "right", &mut shown.right, sizes.right, "right", |ui| {
                    let long = "1. Armee: I. Armeekorps, II. Armeekorps, III. Reservekorps ".repeat(12);
                    ui.add(egui::Label::new(long).wrap_mode(egui::TextWrapMode::Extend));
                });
                leave_room(&ui, &mut room);
            });
            out.drop_without_applying_deltas();
        }
        let r = room.0.expect("the board's room is left");
        egui::Rect::from_min_max(egui::pos2(r.min.x as f32, r.min.y as f32), egui::pos2(r.max.x as f32, r.max.y as f32))
    }

    /// Issue 27: at 1280×720 the army list had widened the right panel until the map was about
    /// 385 px wide. Now the panels keep their widths, and the board takes most of the window at
    /// 1280×720 and 1600×900 (more than half its area, more than three fifths of its width);
    /// with the panels closed, nearly all of it.
    #[test]
    fn the_board_takes_most_of_the_window_at_1280_and_1600() {
        for (w, h) in [(1280.0, 720.0), (1600.0, 900.0)] {
            let window = egui::vec2(w, h);
            let r = room(window, &mut PanelsShown::default());
            let sizes = PanelSizes::for_window(Vec2::new(w, h));
            assert!((r.width() - (w - sizes.left - sizes.right)).abs() <= 2.0, "{w}×{h}: {r:?} {sizes:?}");
            assert!(r.width() > 0.6 * w, "{w}×{h}: the board is {} wide", r.width());
            assert!(r.area() > 0.5 * w * h, "{w}×{h}: the board has {:.0} % of the window", 100.0 * r.area() / (w * h));
            let mut closed = PanelsShown { left: false, right: false, log: false };
            let all = room(window, &mut closed);
            assert!(all.area() > 0.88 * w * h, "{w}×{h}, panels closed: {all:?}");
            assert!(all.width() >= w - 2.0 * CLOSED - 4.0, "{w}×{h}, panels closed: {all:?}");
        }
    }
}
