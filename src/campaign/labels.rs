//! Words and numbers on the campaign map, drawn by egui under the panels: each army's strength
//! (units, and the Health they have left) on its counter, and the names of places.

use super::board::{HEX, hex_to_world, shown, stacks};
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
    // Words follow the zoom: a hex's size on screen sets the type, and place names other than
    // the key hexes' give way when the hexes are small.
    let hex_px = match (to_screen(Vec2::ZERO), to_screen(Vec2::new(HEX, 0.0))) {
        (Some(a), Some(b)) => (b.x - a.x).abs(),
        _ => HEX,
    };
    let keys: Vec<rules::campaign::HexAt> = game.scenario().victory.key_hexes.iter().map(|k| k.at).collect();
    let place_font = egui::FontId::proportional((hex_px * 0.32).clamp(9.0, 12.0));
    for place in map.places.iter().filter(|p| hex_px >= 14.0 || keys.contains(&p.at)) {
        let name = if tr.russian() && !place.name_ru.is_empty() { &place.name_ru } else { &place.name };
        if let Some(p) = to_screen(hex_to_world(map, place.at) + Vec2::new(0.0, -HEX * 0.62)) {
            painter.text(
                p,
                egui::Align2::CENTER_CENTER,
                name,
                place_font.clone(),
                egui::Color32::from_rgb(250, 244, 225),
            );
        }
    }
    let state = game.state();
    let number_font = egui::FontId::proportional((hex_px * 0.33).clamp(10.0, 13.0));
    for stack in stacks(state) {
        let Some(p) = to_screen(hex_to_world(map, stack.at) + stack.offset) else { continue };
        let (units, health) = stack
            .armies
            .iter()
            .filter_map(|id| state.army(*id))
            .map(|a| strength(game, a))
            .fold((0, 0), |(u, h), (a, b)| (u + a, h + b));
        let text = match stack.armies.len() {
            1 => format!("{units}·{health}"),
            n => format!("{units}·{health} ×{n}"),
        };
        // A dark edge keeps the numbers readable where they run over the ground.
        let shadow = egui::Color32::from_black_alpha(200);
        painter.text(p + egui::vec2(1.0, 1.0), egui::Align2::CENTER_CENTER, &text, number_font.clone(), shadow);
        painter.text(p, egui::Align2::CENTER_CENTER, text, number_font.clone(), egui::Color32::WHITE);
    }
    Ok(())
}
