//! Short animations of the Great War's orders: a counter that changed hex glides there from
//! where it stood, at the player's animation speed (Settings). Purely visual: unlike the
//! battle's, orders and the AI never wait for them, since one turn of the grand campaign moves
//! hundreds of pieces; the event log tells every die and sum. Fights, fire and losses flash
//! where they happened (`fx`).

use super::counters::{Counter, CounterOf};
use super::geometry::hex_to_world;
use crate::screens::{Mode, Scene};
use crate::settings::Settings;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use rules::strategic::HexAt;
use std::collections::BTreeMap;

/// UI limit: a counter that moved farther than this many hexes (an arrival, a landing from a
/// far port, a jump after a loaded save) appears at once instead of crossing the map.
pub const GLIDE_MAX_HEXES: u32 = 12;

pub(super) fn plugin(app: &mut App) {
    // A new game or replay starts from nothing: no counter glides in from the last one's map.
    let forget = |mut last: ResMut<LastSeen>| last.0.clear();
    app.init_resource::<LastSeen>()
        .add_systems(
            Update,
            (start, glide).chain().after(super::counters::DrawCounters).in_set(crate::AppSystems::Visuals),
        )
        .add_systems(OnExit(Scene::Playing(Mode::GreatWar)), forget)
        .add_systems(OnExit(Scene::Replay(Mode::GreatWar)), forget);
}

/// Where each counter stood when the counters were last drawn.
#[derive(Resource, Default, Debug)]
pub struct LastSeen(BTreeMap<CounterOf, HexAt>);

/// A counter on its way: drawn `offset` away from its hex, closing in until `left` runs out.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Glide {
    pub offset: Vec2,
    pub left: f32,
    pub duration: f32,
}

/// Where a counter drawn at `now` glides from, given where it stood before (`None`: no glide).
pub fn glide_from(before: Option<HexAt>, now: HexAt) -> Option<Vec2> {
    let before = before.filter(|&b| b != now && b.distance(now) <= GLIDE_MAX_HEXES)?;
    Some(hex_to_world(before) - hex_to_world(now))
}

/// New counters (the board redraws them all after an order) start from where their piece stood.
fn start(
    mut commands: Commands,
    settings: Res<Settings>,
    mut last: ResMut<LastSeen>,
    mut added: Query<(Entity, &Counter, &mut Transform), Added<Counter>>,
) {
    if added.is_empty() {
        return;
    }
    let duration = settings.anim.step_seconds();
    let mut now = BTreeMap::new();
    for (entity, counter, mut tf) in &mut added {
        now.insert(counter.what, counter.hex);
        if duration <= 0.0 {
            continue;
        }
        if let Some(offset) = glide_from(last.0.get(&counter.what).copied(), counter.hex) {
            tf.translation += offset.extend(0.0);
            commands.entity(entity).insert(Glide { offset, left: duration, duration });
        }
    }
    last.0 = now;
}

/// Moves gliding counters home; the window keeps drawing while one is on its way.
fn glide(
    mut commands: Commands,
    time: Res<Time>,
    mut moving: Query<(Entity, &mut Glide, &mut Transform)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let dt = time.delta_secs();
    let mut any = false;
    for (entity, mut g, mut tf) in &mut moving {
        let before = g.offset * (g.left / g.duration);
        g.left = (g.left - dt).max(0.0);
        let after = g.offset * (g.left / g.duration);
        tf.translation += (after - before).extend(0.0);
        if g.left <= 0.0 {
            commands.entity(entity).remove::<Glide>();
        } else {
            any = true;
        }
    }
    if any {
        redraw.write(RequestRedraw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::strategic::{ForceId, Piece};

    #[test]
    fn a_counter_glides_only_from_a_near_other_hex() {
        let at = HexAt::new(10, 10);
        assert_eq!(glide_from(None, at), None, "a new counter appears");
        assert_eq!(glide_from(Some(at), at), None, "it stayed");
        let near = HexAt::new(10 + GLIDE_MAX_HEXES as i32, 10);
        assert_eq!(near.distance(at), GLIDE_MAX_HEXES);
        assert_eq!(glide_from(Some(near), at), Some(hex_to_world(near) - hex_to_world(at)));
        let far = HexAt::new(11 + GLIDE_MAX_HEXES as i32, 10);
        assert_eq!(glide_from(Some(far), at), None, "farther than the limit: at once");
    }

    /// Drawn again one hex on, the counter starts where it stood and arrives at its hex.
    #[test]
    fn a_moved_counter_glides_home() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_message::<RequestRedraw>()
            .init_resource::<Settings>()
            .init_resource::<LastSeen>()
            .add_systems(Update, (start, glide).chain());
        let what = CounterOf::Piece(Piece::Unit(ForceId(7)));
        let draw = |app: &mut App, hex: HexAt| {
            app.world_mut()
                .spawn((Counter { hex, what }, Transform::from_translation(hex_to_world(hex).extend(5.0))))
                .id()
        };
        let first = draw(&mut app, HexAt::new(16, 3));
        app.update();
        assert!(app.world().get::<Glide>(first).is_none(), "the first drawing does not glide");
        app.world_mut().despawn(first);
        let to = HexAt::new(15, 3);
        let second = draw(&mut app, to);
        app.update();
        let glide = *app.world().get::<Glide>(second).expect("it glides");
        assert_eq!(glide.offset, hex_to_world(HexAt::new(16, 3)) - hex_to_world(to));
        let x = app.world().get::<Transform>(second).expect("drawn").translation.x;
        assert!((x - hex_to_world(to).x).abs() > 1.0, "it starts away from its hex");
        for _ in 0..200 {
            if app.world().get::<Glide>(second).is_none() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
            app.update();
        }
        assert!(app.world().get::<Glide>(second).is_none(), "it arrives");
        let home = app.world().get::<Transform>(second).expect("drawn").translation;
        assert!((home.truncate() - hex_to_world(to)).length() < 1e-3, "{home} at its hex");
    }
}
