//! Great War rules of issue 25 ("every rule as the Russian originals say it"): the attacker's free
//! withdrawal, upkeep surcharges, occupation, rivers, the price of restoring, committed reserves,
//! organisational moves, neutrals, and the limits at their edges. Each test names its rule IDs and
//! shows the rule's numbers on both sides of every threshold.

use rules::strategic::apply::PhaseSchedule;
use rules::strategic::campaign::Entry;
use rules::strategic::combat::Ratio;
use rules::strategic::hexmap::{Climate, HexMap, Terrain};
use rules::strategic::order::{Order, OrderError, Piece};
use rules::strategic::scenario::{ArmySpec, CorpsSpec, ForceSpec, KindSpec, Scenario};
use rules::strategic::state::{Ctx, FormationId, Phase, Place, PowerId};
use rules::strategic::tables::Model;
use rules::strategic::testkit::*;
use rules::texts::Msg;

fn clear(w: u32, h: u32) -> HexMap {
    HexMap::filled("test", w, h, Terrain::Clear)
}

fn mv(c: &mut Ctx, unit: u32, path: &[(i32, i32)]) -> Result<(), OrderError> {
    c.apply(&Order::Move { piece: Piece::Unit(id(unit)), path: path.iter().map(|p| hex(p.0, p.1)).collect() })
}

fn row(row: i32, cols: impl Iterator<Item = i32>) -> Vec<rules::strategic::hexmap::HexAt> {
    cols.map(|c| hex(c, row)).collect()
}

fn morale(c: &Ctx, n: u32) -> Option<i32> {
    c.force(id(n)).and_then(|f| f.vitals.morale)
}

fn value(c: &Ctx, unit: u32, enemies: &[u32]) -> Ratio {
    let e: Vec<_> = enemies.iter().map(|n| id(*n)).collect();
    c.value_terms(id(unit), &e).map(|t| t.value).unwrap_or(Ratio::ZERO)
}

/// Plays the rest of the turn (Combat, Upkeep) and opens the next turn's Movement phase for power 0.
fn next_turn_movement(c: &mut Ctx) {
    c.clock.phase = Phase::Combat;
    run_phase(c, PhaseSchedule::Combat);
    c.clock.phase = Phase::Upkeep;
    run_phase(c, PhaseSchedule::Upkeep);
    c.clock.phase = Phase::Movement;
    c.clock.active = 0;
}

fn retreat(c: &mut Ctx, piece: Piece, path: Vec<rules::strategic::hexmap::HexAt>) -> Result<(), OrderError> {
    c.apply(&Order::Retreat { moves: vec![(piece, path)] })
}

#[test]
fn s_army_15_the_attacker_withdraws_to_its_start_freely_after_the_battle() {
    let s = scenario(clear(16, 6), vec![infantry(1, "germany", (2, 2)), infantry(2, "france", (5, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 1, &[(3, 2), (4, 2)]).unwrap();
    // The battle of this turn: 25 against 30, D 5, stubborn fighting (S-COMBAT-8).
    next_turn_movement(&mut c);
    assert!(c.next_to_enemy(PowerId(0), hex(4, 2)), "still in contact");
    let before = morale(&c, 1);
    // The next turn the attacker goes back to (2,2), where it began the turn of its attack: no
    // −1 Morale (before this fix the return was free only in the turn of the attack itself).
    retreat(&mut c, Piece::Unit(id(1)), row(2, [3, 2].into_iter())).unwrap();
    assert_eq!(morale(&c, 1), before, "S-ARMY-15: without penalty");
    assert_eq!(c.force(id(1)).unwrap().place, Place::Map(hex(2, 2)));
}

#[test]
fn s_army_15_an_attacker_going_elsewhere_pays_and_its_artillery_is_lost() {
    let mut s = scenario(
        clear(16, 6),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (2, 3)),
            ForceSpec { at: None, ..unit(3, "germany", (1, 2), KindSpec::Artillery("15 cm sFH 13".into())) },
            infantry(8, "france", (5, 2)),
            infantry(9, "france", (5, 2)),
        ],
    );
    // Two French divisions standing (60) hold two German ones attacking (50): D 5, stubborn fighting.
    s.corps = vec![
        CorpsSpec { id: 100, name: "C".into(), units: vec![1, 2], attached: vec![3] },
        CorpsSpec { id: 300, name: "F".into(), units: vec![8, 9], attached: vec![] },
    ];
    let mut c = ctx(&s, Phase::Movement, 0);
    let corps = Piece::Corps(FormationId(100));
    c.apply(&Order::Move { piece: corps, path: row(2, 3..=4) }).unwrap();
    next_turn_movement(&mut c);
    let before = morale(&c, 1).unwrap();
    // Back, but to (1,3), not to (2,2): a retreat like any other (S-ARMY-15).
    retreat(&mut c, corps, vec![hex(3, 2), hex(2, 3), hex(1, 3)]).unwrap();
    assert_eq!(morale(&c, 1), Some(before - 1));
    assert_eq!(c.force(id(3)).unwrap().place, Place::Destroyed, "artillery lost");
}

#[test]
fn s_army_15_a_defender_retreats_10_hexes_not_11() {
    let s = scenario(clear(16, 6), vec![infantry(1, "germany", (13, 2)), infantry(2, "france", (14, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    // RETREAT_HEXES = 10: 11 hexes back is refused, 10 is allowed and costs 1 Morale.
    assert_eq!(rules::strategic::army::RETREAT_HEXES, 10);
    let eleven = row(2, (2..=12).rev());
    assert_eq!(eleven.len(), 11);
    assert!(matches!(retreat(&mut c, Piece::Unit(id(1)), eleven), Err(OrderError::Retreat(_))));
    let ten = row(2, (3..=12).rev());
    retreat(&mut c, Piece::Unit(id(1)), ten).unwrap();
    assert_eq!(c.force(id(1)).unwrap().place, Place::Map(hex(3, 2)));
    assert_eq!(morale(&c, 1), Some(5));
}

#[test]
fn s_army_15_cavalry_returns_to_its_start_12_hexes_back_a_retreat_elsewhere_stops_at_10() {
    let cav = KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false };
    let s = scenario(clear(20, 6), vec![unit(1, "germany", (1, 2), cav), infantry(2, "france", (14, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    mv(&mut c, 1, &row(2, 2..=13).iter().map(|h| (h.col, h.row)).collect::<Vec<_>>()).unwrap();
    next_turn_movement(&mut c);
    let before = morale(&c, 1);
    // 11 hexes towards the start but not onto it: a retreat, refused beyond 10.
    assert!(matches!(retreat(&mut c, Piece::Unit(id(1)), row(2, (2..=12).rev())), Err(OrderError::Retreat(_))));
    // All 12 back to (1,2), where the attack began: free.
    retreat(&mut c, Piece::Unit(id(1)), row(2, (1..=12).rev())).unwrap();
    assert_eq!(morale(&c, 1), before);
}

fn upkeep_paid(s: &Scenario) -> i64 {
    let mut c = ctx(s, Phase::Upkeep, 0);
    let money = c.powers[0].money;
    c.pay_upkeep();
    money - c.powers[0].money
}

#[test]
fn s_sup_4_surcharges_10_and_25_percent_are_paid_not_rounded_away() {
    let divisions = |n: u32| (1..=n).map(|k| infantry(k, "germany", ((2 * k) as i32, 2))).collect::<Vec<_>>();
    // Independent (+25 %): one division 2 × 1.25 = 2.5 → 3 (rounded down it was 2, the surcharge
    // lost); two: 5.
    assert_eq!(upkeep_paid(&scenario(clear(20, 6), divisions(1))), 3);
    assert_eq!(upkeep_paid(&scenario(clear(20, 6), divisions(2))), 5);
    // A corps outside an army (+10 %): 2 divisions 4 × 1.1 = 4.4 → 5; 4 divisions 8 × 1.1 = 8.8 → 9.
    let corps = |n: u32| {
        let mut s = scenario(clear(20, 6), (1..=n).map(|k| infantry(k, "germany", (2, 2))).collect());
        s.corps = vec![CorpsSpec { id: 100, name: "C".into(), units: (1..=n).collect(), attached: vec![] }];
        s
    };
    assert_eq!(upkeep_paid(&corps(2)), 5);
    assert_eq!(upkeep_paid(&corps(4)), 9);
    // In an army: no surcharge, 4 divisions 8.
    let mut s =
        scenario(clear(20, 6), (1..=4).map(|k| infantry(k, "germany", (2, 2 * ((k as i32 + 1) / 2)))).collect());
    s.corps = vec![
        CorpsSpec { id: 100, name: "C1".into(), units: vec![1, 2], attached: vec![] },
        CorpsSpec { id: 101, name: "C2".into(), units: vec![3, 4], attached: vec![] },
    ];
    s.armies = vec![ArmySpec { id: 200, name: "A".into(), corps: vec![100, 101], reserves: vec![], attached: vec![] }];
    assert_eq!(upkeep_paid(&s), 8);
}

fn province_map() -> HexMap {
    let text = r#"GreatWarMap(name: "c", width: 12, height: 6,
      provinces: [(id: "p", name: "P", owner: "france", capital: "town", gdp: 20, manpower: (3, 4))],
      cities: [(id: "town", name: "Town", province: "p", hexes: [(5, 2)])])"#;
    let mut map = HexMap::parse("c.ron", text).unwrap_or_else(|e| panic!("{e}"));
    // The province: columns 3 to 8 of every row.
    for r in 0..6 {
        for col in 3..=8 {
            if let Some(cell) = map.cell_mut(hex(col, r)) {
                cell.province = 1;
            }
        }
    }
    map
}

#[test]
fn s_city_3_occupation_ends_when_the_occupier_leaves_the_province_not_its_capital() {
    let s = scenario(province_map(), vec![infantry(1, "germany", (5, 2))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.occupation();
    assert_eq!(c.provinces[0].occupier, Some(PowerId(0)));
    // Out of the capital but still in the province (column 8, its last): the occupation holds.
    c.force_mut(id(1)).unwrap().place = Place::Map(hex(8, 4));
    c.rebuild_occupancy();
    c.occupation();
    assert_eq!(c.provinces[0].occupier, Some(PowerId(0)), "S-CITY-3: its troops have not left the province");
    // One hex further (column 9) it has left the province: France regains it.
    c.force_mut(id(1)).unwrap().place = Place::Map(hex(9, 4));
    c.rebuild_occupancy();
    c.occupation();
    assert_eq!(c.provinces[0].occupier, None);
}

#[test]
fn s_terr_2_a_river_crossing_costs_2_mp_in_all() {
    let mut map = clear(14, 6);
    // A river on the east side of (5,2), no bridge.
    map.set_river(hex(5, 2), 0, false);
    map.cell_mut(hex(6, 4)).unwrap().terrain = Terrain::Forest;
    map.set_river(hex(5, 4), 0, false);
    let s = scenario(map, vec![infantry(1, "germany", (1, 2))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    let k = c.force(id(1)).unwrap().kind;
    // «тратят на преодоление реки … 2 очка движения»: 2 MP in all onto clear ground (not 1 + 2),
    // as a mountain hex costs 3 in all; onto a forest hex across a river 2 + 1 (house).
    assert_eq!(c.step_cost(k, hex(5, 2), hex(6, 2)), Some(2));
    assert_eq!(c.step_cost(k, hex(5, 4), hex(6, 4)), Some(3));
    // Infantry's 10 MP: 9 hexes with the crossing cost exactly 10 (8 × 1 + 2); one more is 11.
    let path: Vec<(i32, i32)> = (2..=10).map(|col| (col, 2)).collect();
    assert_eq!(
        mv(&mut c.clone(), 1, &[path.clone(), vec![(11, 2)]].concat()),
        Err(OrderError::NoMovement { need: 11, left: 10 })
    );
    mv(&mut c, 1, &path).unwrap();
    assert_eq!(c.force(id(1)).unwrap().activity.mp_left, 0);
}

fn dispersed(kind: KindSpec) -> Scenario {
    let text = r#"GreatWarMap(name: "c", width: 10, height: 6,
      provinces: [(id: "p", name: "P", owner: "france", capital: "town", gdp: 20, manpower: (3, 4))],
      cities: [(id: "town", name: "Town", province: "p", hexes: [(5, 2), (6, 2)])])"#;
    let map = HexMap::parse("c.ron", text).unwrap_or_else(|e| panic!("{e}"));
    scenario(map, vec![unit(1, "france", (2, 2), kind)])
}

/// Money and manpower (class 1, class 2) a restoring of unit 1 with `class` took.
fn restore_cost(kind: KindSpec, class: u8) -> (i64, [u32; 2]) {
    let s = dispersed(kind);
    let mut c = ctx(&s, Phase::Movement, 1);
    c.disperse(id(1), Msg::plain("test"));
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    c.apply(&Order::Restore { unit: id(1), class }).unwrap_or_else(|e| panic!("{e}"));
    (money - c.powers[1].money, [men[0] - c.powers[1].manpower[0], men[1] - c.powers[1].manpower[1]])
}

#[test]
fn s_loss_1_restoring_costs_half_the_units_own_price() {
    let inf = |mountain, elite| KindSpec::Infantry { model: Model::M1914, class: 1, mountain, elite, colonial: None };
    // A division: 20 and 10 manpower → 10 and 5.
    assert_eq!(restore_cost(inf(false, false), 1), (10, [5, 0]));
    // Mountain troops 20 + 5 = 25 → 12; elite 20 + 10 = 30 → 15 (before: 10 for either).
    assert_eq!(restore_cost(inf(true, false), 1), (12, [5, 0]));
    assert_eq!(restore_cost(inf(false, true), 1), (15, [5, 0]));
    // An elite division brought back with class-2 manpower is a regular class-2 one: its price.
    assert_eq!(restore_cost(inf(false, true), 2), (10, [0, 5]));
    // Cavalry 15 and 6 manpower → 7 and 3 (before: 10 and 5).
    let cav = KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false };
    assert_eq!(restore_cost(cav, 1), (7, [3, 0]));
    // A tank battalion 15 and 2 → 7 and 1.
    assert_eq!(restore_cost(KindSpec::Tank("Renault FT17".into()), 2), (7, [0, 1]));
}

#[test]
fn s_loss_2_repairing_costs_the_units_own_price_times_lost_over_full() {
    let cav = KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false };
    let s = dispersed(cav);
    let mut c = ctx(&s, Phase::Movement, 1);
    // Cavalry, Health 2 (MD-S2), 1 lost: 15 × 1/2 = 7 and 6 × 1/2 = 3 (before: 20 × 1/2 = 10, 5).
    c.force_mut(id(1)).unwrap().vitals.health = 1;
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    c.apply(&Order::Repair { unit: id(1) }).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (money - 7, [men[0], men[1] - 3]));
    // An elite division, Health 3, 2 lost: (20 + 10) × 2/3 = 20 and 10 × 2/3 = 6.
    let elite = KindSpec::Infantry { model: Model::M1914, class: 1, mountain: false, elite: true, colonial: None };
    let s = dispersed(elite);
    let mut c = ctx(&s, Phase::Movement, 1);
    c.force_mut(id(1)).unwrap().vitals.health = 1;
    let (money, men) = (c.powers[1].money, c.powers[1].manpower);
    c.apply(&Order::Repair { unit: id(1) }).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (money - 20, [men[0], men[1] - 6]));
}

fn army_with_reserve() -> Scenario {
    let mut s = scenario(
        clear(16, 10),
        vec![
            infantry(1, "germany", (4, 4)),
            infantry(2, "germany", (4, 4)),
            infantry(3, "germany", (4, 6)),
            infantry(4, "germany", (4, 6)),
            ForceSpec { at: None, ..infantry(5, "germany", (0, 0)) },
            ForceSpec { at: None, ..infantry(6, "germany", (0, 0)) },
            infantry(10, "france", (6, 4)),
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
        reserves: vec![5, 6],
        attached: vec![],
    }];
    s
}

#[test]
fn s_army_8_a_reserve_committed_to_its_armys_fight_stays_in_the_army() {
    let s = army_with_reserve();
    let mut c = ctx(&s, Phase::Movement, 0);
    // (5,4): next to the army's (4,4) and to the French at (6,4): it joins the fight at once.
    c.apply(&Order::CommitReserve { unit: id(5), to: hex(5, 4) }).unwrap();
    assert_eq!(value(&c, 5, &[10]), Ratio::new(25, 1), "S-ARMY-8/9: it counts Attack");
    let f = c.force(id(5)).unwrap();
    assert_eq!(f.member.army, Some(FormationId(201)), "S-ARMY-8: it stays in its army");
    // So it takes the army's orders (S-ARMY-3) and is paid as the army's (S-SUP-4: no surcharge).
    assert!(matches!(mv(&mut c, 5, &[(5, 3)]), Err(OrderError::TakesOrdersFromFormation(_))));
    let status = c.rotation_status();
    assert_eq!(status.iter().find(|r| r.unit == id(5)).map(|r| r.period), Some(4), "S-SUP-6: an army's period");
    // It can join one of its army's corps, which takes it into the corps.
    c.apply(&Order::JoinCorps { unit: id(5), corps: FormationId(101) }).unwrap();
    assert_eq!(c.force(id(5)).unwrap().member.corps, Some(FormationId(101)));
    // A reserve placed away from the enemy to move on by the normal rules leaves the army.
    c.apply(&Order::CommitReserve { unit: id(6), to: hex(3, 6) }).unwrap();
    assert_eq!(c.force(id(6)).unwrap().member.army, None);
    mv(&mut c, 6, &[(2, 6)]).unwrap();
}

#[test]
fn s_army_7_s_army_8_an_army_retreats_with_its_committed_reserve() {
    let mut s = army_with_reserve();
    // Both corps engaged: a French division at (4,5) between them.
    s.forces.push(infantry(11, "france", (4, 5)));
    let mut c = ctx(&s, Phase::Movement, 0);
    c.apply(&Order::CommitReserve { unit: id(5), to: hex(5, 4) }).unwrap();
    let corps = |n| Piece::Corps(FormationId(n));
    let without = vec![(corps(101), row(4, (1..=3).rev())), (corps(102), row(6, (1..=3).rev()))];
    assert!(matches!(c.apply(&Order::Retreat { moves: without.clone() }), Err(OrderError::Retreat(_))));
    let mut all = without;
    all.push((Piece::Unit(id(5)), vec![hex(5, 3), hex(5, 2)]));
    c.apply(&Order::Retreat { moves: all }).unwrap();
    assert_eq!(c.force(id(5)).unwrap().place, Place::Map(hex(5, 2)));
}

#[test]
fn s_combat_2_organisational_one_hex_moves_count_as_moving() {
    let s = scenario(
        clear(12, 8),
        vec![
            infantry(1, "germany", (2, 2)),
            infantry(2, "germany", (3, 2)),
            infantry(3, "germany", (2, 5)),
            infantry(4, "germany", (2, 5)),
            infantry(5, "germany", (3, 4)),
            infantry(9, "france", (4, 2)),
            infantry(8, "france", (4, 5)),
        ],
    );
    let mut c = ctx(&s, Phase::Movement, 0);
    // FormCorps gathers the corps on (3,2), next to the French at (4,2): unit 1 stepped onto it and
    // counts Attack 25; unit 2 stood on it and counts Defense 30.
    c.apply(&Order::FormCorps { name: "I".into(), units: vec![id(2), id(1)] }).unwrap();
    assert_eq!(c.force(id(1)).unwrap().place, Place::Map(hex(3, 2)));
    assert_eq!((value(&c, 1, &[9]), value(&c, 2, &[9])), (Ratio::new(25, 1), Ratio::new(30, 1)));
    // JoinCorps: unit 5 steps from (3,4) onto corps II's (2,5); the corps' own divisions stay.
    c.apply(&Order::FormCorps { name: "II".into(), units: vec![id(3), id(4)] }).unwrap();
    let ii = c.force(id(3)).unwrap().member.corps.unwrap();
    c.apply(&Order::JoinCorps { unit: id(5), corps: ii }).unwrap();
    assert!(c.force(id(5)).unwrap().activity.moved, "JoinCorps");
    assert!(!c.force(id(3)).unwrap().activity.moved, "the corps' own divisions did not move");
    // Detach steps a division onto the hex next to it, (3,5), next to the French at (4,5): it
    // moved and attacks, Attack 25 (standing it would count Defense 30).
    assert_eq!(value(&c, 4, &[8]), Ratio::new(30, 1));
    c.apply(&Order::Detach { piece: Piece::Unit(id(4)), to: Some(hex(3, 5)) }).unwrap();
    assert!(c.force(id(4)).unwrap().activity.moved, "Detach");
    assert_eq!(value(&c, 4, &[8]), Ratio::new(25, 1));
}

#[test]
fn s_combat_2_forming_a_battery_moves_the_guns_that_step() {
    let gun = |n, at| unit(n, "germany", at, KindSpec::Artillery("15 cm sFH 13".into()));
    let s = scenario(clear(10, 6), vec![gun(1, (2, 2)), gun(2, (3, 2)), gun(3, (2, 3))]);
    let mut c = ctx(&s, Phase::Movement, 0);
    c.apply(&Order::FormBattery { units: [id(1), id(2), id(3)] }).unwrap();
    let moved = |n: u32| c.force(id(n)).unwrap().activity.moved;
    assert_eq!((moved(1), moved(2), moved(3)), (false, true, true));
}

fn with_neutral(map: HexMap, forces: Vec<ForceSpec>) -> Scenario {
    let mut s = scenario(map, forces);
    let mut italy = s.powers[1].clone();
    italy.id = "italy".into();
    italy.name = "Italy".into();
    italy.alliance = 0;
    italy.entry = Some(Entry { turn: Some(10), when_invaded: false });
    s.powers.push(italy);
    s
}

#[test]
fn s_sup_5_troops_of_a_power_not_at_war_take_no_climate_attrition() {
    let mut map = clear(10, 6);
    for col in [2, 4] {
        let c = map.cell_mut(hex(col, 2)).unwrap();
        c.terrain = Terrain::Mountains;
        c.climate = Climate::Mountain;
    }
    let s = with_neutral(map, vec![infantry(1, "italy", (2, 2)), infantry(2, "france", (4, 2))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    assert!(c.powers[2].neutral);
    // House rule: neutral Italy's division in the mountains keeps its Health; France's at war
    // loses 1 (S-SUP-5: only mountain troops are spared in mountains).
    assert_eq!(c.climate_casualties(), vec![id(2)]);
    c.climate_attrition();
    assert_eq!([1, 2].map(|n| c.force(id(n)).unwrap().vitals.health), [3, 2]);
    // At war, Italy's division pays too.
    c.powers[2].neutral = false;
    assert_eq!(c.climate_casualties(), vec![id(1), id(2)]);
}

#[test]
fn s_sup_2_troops_of_a_power_not_at_war_lose_no_morale_without_money() {
    let s = with_neutral(clear(10, 6), vec![infantry(1, "italy", (2, 2)), infantry(2, "france", (6, 2))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    for p in 0..3 {
        c.powers[p].money = 0;
    }
    // House rule: neutral Italy cannot pay its division (2 × 1.25 = 3) and it keeps its Morale 6;
    // France at war cannot pay either, and its division loses 1 (S-SUP-2).
    c.pay_upkeep();
    assert_eq!([1, 2].map(|n| morale(&c, n)), [Some(6), Some(5)]);
    assert!(!c.force(id(1)).unwrap().supply.money, "unpaid all the same");
    // At war, Italy's unpaid division loses 1 too.
    c.powers[2].neutral = false;
    c.pay_upkeep();
    assert_eq!([1, 2].map(|n| morale(&c, n)), [Some(5), Some(4)]);
}

#[test]
fn s_sup_6_s_combat_11_a_neutral_is_no_enemy_for_the_front_line_or_the_encirclement_walk() {
    let text = r#"GreatWarMap(name: "c", width: 14, height: 10,
      provinces: [(id: "p", name: "P", owner: "germany", capital: "town", gdp: 20, manpower: (3, 4))],
      cities: [(id: "town", name: "Town", province: "p", hexes: [(1, 1)])])"#;
    let map = HexMap::parse("c.ron", text).unwrap_or_else(|e| panic!("{e}"));
    let centre = hex(8, 5);
    let mut forces = vec![infantry(1, "germany", (8, 5))];
    for (k, n) in centre.neighbours().into_iter().enumerate() {
        forces.push(infantry(10 + k as u32, "italy", (n.col, n.row)));
    }
    let s = with_neutral(map, forces);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    // Ringed by neutral Italy's divisions: not on the front line (S-SUP-6, S-COMBAT-1), not
    // encircled (S-COMBAT-11), while Italy is not at war.
    let front = |c: &Ctx| c.rotation_status().iter().find(|r| r.unit == id(1)).map(|r| r.on_front);
    assert_eq!(front(&c), Some(false));
    assert!(c.encircled_groups().is_empty());
    // Once Italy is at war, the same ring is the enemy's.
    c.powers[2].neutral = false;
    assert_eq!(front(&c), Some(true));
    assert_eq!(c.encircled_groups(), vec![vec![centre]]);
}

#[test]
fn s_sup_6_an_army_division_loses_morale_from_the_5th_turn_not_the_4th() {
    let s = army_with_reserve();
    let mut c = ctx(&s, Phase::Upkeep, 0);
    let mut lost = Vec::new();
    for _ in 0..5 {
        let m = morale(&c, 1).unwrap();
        c.rotation();
        lost.push(m - morale(&c, 1).unwrap());
    }
    // «подчинённых армиям – до 4»: turns 1–4 on the front line cost nothing, the 5th costs 1.
    assert_eq!(lost, vec![0, 0, 0, 0, 1]);
}

#[test]
fn s_army_2_a_corps_of_4_divisions_not_5_and_joining_a_corps_of_3_not_4() {
    let centre = hex(4, 4);
    let mut forces = vec![infantry(1, "germany", (4, 4))];
    for (k, n) in centre.neighbours().into_iter().enumerate() {
        forces.push(infantry(2 + k as u32, "germany", (n.col, n.row)));
    }
    let s = scenario(clear(12, 8), forces);
    let mut c = ctx(&s, Phase::Movement, 0);
    // «от двух до четырёх сухопутных юнитов»: 5 are refused, 4 form a corps.
    let five: Vec<_> = (1..=5).map(id).collect();
    assert!(matches!(c.apply(&Order::FormCorps { name: "x".into(), units: five }), Err(OrderError::Organization(_))));
    c.apply(&Order::FormCorps { name: "I".into(), units: (1..=3).map(id).collect() }).unwrap();
    let corps = c.force(id(1)).unwrap().member.corps.unwrap();
    // A corps of 3 takes a 4th; a corps of 4 takes no 5th.
    c.apply(&Order::JoinCorps { unit: id(4), corps }).unwrap();
    assert_eq!(c.formation(corps).unwrap().units.len(), 4);
    assert!(matches!(c.apply(&Order::JoinCorps { unit: id(5), corps }), Err(OrderError::Organization(_))));
}

#[test]
fn s_army_2_an_army_of_2_to_4_corps_not_1_or_5() {
    let mut s =
        scenario(clear(16, 8), (1..=10).map(|k| infantry(k, "germany", ((k as i32 - 1) / 2 * 2 + 1, 3))).collect());
    s.corps = (0..5)
        .map(|k| CorpsSpec { id: 100 + k, name: format!("C{k}"), units: vec![2 * k + 1, 2 * k + 2], attached: vec![] })
        .collect();
    let mut c = ctx(&s, Phase::Movement, 0);
    let ids = |n: u32| (0..n).map(|k| FormationId(100 + k)).collect::<Vec<_>>();
    for n in [1, 5] {
        assert!(
            matches!(c.apply(&Order::FormArmy { name: "A".into(), corps: ids(n) }), Err(OrderError::Organization(_))),
            "{n} corps"
        );
    }
    c.apply(&Order::FormArmy { name: "A".into(), corps: ids(4) }).unwrap();
    let mut c = ctx(&s, Phase::Movement, 0);
    c.apply(&Order::FormArmy { name: "A".into(), corps: ids(2) }).unwrap();
}
