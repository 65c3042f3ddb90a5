//! T-MELEE-1…8, T-MORALE-1/2, T-END-1…4.

use rules::tactical::event::{Event, Removal};
use rules::tactical::{Dir, EndReason, Order, Reactions, Side, Status, Terrain, UnitId};
use rules::testing::Field;
use rules::testing::orders::*;

fn exchanges(events: &[Event]) -> Vec<(i32, i32, i32, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::MeleeExchange { red, blue, red_damage, blue_damage, .. } => {
                Some((red.total, blue.total, *red_damage, *blue_damage))
            }
            _ => None,
        })
        .collect()
}

fn blue_terms(c: &rules::tactical::Ctx) -> String {
    c.events
        .iter()
        .find_map(|e| if let Event::MeleeExchange { blue, .. } = e { Some(c.sum_text(blue)) } else { None })
        .unwrap_or_default()
}

fn red_terms(c: &rules::tactical::Ctx) -> String {
    c.events
        .iter()
        .find_map(|e| if let Event::MeleeExchange { red, .. } = e { Some(c.sum_text(red)) } else { None })
        .unwrap_or_default()
}

fn quiet() -> Option<Reactions> {
    Some(Reactions { counter_volley: false, counter_charge: false, intercept: false })
}

#[test]
fn t_melee_1_and_3_adjacent_enemies_exchange_once_per_group_each_turn_end() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (2, 2), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (2, 3), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Red, "line_infantry", (7, 2), Dir::South, |u| u.reactions = quiet())
        .unit_with(4, Side::Blue, "militia", (7, 3), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, Order::EndTurn);
    assert_eq!(exchanges(&c.events), vec![(3, 3, 1, 1), (3, 2, 1, 2)], "T-MELEE-1/3: two groups, one exchange each");
    c.events.clear();
    ok(&mut c, Order::EndTurn);
    assert_eq!(exchanges(&c.events).len(), 2, "T-MELEE-3: again at the end of the next turn");
    assert_eq!(c.unit(UnitId(1)).unwrap().contact.unwrap().exchanges, 2);
}

#[test]
fn t_melee_4_equal_sums_one_each_else_one_and_one_plus_difference() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "grenadiers", (2, 2), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "militia", (2, 3), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, Order::EndTurn);
    assert_eq!(exchanges(&c.events), vec![(4, 2, 1, 3)], "T-MELEE-4: 4 vs 2: −1 and −(1 + 2)");
    assert_eq!((health(&c, 1), health(&c, 2)), (9, 3));
}

#[test]
fn t_melee_5_flank_every_exchange_charge_and_redoubt_first_only() {
    // Cavalry charging a flank: +1 charge +1 flank in the first exchange; only the flank after.
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "heavy_cavalry", (1, 4), Dir::East, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 4), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "line_infantry", (9, 9), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, mv(1, &[(2, 4), (3, 4)]));
    ok(&mut c, Order::EndTurn);
    assert_eq!(red_terms(&c), "3 (heavy_cavalry 1) + 1 charge + 1 flank = 5", "T-MELEE-5 first exchange");
    c.events.clear();
    ok(&mut c, Order::EndTurn);
    assert_eq!(red_terms(&c), "3 (heavy_cavalry 1) + 1 flank = 4", "T-MELEE-5: charge only in the first exchange");
    // Infantry defending a redoubt: +1 in the first exchange only.
    let mut r = Field::new(10, 10)
        .terrain(&[(4, 5)], Terrain::Redoubt)
        .unit_with(1, Side::Red, "line_infantry", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut r, mv(1, &[(4, 4)]));
    ok(&mut r, Order::EndTurn);
    assert_eq!(blue_terms(&r), "3 (line_infantry 2) + 1 redoubt = 4", "T-MELEE-5 / T-TERR-4");
    r.events.clear();
    ok(&mut r, Order::EndTurn);
    assert_eq!(blue_terms(&r), "3 (line_infantry 2) = 3");
}

#[test]
fn t_melee_6_attacked_cavalry_counter_charges_when_its_order_is_on() {
    for (on, expect) in [(true, "2 (light_cavalry 2) + 1 charge = 3"), (false, "2 (light_cavalry 2) = 2")] {
        let mut c = Field::new(10, 10)
            .unit_with(1, Side::Red, "line_infantry", (4, 3), Dir::South, |u| u.reactions = quiet())
            .unit_with(2, Side::Blue, "light_cavalry", (4, 5), Dir::North, |u| {
                u.reactions = Some(Reactions { counter_volley: false, counter_charge: on, intercept: false })
            })
            .ctx(1);
        ok(&mut c, mv(1, &[(4, 4)]));
        assert_eq!(c.events.iter().any(|e| matches!(e, Event::CounterCharge { .. })), on);
        ok(&mut c, Order::EndTurn);
        assert_eq!(blue_terms(&c), expect, "T-MELEE-6");
    }
}

#[test]
fn t_melee_7_damage_to_the_unit_longest_in_contact_then_the_attacked_then_lowest_id() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit_with(5, Side::Red, "grenadiers", (6, 3), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "line_infantry", (5, 6), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, mv(1, &[(4, 4)])); // 1 attacks 2: both in contact since turn 1
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(3, &[(5, 5), (5, 4)])); // turn 2: 3 joins on 1's flank
    ok(&mut c, Order::EndTurn);
    let primaries: Vec<_> = c
        .events
        .iter()
        .filter_map(|e| {
            if let Event::MeleeExchange { blue_primary, red_primary, .. } = e {
                Some((*red_primary, *blue_primary))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(primaries.last(), Some(&(Some(UnitId(1)), Some(UnitId(2)))), "T-MELEE-7: 2 is longest in contact");
    // Same turn, attacker vs attacked: the attacked one takes it.
    let mut d = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit_with(4, Side::Red, "line_infantry", (5, 5), Dir::West, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut d, mv(1, &[(4, 4)])); // 1 closes on 2, which is in contact with 4 since the set-up
    ok(&mut d, Order::EndTurn);
    let red_primary = d
        .events
        .iter()
        .find_map(|e| if let Event::MeleeExchange { red_primary, .. } = e { *red_primary } else { None });
    assert_eq!(red_primary, Some(UnitId(4)), "T-MELEE-7: 4 has been in contact longest");
    // Same turn: the attacked one before the attacker, whatever the IDs (5 attacked, 3 intercepted).
    let mut e = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit_with(5, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "light_cavalry", (1, 4), Dir::East, |u| {
            u.reactions = Some(Reactions { counter_volley: false, counter_charge: false, intercept: true })
        })
        .ctx(1);
    ok(&mut e, mv(1, &[(4, 4)]));
    assert_eq!(at(&e, 3), cell(3, 4), "the cavalry intercepted");
    ok(&mut e, Order::EndTurn);
    let blue_primary = e
        .events
        .iter()
        .find_map(|x| if let Event::MeleeExchange { blue_primary, .. } = x { *blue_primary } else { None });
    assert_eq!(blue_primary, Some(UnitId(5)), "T-MELEE-7: the attacked unit before the attacker");
}

#[test]
fn t_melee_8_morale_test_at_2_infantry_1_cavalry_dispersed_at_0_destroyed_below() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "artillery", (4, 0), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 4), Dir::North, |u| u.health = Some(6))
        .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    c.dice.script(vec![3]); // 6 − 4 = 2: test, d6 3 < 4 fails
    ok(&mut c, fire(1, 2));
    assert!(c.events.iter().any(|e| matches!(e, Event::MoraleTest { roll: 3, passed: false, .. })), "T-MELEE-8 at 2");
    assert_eq!(status(&c, 2), Status::Dispersed);
    let zero = |h| {
        let mut c = Field::new(10, 10)
            .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
            .unit_with(2, Side::Blue, "line_infantry", (4, 4), Dir::North, |u| u.health = Some(h))
            .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
            .ctx(1);
        ok(&mut c, fire(1, 2));
        status(&c, 2)
    };
    assert_eq!(zero(4), Status::Dispersed, "T-MELEE-8: Health 0 → dispersed");
    assert_eq!(zero(3), Status::Destroyed, "T-MELEE-8: below 0 → destroyed");
    assert_eq!(zero(7), Status::Active, "Health 3: no test");
}

#[test]
fn t_morale_1_modifiers_stack_on_the_d6() {
    // Lancers attacking and a lost HQ: d6 5 − 1 lancers − 2 HQ = 2 < 4.
    let mut c = Field::new(10, 10)
        .faction(Side::Red, "Russia")
        .unit_with(1, Side::Red, "courland_uhlans", (4, 1), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "militia", (4, 4), Dir::North, |u| {
            u.reactions = quiet();
            u.health = Some(5)
        })
        .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
        .side_spec(Side::Blue, |s| s.hq = Some(UnitId(3)))
        .ctx(1);
    c.command.hq_captured[1] = true;
    ok(&mut c, mv(1, &[(4, 2), (4, 3)])); // the lancers attack
    c.dice.script(vec![5]);
    ok(&mut c, Order::EndTurn); // 4 + 1 charge vs 2: militia −4 → 1 → test
    let test = c.events.iter().find_map(|e| {
        if let Event::MoraleTest { roll, modifiers, total, passed, .. } = e {
            Some((*roll, modifiers.clone(), *total, *passed))
        } else {
            None
        }
    });
    let (roll, mods, total, passed) = test.unwrap();
    let values: Vec<i32> = mods.iter().map(|m| m.value).collect();
    assert_eq!(
        (roll, values, total, passed),
        (5, vec![-2, -1], 2, false),
        "T-MORALE-1: −2 HQ (T-CMD-5), −1 lancers (T-UNIT-2)"
    );
    assert_eq!(rules::tactical::morale::morale_pass_chance(-3, 4), 0.0);
}

fn first_test_modifiers(c: &rules::tactical::Ctx) -> Option<(u32, Vec<i32>)> {
    c.events.iter().find_map(|e| {
        if let Event::MoraleTest { unit, modifiers, .. } = e {
            Some((unit.0, modifiers.iter().map(|m| m.value).collect()))
        } else {
            None
        }
    })
}

#[test]
fn t_morale_1_lancers_minus_1_only_for_the_defenders_they_attack_in_melee() {
    // Fire at a unit next to the lancers: the test it causes has no −1.
    let mut c = Field::new(10, 10)
        .faction(Side::Red, "Russia")
        .unit_with(1, Side::Red, "courland_uhlans", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit(2, Side::Red, "artillery", (0, 4), Dir::East)
        .unit_with(3, Side::Blue, "militia", (4, 4), Dir::North, |u| {
            u.reactions = quiet();
            u.health = Some(5)
        })
        .unit(4, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    c.dice.script(vec![4]);
    ok(&mut c, fire(2, 3)); // canister 4: 5 → 1, a test caused by fire
    assert_eq!(first_test_modifiers(&c), Some((3, vec![])), "T-MORALE-1: lancers' −1 is not for tests caused by fire");
    // A unit that attacks the lancers is no defender of theirs: no −1 in its melee test.
    let mut d = Field::new(10, 10)
        .faction(Side::Red, "Russia")
        .attacker(Side::Blue)
        .unit_with(1, Side::Red, "courland_uhlans", (4, 3), Dir::South, |u| u.reactions = quiet())
        .unit(2, Side::Red, "militia", (0, 0), Dir::South)
        .unit_with(3, Side::Blue, "militia", (4, 6), Dir::North, |u| {
            u.reactions = quiet();
            u.health = Some(5)
        })
        .ctx(1);
    ok(&mut d, mv(3, &[(4, 5), (4, 4)]));
    d.dice.script(vec![4]);
    ok(&mut d, Order::EndTurn); // 2 vs 4: militia −3 → 2
    assert_eq!(first_test_modifiers(&d), Some((3, vec![])), "T-MORALE-1: only defenders attacked by lancers");
}

#[test]
fn t_morale_2_tested_after_each_damage_step_in_range_dispersed_leave_the_map() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_infantry", (4, 1), Dir::South)
        .unit(5, Side::Red, "artillery", (2, 0), Dir::South)
        .unit_with(2, Side::Blue, "light_cavalry", (4, 3), Dir::North, |u| u.health = Some(4))
        .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    c.dice.script(vec![4]);
    ok(&mut c, fire(1, 2)); // 4 − 3 = 1: cavalry tests at 1, passes on 4
    assert_eq!((health(&c, 2), status(&c, 2)), (1, Status::Active));
    c.dice.script(vec![2]);
    ok(&mut c, fire(5, 2)); // canister −4: destroyed, no test
    assert_eq!(status(&c, 2), Status::Destroyed);
    assert!(c.at(cell(4, 3)).is_none(), "T-MORALE-2: off the map");
}

#[test]
fn t_end_1_the_battle_ends_when_one_side_is_left() {
    let mut b = Field::new(10, 10)
        .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
        .unit_with(2, Side::Blue, "militia", (4, 3), Dir::North, |u| u.health = Some(4))
        .battle(1);
    b.apply(fire(1, 2)).unwrap();
    let o = b.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Side::Red, EndReason::FieldHeld), "T-END-1");
    assert!(b.apply(Order::EndTurn).is_err(), "no orders after the end");
}

#[test]
fn t_end_2_retreat_is_final_plus_one_speed_no_attack_off_the_edge() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (4, 2), Dir::South)
        .unit(2, Side::Red, "line_infantry", (7, 1), Dir::South)
        .unit(3, Side::Blue, "line_infantry", (4, 6), Dir::North)
        .ctx(1);
    ok(&mut c, Order::Retreat);
    assert!(refused(&mut c, Order::Retreat).contains("T-END-2"), "final");
    assert!(refused(&mut c, fire(1, 3)).contains("T-END-2"), "no fire");
    assert!(refused(&mut c, mv(1, &[(4, 3), (4, 4), (4, 5)])).contains("T-END-2"), "no attack");
    ok(&mut c, mv(1, &[(4, 1), (4, 0), (3, 0)])); // Speed 2 + 1
    ok(&mut c, Order::Move { unit: UnitId(2), path: vec![cell(7, 0)], exit: true });
    assert_eq!(status(&c, 2), Status::Retreated, "T-END-2: crossed the edge");
    assert!(c.field_ids().contains(&UnitId(1)));
}

#[test]
fn t_end_3_retreating_units_next_to_the_enemy_at_turn_end_are_captured() {
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (4, 4), Dir::South, |u| u.reactions = quiet())
        .unit(2, Side::Red, "line_infantry", (8, 1), Dir::South)
        .unit_with(3, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut c, Order::Retreat);
    ok(&mut c, Order::EndTurn);
    assert!(
        c.events.iter().any(|e| matches!(e, Event::Removed { unit: UnitId(1), how: Removal::CaughtRetreating })),
        "T-END-3"
    );
    assert_eq!(status(&c, 1), Status::Captured);
    assert!(exchanges(&c.events).is_empty(), "T-END-2: a retreating unit does not fight");
}

#[test]
fn t_end_4_the_losers_dispersed_units_are_captured_and_their_guns_change_hands() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
        .unit(2, Side::Red, "artillery", (6, 0), Dir::South)
        .unit_with(3, Side::Blue, "artillery", (4, 4), Dir::North, |u| u.health = Some(4))
        .unit_with(4, Side::Blue, "militia", (6, 4), Dir::North, |u| u.health = Some(4))
        .ctx(1);
    ok(&mut c, fire(1, 3)); // 4 − 4 = 0: dispersed
    assert_eq!(status(&c, 3), Status::Dispersed);
    ok(&mut c, fire(2, 4));
    assert_eq!((status(&c, 3), status(&c, 4)), (Status::Captured, Status::Captured), "T-END-4");
    assert!(
        c.events.iter().any(|e| matches!(e, Event::GunsTaken { unit: UnitId(3), by: Side::Red })),
        "T-END-4: guns pass to the winner"
    );
    let result = c.result().unwrap();
    assert_eq!(result.sides[1].guns_lost, vec![UnitId(3)]);
}
