//! The rules window (egui): the reference listed by area with a search box, one entry with its
//! numbers, house marks and "see also" links; and lines of text whose cited rule IDs are links.
//! It serves every screen; what it shows lives in [`RulesWindow`] (decided headless).

use crate::i18n::{Lang, Tr};
use crate::rules_ref::{RulesBook, RulesCommand, RulesWindow, reference_lang};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use rules::reference::{Entry, Mode, Segment};

/// What a panel needs to turn cited rule IDs into links.
#[derive(SystemParam)]
pub struct RuleLinks<'w> {
    pub book: Res<'w, RulesBook>,
    pub out: MessageWriter<'w, RulesCommand>,
}

impl RuleLinks<'_> {
    /// Shows a line of text; every rule ID it cites that has an entry is a link to it.
    pub fn line(&mut self, ui: &mut egui::Ui, text: &str, lang: Lang, style: impl Fn(&str) -> egui::RichText) {
        rule_line(ui, &self.book, &mut self.out, text, lang, style);
    }
}

/// Shows a line of text; every rule ID it cites that has an entry is a link to it.
pub fn rule_line(
    ui: &mut egui::Ui,
    book: &RulesBook,
    out: &mut MessageWriter<RulesCommand>,
    text: &str,
    lang: Lang,
    style: impl Fn(&str) -> egui::RichText,
) {
    let segments = book.segments(text, lang);
    if !segments.iter().any(|s| matches!(s, Segment::Rule { .. })) {
        ui.label(style(text));
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        for s in segments {
            match s {
                Segment::Text(t) => {
                    ui.label(style(t));
                }
                Segment::Rule { shown, id } => {
                    let title = book.entry(&id, lang).map(|e| e.title.clone()).unwrap_or_default();
                    if ui.link(style(shown)).on_hover_text(title).clicked() {
                        out.write(RulesCommand::Open(id));
                    }
                }
            }
        }
    });
}

const HOUSE: egui::Color32 = egui::Color32::from_rgb(230, 180, 90);

pub fn rules_window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    mut window: ResMut<RulesWindow>,
    links: RuleLinks,
    mut scrolled_to: Local<Option<String>>,
) -> Result {
    if !window.open {
        return Ok(());
    }
    let RuleLinks { book, mut out } = links;
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let size = ctx.viewport_rect().size();
    egui::Window::new(tr.t("ui.rules.title"))
        .id(egui::Id::new("rules-window"))
        .open(&mut open)
        .collapsible(false)
        .resizable(true)
        .default_size([(size.x - 80.0).clamp(320.0, 900.0), (size.y - 120.0).clamp(240.0, 620.0)])
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let reference = match &book.0 {
                Ok(r) => r,
                Err(why) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, tr.f("ui.rules.broken", &[("why", why.clone())]));
                    return;
                }
            };
            let lang = reference_lang(tr.lang);
            toolbar(ui, &tr, &mut window, &mut out);
            ui.separator();
            let height = ui.available_height();
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| {
                    ui.set_width(ui.available_width().clamp(160.0, 280.0));
                    egui::ScrollArea::vertical().id_salt("rules-list").max_height(height).show(ui, |ui| {
                        let query = window.search.trim().to_string();
                        let found: Vec<&Entry> = if query.is_empty() {
                            reference.book(window.mode, lang).map(|b| b.entries.iter().collect()).unwrap_or_default()
                        } else {
                            search_tab_first(reference, &query, lang, window.mode)
                        };
                        if found.is_empty() {
                            ui.label(tr.t("ui.rules.none_found"));
                        }
                        let mut area = None;
                        for e in found {
                            if area != Some(&e.area) {
                                ui.add_space(4.0);
                                ui.label(egui::RichText::new(&e.area).strong());
                                area = Some(&e.area);
                            }
                            let chosen = window.entry.as_deref() == Some(e.id.as_str());
                            let row = ui.selectable_label(chosen, format!("{}  {}", e.id, e.title));
                            if row.clicked() {
                                out.write(RulesCommand::Open(e.id.clone()));
                            }
                            // An entry opened from the log or a link: bring it into view once.
                            if chosen && scrolled_to.as_deref() != Some(e.id.as_str()) {
                                row.scroll_to_me(Some(egui::Align::Center));
                                *scrolled_to = Some(e.id.clone());
                            }
                        }
                    });
                });
                ui.separator();
                ui.vertical(|ui| {
                    egui::ScrollArea::vertical().id_salt("rules-entry").max_height(height).show(ui, |ui| match window
                        .entry
                        .as_deref()
                    {
                        None => {
                            ui.label(tr.t("ui.rules.pick"));
                        }
                        Some(id) => match reference.get(id, lang) {
                            Some(e) => entry_view(ui, &tr, e, &book, &mut out),
                            None => {
                                ui.label(tr.f("ui.rules.unknown", &[("id", id.to_string())]));
                            }
                        },
                    });
                });
            });
        });
    if !open {
        out.write(RulesCommand::Close);
    }
    Ok(())
}

fn toolbar(ui: &mut egui::Ui, tr: &Tr, window: &mut RulesWindow, out: &mut MessageWriter<RulesCommand>) {
    ui.horizontal(|ui| {
        for mode in Mode::ALL {
            let name = tr.t(&format!("rules.mode.{}", mode.name()));
            if ui.selectable_label(window.mode == mode, name).clicked() {
                window.mode = mode;
            }
        }
        ui.separator();
        ui.label(tr.t("ui.rules.search"));
        ui.add(egui::TextEdit::singleline(&mut window.search).desired_width(180.0).hint_text("T-FIRE, мораль…"));
        if !window.search.is_empty() && ui.button(tr.t("ui.rules.clear")).clicked() {
            window.search.clear();
        }
        if ui.add_enabled(!window.history.is_empty(), egui::Button::new(tr.t("ui.rules.back"))).clicked() {
            out.write(RulesCommand::Back);
        }
    });
}

fn entry_view(ui: &mut egui::Ui, tr: &Tr, e: &Entry, book: &RulesBook, out: &mut MessageWriter<RulesCommand>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(format!("{} — {}", e.id, e.title)).size(19.0).strong());
        if e.house {
            ui.label(egui::RichText::new(tr.t("rules.house_rule")).color(HOUSE).strong());
        }
    });
    ui.label(
        egui::RichText::new(format!("{} · {}", tr.t(&format!("rules.mode.{}", e.mode.name())), e.area))
            .italics()
            .weak(),
    );
    ui.add_space(6.0);
    rule_line(ui, book, out, &e.text, tr.lang, |t| egui::RichText::new(t).size(15.0));
    if let Some(r) = &e.resolution {
        ui.add_space(6.0);
        egui::Frame::group(ui.style()).stroke(egui::Stroke::new(1.0, HOUSE)).show(ui, |ui| {
            ui.label(egui::RichText::new(tr.t("rules.house_resolution")).color(HOUSE).strong());
            rule_line(ui, book, out, r, tr.lang, plain);
        });
    }
    ui.add_space(6.0);
    ui.label(format!("{}: {}", tr.t("rules.sources"), e.sources_text(&tr.texts)));
    if !e.see.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}:", tr.t("rules.see_also")));
            for id in &e.see {
                let title = book.entry(id, tr.lang).map(|s| s.title.clone()).unwrap_or_default();
                if ui.link(id).on_hover_text(title).clicked() {
                    out.write(RulesCommand::Open(id.clone()));
                }
            }
        });
    }
    if !e.values.is_empty() {
        ui.add_space(6.0);
        ui.label(egui::RichText::new(tr.t("rules.numbers")).strong());
        egui::Grid::new(("rules-numbers", &e.id)).striped(true).show(ui, |ui| {
            for v in &e.values {
                ui.label(egui::RichText::new(&v.value).strong());
                ui.label(egui::RichText::new(&v.path).monospace());
                ui.label(egui::RichText::new(&v.file).weak());
                ui.end_row();
            }
        });
    }
}

/// Text in the default style.
pub fn plain(text: &str) -> egui::RichText {
    egui::RichText::new(text)
}

/// The entries a search finds, those of the tab on show first (a search for "victory" in the
/// Great War tab lists the Great War's rules before the Napoleonic ones).
pub fn search_tab_first<'a>(
    reference: &'a rules::reference::Reference,
    query: &str,
    lang: rules::reference::Lang,
    tab: rules::reference::Mode,
) -> Vec<&'a Entry> {
    let mut found = reference.search(query, lang);
    found.sort_by_key(|e| rules::reference::Mode::of_id(&e.id) != Some(tab));
    found
}
