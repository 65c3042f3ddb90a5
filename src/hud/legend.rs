//! The legend window (egui): what every mark on the board means. It knows no scene: each scene
//! registers its sections ([`LegendSection`]) for its [`Mode`] as data — swatches drawn the way
//! its board draws them, and string keys — and the window shows the sections of the game in hand.

use crate::help::{LegendCommand, LegendWindow};
use crate::hud::rules::RuleLinks;
use crate::i18n::Tr;
use crate::screens::Mode;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiTextureHandle, egui};

/// How one mark looks, as the board draws it.
#[derive(Clone, Debug)]
pub enum Swatch {
    /// A cell tinted with a colour (RGBA) over the ground colour.
    Tint([u8; 4]),
    /// A tinted cell with this many white cost pips along its top.
    Pips([u8; 4], u8),
    /// Small white dots across a cell (a path).
    Path,
    /// A hollow square in a colour (selection, melee).
    Ring([u8; 3]),
    /// A counter: the side's colour with a symbol image on it.
    Counter { side: [u8; 3], symbol: Handle<Image>, faded: bool },
    /// An image as it is (an arrow, a flag, a mark).
    Image(Handle<Image>),
    /// One tile of a tileset laid out in a row (`index` of `count`).
    Tile { tileset: Handle<Image>, index: u32, count: u32 },
    /// A health bar at this share of full, in this colour.
    Bar([u8; 3], f32),
}

/// One mark and what it means.
#[derive(Clone, Debug)]
pub struct LegendItem {
    pub swatch: Swatch,
    /// String key of its meaning (may cite rule IDs: they become links).
    pub text: &'static str,
}

/// A group of marks under a heading.
#[derive(Clone, Debug)]
pub struct LegendSection {
    /// String key of the heading.
    pub title: &'static str,
    pub items: Vec<LegendItem>,
}

/// The legend of each scene.
#[derive(Resource, Default, Clone, Debug)]
pub struct LegendBook(pub Vec<(Mode, Vec<LegendSection>)>);

impl LegendBook {
    /// A scene's legend (replacing one registered before).
    pub fn register(&mut self, mode: Mode, sections: Vec<LegendSection>) {
        self.0.retain(|(m, _)| *m != mode);
        self.0.push((mode, sections));
    }

    pub fn of(&self, mode: Mode) -> &[LegendSection] {
        self.0.iter().find(|(m, _)| *m == mode).map_or(&[], |(_, s)| s.as_slice())
    }
}

const GROUND: egui::Color32 = egui::Color32::from_rgb(112, 150, 74);
const SWATCH: f32 = 30.0;

fn rgba([r, g, b, a]: [u8; 4]) -> egui::Color32 {
    egui::Color32::from_rgba_unmultiplied(r, g, b, a)
}

fn rgb([r, g, b]: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(r, g, b)
}

/// Draws a swatch in a square of its own.
fn swatch(ui: &mut egui::Ui, contexts: &mut EguiContexts, s: &Swatch) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(SWATCH, SWATCH), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let full = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    let mut image = |handle: &Handle<Image>, at: egui::Rect, uv: egui::Rect, tint: egui::Color32| {
        let id = contexts.add_image(EguiTextureHandle::Weak(handle.id()));
        painter.image(id, at, uv, tint);
    };
    match s {
        Swatch::Tint(c) => {
            painter.rect_filled(rect, 0.0, GROUND);
            painter.rect_filled(rect.shrink(1.0), 0.0, rgba(*c));
        }
        Swatch::Pips(c, n) => {
            painter.rect_filled(rect, 0.0, GROUND);
            painter.rect_filled(rect.shrink(1.0), 0.0, rgba(*c));
            for i in 0..*n {
                let x = rect.left() + 4.0 + f32::from(i) * 4.0;
                painter.rect_filled(
                    egui::Rect::from_min_size(egui::pos2(x, rect.top() + 3.0), egui::vec2(2.5, 2.5)),
                    0.0,
                    egui::Color32::WHITE,
                );
            }
        }
        Swatch::Path => {
            painter.rect_filled(rect, 0.0, GROUND);
            for dx in [-9.0, 0.0, 9.0] {
                painter.rect_filled(
                    egui::Rect::from_center_size(rect.center() + egui::vec2(dx, 0.0), egui::vec2(5.0, 5.0)),
                    0.0,
                    egui::Color32::from_white_alpha(190),
                );
            }
        }
        Swatch::Ring(c) => {
            painter.rect_filled(rect, 0.0, GROUND);
            painter.rect_stroke(rect.shrink(2.0), 0.0, egui::Stroke::new(3.0, rgb(*c)), egui::StrokeKind::Inside);
        }
        Swatch::Counter { side, symbol, faded } => {
            painter.rect_filled(rect, 0.0, GROUND);
            let alpha = if *faded { 140 } else { 255 };
            let [r, g, b] = *side;
            painter.rect_filled(rect.shrink(3.0), 0.0, egui::Color32::from_rgba_unmultiplied(r, g, b, alpha));
            let at = egui::Rect::from_center_size(rect.center(), egui::vec2(20.0, 13.0));
            image(symbol, at, full, egui::Color32::from_white_alpha(alpha));
        }
        Swatch::Image(handle) => {
            painter.rect_filled(rect, 0.0, GROUND);
            image(handle, rect.shrink(6.0), full, egui::Color32::WHITE);
        }
        Swatch::Tile { tileset, index, count } => {
            let n = (*count).max(1) as f32;
            let uv =
                egui::Rect::from_min_max(egui::pos2(*index as f32 / n, 0.0), egui::pos2((*index + 1) as f32 / n, 1.0));
            image(tileset, rect, uv, egui::Color32::WHITE);
        }
        Swatch::Bar(c, share) => {
            painter.rect_filled(rect, 0.0, GROUND);
            let bar =
                egui::Rect::from_min_size(egui::pos2(rect.left() + 3.0, rect.center().y - 2.0), egui::vec2(24.0, 4.0));
            painter.rect_filled(bar, 0.0, egui::Color32::from_rgb(38, 31, 26));
            let mut filled = bar;
            filled.set_width(24.0 * share.clamp(0.0, 1.0));
            painter.rect_filled(filled, 0.0, rgb(*c));
        }
    }
}

/// The legend window of the game in hand, when open.
#[allow(clippy::too_many_arguments)]
pub fn legend_window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    window: Res<LegendWindow>,
    mode: Option<Res<State<Mode>>>,
    book: Res<LegendBook>,
    mut links: RuleLinks,
    mut out: MessageWriter<LegendCommand>,
    (rules, view): (Res<crate::rules_ref::RulesWindow>, Option<Res<State<crate::screens::PlayView>>>),
) -> Result {
    // The legend stays open, but out of the way, while the rules reference is open over it and
    // while the screen is handed over (the next player sees nothing of the board until ready).
    let handing_over = view.is_some_and(|v| *v.get() == crate::screens::PlayView::HandOver);
    if !window.open || rules.open || handing_over {
        return Ok(());
    }
    let Some(mode) = mode.map(|m| *m.get()) else { return Ok(()) };
    let sections = book.of(mode).to_vec();
    let ctx = contexts.ctx_mut()?.clone();
    let size = ctx.viewport_rect().size();
    let mut open = true;
    egui::Window::new(tr.t("ui.legend.title"))
        .id(egui::Id::new("legend-window"))
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        // At the right, over the log: the board stays in view (and to hand) beside it.
        .default_size([(size.x - 40.0).clamp(280.0, 460.0), (size.y - 80.0).clamp(200.0, 640.0)])
        .max_size([size.x - 20.0, size.y - 40.0])
        .anchor(egui::Align2::RIGHT_TOP, [-6.0, 34.0])
        .show(&ctx, |ui| {
            ui.label(egui::RichText::new(tr.t("ui.legend.intro")).italics());
            if sections.is_empty() {
                ui.label(tr.t("ui.legend.none"));
            }
            // Room for the key hint below the list.
            let height = (ui.available_height() - 28.0).max(80.0);
            egui::ScrollArea::vertical().max_height(height).show(ui, |ui| {
                let columns = if ui.available_width() > 620.0 { 2 } else { 1 };
                ui.columns(columns, |cols| {
                    let per = sections.len().div_ceil(columns);
                    for (i, section) in sections.iter().enumerate() {
                        let ui = &mut cols[(i / per.max(1)).min(columns - 1)];
                        ui.add_space(4.0);
                        ui.label(egui::RichText::new(tr.t(section.title)).strong().size(16.0));
                        for item in &section.items {
                            ui.horizontal(|ui| {
                                swatch(ui, &mut contexts, &item.swatch);
                                ui.vertical(|ui| {
                                    links.line(ui, &tr.t(item.text), tr.lang, crate::hud::rules::plain);
                                });
                            });
                        }
                    }
                });
            });
            ui.separator();
            ui.label(egui::RichText::new(tr.t("ui.legend.keys")).weak());
        });
    if !open {
        out.write(LegendCommand::Close);
    }
    Ok(())
}
