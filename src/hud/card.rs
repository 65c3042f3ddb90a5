//! Unit cards (egui), for every scene: a scene turns one of its pieces into a [`Card`] — a title,
//! a line under it, rows of named values and notes, all in the interface's language — and the
//! shell draws it in a panel, or small beside the pointer as a tooltip. Rule IDs cited in values
//! and notes are links to the rules window.

use crate::hud::rules::RuleLinks;
use crate::i18n::Lang;
use bevy_egui::egui;

/// One piece's values, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    pub title: String,
    /// Its kind and side.
    pub subtitle: String,
    /// The side's colour (RGB).
    pub colour: [u8; 3],
    /// Named values, in order: strength, movement, ...
    pub rows: Vec<(String, String)>,
    /// Lines below the values (abilities, what it is doing).
    pub notes: Vec<String>,
}

impl Card {
    /// The value of a row, by its label.
    pub fn value(&self, label: &str) -> Option<&str> {
        self.rows.iter().find(|(l, _)| l == label).map(|(_, v)| v.as_str())
    }

    /// Everything on the card, one line each (for tests and the log).
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![self.title.clone(), self.subtitle.clone()];
        lines.extend(self.rows.iter().map(|(l, v)| format!("{l}: {v}")));
        lines.extend(self.notes.iter().cloned());
        lines
    }
}

fn colour([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

/// A card drawn in a panel: every row and note.
pub fn card_ui(ui: &mut egui::Ui, card: &Card, links: &mut RuleLinks, lang: Lang) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(6.0, 20.0), egui::Sense::hover());
        ui.painter().rect_filled(rect, 1.0, colour(card.colour));
        ui.label(egui::RichText::new(&card.title).size(17.0).strong());
    });
    ui.label(egui::RichText::new(&card.subtitle).italics());
    egui::Grid::new(("unit-card", &card.title)).num_columns(2).striped(true).show(ui, |ui| {
        for (label, value) in &card.rows {
            ui.label(egui::RichText::new(label).weak());
            ui.vertical(|ui| links.line(ui, value, lang, crate::hud::rules::plain));
            ui.end_row();
        }
    });
    for note in &card.notes {
        links.line(ui, note, lang, crate::hud::rules::plain);
    }
}

/// A card beside the pointer, as a tooltip: the title, the line under it and the first rows.
pub fn pointer_card(ctx: &egui::Context, card: &Card, rows: usize) {
    let Some(at) = ctx.pointer_latest_pos() else { return };
    let size = ctx.viewport_rect();
    // Keep it on screen: to the left of the pointer near the right edge, above it near the bottom.
    let x = if at.x + 300.0 > size.right() { at.x - 290.0 } else { at.x + 18.0 };
    let y = if at.y + 200.0 > size.bottom() { at.y - 190.0 } else { at.y + 18.0 };
    egui::Area::new(egui::Id::new("unit-tooltip"))
        .order(egui::Order::Tooltip)
        .fixed_pos(egui::pos2(x.max(0.0), y.max(0.0)))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(270.0);
                ui.horizontal(|ui| {
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(5.0, 16.0), egui::Sense::hover());
                    ui.painter().rect_filled(rect, 1.0, colour(card.colour));
                    ui.label(egui::RichText::new(&card.title).strong());
                });
                ui.label(egui::RichText::new(&card.subtitle).italics().small());
                for (label, value) in card.rows.iter().take(rows) {
                    ui.label(format!("{label}: {value}"));
                }
            });
        });
}
