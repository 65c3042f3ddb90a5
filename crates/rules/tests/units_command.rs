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
