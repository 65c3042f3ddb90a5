//! Great War fire, gas, cities, losses and supply: each test names its rule IDs and shows the
//! rule's numbers.

use rules::strategic::hexmap::{HexMap, Terrain, flag};
use rules::strategic::order::{Order, OrderError, Piece};
use rules::strategic::scenario::{CorpsSpec, FortSpec, KindSpec};
use rules::strategic::state::{Ctx, Phase, Place};
use rules::strategic::tables::Model;
use rules::strategic::testkit::*;

fn clear(w: u32, h: u32) -> HexMap {
    HexMap::filled("test", w, h, Terrain::Clear)
}

fn gun(n: u32, power: &str, at: (i32, i32), name: &str) -> rules::strategic::scenario::ForceSpec {
    unit(n, power, at, KindSpec::Artillery(name.into()))
}

fn health(c: &Ctx, n: u32) -> i32 {
    c.force(id(n)).map_or(-1, |f| f.vitals.health)
}

fn morale(c: &Ctx, n: u32) -> Option<i32> {
    c.force(id(n)).and_then(|f| f.vitals.morale)
}

fn fire(c: &mut Ctx, n: u32, at: (i32, i32), gas: bool) -> Result<(), OrderError> {
    c.apply(&Order::Fire { unit: id(n), target: hex(at.0, at.1), gas })
}

#[test]
fn s_art_1_artillery_moves_on_its_own_at_its_gun_speed() {
    let s = scenario(
        clear(12, 4),
        vec![gun(1, "germany", (0, 1), "42 cm Dicke Bertha"), gun(2, "germany", (0, 3), "15 cm sFH 13")],
    );
    let c = ctx(&s, Phase::Movement, 0);
    let far = |n: u32| c.destinations(Piece::Unit(id(n))).iter().map(|(h, _, _)| h.col).max().unwrap_or(0);
    // MD-S4: 42 cm Speed 3, 15 cm Speed 6.
    assert_eq!((far(1), far(2)), (3, 6));
}

#[test]
fn s_art_2_s_art_3_s_art_6_damage_split_evenly_remainder_to_most_health_then_lower_id() {
    let mut s = scenario(
        clear(10, 6),
        vec![
            gun(1, "france", (1, 1), "Obusier de 520 mle 16"),
            infantry(2, "germany", (3, 1)),
            infantry(3, "germany", (3, 1)),
        ],
    );
    s.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: vec![2, 3], attached: vec![] }];
    let mut c = ctx(&s, Phase::Fire, 1);
    // Attack 5 on two divisions of Health 3: 2 each, the remainder 1 to the lower ID (equal Health).
    // No air reconnaissance is needed for full effect until aviation exists (S-ART-6).
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert_eq!((health(&c, 2), health(&c, 3)), (0, 1));
    assert_eq!(c.force(id(2)).unwrap().place, Place::Dispersed);
    // S-ART-3: −1 Morale to every unit hit.
    assert_eq!(morale(&c, 3), Some(5));
    // With unequal Health the remainder goes to the one with most Health.
    let mut c = ctx(&s, Phase::Fire, 1);
    c.force_mut(id(2)).unwrap().vitals.health = 2;
    c.force_mut(id(3)).unwrap().vitals.health = 3;
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert_eq!((health(&c, 2), health(&c, 3)), (0, 0));
    let s = scenario(
        clear(10, 6),
        vec![gun(1, "france", (1, 1), "Ordnance BL 9.2-inch howitzer"), infantry(2, "germany", (3, 1))],
    );
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (3, 1), false).unwrap();
    // Attack 2 → Health 1, and −1 Morale.
    assert_eq!((health(&c, 2), morale(&c, 2)), (1, Some(5)));
}

#[test]
fn s_art_4_city_loses_a_level_per_full_5_damage_in_one_fire_phase() {
    let mut map = clear(10, 6);
    map.cell_mut(hex(3, 1)).unwrap().flags |= flag::CITY;
    let s = scenario(
        map,
        vec![
            gun(1, "france", (1, 1), "Mortier de 370 Filloux"),
            gun(2, "france", (2, 2), "Canon de 120 mle 78"),
            infantry(3, "germany", (3, 1)),
        ],
    );
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (3, 1), false).unwrap();
    // 4 damage: no level yet, and the troops take it too.
    assert_eq!(c.hex_state(hex(3, 1)).city_destruction, 0);
    assert_eq!(c.force(id(3)).unwrap().place, Place::Dispersed);
    fire(&mut c, 2, (3, 1), false).unwrap();
    assert_eq!(c.hex_state(hex(3, 1)).city_destruction, 1, "4 + 1 = 5 damage in one phase");
    c.restore_damage();
    assert_eq!((c.hex_state(hex(3, 1)).city_damage, c.hex_state(hex(3, 1)).city_destruction), (0, 1));
}

#[test]
fn s_art_5_battery_sums_attack_takes_lowest_range_fires_once() {
    let s = scenario(
        clear(12, 6),
        vec![
            gun(1, "france", (1, 1), "Canon de 305 mle 06/10"),
            gun(2, "france", (2, 1), "Mortier de 280 mle 1914 Schneider"),
            gun(3, "france", (1, 2), "Canon de 155 mle 81"),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 1);
    c.apply(&Order::FormBattery { units: [id(1), id(2), id(3)] }).unwrap();
    c.clock.phase = Phase::Fire;
    // Ranges 5, 2, 2 → 2; Attack 3 + 3 + 1 = 7.
    assert!(fire(&mut c, 1, (4, 1), false).is_err());
    let shot = c.check_fire(id(2), hex(3, 1), false).unwrap();
    assert_eq!((shot.attack, shot.guns.len()), (7, 3));
    fire(&mut c, 3, (3, 1), false).unwrap();
    assert!(fire(&mut c, 1, (3, 1), false).is_err(), "one target per turn");
    // Three 15 cm divisions (Attack 1 each) as a battery on a corps of two: 3 damage split 2 + 1; the
    // battery is one unit with one target (S-ART-5), so its shot is one attack: −1 Morale (S-ART-3), 6 → 5.
    let mut s2 = scenario(
        clear(12, 6),
        vec![
            gun(1, "germany", (1, 1), "15 cm sFH 13"),
            gun(2, "germany", (2, 1), "15 cm sFH 13"),
            gun(3, "germany", (1, 2), "15 cm sFH 13"),
            infantry(4, "france", (3, 1)),
            infantry(5, "france", (3, 1)),
        ],
    );
    s2.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: vec![4, 5], attached: vec![] }];
    let mut c2 = ctx(&s2, Phase::Movement, 0);
    c2.apply(&Order::FormBattery { units: [id(1), id(2), id(3)] }).unwrap();
    c2.clock.phase = Phase::Fire;
    fire(&mut c2, 2, (3, 1), false).unwrap();
    assert_eq!((health(&c2, 4), health(&c2, 5)), (1, 2));
    assert_eq!((morale(&c2, 4), morale(&c2, 5)), (Some(5), Some(5)), "S-ART-3: one attack, −1 Morale");
}

#[test]
fn s_art_5_battery_moves_together_at_the_slowest_speed_with_health_summed() {
    // A 155 (speed 6), a 280 (speed 4) and a 305 (speed 4), Health 2 each.
    let s = scenario(
        clear(16, 6),
        vec![
            gun(1, "france", (1, 1), "Canon de 155 mle 81"),
            gun(2, "france", (2, 1), "Mortier de 280 mle 1914 Schneider"),
            gun(3, "france", (1, 2), "Canon de 305 mle 06/10"),
            gun(9, "germany", (12, 4), "42 cm Dicke Bertha"),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 1);
    c.apply(&Order::FormBattery { units: [id(1), id(2), id(3)] }).unwrap();
    // Forming it ends this turn's movement; next turn the battery moves at speed 4: 5 hexes is too far.
    for n in 1..=3 {
        let kind = c.force(id(n)).unwrap().kind;
        let speed = c.speed(kind);
        c.force_mut(id(n)).unwrap().activity.mp_left = speed;
    }
    let path = |k: i32| (2..2 + k).map(|col| hex(col, 1)).collect::<Vec<_>>();
    assert_eq!(
        c.apply(&Order::Move { piece: Piece::Unit(id(1)), path: path(5) }),
        Err(OrderError::NoMovement { need: 5, left: 4 })
    );
    // Moving any member moves all three to one hex.
    c.apply(&Order::Move { piece: Piece::Unit(id(1)), path: path(4) }).unwrap();
    for n in 1..=3 {
        assert_eq!(c.force(id(n)).unwrap().place, Place::Map(hex(5, 1)), "member {n}");
    }
    // Health summed (2 + 2 + 2 = 6): 5 damage leaves the battery alive with 1; 6 destroys it.
    c.damage_troops(&[id(1), id(2), id(3)], 5, 0);
    let left: Vec<i32> = (1..=3).map(|n| health(&c, n)).collect();
    assert_eq!(left.iter().sum::<i32>(), 1);
    for n in 1..=3 {
        let f = c.force(id(n)).unwrap();
        assert_eq!((f.place, f.member.battery), (Place::Map(hex(5, 1)), Some(id(1))), "member {n}");
    }
    c.damage_troops(&[id(1), id(2), id(3)], 1, 0);
    for n in 1..=3 {
        assert_eq!(c.force(id(n)).unwrap().place, Place::Destroyed, "member {n}");
    }
}

#[test]
fn s_art_7_firing_into_stubborn_fighting_d6() {
    let s = scenario(
        clear(10, 6),
        vec![
            gun(1, "france", (2, 1), "Mortier de 370 Filloux"),
            infantry(2, "germany", (4, 1)),
            infantry(3, "france", (3, 1)),
        ],
    );
    for (pips, own, target) in [(1, 1, 1), (3, 1, 1), (4, 3, -1), (6, 3, -1)] {
        let mut c = ctx(&s, Phase::Fire, 1);
        c.dice.script(vec![pips]);
        fire(&mut c, 1, (4, 1), false).unwrap();
        // 1–3: half of 4 (2) hits the own engaged division, the rest (2) the target; 4–6: all 4 the target.
        assert_eq!(health(&c, 3), own, "d6={pips}");
        if target < 0 {
            assert_eq!(c.force(id(2)).unwrap().place, Place::Dispersed, "d6={pips}");
        } else {
            assert_eq!(health(&c, 2), target, "d6={pips}");
        }
    }
}

#[test]
fn s_art_8_one_shell_a_turn_normal_or_gas() {
    let s =
        scenario(clear(10, 6), vec![gun(1, "france", (1, 1), "Canon de 155 mle 81"), infantry(2, "germany", (3, 1))]);
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert!(matches!(fire(&mut c, 1, (3, 1), true), Err(OrderError::Fire(_))));
}

#[test]
fn s_chem_1_s_chem_2_s_chem_6_cylinder_d6_table_and_damage() {
    let mut s = scenario(
        clear(10, 6),
        vec![
            infantry(1, "germany", (1, 1)),
            infantry(2, "france", (3, 1)),
            unit(
                3,
                "france",
                (3, 2),
                KindSpec::Infantry { model: Model::M1916, class: 1, mountain: false, elite: false, colonial: None },
            ),
        ],
    );
    s.cylinders = vec![(hex(1, 1), "germany".into())];
    for (pips, own, target) in [(1, 1, 3), (2, 3, 3), (3, 3, 1), (6, 3, 1)] {
        let mut c = ctx(&s, Phase::Preparation, 0);
        c.dice.script(vec![pips]);
        c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(3, 1) }).unwrap();
        // 1: blown back onto the own 1914 division (−2); 2: nothing; 3–6: the target's 1914 division −2.
        assert_eq!((health(&c, 1), health(&c, 2)), (own, target), "d6={pips}");
        if pips == 1 {
            assert_eq!(morale(&c, 1), Some(5), "own troops lose Morale too (S-CHEM-6)");
        }
    }
    // Within 3 hexes only; the 1916 division takes 1 (S-CHEM-2).
    let mut c = ctx(&s, Phase::Preparation, 0);
    assert!(matches!(c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(5, 1) }), Err(OrderError::Gas(_))));
    let mut s2 = s.clone();
    s2.cylinders = vec![(hex(1, 1), "germany".into())];
    let mut c = ctx(&s2, Phase::Preparation, 0);
    c.dice.script(vec![5]);
    c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(3, 2) }).unwrap();
    assert_eq!(health(&c, 3), 2);
    // Before turn 3 gas is not allowed (S-TURN-1).
    c.clock.turn = 2;
    assert!(matches!(
        c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(3, 2) }),
        Err(OrderError::TooEarly { .. })
    ));
}

#[test]
fn s_chem_3_s_chem_4_s_chem_5_gas_shells_hit_every_division_ignore_forts_spare_tanks() {
    let mut s = scenario(
        clear(10, 6),
        vec![
            gun(1, "france", (1, 1), "Canon de 155 mle 81"),
            infantry(2, "germany", (3, 1)),
            unit(3, "germany", (3, 1), KindSpec::Cavalry { class: 1, model: Model::M1916, elite: false }),
            unit(4, "germany", (2, 3), KindSpec::Tank("A7V".into())),
        ],
    );
    s.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: vec![2, 3], attached: vec![] }];
    s.fortifications = vec![FortSpec { at: hex(3, 1), level: 2, power: "germany".into() }];
    let mut c = ctx(&s, Phase::Fire, 1);
    let shells = c.powers[1].chem_shells;
    fire(&mut c, 1, (3, 1), true).unwrap();
    // S-CHEM-3: 1914 infantry −3, 1916 cavalry (gas masks) −2 (Health 2 → 0, dispersed); the
    // fortification is untouched. S-CHEM-4: the corps hex, so both divisions of the corps are hit.
    assert_eq!(health(&c, 2), 0);
    assert_eq!(c.force(id(3)).unwrap().place, Place::Dispersed);
    assert_eq!(c.hex_state(hex(3, 1)).fort, 2);
    assert_eq!(c.powers[1].chem_shells, shells - 1);
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (2, 3), true).unwrap();
    assert_eq!(health(&c, 4), 2, "S-CHEM-5: tanks are not affected");
}

#[test]
fn s_fort_5_s_fort_6_s_turn_3_fortifications_fortresses_and_restoration() {
    let mut map = clear(12, 6);
    map.cell_mut(hex(6, 1)).unwrap().flags |= flag::FORTRESS;
    let mut s = scenario(
        map,
        vec![
            gun(1, "france", (1, 1), "42 cm Dicke Bertha"),
            infantry(2, "germany", (3, 1)),
            gun(3, "france", (2, 2), "15 cm sFH 13"),
            gun(4, "france", (4, 2), "42 cm Dicke Bertha"),
            gun(5, "france", (5, 3), "42 cm Dicke Bertha"),
            infantry(6, "germany", (6, 1)),
        ],
    );
    s.fortifications = vec![FortSpec { at: hex(3, 1), level: 1, power: "germany".into() }];
    s.powers[0].alliance = 1;
    let mut c = ctx(&s, Phase::Fire, 1);
    // Level 1 falls to 2 damage; the other 2 of the 42 cm's 4 hit the troops.
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert_eq!((c.hex_state(hex(3, 1)).fort, health(&c, 2)), (0, 1));
    // Level 2 holds 4: one damage a phase is restored (S-TURN-3).
    let mut c = ctx(&s, Phase::Fire, 1);
    c.hex_state_mut(hex(3, 1)).fort = 2;
    fire(&mut c, 3, (3, 1), false).unwrap();
    assert_eq!((c.hex_state(hex(3, 1)).damage, health(&c, 2)), (1, 3));
    c.restore_damage();
    assert_eq!(c.hex_state(hex(3, 1)).damage, 0);
    assert_eq!(c.hex_state(hex(3, 1)).fort, 2);
    // S-FORT-6: a fortress hex withstands 8: two 42 cm divisions break it; it stays broken.
    let mut c = ctx(&s, Phase::Fire, 1);
    assert_eq!(c.defense_column(c.force(id(6)).unwrap()), rules::strategic::state::DefenseColumn::F2);
    fire(&mut c, 4, (6, 1), false).unwrap();
    assert_eq!((c.hex_state(hex(6, 1)).fortress_destroyed, health(&c, 6)), (false, 3));
    fire(&mut c, 5, (6, 1), false).unwrap();
    assert!(c.hex_state(hex(6, 1)).fortress_destroyed);
    c.restore_damage();
    assert!(c.hex_state(hex(6, 1)).fortress_destroyed);
}

#[test]
fn s_terr_3_forest_destroyed_by_2_damage_less_is_restored() {
    let mut map = clear(10, 6);
    map.cell_mut(hex(3, 1)).unwrap().terrain = Terrain::Forest;
    map.cell_mut(hex(3, 3)).unwrap().terrain = Terrain::Forest;
    let s = scenario(
        map,
        vec![gun(1, "france", (1, 1), "Canon de 155 mle 81"), gun(2, "france", (1, 3), "21 cm Mörser 16")],
    );
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (3, 1), false).unwrap();
    fire(&mut c, 2, (3, 3), false).unwrap();
    c.restore_damage();
    assert!(!c.hex_state(hex(3, 1)).forest_destroyed);
    assert!(c.hex_state(hex(3, 3)).forest_destroyed);
    assert_eq!(c.step_cost(c.force(id(1)).unwrap().kind, hex(2, 3), hex(3, 3)), Some(1));
}

fn city_map() -> HexMap {
    let mut map = clear(10, 6);
    let text = r#"GreatWarMap(name: "c", width: 10, height: 6,
      provinces: [(id: "p", name: "P", owner: "france", capital: "town", gdp: 20, manpower: (3, 4))],
      cities: [(id: "town", name: "Town", province: "p", hexes: [(5, 2), (6, 2)])])"#;
    map = HexMap::parse("c.ron", text).unwrap_or(map);
    map
}

#[test]
fn s_city_1_to_s_city_4_occupation_income_and_return() {
    let s = scenario(city_map(), vec![infantry(1, "germany", (5, 2)), infantry(2, "germany", (1, 1))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    // One of two hexes is not enough (S-CITY-1).
    c.occupation();
    assert_eq!(c.provinces[0].occupier, None);
    c.force_mut(id(2)).unwrap().place = Place::Map(hex(6, 2));
    c.rebuild_occupancy();
    c.occupation();
    assert_eq!(c.provinces[0].occupier, Some(rules::strategic::PowerId(0)));
    // S-CITY-2, S-CITY-4: half the GDP (10) less 10 % of it (2); France gets nothing, no manpower.
    let (de, fr, men) = (c.powers[0].money, c.powers[1].money, c.powers[1].manpower);
    c.income();
    assert_eq!((c.powers[0].money - de, c.powers[1].money - fr, c.powers[1].manpower), (8, 0, men));
    c.provinces[0].devastated = true;
    let de = c.powers[0].money;
    c.income();
    assert_eq!(c.powers[0].money, de, "devastated: no income");
    // S-CITY-3: the occupier's troops leave; France regains the province and its manpower.
    for n in [1, 2] {
        c.force_mut(id(n)).unwrap().place = Place::Map(hex(0, n as i32));
    }
    c.rebuild_occupancy();
    c.occupation();
    assert_eq!(c.provinces[0].occupier, None);
    let men = c.powers[1].manpower;
    c.income();
    assert_eq!(c.powers[1].manpower, [men[0] + 3, men[1] + 4]);
}

#[test]
fn s_loss_1_s_loss_2_s_loss_3_restoration_and_repair() {
    let s = scenario(
        city_map(),
        vec![
            infantry(1, "france", (2, 2)),
            gun(2, "france", (3, 4), "Canon de 155 mle 81"),
            infantry(3, "france", (1, 4)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 1);
    c.disperse(id(1), rules::texts::Msg::plain("test"));
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    // Half price (20/2) and half manpower (10/2), at the nearest own city; class-2 manpower gives class-2 stats.
    c.apply(&Order::Restore { unit: id(1), class: 2 }).unwrap();
    let f = c.force(id(1)).unwrap();
    assert_eq!(f.place, Place::Map(hex(5, 2)));
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (money - 10, [men[0], men[1] - 5]));
    assert_eq!(c.stats(f.kind).attack, 20, "class 2");
    // S-LOSS-2: Health 3, losses 2 → 2/3 of the price 20 = 13 and of 10 manpower = 6 (rounded down).
    c.force_mut(id(3)).unwrap().vitals.health = 1;
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    c.apply(&Order::Repair { unit: id(3) }).unwrap();
    assert_eq!((health(&c, 3), c.powers[1].money), (3, money - 13));
    assert_eq!(c.powers[1].manpower, [men[0], men[1] - 6]);
    // Losses 1 → 1/3: 20/3 = 6, 10/3 = 3 (rounded down).
    c.force_mut(id(3)).unwrap().vitals.health = 2;
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    c.apply(&Order::Repair { unit: id(3) }).unwrap();
    assert_eq!((health(&c, 3), c.powers[1].money, c.powers[1].manpower), (3, money - 6, [men[0], men[1] - 3]));
    // S-LOSS-3: units without Morale are destroyed at Health 0, never dispersed.
    c.change_health(id(2), -2);
    c.check_losses(false);
    assert_eq!(c.force(id(2)).unwrap().place, Place::Destroyed);
}

#[test]
fn s_sup_1_s_sup_3_ammunition_only_when_fighting_and_half_value_without() {
    let s = scenario(
        clear(10, 6),
        vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (3, 2)), infantry(3, "germany", (8, 4))],
    );
    let mut c = ctx(&s, Phase::Combat, 0);
    let ammo = [c.powers[0].ammo, c.powers[1].ammo];
    c.combat_engagements();
    // One per fighting unit; the idle division 3 draws none.
    assert_eq!([c.powers[0].ammo, c.powers[1].ammo], [ammo[0] - 1, ammo[1] - 1]);
    let mut c = ctx(&s, Phase::Combat, 0);
    c.powers[1].ammo = 0;
    c.draw_ammunition(vec![id(2)]);
    assert!(!c.force(id(2)).unwrap().supply.ammo);
    assert_eq!(c.value_terms(id(2), &[id(1)]).unwrap().value.floor(), 15, "Defense 30 × 1/2");
    // Heavy artillery without ammunition cannot fire.
    let s = scenario(
        clear(10, 6),
        vec![
            gun(1, "france", (1, 1), "Canon de 155 mle 81"),
            infantry(2, "germany", (3, 1)),
            unit(3, "germany", (4, 4), KindSpec::Tank("A7V".into())),
            infantry(4, "france", (5, 4)),
        ],
    );
    let mut c = ctx(&s, Phase::Fire, 1);
    c.powers[1].ammo = 0;
    assert!(matches!(fire(&mut c, 1, (3, 1), false), Err(OrderError::NoAmmunition { need: 1, left: 0, .. })));
    // A tank battalion without ammunition is destroyed when attacked.
    c.powers[0].ammo = 0;
    c.powers[1].ammo = 10;
    c.combat_engagements();
    assert_eq!(c.force(id(3)).unwrap().place, Place::Destroyed);
}

#[test]
fn s_sup_2_s_sup_4_upkeep_surcharges_and_armies_left_without() {
    let mut s = scenario(
        clear(12, 8),
        vec![
            infantry(1, "germany", (1, 1)),
            infantry(2, "germany", (3, 1)),
            infantry(3, "germany", (3, 1)),
            gun(4, "germany", (6, 6), "15 cm sFH 13"),
        ],
    );
    s.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: vec![2, 3], attached: vec![] }];
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.powers[1].money = 0;
    let money = c.powers[0].money;
    c.pay_upkeep();
    // S-SUP-4: independent division 2 × 1.25 = 2.5, artillery 1 × 1.25 = 1.25, corps 4 × 1.10 =
    // 4.4: 8.15, paid rounded up so no surcharge is lost: 9 (rounded down per group it was 7).
    assert_eq!(money - c.powers[0].money, 9);
    // Short of money: −1 Morale; units without Morale −1 Health (S-SUP-2).
    c.powers[0].money = 0;
    c.pay_upkeep();
    assert_eq!((morale(&c, 1), health(&c, 4)), (Some(5), 1));
}

#[test]
fn s_sup_4_highest_army_ids_go_without_first_unless_the_player_chooses() {
    use rules::strategic::scenario::ArmySpec;
    let mut s =
        scenario(clear(14, 8), (1..=8).map(|n| infantry(n, "germany", (((n - 1) / 2 * 3) as i32, 2))).collect());
    s.corps = (0..4)
        .map(|k| CorpsSpec { id: 100 + k, name: format!("C{k}"), units: vec![2 * k + 1, 2 * k + 2], attached: vec![] })
        .collect();
    s.armies = vec![
        ArmySpec { id: 201, name: "A1".into(), corps: vec![100, 101], reserves: vec![], attached: vec![] },
        ArmySpec { id: 202, name: "A2".into(), corps: vec![102, 103], reserves: vec![], attached: vec![] },
    ];
    let mut c = ctx(&s, Phase::Upkeep, 0);
    // Each army costs 4 × 2 = 8; 10 in the treasury pays one.
    c.powers[0].money = 10;
    c.pay_upkeep();
    assert!(c.force(id(1)).unwrap().supply.money);
    assert!(!c.force(id(5)).unwrap().supply.money, "army 202 goes without by default");
    let mut c = ctx(&s, Phase::Movement, 0);
    c.apply(&Order::SupplyPriority { last: vec![rules::strategic::FormationId(201)] }).unwrap();
    c.powers[0].money = 10;
    c.pay_upkeep();
    assert!(!c.force(id(1)).unwrap().supply.money);
    assert!(c.force(id(5)).unwrap().supply.money);
}

#[test]
fn s_sup_5_harsh_climate_costs_health_except_local_colonial_and_mountain_troops() {
    let mut map = clear(10, 6);
    for (h, t) in [
        ((1, 1), Terrain::Desert),
        ((2, 1), Terrain::Desert),
        ((3, 1), Terrain::Northern),
        ((4, 1), Terrain::Northern),
        ((5, 1), Terrain::Mountains),
        ((6, 1), Terrain::Mountains),
    ] {
        let c = map.cell_mut(hex(h.0, h.1)).unwrap();
        c.terrain = t;
        c.climate = rules::strategic::hexmap::Climate::of(t);
    }
    let colonial = KindSpec::Infantry {
        model: Model::M1914,
        class: 1,
        mountain: false,
        elite: false,
        colonial: Some("foreign_legion".into()),
    };
    let mountain = KindSpec::Infantry { model: Model::M1914, class: 1, mountain: true, elite: false, colonial: None };
    let mut s = scenario(
        map,
        vec![
            infantry(1, "france", (1, 1)),
            unit(2, "france", (2, 1), colonial),
            infantry(3, "france", (3, 1)),
            infantry(4, "germany", (4, 1)),
            infantry(5, "france", (5, 1)),
            unit(6, "france", (6, 1), mountain),
        ],
    );
    s.powers[0].local_climates = vec![rules::strategic::hexmap::Climate::North];
    let mut c = ctx(&s, Phase::Upkeep, 0);
    // The read-only forecast the board's climate overlay shows names exactly those the Upkeep hits.
    assert_eq!(c.climate_casualties(), vec![id(1), id(3), id(5)]);
    c.climate_attrition();
    assert_eq!([1, 2, 3, 4, 5, 6].map(|n| health(&c, n)), [2, 3, 2, 3, 2, 3]);
}

#[test]
fn s_sup_6_rotation_after_2_3_4_turns_on_the_front_line() {
    let mut s = scenario(
        clear(20, 8),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (2, 4)),
            infantry(3, "germany", (2, 4)),
            infantry(9, "france", (4, 3)),
        ],
    );
    s.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: vec![2, 3], attached: vec![] }];
    let mut c = ctx(&s, Phase::Upkeep, 0);
    let mut m1 = Vec::new();
    let mut m2 = Vec::new();
    for turn in 0..4u16 {
        // The read-only status (the board's front-line overlay) foretells each Upkeep: the
        // independent unit's period is 2, the corps' 3; the loss comes once the count passes it.
        let status = c.rotation_status();
        let of = |n: u32| *status.iter().find(|r| r.unit == id(n)).expect("on the map");
        assert_eq!((of(1).turns, of(1).period, of(1).on_front), (turn, 2, true));
        assert_eq!((of(2).turns, of(2).period), (turn, 3));
        assert_eq!((of(1).loses_morale(), of(2).loses_morale()), (turn >= 2, turn >= 3));
        c.rotation();
        m1.push(morale(&c, 1).unwrap());
        m2.push(morale(&c, 2).unwrap());
    }
    // Independent: loss from the 3rd turn; corps: from the 4th. The French unit is 3 hexes away.
    assert_eq!(m1, vec![6, 6, 5, 4]);
    assert_eq!(m2, vec![6, 6, 6, 5]);
    // A turn off the line resets the count.
    c.force_mut(id(9)).unwrap().place = Place::Map(hex(19, 7));
    c.rebuild_occupancy();
    let off = c.rotation_status().into_iter().find(|r| r.unit == id(1)).expect("on the map");
    assert!(!off.on_front && !off.loses_morale() && off.turns_after_upkeep() == 0);
    c.rotation();
    assert_eq!(c.force(id(1)).unwrap().front.turns, 0);
}

#[test]
fn s_art_3_s_chem_6_a_batterys_gas_shot_is_one_attack_and_takes_one_morale() {
    // Three 15 cm divisions as one battery, and a fourth alone, each at a 1914 division (Health
    // raised to 12 so that it lives through the gas and its Morale can be read).
    let s = scenario(
        clear(12, 8),
        vec![
            gun(1, "germany", (1, 1), "15 cm sFH 13"),
            gun(2, "germany", (2, 1), "15 cm sFH 13"),
            gun(3, "germany", (1, 2), "15 cm sFH 13"),
            gun(4, "germany", (1, 5), "15 cm sFH 13"),
            infantry(5, "france", (3, 1)),
            infantry(6, "france", (3, 5)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    c.apply(&Order::FormBattery { units: [id(1), id(2), id(3)] }).unwrap();
    c.clock.phase = Phase::Fire;
    for n in [5, 6] {
        let v = &mut c.force_mut(id(n)).unwrap().vitals;
        (v.health, v.max_health) = (12, 12);
    }
    let shells = c.powers[0].chem_shells;
    // The battery: three shells of 3 (S-CHEM-3) on the hex, one attack: Morale 6 → 5, not 6 → 3.
    fire(&mut c, 1, (3, 1), true).unwrap();
    assert_eq!((health(&c, 5), morale(&c, 5)), (12 - 9, Some(5)), "S-ART-3: one attack, −1 Morale");
    assert_eq!(c.powers[0].chem_shells, shells - 3, "one chemical shell a division");
    // The division alone: one shell of 3, −1 Morale.
    fire(&mut c, 4, (3, 5), true).unwrap();
    assert_eq!((health(&c, 6), morale(&c, 6)), (12 - 3, Some(5)));
}

#[test]
fn s_chem_3_s_sup_3_a_gas_shot_spends_chemical_ammunition_only() {
    let s =
        scenario(clear(10, 6), vec![gun(1, "france", (1, 1), "Canon de 155 mle 81"), infantry(2, "germany", (3, 1))]);
    // No ordinary ammunition, one chemical shell: the gas shot is fired, and the stock stays 0.
    let mut c = ctx(&s, Phase::Fire, 1);
    (c.powers[1].ammo, c.powers[1].chem_shells) = (0, 1);
    fire(&mut c, 1, (3, 1), true).unwrap();
    assert_eq!((c.powers[1].ammo, c.powers[1].chem_shells), (0, 0));
    assert_eq!(health(&c, 2), 0, "S-CHEM-3: a 1914 division loses 3");
    // With 5 ordinary ammunition the gas shot still spends a chemical shell only: 5 stays 5.
    let mut c = ctx(&s, Phase::Fire, 1);
    (c.powers[1].ammo, c.powers[1].chem_shells) = (5, 1);
    fire(&mut c, 1, (3, 1), true).unwrap();
    assert_eq!((c.powers[1].ammo, c.powers[1].chem_shells), (5, 0));
    // No chemical shell: refused, whatever the ordinary stock.
    let mut c = ctx(&s, Phase::Fire, 1);
    (c.powers[1].ammo, c.powers[1].chem_shells) = (5, 0);
    assert!(matches!(fire(&mut c, 1, (3, 1), true), Err(OrderError::Gas(_))));
    // High explosive spends ordinary ammunition (economy.ammo_per_action = 1): 1 is enough, 0 is not.
    let mut c = ctx(&s, Phase::Fire, 1);
    (c.powers[1].ammo, c.powers[1].chem_shells) = (0, 1);
    assert!(matches!(fire(&mut c, 1, (3, 1), false), Err(OrderError::NoAmmunition { need: 1, left: 0, .. })));
    c.powers[1].ammo = 1;
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert_eq!((c.powers[1].ammo, c.powers[1].chem_shells), (0, 1));
}

#[test]
fn s_chem_1_cylinders_are_set_and_released_in_the_preparation_phase() {
    let s = scenario(clear(10, 6), vec![infantry(1, "germany", (1, 1)), infantry(2, "france", (3, 1))]);
    // «газовый баллон устанавливается … после чего выпускается газ (в фазе подготовки)»: both in
    // the Preparation phase, one after the other.
    let mut c = ctx(&s, Phase::Preparation, 0);
    let stock = c.powers[0].cylinders;
    c.apply(&Order::PlaceCylinder { at: hex(1, 1) }).unwrap();
    assert_eq!(
        (c.hex_state(hex(1, 1)).cylinder, c.powers[0].cylinders),
        (Some(rules::strategic::state::PowerId(0)), stock - 1)
    );
    c.dice.script(vec![4]);
    c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(3, 1) }).unwrap();
    assert_eq!((c.hex_state(hex(1, 1)).cylinder, health(&c, 2)), (None, 1));
    // Not in the Movement or the Fire phase.
    for phase in [Phase::Movement, Phase::Fire] {
        let mut c = ctx(&s, phase, 0);
        assert_eq!(
            c.apply(&Order::PlaceCylinder { at: hex(1, 1) }),
            Err(OrderError::WrongPhase { what: rules::texts::Msg::new("gwe.army.act.place_cylinder"), phase })
        );
    }
}

#[test]
fn s_fort_5_a_level_2_fortification_falls_to_exactly_4_damage_and_holds_at_3() {
    let mut s = scenario(
        clear(12, 6),
        vec![
            gun(1, "france", (1, 1), "Mortier de 370 Filloux"),
            gun(2, "france", (2, 1), "Mortier de 280 mle 1914 Schneider"),
            infantry(3, "germany", (3, 1)),
        ],
    );
    s.fortifications = vec![FortSpec { at: hex(3, 1), level: 2, power: "germany".into() }];
    // 4 damage (the 370 mm, Attack 4): level 2 is destroyed and nothing is left for the troops.
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 1, (3, 1), false).unwrap();
    assert_eq!((c.hex_state(hex(3, 1)).fort, health(&c, 3), morale(&c, 3)), (0, 3, Some(6)));
    // 3 damage (the 280 mm, Attack 3): it holds, the troops take nothing, and the 3 are restored
    // at the end of the Fire phase (S-TURN-3).
    let mut c = ctx(&s, Phase::Fire, 1);
    fire(&mut c, 2, (3, 1), false).unwrap();
    assert_eq!((c.hex_state(hex(3, 1)).fort, c.hex_state(hex(3, 1)).damage, health(&c, 3)), (2, 3, 3));
    c.restore_damage();
    assert_eq!((c.hex_state(hex(3, 1)).fort, c.hex_state(hex(3, 1)).damage), (2, 0));
}

#[test]
fn s_chem_1_gas_radius_3_hexes_reaches_3_not_4() {
    let mut s = scenario(
        clear(10, 6),
        vec![infantry(1, "germany", (1, 1)), infantry(2, "france", (4, 1)), infantry(3, "france", (5, 1))],
    );
    s.cylinders = vec![(hex(1, 1), "germany".into())];
    // (4, 1) is 3 hexes from the cylinder: released there, a 3–6 hits it (−2).
    let mut c = ctx(&s, Phase::Preparation, 0);
    assert_eq!(hex(1, 1).distance(hex(4, 1)), 3);
    c.dice.script(vec![3]);
    c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(4, 1) }).unwrap();
    assert_eq!(health(&c, 2), 1);
    // (5, 1) is 4: refused, and the cylinder stays.
    let mut c = ctx(&s, Phase::Preparation, 0);
    assert_eq!(hex(1, 1).distance(hex(5, 1)), 4);
    assert!(matches!(c.apply(&Order::ReleaseGas { from: hex(1, 1), target: hex(5, 1) }), Err(OrderError::Gas(_))));
    assert!(c.hex_state(hex(1, 1)).cylinder.is_some());
}

/// S-TURN-2, S-ART-2, S-CHEM-1 (issue 27: no hand-over to a power with nothing to do): a power
/// has orders of its own in the Fire phase when a ready gun reaches an enemy (the 15 cm sFH 13,
/// range 2: a French division 2 hexes off is in reach, 3 hexes off is not); in Preparation when
/// it may set a cylinder (from turn 3, GAS_FROM_TURN: turn 2 none, turn 3 one, none without
/// cylinders); always in Movement; never in Combat, nor when another power acts.
#[test]
fn s_turn_2_a_power_has_phase_orders_exactly_when_the_engine_would_take_one() {
    use rules::strategic::PowerId;
    let (germany, france) = (PowerId(0), PowerId(1));
    for (col, reach) in [(3, true), (4, false)] {
        let s =
            scenario(clear(10, 4), vec![gun(1, "germany", (1, 1), "15 cm sFH 13"), infantry(2, "france", (col, 1))]);
        let c = ctx(&s, Phase::Fire, 0);
        assert_eq!(hex(1, 1).distance(hex(col, 1)), u32::try_from(col - 1).expect("a distance"));
        assert_eq!(c.has_phase_orders(germany), reach, "the French at distance {}", col - 1);
        assert_eq!(c.check_fire(id(1), hex(col, 1), false).is_ok(), reach, "the order agrees");
        assert!(!c.has_phase_orders(france), "France does not act now");
        // France's part of the Fire phase: it has no gun, squadron nor fleet.
        assert!(!ctx(&s, Phase::Fire, 1).has_phase_orders(france));
        assert!(ctx(&s, Phase::Movement, 0).has_phase_orders(germany), "Movement: troops and purchases");
        assert!(!ctx(&s, Phase::Combat, 0).has_phase_orders(germany), "Combat is the engine's");
    }
    let s = scenario(clear(10, 4), vec![infantry(1, "germany", (1, 1)), infantry(2, "france", (5, 1))]);
    for (turn, cylinders, orders) in [(2, 5, false), (3, 5, true), (3, 0, false)] {
        let mut c = ctx(&s, Phase::Preparation, 0);
        c.clock.turn = turn;
        c.powers[0].cylinders = cylinders;
        assert_eq!(c.has_phase_orders(germany), orders, "turn {turn}, {cylinders} cylinders");
        assert_eq!(c.check_place_cylinder(hex(1, 1)).is_ok(), orders, "the order agrees");
    }
    // S-CITY-4: a peace offered to France waits for its answer: France, with nothing else to do
    // in Preparation, has an order (AcceptPeace) while the offer stands, and none once it is gone.
    let mut c = ctx(&s, Phase::Preparation, 1);
    c.clock.turn = 2;
    assert!(!c.has_phase_orders(france), "no cylinder before turn 3, no offer");
    c.powers[0].offer = Some(rules::strategic::treaty::PeaceOffer { to: france, cede: vec![] });
    assert!(c.has_phase_orders(france), "an offer to answer");
    assert!(c.would_take(&Order::AcceptPeace { from: "germany".into() }).is_ok(), "the order agrees");
    c.powers[0].offer = Some(rules::strategic::treaty::PeaceOffer { to: germany, cede: vec![] });
    assert!(!c.has_phase_orders(france), "an offer to another power is not France's");
}

/// S-TURN-2 with S-NAVAL-13, S-AIR-1, S-AIR-2, S-NAVAL-14: in the Fire phase a power's fleets and
/// squadrons count as orders only when the engine would take one. Battleships bombard a coast
/// within 3 hexes (an enemy 3 off: orders; 4 off: none; once bombarded: none); a torpedo bomber
/// flies 5 hexes to a ship it sees (5: orders, 6: none; once flown: none); a reconnaissance
/// squadron may always fly; a coastal sFH 13 fires 2 hexes out to sea (2: orders, 3: none).
#[test]
fn s_turn_2_fleets_and_squadrons_count_in_the_fire_phase_only_with_an_order_to_give() {
    use rules::strategic::PowerId;
    use rules::strategic::naval::ShipType;
    use rules::strategic::scenario::SquadronSpec;
    let germany = PowerId(0);
    let coast = || {
        let mut map = HexMap::filled("coast", 12, 4, Terrain::Sea);
        for row in 0..4 {
            map.cell_mut(hex(0, row)).expect("on the map").terrain = Terrain::Clear;
        }
        map
    };
    // Bombardment: the French on the coast at (0, 1), the battleship `col` hexes off.
    for (col, orders) in [(3, true), (4, false)] {
        let mut s = scenario(coast(), vec![infantry(1, "france", (0, 1))]);
        s.fleets = vec![fleet(1, "germany", (col, 1), &[(ShipType::Battleship, 1)])];
        let mut c = ctx(&s, Phase::Fire, 0);
        assert_eq!(c.has_phase_orders(germany), orders, "the French coast {col} hexes off");
        let order = Order::Bombard { fleet: 1, target: hex(0, 1) };
        assert_eq!(c.would_take(&order).is_ok(), orders, "the order agrees at {col}");
        if orders {
            c.apply(&order).expect("bombards");
            assert!(!c.has_phase_orders(germany), "once a phase");
        }
    }
    // A destroyer alone bombards nothing (S-NAVAL-13: battleships).
    let mut s = scenario(coast(), vec![infantry(1, "france", (0, 1))]);
    s.fleets = vec![fleet(1, "germany", (1, 1), &[(ShipType::Destroyer, 1)])];
    assert!(!ctx(&s, Phase::Fire, 0).has_phase_orders(germany), "no battleship");
    // Bombing: a torpedo bomber based at (0, 1), a French destroyer `col` hexes off.
    let bomber =
        |kind: &str| SquadronSpec { id: 1, power: "germany".into(), kind: kind.into(), base: hex(0, 1), name: None };
    for (col, orders) in [(5, true), (6, false)] {
        let mut s = scenario(coast(), vec![infantry(1, "germany", (0, 1))]);
        s.fleets = vec![fleet(2, "france", (col, 1), &[(ShipType::Destroyer, 1)])];
        s.squadrons = vec![bomber("Torpedo bomber squadron")];
        let mut c = ctx(&s, Phase::Fire, 0);
        assert_eq!(c.has_phase_orders(germany), orders, "the destroyer {col} hexes off");
        let ship = c.navy.afloat(2)[0];
        assert_eq!(c.bomb_check(&[1], ship).is_ok(), orders, "the order agrees at {col}");
        c.navy.squadrons[0].flew = true;
        assert!(!c.has_phase_orders(germany), "a squadron flies once a turn");
    }
    // Reconnaissance may always fly, whatever it finds (what it would find is hidden).
    let mut s = scenario(coast(), vec![infantry(1, "germany", (0, 1))]);
    s.squadrons = vec![bomber("Reconnaissance squadron")];
    let mut c = ctx(&s, Phase::Fire, 0);
    assert!(c.has_phase_orders(germany), "a reconnaissance flight");
    c.navy.squadrons[0].flew = true;
    assert!(!c.has_phase_orders(germany), "flown");
    // A coastal gun: the sFH 13 on the coast at (0, 1), a French cruiser `col` hexes out.
    for (col, orders) in [(2, true), (3, false)] {
        let mut s = scenario(coast(), vec![gun(1, "germany", (0, 1), "15 cm sFH 13")]);
        s.fleets = vec![fleet(2, "france", (col, 1), &[(ShipType::LightCruiser, 1)])];
        let c = ctx(&s, Phase::Fire, 0);
        assert_eq!(c.has_phase_orders(germany), orders, "the cruiser {col} hexes out");
        let ship = c.navy.afloat(2)[0];
        assert_eq!(c.coastal_fire_check(id(1), ship).is_ok(), orders, "the order agrees at {col}");
    }
}

/// S-CHEM-1: `Ctx::cylinder_place` is the first own-held hex a cylinder may be set on, else the
/// check's refusal (turn 2: too early; turn 3: the first held hex; no cylinder in stock: none;
/// holding no hex: none).
#[test]
fn s_chem_1_a_cylinder_is_placed_at_the_first_held_hex_the_check_takes() {
    let s = scenario(
        clear(10, 4),
        vec![infantry(1, "germany", (4, 2)), infantry(2, "germany", (1, 1)), infantry(3, "france", (7, 1))],
    );
    for (turn, cylinders, at) in [(2, 5, None), (3, 5, Some(hex(1, 1))), (3, 0, None)] {
        let mut c = ctx(&s, Phase::Preparation, 0);
        c.clock.turn = turn;
        c.powers[0].cylinders = cylinders;
        assert_eq!(c.cylinder_place().ok(), at, "turn {turn}, {cylinders} cylinders");
        let first = c.check_place_cylinder(hex(1, 1));
        assert_eq!(first.is_ok(), at.is_some(), "the check agrees");
        if let (Err(a), Err(b)) = (c.cylinder_place(), first) {
            assert_eq!(a.line(), b.line(), "the check's reason");
        }
    }
    // The first set, the next held hex is the place.
    let mut c = ctx(&s, Phase::Preparation, 0);
    c.clock.turn = 3;
    c.powers[0].cylinders = 5;
    c.apply(&Order::PlaceCylinder { at: hex(1, 1) }).expect("set");
    assert_eq!(c.cylinder_place().ok(), Some(hex(4, 2)));
    let s = scenario(clear(10, 4), vec![infantry(3, "france", (7, 1))]);
    let mut c = ctx(&s, Phase::Preparation, 0);
    c.clock.turn = 3;
    assert!(c.cylinder_place().is_err(), "no held hex");
}
