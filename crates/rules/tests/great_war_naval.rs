//! War at sea: each test names its rule IDs and shows the rule's numbers; every dice table is also
//! checked statistically, through the engine, over many seeded games.

use rules::Game;
use rules::dice::{Dice, PipRange};
use rules::strategic::hexmap::{HexMap, SeaArea, Terrain};
use rules::strategic::naval::*;
use rules::strategic::order::{Order, OrderError};
use rules::strategic::scenario::{FleetSpec, KindSpec, LaneSpec, MineSpec, Scenario, SquadronSpec};
use rules::strategic::state::{Ctx, Phase, Place};
use rules::strategic::testkit::*;
use rules::strategic::{EventKind, GreatWar};
use rules::texts::Msg;
use std::path::Path;

/// A sea of 16 × 10 with a coast in column 0 and two sea areas (west: columns 1–7, east: 8–15).
fn sea() -> HexMap {
    let mut map = HexMap::filled("sea", 16, 10, Terrain::Sea);
    for row in 0..10 {
        let c = map.cell_mut(hex(0, row)).expect("on the map");
        c.terrain = Terrain::Clear;
        c.climate = rules::strategic::hexmap::Climate::Temperate;
    }
    let mut west = Vec::new();
    let mut east = Vec::new();
    for row in 0..10 {
        for col in 1..16 {
            if col < 8 { west.push(hex(col, row)) } else { east.push(hex(col, row)) }
        }
    }
    map.sea_areas = vec![
        SeaArea { id: "west".into(), name: "West".into(), name_ru: String::new(), hexes: west.clone() },
        SeaArea { id: "east".into(), name: "East".into(), name_ru: String::new(), hexes: east.clone() },
    ];
    for (i, area) in [west, east].iter().enumerate() {
        for h in area {
            map.cell_mut(*h).expect("on the map").sea_area = i as u16 + 1;
        }
    }
    map
}

fn naval(fleets: Vec<FleetSpec>) -> Scenario {
    let mut s = scenario(sea(), vec![]);
    s.fleets = fleets;
    s
}

fn game(s: &Scenario, phase: Phase, active: u8, seed: u64) -> Ctx {
    let mut c = rules::strategic::game::new_ctx(s, seed);
    c.clock.phase = phase;
    c.clock.active = active;
    c.events.clear();
    c
}

fn afloat(c: &Ctx, fleet: u32) -> Vec<ShipType> {
    c.navy.afloat(fleet).iter().filter_map(|s| c.navy.ship(*s)).map(|s| s.kind).collect()
}

fn volleys(c: &Ctx) -> Vec<String> {
    c.events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Die { what, .. } if what == "volley"))
        .map(|e| e.text().clone())
        .collect()
}

/// Share of `n` seeded trials in which `trial` is true.
fn frequency(n: u64, mut trial: impl FnMut(u64) -> bool) -> f64 {
    (0..n).filter(|s| trial(*s)).count() as f64 / n as f64
}

fn close(measured: f64, expected: f64, what: &str) {
    // 3,000 trials: one standard deviation is at most 0.0092; allow 4.
    assert!((measured - expected).abs() < 0.037, "{what}: measured {measured:.4}, table {expected:.4}");
}

#[test]
fn s_naval_1_historical_lists_are_divided_by_4_but_battleships() {
    assert_eq!(scaled_count(ShipType::Battleship, 28), 28);
    assert_eq!(scaled_count(ShipType::Destroyer, 78), 19);
    assert_eq!(scaled_count(ShipType::LightCruiser, 26), 6);
    assert_eq!(scaled_count(ShipType::Battlecruiser, 3), 1, "fewer than 4 give 1");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/north_sea_1916.ron");
    let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let c = GreatWar::new(&s, 1).ctx();
    // The Grand Fleet: 8 battleships, 8 light cruisers → 2, 24 destroyers → 6, 4 minesweepers → 1.
    assert_eq!(c.navy.afloat(1).len(), 17);
    assert_eq!(c.navy.count(1, ShipType::Battleship), 8);
    assert_eq!(c.navy.count(1, ShipType::Destroyer), 6);
}

#[test]
fn s_naval_2_at_most_20_ships_a_fleet() {
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(ShipType::Destroyer, 12)]),
        fleet(2, "germany", (3, 3), &[(ShipType::Destroyer, 9)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    assert!(matches!(c.apply(&Order::MergeFleet { fleet: 2, into: 1 }), Err(OrderError::Naval(_))));
    let mut big = s.clone();
    big.fleets = vec![fleet(1, "germany", (3, 3), &[(ShipType::Destroyer, 21)])];
    let (units, rules) = tables();
    let f = rules::strategic::scenario::ScenarioFile {
        name: "x".into(),
        map: String::new(),
        units: String::new(),
        rules: String::new(),
        start_turn: 5,
        max_turns: 1,
        powers: big.powers.clone(),
        forces: vec![],
        corps: vec![],
        armies: vec![],
        fortifications: vec![],
        cylinders: vec![],
        aviation: None,
        fleets: big.fleets.clone(),
        squadrons: vec![],
        mines: vec![],
        sea_lanes: vec![],
        calendar: None,
        victory: None,
        names_ru: vec![],
    };
    let e = Scenario::resolve("x.ron", "", f, big.map.clone(), units, rules, aviation()).unwrap_err();
    assert!(e.message.contains("1–20"), "{e}");
}

#[test]
fn s_naval_3_s_naval_4_s_naval_5_crews_speeds_classes() {
    use ShipType::*;
    let crews = [Battleship, Battlecruiser, LightCruiser, Destroyer, Gunboat, Submarine, Asw, Minelayer, Minesweeper]
        .map(ShipType::crew);
    assert_eq!(crews, [1800, 1200, 500, 200, 100, 40, 60, 60, 60]);
    assert_eq!([Battleship, Destroyer, Submarine].map(ShipType::speed), [20, 30, 40]);
    assert_eq!(
        [Battleship, Battlecruiser, LightCruiser, Destroyer, Gunboat].map(|k| k.class().unwrap_or(0)),
        [5, 4, 3, 2, 1]
    );
    // A fleet moves at its slowest ship's speed: with a battleship, 20 hexes.
    let s = naval(vec![fleet(1, "germany", (1, 0), &[(Battleship, 1), (Destroyer, 2)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.naval_turn_start();
    assert_eq!(c.navy.fleet(1).unwrap().mp_left, 20);
    let long: Vec<_> = (0..21).map(|i| if i % 2 == 0 { hex(2, 0) } else { hex(1, 0) }).collect();
    assert!(matches!(
        c.apply(&Order::MoveFleet { fleet: 1, path: long }),
        Err(OrderError::NoMovement { need: 21, left: 20 })
    ));
}

#[test]
fn s_naval_6_s_naval_7_initiative_then_alternating_single_ship_volleys() {
    use ShipType::*;
    let s = naval(vec![fleet(1, "germany", (3, 3), &[(Destroyer, 2)]), fleet(2, "france", (3, 3), &[(Destroyer, 2)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    // Initiative 3 v 3 (tie, re-rolled), then 2 v 5: France fires first. Then every volley misses (1s).
    c.dice.script(vec![3, 3, 2, 5, 1, 1, 1, 1]);
    c.surface_battle(1, 2);
    let v = volleys(&c);
    assert!(
        v[0].contains("(France)")
            && v[1].contains("(Germany)")
            && v[2].contains("(France)")
            && v[3].contains("(Germany)"),
        "{v:#?}"
    );
    // A round ends when every ship has fired once: 4 volleys a round.
    assert!(v.len() >= 8 && v.len().is_multiple_of(4), "{}", v.len());
}

#[test]
fn s_naval_7_the_player_names_each_ships_target() {
    use ShipType::*;
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(LightCruiser, 4)]),
        fleet(2, "france", (3, 3), &[(Battleship, 1), (Destroyer, 4)]),
        fleet(3, "france", (9, 3), &[(Destroyer, 4)]),
    ]);
    let c = game(&s, Phase::Movement, 0, 1);
    let of = |fleet: u32, kind: ShipType| {
        c.navy.afloat(fleet).into_iter().find(|i| c.navy.ship(*i).is_some_and(|s| s.kind == kind)).unwrap()
    };
    let (cruiser, battleship, destroyer, elsewhere) =
        (of(1, LightCruiser), of(2, Battleship), of(2, Destroyer), of(3, Destroyer));
    let stance = |targets: Vec<(u32, u32)>| Order::FleetStance {
        fleet: 1,
        intercept: false,
        withdraw: false,
        transports_first: false,
        targets,
    };
    // Germany fires first (6 v 1); its light cruiser's first volley misses (1).
    let first_volley = |c: &mut Ctx| {
        c.dice.script(vec![6, 1, 1]);
        c.surface_battle(1, 2);
        volleys(c)[0].clone()
    };
    // Named: the cruiser (class 3) fires at the battleship (class 5) it was told to, at 6 only.
    let mut named = c.clone();
    named.apply(&stance(vec![(cruiser, battleship)])).unwrap();
    assert_eq!(named.ship_targets(1), vec![(cruiser, battleship)]);
    let v = first_volley(&mut named);
    assert!(v.starts_with("Light cruiser") && v.contains("fires at Battleship No. 1 (France) "), "{v}");
    // Names none: the engine's choice, the destroyer it is likelier to sink (d = +1: 4–6, one hit).
    for targets in [vec![], vec![(cruiser, elsewhere)]] {
        let mut c = c.clone();
        c.apply(&stance(vec![(cruiser, battleship)])).unwrap();
        c.apply(&stance(targets.clone())).unwrap();
        let v = first_volley(&mut c);
        // A target not in this battle (the destroyer of fleet 3) leaves the choice to the engine too.
        let n = c.navy.number(destroyer).expect("afloat");
        assert_eq!(n, 1, "fleet 2's destroyer is France's first; fleet 3's are 2 to 5");
        assert!(v.contains(&format!("fires at Destroyer No. {n} (France) ")), "{targets:?}: {v}");
    }
    // Refused, nothing changed: an enemy ship as the firer, an own ship as the target, a ship named
    // twice, a sunk target.
    let mut c2 = c.clone();
    for targets in
        [vec![(battleship, destroyer)], vec![(cruiser, cruiser)], vec![(cruiser, battleship), (cruiser, destroyer)]]
    {
        assert!(matches!(c2.apply(&stance(targets.clone())), Err(OrderError::Naval(_))), "{targets:?}");
    }
    c2.navy.ship_mut(battleship).unwrap().sunk = true;
    assert!(matches!(c2.apply(&stance(vec![(cruiser, battleship)])), Err(OrderError::Naval(_))));
    assert!(c2.ship_targets(1).is_empty());
}

#[test]
fn s_naval_8_hit_table_by_class_difference() {
    assert_eq!(surface_hit(-3), Some(PipRange(6, 6)), "d ≤ −2 as −1");
    assert_eq!(surface_hit(-1), Some(PipRange(6, 6)));
    assert_eq!(surface_hit(0), Some(PipRange(5, 6)));
    assert_eq!(surface_hit(1), Some(PipRange(4, 6)));
    assert_eq!(surface_hit(2), Some(PipRange(3, 6)));
    assert_eq!(surface_hit(3), Some(PipRange(2, 6)));
    assert_eq!(surface_hit(4), None, "automatic");
    // Statistically, through battles: a light cruiser (3) firing first at a lone destroyer (2), d = +1:
    // the first volley sinks it on 4–6.
    use ShipType::*;
    let s =
        naval(vec![fleet(1, "germany", (3, 3), &[(LightCruiser, 1)]), fleet(2, "france", (3, 3), &[(Destroyer, 1)])]);
    let sunk_first = frequency(3000, |seed| {
        let mut c = game(&s, Phase::Movement, 0, seed);
        c.surface_battle(1, 2);
        let v = volleys(&c);
        v.first().is_some_and(|t| t.starts_with("Light cruiser") && ["=4", "=5", "=6"].iter().any(|p| t.ends_with(p)))
            && c.navy.afloat(2).is_empty()
            && v.iter().filter(|t| t.contains("(Germany) fires")).count() >= 1
    });
    let first_is_german = frequency(3000, |seed| {
        let mut c = game(&s, Phase::Movement, 0, seed);
        c.surface_battle(1, 2);
        volleys(&c).first().is_some_and(|t| t.starts_with("Light cruiser"))
    });
    close(first_is_german, 0.5, "initiative");
    close(sunk_first, 0.5 * 0.5, "first volley sinks on 4–6");
}

#[test]
fn s_naval_9_one_hit_sinks_a_lower_class_two_for_equal_or_higher() {
    use ShipType::*;
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(Battlecruiser, 1)]),
        fleet(2, "france", (3, 3), &[(Battlecruiser, 1)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    // Germany first (6 v 1); its battlecruiser hits the French one (5–6: 6): one hit, still afloat;
    // France misses (1); the German second hit (6) sinks it: equal class needs two hits.
    c.dice.script(vec![6, 1, 6, 1, 6]);
    c.surface_battle(1, 2);
    assert_eq!(volleys(&c).len(), 3, "{:#?}", volleys(&c));
    assert!(c.navy.afloat(2).is_empty() && c.navy.afloat(1).len() == 1);
    // Hits clear after the battle.
    assert!(c.navy.ships.iter().all(|s| s.hits == 0));
    // One hit sinks a lower class: the destroyer goes down at the first hit (scripted 3–6 for d = +2).
    let s =
        naval(vec![fleet(1, "germany", (3, 3), &[(Battlecruiser, 1)]), fleet(2, "france", (3, 3), &[(Destroyer, 1)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.dice.script(vec![6, 1, 3]);
    c.surface_battle(1, 2);
    assert!(c.navy.afloat(2).is_empty());
}

#[test]
fn s_naval_10_non_combat_ships_submarines_and_withdrawal() {
    use ShipType::*;
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(Destroyer, 1)]),
        fleet(2, "france", (3, 3), &[(Gunboat, 1), (Minesweeper, 1), (Submarine, 1)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    // France first: its gunboat misses; the German destroyer hits the minesweeper (class 1: 4–6) and
    // sinks it with one hit; the minesweeper never fires; the submarine takes no part.
    c.dice.script(vec![1, 6, 1, 4]);
    c.surface_battle(1, 2);
    let v = volleys(&c);
    assert!(v.iter().all(|t| !t.contains("Minesweeper") || t.contains("fires at Minesweeper")), "{v:#?}");
    assert!(v.iter().all(|t| !t.contains("Submarine")), "{v:#?}");
    assert!(!afloat(&c, 2).contains(&Minesweeper));
    assert!(afloat(&c, 2).contains(&Submarine));
    // Withdrawal: the side that fired second withdraws after a round when weaker.
    let mut s =
        naval(vec![fleet(1, "germany", (3, 3), &[(Battleship, 2)]), fleet(2, "france", (3, 3), &[(Destroyer, 2)])]);
    s.fleets[1].withdraw = true;
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.dice.script(vec![6, 1, 1, 1, 1, 1]);
    c.surface_battle(1, 2);
    assert!(c.events.iter().any(|e| e.text().contains("withdraws after round 1")));
    assert_eq!(volleys(&c).len() + c.events.iter().filter(|e| matches!(e.kind, EventKind::Volley)).count(), 4);
}

#[test]
fn s_naval_11_transports_unescorted_are_destroyed_escorted_may_be_targeted() {
    use ShipType::*;
    let mut s =
        naval(vec![fleet(1, "germany", (1, 3), &[(Destroyer, 1)]), fleet(2, "france", (5, 3), &[(Destroyer, 1)])]);
    s.forces = vec![infantry(1, "germany", (0, 3))];
    let mut c = game(&s, Phase::Movement, 0, 1);
    let money = c.powers[0].money;
    c.apply(&Order::Embark { unit: id(1), fleet: 1 }).unwrap();
    assert_eq!(c.powers[0].money, money - 4, "the transport is paid for (house price 4)");
    assert!(matches!(c.force(id(1)).unwrap().place, Place::Embarked(_)));
    // Escorted: the transport sails with its destroyer; the enemy may fire at it.
    assert_eq!(afloat(&c, 1), vec![Destroyer, Transport]);
    // The French may fire at the escorted transport first: their first volley names it.
    let mut f = c.clone();
    f.clock.active = 1;
    f.apply(&Order::FleetStance {
        fleet: 2,
        intercept: false,
        withdraw: false,
        transports_first: true,
        targets: vec![],
    })
    .unwrap();
    f.dice.script(vec![1, 6]);
    f.surface_battle(1, 2);
    assert!(volleys(&f)[0].starts_with("Destroyer No. 1 (France) fires at Transport"), "{:#?}", volleys(&f));
    // Unescorted (the escort split off), meeting warships: destroyed with the division aboard.
    let transport = c.navy.afloat(1)[1];
    let escort = c.navy.afloat(1)[0];
    c.apply(&Order::SplitFleet { fleet: 1, ships: vec![escort], name: "escort".into() }).unwrap();
    c.surface_battle(1, 2);
    assert!(c.navy.ship(transport).unwrap().sunk);
    assert_eq!(c.force(id(1)).unwrap().place, Place::Destroyed);
}

#[test]
fn s_army_7_s_army_15_an_engaged_division_cannot_embark_out_of_contact() {
    use ShipType::*;
    let s = naval(vec![fleet(1, "germany", (1, 3), &[(Destroyer, 1)])]);
    // One hex from the enemy: engaged, so the transport is refused and nothing is paid.
    let mut engaged = s.clone();
    engaged.forces = vec![infantry(1, "germany", (0, 3)), infantry(2, "france", (0, 2))];
    let mut c = game(&engaged, Phase::Movement, 0, 1);
    let money = c.powers[0].money;
    let refused = c.apply(&Order::Embark { unit: id(1), fleet: 1 });
    assert!(matches!(refused, Err(OrderError::Engaged(_))), "S-ARMY-7/15: {refused:?}");
    assert_eq!(c.powers[0].money, money);
    // Two hexes from the enemy: free to embark.
    let mut free = s;
    free.forces = vec![infantry(1, "germany", (0, 3)), infantry(2, "france", (0, 1))];
    let mut c = game(&free, Phase::Movement, 0, 1);
    c.apply(&Order::Embark { unit: id(1), fleet: 1 }).expect("out of contact, the division embarks");
}

#[test]
fn s_naval_12_interception_within_remaining_movement() {
    use ShipType::*;
    let mut s =
        naval(vec![fleet(1, "germany", (2, 3), &[(Destroyer, 1)]), fleet(2, "france", (9, 3), &[(Destroyer, 1)])]);
    s.fleets[1].intercept = true;
    let mut c = game(&s, Phase::Movement, 0, 2);
    c.naval_turn_start();
    c.navy.fleet_mut(2).unwrap().mp_left = 4;
    // Step to (3,3): 6 hexes from the French, beyond its 4 MP; (4,3) is 5 away; (5,3) is 4: intercepted.
    c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(3, 3), hex(4, 3), hex(5, 3), hex(6, 3)] }).unwrap();
    let f = c.navy.fleet(2).unwrap();
    assert_eq!((f.at, f.mp_left), (hex(5, 3), 0), "paid 4 MP for 4 hexes");
    assert!(c.events.iter().any(|e| e.text().contains("intercepts")));
    assert_ne!(c.navy.fleet(1).unwrap().at, hex(6, 3), "the move stops at the battle");
}

#[test]
fn s_naval_13_battleships_bombard_within_3_hexes_once_per_fire_phase() {
    use ShipType::*;
    let mut s = naval(vec![fleet(1, "germany", (3, 3), &[(Battleship, 2), (Destroyer, 1)])]);
    s.forces = vec![infantry(1, "france", (0, 3))];
    let mut c = game(&s, Phase::Fire, 0, 1);
    c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) }).unwrap();
    // Two battleships: 2 damage, no Morale loss.
    let f = c.force(id(1)).unwrap();
    assert_eq!((f.vitals.health, f.vitals.morale), (1, Some(6)));
    assert!(c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) }).is_err(), "once per Fire phase");
    let s2 = naval(vec![fleet(1, "germany", (5, 3), &[(Battleship, 2)])]);
    let mut c = game(&s2, Phase::Fire, 0, 1);
    assert!(c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) }).is_err(), "5 hexes away");
}

#[test]
fn s_naval_13_bombardment_reaches_3_hexes_not_4() {
    use ShipType::*;
    for (col, reaches) in [(3, true), (4, false)] {
        let mut s = naval(vec![fleet(1, "germany", (col, 3), &[(Battleship, 1)])]);
        s.forces = vec![infantry(1, "france", (0, 3))];
        let mut c = game(&s, Phase::Fire, 0, 1);
        assert_eq!(hex(col, 3).distance(hex(0, 3)), col as u32);
        let r = c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) });
        assert_eq!(r.is_ok(), reaches, "{col} hexes: {r:?}");
        // One battleship: 1 damage (S-NAVAL-13).
        assert_eq!(c.force(id(1)).unwrap().vitals.health, if reaches { 2 } else { 3 });
    }
}

#[test]
fn s_naval_14_coastal_artillery_table() {
    use ShipType::*;
    assert_eq!(coastal_hit(Battleship), Some(PipRange(6, 6)));
    assert_eq!(coastal_hit(Battlecruiser), Some(PipRange(5, 6)));
    assert_eq!(coastal_hit(LightCruiser), Some(PipRange(4, 6)));
    assert_eq!(coastal_hit(Destroyer), Some(PipRange(3, 6)));
    assert_eq!(coastal_hit(Gunboat), Some(PipRange(2, 6)));
    assert_eq!(coastal_hit(Transport), None, "no roll");
    for (kind, expected) in [(Battleship, 1.0 / 6.0), (LightCruiser, 0.5), (Gunboat, 5.0 / 6.0), (Minelayer, 1.0)] {
        let mut s = naval(vec![fleet(1, "france", (2, 3), &[(kind, 1)])]);
        s.forces = vec![unit(1, "germany", (0, 3), KindSpec::Artillery("28 cm K L/40 Kurfürst".into()))];
        let p = frequency(3000, |seed| {
            let mut c = game(&s, Phase::Fire, 0, seed);
            c.apply(&Order::CoastalFire { unit: id(1), ship: 1 }).unwrap();
            c.navy.ship(1).unwrap().sunk
        });
        close(p, expected, &format!("coastal gun on {kind:?}"));
    }
}

#[test]
fn s_naval_15_each_submarine_on_a_lane_cuts_5_percent() {
    let mut s = naval(vec![fleet(1, "germany", (3, 3), &[(ShipType::Submarine, 4)])]);
    s.sea_lanes = vec![LaneSpec { id: "convoy".into(), area: "west".into(), owner: "france".into(), efficiency: 100 }];
    let mut c = game(&s, Phase::Movement, 0, 1);
    assert_eq!(c.lane_efficiency(0), 100);
    c.apply(&Order::Patrol { flotilla: 1, lane: 0 }).unwrap();
    assert_eq!(c.lane_efficiency(0), 80);
    c.navy.lanes[0].efficiency = 15;
    assert_eq!(c.lane_efficiency(0), 0, "never below 0 %");
}

#[test]
fn s_sub_1_without_asw_each_boat_sinks_a_ship() {
    use ShipType::*;
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(Submarine, 2)]),
        fleet(2, "france", (4, 3), &[(Battleship, 1), (Transport, 0), (Destroyer, 2)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
    assert_eq!(c.navy.afloat(2).len(), 1);
    assert_eq!(c.navy.afloat(1).len(), 2, "unharmed");
}

#[test]
fn s_sub_2_s_sub_3_s_sub_4_stealth_survival_and_torpedoes() {
    assert_eq!(stealth(5), Ok(true));
    assert_eq!(stealth(4), Err(PipRange(2, 6)));
    assert_eq!(stealth(2), Err(PipRange(3, 6)));
    assert_eq!(stealth(0), Err(PipRange(4, 6)));
    assert_eq!(stealth(-2), Err(PipRange(5, 6)));
    assert_eq!(stealth(-4), Err(PipRange(6, 6)));
    assert_eq!(stealth(-5), Ok(false));
    // S-SUB-3 with rounding half up: of 4 boats 6 → 0, 5 → 1, 3–4 → 2, 2 → 3, 1 → 4; of 3 boats ¼ → 1, ½ → 2, ¾ → 2.
    assert_eq!([6, 5, 4, 3, 2, 1].map(|p| submarines_lost(p, 4)), [0, 1, 2, 2, 3, 4]);
    assert_eq!([5, 3, 2].map(|p| submarines_lost(p, 3)), [1, 2, 2]);
    use ShipType::*;
    // Two boats against one ASW ship: s = +1, pass on 3–6 (2/3); then each sinks its ship on 3–6.
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(Submarine, 2)]),
        fleet(2, "france", (4, 3), &[(Asw, 1), (LightCruiser, 3)]),
    ]);
    let mut passed = 0u32;
    let mut sunk = 0u32;
    let mut boats_lost = 0u32;
    for seed in 0..3000 {
        let mut c = game(&s, Phase::Movement, 0, seed);
        c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
        let pass = c.events.iter().any(|e| e.text().contains("torpedo") || e.text().contains("attacks"));
        if pass {
            passed += 1;
            sunk += 4 - c.navy.afloat(2).len() as u32;
        } else {
            boats_lost += 2 - c.navy.afloat(1).len() as u32;
        }
    }
    close(f64::from(passed) / 3000.0, 4.0 / 6.0, "stealth +1 passes on 3–6");
    close(f64::from(sunk) / f64::from(2 * passed), 4.0 / 6.0, "torpedo sinks on 3–6");
    // Of 2 boats: 6 → 0, 5 → ¼·2 = 0.5 → 1, 3–4 → 1, 2 → 1.5 → 2, 1 → 2: mean (0 + 1 + 2 + 2 + 2)/6 = 7/6.
    let fails = 3000 - passed;
    close(f64::from(boats_lost) / f64::from(fails) / 2.0, 7.0 / 12.0, "survival table");
}

#[test]
fn s_sub_5_submarine_duels() {
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(ShipType::Submarine, 2)]),
        fleet(2, "france", (3, 4), &[(ShipType::Submarine, 2)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    // Pair 1: 5 v 2 — the attacker's boat sinks the other; pair 2: 3 v 3 — no effect.
    c.dice.script(vec![5, 2, 3, 3]);
    c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
    assert_eq!((c.navy.afloat(1).len(), c.navy.afloat(2).len()), (2, 1));
}

#[test]
fn s_sub_6_asw_ships_need_aviation_to_attack_submarines() {
    let s = naval(vec![
        fleet(1, "germany", (3, 3), &[(ShipType::Asw, 2)]),
        fleet(2, "france", (3, 4), &[(ShipType::Submarine, 2)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    assert!(
        matches!(c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }), Err(OrderError::Naval(m)) if m.english().contains("S-SUB-6"))
    );
}

#[test]
fn s_mine_1_one_mine_a_turn_at_most_3_an_area() {
    let s = naval(vec![fleet(1, "germany", (3, 3), &[(ShipType::Minelayer, 2)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.apply(&Order::LayMine { fleet: 1 }).unwrap();
    assert_eq!(c.navy.mines[0].mines, 2, "two minelayers, one mine each");
    assert!(c.apply(&Order::LayMine { fleet: 1 }).is_err(), "once a turn");
    c.naval_turn_start();
    c.apply(&Order::LayMine { fleet: 1 }).unwrap();
    assert_eq!(c.navy.mines[0].mines, 3, "capped at 3");
    c.naval_turn_start();
    assert!(c.apply(&Order::LayMine { fleet: 1 }).is_err());
}

#[test]
fn s_mine_2_s_mine_3_half_the_fleet_on_1_2_1_3_1_4() {
    assert_eq!(mine_loss(1), Some(PipRange(1, 2)));
    assert_eq!(mine_loss(2), Some(PipRange(1, 3)));
    assert_eq!(mine_loss(3), Some(PipRange(1, 4)));
    for (mines, expected) in [(1u8, 1.0 / 3.0), (2, 0.5), (3, 2.0 / 3.0)] {
        let mut s = naval(vec![fleet(1, "france", (7, 3), &[(ShipType::Destroyer, 5)])]);
        s.mines = vec![MineSpec { area: "east".into(), power: "germany".into(), mines }];
        let mut lost_ships = std::collections::BTreeMap::new();
        let p = frequency(3000, |seed| {
            let mut c = game(&s, Phase::Movement, 1, seed);
            c.naval_turn_start();
            c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(8, 3)] }).unwrap();
            let left = c.navy.afloat(1).len();
            for sh in c.navy.ships.iter().filter(|s| s.sunk) {
                *lost_ships.entry(sh.id).or_insert(0u32) += 1;
            }
            // 50 % of 5 ships, rounded half up: 3 lost.
            assert!(left == 5 || left == 2, "{left}");
            left == 2
        });
        close(p, expected, &format!("{mines} mine(s)"));
        if mines == 3 {
            // S-MINE-3: the seeded lot takes each ship about equally often (3 of 5 per loss).
            let losses: f64 = lost_ships.values().map(|v| f64::from(*v)).sum::<f64>() / 5.0;
            for (ship, n) in &lost_ships {
                assert!((f64::from(*n) - losses).abs() < 0.12 * losses, "ship {ship}: {n} vs {losses}");
            }
        }
    }
}

#[test]
fn s_mine_4_sweepers_pass_and_clear_a_mine_per_2_points() {
    let mut s = naval(vec![fleet(1, "france", (7, 3), &[(ShipType::Destroyer, 5), (ShipType::Minesweeper, 1)])]);
    s.mines = vec![MineSpec { area: "east".into(), power: "germany".into(), mines: 3 }];
    let mut c = game(&s, Phase::Movement, 1, 1);
    c.naval_turn_start();
    c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(8, 3)] }).unwrap();
    assert_eq!(c.navy.afloat(1).len(), 6, "no test with a sweeper");
    // Sweeping is an order; without it nothing is cleared.
    c.sweep_mines();
    assert_eq!(c.navy.mines[0].mines, 3);
    c.apply(&Order::Sweep { fleet: 1 }).unwrap();
    // One sweeper: a mine every 2 turns.
    c.sweep_mines();
    assert_eq!(c.navy.mines[0].mines, 3);
    c.sweep_mines();
    assert_eq!(c.navy.mines[0].mines, 2);
    // Two sweepers: a mine a turn.
    c.navy.ships.push(Ship {
        id: 99,
        power: c.navy.fleet(1).unwrap().power,
        kind: ShipType::Minesweeper,
        fleet: 1,
        hits: 0,
        sunk: false,
        cargo: None,
        air_cargo: None,
        aim: None,
    });
    c.sweep_mines();
    assert_eq!(c.navy.mines[0].mines, 1);
}

#[test]
fn s_air_1_reconnaissance_exposes_submarines_to_asw_ships() {
    let mut s = naval(vec![
        fleet(1, "germany", (3, 3), &[(ShipType::Submarine, 1)]),
        fleet(2, "france", (5, 3), &[(ShipType::Asw, 6)]),
    ]);
    s.squadrons = vec![SquadronSpec {
        id: 1,
        power: "france".into(),
        kind: "Reconnaissance squadron".into(),
        base: hex(0, 3),
        name: None,
    }];
    // 1 boat − 6 ASW = −5: automatic fail; then the survival roll: 1 → the boat is lost.
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.dice.script(vec![1]);
    c.apply(&Order::Reconnaissance { squadron: 1 }).unwrap();
    assert!(c.navy.afloat(1).is_empty());
    // With 6 survival the boat lives; a second flight in the same turn is refused.
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.dice.script(vec![6]);
    c.apply(&Order::Reconnaissance { squadron: 1 }).unwrap();
    assert_eq!(c.navy.afloat(1).len(), 1);
    assert!(c.apply(&Order::Reconnaissance { squadron: 1 }).is_err());
}

#[test]
fn s_air_2_s_air_3_bombers_summed_against_one_ship_then_survival() {
    assert_eq!(bomb_hit(-1), None, "no attack when the class exceeds the bombing value");
    assert_eq!(bomb_hit(0), Some(Some(PipRange(5, 6))));
    assert_eq!(bomb_hit(2), Some(Some(PipRange(3, 6))));
    assert_eq!(bomb_hit(4), Some(None), "automatic");
    assert_eq!([6, 5, 4, 3, 2, 1].map(|p| aircraft_lost(p, 8)), [0, 0, 2, 4, 4, 6]);
    assert_eq!(aircraft_lost(4, 6), 2, "¼ of 6 = 1.5 → 2");
    let mut s = naval(vec![fleet(1, "germany", (3, 3), &[(ShipType::LightCruiser, 1), (ShipType::Minelayer, 1)])]);
    s.squadrons = vec![
        SquadronSpec {
            id: 1,
            power: "france".into(),
            kind: "Light bomber squadron".into(),
            base: hex(0, 3),
            name: None,
        },
        SquadronSpec {
            id: 2,
            power: "france".into(),
            kind: "Heavy bomber squadron".into(),
            base: hex(0, 4),
            name: None,
        },
    ];
    let mut c = game(&s, Phase::Fire, 1, 1);
    // Light bombers alone (1) cannot attack a light cruiser (3).
    assert!(matches!(c.apply(&Order::Bomb { squadrons: vec![1], ship: 1 }), Err(OrderError::Naval(_))));
    // Together 1 + 2 = 3 = class 3: d = 0, hit on 5–6 (statistically, one trial per seed).
    let p = frequency(3000, |seed| {
        let mut c = game(&s, Phase::Fire, 1, seed);
        c.apply(&Order::Bomb { squadrons: vec![1, 2], ship: 1 }).unwrap();
        c.navy.ship(1).unwrap().sunk
    });
    close(p, 1.0 / 3.0, "bombing 3 v class 3");
    // The minelayer counts as class 1: light bombers alone, d = 0 → 5–6; then survival rolls (S-AIR-3).
    c.dice.script(vec![5, 1]);
    c.apply(&Order::Bomb { squadrons: vec![1], ship: 2 }).unwrap();
    assert!(c.navy.ship(2).unwrap().sunk);
    assert_eq!(c.navy.squadrons[0].aircraft, 12 - 9, "¾ of 12 lost on a 1");
}

#[test]
fn every_naval_table_matches_its_probabilities_over_many_rolls() {
    // Pure tables against the seeded stream: 60,000 rolls each, within 0.012 (≥ 6 standard deviations).
    let mut dice = Dice::seeded(77);
    let rolls: Vec<u8> = (0..60_000).map(|_| dice.d6()).collect();
    let rate = |hit: &dyn Fn(u8) -> bool| rolls.iter().filter(|p| hit(**p)).count() as f64 / rolls.len() as f64;
    for d in -1..=3 {
        let r = surface_hit(d).unwrap();
        assert!((rate(&|p| r.contains(p)) - r.chance()).abs() < 0.012, "S-NAVAL-8 d={d}");
    }
    for s in [-4, -2, 0, 2, 4] {
        let r = stealth(s).unwrap_err();
        assert!((rate(&|p| r.contains(p)) - r.chance()).abs() < 0.012, "S-SUB-2 s={s}");
    }
    for m in 1..=3 {
        let r = mine_loss(m).unwrap();
        assert!((rate(&|p| r.contains(p)) - r.chance()).abs() < 0.012, "S-MINE-2 {m}");
    }
    // S-SUB-3 and S-AIR-3 means over the stream: boats 4 → (0+1+2+2+3+4)/6 = 2; aircraft 8 → (0+0+2+4+4+6)/6 = 8/3.
    let mean = |f: &dyn Fn(u8) -> u32| rolls.iter().map(|p| f64::from(f(*p))).sum::<f64>() / rolls.len() as f64;
    assert!((mean(&|p| submarines_lost(p, 4)) - 2.0).abs() < 0.03);
    assert!((mean(&|p| aircraft_lost(p, 8)) - 8.0 / 3.0).abs() < 0.04);
}

#[test]
fn naval_preview_gives_exact_odds_two_light_cruisers_firing_first_at_a_battlecruiser() {
    use ShipType::*;
    // Interception: the French battlecruiser is intercepted by two German light cruisers; the preview of
    // the French move enumerates every die of the battle.
    let mut s = naval(vec![
        fleet(1, "germany", (5, 3), &[(LightCruiser, 2)]),
        fleet(2, "france", (2, 3), &[(Battlecruiser, 1)]),
    ]);
    s.fleets[0].intercept = true;
    let mut c = game(&s, Phase::Movement, 1, 1);
    c.naval_turn_start();
    let order = Order::MoveFleet { fleet: 2, path: vec![hex(3, 3)] };
    let preview = c.preview(&order).unwrap();
    let total: f64 = preview.outcomes.iter().map(|o| o.chance).sum::<f64>() + preview.unexplored;
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let bc_sunk: f64 = preview
        .outcomes
        .iter()
        .filter(|o| o.effects.iter().any(|l| l.english().contains("Battlecruiser") && l.english().contains("sunk")))
        .map(|o| o.chance)
        .sum();
    assert!(bc_sunk > 0.05 && bc_sunk < 0.95, "{preview:#?}");
    // The same chance measured by playing the order with many seeds.
    let measured = frequency(3000, |seed| {
        let mut g = game(&s, Phase::Movement, 1, seed);
        g.naval_turn_start();
        g.apply(&order).unwrap();
        g.navy.afloat(2).is_empty()
    });
    close(measured, bc_sunk, "battlecruiser sunk");
    assert!(preview.unexplored < 1e-9, "{}", preview.unexplored);
}

#[test]
fn the_north_sea_plays_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war");
    let s = Scenario::load(&dir.join("north_sea_1916.ron")).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(dir.join("north_sea_1916_orders.ron")).unwrap_or_default();
    let orders: Vec<Order> = rules::data::parse_ron("orders", &text).unwrap_or_else(|e| panic!("{e}"));
    let mut g = GreatWar::new(&s, 3);
    for o in orders {
        g.apply(o.clone()).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
    let again = GreatWar::replay(&g.save()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.hash(), g.hash());
}

#[test]
fn s_naval_11_air_squadrons_ride_transports_too() {
    use ShipType::*;
    let mut s =
        naval(vec![fleet(1, "germany", (1, 3), &[(Destroyer, 1)]), fleet(2, "france", (5, 3), &[(Destroyer, 1)])]);
    s.squadrons = vec![SquadronSpec {
        id: 7,
        power: "germany".into(),
        kind: "Heavy bomber squadron".into(),
        base: hex(0, 3),
        name: None,
    }];
    let mut c = game(&s, Phase::Movement, 0, 1);
    let money = c.powers[0].money;
    c.apply(&Order::EmbarkSquadron { squadron: 7, fleet: 1 }).unwrap();
    assert_eq!(c.powers[0].money, money - 4);
    assert_eq!(afloat(&c, 1), vec![Destroyer, Transport]);
    // Aboard it cannot fly; landed, it has a new base.
    let mut f = c.clone();
    f.clock.phase = Phase::Fire;
    assert!(f.apply(&Order::Bomb { squadrons: vec![7], ship: 2 }).is_err());
    let mut l = c.clone();
    l.naval_turn_start();
    l.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(1, 4)] }).unwrap();
    l.apply(&Order::LandSquadron { squadron: 7, base: hex(0, 4) }).unwrap();
    assert_eq!(l.navy.squadrons[0].base, hex(0, 4));
    // Sunk with its transport, the squadron is lost.
    let transport = c.navy.afloat(1)[1];
    let at = c.navy.fleet(1).map(|f| f.at).expect("afloat");
    c.sink(transport, Msg::plain("test"));
    assert_eq!(c.navy.squadrons[0].aircraft, 0);
    // The sinking is an event of its own kind, with where the ship went down.
    let sunk = c.events.iter().rev().find_map(|e| match e.kind {
        rules::strategic::EventKind::Sunk { ship, at } => Some((ship, at)),
        _ => None,
    });
    assert_eq!(sunk, Some((transport, at)));
}

/// S-AIR-1 at the radius edge: a French reconnaissance squadron (radius 8, aviation data) based at
/// (0,3) finds a German boat at (3,3); French ASW ship 8 hexes from the base hunts it, one 9 hexes away
/// does not: with no ASW ship in the radius the boat is unharmed, no die is thrown.
#[test]
fn s_air_1_no_asw_ship_in_radius_leaves_submarines_unharmed() {
    let radius = aviation().get("Reconnaissance squadron").map(|a| a.radius).unwrap();
    assert_eq!(radius, 8);
    let base = hex(0, 3);
    let at_distance = |d: u32| (1..16).map(|c| hex(c, 3)).find(|h| h.distance(base) == d).unwrap();
    let setup = |asw_at: rules::strategic::hexmap::HexAt| {
        let mut s = naval(vec![
            fleet(1, "germany", (3, 3), &[(ShipType::Submarine, 1)]),
            fleet(2, "france", (asw_at.col, asw_at.row), &[(ShipType::Asw, 1)]),
        ]);
        s.squadrons = vec![SquadronSpec {
            id: 1,
            power: "france".into(),
            kind: "Reconnaissance squadron".into(),
            base,
            name: None,
        }];
        s
    };
    let dice_thrown = |c: &Ctx| c.events.iter().filter(|e| matches!(e.kind, EventKind::Die { .. })).count();
    // Distance 8 (the edge): 1 boat − 1 ASW = 0, passes on 4–6; a 1 fails, survival 1 loses the boat.
    let s = setup(at_distance(radius));
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.dice.script(vec![1, 1]);
    c.apply(&Order::Reconnaissance { squadron: 1 }).unwrap();
    assert!(c.navy.afloat(1).is_empty(), "S-AIR-1: ASW ship at distance {radius} hunts");
    assert_eq!(dice_thrown(&c), 2);
    // Distance 9 (one step outside): no test, no survival roll; the boat is unharmed (S-AIR-1, S-SUB-1).
    let s = setup(at_distance(radius + 1));
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.dice.script(vec![1, 1]);
    c.apply(&Order::Reconnaissance { squadron: 1 }).unwrap();
    assert_eq!(afloat(&c, 1), vec![ShipType::Submarine], "S-AIR-1: no ASW ship within {radius}: unharmed");
    assert_eq!(dice_thrown(&c), 0);
    assert!(c.events.iter().any(|e| e.text().contains("unharmed (S-AIR-1)")));
}

/// The sea map with five one-hex port provinces on the coast (column 0): German (row 1), Austrian
/// (row 3, Germany's ally), French (row 5), Dutch (row 7, neutral: no power of the game) and French
/// (row 9, to be occupied).
fn ports() -> Scenario {
    use rules::strategic::hexmap::{City, Province, flag};
    let mut map = sea();
    for (i, (row, owner)) in
        [(1, "germany"), (3, "austria"), (5, "france"), (7, "netherlands"), (9, "france")].into_iter().enumerate()
    {
        map.provinces.push(Province {
            id: format!("p{row}"),
            name: format!("Province {row}"),
            name_ru: String::new(),
            owner: owner.into(),
            capital: format!("c{row}"),
            gdp: 0,
            manpower: [0, 0],
        });
        map.cities.push(City {
            id: format!("c{row}"),
            name: format!("Port {row}"),
            name_ru: String::new(),
            province: format!("p{row}"),
            hexes: vec![hex(0, row)],
            port: true,
            fortress: false,
        });
        let c = map.cell_mut(hex(0, row)).expect("on the map");
        c.flags |= flag::CITY | flag::PORT;
        c.province = i as u16 + 1;
        c.city = i as u16 + 1;
    }
    let mut s = scenario(map, vec![]);
    let mut austria = s.powers[0].clone();
    austria.id = "austria".into();
    austria.name = "Austria-Hungary".into();
    s.powers.push(austria);
    s
}

/// S-CITY-2: a fleet enters its own and allied ports, and a port its side occupies; an enemy port
/// (its sovereign's too while the enemy occupies it) and a neutral port are refused with a typed error.
#[test]
fn s_city_2_only_own_or_allied_ports_serve_a_fleet() {
    let base = ports();
    let enemy = |id: &str, name: &str| Msg::new("gwe.naval.port_enemy").name("power", format!("gw.power.{id}"), name);
    // A German (or French) destroyer on the sea hex (1, row), next to the port (0, row).
    let try_enter = |row: i32, power: &str, active: u8, occupied_by: Option<u8>| {
        assert!(hex(1, row).is_adjacent(hex(0, row)));
        let mut s = base.clone();
        s.fleets = vec![fleet(1, power, (1, row), &[(ShipType::Destroyer, 1)])];
        let mut c = game(&s, Phase::Movement, active, 1);
        c.naval_turn_start();
        if let Some(p) = occupied_by {
            c.provinces[4].occupier = Some(rules::strategic::PowerId(p));
        }
        let r = c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(0, row)] });
        (r, c.navy.fleet(1).unwrap().at)
    };
    assert_eq!(try_enter(1, "germany", 0, None), (Ok(()), hex(0, 1)), "S-CITY-2: own port");
    assert_eq!(try_enter(3, "germany", 0, None), (Ok(()), hex(0, 3)), "S-CITY-2: allied port");
    assert_eq!(
        try_enter(5, "germany", 0, None),
        (Err(OrderError::PortClosed { at: hex(0, 5), holder: enemy("france", "France") }), hex(1, 5)),
        "S-CITY-2: enemy port"
    );
    assert_eq!(
        try_enter(7, "germany", 0, None),
        (Err(OrderError::PortClosed { at: hex(0, 7), holder: Msg::new("gwe.naval.port_neutral") }), hex(1, 7)),
        "S-CITY-2: neutral port"
    );
    // The French port of row 9 occupied by Germany serves the occupier, not the sovereign.
    assert_eq!(try_enter(9, "france", 1, None), (Ok(()), hex(0, 9)), "S-CITY-2: own port before occupation");
    assert_eq!(try_enter(9, "germany", 0, Some(0)), (Ok(()), hex(0, 9)), "S-CITY-2: the occupier may use its port");
    assert_eq!(
        try_enter(9, "france", 1, Some(0)),
        (Err(OrderError::PortClosed { at: hex(0, 9), holder: enemy("germany", "Germany") }), hex(1, 9)),
        "S-CITY-2: an occupied port is closed to its sovereign"
    );
    // Passing through a closed port on a longer path is refused too; the fleet does not move.
    let mut s = base.clone();
    s.fleets = vec![fleet(1, "germany", (1, 5), &[(ShipType::Destroyer, 1)])];
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.naval_turn_start();
    let through = c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(0, 5), hex(1, 5)] });
    assert!(matches!(through, Err(OrderError::PortClosed { .. })), "{through:?}");
}

/// House value moved to data: a surface battle stops after `naval.max_battle_rounds` rounds (30 in
/// assets/data/great_war_rules.ron; S-NAVAL-10 resolution). Two destroyers a side that always miss
/// (1s; d = 0 hits on 5–6) fire 4 volleys a round: 2 rounds → 8 volleys, 3 rounds → 12.
#[test]
fn s_naval_10_house_round_limit_read_from_the_data_file() {
    use ShipType::*;
    assert_eq!(tables().1.naval.max_battle_rounds, 30);
    for rounds in [2, 3] {
        let mut s =
            naval(vec![fleet(1, "germany", (3, 3), &[(Destroyer, 2)]), fleet(2, "france", (3, 3), &[(Destroyer, 2)])]);
        s.rules.naval.max_battle_rounds = rounds;
        let mut c = game(&s, Phase::Movement, 0, 1);
        let mut script = vec![2, 5];
        script.extend(std::iter::repeat_n(1, 200));
        c.dice.script(script);
        c.surface_battle(1, 2);
        assert_eq!(volleys(&c).len(), 4 * rounds as usize, "{rounds} rounds of 4 volleys, then a tie");
        assert_eq!(c.navy.afloat(1).len() + c.navy.afloat(2).len(), 4);
    }
}

/// The rules data file refuses a missing house value, an unknown field and a zero round limit.
#[test]
fn great_war_rules_file_refuses_missing_unknown_and_zero_naval_fields() {
    use rules::strategic::tables::RulesTables;
    let text = include_str!("../../../assets/data/great_war_rules.ron");
    let path = "great_war_rules.ron";
    assert!(RulesTables::parse(path, text).is_ok());
    let line = "    max_battle_rounds: 30,\n";
    assert!(text.contains(line));
    let missing = text.replace(line, "");
    assert!(RulesTables::parse(path, &missing).is_err(), "missing naval.max_battle_rounds");
    let unknown = text.replace(line, "    max_battle_rounds: 30,\n    max_battle_round: 30,\n");
    assert!(RulesTables::parse(path, &unknown).is_err(), "unknown field in the naval block");
    let zero = text.replace(line, "    max_battle_rounds: 0,\n");
    assert!(RulesTables::parse(path, &zero).is_err(), "a battle of 0 rounds");
}

/// S-SUP-3 at sea: every cost is 1 in assets/data/great_war_rules.ron (house values).
#[test]
fn s_sup_3_ammunition_house_values_are_read_from_the_data_file() {
    let a = tables().1.ammunition;
    assert_eq!([a.fleet_battle, a.bombardment, a.submarine_attack, a.bombing, a.price], [1, 1, 1, 1, 1]);
    assert_eq!(tables().1.economy.ammo_per_action, 1);
}

/// S-SUP-3: a fleet without ammunition attacked in a surface battle is destroyed; with 1 left it
/// draws it and fights; with none on either side no shot is fired.
#[test]
fn s_sup_3_fleets_without_ammunition_are_destroyed_when_attacked() {
    use ShipType::*;
    let s = naval(vec![fleet(1, "germany", (3, 3), &[(Destroyer, 2)]), fleet(2, "france", (3, 3), &[(Destroyer, 2)])]);
    let battle = |german: i64, french: i64| {
        let mut c = game(&s, Phase::Movement, 0, 1);
        c.powers[0].ammo = german;
        c.powers[1].ammo = french;
        c.surface_battle(1, 2);
        c
    };
    // French stock 0: the French fleet is destroyed without a volley; Germany spends its 1.
    let c = battle(1, 0);
    assert!(c.navy.afloat(2).is_empty(), "S-SUP-3: attacked without ammunition");
    assert_eq!((afloat(&c, 1).len(), volleys(&c).len()), (2, 0));
    assert_eq!([c.powers[0].ammo, c.powers[1].ammo], [0, 0]);
    // French stock 1: both draw 1 and fight.
    let c = battle(1, 1);
    assert!(!volleys(&c).is_empty(), "S-SUP-3: with 1 ammunition the fleet fights");
    assert_eq!([c.powers[0].ammo, c.powers[1].ammo], [0, 0]);
    // Germany 0, France 1: the German fleet is destroyed.
    let c = battle(0, 1);
    assert!(c.navy.afloat(1).is_empty());
    assert_eq!(afloat(&c, 2).len(), 2);
    // Neither has ammunition: no shot, no loss.
    let c = battle(0, 0);
    assert_eq!((afloat(&c, 1).len(), afloat(&c, 2).len(), volleys(&c).len()), (2, 2, 0));
}

/// S-SUP-3: bombardment, a submarine attack, bombing and coastal guns need ammunition: with 0 left
/// the order is refused with a typed error; with 1 left it is carried out and the stock is 0.
#[test]
fn s_sup_3_fleets_aviation_and_artillery_cannot_attack_without_ammunition() {
    use ShipType::*;
    let refused = |need: i64, left: i64| move |r: Result<(), OrderError>| matches!(r, Err(OrderError::NoAmmunition { need: n, left: l, .. }) if n == need && l == left);
    // Bombardment (S-NAVAL-13).
    let mut s = naval(vec![fleet(1, "germany", (3, 3), &[(Battleship, 1)])]);
    s.forces = vec![infantry(1, "france", (0, 3))];
    let mut c = game(&s, Phase::Fire, 0, 1);
    c.powers[0].ammo = 0;
    assert!(refused(1, 0)(c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) })), "S-SUP-3: bombardment at 0");
    c.powers[0].ammo = 1;
    c.apply(&Order::Bombard { fleet: 1, target: hex(0, 3) }).unwrap();
    assert_eq!(c.powers[0].ammo, 0);
    // A submarine attack (S-SUB-1).
    let s = naval(vec![fleet(1, "germany", (3, 3), &[(Submarine, 1)]), fleet(2, "france", (4, 3), &[(Destroyer, 1)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.powers[0].ammo = 0;
    assert!(refused(1, 0)(c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 })), "S-SUP-3: boats at 0");
    c.powers[0].ammo = 1;
    c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
    assert_eq!((c.powers[0].ammo, c.navy.afloat(2).len()), (0, 0));
    // Bombing (S-AIR-2): 1 a squadron; two squadrons need 2.
    let mut s = naval(vec![fleet(1, "germany", (3, 3), &[(Minelayer, 1), (Gunboat, 1)])]);
    s.squadrons = [1, 2]
        .map(|id| SquadronSpec {
            id,
            power: "france".into(),
            kind: "Heavy bomber squadron".into(),
            base: hex(0, 3),
            name: None,
        })
        .to_vec();
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.powers[1].ammo = 0;
    assert!(refused(1, 0)(c.apply(&Order::Bomb { squadrons: vec![1], ship: 1 })), "S-SUP-3: aviation at 0");
    c.powers[1].ammo = 1;
    assert!(refused(2, 1)(c.apply(&Order::Bomb { squadrons: vec![1, 2], ship: 1 })), "two squadrons need 2");
    c.apply(&Order::Bomb { squadrons: vec![1], ship: 1 }).unwrap();
    assert_eq!(c.powers[1].ammo, 0);
    // Coastal heavy artillery (S-NAVAL-14).
    let mut s = naval(vec![fleet(1, "france", (2, 3), &[(Minelayer, 1)])]);
    s.forces = vec![unit(1, "germany", (0, 3), KindSpec::Artillery("28 cm K L/40 Kurfürst".into()))];
    let mut c = game(&s, Phase::Fire, 0, 1);
    c.powers[0].ammo = 0;
    assert!(refused(1, 0)(c.apply(&Order::CoastalFire { unit: id(1), ship: 1 })), "S-SUP-3: artillery at 0");
    c.powers[0].ammo = 1;
    c.apply(&Order::CoastalFire { unit: id(1), ship: 1 }).unwrap();
    assert_eq!((c.powers[0].ammo, c.navy.ship(1).unwrap().sunk), (0, true));
    // Land artillery (S-ART-2) spends economy.ammo_per_action a division: 0 refused, 1 fires.
    let s = scenario(
        HexMap::filled("land", 8, 4, Terrain::Clear),
        vec![
            unit(1, "france", (1, 1), KindSpec::Artillery("Canon de 155 mle 81".into())),
            infantry(2, "germany", (3, 1)),
        ],
    );
    let mut c = game(&s, Phase::Fire, 1, 1);
    c.powers[1].ammo = 0;
    assert!(refused(1, 0)(c.apply(&Order::Fire { unit: id(1), target: hex(3, 1), gas: false })));
    c.powers[1].ammo = 1;
    c.apply(&Order::Fire { unit: id(1), target: hex(3, 1), gas: false }).unwrap();
    assert_eq!(c.powers[1].ammo, 0);
}

/// S-SUP-3: a tank battalion that attacks with 0 ammunition in its power's stock is destroyed; with
/// 1 it draws it and fights.
#[test]
fn s_sup_3_tanks_without_ammunition_are_destroyed_with_one_they_fight() {
    let s = scenario(
        HexMap::filled("land", 8, 6, Terrain::Clear),
        vec![unit(3, "germany", (4, 4), KindSpec::Tank("A7V".into())), infantry(4, "france", (5, 4))],
    );
    for (stock, destroyed) in [(0, true), (1, false)] {
        let mut c = game(&s, Phase::Combat, 0, 1);
        c.force_mut(id(3)).unwrap().activity.moved = true;
        c.powers[0].ammo = stock;
        c.combat_engagements();
        let by_ammo = c.events.iter().any(|e| e.text().contains("without ammunition is attacked (S-SUP-3)"));
        assert_eq!(by_ammo, destroyed, "S-SUP-3: tank, stock {stock}");
        if destroyed {
            assert_eq!(c.force(id(3)).unwrap().place, Place::Destroyed);
        }
        assert_eq!(c.powers[0].ammo, 0);
    }
}

#[test]
fn s_sup_3_heavy_artillery_without_ammunition_is_destroyed_when_its_hex_fights() {
    // A German gun shares a hex with an infantry division; a French division attacks that hex.
    let s = scenario(
        HexMap::filled("land", 8, 6, Terrain::Clear),
        vec![
            unit(3, "germany", (4, 4), KindSpec::Artillery("15 cm sFH 13".into())),
            infantry(5, "germany", (4, 4)),
            infantry(4, "france", (5, 4)),
        ],
    );
    // The division draws its 1 first: the gun is left without at stocks 0 and 1, not at 2.
    for (stock, destroyed) in [(0, true), (1, true), (2, false)] {
        let mut c = game(&s, Phase::Combat, 1, 1);
        c.force_mut(id(4)).unwrap().activity.moved = true;
        c.powers[0].ammo = stock;
        c.combat_engagements();
        let by_ammo = c.events.iter().any(|e| e.text().contains("heavy artillery without ammunition is attacked"));
        assert_eq!(by_ammo, destroyed, "S-SUP-3: heavy artillery, stock {stock}");
        assert_eq!(c.force(id(3)).unwrap().place == Place::Destroyed, destroyed, "S-SUP-3: stock {stock}");
    }
}

#[test]
fn s_sup_3_heavy_artillery_without_ammunition_is_destroyed_when_fired_on() {
    let s = scenario(
        HexMap::filled("land", 8, 6, Terrain::Clear),
        vec![unit(3, "germany", (4, 4), KindSpec::Artillery("15 cm sFH 13".into())), infantry(5, "germany", (4, 4))],
    );
    for (stock, destroyed) in [(0, true), (1, false)] {
        let mut c = game(&s, Phase::Fire, 1, 1);
        c.powers[0].ammo = stock;
        c.hex_damage(hex(4, 4), 1, 1);
        assert_eq!(c.force(id(3)).unwrap().place == Place::Destroyed, destroyed, "S-SUP-3: stock {stock}");
        assert_eq!(c.force(id(5)).unwrap().place, Place::Map(hex(4, 4)), "the division is only hit");
    }
}

/// S-SUP-1 resupply: ammunition is bought at `ammunition.price` (1) each, in any phase; short of
/// money, or buying none, is refused.
#[test]
fn s_sup_1_ammunition_is_bought_for_money() {
    let s = naval(vec![]);
    let mut c = game(&s, Phase::Fire, 0, 1);
    c.powers[0].money = 5;
    c.powers[0].ammo = 0;
    c.apply(&Order::BuyAmmunition { amount: 4 }).unwrap();
    assert_eq!((c.powers[0].money, c.powers[0].ammo), (1, 4));
    c.apply(&Order::BuyAmmunition { amount: 1 }).unwrap();
    assert_eq!((c.powers[0].money, c.powers[0].ammo), (0, 5), "money exactly the price");
    assert!(matches!(c.apply(&Order::BuyAmmunition { amount: 1 }), Err(OrderError::Economy(_))), "money 0");
    assert!(matches!(c.apply(&Order::BuyAmmunition { amount: 0 }), Err(OrderError::Economy(_))));
    c.powers[0].money = i64::MAX;
    c.apply(&Order::BuyAmmunition { amount: u32::MAX }).unwrap();
    assert_eq!(c.powers[0].ammo, 5 + i64::from(u32::MAX));
}

/// The ammunition block refuses a missing or unknown field and a price of 0.
#[test]
fn great_war_rules_file_refuses_missing_unknown_and_zero_ammunition_fields() {
    use rules::strategic::tables::RulesTables;
    let text = include_str!("../../../assets/data/great_war_rules.ron");
    let path = "great_war_rules.ron";
    let line = "    bombing: 1, // per bomber squadron and attack (S-AIR-2)\n";
    assert!(text.contains(line));
    assert!(RulesTables::parse(path, &text.replace(line, "")).is_err(), "missing ammunition.bombing");
    assert!(RulesTables::parse(path, &text.replace(line, "    bombing: 1,\n    bombs: 1,\n")).is_err(), "unknown");
    let price = "    price: 1, //";
    assert!(text.contains(price));
    assert!(RulesTables::parse(path, &text.replace(price, "    price: 0, //")).is_err(), "price 0");
}

/// The dice of the submarine duels in the log, pair by pair: (attacker's pips, defender's pips).
fn duel_dice(c: &Ctx) -> Vec<(u8, u8)> {
    let pips: Vec<u8> = c
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Die { what, pips } if what == "submarine duel" => Some(*pips),
            _ => None,
        })
        .collect();
    pips.chunks(2).map(|p| (p[0], p[1])).collect()
}

/// S-SUB-5 with its house rule on detection: a German flotilla at (7,3) in the West lies next to a
/// French one at (8,3) in the East, but in another sea area it has not found it: the duel is
/// refused with the typed reason, no die is thrown, no ammunition spent. Sailing to (9,3) in the
/// East it detects the French boats (a `Sighted` event, which the game will not let a player take
/// back) and the French detect it; the duel is then given: two pairs, each both roll, the higher
/// sinks the other, a tie does nothing (5 v 2: the French boat sinks; 4 v 4: no effect).
#[test]
fn s_sub_5_a_flotilla_duels_only_enemy_boats_its_side_has_detected_in_its_sea_area() {
    let s = naval(vec![
        fleet(1, "germany", (7, 3), &[(ShipType::Submarine, 2)]),
        fleet(2, "france", (8, 3), &[(ShipType::Submarine, 2)]),
        fleet(3, "france", (6, 3), &[(ShipType::Destroyer, 1)]),
    ]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    c.naval_turn_start();
    let (germany, france) = (rules::strategic::PowerId(0), rules::strategic::PowerId(1));
    assert_eq!(hex(7, 3).distance(hex(8, 3)), 1);
    assert_eq!(c.detection(germany, 2), None, "another sea area: not found");
    assert_eq!(c.detection(france, 1), None, "a French surface fleet in the West finds no boat");
    let ammo = c.powers[0].ammo;
    let refused = c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 });
    assert!(matches!(&refused, Err(OrderError::Undetected { target }) if target == "france fleet 2"), "{refused:?}");
    assert!(refused.unwrap_err().to_string().contains("(S-SUB-5, S-AIR-1)"));
    assert_eq!((c.powers[0].ammo, c.dice.thrown()), (ammo, 0));
    c.apply(&Order::MoveFleet { fleet: 1, path: vec![hex(8, 3), hex(9, 3)] }).unwrap();
    assert_eq!(c.detection(germany, 2), Some(Detection::SameSeaArea(1)));
    assert_eq!(c.detection(france, 1), Some(Detection::SameSeaArea(2)), "both ways");
    let sighted: Vec<&rules::strategic::Event> =
        c.events.iter().filter(|e| matches!(e.kind, EventKind::Sighted { flotilla: 2, by } if by == germany)).collect();
    assert_eq!(sighted.len(), 1);
    assert!(sighted[0].text().contains("detects france fleet 2 in the East (S-SUB-5, house rule)"));
    assert!(<GreatWar as rules::Game>::reveals(sighted[0]), "a sighting cannot be taken back");
    c.events.clear();
    c.dice.script(vec![5, 2, 4, 4]);
    c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
    assert_eq!(duel_dice(&c), vec![(5, 2), (4, 4)]);
    assert_eq!((c.navy.afloat(1).len(), c.navy.afloat(2).len()), (2, 1), "one French boat sunk, the tie spares both");
    assert_eq!(c.powers[0].ammo, ammo - 1);
    // The other way round, the defender's higher roll sinks the attacker's boat (2 v 6).
    c.dice.script(vec![2, 6]);
    c.apply(&Order::SubmarineAttack { flotilla: 1, target: 2 }).unwrap();
    assert_eq!((c.navy.afloat(1).len(), c.navy.afloat(2).len()), (1, 1), "one pair left: the German boat sinks");
}

/// S-AIR-1: a French reconnaissance squadron (radius 8) based at (0,3) flies in the Fire phase; the
/// German flotilla 8 hexes off is found (a `Sighted` event) and stays found through Combat and
/// Upkeep, the one 9 hexes off is not; with no French ASW ship near no die is thrown. In the next
/// turn's Preparation the flight is last turn's, and from its Movement phase the squadron may fly
/// again: the boats are hidden again.
#[test]
fn s_air_1_reconnaissance_finds_the_submarines_in_its_radius_for_the_rest_of_the_turn() {
    let radius = aviation().get("Reconnaissance squadron").map(|a| a.radius).unwrap();
    let base = hex(0, 3);
    let at = |d: u32| (1..16).map(|c| hex(c, 3)).find(|h| h.distance(base) == d).unwrap();
    let (edge, outside) = (at(radius), at(radius + 1));
    let mut s = naval(vec![
        fleet(1, "germany", (edge.col, edge.row), &[(ShipType::Submarine, 1)]),
        fleet(2, "germany", (outside.col, outside.row), &[(ShipType::Submarine, 1)]),
    ]);
    s.squadrons =
        vec![SquadronSpec { id: 1, power: "france".into(), kind: "Reconnaissance squadron".into(), base, name: None }];
    let france = rules::strategic::PowerId(1);
    let mut c = game(&s, Phase::Fire, 1, 1);
    assert_eq!((c.detection(france, 1), c.detection(france, 2)), (None, None), "before the flight");
    c.apply(&Order::Reconnaissance { squadron: 1 }).unwrap();
    assert_eq!(c.dice.thrown(), 0, "no ASW ship: nothing to roll");
    assert_eq!(c.detection(france, 1), Some(Detection::Reconnaissance(1)), "at {radius} hexes: found");
    assert_eq!(c.detection(france, 2), None, "at {} hexes: not found", radius + 1);
    let sighted: Vec<u32> = c
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Sighted { flotilla, by } if by == france => Some(flotilla),
            _ => None,
        })
        .collect();
    assert_eq!(sighted, vec![1]);
    for phase in [Phase::Combat, Phase::Upkeep] {
        c.clock.phase = phase;
        assert!(c.detects(france, 1), "still found in {phase:?}");
    }
    c.clock.phase = Phase::Preparation;
    assert!(!c.detects(france, 1), "the next turn: last turn's flight");
    c.clock.phase = Phase::Movement;
    c.naval_turn_start();
    assert!(!c.detects(france, 1) && !c.navy.squadrons[0].flew);
}

/// The navy's lines are words of the string tables: a surface battle reads in Russian, with the
/// ship's type and power translated, and nothing in it is plain text.
#[test]
fn naval_lines_are_keyed_and_read_in_russian() {
    use ShipType::*;
    let s = naval(vec![fleet(1, "germany", (3, 3), &[(Battleship, 1)]), fleet(2, "france", (3, 3), &[(Destroyer, 1)])]);
    let mut c = game(&s, Phase::Movement, 0, 1);
    // Germany wins the initiative (6 against 1) and hits on 6 (class 5 − 2 = 3 hits on 2–6).
    c.dice.script(vec![6, 1, 6]);
    c.surface_battle(1, 2);
    assert!(c.events.iter().all(|e| !e.line.has_plain()), "{:#?}", c.events);
    let english: Vec<String> = c.events.iter().map(|e| e.text()).collect();
    assert!(english.iter().any(|l| l.starts_with("Destroyer No. 1 (France) sunk: hit (S-NAVAL-9)")), "{english:#?}");
    let ru = rules::texts::Texts::russian();
    let russian: Vec<String> = c.events.iter().map(|e| ru.render(&e.line)).collect();
    assert!(
        russian.iter().any(|l| l == "Потоплен корабль: Эсминец № 1 (Франция) — попадание (S-NAVAL-9)"),
        "{russian:#?}"
    );
}

#[test]
fn s_naval_7_orders_of_earlier_versions_load_and_the_targets_round_trip() {
    // A stance written before ships were named keeps loading, with no target named.
    let old: Vec<Order> = rules::data::parse_ron(
        "orders",
        "[FleetStance(fleet: 1, intercept: true, withdraw: false), FleetStance(fleet: 2, intercept: false, withdraw: true, transports_first: true)]",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(old.iter().all(|o| matches!(o, Order::FleetStance { targets, .. } if targets.is_empty())));
    // Written without targets, a stance reads as before (so saves keep their text); with them, it
    // reads back the same.
    let none =
        Order::FleetStance { fleet: 1, intercept: true, withdraw: false, transports_first: false, targets: vec![] };
    assert!(!rules::data::to_ron(&none).contains("targets"), "{}", rules::data::to_ron(&none));
    let named = Order::FleetStance {
        fleet: 1,
        intercept: true,
        withdraw: false,
        transports_first: false,
        targets: vec![(3, 9)],
    };
    for o in [none, named] {
        let back: Order = rules::data::parse_ron("order", &rules::data::to_ron(&o)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, o);
    }
}
