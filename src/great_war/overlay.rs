//! What the selection can do, on the map: the selected piece's hex, the hexes it can reach this
//! phase, the path to the hex under the pointer, and the pointer's hex.

use super::board::{GwArt, shown};
use super::command::sea_path;
use super::geometry::hex_to_world;
use super::land_orders::{LandPick, Pick};
use super::{HoveredHex, Selected, Selection};
use crate::screens::{Mode, Scene};
use crate::session::Session;
use bevy::prelude::*;
use rules::strategic::query::army_moves;
use rules::strategic::{Ctx, GreatWar, HexAt, Phase, Piece};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Shown>()
        .add_systems(Update, sync.in_set(crate::AppSystems::Visuals).run_if(in_state(Scene::Playing(Mode::GreatWar))))
        .add_systems(OnExit(Scene::Playing(Mode::GreatWar)), forget);
}

/// What the marks were drawn for: the orders given, the selection, the hex under the pointer,
/// the phases passed and the pick in hand.
type ShownFor = (usize, Option<Selected>, Option<HexAt>, u64, Option<Pick>);

#[derive(Resource, Default)]
struct Shown {
    key: Option<ShownFor>,
    entities: Vec<Entity>,
}

fn forget(mut shown: ResMut<Shown>) {
    *shown = Shown::default();
}

/// The hexes a pick in hand may name, as the engine says (a purchase's cities), to show while it
/// waits for the click.
pub fn pick_hexes(ctx: &Ctx, pick: &Pick) -> Vec<HexAt> {
    match pick {
        Pick::Recruit(r) => ctx.recruit_places(ctx.active_power(), r),
        _ => Vec::new(),
    }
}

/// Where the selection stands.
pub fn selected_hexes(ctx: &Ctx, s: Selected) -> Vec<HexAt> {
    match s {
        // A gun fires from its hex, or attached from every hex of its formation (S-ARMY-5).
        Selected::Piece(Piece::Unit(u)) if ctx.piece_hex(Piece::Unit(u)).is_none() => ctx.gun_hexes(u),
        Selected::Piece(p) => ctx.piece_hex(p).into_iter().collect(),
        Selected::Army(a) => ctx.formation_hexes(a),
        Selected::Fleet(f) => super::fleet(ctx, f).map(|f| f.at).into_iter().collect(),
        Selected::Squadron(q) => super::sea_orders::squadron(ctx, q).map(|q| q.base).into_iter().collect(),
    }
}

/// The hexes the selection can reach this phase.
pub fn reach(ctx: &Ctx, s: Selected) -> Vec<HexAt> {
    // S-ART-2: in the Fire phase, a gun's reach is its range.
    if ctx.clock.phase == Phase::Fire
        && let Selected::Piece(Piece::Unit(u)) = s
    {
        return ctx.check_fire_range(u).map(|(_, hexes)| hexes).unwrap_or_default();
    }
    if ctx.clock.phase != Phase::Movement {
        return Vec::new();
    }
    match s {
        // S-ARMY-3: a corps or division that serves in an army or corps has no moves of its own.
        Selected::Piece(p) if ctx.free_piece(p).is_err() => Vec::new(),
        Selected::Piece(p) => ctx.destinations(p).into_iter().map(|(h, _, _)| h).collect(),
        Selected::Army(a) => ctx
            .formation(a)
            .and_then(|f| f.corps.first().copied())
            .map(|c| ctx.destinations(Piece::Corps(c)).into_iter().map(|(h, _, _)| h).collect())
            .unwrap_or_default(),
        // S-NAVAL-4, S-CITY-2: the engine's walk, closed ports left out, as the order is checked.
        Selected::Fleet(f) if super::fleet(ctx, f).is_some() => {
            rules::strategic::query::fleet_reach(ctx, rules::view::Viewer::Player(ctx.active_power()), f)
                .ends()
                .map(|(h, _)| h)
                .collect()
        }
        Selected::Fleet(_) => Vec::new(),
        Selected::Squadron(_) => Vec::new(),
    }
}

/// The path the selection would take to `to`.
pub fn path_to(ctx: &Ctx, s: Selected, to: HexAt) -> Vec<HexAt> {
    match s {
        Selected::Piece(p) if ctx.free_piece(p).is_err() => Vec::new(),
        Selected::Piece(p) => {
            ctx.destinations(p).into_iter().find(|(h, _, _)| *h == to).map(|(_, _, path)| path).unwrap_or_default()
        }
        Selected::Army(a) => army_moves(ctx, a, to).into_iter().flat_map(|(_, p)| p).collect(),
        Selected::Fleet(f) => sea_path(ctx, f, to).unwrap_or_default(),
        Selected::Squadron(_) => Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn sync(
    mut commands: Commands,
    session: Option<Res<Session<GreatWar>>>,
    selection: Res<Selection>,
    hovered: Res<HoveredHex>,
    art: Option<Res<GwArt>>,
    pick: Res<LandPick>,
    mut shown_now: ResMut<Shown>,
) {
    let Some(art) = art else { return };
    let Some(session) = session else { return };
    let Some(game) = shown(Some(&session), None) else { return };
    let selected = selection.of(&session);
    let pick = pick.of(&session).cloned();
    let key = (game.orders().len(), selected, hovered.0, session.turns_passed, pick.clone());
    if shown_now.key.as_ref() == Some(&key) {
        return;
    }
    shown_now.key = Some(key);
    for e in std::mem::take(&mut shown_now.entities) {
        commands.entity(e).despawn();
    }
    let ctx = game.ctx();
    let scene = Scene::Playing(Mode::GreatWar);
    let mut put = |commands: &mut Commands, image: &Handle<Image>, at: HexAt, colour: Color, z: f32| {
        let e = commands
            .spawn((
                Name::new("Overlay"),
                Sprite { image: image.clone(), color: colour, ..default() },
                Transform::from_translation(hex_to_world(at).extend(z)),
                DespawnOnExit(scene),
            ))
            .id();
        shown_now.entities.push(e);
    };
    // The places a purchase may appear, while it waits for the click.
    for h in pick.as_ref().map(|p| pick_hexes(&ctx, p)).unwrap_or_default() {
        put(&mut commands, &art.hex_fill, h, Color::srgba(0.45, 1.0, 0.45, 0.45), 2.2);
    }
    if let Some(s) = selected {
        for h in reach(&ctx, s) {
            put(&mut commands, &art.hex_fill, h, Color::srgba(1.0, 1.0, 0.6, 0.28), 2.0);
        }
        if let Some(to) = hovered.0 {
            for h in path_to(&ctx, s, to) {
                put(&mut commands, &art.hex_fill, h, Color::srgba(1.0, 0.85, 0.2, 0.55), 2.1);
            }
        }
        for h in selected_hexes(&ctx, s) {
            put(&mut commands, &art.hex_ring, h, Color::srgb(1.0, 0.95, 0.2), 4.0);
        }
    }
    if let Some(h) = hovered.0 {
        put(&mut commands, &art.hex_ring, h, Color::srgba(1.0, 1.0, 1.0, 0.8), 4.1);
    }
}
