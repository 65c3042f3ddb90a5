//! Great War land rules: turns, land units, terrain, fortifications, combat, army organisation.
//! Each test names its rule IDs and shows the rule's numbers.

use rules::strategic::combat::{Ratio, d_value, result_of};
use rules::strategic::hexmap::{HexMap, Terrain};
use rules::strategic::order::{Order, OrderError, Piece};
use rules::strategic::scenario::{ArmySpec, CorpsSpec, FortSpec, KindSpec, Scenario, ScenarioFile};
use rules::strategic::state::{Ctx, FormationId, Phase, Place, Tech};
use rules::strategic::tables::Model;
use rules::strategic::testkit::*;
use rules::strategic::{CombatResult, GreatWar};
use rules::texts::Msg;

fn clear(w: u32, h: u32) -> HexMap {
    HexMap::filled("test", w, h, Terrain::Clear)
}

fn value(c: &Ctx, unit: u32, enemies: &[u32]) -> Ratio {
    let e: Vec<_> = enemies.iter().map(|n| id(*n)).collect();
    c.value_terms(id(unit), &e).map(|t| t.value).unwrap_or(Ratio::ZERO)
}

/// A whole number as the exact side sums and values are kept.
fn r(n: i64) -> Ratio {
    Ratio::new(n, 1)
}

fn mv(c: &mut Ctx, unit: u32, path: &[(i32, i32)]) -> Result<(), OrderError> {
    c.apply(&Order::Move { piece: Piece::Unit(id(unit)), path: path.iter().map(|p| hex(p.0, p.1)).collect() })
}

#[test]
fn s_turn_1_gas_from_turn_3_tanks_from_4_upgrade_from_5() {
    let mut s = scenario(clear(6, 6), vec![infantry(1, "germany", (2, 2))]);
    s.start_turn = 2;
    let mut c = ctx(&s, Phase::Movement, 0);
    assert_eq!(
        c.apply(&Order::Research { tech: Tech::Gas }),
        Err(OrderError::TooEarly { what: Msg::new(Tech::Gas.key()), from: 3 })
    );
    c.clock.turn = 3;
    assert_eq!(
        c.apply(&Order::Research { tech: Tech::Tanks }),
        Err(OrderError::TooEarly { what: Msg::new(Tech::Tanks.key()), from: 4 })
    );
    c.clock.turn = 4;
    assert_eq!(
        c.apply(&Order::Upgrade { unit: id(1) }),
        Err(OrderError::TooEarly { what: Msg::new("gwe.army.infantry_upgrade"), from: 5 })
    );
    c.clock.turn = 5;
    assert_eq!(c.apply(&Order::Upgrade { unit: id(1) }), Ok(()));
}

#[test]
fn s_turn_2_phase_order_and_players_in_scenario_order() {
    let s = scenario(clear(8, 8), vec![infantry(1, "germany", (1, 1)), infantry(2, "france", (6, 6))]);
    let mut g = GreatWar::new(&s, 3);
    assert_eq!((g.clock().turn, g.clock().phase, g.clock().active), (5, Phase::Preparation, 0));
    // Moving is a Movement-phase order.
    assert!(matches!(
        g.apply(Order::Move { piece: Piece::Unit(id(1)), path: vec![hex(2, 1)] }),
        Err(OrderError::WrongPhase { .. })
    ));
    let mut seen = Vec::new();
    for _ in 0..6 {
        let c = g.clock();
        seen.push((c.phase, c.active));
        g.apply(Order::EndPhase).unwrap();
    }
    assert_eq!(
        seen,
        vec![
            (Phase::Preparation, 0),
            (Phase::Preparation, 1),
            (Phase::Movement, 0),
            (Phase::Movement, 1),
            (Phase::Fire, 0),
            (Phase::Fire, 1)
        ]
    );
    // After the last Fire, Combat and Upkeep ran and the next turn began.
    let phases: Vec<Phase> = g
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            rules::strategic::EventKind::Phase { phase, .. } => Some(phase),
            _ => None,
        })
        .collect();
    assert_eq!(
        phases,
        vec![Phase::Preparation, Phase::Movement, Phase::Fire, Phase::Combat, Phase::Upkeep, Phase::Preparation]
    );
    assert_eq!((g.clock().turn, g.clock().phase), (6, Phase::Preparation));
}

#[test]
fn s_land_1_and_s_land_2_stats_by_group_model_class_and_colonial_group() {
    let colonial = |c: &str| KindSpec::Infantry {
        model: Model::M1914,
        class: 1,
        mountain: false,
        elite: false,
        colonial: Some(c.into()),
    };
    let mut s = scenario(
        clear(8, 8),
        vec![
            infantry(1, "germany", (1, 1)),
            unit(2, "france", (3, 1), colonial("french_colonial")),
            unit(3, "france", (5, 1), colonial("algerian")),
            unit(
                4,
                "france",
                (1, 3),
                KindSpec::Infantry { model: Model::M1916, class: 2, mountain: false, elite: false, colonial: None },
            ),
        ],
    );
    s.powers[1].group = 1;
    let c = ctx(&s, Phase::Movement, 0);
    let st = |n: u32| c.stats(c.force(id(n)).unwrap().kind);
    // S-LAND-1 (MD-S1): group 1, 1914, class 1: 25/30/40/50, Health 3, Morale 6.
    let a = st(1);
    assert_eq!((a.attack, a.defense, a.f1, a.f2, a.health, a.morale), (25, 30, 40, 50, 3, 6));
    // S-LAND-2: French colonial troops use group 2 (20/25/35/45, Morale 5); Algerians group 1.
    let b = st(2);
    assert_eq!((b.attack, b.defense, b.f1, b.f2, b.morale), (20, 25, 35, 45, 5));
    assert_eq!(st(3).attack, 25);
    // Group 1, 1916, class 2: 25/30/40/50, Morale 5.
    let d = st(4);
    assert_eq!((d.attack, d.defense, d.f1, d.f2, d.morale), (25, 30, 40, 50, 5));
}

#[test]
fn s_land_3_s_land_8_infantry_moves_10_cavalry_25() {
    let s = scenario(
        clear(40, 5),
        vec![
            infantry(1, "germany", (0, 0)),
            unit(2, "germany", (0, 2), KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false }),
        ],
    );
    let c = ctx(&s, Phase::Movement, 0);
    let far = |n: u32| c.destinations(Piece::Unit(id(n))).iter().map(|(h, _, _)| h.col).max().unwrap_or(0);
    assert_eq!(far(1), 10);
    assert_eq!(far(2), 25);
    let cav = c.stats(c.force(id(2)).unwrap().kind);
    // MD-S2 class 1: 20/15/25/35, Health 2, Morale 6.
    assert_eq!((cav.attack, cav.defense, cav.f1, cav.f2, cav.health, cav.morale), (20, 15, 25, 35, 2, 6));
}

#[test]
fn s_land_4_upgrade_takes_1916_stats_for_its_price() {
    let s = scenario(clear(6, 6), vec![infantry(1, "germany", (2, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    c.powers[0].techs.infantry = false;
    assert_eq!(
        c.apply(&Order::Upgrade { unit: id(1) }),
        Err(OrderError::NoTech { what: Msg::new("gwe.army.upgrade_1916"), tech: Tech::Infantry })
    );
    c.powers[0].techs.infantry = true;
    let money = c.powers[0].money;
    c.apply(&Order::Upgrade { unit: id(1) }).unwrap();
    let st = c.stats(c.force(id(1)).unwrap().kind);
    assert_eq!((st.attack, st.defense, st.f1, st.f2), (30, 35, 45, 55));
    assert_eq!(c.powers[0].money, money - 6, "economy price of the upgrade: 6");
    assert!(matches!(c.apply(&Order::Upgrade { unit: id(1) }), Err(OrderError::AlreadyUpgraded { .. })));
}

#[test]
fn s_land_5_s_terr_1_mountain_infantry_plus_10_and_1_mp_in_mountains() {
    let map = HexMap::filled("m", 8, 3, Terrain::Mountains);
    let mountain = KindSpec::Infantry { model: Model::M1914, class: 1, mountain: true, elite: false, colonial: None };
    let s = scenario(
        map,
        vec![unit(1, "germany", (0, 0), mountain), infantry(2, "germany", (0, 2)), infantry(3, "france", (7, 1))],
    );
    let c = ctx(&s, Phase::Movement, 0);
    // S-TERR-1: mountains cost 3 MP; mountain infantry pays 1.
    assert_eq!(c.step_cost(c.force(id(2)).unwrap().kind, hex(0, 2), hex(1, 2)), Some(3));
    assert_eq!(c.step_cost(c.force(id(1)).unwrap().kind, hex(0, 0), hex(1, 0)), Some(1));
    // Standing in mountains: F2 50, +10 mountain infantry = 60 (S-LAND-5); the regular division 50.
    assert_eq!(value(&c, 1, &[3]), Ratio::new(60, 1));
    assert_eq!(value(&c, 2, &[3]), Ratio::new(50, 1));
}

#[test]
fn s_land_6_s_land_7_elite_plus_10_and_no_morale_loss() {
    let elite = KindSpec::Infantry { model: Model::M1914, class: 2, mountain: false, elite: true, colonial: None };
    let s = scenario(clear(6, 6), vec![unit(1, "germany", (2, 2), elite), infantry(2, "france", (3, 2))]);
    let mut c = ctx(&s, Phase::Combat, 0);
    let st = c.stats(c.force(id(1)).unwrap().kind);
    // Class-1 row +10: 35/40/50/60.
    assert_eq!((st.attack, st.defense, st.f1, st.f2), (35, 40, 50, 60));
    c.combat_engagements();
    // 40 vs 30: D = 10 → stubborn fighting; the elite loses Health but no Morale.
    let e = c.force(id(1)).unwrap();
    assert_eq!((e.vitals.health, e.vitals.morale), (2, Some(6)));
    let f = c.force(id(2)).unwrap();
    assert_eq!((f.vitals.health, f.vitals.morale), (2, Some(4)));
}

#[test]
fn s_land_9_tanks_add_attack_only_when_moved_and_need_turn_4() {
    let s = scenario(
        clear(8, 8),
        vec![unit(1, "germany", (2, 2), KindSpec::Tank("A7V".into())), infantry(2, "france", (3, 2))],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    assert_eq!(value(&c, 1, &[2]), Ratio::ZERO);
    c.force_mut(id(1)).unwrap().activity.moved = true;
    assert_eq!(value(&c, 1, &[2]), Ratio::new(8, 1), "A7V Attack 8 (MD-S3)");
    // Not before turn 4: a scenario starting in turn 3 with a tank is refused.
    let (units, rules) = tables();
    let file = ScenarioFile {
        name: "early".into(),
        map: String::new(),
        units: String::new(),
        rules: String::new(),
        start_turn: 3,
        max_turns: 2,
        powers: s.powers.clone(),
        forces: s.forces.clone(),
        corps: vec![],
        armies: vec![],
        fortifications: vec![],
        cylinders: vec![],
        aviation: None,
        fleets: vec![],
        squadrons: vec![],
        mines: vec![],
        sea_lanes: vec![],
        calendar: None,
        victory: None,
        names_ru: vec![],
    };
    let e = Scenario::resolve("early.ron", "", file, s.map.clone(), units, rules, aviation()).unwrap_err();
    assert!(e.message.contains("S-LAND-9"), "{e}");
}

#[test]
fn s_fort_1_s_fort_2_build_level_1_then_level_2_next_turn() {
    let mut map = clear(8, 8);
    map.cell_mut(hex(5, 5)).unwrap().terrain = Terrain::Mountains;
    let s = scenario(
        map,
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (5, 5)),
            unit(3, "germany", (6, 2), KindSpec::Tank("A7V".into())),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    let money = c.powers[0].money;
    c.apply(&Order::Fortify { piece: Piece::Unit(id(1)) }).unwrap();
    assert_eq!((c.hex_state(hex(2, 2)).fort, c.powers[0].money), (1, money - 3));
    // The rest of the movement is lost.
    assert!(matches!(mv(&mut c, 1, &[(3, 2)]), Err(OrderError::Fortification(_))));
    assert!(matches!(c.apply(&Order::Fortify { piece: Piece::Unit(id(1)) }), Err(OrderError::Fortification(_))));
    c.clock.turn += 1;
    c.force_mut(id(1)).unwrap().activity.fortified = false;
    c.apply(&Order::Fortify { piece: Piece::Unit(id(1)) }).unwrap();
    assert_eq!((c.hex_state(hex(2, 2)).fort, c.powers[0].money), (2, money - 3 - 5));
    // S-FORT-2: not in mountains; tanks do not build.
    assert!(matches!(c.apply(&Order::Fortify { piece: Piece::Unit(id(2)) }), Err(OrderError::Fortification(_))));
    assert!(matches!(c.apply(&Order::Fortify { piece: Piece::Unit(id(3)) }), Err(OrderError::Fortification(_))));
}

#[test]
fn s_fort_3_s_fort_4_columns_for_the_builder_only() {
    let mut s = scenario(
        clear(10, 6),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (6, 2)),
            infantry(3, "france", (3, 2)),
            infantry(4, "france", (7, 2)),
        ],
    );
    s.fortifications = vec![
        FortSpec { at: hex(2, 2), level: 1, power: "germany".into() },
        FortSpec { at: hex(6, 2), level: 2, power: "germany".into() },
        FortSpec { at: hex(7, 2), level: 2, power: "germany".into() },
    ];
    let mut c = ctx(&s, Phase::Combat, 0);
    // S-FORT-4: standing in level 1 → F1 40; level 2 → F2 50.
    assert_eq!(value(&c, 1, &[3]), Ratio::new(40, 1));
    assert_eq!(value(&c, 2, &[4]), Ratio::new(50, 1));
    // S-FORT-3: a captured German fortification gives France nothing: Defense 30.
    assert_eq!(value(&c, 4, &[2]), Ratio::new(30, 1));
    // A unit that moved counts Attack 25 even in a fortification.
    c.force_mut(id(1)).unwrap().activity.moved = true;
    assert_eq!(value(&c, 1, &[3]), Ratio::new(25, 1));
}

#[test]
fn s_combat_1_s_combat_2_s_combat_3_engagements_by_contact() {
    let s = scenario(
        clear(12, 6),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "france", (3, 2)),
            infantry(3, "germany", (8, 2)),
            infantry(4, "france", (10, 2)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    // Adjacent units engage; units 2 hexes apart do not.
    assert_eq!(c.engagements(), vec![[vec![id(2)], vec![id(1)]]]);
    mv(&mut c, 3, &[(7, 2), (6, 2)]).unwrap();
    assert_eq!(c.engagements().len(), 1, "two hexes apart: no contact");
    // S-COMBAT-3: a unit ending its move next to an engaged enemy joins that engagement.
    let s2 = scenario(
        clear(12, 6),
        vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (3, 2)), infantry(3, "germany", (5, 2))],
    );
    let mut c = ctx(&s2, Phase::Movement, 0);
    mv(&mut c, 3, &[(4, 2)]).unwrap();
    assert_eq!(c.engagements(), vec![[vec![id(2)], vec![id(1), id(3)]]]);
    // S-COMBAT-2: the mover counts Attack 25, the defender Defense 30 (both standing would be 30);
    // arriving behind a French division already engaged by German 1, it strikes the rear
    // (S-COMBAT-6): 25 × 5/4.
    assert_eq!(value(&c, 3, &[2]), Ratio::new(125, 4));
    assert_eq!(value(&c, 1, &[2]), Ratio::new(30, 1));
}

#[test]
fn s_combat_4_entering_a_hex_next_to_the_enemy_stops() {
    let s = scenario(clear(12, 6), vec![infantry(1, "germany", (1, 2)), infantry(2, "france", (5, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    // (4,2) is next to the enemy: the path cannot go on from there.
    assert_eq!(mv(&mut c, 1, &[(2, 2), (3, 2), (4, 2), (4, 1)]), Err(OrderError::MustStop(hex(4, 2))));
    // Reachability never continues from a hex next to the enemy.
    let germany = c.force(id(1)).unwrap().power;
    for (_, _, path) in c.destinations(Piece::Unit(id(1))) {
        assert!(path[..path.len() - 1].iter().all(|h| !c.next_to_enemy(germany, *h)), "{path:?}");
    }
    mv(&mut c, 1, &[(2, 2), (3, 2), (4, 2)]).unwrap();
}

#[test]
fn s_combat_5_value_scales_with_health() {
    let mut s = scenario(clear(6, 6), vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (3, 2))]);
    s.forces[0].health = Some(2);
    let c = ctx(&s, Phase::Combat, 0);
    // The digest's example: Health 2 of 3, value 30 → 20.
    assert_eq!(value(&c, 1, &[2]), Ratio::new(20, 1));
}

#[test]
fn s_combat_6_s_combat_7_flank_river_and_ammunition_in_order() {
    let mut map = clear(10, 8);
    // A river on the east side of (4,3).
    map.set_river(hex(4, 3), 0, false);
    let s = scenario(
        map,
        vec![
            infantry(1, "germany", (4, 3)),
            infantry(2, "france", (5, 3)),
            infantry(3, "france", (2, 3)),
            infantry(4, "france", (6, 6)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 1);
    // S-COMBAT-7: France engages from the east first; the front is that hexside and the two beside it.
    c.force_mut(id(2)).unwrap().activity.moved = true;
    c.engage_from(hex(5, 3), &[id(2)]);
    assert_eq!(c.force(id(1)).unwrap().front.front, Some(0));
    // A second unit coming in from the west (rear) strikes the flank: ×5/4 on Attack 25 = 125/4.
    mv(&mut c, 3, &[(3, 3)]).unwrap();
    assert_ne!(c.force(id(3)).unwrap().activity.flanks, 0);
    assert_eq!(value(&c, 3, &[1]), Ratio::new(125, 4));
    // River bank: the German defender gets +5 against the enemy across the river: 30 + 5 = 35.
    assert_eq!(value(&c, 1, &[2]), Ratio::new(35, 1));
    // Order: flat → health → factors: Health 2/3 and no ammunition: (30 + 5) × 2/3 × 1/2 = 35/3.
    c.force_mut(id(1)).unwrap().vitals.health = 2;
    c.force_mut(id(1)).unwrap().supply.ammo = false;
    assert_eq!(value(&c, 1, &[2]), Ratio::new(35, 3));
    // The side sums stay exact (125/4 + 25 = 225/4 against 35 × 2/3 = 70/3); only D is rounded.
    c.force_mut(id(1)).unwrap().supply.ammo = true;
    let e = c.assess(&[vec![id(2), id(3)], vec![id(1)]]);
    assert_eq!(e.totals, [Ratio::new(225, 4), Ratio::new(70, 3)]);
}

#[test]
fn s_combat_8_d_table() {
    // D = (stronger − weaker) ÷ weaker divisions, floored.
    assert_eq!(d_value(r(100), r(40), 2), 30);
    assert_eq!(d_value(r(100), r(41), 2), 29);
    assert_eq!(d_value(r(50), r(50), 3), 0);
    assert_eq!(result_of(30), CombatResult::Destroyed);
    assert_eq!(result_of(29), CombatResult::Dispersed);
    assert_eq!(result_of(20), CombatResult::Dispersed);
    assert_eq!(result_of(19), CombatResult::StubbornHeavy);
    assert_eq!(result_of(5), CombatResult::StubbornHeavy);
    assert_eq!(result_of(4), CombatResult::Stubborn);
    assert_eq!(result_of(0), CombatResult::Stubborn);
    // A real engagement: two German divisions attacking (25 + 25 = 50) a French one in the open (30):
    // D = 20 → dispersed.
    let s = scenario(
        clear(8, 8),
        vec![infantry(1, "germany", (2, 2)), infantry(2, "germany", (3, 3)), infantry(3, "france", (3, 2))],
    );
    let mut c = ctx(&s, Phase::Combat, 0);
    c.force_mut(id(1)).unwrap().activity.moved = true;
    c.force_mut(id(2)).unwrap().activity.moved = true;
    c.combat_engagements();
    assert_eq!(c.force(id(3)).unwrap().place, Place::Dispersed);
    // 0–4: both −1 Morale and −1 Health per engaged division.
    let s = scenario(clear(8, 8), vec![infantry(1, "germany", (2, 2)), infantry(3, "france", (3, 2))]);
    let mut c = ctx(&s, Phase::Combat, 0);
    c.combat_engagements();
    for n in [1, 3] {
        let f = c.force(id(n)).unwrap();
        assert_eq!((f.vitals.health, f.vitals.morale), (2, Some(5)));
    }
}

#[test]
fn s_combat_9_morale_0_in_combat_destroys_health_0_disperses() {
    let mut s = scenario(
        clear(8, 8),
        vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (3, 2)), infantry(3, "france", (6, 6))],
    );
    s.forces[1].morale = Some(1);
    s.forces[2].health = Some(1);
    let mut c = ctx(&s, Phase::Combat, 0);
    c.combat_engagements();
    c.combat_losses();
    assert_eq!(c.force(id(2)).unwrap().place, Place::Destroyed);
    c.change_health(id(3), -1);
    c.check_losses(false);
    assert_eq!(c.force(id(3)).unwrap().place, Place::Dispersed);
}

#[test]
fn s_combat_10_artillery_alone_in_contact_is_destroyed() {
    let s = scenario(
        clear(8, 8),
        vec![
            unit(1, "germany", (2, 2), KindSpec::Artillery("15 cm sFH 13".into())),
            infantry(2, "france", (3, 2)),
            unit(3, "germany", (6, 6), KindSpec::Artillery("15 cm sFH 13".into())),
        ],
    );
    let mut c = ctx(&s, Phase::Combat, 0);
    c.artillery_contact();
    assert_eq!(c.force(id(1)).unwrap().place, Place::Destroyed);
    assert_eq!(c.force(id(3)).unwrap().place, Place::Map(hex(6, 6)));
}

#[test]
fn s_combat_11_s_land_7_encirclement_minus_2_then_minus_1_and_25_percent_steps() {
    // A German division at (5,5) ringed by six French ones.
    let centre = hex(5, 5);
    let mut forces = vec![infantry(1, "germany", (5, 5))];
    let elite = KindSpec::Infantry { model: Model::M1914, class: 1, mountain: false, elite: true, colonial: None };
    forces.push(unit(2, "germany", (15, 5), elite));
    for (i, n) in centre.neighbours().into_iter().enumerate() {
        forces.push(infantry(10 + i as u32, "france", (n.col, n.row)));
    }
    for (i, n) in hex(15, 5).neighbours().into_iter().enumerate() {
        forces.push(infantry(20 + i as u32, "france", (n.col, n.row)));
    }
    // S-COMBAT-11 resolution: cut off from the German city at (10,10).
    let s = scenario(german_city(clear(20, 12), (10, 10)), forces);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    assert_eq!(c.encircled_groups().len(), 2);
    c.encirclement();
    let f = c.force(id(1)).unwrap();
    assert_eq!((f.front.encircled, f.vitals.morale), (1, Some(4)));
    // −25 %: Defense 30 → 45/2.
    assert_eq!(value(&c, 1, &[10]), Ratio::new(45, 2));
    c.encirclement();
    let f = c.force(id(1)).unwrap();
    assert_eq!((f.front.encircled, f.vitals.morale), (2, Some(3)));
    assert_eq!(value(&c, 1, &[10]), Ratio::new(15, 1));
    // S-LAND-7: the elite loses no Morale.
    assert_eq!(c.force(id(2)).unwrap().vitals.morale, Some(6));
    // A French unit is not encircled: France holds no city here, so no enemy cuts it off one.
    assert_eq!(c.force(id(10)).unwrap().front.encircled, 0);
}

#[test]
fn s_combat_12_destroyed_is_captured_and_never_restored() {
    let s = scenario(clear(8, 8), vec![infantry(1, "germany", (2, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    c.destroy(id(1), Msg::plain("test"));
    assert!(matches!(c.apply(&Order::Restore { unit: id(1), class: 1 }), Err(OrderError::Economy(_))));
}

#[test]
fn s_terr_2_s_terr_3_river_2_in_all_unless_bridge_forest_2() {
    let mut map = clear(8, 8);
    map.set_river(hex(2, 2), 0, false);
    map.set_river(hex(2, 4), 0, true);
    map.cell_mut(hex(5, 6)).unwrap().terrain = Terrain::Forest;
    let s = scenario(map, vec![infantry(1, "germany", (2, 2))]);
    let c = ctx(&s, Phase::Movement, 0);
    let k = c.force(id(1)).unwrap().kind;
    // S-TERR-2: 2 MP in all for the crossing onto clear ground (it was 1 + 2).
    assert_eq!(c.step_cost(k, hex(2, 2), hex(3, 2)), Some(2));
    assert_eq!(c.step_cost(k, hex(2, 4), hex(3, 4)), Some(1), "bridge");
    assert_eq!(c.step_cost(k, hex(4, 6), hex(5, 6)), Some(2), "forest 2 MP");
}

#[test]
fn s_terr_1_road_cancels_the_mountain_penalty() {
    let mut map = HexMap::filled("m", 6, 3, Terrain::Mountains);
    for col in 0..6 {
        map.cell_mut(hex(col, 1)).unwrap().flags |= rules::strategic::hexmap::flag::ROAD;
    }
    let s = scenario(map, vec![infantry(1, "germany", (0, 1))]);
    let c = ctx(&s, Phase::Movement, 0);
    let k = c.force(id(1)).unwrap().kind;
    assert_eq!(c.step_cost(k, hex(0, 1), hex(1, 1)), Some(1));
    assert_eq!(c.step_cost(k, hex(0, 1), hex(0, 0)), Some(3));
}

fn army_scenario() -> rules::strategic::Scenario {
    let mut s = scenario(
        clear(16, 10),
        vec![
            infantry(1, "germany", (4, 4)),
            unit(2, "germany", (4, 4), KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false }),
            infantry(3, "germany", (4, 6)),
            infantry(4, "germany", (4, 6)),
            ForceSpec_reserve(5),
            artillery_off(6),
            infantry(9, "france", (12, 5)),
        ],
    );
    s.corps = vec![
        CorpsSpec { id: 101, name: "I Corps".into(), units: vec![1, 2], attached: vec![] },
        CorpsSpec { id: 102, name: "II Corps".into(), units: vec![3, 4], attached: vec![] },
    ];
    s.armies = vec![ArmySpec {
        id: 201,
        name: "1st Army".into(),
        corps: vec![101, 102],
        reserves: vec![5],
        attached: vec![6],
    }];
    s
}

#[allow(non_snake_case)]
fn ForceSpec_reserve(n: u32) -> rules::strategic::scenario::ForceSpec {
    let mut f = infantry(n, "germany", (0, 0));
    f.at = None;
    f
}

fn artillery_off(n: u32) -> rules::strategic::scenario::ForceSpec {
    let mut f = unit(n, "germany", (0, 0), KindSpec::Artillery("42 cm Dicke Bertha".into()));
    f.at = None;
    f
}

#[test]
fn s_army_1_s_army_3_formations_move_at_the_slowest_speed_members_take_no_orders() {
    let s = army_scenario();
    let mut c = ctx(&s, Phase::Movement, 0);
    // S-ARMY-3: a member division and a corps of an army take no own orders.
    assert!(matches!(mv(&mut c, 1, &[(5, 4)]), Err(OrderError::TakesOrdersFromFormation(_))));
    assert!(matches!(
        c.apply(&Order::Move { piece: Piece::Corps(FormationId(101)), path: vec![hex(5, 4)] }),
        Err(OrderError::TakesOrdersFromFormation(_))
    ));
    // S-ARMY-1: corps I (infantry 10, cavalry 25) moves 10.
    assert_eq!(c.group_mp(&c.formation_units(FormationId(101))), 10);
    let path: Vec<_> = (5..=11).map(|col| hex(col, 4)).collect();
    let too_far: Vec<_> = (5..=15).map(|col| hex(col, 2)).collect();
    assert!(c.apply(&Order::MoveArmy { army: FormationId(201), moves: vec![(FormationId(101), too_far)] }).is_err());
    // Corps II comes along: alone, corps I at (11,4) would stand 8 hexes from it, outside the
    // army's block of 3 hexes of front by 5 deep (S-ARMY-4).
    let beside: Vec<_> = (5..=11).map(|col| hex(col, 6)).collect();
    c.apply(&Order::MoveArmy {
        army: FormationId(201),
        moves: vec![(FormationId(101), path), (FormationId(102), beside)],
    })
    .unwrap();
    assert_eq!(c.force(id(2)).unwrap().place, Place::Map(hex(11, 4)));
}

#[test]
fn s_army_2_s_army_4_corps_of_2_to_4_one_counter_per_hex() {
    let s = scenario(
        clear(10, 6),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (3, 2)),
            infantry(3, "germany", (5, 2)),
            unit(4, "germany", (2, 3), KindSpec::Artillery("15 cm sFH 13".into())),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    assert!(matches!(
        c.apply(&Order::FormCorps { name: "x".into(), units: vec![id(1)] }),
        Err(OrderError::Organization(_))
    ));
    assert!(matches!(
        c.apply(&Order::FormCorps { name: "x".into(), units: vec![id(1), id(4)] }),
        Err(OrderError::Organization(_))
    ));
    // S-ARMY-4: a hex holds one division or one corps.
    assert_eq!(mv(&mut c, 3, &[(4, 2), (3, 2)]), Err(OrderError::Occupied(hex(3, 2))));
    c.apply(&Order::FormCorps { name: "I Corps".into(), units: vec![id(1), id(2)] }).unwrap();
    assert_eq!(c.at(hex(2, 2)), &[id(1), id(2)]);
    // Artillery attaches to a corps and leaves the map (S-ARMY-5).
    let corps = c.force(id(1)).unwrap().member.corps.unwrap();
    c.apply(&Order::Attach { unit: id(4), formation: corps }).unwrap();
    assert_eq!(c.force(id(4)).unwrap().place, Place::Attached(corps));
}

#[test]
fn s_army_5_s_army_6_attached_artillery_and_reserves_are_not_counters() {
    let s = army_scenario();
    let c = ctx(&s, Phase::Fire, 0);
    assert!(c.at(hex(0, 0)).is_empty());
    // Attached artillery fires from the army's nearest hex: Dicke Bertha range 3 from (4,4)/(4,6).
    assert!(c.check_fire(id(6), hex(7, 4), false).is_ok());
    assert!(c.check_fire(id(6), hex(8, 4), false).is_err());
    assert!(c.engagements().iter().flatten().flatten().all(|u| *u != id(5)));
}

#[test]
fn s_army_7_s_army_15_retreat_whole_army_10_hexes_minus_1_morale_artillery_lost() {
    let mut s = army_scenario();
    s.forces.push(infantry(10, "france", (5, 4)));
    s.forces.push(infantry(11, "france", (5, 6)));
    let mut c = ctx(&s, Phase::Movement, 0);
    let back1: Vec<_> = (1..=3).rev().map(|col| hex(col, 4)).collect();
    let back2: Vec<_> = (1..=3).rev().map(|col| hex(col, 6)).collect();
    // Only as a whole (S-ARMY-7).
    assert!(matches!(
        c.apply(&Order::Retreat { moves: vec![(Piece::Corps(FormationId(101)), back1.clone())] }),
        Err(OrderError::Retreat(_))
    ));
    // At most 10 hexes (S-ARMY-15).
    let long: Vec<_> = (0..11).map(|i| if i % 2 == 0 { hex(3, 4) } else { hex(2, 4) }).collect();
    assert!(matches!(
        c.apply(&Order::Retreat {
            moves: vec![(Piece::Corps(FormationId(101)), long), (Piece::Corps(FormationId(102)), back2.clone())]
        }),
        Err(OrderError::Retreat(_))
    ));
    c.apply(&Order::Retreat {
        moves: vec![(Piece::Corps(FormationId(101)), back1), (Piece::Corps(FormationId(102)), back2)],
    })
    .unwrap();
    assert_eq!(c.force(id(1)).unwrap().place, Place::Map(hex(1, 4)));
    assert_eq!(c.force(id(1)).unwrap().vitals.morale, Some(5));
    assert_eq!(c.force(id(6)).unwrap().place, Place::Destroyed, "artillery lost");
}

#[test]
fn s_army_15_an_attacker_returns_to_its_start_freely() {
    let s = scenario(clear(10, 6), vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (5, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 1, &[(3, 2), (4, 2)]).unwrap();
    c.apply(&Order::Retreat { moves: vec![(Piece::Unit(id(1)), vec![hex(3, 2), hex(2, 2)])] }).unwrap();
    assert_eq!(c.force(id(1)).unwrap().vitals.morale, Some(6));
}

#[test]
fn s_army_8_s_army_9_reserves_join_at_once_counting_attack() {
    let mut s = army_scenario();
    s.forces.push(infantry(10, "france", (6, 4)));
    let mut c = ctx(&s, Phase::Movement, 0);
    // (5,4) is next to the army's (4,4) and to the enemy at (6,4).
    c.apply(&Order::CommitReserve { unit: id(5), to: hex(5, 4) }).unwrap();
    assert_eq!(value(&c, 5, &[10]), Ratio::new(25, 1), "Attack 25, not Defense 30");
    assert!(c.engagements().iter().any(|g| g[1].contains(&id(5))));
}

#[test]
fn s_army_10_fortifications_only_in_lulls() {
    let s = army_scenario();
    let mut c = ctx(&s, Phase::Movement, 0);
    c.formation_mut(FormationId(201)).unwrap().engaged = true;
    assert!(matches!(
        c.apply(&Order::Fortify { piece: Piece::Corps(FormationId(101)) }),
        Err(OrderError::Fortification(_))
    ));
    c.formation_mut(FormationId(201)).unwrap().engaged = false;
    c.apply(&Order::Fortify { piece: Piece::Corps(FormationId(101)) }).unwrap();
}

#[test]
fn s_army_11_army_values_summed_losses_shared() {
    let mut s = army_scenario();
    s.forces.push(infantry(10, "france", (4, 5)));
    let mut c = ctx(&s, Phase::Combat, 0);
    // S-ARMY-11: the French division at (4,5) touches both corps of the army: its 4 standing
    // divisions' values are summed (30 + 15 + 30 + 30) = 105 vs 30.
    let g = c.engagements();
    assert_eq!(g.len(), 1);
    let e = c.assess(&g[0]);
    assert_eq!(e.totals, [r(30), r(105)]);
    assert_eq!(e.d, 75);
    c.combat_engagements();
    assert_eq!(c.force(id(10)).unwrap().place, Place::Destroyed);
}

#[test]
fn s_army_12_s_army_14_army_destroyed_takes_artillery_and_disperses_reserves() {
    let s = army_scenario();
    let mut c = ctx(&s, Phase::Combat, 0);
    for n in [1, 2] {
        c.destroy(id(n), Msg::plain("test"));
    }
    c.destroy(id(3), Msg::plain("test"));
    c.disperse(id(4), Msg::plain("test"));
    c.army_fates();
    // 3 destroyed vs 1 dispersed: destroyed.
    assert_eq!(c.force(id(6)).unwrap().place, Place::Destroyed);
    assert_eq!(c.force(id(5)).unwrap().place, Place::Dispersed);
    assert!(c.formation(FormationId(201)).is_none());
}

#[test]
fn s_army_2_s_army_5_s_army_12_a_squadron_attached_to_an_army_flies_from_its_hexes_and_is_lost_with_it() {
    use rules::strategic::naval::ShipType;
    use rules::strategic::scenario::SquadronSpec;
    let mut s = army_scenario();
    s.map.cell_mut(hex(10, 6)).unwrap().terrain = Terrain::Sea;
    s.fleets = vec![fleet(1, "france", (10, 6), &[(ShipType::Gunboat, 1)])];
    let bombers = |id: u32, base: (i32, i32)| SquadronSpec {
        id,
        power: "germany".into(),
        kind: "Light bomber squadron".into(),
        base: hex(base.0, base.1),
        name: None,
    };
    s.squadrons = vec![bombers(1, (3, 4)), bombers(2, (0, 9))];
    let army = FormationId(201);
    let attach =
        |c: &mut Ctx, sq: u32, to: Option<FormationId>| c.apply(&Order::AttachSquadron { squadron: sq, formation: to });
    let bomb = |c: &Ctx| {
        let mut f = c.clone();
        f.clock.phase = Phase::Fire;
        f.dice.script(vec![5, 6]);
        f.apply(&Order::Bomb { squadrons: vec![1], ship: 1 })
    };
    // The light bombers (radius 6) at (3, 4) are 8 from the gunboat: out of reach.
    let mut c = ctx(&s, Phase::Movement, 0);
    assert_eq!((hex(3, 4).distance(hex(10, 6)), hex(4, 6).distance(hex(10, 6))), (8, 6));
    assert!(matches!(bomb(&c), Err(OrderError::Naval(_))));
    // Attached to the 1st Army (its base next to the army's hex (4, 4)), they fly from the army's
    // hex nearest the target, (4, 6): 6, within the radius (S-ARMY-5).
    attach(&mut c, 1, Some(army)).unwrap();
    let sq = c.navy.squadrons[0].clone();
    assert_eq!((sq.attached, c.squadron_distance(&sq, hex(10, 6))), (Some(army), 6));
    assert!(bomb(&c).is_ok(), "{:?}", bomb(&c));
    // Refused: a squadron not next to the army (2 hexes or more), one attached already.
    assert!(matches!(attach(&mut c, 2, Some(army)), Err(OrderError::Organization(_))));
    assert!(matches!(attach(&mut c, 1, Some(FormationId(101))), Err(OrderError::Organization(_))));
    // Detached: based at the army's hex nearest its old base, (4, 4); 7 from the gunboat again.
    let mut d = c.clone();
    attach(&mut d, 1, None).unwrap();
    assert_eq!((d.navy.squadrons[0].attached, d.navy.squadrons[0].base), (None, hex(4, 4)));
    assert_eq!(hex(4, 4).distance(hex(10, 6)), 7);
    assert!(matches!(bomb(&d), Err(OrderError::Naval(_))));
    // S-ARMY-12: all its front divisions destroyed, the army is destroyed and its aviation with it
    // («в этом случае артиллерия и авиация армии уничтожаются»); the squadron of no army keeps its
    // aircraft.
    let mut lost = c.clone();
    lost.clock.phase = Phase::Combat;
    for n in 1..=4 {
        lost.destroy(id(n), Msg::plain("test"));
    }
    lost.army_fates();
    assert_eq!((lost.navy.squadrons[0].aircraft, lost.navy.squadrons[0].attached), (0, None));
    assert_eq!(lost.navy.squadrons[1].aircraft, 12);
    // S-ARMY-13: dispersed, the army dissolves; its squadron is independent again, based at the
    // hex its divisions last held.
    let mut gone = c.clone();
    gone.clock.phase = Phase::Combat;
    for n in 1..=4 {
        gone.force_mut(id(n)).unwrap().activity.start = Some(hex(4, 4));
        gone.disperse(id(n), Msg::plain("test"));
    }
    gone.army_fates();
    let sq = &gone.navy.squadrons[0];
    assert_eq!((sq.aircraft, sq.attached, sq.base), (12, None, hex(4, 4)));
}

#[test]
fn s_army_13_s_army_14_army_dissolves_when_dispersal_outweighs() {
    let s = army_scenario();
    let mut c = ctx(&s, Phase::Combat, 0);
    for n in [1, 2] {
        c.force_mut(id(n)).unwrap().activity.start = Some(hex(4, 4));
    }
    c.disperse(id(1), Msg::plain("test"));
    c.disperse(id(2), Msg::plain("test"));
    c.disperse(id(3), Msg::plain("test"));
    c.destroy(id(4), Msg::plain("test"));
    c.army_fates();
    // 3 dispersed vs 1 destroyed: the army dissolves; the reserve retreats as an independent unit.
    let r = c.force(id(5)).unwrap();
    assert!(r.on_map() && r.member.army.is_none());
    // It retreated its full movement away from the French at (12,5).
    assert!(r.hex().unwrap().distance(hex(12, 5)) >= 12);
    // A tie counts as destroyed (S-ARMY-14).
    let mut c = ctx(&s, Phase::Combat, 0);
    c.disperse(id(1), Msg::plain("t"));
    c.disperse(id(2), Msg::plain("t"));
    c.destroy(id(3), Msg::plain("t"));
    c.destroy(id(4), Msg::plain("t"));
    c.army_fates();
    assert_eq!(c.force(id(6)).unwrap().place, Place::Destroyed);
}

#[test]
fn illegal_orders_leave_the_state_unchanged() {
    let s = army_scenario();
    let mut c = ctx(&s, Phase::Movement, 0);
    let before = c.state();
    assert!(
        c.apply(&Order::MoveArmy {
            army: FormationId(201),
            moves: vec![(FormationId(101), vec![hex(5, 4), hex(9, 9)])]
        })
        .is_err()
    );
    assert_eq!(c.state(), before);
}

/// A French front of six divisions on row 4, (2,4)…(7,4), IDs 11–16. German divisions 1–3 at
/// (3,3), (4,3) and (3,5) all touch (4,4); German division 4 stands at (6,3), touching (6,4) and (7,4).
fn front_scenario() -> Scenario {
    let mut forces = vec![
        infantry(1, "germany", (3, 3)),
        infantry(2, "germany", (4, 3)),
        infantry(3, "germany", (3, 5)),
        infantry(4, "germany", (6, 3)),
    ];
    for (i, col) in (2..=7).enumerate() {
        forces.push(infantry(11 + i as u32, "france", (col, 4)));
    }
    scenario(clear(12, 8), forces)
}

fn vitals(c: &Ctx, n: u32) -> (i32, Option<i32>) {
    c.force(id(n)).map_or((-1, None), |f| (f.vitals.health, f.vitals.morale))
}

#[test]
fn s_combat_1_s_combat_8_engagements_are_local_a_concentrated_attack_breaks_one_sector() {
    let s = front_scenario();
    let mut c = ctx(&s, Phase::Movement, 0);
    for n in [1, 2, 3] {
        // They came up this turn (S-COMBAT-2: Attack 25) and name (4,4) as their target.
        c.force_mut(id(n)).unwrap().activity.moved = true;
        c.apply(&Order::Attack { piece: Piece::Unit(id(n)), target: hex(4, 4) }).unwrap();
    }
    // S-COMBAT-8 resolution: the three attackers fight division 13 alone; the standing division 4
    // fights both standing divisions next to it, 15 and 16 (contact is battle); 11, 12 and 14,
    // next only to attackers fighting elsewhere, take no part.
    let g = c.engagements();
    assert_eq!(g, vec![[vec![id(13)], vec![id(1), id(2), id(3)]], [vec![id(15), id(16)], vec![id(4)]]]);
    // 25 + 25 + 25 = 75 against Defense 30, one division on the weaker side: D = 45 → destroyed.
    let e = c.assess(&g[0]);
    assert_eq!((e.totals, e.divisions, e.d, e.result), ([r(30), r(75)], 1, 45, CombatResult::Destroyed));
    // 30 + 30 against 30: D = 30 → destroyed.
    let e = c.assess(&g[1]);
    assert_eq!((e.totals, e.d, e.result), ([r(60), r(30)], 30, CombatResult::Destroyed));
    c.clock.phase = Phase::Combat;
    c.combat_engagements();
    assert_eq!(c.force(id(13)).unwrap().place, Place::Destroyed, "the attacked sector breaks");
    // The rest of the front holds: the neighbours of 13, though next to the attackers, are untouched.
    for n in [11, 12, 14, 15, 16, 1, 2, 3] {
        assert_eq!(vitals(&c, n), (3, Some(6)), "unit {n}");
    }
    assert_eq!(c.force(id(4)).unwrap().place, Place::Destroyed);
}

#[test]
fn s_combat_8_an_attacker_fights_every_enemy_it_met_unless_it_names_one() {
    let s = scenario(
        clear(12, 8),
        vec![infantry(1, "germany", (3, 1)), infantry(12, "france", (3, 4)), infantry(13, "france", (4, 4))],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 1, &[(3, 2), (3, 3)]).unwrap();
    // S-COMBAT-7: it met two hexes of enemies at once: no one of them is its front (never chosen
    // by ID), and it fights both.
    assert_eq!(c.force(id(1)).unwrap().front.front, None);
    assert_eq!(c.engagements(), vec![[vec![id(12), id(13)], vec![id(1)]]]);
    // Errors: a hex not next to the attacker, an empty hex, the wrong phase; nothing changes.
    assert_eq!(
        c.apply(&Order::Attack { piece: Piece::Unit(id(1)), target: hex(5, 4) }),
        Err(OrderError::NotAdjacent { from: hex(3, 3), to: hex(5, 4) })
    );
    assert_eq!(
        c.apply(&Order::Attack { piece: Piece::Unit(id(1)), target: hex(3, 2) }),
        Err(OrderError::NoEnemyAt(hex(3, 2)))
    );
    assert_eq!(c.engagements(), vec![[vec![id(12), id(13)], vec![id(1)]]]);
    c.apply(&Order::Attack { piece: Piece::Unit(id(1)), target: hex(4, 4) }).unwrap();
    assert_eq!(c.engagements(), vec![[vec![id(13)], vec![id(1)]]]);
    c.clock.phase = Phase::Fire;
    assert!(matches!(
        c.apply(&Order::Attack { piece: Piece::Unit(id(1)), target: hex(3, 4) }),
        Err(OrderError::WrongPhase { .. })
    ));
    // An army's members take no orders of their own (S-ARMY-3).
    let mut s = army_scenario();
    s.forces.push(infantry(10, "france", (5, 4)));
    let mut c = ctx(&s, Phase::Movement, 0);
    assert!(matches!(
        c.apply(&Order::Attack { piece: Piece::Corps(FormationId(101)), target: hex(5, 4) }),
        Err(OrderError::TakesOrdersFromFormation(_))
    ));
}

use rules::strategic::testkit::german_city;

#[test]
fn s_combat_11_attacked_from_two_opposite_sides_with_an_open_path_is_not_encircled() {
    // German 1 at (5,5) between French 10 (4,5) and 11 (6,5); German 2 holds (5,4), north of it,
    // so the path north to the city at (5,0) is open.
    let forces = vec![
        infantry(1, "germany", (5, 5)),
        infantry(2, "germany", (5, 4)),
        infantry(10, "france", (4, 5)),
        infantry(11, "france", (6, 5)),
    ];
    let s = scenario(german_city(clear(12, 10), (5, 0)), forces.clone());
    let mut c = ctx(&s, Phase::Upkeep, 0);
    assert!(c.encircled_groups().is_empty());
    c.encirclement();
    assert_eq!((c.force(id(1)).unwrap().front.encircled, vitals(&c, 1)), (0, (3, Some(6))));
    // The other side of it: without division 2 every free neighbour of (5,5) is next to an
    // attacker and no friendly unit holds it: encircled.
    let s = scenario(german_city(clear(12, 10), (5, 0)), forces.into_iter().filter(|f| f.id != 2).collect());
    let c = ctx(&s, Phase::Upkeep, 0);
    assert_eq!(c.encircled_groups(), vec![vec![hex(5, 5)]]);
    // What the AI reads of it: (5,5) and the empty hexes next to the French are not open to the
    // German city; the city and the ground two hexes off are.
    let open = c.open_to_own_cities(rules::strategic::PowerId(0), true);
    let is_open = |h| c.map().index(h).is_some_and(|i| open[i]);
    assert!(!is_open(hex(5, 5)) && !is_open(hex(5, 4)));
    assert!(is_open(hex(5, 0)) && is_open(hex(5, 2)));
}

#[test]
fn s_combat_11_a_ring_two_hexes_out_encircles() {
    // German 1 at (6,5); French divisions on every hex two hexes away; the German city at (14,5).
    let centre = hex(6, 5);
    let mut forces = vec![infantry(1, "germany", (6, 5))];
    let mut n = 10;
    for row in 0..10 {
        for col in 0..16 {
            if hex(col, row).distance(centre) == 2 {
                forces.push(infantry(n, "france", (col, row)));
                n += 1;
            }
        }
    }
    assert_eq!(forces.len(), 13, "12 hexes on the ring");
    let s = scenario(german_city(clear(16, 10), (14, 5)), forces.clone());
    let mut c = ctx(&s, Phase::Upkeep, 0);
    assert_eq!(c.encircled_groups(), vec![vec![centre]]);
    // The consequences: −2 Morale and −25 % in the first turn (Defense 30 → 45/2).
    c.encirclement();
    assert_eq!((c.force(id(1)).unwrap().front.encircled, vitals(&c, 1)), (1, (3, Some(4))));
    assert_eq!(value(&c, 1, &[10]), Ratio::new(45, 2));
    // The other side of it: without the ring's eastern hexes (columns 7 and 8) a path runs east
    // through (7,5) and (8,5), next to no enemy, to the city: not encircled.
    let east: Vec<_> = forces.iter().filter(|f| f.at.is_some_and(|h| h.col >= 7)).map(|f| f.id).collect();
    let west = forces.into_iter().filter(|f| !east.contains(&f.id)).collect();
    let s = scenario(german_city(clear(16, 10), (14, 5)), west);
    let c = ctx(&s, Phase::Upkeep, 0);
    assert!(c.encircled_groups().is_empty());
}

#[test]
fn s_army_7_s_army_15_engaged_troops_leave_contact_only_by_the_retreat_order() {
    let mut s = army_scenario();
    // French 10 engages corps I at (4,4); an independent German 20 at (8,8) is engaged by French 21.
    s.forces.push(infantry(10, "france", (5, 4)));
    s.forces.push(infantry(20, "germany", (8, 8)));
    s.forces.push(infantry(21, "france", (9, 8)));
    s.forces.push(infantry(22, "germany", (1, 8)));
    let mut c = ctx(&s, Phase::Movement, 0);
    // A plain move of an engaged unit is refused, even one that stays in contact.
    assert_eq!(mv(&mut c, 20, &[(7, 8)]), Err(OrderError::Engaged(c.name(id(20)))));
    assert_eq!(mv(&mut c, 20, &[(8, 7)]), Err(OrderError::Engaged(c.name(id(20)))));
    // A unit out of contact moves.
    mv(&mut c, 22, &[(2, 8)]).unwrap();
    // A partial army move of the engaged corps I is refused; the army's corps II, out of contact, moves.
    let back: Vec<_> = vec![hex(3, 4), hex(2, 4)];
    assert!(matches!(
        c.apply(&Order::MoveArmy { army: FormationId(201), moves: vec![(FormationId(101), back.clone())] }),
        Err(OrderError::Engaged(_))
    ));
    let before = c.state();
    assert!(
        c.apply(&Order::MoveArmy {
            army: FormationId(201),
            moves: vec![(FormationId(102), vec![hex(3, 6)]), (FormationId(101), back)]
        })
        .is_err()
    );
    assert_eq!(c.state(), before, "nothing moved");
    c.apply(&Order::MoveArmy { army: FormationId(201), moves: vec![(FormationId(102), vec![hex(3, 6)])] }).unwrap();
    assert_eq!(c.force(id(3)).unwrap().place, Place::Map(hex(3, 6)));
    // The Retreat order still takes the engaged unit out: −1 Morale (S-ARMY-15).
    c.apply(&Order::Retreat { moves: vec![(Piece::Unit(id(20)), vec![hex(7, 8), hex(6, 8)])] }).unwrap();
    assert_eq!((c.force(id(20)).unwrap().place, vitals(&c, 20)), (Place::Map(hex(6, 8)), (3, Some(5))));
}

#[test]
fn s_army_9_arrivals_at_a_fighting_army_only_attack_while_it_fights() {
    let mut s = army_scenario();
    // French 10 at (5,4) fights corps I; German 20 (independent) comes up to (4,5), next to both.
    s.forces.push(infantry(10, "france", (5, 4)));
    s.forces.push(infantry(20, "germany", (6, 7)));
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 20, &[(6, 6), (5, 6), (4, 5)]).unwrap();
    assert_eq!(c.force(id(20)).unwrap().front.attack_only, Some(FormationId(201)));
    // Next turn it has not moved, but the army still fights: Attack 25, not Defense 30.
    c.force_mut(id(20)).unwrap().activity.moved = false;
    assert_eq!(value(&c, 20, &[10]), Ratio::new(25, 1));
    // The army's fight ends (the French division leaves): it defends again with Defense 30.
    c.force_mut(id(10)).unwrap().place = Place::Map(hex(12, 1));
    c.rebuild_occupancy();
    c.formation_mut(FormationId(201)).unwrap().engaged = false;
    assert_eq!(value(&c, 20, &[10]), Ratio::new(30, 1));
    // A unit arriving next to an army that does not fight defends as usual.
    let mut s = army_scenario();
    s.forces.push(infantry(20, "germany", (6, 7)));
    s.forces.push(infantry(10, "france", (12, 1)));
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 20, &[(6, 6), (5, 6), (4, 5)]).unwrap();
    assert_eq!(c.force(id(20)).unwrap().front.attack_only, None);
    c.force_mut(id(20)).unwrap().activity.moved = false;
    assert_eq!(value(&c, 20, &[10]), Ratio::new(30, 1));
}

#[test]
fn s_army_7_s_army_15_an_engaged_corps_member_is_not_detached_out_of_contact() {
    let mut s = scenario(
        clear(8, 6),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (2, 2)),
            infantry(3, "germany", (2, 2)),
            infantry(10, "france", (3, 2)),
        ],
    );
    s.corps = vec![CorpsSpec { id: 101, name: "I Corps".into(), units: vec![1, 2, 3], attached: vec![] }];
    let mut c = ctx(&s, Phase::Movement, 0);
    // (1,2) is out of contact: refused; (2,1) is still next to the French at (3,2): allowed.
    assert_eq!(
        c.apply(&Order::Detach { piece: Piece::Unit(id(3)), to: Some(hex(1, 2)) }),
        Err(OrderError::Engaged(c.name(id(3))))
    );
    c.apply(&Order::Detach { piece: Piece::Unit(id(3)), to: Some(hex(2, 1)) }).unwrap();
    assert_eq!(c.force(id(3)).unwrap().place, Place::Map(hex(2, 1)));
}
