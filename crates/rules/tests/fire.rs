//! T-FIRE-1…11.

use rules::tactical::event::{Event, FireKind, FireOccasion};
use rules::tactical::{Dir, Order, Reactions, Side, Status, Terrain, UnitId};
use rules::testing::Field;
use rules::testing::orders::*;

fn shots(events: &[Event]) -> Vec<(u32, u32, FireOccasion, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Fired { firer, target, occasion, damage, .. } => Some((firer.0, target.0, *occasion, damage.total)),
            _ => None,
        })
        .collect()
}

#[test]
fn t_fire_1_fire_always_hits_once_per_turn_not_in_contact() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (5, 2), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .unit(3, Side::Red, "light_cavalry", (2, 2), Dir::South)
        .unit(4, Side::Blue, "line_infantry", (2, 4), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 2));
    assert_eq!(health(&c, 2), 8, "T-FIRE-1: line infantry ranged 2, no die");
    assert!(c.events.iter().any(|e| matches!(e, Event::Fired { roll: None, kind: FireKind::Volley, .. })));
    assert!(refused(&mut c, fire(1, 2)).contains("T-FIRE-1"), "one fire per turn");
    ok(&mut c, fire(3, 4));
    assert_eq!(health(&c, 4), 9, "T-FIRE-1 / T-UNIT-2: light cavalry ranged 1, no die");
    let mut d = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (5, 3), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    assert!(refused(&mut d, fire(1, 2)).contains("in melee"), "T-FIRE-1: units in contact do not fire");
}

#[test]
fn t_fire_2_infantry_band_three_wide_ahead_up_to_range() {
    let target = |x, y| {
        Field::new(12, 12)
            .unit(1, Side::Red, "light_infantry", (5, 2), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (x, y), Dir::North)
            .ctx(1)
    };
    for (x, y) in [(5, 4), (4, 5), (6, 5), (5, 5), (4, 3), (6, 3)] {
        let mut c = target(x, y);
        ok(&mut c, fire(1, 2)); // T-FIRE-2: own line and one each side, up to range 3
    }
    for (x, y, why) in [(3, 4, "band"), (7, 5, "band"), (5, 6, "range is 3"), (5, 0, "band"), (3, 2, "band")] {
        let mut c = target(x, y);
        assert!(refused(&mut c, fire(1, 2)).contains(why), "({x}, {y}) should be out: {why}");
    }
}

#[test]
fn t_fire_3_no_fire_over_troops_except_from_hill_wall_redoubt() {
    let base = || {
        Field::new(10, 10)
            .unit(1, Side::Red, "line_infantry", (5, 2), Dir::South)
            .unit(2, Side::Red, "line_infantry", (5, 3), Dir::South)
            .unit(3, Side::Blue, "line_infantry", (5, 4), Dir::North)
    };
    let mut c = base().ctx(1);
    assert!(refused(&mut c, fire(1, 3)).contains("T-FIRE-3"), "a friend in between blocks");
    for t in [Terrain::Hill, Terrain::Redoubt] {
        let mut c = base().terrain(&[(5, 2)], t).ctx(1);
        ok(&mut c, fire(1, 3)); // T-FIRE-3, T-TERR-4/5: fires over own troops
    }
    let mut w = base().terrain(&[(5, 2)], Terrain::Wall).terrain(&[(5, 3)], Terrain::Breach).ctx(1);
    ok(&mut w, fire(1, 3)); // T-FIRE-3: from the fortress wall
}

#[test]
fn t_fire_4_cavalry_fires_only_straight_ahead_heavy_cavalry_not_at_all() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_cavalry", (5, 2), Dir::South)
        .unit(2, Side::Red, "heavy_cavalry", (8, 2), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (6, 4), Dir::North)
        .unit(4, Side::Blue, "line_infantry", (8, 4), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, fire(1, 3)).contains("straight ahead"), "T-FIRE-4");
    assert!(refused(&mut c, fire(2, 4)).contains("no ranged value"), "T-FIRE-4: heavy cavalry cannot fire");
    let straight = |y| {
        Field::new(10, 10)
            .unit(1, Side::Red, "light_cavalry", (5, 4), Dir::East)
            .unit(2, Side::Blue, "line_infantry", (7, y), Dir::North)
            .ctx(1)
    };
    let mut ahead = straight(4);
    ok(&mut ahead, fire(1, 2)); // T-FIRE-4: the single line ahead, range 2
    assert_eq!(health(&ahead, 2), 9);
    assert!(refused(&mut straight(5), fire(1, 2)).contains("straight ahead"), "T-FIRE-4");
}

#[test]
fn t_fire_5_artillery_canister_to_4_always_hits_roundshot_beyond_on_4_to_6() {
    let base = |y| {
        Field::new(12, 12).unit(1, Side::Red, "artillery", (5, 0), Dir::South).unit(
            2,
            Side::Blue,
            "line_infantry",
            (9, y),
            Dir::North,
        )
    };
    let mut c = base(4).ctx(1);
    ok(&mut c, fire(1, 2)); // 4 cells (Chebyshev), diagonal and at any cell: canister
    assert_eq!(health(&c, 2), 6, "T-FIRE-5: canister always hits, −4");
    for (pips, hit) in [(3u8, false), (4, true), (6, true), (1, false)] {
        let mut c = base(5).ctx(1);
        c.dice.script(vec![pips]);
        ok(&mut c, fire(1, 2));
        let kind = c.events.iter().find_map(|e| if let Event::Fired { kind, .. } = e { Some(*kind) } else { None });
        assert_eq!(kind, Some(FireKind::Roundshot));
        assert_eq!(health(&c, 2), if hit { 6 } else { 10 }, "T-FIRE-5: roundshot d6={pips}");
    }
}

#[test]
fn t_fire_6_artillery_over_troops_unless_a_unit_next_to_the_target_covers_the_line() {
    // Friends in front of the guns, far from the target: no cover.
    let mut c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (5, 0), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 1), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (5, 6), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 3));
    // A unit (of either side) next to the target on the line covers it.
    for side in [Side::Red, Side::Blue] {
        let mut c = Field::new(12, 12)
            .unit(1, Side::Red, "artillery", (5, 0), Dir::South)
            .unit(2, side, "line_infantry", (5, 5), Dir::South)
            .unit(3, Side::Blue, "line_infantry", (5, 6), Dir::North)
            .ctx(1);
        assert!(refused(&mut c, fire(1, 3)).contains("T-FIRE-6"));
    }
    // Partial cover = full cover: the line (0,0)→(2,2) passes the corner of (1,2), next to the target.
    let mut c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (0, 0), Dir::South)
        .unit(2, Side::Red, "line_infantry", (1, 2), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (2, 2), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, fire(1, 3)).contains("T-FIRE-6"), "a corner counts");
}

#[test]
fn t_fire_7_the_wall_covers_units_behind_it_units_on_it_may_be_targeted() {
    let base = || Field::new(10, 10).row(5, Terrain::Wall).unit(1, Side::Red, "artillery", (5, 1), Dir::South);
    let mut c = base().unit(2, Side::Blue, "line_infantry", (5, 6), Dir::North).ctx(1);
    assert!(refused(&mut c, fire(1, 2)).contains("T-FIRE-7"));
    let mut c = base().unit(2, Side::Blue, "line_infantry", (5, 5), Dir::North).ctx(1);
    ok(&mut c, fire(1, 2)); // T-FIRE-7: on the wall
    assert_eq!(health(&c, 2), 6);
}

#[test]
fn t_fire_8_fire_at_a_unit_in_forest_deals_one_less() {
    let mut c = Field::new(10, 10)
        .terrain(&[(5, 4)], Terrain::SparseForest)
        .unit(1, Side::Red, "light_infantry", (5, 2), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 2));
    assert_eq!(health(&c, 2), 8, "T-FIRE-8: 3 − 1 = 2");
}

#[test]
fn t_fire_9_counter_volley_by_a_stationary_unit_facing_the_attacker() {
    let base = || {
        Field::new(10, 10)
            .unit(1, Side::Red, "line_infantry", (5, 2), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
            .unit(3, Side::Red, "line_infantry", (7, 2), Dir::South)
    };
    let mut c = base().ctx(1);
    ok(&mut c, mv(1, &[(5, 3)]));
    assert_eq!(shots(&c.events), vec![(2, 1, FireOccasion::CounterVolley, 2)], "T-FIRE-9: frontal counter-volley");
    assert_eq!(health(&c, 1), 8);
    // Stationary = not moved this turn: an interceptor closing on a unit that just moved gets no
    // counter-volley from it, but one from a stationary unit it also closes on (T-FIRE-9, T-EX B5).
    let mut m = Field::new(10, 10)
        .unit(1, Side::Red, "light_infantry", (5, 2), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .unit_with(3, Side::Blue, "light_cavalry", (2, 3), Dir::East, |u| {
            u.reactions = Some(Reactions { counter_volley: true, counter_charge: true, intercept: true })
        })
        .unit(4, Side::Red, "light_infantry", (4, 2), Dir::South)
        .ctx(1);
    ok(&mut m, mv(1, &[(5, 3)]));
    assert_eq!(at(&m, 3), cell(4, 3), "the cavalry intercepts onto the mover's flank");
    let s = shots(&m.events);
    assert!(!s.iter().any(|x| x.0 == 1), "T-FIRE-9: the mover moved this turn, no counter-volley: {s:?}");
    assert!(s.contains(&(4, 3, FireOccasion::CounterVolley, 3)), "T-FIRE-9: the stationary unit fires: {s:?}");
    // Facing away: no counter-volley (line infantry has no flank volley).
    let mut e = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (2, 3), Dir::East)
        .unit(2, Side::Blue, "line_infantry", (5, 3), Dir::North)
        .ctx(1);
    ok(&mut e, mv(1, &[(3, 3), (4, 3)]));
    assert!(shots(&e.events).is_empty(), "T-FIRE-9: the attacker is not in its arc");
}

#[test]
fn t_fire_9_counter_volley_once_per_turn_and_not_after_moving() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_cavalry", (5, 0), Dir::South)
        .unit(2, Side::Red, "light_cavalry", (1, 3), Dir::East)
        .unit(3, Side::Blue, "artillery", (5, 3), Dir::North)
        .unit(4, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    c.dice.script(vec![6]); // the cavalry at Health 1 passes its morale test
    ok(&mut c, mv(1, &[(5, 1), (5, 2)]));
    assert_eq!(
        shots(&c.events),
        vec![(3, 1, FireOccasion::CounterVolley, 4)],
        "T-FIRE-9: artillery counter-volleys (canister)"
    );
    assert_eq!((health(&c, 1), status(&c, 3)), (1, Status::Active), "supported from behind: not overrun");
    c.events.clear();
    ok(&mut c, mv(2, &[(2, 3), (3, 3), (4, 3)]));
    assert!(shots(&c.events).is_empty(), "T-FIRE-9: once per enemy turn");
    assert!(c.in_contact(c.unit(UnitId(2)).unwrap()));
}

#[test]
fn t_fire_10_light_infantry_counter_volleys_flank_attackers_at_half() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (2, 4), Dir::East)
        .unit(2, Side::Blue, "light_infantry", (4, 4), Dir::North)
        .ctx(1);
    ok(&mut c, mv(1, &[(3, 4)]));
    assert_eq!(shots(&c.events), vec![(2, 1, FireOccasion::FlankCounterVolley, 1)], "T-FIRE-10: ½ × 3 = 1");
    let mut rear = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (4, 6), Dir::North)
        .unit(2, Side::Blue, "light_infantry", (4, 4), Dir::North)
        .ctx(1);
    ok(&mut rear, mv(1, &[(4, 5)]));
    assert_eq!(shots(&rear.events), vec![], "T-FIRE-10: «во фланг» — a rear attacker gets no half volley");
    // Both flanks, east and west: ½ × 3 = 1 from either.
    let mut west = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (6, 4), Dir::West)
        .unit(2, Side::Blue, "light_infantry", (4, 4), Dir::North)
        .ctx(1);
    ok(&mut west, mv(1, &[(5, 4)]));
    assert_eq!(shots(&west.events), vec![(2, 1, FireOccasion::FlankCounterVolley, 1)], "T-FIRE-10: the other flank");
}

#[test]
fn t_fire_9_guns_counter_volley_only_an_attacker_they_face() {
    // Guns at (5, 4) facing north, supported from behind or beside so they are not overrun.
    // Attackers close from the north (front), the east (flank) and the south (rear).
    let field = |from: (i32, i32), to: (i32, i32), support: (i32, i32)| {
        let mut c = Field::new(10, 10)
            .unit_with(1, Side::Red, "line_infantry", from, Dir::South, |u| u.reactions = None)
            .unit(3, Side::Blue, "artillery", (5, 4), Dir::North)
            .unit(4, Side::Blue, "line_infantry", support, Dir::North)
            .unit(9, Side::Red, "line_infantry", (0, 0), Dir::South)
            .ctx(1);
        ok(&mut c, mv(1, &[to]));
        shots(&c.events).into_iter().filter(|s| s.0 == 3).collect::<Vec<_>>()
    };
    assert_eq!(field((5, 2), (5, 3), (5, 5)), vec![(3, 1, FireOccasion::CounterVolley, 4)], "T-FIRE-9: faced");
    assert_eq!(field((7, 4), (6, 4), (5, 5)), vec![], "T-FIRE-9: a flank attacker is not faced");
    assert_eq!(field((5, 6), (5, 5), (4, 4)), vec![], "T-FIRE-9: a rear attacker is not faced");
}

#[test]
fn t_fire_1_a_unit_that_counter_volleyed_in_its_own_turn_fires_no_ordered_shot() {
    // Red's unit 1 closes on blue 2; the blue cavalry (Health 3) intercepts it from the west onto
    // (4, 3), next to red 4, which counter-volleys it in Red's own turn and disperses it (3 − 3),
    // so 4 is out of contact. Then 4 would fire at blue 5, 3 cells ahead.
    let field = |intercept: bool| {
        let mut c = Field::new(10, 10)
            .unit(1, Side::Red, "light_infantry", (5, 2), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
            .unit_with(3, Side::Blue, "light_cavalry", (2, 3), Dir::East, |u| {
                u.reactions = Some(Reactions { counter_volley: false, counter_charge: false, intercept });
                u.health = Some(3);
            })
            .unit(4, Side::Red, "light_infantry", (4, 2), Dir::South)
            .unit(5, Side::Blue, "line_infantry", (3, 5), Dir::North)
            .ctx(1);
        c.dice.script(vec![6, 6, 6]);
        ok(&mut c, mv(1, &[(5, 3)]));
        c
    };
    let mut c = field(true);
    assert!(shots(&c.events).contains(&(4, 3, FireOccasion::CounterVolley, 3)), "{:?}", c.events);
    assert_eq!(status(&c, 3), Status::Dispersed, "the interceptor is gone: unit 4 is not in contact");
    let e = refused(&mut c, fire(4, 5));
    assert!(e.contains("T-FIRE-1") && e.contains("counter-volley"), "one fire per own turn: {e}");
    // No interceptor, no counter-volley: its ordered shot is its one fire.
    let mut c = field(false);
    ok(&mut c, fire(4, 5));
    assert_eq!(health(&c, 5), 7);
}

#[test]
fn t_fire_11_standing_reaction_orders_default_and_set_free_in_own_turn() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (5, 2), Dir::South, |u| u.reactions = None)
        .unit_with(2, Side::Blue, "line_infantry", (5, 4), Dir::North, |u| u.reactions = None)
        .ctx(1);
    assert_eq!(
        c.unit(UnitId(2)).unwrap().reactions,
        Reactions { counter_volley: true, counter_charge: true, intercept: false },
        "T-FIRE-11 defaults"
    );
    let off = Reactions { counter_volley: false, counter_charge: true, intercept: false };
    assert!(
        refused(&mut c, Order::SetReactions { unit: UnitId(2), reactions: off }).contains("turn"),
        "only in the own turn"
    );
    ok(&mut c, Order::SetReactions { unit: UnitId(1), reactions: off });
    assert_eq!(c.unit(UnitId(1)).unwrap().activity.mp_spent, 0, "free");
    ok(&mut c, Order::EndTurn);
    ok(&mut c, Order::SetReactions { unit: UnitId(2), reactions: off });
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(1, &[(5, 3)]));
    assert!(shots(&c.events).is_empty(), "T-FIRE-11: counter-volley turned off, none fired");
    assert_eq!(status(&c, 2), Status::Active);
}

#[test]
fn t_fire_1_and_t_fire_9_a_unit_that_fired_in_its_turn_does_not_fire_again_at_an_interceptor() {
    let field = |fires_first: bool| {
        let mut c = Field::new(10, 10)
            .unit(1, Side::Red, "light_infantry", (5, 2), Dir::South)
            .unit(2, Side::Blue, "line_infantry", (5, 4), Dir::North)
            .unit_with(3, Side::Blue, "light_cavalry", (2, 3), Dir::East, |u| {
                u.reactions = Some(Reactions { counter_volley: true, counter_charge: true, intercept: true })
            })
            .unit(4, Side::Red, "light_infantry", (4, 2), Dir::South)
            .ctx(1);
        if fires_first {
            ok(&mut c, fire(4, 2)); // its one fire of the turn (T-FIRE-1)
        }
        ok(&mut c, mv(1, &[(5, 3)]));
        assert_eq!(at(&c, 3), cell(4, 3), "the cavalry intercepts next to unit 4");
        shots(&c.events).into_iter().filter(|s| s.0 == 4 && s.2 == FireOccasion::CounterVolley).count()
    };
    assert_eq!(field(false), 1, "T-FIRE-9: a stationary unit that has not fired counter-volleys the interceptor");
    assert_eq!(field(true), 0, "T-FIRE-1: one fire per unit per own turn; it fired, so no counter-volley");
}

#[test]
fn t_fire_11_reactions_trigger_automatically_in_unit_id_order() {
    // Both blue units have counter-volley on (the default, no announcement asked for). The
    // attacker closes on both at once; the lower ID fires first, and its 3 disperse the attacker
    // (Health 3 → 0), so unit 7 never fires. In the order of the cells around the attacker (north,
    // east, south, west) unit 7, south of it, would come before unit 4, west of it.
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (5, 2), Dir::South, |u| u.health = Some(3))
        .unit(9, Side::Red, "line_infantry", (0, 0), Dir::South)
        .unit_with(4, Side::Blue, "light_infantry", (4, 4), Dir::East, |u| u.reactions = None)
        .unit_with(7, Side::Blue, "line_infantry", (5, 5), Dir::North, |u| u.reactions = None)
        .ctx(1);
    ok(&mut c, mv(1, &[(5, 3), (5, 4)]));
    assert_eq!(shots(&c.events), vec![(4, 1, FireOccasion::CounterVolley, 3)], "T-FIRE-11: unit-ID order, no prompt");
    assert_eq!(status(&c, 1), Status::Dispersed);
    // Intercepts likewise: of two blue units set to intercept, the lower ID goes first and takes the cell.
    let intercept = Some(Reactions { counter_volley: false, counter_charge: false, intercept: true });
    let mut d = Field::new(12, 12)
        .unit_with(1, Side::Red, "line_infantry", (5, 2), Dir::South, |u| u.reactions = None)
        .unit_with(2, Side::Blue, "line_infantry", (5, 5), Dir::North, |u| {
            u.reactions = Some(Reactions { counter_volley: false, counter_charge: false, intercept: false })
        })
        .unit_with(8, Side::Blue, "light_cavalry", (9, 4), Dir::West, |u| u.reactions = intercept)
        .unit_with(6, Side::Blue, "light_cavalry", (1, 4), Dir::East, |u| u.reactions = intercept)
        .ctx(1);
    ok(&mut d, mv(1, &[(5, 3), (5, 4)]));
    let order: Vec<u32> = d
        .events
        .iter()
        .filter_map(|e| if let Event::Intercept { unit, .. } = e { Some(unit.0) } else { None })
        .collect();
    assert_eq!(order, vec![6, 8], "T-FIRE-11: intercepts in unit-ID order");
}
