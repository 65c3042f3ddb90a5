//! A seat's table, opened from its bar: the written record it was sent (chat, and a leader's
//! directives to its generals, T-STRAT-3, through the moderator) with the lines to write them,
//! and, at the moderator's seat, every seat's state and the controls the server offers: pause,
//! more time on the clock, a player's seat handed to the AI and taken back, a held directive
//! passed on now.

use super::{Letter, Online};
use crate::i18n::Tr;
use crate::screens::Screen;
use ai::Level;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use wire::{ChatTo, ModAction, Role};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Table>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        window.run_if(in_state(Screen::Playing)).after(crate::hud::PanelsBegin).before(crate::hud::PanelsEnd),
    );
}

/// UI limit: the longest line written here (the server has its own cap).
pub const MAX_TEXT: usize = 2000;

/// The table's state.
#[derive(Resource)]
pub struct Table {
    pub open: bool,
    pub text: String,
    /// Whom a line goes to: the side, the moderator, or (the moderator's) one seat.
    pub to: ChatTo,
    /// A leader's directive: the general seats it goes to.
    pub generals: Vec<u32>,
    /// The level the moderator hands a seat to the AI at.
    pub level: Level,
    /// Directives the moderator passed on from here.
    pub passed: Vec<u64>,
    /// A leader's ticks of its generals' command not yet told back.
    pub drafts: super::command::Drafts,
    /// The moderator's ticks for the question waiting (its words: a new question, no ticks).
    pub ruling_ticks: (String, Vec<u32>),
}

impl Default for Table {
    fn default() -> Table {
        Table {
            open: false,
            text: String::new(),
            to: ChatTo::Alliance,
            generals: Vec::new(),
            level: Level::Veteran,
            passed: Vec::new(),
            drafts: Default::default(),
            ruling_ticks: Default::default(),
        }
    }
}

fn seat_name(online: &Online, tr: &Tr, seat: Option<u32>) -> String {
    let Some(n) = seat else { return tr.t("ui.table.umpire") };
    online.seats.iter().find(|s| s.seat == n).map_or_else(|| format!("#{n}"), |s| super::seat_words(tr, &s.name))
}

fn letter_line(online: &Online, tr: &Tr, l: &Letter) -> String {
    let from = seat_name(online, tr, l.from);
    let to: Vec<String> = l.to.iter().map(|n| seat_name(online, tr, Some(*n))).collect();
    let to = if to.is_empty() { tr.t("ui.table.to_moderator") } else { to.join(", ") };
    let kind = if l.kind == "directive" { tr.t("ui.table.directive") } else { tr.t("ui.table.chat") };
    format!("{kind} · {from} » {to}: {}", l.text)
}

#[allow(clippy::too_many_arguments)]
fn window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    online: Option<ResMut<Online>>,
    mut table: ResMut<Table>,
    roster: Res<super::command::Roster>,
    rulings: Res<super::rulings::Rulings>,
    time: Res<Time<Real>>,
) -> Result {
    let Some(mut online) = online else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let me = online.seat.clone();
    let moderator = me.as_ref().is_some_and(|s| s.role == Role::Moderator);
    if !table.open {
        return Ok(());
    }
    online.unread = 0;
    let mut open = table.open;
    egui::Window::new(if moderator { tr.t("ui.table.heading_moderator") } else { tr.t("ui.table.heading") })
        .open(&mut open)
        .default_width(460.0)
        .default_pos([120.0, 90.0])
        .show(ctx, |ui| {
            if moderator {
                moderator_controls(ui, &tr, &mut online, &mut table, time.elapsed_secs_f64());
                ui.separator();
                let asked = rulings.question.as_ref().map(|q| q.text.clone()).unwrap_or_default();
                if table.ruling_ticks.0 != asked {
                    table.ruling_ticks = (asked, Vec::new());
                }
                if !rulings.kinds.is_empty() {
                    super::rulings::section(ui, &tr, &mut online, &rulings, &mut table.ruling_ticks.1);
                    ui.separator();
                }
            }
            let generals = !super::command::my_generals(&online).is_empty();
            let general = me.as_ref().is_some_and(|s| matches!(s.role, Role::General { .. }));
            if general || (generals && me.as_ref().is_some_and(|s| s.role.is_leader())) {
                super::command::section(ui, &tr, &mut online, &roster, &mut table.drafts);
                ui.separator();
            }
            ui.label(egui::RichText::new(tr.t("ui.table.record")).strong());
            egui::ScrollArea::vertical().max_height(220.0).stick_to_bottom(true).show(ui, |ui| {
                if online.letters.is_empty() {
                    ui.label(egui::RichText::new(tr.t("ui.table.none")).weak());
                }
                for l in &online.letters {
                    ui.label(letter_line(&online, &tr, l));
                }
            });
            ui.separator();
            write(ui, &tr, &mut online, &mut table, moderator);
            if let Some(r) = &online.refused {
                ui.colored_label(egui::Color32::LIGHT_RED, r);
            }
        });
    table.open = open;
    Ok(())
}

/// The lines to write: chat to the side or the moderator (the moderator's to a seat), and a
/// leader's directive to its general seats.
fn write(ui: &mut egui::Ui, tr: &Tr, online: &mut Online, table: &mut Table, moderator: bool) {
    let me = online.seat.clone();
    let player = me.as_ref().and_then(|s| s.role.commands().map(str::to_string));
    let leader = me.as_ref().is_some_and(|s| s.role.is_leader());
    let generals: Vec<(u32, String)> = online
        .seats
        .iter()
        .filter(|s| matches!(&s.role, Role::General { player: p, .. } if Some(p) == player.as_ref()))
        .map(|s| (s.seat, s.name.clone()))
        .collect();
    ui.add(
        egui::TextEdit::multiline(&mut table.text).desired_rows(2).desired_width(f32::INFINITY).char_limit(MAX_TEXT),
    );
    ui.horizontal_wrapped(|ui| {
        ui.label(tr.t("ui.table.to"));
        if moderator {
            let seats: Vec<(u32, String)> = online
                .seats
                .iter()
                .filter(|s| s.role != Role::Moderator)
                .map(|s| (s.seat, seat_name(online, tr, Some(s.seat))))
                .collect();
            for (n, name) in seats {
                ui.selectable_value(&mut table.to, ChatTo::Seat(n), name);
            }
        } else {
            ui.selectable_value(&mut table.to, ChatTo::Alliance, tr.t("ui.table.to_side"));
            ui.selectable_value(&mut table.to, ChatTo::Moderator, tr.t("ui.table.to_moderator"));
        }
        let text = table.text.trim().to_string();
        if ui.add_enabled(!text.is_empty(), egui::Button::new(tr.t("ui.table.send"))).clicked() {
            let to = match table.to {
                ChatTo::Seat(_) if !moderator => ChatTo::Alliance,
                to => to,
            };
            online.refused = None;
            online.chat(to, text);
            table.text.clear();
        }
    });
    if leader && !generals.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(tr.t("ui.table.directive_to"));
            for (n, name) in &generals {
                let mut on = table.generals.contains(n);
                if ui.checkbox(&mut on, name).changed() {
                    table.generals.retain(|g| g != n);
                    if on {
                        table.generals.push(*n);
                    }
                }
            }
            let text = table.text.trim().to_string();
            let ready = !text.is_empty() && !table.generals.is_empty();
            if ui.add_enabled(ready, egui::Button::new(tr.t("ui.table.send_directive"))).clicked() {
                online.refused = None;
                online.directive(table.generals.clone(), text);
                table.text.clear();
            }
        });
    }
}

/// The moderator's part: every seat's state and the server's controls.
fn moderator_controls(ui: &mut egui::Ui, tr: &Tr, online: &mut Online, table: &mut Table, now: f64) {
    let Some(status) = online.status.clone() else { return };
    ui.horizontal(|ui| {
        if status.paused {
            if ui.button(tr.t("ui.table.resume")).clicked() {
                online.moderate(ModAction::Resume);
            }
        } else if ui.button(tr.t("ui.table.pause")).clicked() {
            online.moderate(ModAction::Pause);
        }
        if let Some(left) = online.clock_left(now) {
            ui.label(tr.f("ui.table.clock", &[("left", format!("{:.0}", left))]));
            for (label, seconds) in [("+1:00", 60), ("+5:00", 300)] {
                if ui.small_button(label).clicked() {
                    online.moderate(ModAction::Extend { seconds });
                }
            }
        }
    });
    egui::Grid::new("moderator_seats").num_columns(5).spacing([10.0, 4.0]).striped(true).show(ui, |ui| {
        for seat in online.seats.clone() {
            ui.label(seat_name(online, tr, Some(seat.seat)));
            let role = match &seat.role {
                Role::Player { .. } => tr.t("ui.table.role_player"),
                Role::General { .. } => tr.t("ui.table.role_general"),
                Role::Moderator => tr.t("ui.table.role_moderator"),
                Role::Observer { .. } => tr.t("ui.table.role_observer"),
            };
            ui.label(role);
            if status.connected.contains(&seat.seat) {
                ui.colored_label(egui::Color32::LIGHT_GREEN, tr.t("ui.table.connected"));
            } else {
                ui.label(egui::RichText::new(tr.t("ui.table.away")).weak());
            }
            let player = seat.role.commands().map(str::to_string);
            let ai = player.as_ref().is_some_and(|p| status.ai.contains(p));
            let waited = status.waiting_for.contains(&seat.seat);
            ui.label(match (ai, waited) {
                (true, _) => tr.t("ui.table.ai_plays"),
                (false, true) => tr.t("ui.table.waited"),
                (false, false) => String::new(),
            });
            if seat.role.is_leader() {
                if ai {
                    if ui.small_button(tr.t("ui.table.take_back")).clicked() {
                        online.moderate(ModAction::TakeBack { seat: seat.seat });
                    }
                } else if ui.small_button(tr.t("ui.table.hand_to_ai")).clicked() {
                    online.moderate(ModAction::HandToAi { seat: seat.seat, level: table.level });
                }
            } else {
                ui.label("");
            }
            ui.end_row();
        }
    });
    // The directives the game's delay holds with the moderator (not yet passed on here).
    let held: Vec<(u64, String)> = online
        .letters
        .iter()
        .filter(|l| l.kind == "directive" && l.deliver_ms.is_some_and(|d| d > l.sent_ms))
        .filter(|l| !table.passed.contains(&l.entry))
        .map(|l| (l.entry, l.text.chars().take(40).collect()))
        .collect();
    for (entry, text) in held {
        ui.horizontal(|ui| {
            ui.label(tr.f("ui.table.held", &[("text", text)]));
            if ui.small_button(tr.t("ui.table.pass_on")).clicked() {
                online.moderate(ModAction::PassOn { directive: entry });
                table.passed.push(entry);
            }
        });
    }
}
