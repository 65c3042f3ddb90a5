//! The Great War's query layer (issue 26) agrees with the orders it answers for: every hex a
//! reach lists, the order it stands for is accepted with the reach's path, and every hex the
//! order check would refuse on the way is left out — on the shipped North Sea and August 1914
//! maps, whose ports, coasts and neutral lands are what the eight old walks disagreed on.

use rules::strategic::query::{fleet_may_enter, fleet_reach, land_pieces, retreat_may_pass, retreat_reach};
use rules::strategic::state::{Ctx, Phase};
use rules::strategic::{GreatWar, Order, Scenario};
use rules::view::Viewer;
use std::path::Path;

fn shipped(name: &str) -> Scenario {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war");
    Scenario::load(&dir.join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn movement(s: &Scenario) -> Ctx {
    let mut ctx = GreatWar::new(s, 1).ctx();
    ctx.clock.phase = Phase::Movement;
    ctx.dice.script(Vec::new());
    ctx
}

/// S-NAVAL-4, S-CITY-2: each of the acting power's fleets reaches only hexes `MoveFleet` takes
/// with the reach's own path, within its MP, never a closed port; another power asks nothing of
/// them.
#[test]
fn s_naval_4_a_fleets_reach_is_what_its_move_order_accepts() {
    let s = shipped("north_sea_1916.ron");
    for active in 0..2u8 {
        let mut ctx = movement(&s);
        ctx.clock.active = active;
        let power = ctx.active_power();
        let fleets: Vec<(u32, u32)> =
            ctx.navy.fleets.iter().filter(|f| f.power == power && f.mp_left > 0).map(|f| (f.id, f.mp_left)).collect();
        assert!(!fleets.is_empty(), "power {active} has fleets to move");
        let mut tried = 0;
        for (id, mp) in fleets {
            let reach = fleet_reach(&ctx, Viewer::Player(power), id);
            let other = rules::strategic::PowerId(1 - power.0);
            assert_eq!(fleet_reach(&ctx, Viewer::Player(other), id).ends().count(), 0, "fleet {id} is not the other's");
            for (h, steps) in reach.ends() {
                assert!(steps <= mp && fleet_may_enter(&ctx, power, h), "fleet {id} to {h:?}");
                assert!(ctx.check_port(power, h).is_ok(), "a closed port in fleet {id}'s reach: {h:?}");
                let path = reach.path(h).expect("a path to every end");
                assert_eq!(path.len() as u32, steps);
                // Every tenth end is sailed to on a copy (the order's own check, mines and
                // battles included, never refuses a path of the reach).
                if tried % 10 == 0 {
                    let mut c = ctx.clone();
                    c.apply(&Order::MoveFleet { fleet: id, path })
                        .unwrap_or_else(|e| panic!("fleet {id} to {h:?}: {e}"));
                }
                tried += 1;
            }
        }
        assert!(tried > 20, "the fleets reach some sea: {tried}");
    }
}

/// S-ARMY-15: a retreat's reach passes only land the retreat order lets it through — no enemy,
/// no closed neutral land (issue 12) — at most 10 hexes; on the test front, where the lines are
/// in contact, an engaged piece's retreat along it to a free hex out of contact is accepted.
#[test]
fn s_army_15_a_retreats_reach_is_what_the_retreat_order_accepts() {
    for (name, contact) in [("august_1914.ron", false), ("test_front.ron", true)] {
        let s = shipped(name);
        let ctx = movement(&s);
        let power = ctx.active_power();
        let mut accepted = 0;
        for p in land_pieces(&ctx, power) {
            let reach = retreat_reach(&ctx, power, p.at, |_| true);
            for (h, steps) in reach.ends() {
                assert!(steps <= 10 && retreat_may_pass(&ctx, power, h), "{name}: {:?} to {h:?}", p.piece);
                assert!(!ctx.enemy_on(power, h) && ctx.check_neutral_land(power, h).is_ok(), "{name}: {h:?}");
            }
            if !ctx.next_to_enemy(power, p.at) || p.artillery {
                continue;
            }
            let free =
                reach.ends().find(|(h, steps)| *steps >= 2 && ctx.at(*h).is_empty() && !ctx.next_to_enemy(power, *h));
            if let Some((h, _)) = free {
                let path = reach.path(h).expect("a path");
                let mut c = ctx.clone();
                c.apply(&Order::Retreat { moves: vec![(p.piece, path.clone())] })
                    .unwrap_or_else(|e| panic!("{name}: {:?} along {path:?}: {e}", p.piece));
                accepted += 1;
            }
        }
        assert!(!contact || accepted > 0, "{name}: some engaged piece retreats");
    }
}
