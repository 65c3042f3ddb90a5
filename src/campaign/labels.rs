//! Words and numbers on the campaign map, drawn by egui under the panels: each army's strength
//! (units, and the Health they have left) on its counter, and the names of places.

use super::board::{HEX, army_offset, hex_to_world, shown};
use crate::battle::board::camera::BoardCamera;
use crate::i18n::Tr;
use crate::replay::ReplayView;
use crate::screens::{Mode, PlayView, Scene};
use crate::session::Session;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::Game;
use rules::campaign::Campaign;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Mode::Campaign)).before(crate::hud::PanelsBegin));
}

/// An army's strength: its units and their Health left.
pub fn strength(game: &Campaign, army: &rules::campaign::state::Army) -> (usize, i32) {
    let health = army.units.iter().filter_map(|u| game.state().unit(*u)).map(|u| u.health).sum();
    (army.units.len(), health)
}

fn draw(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session<Campaign>>>,
    replay: Option<Res<ReplayView<Campaign>>>,
    scene: Option<Res<State<Scene>>>,
    view: Option<Res<State<PlayView>>>,
    cameras: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
) -> Result {
    if scene.is_none() || view.is_some_and(|v| *v.get() == PlayView::HandOver) {
        return Ok(());
    }
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return Ok(()) };
    let Ok((camera, at)) = cameras.single() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::background());
    let map = &game.scenario().map;
    let to_screen = |p: Vec2| camera.world_to_viewport(at, p.extend(0.0)).ok().map(|v| egui::pos2(v.x, v.y));
    for place in &map.places {
        let name = if tr.russian() && !place.name_ru.is_empty() { &place.name_ru } else { &place.name };
        if let Some(p) = to_screen(hex_to_world(map, place.at) + Vec2::new(0.0, -HEX * 0.62)) {
            painter.text(
                p,
                egui::Align2::CENTER_CENTER,
                name,
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(250, 244, 225),
            );
        }
    }
    let state = game.state();
    for a in &state.armies {
        let same: Vec<u32> = state.armies.iter().filter(|b| b.at == a.at).map(|b| b.id.0).collect();
        let i = same.iter().position(|x| *x == a.id.0).unwrap_or(0);
        let Some(p) = to_screen(hex_to_world(map, a.at) + army_offset(i, same.len())) else { continue };
        let (units, health) = strength(game, a);
        painter.text(
            p,
            egui::Align2::CENTER_CENTER,
            format!("{units}·{health}"),
            egui::FontId::proportional(13.0),
            egui::Color32::WHITE,
        );
    }
    Ok(())
}
