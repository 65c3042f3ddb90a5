//! T-SETUP, T-TURN, T-MOVE.

use rules::tactical::components::Phase;
use rules::tactical::event::Event;
use rules::tactical::{Battle, Dir, Order, Side, Status, Terrain, UnitId};
use rules::testing::orders::*;
use rules::testing::{Field, shipped};

#[test]
fn t_setup_2_redoubts_first_defender_then_attacker_in_own_zone() {
    let mut b = Battle::new(&shipped("open_field"), 1);
    let clock = b.clock();
    assert_eq!(
        (clock.phase, clock.active),
        (Phase::Redoubts, Side::Blue),
        "T-SETUP-2: the defender places redoubts first"
    );
    // Outside the defender's 3 southern rows.
    let err = b.apply(Order::PlaceRedoubt { cell: cell(5, 10) }).unwrap_err().to_string();
    assert!(err.contains("T-SETUP-2"), "{err}");
    b.apply(Order::PlaceRedoubt { cell: cell(5, 12) }).unwrap(); // row 11..13 = the zone (3 rows, house)
    b.apply(Order::PlaceRedoubt { cell: cell(12, 13) }).unwrap();
    let err = b.apply(Order::PlaceRedoubt { cell: cell(13, 13) }).unwrap_err().to_string();
    assert!(err.contains("T-STRAT-8"), "only 2: {err}");
    b.apply(Order::EndSetup).unwrap();
    assert_eq!(b.clock().active, Side::Red, "T-SETUP-2: then the attacker's redoubt");
    b.apply(Order::PlaceRedoubt { cell: cell(4, 1) }).unwrap();
    b.apply(Order::EndSetup).unwrap();
    assert_eq!(b.grid().terrain(cell(5, 12)), Some(Terrain::Redoubt));
    let clock = b.clock();
    assert_eq!((clock.phase, clock.active), (Phase::Deployment, Side::Red), "T-SETUP-1: the attacker deploys first");
}

#[test]
fn t_setup_1_auto_deployment_front_row_centre_outwards_left_first() {
    let mut b = Battle::new(&shipped("open_field"), 1);
    b.apply(Order::EndSetup).unwrap();
    b.apply(Order::EndSetup).unwrap();
    // Red deploys its first unit by hand, then leaves the rest to the timer.
    b.apply(Order::Deploy { unit: UnitId(1), cell: cell(0, 0), facing: Dir::South }).unwrap();
    let err = b.apply(Order::Deploy { unit: UnitId(2), cell: cell(0, 3), facing: Dir::South }).unwrap_err().to_string();
    assert!(err.contains("T-SETUP-2"), "{err}");
    let events = b.apply(Order::EndSetup).unwrap();
    let auto: Vec<(UnitId, (i32, i32))> = events
        .iter()
        .filter_map(|e| match e {
            Event::Deployed { unit, cell, automatic: true, .. } => Some((*unit, (cell.x, cell.y))),
            _ => None,
        })
        .collect();
    // Army-list order 2, 3, ...; front row (y = 2) first; centre outwards, left first: facing south, left is east.
    assert_eq!(auto[0], (UnitId(2), (10, 2)), "T-SETUP-1");
    assert_eq!(auto[1], (UnitId(3), (9, 2)), "T-SETUP-1");
    assert_eq!(auto[2], (UnitId(4), (11, 2)), "T-SETUP-1");
    assert_eq!(auto.len(), 9);
    assert_eq!(b.clock().active, Side::Blue, "then the defender deploys");
    b.apply(Order::EndSetup).unwrap();
    let clock = b.clock();
    assert_eq!((clock.phase, clock.turn, clock.round, clock.active), (Phase::Battle, 1, 1, Side::Red), "T-TURN-1");
    let blue: Vec<_> = b.units(None).into_iter().filter(|u| u.side == Side::Blue).collect();
    // Facing north, left is west: (9, 11) first, then (10, 11).
    assert_eq!((blue[0].cell.x, blue[0].cell.y), (9, 11), "T-SETUP-1 for the southern army");
    assert!(blue.iter().all(|u| u.facing == Dir::North && u.status == "active"));
    // T-SETUP-1: the deployment time is the client's (2 minutes).
    assert_eq!(b.scenario().rules.deployment_seconds, 120);
}

#[test]
fn t_setup_1_two_minutes_for_both_sides_together() {
    // «обе стороны в течение 2 минут расставляют»: one clock for the whole set-up, both sides,
    // in whichever phase and with whichever side to set up: 120 s, not 120 s a side.
    let mut b = Battle::new(&shipped("open_field"), 1);
    let mut seen = Vec::new();
    while b.clock().phase != Phase::Battle {
        seen.push((b.clock().phase, b.clock().active, b.ctx().setup_seconds()));
        b.apply(Order::EndSetup).unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(seen.len() >= 2 && seen.iter().all(|s| s.2 == 120), "{seen:?}");
    assert!(seen.iter().any(|s| s.1 == Side::Red) && seen.iter().any(|s| s.1 == Side::Blue), "{seen:?}");
}

#[test]
fn t_turn_1_attacker_first_and_sides_alternate() {
    let mut c = Field::new(10, 10)
        .attacker(Side::Blue)
        .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (8, 8), Dir::North)
        .ctx(1);
    assert_eq!(c.clock.active, Side::Blue, "T-TURN-1: the attacker moves first");
    ok(&mut c, Order::EndTurn);
    assert_eq!((c.clock.active, c.clock.turn, c.clock.round), (Side::Red, 2, 1));
    ok(&mut c, Order::EndTurn);
    assert_eq!((c.clock.active, c.clock.turn, c.clock.round), (Side::Blue, 3, 2), "a round is both sides' turns");
    refused(&mut c, mv(1, &[(1, 2)])); // not red's turn
}

#[test]
fn t_turn_2_turn_time_20_or_15_seconds() {
    let big = Battle::new(&shipped("open_field"), 1);
    assert_eq!(big.ctx().turn_seconds(), 20, "T-TURN-2: 20 s");
    let small = Battle::new(&shipped("worked_example_a"), 1);
    assert_eq!(small.ctx().turn_seconds(), 15, "T-TURN-2: 15 s when both armies have at most 5 units");
}

#[test]
fn t_turn_2_the_armies_are_counted_when_the_battle_starts() {
    // 6 v 5 at the start: 20 s, and still 20 s once the sixth red unit is dispersed (5 v 5 on
    // the field); 5 v 5 at the start: 15 s.
    let field = |red: u32| {
        let mut f = Field::new(20, 14);
        for i in 0..red {
            let (id, x) = (1 + i, i32::try_from(i).unwrap_or(0));
            f = f.unit_with(id, Side::Red, "militia", (x, 5), Dir::South, |u| {
                u.reactions =
                    Some(rules::tactical::Reactions { counter_volley: false, counter_charge: false, intercept: false });
            });
        }
        for i in 0..5 {
            f = f.unit(11 + i, Side::Blue, "artillery", (i32::try_from(i).unwrap_or(0) * 2, 13), Dir::North);
        }
        f.unit_with(6, Side::Red, "militia", (19, 5), Dir::South, |u| u.health = Some(1))
    };
    assert_eq!(field(5).ctx(1).turn_seconds(), 20, "T-TURN-2: 6 v 5");
    let mut c = field(5).ctx(1);
    ok(&mut c, Order::EndTurn);
    c.dice.script(vec![6, 6, 6]);
    ok(&mut c, fire(11, 6)); // roundshot, 19 cells: the scripted 6 hits; Health 1 − 4 < 0
    assert_ne!(status(&c, 6), Status::Active, "red is down to 5 on the field");
    assert_eq!(c.turn_seconds(), 20, "T-TURN-2: counted when the battle starts (6 v 5), not now (5 v 5)");
    assert_eq!(field(4).ctx(1).turn_seconds(), 15, "T-TURN-2: 5 v 5 at the start");
}

/// An open field with `red` and `blue` units in the back rows.
fn armies(red: u32, blue: u32) -> rules::tactical::Ctx {
    let mut f = Field::new(20, 14);
    for i in 0..red {
        f = f.unit(1 + i, Side::Red, "militia", (i as i32, 0), Dir::South);
    }
    for i in 0..blue {
        f = f.unit(21 + i, Side::Blue, "militia", (i as i32, 13), Dir::North);
    }
    f.ctx(1)
}

#[test]
fn t_turn_2_the_5_unit_cut_off_on_both_sides_of_it() {
    assert_eq!(armies(5, 5).turn_seconds(), 15, "T-TURN-2: both armies have 5 units (≤ 5): 15 s");
    assert_eq!(armies(6, 5).turn_seconds(), 20, "T-TURN-2: red has 6 units: 20 s");
    assert_eq!(armies(5, 6).turn_seconds(), 20, "T-TURN-2: blue has 6 units: 20 s");
    assert_eq!(armies(4, 5).turn_seconds(), 15, "T-TURN-2: 4 and 5 units: 15 s");
    // Counted when the battle starts: 6 red, one dispersed later → still 20 s.
    let mut c = armies(6, 5);
    c.remove(UnitId(6), rules::tactical::event::Removal::HealthZero);
    assert_eq!(c.turn_seconds(), 20, "T-TURN-2: 6 v 5 at the start, though 5 are left on the field");
}

#[test]
fn t_strat_8_at_most_2_redoubts_a_side_refused_by_validation_and_by_the_engine() {
    let with = |side: Side, redoubts: u32| {
        Field::new(20, 14)
            .unit(1, Side::Red, "line_infantry", (5, 1), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (5, 12), Dir::North)
            .side_spec(side, |s| s.redoubts = redoubts)
            .scenario()
    };
    for side in Side::BOTH {
        for (redoubts, valid) in [(2, true), (3, false)] {
            let text = rules::data::to_ron(&with(side, redoubts));
            let result = rules::tactical::Scenario::from_resolved_text("s.ron", &text);
            match result {
                Ok(_) => assert!(valid, "T-STRAT-8: {side:?} with {redoubts} redoubts must be refused"),
                Err(e) => {
                    assert!(!valid, "T-STRAT-8: {side:?} with {redoubts}: {e}");
                    assert!(e.to_string().contains("at most 2 redoubts (T-STRAT-8)"), "{e}");
                }
            }
        }
    }
    // A scenario built in code (a campaign's) that grants 3 still places only 2.
    let mut b = Battle::new(&with(Side::Blue, 3), 1);
    b.apply(Order::PlaceRedoubt { cell: cell(3, 12) }).unwrap();
    b.apply(Order::PlaceRedoubt { cell: cell(7, 12) }).unwrap();
    let err = b.apply(Order::PlaceRedoubt { cell: cell(9, 12) }).unwrap_err().to_string();
    assert!(err.contains("T-STRAT-8") && err.contains("at most 2"), "T-STRAT-8: the third redoubt: {err}");
}

#[test]
fn t_turn_3_move_and_fire_once_in_any_order() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_infantry", (5, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 5), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, fire(1, 2)).contains("range is 3"), "4 cells away");
    ok(&mut c, mv(1, &[(5, 2)])); // move...
    ok(&mut c, fire(1, 2)); // ...fire during the move...
    assert_eq!(health(&c, 2), 7, "T-FIRE-1: 10 − 3");
    ok(&mut c, mv(1, &[(4, 2), (3, 2)])); // ...and go on: 3 MP in all
    assert!(refused(&mut c, fire(1, 2)).contains("already fired"), "T-TURN-3: one fire per turn");
    assert!(refused(&mut c, mv(1, &[(3, 1)])).contains("has 0 left"), "T-TURN-3: up to its Speed");
}

#[test]
fn t_turn_4_defender_wins_after_round_30() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (1, 1), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (8, 8), Dir::North)
        .ctx(1);
    for _ in 0..59 {
        ok(&mut c, Order::EndTurn);
    }
    assert_eq!((c.clock.round, c.clock.active), (30, Side::Blue));
    assert!(c.outcome.is_none());
    ok(&mut c, Order::EndTurn);
    let o = c.outcome.unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Side::Blue, rules::tactical::EndReason::RoundLimit),
        "T-TURN-4: after round 30 the defender wins"
    );
}

#[test]
fn t_move_1_orthogonal_steps_one_mp_each_up_to_speed() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (2, 2), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (9, 9), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, mv(1, &[(3, 3)])).contains("T-MOVE-1"), "no diagonal step");
    assert!(refused(&mut c, mv(1, &[(2, 4)])).contains("T-MOVE-1"), "no jump");
    assert!(refused(&mut c, mv(1, &[(2, 3), (2, 4), (2, 5)])).contains("T-MOVE-1"), "3 MP > Speed 2");
    ok(&mut c, mv(1, &[(2, 3), (3, 3)])); // forward then left: 2 MP
    assert_eq!(at(&c, 1), cell(3, 3));
    assert!(refused(&mut c, mv(1, &[(3, 4)])).contains("has 0 left"));
}

#[test]
fn t_move_2_turning_costs_infantry_one_mp_cavalry_and_artillery_free() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (2, 2), Dir::South)
        .unit(2, Side::Red, "light_cavalry", (4, 2), Dir::South)
        .unit(3, Side::Red, "artillery", (6, 2), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (9, 9), Dir::North)
        .ctx(1);
    ok(&mut c, turn(1, Dir::North)); // 180°: 1 MP
    ok(&mut c, turn(1, Dir::East)); // 90°: 1 MP
    assert!(refused(&mut c, turn(1, Dir::South)).contains("T-MOVE-2"), "infantry spent its 2 MP turning");
    for _ in 0..3 {
        ok(&mut c, turn(2, Dir::East));
        ok(&mut c, turn(2, Dir::West));
        ok(&mut c, turn(3, Dir::North));
        ok(&mut c, turn(3, Dir::South));
    }
    ok(&mut c, mv(2, &[(4, 3), (4, 4), (4, 5), (4, 6), (4, 7)])); // still all 5 MP
    // Moving does not change facing (T-MOVE-2 resolution).
    assert_eq!(c.unit(UnitId(2)).unwrap().facing, Dir::West);
}

#[test]
fn t_move_3_one_unit_per_cell_through_friends_stop_next_to_enemy_no_move_in_contact() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_cavalry", (2, 1), Dir::South)
        .unit(2, Side::Red, "line_infantry", (2, 2), Dir::South)
        .unit(3, Side::Red, "line_infantry", (6, 3), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (2, 6), Dir::North)
        .unit(8, Side::Blue, "line_infantry", (6, 5), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, mv(1, &[(2, 2)])).contains("occupied"), "one unit per cell");
    // Cavalry passing next to the enemy must stop there.
    let mut d = c.clone();
    assert!(refused(&mut d, mv(1, &[(2, 2), (2, 3), (2, 4), (2, 5), (3, 5)])).contains("stop at (2, 5)"));
    ok(&mut d, mv(1, &[(2, 2), (2, 3), (3, 3)])); // through the friend at (2,2)
    assert_eq!(at(&d, 1), cell(3, 3));
    ok(&mut d, mv(1, &[(3, 4), (3, 5)]));
    ok(&mut d, Order::EndTurn);
    ok(&mut d, Order::EndTurn);
    ok(&mut d, mv(1, &[(2, 5)])); // now next to the enemy at (2,6)
    assert!(d.in_contact(d.unit(UnitId(1)).unwrap()));
    assert!(refused(&mut d, turn(1, Dir::East)).contains("T-MOVE-3"), "units in contact do not move");
    assert!(refused(&mut d, mv(1, &[(3, 5)])).contains("in melee"), "units in contact do not move");
    // Through an enemy: never.
    assert!(refused(&mut c, mv(3, &[(6, 4), (6, 5)])).contains("T-MOVE-3"));
}

/// A click on a cell out of reach is answered with what really stops the move (T-TERR-3 swamp,
/// T-MOVE-1 MP, T-MOVE-3 melee), not with a complaint about the shape of a path nobody drew.
#[test]
fn t_move_1_t_terr_3_a_cell_out_of_reach_is_refused_for_its_real_reason() {
    let c = Field::new(10, 10)
        .terrain(&[(2, 4)], Terrain::Swamp)
        .unit(1, Side::Red, "line_infantry", (2, 2), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (9, 9), Dir::North)
        .ctx(1);
    let why = |c: &rules::tactical::Ctx, to: (i32, i32)| {
        c.check_reach(UnitId(1), cell(to.0, to.1)).err().map(|e| e.to_string())
    };
    let swamp = why(&c, (2, 4)).expect("refused");
    assert!(swamp.contains("T-TERR-3") && swamp.contains("swamp"), "{swamp}");
    assert!(!swamp.contains("not one step"), "{swamp}");
    // Speed 2: three cells away beyond the swamp, the way round costs 5 MP.
    let far = why(&c, (2, 5)).expect("refused");
    assert!(far.contains("T-MOVE-1") && far.contains("costs 5 MP") && far.contains("has 2 left"), "{far}");
    let far = why(&c, (4, 3)).expect("refused");
    assert!(far.contains("costs 3 MP"), "{far}");
    // Two steps: reachable, with its path and cost.
    let r = c.check_reach(UnitId(1), cell(3, 3)).expect("reachable");
    assert_eq!((r.cost, r.path.len()), (2, 2));
}
