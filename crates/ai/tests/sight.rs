//! The AI plays from its own side's view only (issue 26): it is handed `Sight::ctx_as` for its
//! player, so hidden enemy pieces moved anywhere change none of its orders.

use ai::great_war::GwAi;
use ai::{Ai, Level, Player, Think};
use rules::Game;
use rules::hash::StateHash;
use rules::strategic::hexmap::Terrain as GwTerrain;
use rules::strategic::{GreatWar, HexAt, PowerId, Scenario as GwScenario};
use rules::tactical::{Battle, Dir, Side, Terrain};
use rules::testing::Field;
use rules::view::{Sight, Viewer};
use std::path::PathBuf;
use web_time::Duration;

/// Plays `game` until `stop` says so or `seat` has given `limit` orders; every other player ends
/// its turn or phase at once. Returns the seat's orders and the hash of its view at each of its
/// decisions (`view`: how to read it).
fn seat_orders<G: Sight, P: Player<G>>(
    game: &mut G,
    seat: G::Player,
    ai: &mut P,
    stop: impl Fn(&G) -> bool,
    limit: usize,
    view: impl Fn(&G) -> StateHash,
) -> (Vec<G::Order>, Vec<StateHash>) {
    let (mut orders, mut views) = (Vec::new(), Vec::new());
    while let Some(active) = game.active_player() {
        if stop(game) || orders.len() >= limit {
            break;
        }
        let order = if active == seat {
            views.push(view(game));
            let ctx = game.ctx_as(Viewer::Player(seat));
            let order = loop {
                match ai.think(&ctx, Duration::from_millis(50)) {
                    Think::Order(o) => break o,
                    Think::Thinking => {}
                    Think::Idle => break game.pass(),
                }
            };
            orders.push(order.clone());
            order
        } else {
            game.pass()
        };
        if game.apply(order.clone()).is_err() {
            game.apply(game.pass()).expect("the pass is legal");
        }
    }
    (orders, views)
}

/// T-TERR-2: red's light infantry waits in a wood of four cells in the north-west corner, out of
/// everyone's reach; blue's AI (attacking, first to move) plays its first two turns the same
/// whichever cell of the wood it stands on: its view (but for the scenario's hash) is the same at
/// each of its decisions, while the whole field differs.
#[test]
fn t_terr_2_the_battle_ai_gives_the_same_orders_wherever_the_hidden_jaegers_are() {
    let wood = [(0, 0), (1, 0), (0, 1), (1, 1)];
    let battle = |at: (i32, i32)| {
        Field::new(10, 10)
            .attacker(Side::Blue)
            .terrain(&wood, Terrain::DenseForest)
            .unit(4242, Side::Red, "light_infantry", at, Dir::South)
            .unit(11, Side::Red, "line_infantry", (5, 2), Dir::South)
            .unit(12, Side::Red, "artillery", (6, 2), Dir::South)
            .unit(21, Side::Blue, "line_infantry", (5, 8), Dir::North)
            .unit(22, Side::Blue, "light_cavalry", (7, 8), Dir::North)
            .battle(3)
    };
    // The scenarios differ in the jägers' start (a scenario file is public): its hash is left out.
    let blue = |b: &Battle| {
        let mut v = b.view(Viewer::Player(Side::Blue));
        v.scenario = StateHash(0);
        Battle::view_hash(&v)
    };
    let mut runs = Vec::new();
    for at in wood {
        let mut game = battle(at);
        let mut ai = Ai::new(Side::Blue, Level::Recruit, 3);
        runs.push(seat_orders(&mut game, Side::Blue, &mut ai, |g| g.turn() > 4, 40, blue));
    }
    assert!(!runs[0].0.is_empty(), "blue gave orders");
    for (at, run) in wood.iter().zip(&runs).skip(1) {
        assert_eq!(run.1, runs[0].1, "jägers at {at:?}: blue's view was the same at every decision");
        assert_eq!(run.0, runs[0].0, "jägers at {at:?}: the same orders");
    }
    let full: Vec<_> = wood
        .iter()
        .map(|at| battle(*at).ctx())
        .map(|c| c.units.iter().map(|u| (u.id, u.cell)).collect::<Vec<_>>())
        .collect();
    assert_ne!(full[0], full[1], "the whole field differs: the test varies what blue may not see");
}

fn north_sea() -> GwScenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/north_sea_1916.ron");
    GwScenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// S-SUB-5, S-AIR-1: the German U-Flottille II (fleet 11) starts on three sea hexes far from every
/// British fleet; the British AI plays its first turn's Preparation and Movement phases the same
/// from each (its view, but for the scenario's hash, is the same at each of its decisions).
#[test]
fn s_sub_5_the_great_war_ai_gives_the_same_orders_wherever_the_undetected_boats_are() {
    let base = north_sea();
    let gb = PowerId(base.power_index("gb").expect("Great Britain") as u8);
    let british: Vec<HexAt> = base.fleets.iter().filter(|f| f.power == "gb").map(|f| f.at).collect();
    let spots: Vec<HexAt> = (0..base.map.len())
        .map(|i| base.map.at_index(i))
        .filter(|h| base.map.terrain(*h) == Some(GwTerrain::Sea) && base.map.city_at(*h).is_none())
        .filter(|h| british.iter().all(|b| b.distance(*h) > 40))
        .step_by(997)
        .take(3)
        .collect();
    assert_eq!(spots.len(), 3, "three far-off sea hexes");
    let view = |g: &GreatWar| {
        let mut v = g.view(Viewer::Player(gb));
        v.scenario = StateHash(0);
        GreatWar::view_hash(&v)
    };
    let mut runs = Vec::new();
    for at in &spots {
        let mut s = base.clone();
        if let Some(f) = s.fleets.iter_mut().find(|f| f.id == 11) {
            f.at = *at;
        }
        let mut game = GreatWar::new(&s, 2);
        let mut ai = GwAi::new(gb, Level::Veteran, 2);
        // Preparation and Movement only: reconnaissance flies in the Fire phase.
        let start = base.start_turn;
        let stop = |g: &GreatWar| g.clock().phase > rules::strategic::Phase::Movement || g.turn() != start;
        let (orders, views) = seat_orders(&mut game, gb, &mut ai, stop, 400, view);
        runs.push((orders, views));
    }
    assert!(!runs[0].0.is_empty(), "Britain gave orders");
    for (at, run) in spots.iter().zip(&runs).skip(1) {
        assert_eq!(run.1, runs[0].1, "boats at {at}: Britain's view was the same at every decision");
        assert_eq!(run.0, runs[0].0, "boats at {at}: the same orders");
    }
}
