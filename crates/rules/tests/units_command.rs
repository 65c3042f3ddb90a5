//! T-UNIT-1…4, T-RUS-1…6, T-CMD-1…5.

use rules::tactical::config::GeneralFate;
use rules::tactical::event::Event;
use rules::tactical::units::{Ability, Arm, Range, UnitTable};
use rules::tactical::{Battle, Dir, Order, Reactions, Side, Status, UnitId};
use rules::testing::orders::*;
use rules::testing::{Field, shipped};

fn quiet() -> Option<Reactions> {
    Some(Reactions { counter_volley: false, counter_charge: false, intercept: false })
}

/// (melee, ranged, range, speed, health)
fn stats(id: &str) -> (i32, Option<i32>, Option<Range>, i32, i32) {
    let t = UnitTable::builtin();
    let u = t.get(id).unwrap_or_else(|| panic!("{id}"));
    (u.melee, u.ranged, u.range, u.speed, u.health)
}

#[test]
fn t_unit_1_generic_table() {
    use Range::*;
    assert_eq!(stats("light_infantry"), (2, Some(3), Some(Cells(3)), 3, 7), "T-UNIT-1");
    assert_eq!(stats("line_infantry"), (3, Some(2), Some(Cells(2)), 2, 10), "T-UNIT-1");
    assert_eq!(stats("grenadiers"), (4, Some(2), Some(Cells(2)), 2, 10), "T-UNIT-1");
    assert_eq!(UnitTable::builtin().get("grenadiers").and_then(|g| g.storming_melee), Some(5), "T-UNIT-1: 5 storming");
    assert_eq!(stats("light_cavalry"), (2, Some(1), Some(Cells(2)), 5, 5), "T-UNIT-1");
    assert_eq!(stats("heavy_cavalry"), (3, None, None, 4, 6), "T-UNIT-1");
    assert_eq!(stats("artillery"), (1, Some(4), Some(WholeMap), 1, 5), "T-UNIT-1");
    assert_eq!(stats("militia"), (2, Some(1), Some(Cells(1)), 2, 6), "T-UNIT-1");
    let house = UnitTable::builtin().get("line_infantry").map(|u| u.house.len());
    assert_eq!(house, Some(3), "MD-T1: range, speed, health are marked house values");
}

#[test]
fn t_unit_2_modifiers_already_in_the_table_never_added_twice() {
    // Line infantry fights at 3 (2 + 1), not 4; light cavalry (mounted chasseurs) fires without a die.
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "line_infantry", (4, 4), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "militia", (4, 5), Dir::North, |u| u.reactions = quiet())
        .unit(3, Side::Red, "light_cavalry", (8, 1), Dir::South)
        .unit(4, Side::Blue, "line_infantry", (8, 3), Dir::North)
        .ctx(1);
    ok(&mut c, fire(3, 4));
    assert!(c.events.iter().any(|e| matches!(e, Event::Fired { roll: None, .. })), "T-UNIT-2: no die");
    ok(&mut c, Order::EndTurn);
    let red =
        c.events.iter().find_map(|e| if let Event::MeleeExchange { red, .. } = e { Some(red.total) } else { None });
    assert_eq!(red, Some(3), "T-UNIT-2: line infantry 3, the +1 is in the table");
}

#[test]
fn t_unit_3_guard_lowers_enemy_morale_by_2_lancers_by_1() {
    let t = UnitTable::builtin();
    assert!(
        t.get("lg_semyonovsky").unwrap().has(Ability::Guard) && t.get("lg_pavlovsky").unwrap().has(Ability::Guard),
        "T-UNIT-3"
    );
    assert!(!t.get("lg_hussars").unwrap().has(Ability::Guard), "Guard = Life-Guard infantry only");
    assert!(t.get("courland_uhlans").unwrap().has(Ability::Lancers), "T-UNIT-3: lancers = uhlans");
    let mut c = Field::new(10, 10)
        .faction(Side::Red, "Russia")
        .unit_with(1, Side::Red, "lg_semyonovsky", (4, 4), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "line_infantry", (4, 5), Dir::North, |u| {
            u.reactions = quiet();
            u.health = Some(4)
        })
        .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    c.dice.script(vec![5]);
    ok(&mut c, Order::EndTurn); // 4 vs 3: line −2 → 2 → test: d6 5 − 2 Guard = 3 < 4
    let test = c
        .events
        .iter()
        .find_map(|e| if let Event::MoraleTest { total, passed, .. } = e { Some((*total, *passed)) } else { None });
    assert_eq!(test, Some((3, false)), "T-UNIT-3: −2 morale to enemies in contact with Guard infantry");
}

#[test]
fn t_unit_4_health_replaces_loss_markers_artillery_5() {
    assert_eq!(stats("artillery").4, 5, "T-UNIT-4: 5 loss markers → Health 5");
    let b = Battle::new(&shipped("badajoz"), 1);
    assert!(b.units(None).iter().all(|u| u.health == u.max_health), "start at full Health");
}

#[test]
fn t_rus_1_to_6_russian_special_units() {
    use Range::*;
    assert_eq!(stats("lg_semyonovsky"), (4, Some(2), Some(Cells(2)), 2, 12), "T-RUS-1");
    assert_eq!(stats("lg_pavlovsky"), (3, Some(3), Some(Cells(3)), 2, 10), "T-RUS-2");
    assert_eq!(stats("jaeger_17"), (3, Some(3), Some(Cells(3)), 3, 9), "T-RUS-3");
    assert_eq!(stats("lg_hussars"), (4, None, None, 6, 5), "T-RUS-4");
    assert_eq!(stats("lg_cossacks"), (3, Some(1), Some(Cells(2)), 6, 5), "T-RUS-5");
    assert_eq!(stats("courland_uhlans"), (4, None, None, 5, 6), "T-RUS-6");
    let t = UnitTable::builtin();
    for id in ["lg_hussars", "lg_cossacks", "courland_uhlans"] {
        assert_eq!(t.get(id).map(|u| u.arm), Some(Arm::Cavalry), "{id} is light cavalry");
    }
    assert!(t.get("jaeger_17").unwrap().has(Ability::SkirmishOrder), "T-RUS-3: jägers are light infantry");
    let s = shipped("borodino");
    assert_eq!(s.side(Side::Blue).faction, "Russia");
}

#[test]
fn t_rus_1_and_3_fight_to_the_end_at_health_2() {
    for (id, start) in [("lg_semyonovsky", 6), ("jaeger_17", 6)] {
        let mut c = Field::new(10, 10)
            .faction(Side::Blue, "Russia")
            .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
            .unit_with(2, Side::Blue, id, (4, 4), Dir::North, |u| u.health = Some(start))
            .ctx(1);
        ok(&mut c, fire(1, 2)); // 6 − 4 = 2
        assert_eq!((health(&c, 2), status(&c, 2)), (2, Status::Active), "{id}");
        assert!(!c.events.iter().any(|e| matches!(e, Event::MoraleTest { .. })), "T-RUS-1/3: no morale test");
    }
    let err = Field::new(10, 10)
        .unit(1, Side::Red, "lg_hussars", (4, 0), Dir::South)
        .unit(2, Side::Blue, "line_infantry", (4, 4), Dir::North)
        .scenario();
    let text = rules::data::to_ron(&err);
    let e = rules::tactical::Scenario::from_resolved_text("x.ron", &text).unwrap_err().to_string();
    assert!(e.contains("T-STRAT-10"), "special units only for their faction: {e}");
}

#[test]
fn t_cmd_1_hq_formations_divisions_brigades_and_the_general_moves_on() {
    let b = Battle::new(&shipped("open_field"), 1);
    let c = b.ctx();
    assert_eq!(c.command.hq, [Some(UnitId(1)), Some(UnitId(21))], "T-CMD-1");
    let kinds: Vec<(String, bool)> = c.command.formations.iter().map(|f| (f.name.clone(), f.division)).collect();
    assert!(kinds.contains(&("1st Division".to_string(), true)), "T-CMD-1: 6 units = division");
    assert!(kinds.contains(&("Cavalry Brigade".to_string(), false)), "T-CMD-1: 2 units = brigade");
    // Default: one formation of all units, general on the HQ (the first unit).
    let d = Battle::new(&shipped("worked_example_a"), 1).ctx();
    let blue = d.command.formations.iter().find(|f| f.side == Side::Blue).unwrap();
    assert_eq!((blue.units.len(), blue.general_with), (2, Some(UnitId(2))));
    // At deployment a side may re-form.
    let mut e = Battle::new(&shipped("open_field"), 1);
    e.apply(Order::EndSetup).unwrap();
    e.apply(Order::EndSetup).unwrap();
    e.apply(Order::FormFormation {
        name: "Guards".into(),
        units: vec![UnitId(1), UnitId(2), UnitId(3), UnitId(4), UnitId(5)],
        general: UnitId(1),
    })
    .unwrap();
    e.apply(Order::DesignateHq { unit: UnitId(9) }).unwrap();
    let ctx = e.ctx();
    assert!(ctx.command.formations.iter().any(|f| f.name == "Guards" && f.division), "5 units = division");
    assert!(
        ctx.command.formations.iter().any(|f| f.name == "1st Division" && f.units == vec![UnitId(6)] && !f.division)
    );
    assert_eq!(ctx.command.hq[0], Some(UnitId(9)));
    // The general whose unit leaves the field moves to another unit of his formation.
    let mut f = Field::new(10, 10)
        .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
        .unit_with(2, Side::Blue, "militia", (4, 4), Dir::North, |u| u.health = Some(3))
        .unit(3, Side::Blue, "militia", (8, 8), Dir::North)
        .ctx(1);
    ok(&mut f, fire(1, 2));
    let blue = f.command.formations.iter().find(|x| x.side == Side::Blue).unwrap();
    assert_eq!(blue.general_with, Some(UnitId(3)), "T-CMD-1");
}

fn division_under_fire(general_roll: u8) -> rules::tactical::Ctx {
    let mut c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "artillery", (4, 0), Dir::South)
        .unit(3, Side::Red, "artillery", (6, 0), Dir::South)
        .unit(11, Side::Blue, "line_infantry", (2, 4), Dir::North)
        .unit(12, Side::Blue, "line_infantry", (4, 4), Dir::North)
        .unit(13, Side::Blue, "line_infantry", (6, 4), Dir::North)
        .unit(14, Side::Blue, "line_infantry", (8, 4), Dir::North)
        .unit(15, Side::Blue, "line_infantry", (10, 4), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 11)); // losses 4
    ok(&mut c, fire(2, 12)); // 8
    c.dice.script(vec![general_roll]);
    ok(&mut c, fire(3, 13)); // 12 > 10: the general (with unit 11, 2 cells away) tests
    c
}

#[test]
fn t_cmd_2_general_casualty_test_when_losses_exceed_the_limit_in_his_zone() {
    for (roll, fate) in [
        (1, GeneralFate::Killed),
        (2, GeneralFate::BadlyWounded),
        (3, GeneralFate::LightlyWounded),
        (4, GeneralFate::LightlyWounded),
        (5, GeneralFate::Unhurt),
        (6, GeneralFate::Unhurt),
    ] {
        let c = division_under_fire(roll);
        let test = c.events.iter().find_map(|e| {
            if let Event::GeneralTest { losses, roll, fate, .. } = e { Some((*losses, *roll, *fate)) } else { None }
        });
        assert_eq!(test, Some((12, roll, fate)), "T-CMD-2: d6 {roll}");
    }
    // Out of the command zone (4 cells): no test.
    let mut far = Field::new(14, 14)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "artillery", (4, 0), Dir::South)
        .unit(3, Side::Red, "artillery", (12, 0), Dir::South)
        .unit(11, Side::Blue, "line_infantry", (2, 4), Dir::North)
        .unit(12, Side::Blue, "line_infantry", (4, 4), Dir::North)
        .unit(13, Side::Blue, "line_infantry", (12, 4), Dir::North)
        .unit(14, Side::Blue, "line_infantry", (8, 4), Dir::North)
        .unit(15, Side::Blue, "line_infantry", (10, 4), Dir::North)
        .ctx(1);
    ok(&mut far, fire(1, 11));
    ok(&mut far, fire(2, 12));
    ok(&mut far, fire(3, 13));
    assert!(!far.events.iter().any(|e| matches!(e, Event::GeneralTest { .. })), "T-CMD-2: 10 cells from the general");
}

/// T-CMD-2 with the unit whose loss crosses the limit `d` cells from the general (with unit 11 at (2, 4)).
fn loss_crossed_at(d: i32) -> rules::tactical::Ctx {
    let mut c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "artillery", (4, 0), Dir::South)
        .unit(3, Side::Red, "artillery", (6, 0), Dir::South)
        .unit(11, Side::Blue, "line_infantry", (2, 4), Dir::North)
        .unit(12, Side::Blue, "line_infantry", (4, 4), Dir::North)
        .unit(13, Side::Blue, "line_infantry", (2 + d, 4), Dir::North)
        .unit(14, Side::Blue, "line_infantry", (8, 8), Dir::North)
        .unit(15, Side::Blue, "line_infantry", (10, 8), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 11)); // losses 4
    ok(&mut c, fire(2, 12)); // 8
    c.dice.script(vec![1]);
    ok(&mut c, fire(3, 13)); // canister 4: 12 > 10, crossed by unit 13
    c
}

#[test]
fn t_cmd_2_command_zone_is_4_cells_tested_at_3_4_and_5() {
    for (d, tested) in [(3, true), (4, true), (5, false)] {
        let c = loss_crossed_at(d);
        let test = c.events.iter().any(|e| matches!(e, Event::GeneralTest { losses: 12, .. }));
        assert_eq!(test, tested, "T-CMD-2: the unit is {d} cells from its general; the command zone is 4 cells");
    }
}

/// Blue's general is killed (T-CMD-4); blue's HQ (unit 11) stands at (2, 7), blue moves first.
fn general_lost(blue: &[(u32, &str, (i32, i32), Dir)], red: &[(u32, &str, (i32, i32), Dir)]) -> rules::tactical::Ctx {
    let mut f =
        Field::new(16, 16)
            .attacker(Side::Blue)
            .unit_with(11, Side::Blue, "line_infantry", (2, 7), Dir::North, |u| u.reactions = quiet());
    for &(id, ty, at, facing) in blue {
        f = f.unit(id, Side::Blue, ty, at, facing);
    }
    for &(id, ty, at, facing) in red {
        f = f.unit_with(id, Side::Red, ty, at, facing, |u| u.reactions = quiet());
    }
    let mut c = f.ctx(1);
    assert_eq!(c.command.hq[Side::Blue.index()], Some(UnitId(11)));
    for f in c.command.formations.iter_mut().filter(|f| f.side == Side::Blue) {
        f.general = GeneralFate::Killed;
    }
    c
}

const FAR_RED: (u32, &str, (i32, i32), Dir) = (1, "line_infantry", (15, 15), Dir::North);

#[test]
fn t_cmd_4_a_move_ends_within_4_cells_of_the_hq_tested_at_3_4_and_5() {
    // From (6, 7), 4 cells from the HQ at (2, 7), to cells 3, 4 and 5 away.
    for (to, d, legal) in [((5, 7), 3, true), ((6, 8), 4, true), ((7, 7), 5, false)] {
        let mut c = general_lost(&[(12, "line_infantry", (6, 7), Dir::North)], &[FAR_RED]);
        if legal {
            ok(&mut c, mv(12, &[to]));
        } else {
            let why = refused(&mut c, mv(12, &[to]));
            assert!(why.contains("T-CMD-4") && why.contains("5 away"), "{why}");
        }
        assert_eq!(cell(to.0, to.1).distance(cell(2, 7)), d);
    }
    // A longer move that starts inside and ends outside is refused too (today only its start was checked).
    let mut c = general_lost(&[(12, "light_infantry", (5, 7), Dir::North)], &[FAR_RED]);
    assert!(refused(&mut c, mv(12, &[(6, 7), (7, 7), (8, 7)])).contains("T-CMD-4"), "T-CMD-4: ends 6 cells away");
}

#[test]
fn t_cmd_4_a_unit_outside_may_move_only_nearer_the_hq() {
    // At (8, 7), 6 cells from the HQ: 5 is nearer (allowed, though still outside), 6 and 7 are not.
    for (to, legal) in [((7, 7), true), ((8, 8), false), ((9, 7), false)] {
        let mut c = general_lost(&[(12, "line_infantry", (8, 7), Dir::North)], &[FAR_RED]);
        if legal {
            ok(&mut c, mv(12, &[to])); // T-CMD-4: walks back towards the HQ
        } else {
            assert!(refused(&mut c, mv(12, &[to])).contains("T-CMD-4"), "T-CMD-4: {to:?} is not nearer the HQ");
        }
    }
    // From 5 cells away back to 4: inside again, and then it may fire.
    let mut c = general_lost(&[(12, "line_infantry", (7, 9), Dir::North)], &[(1, "line_infantry", (6, 7), Dir::South)]);
    assert!(refused(&mut c, fire(12, 1)).contains("T-CMD-4"), "T-CMD-4: 5 cells from the HQ, no fire");
    ok(&mut c, mv(12, &[(6, 9)]));
    ok(&mut c, fire(12, 1)); // 4 cells from the HQ
    assert_eq!(health(&c, 1), 8);
}

#[test]
fn t_cmd_4_fire_only_within_4_cells_of_the_hq_tested_at_3_4_and_5() {
    for (d, legal) in [(3, true), (4, true), (5, false)] {
        // The firer at (2 + d, 10), the target 2 cells ahead of it.
        let mut c = general_lost(
            &[(12, "line_infantry", (2 + d, 10), Dir::South)],
            &[(1, "line_infantry", (2 + d, 12), Dir::North)],
        );
        assert_eq!(cell(2 + d, 10).distance(cell(2, 7)), d);
        if legal {
            ok(&mut c, fire(12, 1));
            assert_eq!(health(&c, 1), 8, "T-CMD-4: {d} cells from the HQ, fires");
        } else {
            assert!(refused(&mut c, fire(12, 1)).contains("T-CMD-4"), "T-CMD-4: {d} cells from the HQ, no fire");
        }
    }
}

#[test]
fn t_cmd_4_counter_volley_only_within_4_cells_of_the_hq_tested_at_3_4_and_5() {
    for (d, volley) in [(3, true), (4, true), (5, false)] {
        // The blue unit at (2 + d, 10) facing south; red walks into its front.
        let mut c = general_lost(
            &[(12, "line_infantry", (2 + d, 10), Dir::South)],
            &[(1, "line_infantry", (2 + d, 13), Dir::North)],
        );
        ok(&mut c, Order::EndTurn);
        ok(&mut c, mv(1, &[(2 + d, 12), (2 + d, 11)]));
        let fired = c.events.iter().any(|e| matches!(e, Event::Fired { firer: UnitId(12), .. }));
        assert_eq!(fired, volley, "T-CMD-4: counter-volley {d} cells from the HQ");
    }
}

#[test]
fn t_cmd_3_badly_wounded_general_is_reported_for_the_campaign() {
    let mut c = division_under_fire(2);
    // End the battle: the rest of the blue army leaves the field.
    for u in c.units.iter_mut().filter(|u| u.side == Side::Blue) {
        u.status = Status::Retreated;
    }
    c.victory_phase();
    let result = c.result().unwrap();
    assert_eq!(result.generals.len(), 1);
    assert_eq!(result.generals[0].fate, GeneralFate::BadlyWounded, "T-CMD-3: out for the rest of the campaign");
}

#[test]
fn t_cmd_4_without_a_general_minus_1_morale_and_orders_only_near_the_hq() {
    let mut c = division_under_fire(1);
    ok(&mut c, Order::EndTurn);
    // HQ = unit 11 (first listed). Unit 15 is 8 cells from it.
    assert!(refused(&mut c, mv(15, &[(10, 5)])).contains("T-CMD-4"));
    ok(&mut c, mv(12, &[(4, 5)])); // 2 cells from the HQ
    let u = c.unit(UnitId(14)).unwrap().clone();
    let mods: Vec<i32> = c.morale_modifiers(&u, rules::tactical::event::Cause::Melee).iter().map(|t| t.value).collect();
    assert_eq!(mods, vec![-1], "T-CMD-4: −1 morale");
    // Light cavalry may ignore it.
    let mut d = Field::new(14, 14)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "artillery", (4, 0), Dir::South)
        .unit(3, Side::Red, "artillery", (6, 0), Dir::South)
        .unit(11, Side::Blue, "line_infantry", (2, 4), Dir::North)
        .unit(12, Side::Blue, "line_infantry", (4, 4), Dir::North)
        .unit(13, Side::Blue, "line_infantry", (6, 4), Dir::North)
        .unit(14, Side::Blue, "light_cavalry", (12, 12), Dir::North)
        .unit(15, Side::Blue, "line_infantry", (12, 8), Dir::North)
        .ctx(1);
    ok(&mut d, fire(1, 11));
    ok(&mut d, fire(2, 12));
    d.dice.script(vec![1]);
    ok(&mut d, fire(3, 13));
    ok(&mut d, Order::EndTurn);
    ok(&mut d, mv(14, &[(12, 11)])); // T-UNIT-2: light cavalry ignores command distance
    assert!(refused(&mut d, mv(15, &[(12, 9)])).contains("T-CMD-4"));
}

#[test]
fn t_cmd_5_hq_captured_fire_or_withdraw_only_minus_2_morale() {
    let mut c = Field::new(12, 12)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(2, Side::Red, "line_infantry", (6, 2), Dir::South)
        .unit_with(11, Side::Blue, "militia", (2, 4), Dir::North, |u| u.health = Some(4))
        .unit(12, Side::Blue, "line_infantry", (6, 6), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 11)); // the HQ unit (first listed) is dispersed
    assert!(c.events.iter().any(|e| matches!(e, Event::HqCaptured { side: Side::Blue })), "T-CMD-5");
    ok(&mut c, Order::EndTurn);
    assert!(refused(&mut c, mv(12, &[(6, 5), (6, 4)])).contains("T-CMD-5"), "no closing with the enemy");
    assert!(refused(&mut c, mv(12, &[(6, 5)])).contains("T-CMD-5"), "never nearer the enemy");
    ok(&mut c, mv(12, &[(7, 6)])); // sideways: not nearer (Chebyshev 4 either way)
    let u = c.unit(UnitId(12)).unwrap().clone();
    let mods: Vec<i32> = c.morale_modifiers(&u, rules::tactical::event::Cause::Melee).iter().map(|t| t.value).collect();
    assert!(mods.contains(&-2), "T-CMD-5: −2 morale");
}

/// Blue's HQ (unit 11) is dispersed when `hq_lost` (T-CMD-5); red attacks blue's light cavalry 14
/// (counter-charge on) with blue's light cavalry 15 ready to intercept.
fn red_closes_on_cavalry(hq_lost: bool) -> rules::tactical::Ctx {
    let cavalry =
        |charge: bool, intercept: bool| Some(Reactions { counter_volley: false, counter_charge: charge, intercept });
    let mut c = Field::new(12, 12)
        .unit_with(1, Side::Red, "line_infantry", (2, 1), Dir::South, |u| u.reactions = quiet())
        .unit_with(11, Side::Blue, "militia", (10, 10), Dir::North, |u| u.reactions = quiet())
        .unit_with(14, Side::Blue, "light_cavalry", (2, 4), Dir::North, |u| u.reactions = cavalry(true, false))
        .unit_with(15, Side::Blue, "light_cavalry", (6, 3), Dir::West, |u| u.reactions = cavalry(false, true))
        .ctx(1);
    if hq_lost {
        c.remove(UnitId(11), rules::tactical::event::Removal::HealthZero);
        assert!(c.command.hq_captured[Side::Blue.index()]);
    }
    ok(&mut c, mv(1, &[(2, 2), (2, 3)]));
    c
}

#[test]
fn t_cmd_5_hq_lost_no_counter_charge_and_no_intercept() {
    let with_hq = red_closes_on_cavalry(false);
    assert!(with_hq.events.iter().any(|e| matches!(e, Event::CounterCharge { unit: UnitId(14) })));
    assert!(with_hq.events.iter().any(|e| matches!(e, Event::Intercept { unit: UnitId(15), .. })));
    let without = red_closes_on_cavalry(true);
    assert!(
        !without.events.iter().any(|e| matches!(e, Event::CounterCharge { .. })),
        "T-CMD-5: with the HQ lost, no charge"
    );
    assert!(
        !without.events.iter().any(|e| matches!(e, Event::Intercept { .. })),
        "T-CMD-5: with the HQ lost, no intercept"
    );
    assert_eq!(at(&without, 15), cell(6, 3));
}

#[test]
fn t_cmd_5_hq_lost_units_in_contact_may_withdraw_but_not_close() {
    let field = |hq_lost: bool| {
        let mut c = Field::new(12, 12)
            .unit_with(1, Side::Red, "line_infantry", (5, 4), Dir::South, |u| u.reactions = quiet())
            .unit_with(2, Side::Red, "line_infantry", (9, 4), Dir::South, |u| u.reactions = quiet())
            .unit_with(11, Side::Blue, "militia", (0, 11), Dir::North, |u| u.reactions = quiet())
            .unit_with(12, Side::Blue, "line_infantry", (5, 5), Dir::North, |u| u.reactions = quiet())
            .unit_with(13, Side::Blue, "line_infantry", (9, 6), Dir::North, |u| u.reactions = quiet())
            .ctx(1);
        if hq_lost {
            c.remove(UnitId(11), rules::tactical::event::Removal::HealthZero);
        }
        ok(&mut c, Order::EndTurn); // one exchange: 3 vs 3, each −1
        c
    };
    let mut with_hq = field(false);
    assert!(refused(&mut with_hq, mv(12, &[(5, 6)])).contains("T-MOVE-3"), "in melee, it stays");
    let mut c = field(true);
    assert_eq!((health(&c, 1), health(&c, 12)), (9, 9), "T-CMD-5: a unit attacked still fights the exchange");
    ok(&mut c, mv(12, &[(5, 6), (5, 7)])); // T-CMD-5: withdraws out of contact
    assert!(!c.in_contact(c.unit(UnitId(12)).unwrap()));
    assert!(c.unit(UnitId(1)).unwrap().contact.is_none() && c.unit(UnitId(12)).unwrap().contact.is_none());
    // No melee: it may not close with the enemy, nor end a move nearer it; it may fire.
    assert!(refused(&mut c, mv(13, &[(9, 5)])).contains("T-CMD-5"), "T-CMD-5: no closing");
    assert!(refused(&mut c, mv(13, &[(8, 6), (8, 5)])).contains("T-CMD-5"), "T-CMD-5: never nearer the enemy");
    ok(&mut c, fire(13, 2)); // T-CMD-5: fire
    assert_eq!(health(&c, 2), 8);
}
