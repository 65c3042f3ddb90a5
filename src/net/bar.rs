//! The bar of a seat online, over the scene's own panels: whom the game waits for, the time left
//! on its clock, and a banner while the connection is lost (the game resumes by itself).

use super::{Conn, Online};
use crate::i18n::Tr;
use crate::screens::Screen;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        bar.run_if(in_state(Screen::Playing)).after(crate::hud::PanelsBegin).before(crate::hud::PanelsEnd),
    );
}

/// `m:ss`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).ceil() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// What the bar says: whose turn, the clock, the connection.
pub fn words(online: &Online, tr: &Tr, now: f64) -> (String, Option<String>) {
    let names = |seats: &[u32]| {
        let named: Vec<String> = seats
            .iter()
            .filter_map(|n| online.seats.iter().find(|s| s.seat == *n))
            .map(|s| super::seat_words(tr, &s.name))
            .collect();
        named.join(", ")
    };
    let status = online.status.as_ref();
    // The seats waited for whose player the AI plays: the AI moves for them.
    let ai_plays = |n: &u32| {
        let player = online.seats.iter().find(|s| s.seat == *n).and_then(|s| s.role.commands());
        player.is_some_and(|p| status.is_some_and(|st| st.ai.iter().any(|a| a == p)))
    };
    let mut line = match status {
        Some(s) if s.clock.over => tr.t("ui.online.over"),
        Some(s) if s.paused => tr.t("ui.online.paused"),
        Some(_) if online.waits_for_me() => tr.t("ui.online.your_turn"),
        Some(s) if !s.waiting_for.is_empty() && s.waiting_for.iter().all(ai_plays) => tr.t("ui.online.ai_moves"),
        Some(s) if !s.waiting_for.is_empty() => tr.f("ui.online.waiting", &[("who", names(&s.waiting_for))]),
        Some(s) if !s.ai.is_empty() => tr.t("ui.online.ai_moves"),
        _ => String::new(),
    };
    if let Some(left) = online.clock_left(now) {
        line = format!("{line} · {}", clock(left));
    }
    let banner = match &online.conn {
        Conn::Lost(_) | Conn::Connecting => Some(tr.t("ui.online.reconnecting")),
        Conn::Failed(why) => Some(tr.f("ui.online.failed", &[("why", why.clone())])),
        Conn::Live => None,
    };
    (line, banner)
}

fn bar(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    online: Option<Res<Online>>,
    time: Res<Time<Real>>,
    mut table: ResMut<super::table::Table>,
) -> Result {
    let Some(online) = online else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let (line, banner) = words(&online, &tr, time.elapsed_secs_f64());
    let online: &Online = &online;
    let seat = online.seat.as_ref().map(|s| super::seat_words(&tr, &s.name)).unwrap_or_default();
    // Over the board's top edge, between the scene's side panels.
    egui::Area::new(egui::Id::new("online_bar"))
        .anchor(egui::Align2::CENTER_TOP, [0.0, 30.0])
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(tr.f("ui.online.seat", &[("seat", seat)])).strong());
                    ui.separator();
                    ui.label(line);
                    ui.separator();
                    // The seat's table: its messages (with the unread count), the moderator's
                    // controls.
                    let moderator = online.seat.as_ref().is_some_and(|s| s.role == wire::Role::Moderator);
                    let label = match (moderator, online.unread) {
                        (true, _) => tr.t("ui.table.open_moderator"),
                        (false, 0) => tr.t("ui.table.open"),
                        (false, n) => tr.f("ui.table.open_unread", &[("n", n.to_string())]),
                    };
                    if ui.selectable_label(table.open, label).clicked() {
                        table.open = !table.open;
                    }
                });
                if let Some(banner) = banner {
                    ui.colored_label(egui::Color32::from_rgb(255, 140, 110), banner);
                }
            });
        });
    Ok(())
}
