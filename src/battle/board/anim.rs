//! Short animations of what an order did: moves along their path, volleys, melee, units leaving
//! the field. Orders wait while they play (the AI's too, so its moves can be followed).

use super::{CELL, Counter, Counters, cell_to_world, shown, viewer};
use crate::replay::ReplayView;
use crate::session::{AnimBusy, GameEvents, Session};
use crate::settings::Settings;
use bevy::prelude::*;
use rules::tactical::Battle as Game;
use rules::tactical::event::Event;
use rules::tactical::{Cell, UnitId};
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AnimQueue>()
        .add_systems(Update, (queue_events, play).chain().in_set(crate::AppSystems::Visuals));
}

/// One thing to show.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Move { unit: UnitId, path: Vec<Cell> },
    Shot { from: UnitId, to: UnitId },
    Melee { units: Vec<UnitId> },
    Gone { unit: UnitId },
}

/// What is still to be shown, and how far the current step has got.
#[derive(Resource, Default)]
pub struct AnimQueue {
    steps: VecDeque<Step>,
    elapsed: f32,
    /// Where the moving counter started the current step.
    start: Option<Vec3>,
    tracer: Option<Entity>,
}

fn queue_events(
    mut events: MessageReader<GameEvents<Game>>,
    mut queue: ResMut<AnimQueue>,
    settings: Res<Settings>,
    session: Option<Res<Session<Game>>>,
) {
    let instant = settings.anim.step_seconds() <= 0.0;
    let view = viewer(session.as_deref());
    let ctx = session.as_ref().map(|s| s.ctx());
    // A hidden enemy's doings are not shown (T-TERR-2).
    let seen = |id: &UnitId| match (&ctx, view) {
        (Some(ctx), Some(v)) => ctx.unit(*id).is_some_and(|u| ctx.visible_to(u, v)),
        _ => true,
    };
    for GameEvents(list) in events.read() {
        if instant {
            continue;
        }
        for e in list {
            let step = match e {
                Event::Moved { unit, path, .. } if !path.is_empty() && seen(unit) => {
                    Some(Step::Move { unit: *unit, path: path.clone() })
                }
                Event::Intercept { unit, path, .. } if seen(unit) => {
                    Some(Step::Move { unit: *unit, path: path.clone() })
                }
                Event::FellBack { unit, to } => Some(Step::Move { unit: *unit, path: vec![*to] }),
                Event::Fired { firer, target, .. } => Some(Step::Shot { from: *firer, to: *target }),
                Event::MeleeExchange { units, .. } => Some(Step::Melee { units: units.clone() }),
                Event::Removed { unit, .. } | Event::Retreated { unit } => Some(Step::Gone { unit: *unit }),
                _ => None,
            };
            queue.steps.extend(step);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn play(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut queue: ResMut<AnimQueue>,
    mut busy: ResMut<AnimBusy>,
    counters: Res<Counters>,
    session: Option<Res<Session<Game>>>,
    replay: Option<Res<ReplayView<Game>>>,
    mut bodies: Query<(&mut Transform, &mut Sprite), With<Counter>>,
    mut tracers: Query<&mut Transform, Without<Counter>>,
) {
    let step_time = settings.anim.step_seconds();
    let Some(battle) = shown(session.as_deref(), replay.as_deref()) else {
        queue.steps.clear();
        busy.0 = false;
        return;
    };
    if queue.steps.is_empty() || step_time <= 0.0 {
        queue.steps.clear();
        busy.0 = false;
        return;
    }
    // The first frame after an idle spell counts from the start of the step: the window slept
    // until the order came (see `crate::wake`), and that wait is no part of the animation.
    let dt = if busy.0 { time.delta_secs() } else { 0.0 };
    busy.0 = true;
    let grid = battle.grid().clone();
    let Some(step) = queue.steps.front().cloned() else { return };
    let duration = match &step {
        Step::Move { path, .. } => step_time * 0.5 * path.len().max(1) as f32,
        _ => step_time,
    };
    queue.elapsed += dt;
    let t = (queue.elapsed / duration).min(1.0);
    let counter = |id: &UnitId| counters.0.get(id).copied();
    match &step {
        Step::Move { unit, path } => {
            if let Some(e) = counter(unit)
                && let Ok((mut tf, _)) = bodies.get_mut(e)
            {
                let start = *queue.start.get_or_insert(tf.translation);
                let points: Vec<Vec3> =
                    std::iter::once(start).chain(path.iter().map(|c| cell_to_world(&grid, *c).extend(2.5))).collect();
                let span = t * (points.len() - 1) as f32;
                let i = (span.floor() as usize).min(points.len() - 2);
                tf.translation = points[i].lerp(points[i + 1], span - i as f32);
            }
        }
        Step::Shot { from, to } => {
            let place = |id: &UnitId, bodies: &Query<(&mut Transform, &mut Sprite), With<Counter>>| {
                counter(id).and_then(|e| bodies.get(e).ok()).map(|(tf, _)| tf.translation.truncate())
            };
            if let (Some(a), Some(b)) = (place(from, &bodies), place(to, &bodies)) {
                let tracer = *queue.tracer.get_or_insert_with(|| {
                    commands
                        .spawn((
                            Name::new("Volley"),
                            Sprite::from_color(Color::srgba(1.0, 0.92, 0.6, 0.9), Vec2::ONE),
                            Transform::default(),
                        ))
                        .id()
                });
                if let Ok(mut tf) = tracers.get_mut(tracer) {
                    let head = a.lerp(b, t);
                    let tail = a.lerp(b, (t - 0.35).max(0.0));
                    let d = head - tail;
                    tf.translation = ((head + tail) / 2.0).extend(5.0);
                    tf.rotation = Quat::from_rotation_z(d.y.atan2(d.x));
                    tf.scale = Vec3::new(d.length().max(1.0), CELL * 0.08, 1.0);
                }
            }
        }
        Step::Melee { units } => {
            let shake = (t * 40.0).sin() * CELL * 0.06 * (1.0 - t);
            for id in units {
                if let Some(e) = counter(id)
                    && let Ok((mut tf, _)) = bodies.get_mut(e)
                {
                    tf.rotation = Quat::from_rotation_z(shake / CELL);
                }
            }
        }
        Step::Gone { unit } => {
            if let Some(e) = counter(unit)
                && let Ok((_, mut sprite)) = bodies.get_mut(e)
            {
                sprite.color = sprite.color.with_alpha(1.0 - t);
            }
        }
    }
    if t >= 1.0 {
        queue.steps.pop_front();
        queue.elapsed = 0.0;
        queue.start = None;
        if let Some(e) = queue.tracer.take() {
            commands.entity(e).despawn();
        }
    }
}
