//! Melee explained where it happens: a move that ends next to an enemy is marked on the field
//! (crossed sabres), changes the pointer, and its preview says that the melee is fought at the
//! end of the turn and what bonus a charge brings; a click to fire that the engine refuses (heavy
//! cavalry, a unit in melee) says why, from the engine's typed refusal, and what to do instead.

use super::card::why_not_fire;
use super::{HoveredCell, Selection};
use crate::i18n::Tr;
use crate::screens::{Mode, Screen};
use crate::session::{AnimBusy, Session};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::tactical::components::{Phase, Status};
use rules::tactical::units::Arm;
use rules::tactical::{Battle, Cell, Ctx, Order, UnitId};

/// The board's part: the sabres on cells where a move ends in contact, and the pointer.
pub(super) fn view_plugin(app: &mut App) {
    app.add_systems(Startup, make_sabres)
        .add_systems(Update, mark_contact_cells.in_set(crate::AppSystems::Visuals).run_if(in_state(Mode::Battle)))
        .add_systems(
            EguiPrimaryContextPass,
            pointer.run_if(in_state(Screen::Playing)).run_if(in_state(Mode::Battle)).after(crate::hud::PanelsEnd),
        );
}

/// The visible enemies a move of `unit` to `cell` would end next to (T-MELEE-1, T-MOVE-3).
pub fn contact_at(ctx: &Ctx, unit: UnitId, cell: Cell) -> Vec<UnitId> {
    let Some(u) = ctx.unit(unit) else { return Vec::new() };
    let around = cell.neighbours();
    ctx.units
        .iter()
        .filter(|e| e.status.on_field() && e.side != u.side && ctx.visible_to(e, u.side) && around.contains(&e.cell))
        .map(|e| e.id)
        .collect()
}

/// What a click on a cell would do, explained: the engine's preview lines with, for a move into
/// contact, when and how the melee is fought, and for a refused fire, why not.
pub fn explain(tr: &Tr, ctx: &Ctx, order: &Order, preview: Result<Vec<String>, String>) -> Vec<String> {
    match (order, preview) {
        (Order::Fire { unit, target }, Err(_)) => why_not_fire(tr, ctx, *unit, *target).unwrap_or_default(),
        (Order::Move { unit, path, .. }, Ok(lines)) => {
            let Some(end) = path.last() else { return lines };
            let enemies = contact_at(ctx, *unit, *end);
            if enemies.is_empty() {
                return lines;
            }
            let names: Vec<String> = enemies.iter().map(|e| super::BattleNames::unit(tr, ctx, *e)).collect();
            let mut out = vec![tr.f("ui.melee.contact", &[("enemies", names.join(", "))])];
            if let Some(u) = ctx.unit(*unit) {
                if ctx.arm(u) == Arm::Cavalry {
                    let forest = ctx.grid.is_forest(*end)
                        || enemies.iter().any(|e| ctx.unit(*e).is_some_and(|e| ctx.grid.is_forest(e.cell)));
                    out.push(tr.t(if forest { "ui.melee.no_charge_forest" } else { "ui.melee.charge" }));
                }
                if enemies.iter().any(|e| ctx.unit(*e).is_some_and(|e| e.reactions.counter_volley && !e.activity.moved))
                {
                    out.push(tr.t("ui.melee.counter_volley"));
                }
            }
            out.extend(lines);
            out
        }
        (_, Ok(lines)) => lines,
        (_, Err(why)) => vec![tr.f("ui.preview.illegal", &[("why", why)])],
    }
}

/// The crossed sabres image (orange on transparent).
#[derive(Resource, Clone)]
pub struct Sabres(pub Handle<Image>);

pub fn sabres_image() -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    let n = 24u32;
    let mut data = Vec::with_capacity((n * n * 4) as usize);
    for y in 0..n {
        for x in 0..n {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            // Two blades corner to corner, and their hilts across them.
            let blade = (fx - fy).abs() < 1.3 || (fx + fy - n as f32).abs() < 1.3;
            let hilt = ((fx - 6.0).abs() < 3.5 && (fy - (n as f32 - 6.0)).abs() < 1.0)
                || ((fx - (n as f32 - 6.0)).abs() < 3.5 && (fy - (n as f32 - 6.0)).abs() < 1.0);
            let edge = x.min(y).min(n - 1 - x).min(n - 1 - y) < 2;
            data.extend_from_slice(&if (blade || hilt) && !edge { [255, 150, 40, 255] } else { [0, 0, 0, 0] });
        }
    }
    Image::new(
        Extent3d { width: n, height: n, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::RENDER_WORLD | RenderAssetUsages::MAIN_WORLD,
    )
}

fn make_sabres(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    commands.insert_resource(Sabres(images.add(sabres_image())));
}

/// When the contact marks were drawn: orders given, the selection, an animation running, turns passed.
type MarksKey = Option<(usize, Option<UnitId>, bool, u64)>;

/// A sabres mark on a cell where the selected unit's move would end in contact.
#[derive(Component)]
struct ContactMark;

#[allow(clippy::too_many_arguments)]
fn mark_contact_cells(
    mut commands: Commands,
    session: Option<Res<Session<Battle>>>,
    selection: Res<Selection>,
    busy: Res<AnimBusy>,
    sabres: Option<Res<Sabres>>,
    old: Query<Entity, With<ContactMark>>,
    mut last: Local<MarksKey>,
) {
    let key = session.as_deref().map(|s| (s.game.orders().len(), selection.of(s), busy.0, s.turns_passed));
    if *last == key {
        return;
    }
    *last = key;
    for e in &old {
        commands.entity(e).despawn();
    }
    let (Some(session), Some(sabres)) = (session, sabres) else { return };
    if busy.0 || !session.human_turn() {
        return;
    }
    let ctx = session.ctx();
    if ctx.clock.phase != Phase::Battle {
        return;
    }
    let Some(u) = selection
        .of(&session)
        .and_then(|id| ctx.unit(id))
        .filter(|u| u.side == ctx.clock.active && u.status == Status::Active)
    else {
        return;
    };
    for r in ctx.reachable(u.id) {
        if contact_at(&ctx, u.id, r.cell).is_empty() {
            continue;
        }
        let at = super::board::cell_to_world(&ctx.grid, r.cell);
        commands.spawn((
            Name::new("Contact mark"),
            ContactMark,
            DespawnOnExit(Screen::Playing),
            Sprite { image: sabres.0.clone(), custom_size: Some(Vec2::splat(super::board::CELL * 0.55)), ..default() },
            Transform::from_translation(at.extend(1.7)),
        ));
    }
}

/// The pointer says what a click would do: sabres for a move into melee, a crosshair to fire,
/// "not allowed" for a fire the engine refuses.
fn pointer(
    mut contexts: EguiContexts,
    session: Option<Res<Session<Battle>>>,
    selection: Res<Selection>,
    hovered: Res<HoveredCell>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (Some(session), Some(cell)) = (session, hovered.0) else { return Ok(()) };
    if !session.human_turn() {
        return Ok(());
    }
    let bctx = session.ctx();
    if bctx.clock.phase != Phase::Battle {
        return Ok(());
    }
    let side = bctx.clock.active;
    let Some(u) =
        selection.of(&session).and_then(|id| bctx.unit(id)).filter(|u| u.side == side && u.status == Status::Active)
    else {
        return Ok(());
    };
    let icon = if let Some(enemy) = bctx.at(cell).filter(|e| e.side != side && bctx.visible_to(e, side)) {
        if bctx.check_fire(u.id, enemy.id).is_ok() { egui::CursorIcon::Crosshair } else { egui::CursorIcon::NotAllowed }
    } else if bctx.reachable(u.id).iter().any(|r| r.cell == cell) && !contact_at(&bctx, u.id, cell).is_empty() {
        egui::CursorIcon::Grabbing
    } else {
        return Ok(());
    };
    ctx.set_cursor_icon(icon);
    Ok(())
}
