//! What the selected unit can do, drawn on the field: reachable cells with their cost, the
//! path to the cell under the pointer, the firing arc with open and blocked targets, and the
//! deployment zone. All of it is asked of the engine (reachability, arcs, lines of fire).

use super::{CELL, cell_to_world};
use crate::battle::{HoveredCell, Selection};
use crate::session::{AnimBusy, Session};
use bevy::prelude::*;
use rules::tactical::Battle as Game;
use rules::tactical::Cell;
use rules::tactical::components::{Phase, Status};
use rules::tactical::units::Range;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw.in_set(crate::AppSystems::Visuals));
}

/// A marker on the field, redrawn when the selection or the pointer changes.
#[derive(Component)]
struct Overlay;

/// When to redraw.
#[derive(Default, PartialEq, Eq, Clone)]
struct Key {
    orders: usize,
    selected: Option<u32>,
    hovered: Option<Cell>,
    busy: bool,
    active: bool,
}

fn square(commands: &mut Commands, at: Vec2, colour: Color, size: f32, z: f32) {
    commands.spawn((Overlay, Sprite::from_color(colour, Vec2::splat(size)), Transform::from_translation(at.extend(z))));
}

fn draw(
    mut commands: Commands,
    session: Option<Res<Session<Game>>>,
    hovered: Res<HoveredCell>,
    busy: Res<AnimBusy>,
    selection: Res<Selection>,
    old: Query<Entity, With<Overlay>>,
    mut last: Local<Key>,
) {
    let key = Key {
        orders: session.as_ref().map_or(0, |s| s.game.orders().len()),
        selected: session.as_deref().and_then(|s| selection.of(s)).map(|u| u.0),
        hovered: hovered.0,
        busy: busy.0,
        active: session.as_ref().is_some_and(|s| s.human_turn()),
    };
    if *last == key && session.as_ref().is_some_and(|s| !s.is_changed()) {
        return;
    }
    *last = key.clone();
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(session) = session else { return };
    if busy.0 || !session.human_turn() {
        return;
    }
    let ctx = session.ctx();
    let grid = ctx.grid.clone();
    let side = ctx.clock.active;
    match ctx.clock.phase {
        Phase::Redoubts | Phase::Deployment => {
            for cell in ctx.statics.zone(side) {
                square(&mut commands, cell_to_world(&grid, *cell), Color::srgba(1.0, 0.9, 0.3, 0.18), CELL * 0.94, 1.0);
            }
            return;
        }
        Phase::Over => return,
        Phase::Battle => {}
    }
    let Some(u) =
        selection.of(&session).and_then(|id| ctx.unit(id)).filter(|u| u.side == side && u.status == Status::Active)
    else {
        return;
    };
    // Reachable cells and what they cost (turning first costs infantry 1 MP, T-MOVE-2).
    let reach = ctx.reachable(u.id);
    for r in &reach {
        let at = cell_to_world(&grid, r.cell);
        square(&mut commands, at, Color::srgba(0.25, 0.55, 1.0, 0.28), CELL * 0.9, 1.0);
        // Its cost in MP, as pips along the top of the cell.
        for i in 0..r.cost.min(8) {
            let pip = at + Vec2::new(-CELL * 0.36 + i as f32 * CELL * 0.1, CELL * 0.38);
            square(&mut commands, pip, Color::srgba(1.0, 1.0, 1.0, 0.85), CELL * 0.06, 1.5);
        }
    }
    if let Some(target) = hovered.0
        && let Some(r) = reach.iter().find(|r| r.cell == target)
    {
        for c in &r.path {
            square(&mut commands, cell_to_world(&grid, *c), Color::srgba(1.0, 1.0, 1.0, 0.7), CELL * 0.18, 1.6);
        }
    }
    // The firing arc: open cells lightly, enemies in it green if the line is open, red if not.
    if ctx.ty(u).fires().is_some() && !u.activity.fired {
        let whole_map = matches!(ctx.fire_range(u, u.cell), Some(Range::WholeMap));
        for cell in grid.cells().filter(|c| *c != u.cell) {
            if ctx.in_arc(u, u.cell, u.facing, cell).is_err() {
                continue;
            }
            let enemy = ctx.at(cell).filter(|e| e.side != side && ctx.visible_to(e, side));
            let open = ctx.line_clear(u, u.cell, cell).is_ok();
            let at = cell_to_world(&grid, cell);
            if let Some(_e) = enemy {
                let colour = if open { Color::srgba(0.2, 1.0, 0.3, 0.55) } else { Color::srgba(1.0, 0.2, 0.15, 0.55) };
                square(&mut commands, at, colour, CELL * 0.98, 1.2);
            } else if !whole_map || cell.distance(u.cell) <= ctx.rules().canister_range {
                let colour = if open { Color::srgba(1.0, 0.6, 0.1, 0.16) } else { Color::srgba(0.4, 0.0, 0.0, 0.22) };
                square(&mut commands, at, colour, CELL * 0.94, 1.1);
            }
        }
    }
}
