//! The odds again when Combat comes (issue 27, S-TURN-2, S-COMBAT-8): the order's preview said
//! what it assumed ("as things stand after the order"); once every power has moved, the Fire
//! phase — the last before the Combat phase, which the rules then play out at once — lists every
//! engagement the viewer's side will fight, with its sums, D and result as they stand now, from
//! the engine's own `Ctx::engagements` and `Ctx::assess` (no rule in the app). "»" brings the
//! camera to each.

use super::GwNames;
use super::geometry::{HEX_H, hex_to_world};
use crate::hud::log::LookAt;
use crate::i18n::Tr;
use crate::screens::{Mode, PlayView, Screen};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::strategic::Engagement;
use rules::strategic::{Ctx, GreatWar, HexAt, Phase, PowerId};
use rules::texts::Msg;

pub(super) fn view_plugin(app: &mut App) {
    app.init_resource::<AheadCache>().add_systems(
        EguiPrimaryContextPass,
        window.run_if(in_state(Mode::GreatWar).and_then(in_state(Screen::Playing))).after(crate::hud::PanelsEnd),
    );
}

/// One engagement of the coming Combat phase as the viewer reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ahead {
    /// The engine's summary: both sides' powers and sums, D and the result (S-COMBAT-8).
    pub line: Msg,
    /// Whether the viewer's alliance is the stronger side.
    pub ours_stronger: Option<bool>,
    /// A hex of the viewer's side in it (or of either side, for an all-seeing viewer).
    pub place: Option<HexAt>,
    pub engagement: Engagement,
}

/// The engagements the Combat phase will fight as things stand, those of `viewer`'s alliance
/// (every one when nobody in particular watches).
pub fn combat_ahead(ctx: &Ctx, viewer: Option<PowerId>) -> Vec<Ahead> {
    let side = viewer.map(|p| usize::from(ctx.alliance(p).min(1)));
    ctx.engagements()
        .into_iter()
        .filter(|g| side.is_none_or(|s| !g[s].is_empty()))
        .map(|g| {
            let e = ctx.assess(&g);
            let line = e.summary(&ctx.engagement_names(&e));
            let mine = side.unwrap_or(0);
            let place = g[mine].iter().chain(g[1 - mine].iter()).find_map(|u| ctx.force(*u).and_then(|f| f.hex()));
            Ahead { line, ours_stronger: side.map(|s| e.stronger == s), place, engagement: e }
        })
        .collect()
}

/// The list, worked out once per state of the game.
#[derive(Resource, Default)]
struct AheadCache {
    key: Option<(usize, Option<u8>)>,
    list: Vec<Ahead>,
}

fn window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<GreatWar>>>,
    view: Option<Res<State<PlayView>>>,
    mut cache: ResMut<AheadCache>,
    mut looks: MessageWriter<LookAt>,
    room: Res<crate::hud::board::BoardRoom>,
) -> Result {
    let Some(session) = session else { return Ok(()) };
    if view.is_some_and(|v| *v.get() != PlayView::Playing) || session.game.clock().phase != Phase::Fire {
        return Ok(());
    }
    let viewer = session.viewer();
    let key = (session.game.orders().len(), viewer.map(|p| p.0));
    let ctx = session.ctx();
    if cache.key != Some(key) {
        cache.list = combat_ahead(&ctx, viewer);
        cache.key = Some(key);
    }
    if cache.list.is_empty() {
        return Ok(());
    }
    let egui_ctx = contexts.ctx_mut()?;
    let board = crate::hud::board::room_in_points(&room, egui_ctx);
    let mut look = None;
    egui::Window::new(tr.f("gw.ahead.title", &[("n", cache.list.len().to_string())]))
        .id(egui::Id::new("gw-combat-ahead"))
        .collapsible(true)
        .resizable(true)
        .default_width(460.0f32.min(board.width() - 16.0))
        .max_height(board.height() * 0.6)
        // In the board's bottom right corner, inside the room the panels leave (not under them).
        .pivot(egui::Align2::RIGHT_BOTTOM)
        .fixed_pos(board.right_bottom() - egui::vec2(8.0, 8.0))
        .constrain_to(board.shrink(4.0))
        .show(egui_ctx, |ui| {
            ui.label(egui::RichText::new(tr.t("gw.ahead.hint")).small().weak());
            egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                for a in &cache.list {
                    ui.horizontal_wrapped(|ui| {
                        if let Some(at) = a.place
                            && ui.button("»").on_hover_text(tr.place(&ctx, at)).clicked()
                        {
                            look = Some(at);
                        }
                        let text = tr.line(&ctx, &a.line);
                        let colour = match a.ours_stronger {
                            Some(true) => egui::Color32::from_rgb(140, 210, 140),
                            Some(false) => egui::Color32::from_rgb(235, 140, 120),
                            None => ui.visuals().text_color(),
                        };
                        let side = match a.ours_stronger {
                            Some(true) => format!("{} — ", tr.t("gw.ahead.ours_stronger")),
                            Some(false) => format!("{} — ", tr.t("gw.ahead.ours_weaker")),
                            None => String::new(),
                        };
                        ui.label(egui::RichText::new(format!("{side}{text}")).color(colour));
                    });
                }
            });
        });
    if let Some(at) = look {
        looks.write(LookAt { at: hex_to_world(at), size: HEX_H });
    }
    Ok(())
}
