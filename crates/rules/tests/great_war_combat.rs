//! Great War land combat as the Russian originals say it (issue 25): who fights, the divisor of
//! D, D rounded once, an army's losses, encirclement in the same turn, flank against standing
//! contact, the mountain bonus. Each test names its rule IDs and shows the rule's numbers.

use rules::strategic::apply::PhaseSchedule;
use rules::strategic::combat::Ratio;
use rules::strategic::event::EventKind;
use rules::strategic::hexmap::{HexMap, Terrain};
use rules::strategic::order::{Order, Piece};
use rules::strategic::scenario::{ArmySpec, CorpsSpec, ForceSpec, KindSpec, Scenario};
use rules::strategic::state::{Ctx, ForceId, Phase, Place};
use rules::strategic::tables::Model;
use rules::strategic::testkit::*;
use rules::strategic::{CombatResult, HexAt};
use std::collections::BTreeMap;

fn clear(w: u32, h: u32) -> HexMap {
    HexMap::filled("test", w, h, Terrain::Clear)
}

fn value(c: &Ctx, unit: u32, enemies: &[u32]) -> Ratio {
    let e: Vec<_> = enemies.iter().map(|n| id(*n)).collect();
    c.value_terms(id(unit), &e).map(|t| t.value).unwrap_or(Ratio::ZERO)
}

fn vitals(c: &Ctx, n: u32) -> (Place, i32, Option<i32>) {
    c.force(id(n)).map_or((Place::Destroyed, -1, None), |f| (f.place, f.vitals.health, f.vitals.morale))
}

fn cavalry(n: u32, power: &str, at: (i32, i32)) -> ForceSpec {
    unit(n, power, at, KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false })
}

fn a7v(n: u32, at: (i32, i32)) -> ForceSpec {
    unit(n, "germany", at, KindSpec::Tank("A7V".into()))
}

fn elite(n: u32, power: &str, at: (i32, i32)) -> ForceSpec {
    unit(
        n,
        power,
        at,
        KindSpec::Infantry { model: Model::M1914, class: 1, mountain: false, elite: true, colonial: None },
    )
}

/// The engagements' sides as hexes (what a position is, whatever its units are numbered).
fn engagement_hexes(c: &Ctx) -> Vec<[Vec<HexAt>; 2]> {
    let mut v: Vec<[Vec<HexAt>; 2]> = c
        .engagements()
        .iter()
        .map(|g| {
            g.clone().map(|side| {
                let mut h: Vec<HexAt> = side.iter().filter_map(|u| c.force(*u)).filter_map(|f| f.hex()).collect();
                h.sort();
                h.dedup();
                h
            })
        })
        .collect();
    v.sort();
    v
}

/// Every unit's fate after one Combat phase, by where it stood and what it is.
fn outcome_by_hex(s: &Scenario) -> BTreeMap<(HexAt, String), (Place, i32, Option<i32>)> {
    let mut c = ctx(s, Phase::Combat, 0);
    let start: Vec<(ForceId, HexAt)> = c.forces.iter().filter_map(|f| f.hex().map(|h| (f.id, h))).collect();
    c.combat_engagements();
    c.combat_losses();
    start
        .into_iter()
        .map(|(u, h)| {
            let kind = c.force(u).map(|f| format!("{:?}", f.kind)).unwrap_or_default();
            ((h, kind), vitals(&c, u.0))
        })
        .collect()
}

#[test]
fn s_combat_1_s_combat_8_contact_is_battle_whatever_the_ids() {
    // French 1 and 3 on either side of German 2, in contact since the start; elsewhere German 4
    // between French 5 and 6, and a German corps (7, 8) standing next to French 9.
    let forces = vec![
        infantry(1, "france", (2, 2)),
        infantry(2, "germany", (3, 2)),
        infantry(3, "france", (4, 2)),
        infantry(4, "germany", (3, 6)),
        infantry(5, "france", (2, 6)),
        infantry(6, "france", (4, 6)),
        infantry(7, "germany", (9, 4)),
        infantry(8, "germany", (9, 4)),
        infantry(9, "france", (10, 4)),
    ];
    let mut s = scenario(clear(14, 9), forces);
    s.corps = vec![CorpsSpec { id: 101, name: "Korps".into(), units: vec![7, 8], attached: vec![] }];
    // The same position with the units numbered the other way round.
    let mut renumbered = s.clone();
    let new_id = |n: u32| 20 - n;
    for f in &mut renumbered.forces {
        f.id = new_id(f.id);
    }
    renumbered.corps[0].units = vec![new_id(8), new_id(7)];
    let c = ctx(&s, Phase::Combat, 0);
    let r = ctx(&renumbered, Phase::Combat, 0);
    assert_eq!(engagement_hexes(&c), engagement_hexes(&r));
    // Both French divisions fight the German one between them: 30 + 30 = 60 against 30, one unit on
    // the weaker side: D = 30, destroyed, in either numbering.
    assert_eq!(c.engagements()[0], [vec![id(1), id(3)], vec![id(2)]]);
    let e = c.assess(&c.engagements()[0]);
    assert_eq!((e.d, e.result), (30, CombatResult::Destroyed));
    assert_eq!(outcome_by_hex(&s), outcome_by_hex(&renumbered));
    let after = outcome_by_hex(&s);
    let at = |col, row| after.iter().find(|((h, _), _)| *h == hex(col, row)).map(|(_, v)| *v).unwrap();
    assert_eq!(at(3, 2).0, Place::Destroyed);
    assert_eq!(at(3, 6).0, Place::Destroyed);
    // The corps (60) against French 9 (30): D = 30 ÷ 1 = 30: the French division is destroyed.
    assert_eq!(at(10, 4).0, Place::Destroyed);
}

#[test]
fn s_combat_8_s_army_10_s_army_11_no_engagement_without_an_opponent() {
    // French 9 at (8,5) touches two German armies: 201 (corps 101 at (7,5)) and 202 (corps 103 at
    // (9,5)); their other corps stand far off.
    let mut forces = vec![infantry(9, "france", (8, 5))];
    for (n, at) in
        [(1, (7, 5)), (2, (7, 5)), (3, (2, 1)), (4, (2, 1)), (5, (9, 5)), (6, (9, 5)), (7, (14, 8)), (8, (14, 8))]
    {
        forces.push(infantry(n, "germany", at));
    }
    let mut s = scenario(clear(16, 10), forces);
    s.corps = [(101, [1, 2]), (102, [3, 4]), (103, [5, 6]), (104, [7, 8])]
        .map(|(i, u)| CorpsSpec { id: i, name: format!("{i}"), units: u.to_vec(), attached: vec![] })
        .to_vec();
    s.armies = [(201, [101, 102]), (202, [103, 104])]
        .map(|(i, c)| ArmySpec { id: i, name: format!("{i}"), corps: c.to_vec(), reserves: vec![], attached: vec![] })
        .to_vec();
    let mut c = ctx(&s, Phase::Combat, 0);
    // One engagement, both armies in it: 8 × 30 = 240 against 30.
    let g = c.engagements();
    assert_eq!(g, vec![[vec![id(9)], (1..=8).map(id).collect()]]);
    assert!(g.iter().all(|sides| sides.iter().all(|s| !s.is_empty())), "every engagement has two sides");
    c.combat_engagements();
    let fights = c.events.iter().filter(|e| matches!(e.kind, EventKind::Engagement { .. })).count();
    assert_eq!(fights, 1);
    assert_eq!(c.force(id(9)).unwrap().place, Place::Destroyed);
    // Nobody of army 202 lost Health or Morale in a fight with nobody.
    for n in 1..=8 {
        assert_eq!(vitals(&c, n), (c.force(id(n)).unwrap().place, 3, Some(6)), "unit {n}");
    }
    assert!(c.formation(rules::strategic::FormationId(202)).unwrap().engaged, "it fought (S-ARMY-10)");
}

/// Two armies of four corps of four divisions each, facing each other on columns 5 and 6.
fn sixteen_against_sixteen() -> Scenario {
    let mut forces = Vec::new();
    for k in 0..4 {
        for d in 0..4 {
            forces.push(infantry(1 + 4 * k + d, "germany", (5, 2 + k as i32)));
            forces.push(infantry(21 + 4 * k + d, "france", (6, 2 + k as i32)));
        }
    }
    let mut s = scenario(clear(12, 8), forces);
    for k in 0..4u32 {
        s.corps.push(CorpsSpec {
            id: 101 + k,
            name: format!("G{k}"),
            units: (1..=4).map(|d| 4 * k + d).collect(),
            attached: vec![],
        });
        s.corps.push(CorpsSpec {
            id: 111 + k,
            name: format!("F{k}"),
            units: (21..=24).map(|d| 4 * k + d).collect(),
            attached: vec![],
        });
    }
    s.armies = vec![
        ArmySpec { id: 201, name: "Armee".into(), corps: (101..=104).collect(), reserves: vec![], attached: vec![] },
        ArmySpec { id: 211, name: "Armée".into(), corps: (111..=114).collect(), reserves: vec![], attached: vec![] },
    ];
    s
}

#[test]
fn s_army_11_an_army_loses_as_a_whole_and_the_losses_are_shared() {
    // 16 divisions against 16, all standing: 480 against 480, D = 0: each army loses 1 Health
    // and 1 Morale in all, not 16.
    let s = sixteen_against_sixteen();
    let mut c = ctx(&s, Phase::Combat, 0);
    c.combat_engagements();
    for (army, first) in [("german", 1u32), ("french", 21)] {
        let health: i32 = (first..first + 16).map(|n| 3 - vitals(&c, n).1).sum();
        let morale: i32 = (first..first + 16).map(|n| 6 - vitals(&c, n).2.unwrap()).sum();
        assert_eq!((health, morale), (1, 1), "{army} army");
    }
    // The sharing: Health goes to the unit with the most Health, Morale to the one with the most
    // Morale. German divisions at Health 2 but 7 (Health 3), Morale 5 but 10 and 11 (Morale 6):
    // 7 × 30 × 2/3 (= 140) + 30... = 15 × 20 + 30 = 330 against 480: D = 150 ÷ 16 divisions = 9
    // (the army rule of [003] divides): stubborn fighting, the Germans lose 1 Health and 2 Morale.
    let mut s = sixteen_against_sixteen();
    for f in s.forces.iter_mut().filter(|f| f.id <= 16) {
        f.health = Some(if f.id == 7 { 3 } else { 2 });
        f.morale = Some(if f.id == 10 || f.id == 11 { 6 } else { 5 });
    }
    let mut c = ctx(&s, Phase::Combat, 0);
    let e = c.assess(&c.engagements()[0]);
    assert_eq!(
        (e.totals, e.divisions, e.d, e.result),
        ([Ratio::new(480, 1), Ratio::new(330, 1)], 16, 9, CombatResult::StubbornHeavy)
    );
    c.combat_engagements();
    // Everyone German at Health 2, Morale 5 now: only 7 lost Health (3 → 2), only 10 and 11 Morale.
    for n in 1..=16 {
        assert_eq!(vitals(&c, n).1..=vitals(&c, n).1, 2..=2, "unit {n}");
        assert_eq!(vitals(&c, n).2, Some(5), "unit {n}");
    }
    // The other side of the sharing: division 7 had the most Health (3 → 2), 10 and 11 the most
    // Morale (6 → 5); nobody else lost anything. The French army: 1 Health, 1 Morale in all.
    let french_health: i32 = (21..=36).map(|n| 3 - vitals(&c, n).1).sum();
    assert_eq!(french_health, 1);
}

#[test]
fn s_combat_8_a_corps_compares_sums_and_tanks_never_divide() {
    // A German corps of two divisions and an A7V battalion standing at (5,4): 30 + 30 + 0 = 60.
    // French: two divisions that came up this turn (Attack 25 + 25) and two standing cavalry
    // divisions (Defense 15 + 15): 80. [000]: the corps is one unit: D = 20, not 20 ÷ 3.
    let mut forces = vec![infantry(1, "germany", (5, 4)), infantry(2, "germany", (5, 4)), a7v(3, (5, 4))];
    forces.extend([
        infantry(11, "france", (4, 4)),
        infantry(12, "france", (6, 4)),
        cavalry(13, "france", (5, 3)),
        cavalry(14, "france", (5, 5)),
    ]);
    let mut s = scenario(clear(10, 8), forces);
    s.corps = vec![CorpsSpec { id: 101, name: "Korps".into(), units: vec![1, 2, 3], attached: vec![] }];
    let mut c = ctx(&s, Phase::Combat, 0);
    for n in [11, 12] {
        c.force_mut(id(n)).unwrap().activity.moved = true;
    }
    let g = c.engagements();
    assert_eq!(g.len(), 1);
    let e = c.assess(&g[0]);
    assert_eq!(
        (e.totals, e.divisions, e.d, e.result),
        ([Ratio::new(80, 1), Ratio::new(60, 1)], 1, 20, CombatResult::Dispersed)
    );
    // The other side of 20: one standing cavalry division at Health 1 of 2 (15 × 1/2): 72.5 − 60 → D = 12.
    c.force_mut(id(14)).unwrap().vitals.health = 1;
    let e = c.assess(&g[0]);
    assert_eq!((e.d, e.result), (12, CombatResult::StubbornHeavy));
    c.force_mut(id(14)).unwrap().vitals.health = 2;
    c.combat_engagements();
    for n in [1, 2, 3] {
        assert_eq!(c.force(id(n)).unwrap().place, Place::Dispersed, "unit {n}");
    }
}

/// German units next to the encircled French division: each with whether it stands (else it came
/// up this turn) and its Health if not full.
type Germans = Vec<(ForceSpec, bool, Option<i32>)>;

/// A French division standing at (5,4), encircled one turn (Defense 30 × 3/4 = 45/2), and the
/// German units next to it, all having come up this turn unless `standing`.
fn against_encircled(germans: Germans) -> Ctx {
    let mut forces = vec![infantry(1, "france", (5, 4))];
    let around = hex(5, 4).neighbours();
    let mut moved = Vec::new();
    for (i, (mut f, standing, health)) in germans.into_iter().enumerate() {
        f.id = 10 + i as u32;
        f.at = Some(around[i]);
        f.health = health;
        if !standing {
            moved.push(f.id);
        }
        forces.push(f);
    }
    let mut c = ctx(&scenario(clear(10, 8), forces), Phase::Combat, 0);
    for f in c.forces.iter_mut() {
        if f.id == id(1) {
            f.front.encircled = 1;
        }
        f.activity.moved = moved.contains(&f.id.0);
    }
    c
}

#[test]
fn s_combat_8_d_rounds_the_difference_not_each_side() {
    let inf = || infantry(0, "germany", (0, 0));
    let cav = || cavalry(0, "germany", (0, 0));
    let tank = || a7v(0, (0, 0));
    let cases: Vec<(Germans, Ratio, i64, CombatResult)> = vec![
        // 20 + 20 + 8 + 4 = 52 against 45/2: D = 59/2 → 29: dispersed (each side rounded: 52 − 22 = 30).
        (
            vec![(cav(), false, None), (cav(), false, None), (tank(), false, None), (tank(), false, Some(1))],
            Ratio::new(52, 1),
            29,
            CombatResult::Dispersed,
        ),
        // 25 + 20 + 8 = 53: D = 61/2 → 30: destroyed.
        (
            vec![(inf(), false, None), (cav(), false, None), (tank(), false, None)],
            Ratio::new(53, 1),
            30,
            CombatResult::Destroyed,
        ),
        // 20 + 10 + 8 + 4 = 42: D = 39/2 → 19: stubborn fighting, the weaker −2 Morale.
        (
            vec![(cav(), false, None), (cav(), false, Some(1)), (tank(), false, None), (tank(), false, Some(1))],
            Ratio::new(42, 1),
            19,
            CombatResult::StubbornHeavy,
        ),
        // 25 + 10 + 8 = 43: D = 41/2 → 20: dispersed.
        (
            vec![(inf(), false, None), (cav(), false, Some(1)), (tank(), false, None)],
            Ratio::new(43, 1),
            20,
            CombatResult::Dispersed,
        ),
        // Standing cavalry 15 + 8 + 4 = 27: D = 9/2 → 4: both −1 Morale.
        (
            vec![(cav(), true, None), (tank(), false, None), (tank(), false, Some(1))],
            Ratio::new(27, 1),
            4,
            CombatResult::Stubborn,
        ),
        // 20 + 8 = 28: D = 11/2 → 5: the weaker −2 Morale.
        (vec![(cav(), false, None), (tank(), false, None)], Ratio::new(28, 1), 5, CombatResult::StubbornHeavy),
    ];
    for (germans, total, d, result) in cases {
        let mut c = against_encircled(germans);
        let g = c.engagements();
        assert_eq!(g.len(), 1);
        let e = c.assess(&g[0]);
        assert_eq!((e.totals, e.divisions, e.d, e.result), ([Ratio::new(45, 2), total], 1, d, result), "{total}");
        // The real engagement: the French division's fate.
        c.combat_engagements();
        let f = c.force(id(1)).unwrap();
        let got = match result {
            CombatResult::Destroyed => f.place == Place::Destroyed,
            CombatResult::Dispersed => f.place == Place::Dispersed,
            CombatResult::StubbornHeavy => (f.vitals.health, f.vitals.morale) == (2, Some(4)),
            CombatResult::Stubborn => (f.vitals.health, f.vitals.morale) == (2, Some(5)),
        };
        assert!(got, "{total}: {:?} {:?}", f.place, f.vitals);
    }
}

/// German division (or elite) 1 at (6,5); French divisions on every hex two hexes away; the
/// German city at (14,5) out of reach: it is encircled, out of contact.
fn ringed(first: ForceSpec) -> Scenario {
    let centre = hex(6, 5);
    let mut forces = vec![first];
    let mut n = 10;
    for row in 0..10 {
        for col in 0..16 {
            if hex(col, row).distance(centre) == 2 {
                forces.push(infantry(n, "france", (col, row)));
                n += 1;
            }
        }
    }
    let map = rules::strategic::testkit::german_city(clear(16, 10), (14, 5));
    scenario(map, forces)
}

#[test]
fn s_combat_11_encirclement_bites_in_the_same_turn_down_to_0_percent() {
    // The ring closes in the Movement phase; the Combat phase of this same turn finds the division
    // encircled: −2 Morale and −25 % (Defense 30 → 45/2) before it fights.
    let mut s = ringed(infantry(1, "germany", (6, 5)));
    // French 40 stands next to it: they fight this turn.
    s.forces.push(infantry(40, "france", (7, 5)));
    let mut c = ctx(&s, Phase::Combat, 0);
    let events = run_phase(&mut c, PhaseSchedule::Combat);
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Encircled { turns: 1, .. })));
    // 30 against 45/2: D = 15/2 → 7: the Germans lose 1 Health and 2 Morale, on top of the 2 of
    // the encirclement: Morale 6 → 2 (in the open it would have been 30 against 30, −1 Morale).
    let engagement = events.iter().find_map(|e| match e.kind {
        EventKind::Engagement { d, result, .. } => Some((d, result)),
        _ => None,
    });
    assert_eq!(engagement, Some((7, CombatResult::StubbornHeavy)));
    assert_eq!((c.force(id(1)).unwrap().vitals.health, c.force(id(1)).unwrap().vitals.morale), (2, Some(2)));
    // The later steps, each in that turn's Combat phase: an elite division (no Morale lost,
    // S-LAND-7), Defense 30 + 10 = 40: 3/4, 2/4, 1/4, then 0 % and no lower.
    let mut c = ctx(&ringed(elite(1, "germany", (6, 5))), Phase::Combat, 0);
    for (turns, v) in
        [(1, Ratio::new(30, 1)), (2, Ratio::new(20, 1)), (3, Ratio::new(10, 1)), (4, Ratio::ZERO), (5, Ratio::ZERO)]
    {
        run_phase(&mut c, PhaseSchedule::Combat);
        let f = c.force(id(1)).unwrap();
        assert_eq!((f.front.encircled, f.vitals.morale), (turns, Some(6)));
        assert_eq!(value(&c, 1, &[10]), v, "{turns} turns encircled");
    }
}

#[test]
fn s_combat_6_s_combat_7_a_second_enemy_on_the_flank_of_a_standing_contact() {
    // German 1 at (5,4) and French 2 west of it at (4,4) stand in contact from the start (nobody
    // arrived, no front recorded); German 5 at (6,3) stands alone.
    let s = scenario(
        clear(12, 9),
        vec![
            infantry(1, "germany", (5, 4)),
            infantry(2, "france", (4, 4)),
            infantry(3, "france", (7, 6)),
            infantry(4, "france", (4, 6)),
            infantry(5, "germany", (6, 3)),
            infantry(6, "france", (5, 7)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 1);
    // How many hexsides of German 1 lie between French 2's and `to`.
    let off = |to: HexAt| {
        let d = (i32::from(hex(5, 4).side_to(to).unwrap()) - i32::from(hex(5, 4).side_to(hex(4, 4)).unwrap()))
            .rem_euclid(6);
        d.min(6 - d)
    };
    // French 4 comes up to (4,5), the hexside beside French 2's: German 1's front (the engaged
    // hexside and the two beside it): Attack 25, no bonus.
    c.apply(&Order::Move { piece: Piece::Unit(id(4)), path: vec![hex(4, 5)] }).unwrap();
    assert_eq!(off(hex(4, 5)), 1);
    assert_eq!(value(&c, 4, &[1]), Ratio::new(25, 1));
    // French 6 comes up to (5,5), two hexsides off: the flank: 25 × 5/4 = 125/4.
    c.apply(&Order::Move { piece: Piece::Unit(id(6)), path: vec![hex(5, 6), hex(5, 5)] }).unwrap();
    assert_eq!(off(hex(5, 5)), 2);
    assert_eq!(value(&c, 6, &[1]), Ratio::new(125, 4));
    // French 3 comes up to (6,4), behind German 1: the rear: 125/4.
    c.apply(&Order::Move { piece: Piece::Unit(id(3)), path: vec![hex(6, 5), hex(6, 4)] }).unwrap();
    assert_eq!(off(hex(6, 4)), 3);
    assert_eq!(value(&c, 3, &[1]), Ratio::new(125, 4));
    // The bonus is the pair's: against German 5, also next to (6,4) but engaged by no one, 25.
    assert_eq!(value(&c, 3, &[5]), Ratio::new(25, 1));
    // Named against German 5, French 3 fights it without the bonus.
    c.apply(&Order::Attack { piece: Piece::Unit(id(3)), target: hex(6, 3) }).unwrap();
    let g = c.engagements();
    let e = g.iter().find(|g| g[1].contains(&id(5))).map(|g| c.assess(g)).unwrap();
    assert_eq!(e.sides, [vec![id(3)], vec![id(5)]]);
    assert_eq!(e.totals[0], Ratio::new(25, 1));
    // German 1 fights French 2, 4 and 6: 25 + 125/4 + 30 = 345/4 against 30.
    let e = g.iter().find(|g| g[1].contains(&id(1))).map(|g| c.assess(g)).unwrap();
    assert_eq!((e.sides.clone(), e.totals[0]), ([vec![id(2), id(4), id(6)], vec![id(1)]], Ratio::new(345, 4)));
}

#[test]
fn s_land_5_the_mountain_bonus_wherever_the_fight_is_in_mountains() {
    // Mountain infantry 1 on clear ground at (3,3) attacks French 2 in the mountains at (4,3):
    // the fight is in mountains: Attack 25 + 10 = 35. Against French 3 on clear ground, 25.
    let mut map = clear(10, 8);
    map.cell_mut(hex(4, 3)).unwrap().terrain = Terrain::Mountains;
    let mountain = KindSpec::Infantry { model: Model::M1914, class: 1, mountain: true, elite: false, colonial: None };
    let s = scenario(
        map,
        vec![
            unit(1, "germany", (3, 3), mountain.clone()),
            infantry(2, "france", (4, 3)),
            infantry(3, "france", (2, 3)),
            unit(4, "germany", (7, 7), mountain),
        ],
    );
    let mut c = ctx(&s, Phase::Combat, 0);
    c.force_mut(id(1)).unwrap().activity.moved = true;
    assert_eq!(value(&c, 1, &[2]), Ratio::new(35, 1));
    assert_eq!(value(&c, 1, &[3]), Ratio::new(25, 1));
    // Standing on clear ground against an enemy on clear ground: Defense 30, no bonus.
    assert_eq!(value(&c, 4, &[3]), Ratio::new(30, 1));
}

/// A German army (201) of corps 101 (units 1, 2) at (2,4) and corps 102 (units 3, 4) at `second`.
fn army_of_two_corps(kind: fn(u32, &str, (i32, i32)) -> ForceSpec, second: (i32, i32)) -> Scenario {
    let forces = vec![
        kind(1, "germany", (2, 4)),
        kind(2, "germany", (2, 4)),
        kind(3, "germany", second),
        kind(4, "germany", second),
    ];
    let mut s = scenario(clear(20, 8), forces);
    s.corps = vec![
        CorpsSpec { id: 101, name: "I".into(), units: vec![1, 2], attached: vec![] },
        CorpsSpec { id: 102, name: "II".into(), units: vec![3, 4], attached: vec![] },
    ];
    s.armies =
        vec![ArmySpec { id: 201, name: "1. Armee".into(), corps: vec![101, 102], reserves: vec![], attached: vec![] }];
    s
}

/// Moves corps 102 of army 201 to `to`, a step at a time to the neighbour nearest it.
fn move_corps_102(s: &Scenario, to: (i32, i32)) -> Result<(), rules::strategic::OrderError> {
    let mut c = ctx(s, Phase::Movement, 0);
    let Some(mut at) = c.piece_hex(Piece::Corps(rules::strategic::FormationId(102))) else {
        return Err(rules::strategic::OrderError::EmptyPath);
    };
    let to = hex(to.0, to.1);
    let mut path = Vec::new();
    while at != to {
        at = at.neighbours().into_iter().min_by_key(|n| (n.distance(to), *n)).unwrap_or(to);
        path.push(at);
    }
    c.apply(&Order::MoveArmy {
        army: rules::strategic::FormationId(201),
        moves: vec![(rules::strategic::FormationId(102), path)],
    })
}

#[test]
fn s_army_4_an_army_stands_within_its_frontage_and_depth() {
    use rules::strategic::FormationId;
    use rules::strategic::OrderError;
    let refused = |r: Result<(), OrderError>| matches!(r, Err(OrderError::Organization(_)));
    // Four infantry divisions in two corps: a frontage of 4 hexes and a depth of 5. Corps I stands
    // at (2,4). Along the row (corps II from (3,4)), the block's long side holds 5 hexes: 4 apart
    // allowed, 5 refused (the old reading let them stand 7 apart on one row).
    let s = army_of_two_corps(infantry, (3, 4));
    assert_eq!(ctx(&s, Phase::Movement, 0).army_frontage(FormationId(201)), 4);
    assert_eq!(move_corps_102(&s, (6, 4)), Ok(()));
    assert!(refused(move_corps_102(&s, (7, 4))));
    // With the map's rows and columns: an army of four corps at the corners of 5 columns by 4
    // rows fits the 4 × 5 block turned either way (and 4 columns by 5 rows); 6 columns by 4 rows
    // or 5 by 5 fit none (nor do they fit along the hex grid's axes).
    use rules::strategic::army::fits_block;
    let corners = |cols: i32, rows: i32| [hex(0, 0), hex(cols - 1, 0), hex(0, rows - 1), hex(cols - 1, rows - 1)];
    assert!(fits_block(&corners(5, 4), 4, 5) && fits_block(&corners(4, 5), 4, 5));
    assert!(!fits_block(&corners(6, 4), 4, 5) && !fits_block(&corners(5, 5), 4, 5));
    // ... and along the hex grid's axes: (2,4) to (7,8) is 7 hexes, the far corners of a block
    // 4 along one axis and 5 along another; (8,8) is 8 hexes and fits none.
    let c = ctx(&s, Phase::Movement, 0);
    assert_eq!(hex(2, 4).distance(hex(7, 8)), 7);
    assert_eq!(c.check_army_frontage(FormationId(201), &[(FormationId(102), hex(6, 8))]), Ok(()));
    assert!(refused(c.check_army_frontage(FormationId(201), &[(FormationId(102), hex(8, 8))])));
    // The front shortened to one hex a corps: two corps of cavalry (no infantry) have a frontage
    // of 2: a block 2 × 5. Diagonally one row across: (6,5) allowed, two rows across: (6,6) refused
    // (the four infantry divisions' block of 4 × 5 holds it).
    let s = army_of_two_corps(cavalry, (3, 4));
    assert_eq!(ctx(&s, Phase::Movement, 0).army_frontage(FormationId(201)), 2);
    assert_eq!(move_corps_102(&s, (6, 5)), Ok(()));
    assert!(refused(move_corps_102(&s, (6, 6))));
    assert_eq!(move_corps_102(&army_of_two_corps(infantry, (3, 4)), (6, 6)), Ok(()));
    // Along the row the depth of 5 still holds: 4 apart allowed, 5 refused.
    assert_eq!(move_corps_102(&s, (6, 4)), Ok(()));
    assert!(refused(move_corps_102(&s, (7, 4))));
    // An army spread wider already (10 apart) may draw together (to 9), not farther apart (to 11).
    let s = army_of_two_corps(infantry, (12, 4));
    assert_eq!(move_corps_102(&s, (11, 4)), Ok(()));
    assert!(refused(move_corps_102(&s, (13, 4))));
}
