//! The rest of a Great War game (issue 12): income, purchases, research, neutrals, devastation,
//! uprisings, peace, surrender, victory points and the calendar. Each test names its rule IDs (or
//! the house rule of `great_war_rules.ron` / the scenario's blocks) and shows the exact numbers on
//! both sides of each threshold.

use rules::Game;
use rules::strategic::GreatWar;
use rules::strategic::campaign::{Calendar, Date, Entry, Outcome, Victory};
use rules::strategic::economy::{PurchaseError, Recruit};
use rules::strategic::game::SaveGame;
use rules::strategic::hexmap::HexMap;
use rules::strategic::naval::ShipType;
use rules::strategic::order::{Order, OrderError};
use rules::strategic::scenario::{Arrival, KindSpec, Scenario};
use rules::strategic::state::{Ctx, ForceKind, Phase, Place, PowerId, Tech};
use rules::strategic::tables::Model;
use rules::strategic::testkit::*;
use rules::texts::Msg;

const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);
const BELGIUM: PowerId = PowerId(2);
const ITALY: PowerId = PowerId(3);

/// A strip of land with a sea column in the west: France (fr_north with the port of Paris,
/// fr_south with Lyon), neutral Belgium, Germany (de_west with Köln, de_east with Berlin, the
/// richest: its capital). Provinces in map order 0–4.
fn campaign_map() -> HexMap {
    let row = "0 2*1 2*2 2*3 2*4 3*5";
    let text = format!(
        r#"GreatWarMap(name: "campaign", width: 12, height: 4,
      rows: ["~11.", "~11.", "~11.", "~11."],
      province_rows: ["{row}", "{row}", "{row}", "{row}"],
      provinces: [
        (id: "fr_north", name: "Nord", owner: "france", capital: "paris", gdp: 20, manpower: (3, 4)),
        (id: "fr_south", name: "Midi", owner: "france", capital: "lyon", gdp: 10, manpower: (1, 2)),
        (id: "belgium", name: "Belgium", owner: "belgium", capital: "brussels", gdp: 6, manpower: (1, 1)),
        (id: "de_west", name: "Rhineland", owner: "germany", capital: "koeln", gdp: 12, manpower: (2, 2)),
        (id: "de_east", name: "Brandenburg", owner: "germany", capital: "berlin", gdp: 30, manpower: (4, 4)),
      ],
      cities: [
        (id: "paris", name: "Paris", province: "fr_north", hexes: [(1, 1)], port: true),
        (id: "lyon", name: "Lyon", province: "fr_south", hexes: [(3, 2)]),
        (id: "brussels", name: "Brussels", province: "belgium", hexes: [(5, 1)]),
        (id: "koeln", name: "Köln", province: "de_west", hexes: [(7, 1)]),
        (id: "berlin", name: "Berlin", province: "de_east", hexes: [(10, 1)]),
      ])"#
    );
    HexMap::parse("campaign.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// Germany (alliance 1) and France (0) at war; Belgium (0) neutral until invaded; Italy (0)
/// neutral until turn 7. Starts in turn 5 (testkit).
fn campaign(forces: Vec<rules::strategic::scenario::ForceSpec>) -> Scenario {
    let mut s = scenario(campaign_map(), forces);
    let mut belgium = s.powers[1].clone();
    belgium.id = "belgium".into();
    belgium.name = "Belgium".into();
    belgium.entry = Some(Entry { turn: None, when_invaded: true });
    let mut italy = s.powers[1].clone();
    italy.id = "italy".into();
    italy.name = "Italy".into();
    italy.entry = Some(Entry { turn: Some(7), when_invaded: false });
    s.powers.push(belgium);
    s.powers.push(italy);
    s.victory = Some(Victory { surrender_share_percent: 50, exhaustion: true, province_vp: 1, vp: vec![] });
    s
}

fn movement(s: &Scenario, power: PowerId) -> Ctx {
    ctx(s, Phase::Movement, power.0)
}

fn recruit(c: &mut Ctx, unit: Recruit, at: (i32, i32)) -> Result<(), OrderError> {
    c.apply(&Order::Recruit { unit, at: hex(at.0, at.1) })
}

fn infantry_order(class: u8) -> Recruit {
    Recruit::Infantry { class, mountain: false, elite: false }
}

#[test]
fn s_city_2_income_owned_occupied_devastated_and_ceded() {
    let s = campaign(vec![]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    let before: Vec<(i64, [u32; 2])> = c.powers.iter().map(|p| (p.money, p.manpower)).collect();
    c.income();
    let gain = |c: &Ctx, p: PowerId| {
        let (m, men) = before[usize::from(p.0)];
        let now = &c.powers[usize::from(p.0)];
        (now.money - m, [now.manpower[0] - men[0], now.manpower[1] - men[1]])
    };
    // Own provinces: the whole GDP and manpower. France 20 + 10, Germany 12 + 30, Belgium 6.
    assert_eq!(gain(&c, FRANCE), (30, [4, 6]));
    assert_eq!(gain(&c, GERMANY), (42, [6, 6]));
    assert_eq!(gain(&c, BELGIUM), (6, [1, 1]));
    // S-CITY-2, S-CITY-4: Germany occupies Nord: half of 20 (10) less the 10 % public-order
    // penalty (2) = 8, no manpower; France loses Nord's 20 and its manpower.
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[0].occupier = Some(GERMANY);
    c.income();
    assert_eq!(gain(&c, GERMANY), (42 + 8, [6, 6]));
    assert_eq!(gain(&c, FRANCE), (10, [1, 2]));
    // Devastated: the occupier gets 0.
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[0].occupier = Some(GERMANY);
    c.provinces[0].devastated = true;
    c.income();
    assert_eq!(gain(&c, GERMANY), (42, [6, 6]));
    // Ceded by a treaty (S-CITY-4): the new sovereign gets all of it, manpower too.
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[0].ceded_to = Some(GERMANY);
    c.income();
    assert_eq!(gain(&c, GERMANY), (42 + 20, [9, 10]));
    assert_eq!(gain(&c, FRANCE), (10, [1, 2]));
}

#[test]
fn s_city_2_devastation_at_2_city_destruction_house_value() {
    let s = campaign(vec![]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.hex_state_mut(hex(3, 2)).city_destruction = 1;
    c.devastation();
    assert!(!c.provinces[1].devastated, "1 destruction: not yet");
    c.hex_state_mut(hex(3, 2)).city_destruction = 2;
    c.devastation();
    assert!(c.provinces[1].devastated, "2 destruction: devastated");
    // A destroyed fortress in the capital devastates too.
    c.hex_state_mut(hex(7, 1)).fortress_destroyed = true;
    c.devastation();
    assert!(c.provinces[3].devastated);
    assert!(!c.provinces[0].devastated);
}

#[test]
fn purchase_infantry_of_both_classes_and_each_refusal() {
    let s = campaign(vec![infantry(1, "france", (3, 1))]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 40;
    c.powers[1].manpower = [10, 10];
    // 20 money and 10 class-1 manpower; the division stands at Paris with no movement left.
    recruit(&mut c, infantry_order(1), (1, 1)).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (20, [0, 10]));
    let f = c.forces.last().unwrap().clone();
    assert_eq!(f.place, Place::Map(hex(1, 1)));
    assert_eq!(f.activity.mp_left, 0);
    assert!(matches!(f.kind, ForceKind::Infantry { class: 1, model: Model::M1914, mountain: false, .. }));
    // A unit the scenario does not name and a raised one are named by their number among their
    // power's unnamed units of the kind, with no id (issue 27): France's scenario division (1)
    // is no. 1, the raised one no. 2.
    assert_eq!(c.name(rules::strategic::ForceId(1)), "infantry division no. 1");
    assert_eq!(c.name(f.id), "infantry division no. 2");
    // Manpower: class 1 is spent (0 of 10).
    let e = recruit(&mut c, infantry_order(1), (3, 2)).unwrap_err();
    assert_eq!(
        e,
        OrderError::Purchase(PurchaseError::Manpower {
            what: Msg::new("gwe.econ.buy.infantry").arg("class", 1),
            class: 1,
            need: 10,
            left: 0
        })
    );
    // Place: Paris is taken now; a plain hex; Köln is German.
    for at in [(1, 1), (2, 2), (7, 1)] {
        assert!(matches!(
            recruit(&mut c, infantry_order(2), at),
            Err(OrderError::Purchase(PurchaseError::Place { .. }))
        ));
    }
    // Class 2 at Lyon: 20 money (all that is left), 10 class-2 manpower.
    recruit(&mut c, infantry_order(2), (3, 2)).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (0, [0, 0]));
    // Money: 19 of 20.
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 19;
    let e = recruit(&mut c, infantry_order(2), (1, 1)).unwrap_err();
    assert!(matches!(e, OrderError::Purchase(PurchaseError::Money { price: 20, left: 19, .. })), "{e:?}");
    // Only in the Movement phase.
    let mut c = ctx(&s, Phase::Fire, 1);
    assert!(matches!(recruit(&mut c, infantry_order(1), (1, 1)), Err(OrderError::WrongPhase { .. })));
}

#[test]
fn s_land_5_s_land_6_mountain_and_elite_recruits_and_their_limits() {
    let mut s = campaign(vec![]);
    // S-LAND-5: France may raise mountain infantry (25 = 20 + 5), class 1 only.
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 25;
    let m = Recruit::Infantry { class: 1, mountain: true, elite: false };
    recruit(&mut c, m.clone(), (1, 1)).unwrap();
    assert_eq!(c.powers[1].money, 0);
    assert!(matches!(c.forces.last().unwrap().kind, ForceKind::Infantry { mountain: true, class: 1, .. }));
    let e = recruit(&mut c, Recruit::Infantry { class: 2, mountain: true, elite: false }, (3, 2)).unwrap_err();
    assert_eq!(e, OrderError::Purchase(PurchaseError::Class));
    // A power not in the list may not.
    s.rules.purchases.as_mut().unwrap().mountain_powers = vec!["germany".into()];
    let mut c = movement(&s, FRANCE);
    assert!(matches!(recruit(&mut c, m, (1, 1)), Err(OrderError::Purchase(PurchaseError::Mountain { .. }))));
    // S-LAND-6: no elite unit at the start: limit 0.
    let e = recruit(&mut c, Recruit::Infantry { class: 1, mountain: false, elite: true }, (1, 1)).unwrap_err();
    assert_eq!(e, OrderError::Purchase(PurchaseError::EliteLimit { limit: 0 }));
    // One elite division at the start: while it lives, none; once destroyed, one for 30.
    let elite = unit(
        5,
        "france",
        (3, 1),
        KindSpec::Infantry { model: Model::M1914, class: 1, mountain: false, elite: true, colonial: None },
    );
    let s = campaign(vec![elite]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 30;
    let order = Recruit::Infantry { class: 1, mountain: false, elite: true };
    assert!(recruit(&mut c, order.clone(), (1, 1)).is_err());
    c.force_mut(id(5)).unwrap().place = Place::Destroyed;
    c.rebuild_occupancy();
    recruit(&mut c, order.clone(), (1, 1)).unwrap();
    assert_eq!(c.powers[1].money, 0);
    assert!(c.forces.last().unwrap().kind.is_elite());
    assert!(recruit(&mut c, order, (3, 2)).is_err(), "the limit is reached again");
}

#[test]
fn s_land_5_s_land_6_a_regular_class_1_division_is_converted_to_mountain_or_elite() {
    use rules::strategic::purchase::Conversion::{Elite, Mountain};
    let kind = |model, class, elite| KindSpec::Infantry { model, class, mountain: false, elite, colonial: None };
    let s = campaign(vec![
        unit(5, "france", (2, 1), kind(Model::M1914, 1, false)),
        unit(6, "france", (2, 2), kind(Model::M1916, 1, false)),
        unit(7, "france", (2, 3), kind(Model::M1914, 2, false)),
        unit(8, "france", (3, 1), kind(Model::M1914, 1, true)),
        unit(9, "france", (3, 3), KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false }),
    ]);
    let convert = |c: &mut Ctx, n: u32, to| c.apply(&Order::Convert { unit: id(n), to });
    let stats = |c: &Ctx, n: u32| c.stats(c.force(id(n)).unwrap().kind);
    // S-LAND-5: mountain infantry from a regular class-1 division, for 5 (house: what a new one
    // costs more than a class-1 division); 4 is short.
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 4;
    let e = convert(&mut c, 5, Mountain).unwrap_err();
    assert!(matches!(e, OrderError::Purchase(PurchaseError::Money { price: 5, left: 4, .. })), "{e:?}");
    c.powers[1].money = 5;
    c.force_mut(id(5)).unwrap().vitals.health = 2;
    convert(&mut c, 5, Mountain).unwrap();
    let f = c.force(id(5)).unwrap();
    assert!(matches!(f.kind, ForceKind::Infantry { mountain: true, elite: false, class: 1, model: Model::M1914, .. }));
    assert_eq!((c.powers[1].money, f.vitals.health, f.vitals.max_health, f.place), (0, 2, 3, Place::Map(hex(2, 1))));
    // The 1916 division keeps its model; no manpower is spent.
    c.powers[1].money = 5;
    let men = c.powers[1].manpower;
    convert(&mut c, 6, Mountain).unwrap();
    assert!(matches!(c.force(id(6)).unwrap().kind, ForceKind::Infantry { mountain: true, model: Model::M1916, .. }));
    assert_eq!(c.powers[1].manpower, men);
    // Only a regular class-1 division: not class 2, not one already mountain, not cavalry.
    c.powers[1].money = 100;
    for n in [7, 5, 9] {
        assert!(matches!(convert(&mut c, n, Mountain), Err(OrderError::Economy(_))), "unit {n}");
    }
    // Only the powers of the list (France, Germany, Austria-Hungary, Italy).
    let mut s2 = s.clone();
    s2.rules.purchases.as_mut().unwrap().mountain_powers = vec!["germany".into()];
    let mut c2 = movement(&s2, FRANCE);
    assert!(matches!(convert(&mut c2, 5, Mountain), Err(OrderError::Purchase(PurchaseError::Mountain { .. }))));
    // S-LAND-6: an elite unit only in place of a lost one: the one elite division France started
    // with lives, so none (limit 1); destroyed, a regular class-1 division converts for 10 and
    // takes the class-1 values +10 on Attack and Defense; then the limit is reached again.
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 10;
    assert_eq!(convert(&mut c, 5, Elite), Err(OrderError::Purchase(PurchaseError::EliteLimit { limit: 1 })));
    c.force_mut(id(8)).unwrap().place = Place::Destroyed;
    c.rebuild_occupancy();
    c.powers[1].money = 9;
    assert!(matches!(convert(&mut c, 5, Elite), Err(OrderError::Purchase(PurchaseError::Money { price: 10, .. }))));
    c.powers[1].money = 10;
    let before = stats(&c, 5);
    convert(&mut c, 5, Elite).unwrap();
    assert!(c.force(id(5)).unwrap().kind.is_elite());
    let after = stats(&c, 5);
    assert_eq!(
        (after.attack, after.defense, after.f1, after.f2),
        (before.attack + 10, before.defense + 10, before.f1 + 10, before.f2 + 10)
    );
    assert_eq!((after.health, after.morale, c.powers[1].money), (before.health, before.morale, 0));
    c.powers[1].money = 10;
    assert_eq!(convert(&mut c, 6, Elite), Err(OrderError::Purchase(PurchaseError::EliteLimit { limit: 1 })));
    // Elite cavalry as elite infantry (S-LAND-8): France started with none, so none.
    assert_eq!(convert(&mut c, 9, Elite), Err(OrderError::Purchase(PurchaseError::EliteLimit { limit: 0 })));
    // In the Movement phase only.
    let mut c = ctx(&s, Phase::Fire, 1);
    assert!(matches!(convert(&mut c, 5, Mountain), Err(OrderError::WrongPhase { .. })));
}

#[test]
fn purchase_cavalry_tanks_and_artillery() {
    let s = campaign(vec![]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 1000;
    c.powers[1].manpower = [0, 8];
    // S-LAND-8: 15 money, 6 manpower of its class.
    recruit(&mut c, Recruit::Cavalry { class: 2 }, (1, 1)).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (985, [0, 2]));
    assert!(matches!(
        recruit(&mut c, Recruit::Cavalry { class: 1 }, (3, 2)),
        Err(OrderError::Purchase(PurchaseError::Manpower { class: 1, need: 6, left: 0, .. }))
    ));
    // S-LAND-9: own types only; 15 money, 2 manpower (class 2 first).
    let e = recruit(&mut c, Recruit::Tank("A7V".into()), (3, 2)).unwrap_err();
    assert_eq!(e, OrderError::Purchase(PurchaseError::NotForSale(Msg::new("gwe.econ.buy.tank").arg("name", "A7V"))));
    recruit(&mut c, Recruit::Tank("Schneider CA1".into()), (3, 2)).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (970, [0, 0]));
    assert!(matches!(c.forces.last().unwrap().kind, ForceKind::Tank { .. }));
    // S-ART-1: own guns only.
    let e = recruit(&mut c, Recruit::Artillery("42 cm Dicke Bertha".into()), (1, 1));
    assert!(matches!(e, Err(OrderError::Purchase(PurchaseError::NotForSale(_)))));
}

#[test]
fn purchase_artillery_at_a_free_city_hex() {
    let s = campaign(vec![]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 12;
    c.powers[1].manpower = [3, 0];
    recruit(&mut c, Recruit::Artillery("Canon de 155 mle 81".into()), (3, 2)).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].manpower), (0, [0, 0]));
    let f = c.forces.last().unwrap();
    assert!(f.kind.is_artillery() && f.vitals.morale.is_none());
}

#[test]
fn s_turn_1_s_land_9_tanks_from_turn_4_with_the_technology() {
    let s = campaign(vec![]);
    let mut c = movement(&s, FRANCE);
    c.clock.turn = 3;
    let e = recruit(&mut c, Recruit::Tank("Schneider CA1".into()), (1, 1)).unwrap_err();
    assert_eq!(e, OrderError::TooEarly { what: Msg::new(Tech::Tanks.key()), from: 4 });
    c.clock.turn = 4;
    recruit(&mut c, Recruit::Tank("Schneider CA1".into()), (1, 1)).unwrap();
    c.powers[1].techs.tanks = false;
    let e = recruit(&mut c, Recruit::Tank("Schneider CA1".into()), (3, 2)).unwrap_err();
    assert!(matches!(e, OrderError::NoTech { tech: Tech::Tanks, .. }));
}

#[test]
fn purchase_ships_in_an_own_port_and_squadrons_at_an_own_city() {
    let s = campaign(vec![]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 48;
    // A battleship (40) at the port of Paris: a fleet of its own.
    let fleets = c.navy.fleets.len();
    recruit(&mut c, Recruit::Ship(ShipType::Battleship), (1, 1)).unwrap();
    assert_eq!(c.powers[1].money, 8);
    assert_eq!(c.navy.fleets.len(), fleets + 1);
    let f = c.navy.fleets.last().unwrap().clone();
    assert_eq!((f.power, f.at), (FRANCE, hex(1, 1)));
    assert_eq!(c.navy.afloat(f.id).len(), 1);
    // Lyon is no port.
    let e = recruit(&mut c, Recruit::Ship(ShipType::Destroyer), (3, 2)).unwrap_err();
    assert!(matches!(e, OrderError::Purchase(PurchaseError::Place { .. })));
    // A destroyer costs 6, a squadron 8 (8 left).
    recruit(&mut c, Recruit::Squadron("Light bomber squadron".into()), (3, 2)).unwrap();
    assert_eq!(c.powers[1].money, 0);
    assert_eq!(c.navy.squadrons.last().map(|q| (q.power, q.base)), Some((FRANCE, hex(3, 2))));
    let e = recruit(&mut c, Recruit::Ship(ShipType::Destroyer), (1, 1)).unwrap_err();
    assert!(matches!(e, OrderError::Purchase(PurchaseError::Money { price: 6, left: 0, .. })));
    let e = recruit(&mut c, Recruit::Squadron("Light bomber squadron".into()), (2, 2)).unwrap_err();
    assert!(matches!(e, OrderError::Purchase(PurchaseError::Place { .. })));
}

#[test]
fn s_turn_1_s_chem_1_s_chem_3_gas_shells_and_cylinders_from_turn_3() {
    let s = campaign(vec![]);
    let mut c = movement(&s, FRANCE);
    c.powers[1].money = 7;
    let (shells, cyl) = (c.powers[1].chem_shells, c.powers[1].cylinders);
    c.clock.turn = 2;
    let buy = Order::BuyGas { shells: 3, cylinders: 2 };
    assert_eq!(c.apply(&buy), Err(OrderError::TooEarly { what: Msg::new(Tech::Gas.key()), from: 3 }));
    c.clock.turn = 3;
    // 3 shells × 1 + 2 cylinders × 2 = 7.
    c.apply(&buy).unwrap();
    assert_eq!((c.powers[1].money, c.powers[1].chem_shells, c.powers[1].cylinders), (0, shells + 3, cyl + 2));
    assert!(matches!(c.apply(&buy), Err(OrderError::Purchase(PurchaseError::Money { price: 7, left: 0, .. }))));
    c.powers[1].techs.gas = false;
    assert!(matches!(c.apply(&buy), Err(OrderError::NoTech { tech: Tech::Gas, .. })));
}

#[test]
fn s_turn_1_research_gas_3_tanks_4_infantry_upgrade_5() {
    let s = campaign(vec![]);
    for (tech, from, price) in [(Tech::Gas, 3, 30), (Tech::Tanks, 4, 40), (Tech::Infantry, 5, 50)] {
        let mut c = movement(&s, FRANCE);
        c.powers[1].techs = Default::default();
        c.powers[1].money = price;
        c.clock.turn = from - 1;
        assert_eq!(
            c.apply(&Order::Research { tech }),
            Err(OrderError::TooEarly { what: rules::texts::Msg::new(tech.key()), from })
        );
        c.clock.turn = from;
        c.apply(&Order::Research { tech }).unwrap();
        assert_eq!(c.powers[1].money, 0);
        assert!(c.apply(&Order::Research { tech }).is_err(), "known already");
    }
}

#[test]
fn neutral_entry_by_turn_and_idle_powers_skipped() {
    let s = campaign(vec![]);
    let mut g = GreatWar::new(&s, 3);
    let c = g.ctx();
    assert!(c.powers[2].neutral && c.powers[3].neutral);
    assert!(!c.hostile(GERMANY, ITALY), "a neutral is at war with nobody");
    // Only Germany and France play: each phase ends after their two EndPhase orders.
    g.apply(Order::EndPhase).unwrap();
    assert_eq!(g.clock().active, 1);
    g.apply(Order::EndPhase).unwrap();
    assert_eq!((g.clock().phase, g.clock().active), (Phase::Movement, 0));
    // Turn 5 → 6: Italy stays neutral; its turn is 7.
    let pass_turn = |g: &mut GreatWar| {
        let t = g.clock().turn;
        while g.clock().turn == t {
            g.apply(Order::EndPhase).unwrap();
        }
    };
    pass_turn(&mut g);
    assert_eq!(g.clock().turn, 6);
    assert!(g.ctx().powers[3].neutral);
    pass_turn(&mut g);
    assert_eq!(g.clock().turn, 7);
    let c = g.ctx();
    assert!(!c.powers[3].neutral, "Italy enters in turn 7");
    assert!(c.hostile(GERMANY, ITALY));
    assert!(g.events().iter().any(|e| e.text().contains("Italy enters the war")));
    // Italy now has its part of the phase: Germany, France, Italy (Belgium is still neutral).
    g.apply(Order::EndPhase).unwrap();
    g.apply(Order::EndPhase).unwrap();
    assert_eq!(g.clock().active, 3);
}

#[test]
fn arrivals_land_on_their_turn_or_when_their_neutral_power_enters_the_war() {
    // House rule (issue 12): Italy's three divisions arrive at the port of Paris (1, 1) when Italy
    // enters in turn 7, each on the nearest free land hex (the northernmost, then the westernmost,
    // among equals). A French division holds (1, 0), the northernmost hex next to the port. A
    // French division arrives at (4, 3) in turn 6 (the game starts in turn 5).
    let arriving = |n: u32, power: &str, at: (i32, i32), turn: Option<u32>| rules::strategic::scenario::ForceSpec {
        at: None,
        arrives: Some(Arrival { at: hex(at.0, at.1), turn }),
        ..infantry(n, power, (0, 0))
    };
    let s = campaign(vec![
        infantry(10, "france", (1, 0)),
        arriving(20, "france", (4, 3), Some(6)),
        arriving(30, "italy", (1, 1), None),
        arriving(31, "italy", (1, 1), None),
        arriving(32, "italy", (1, 1), None),
    ]);
    let mut g = GreatWar::new(&s, 3);
    let place = |g: &GreatWar, n: u32| g.ctx().force(id(n)).unwrap().place;
    assert_eq!(place(&g, 30), Place::Arriving(hex(1, 1)), "off the map while Italy is neutral");
    assert_eq!(place(&g, 20), Place::Arriving(hex(4, 3)), "turn 5: before its turn");
    assert!(g.ctx().at(hex(1, 1)).is_empty());
    let pass_turn = |g: &mut GreatWar| {
        let t = g.clock().turn;
        while g.clock().turn == t {
            g.apply(Order::EndPhase).unwrap();
        }
    };
    pass_turn(&mut g);
    assert_eq!((g.clock().turn, place(&g, 31)), (6, Place::Arriving(hex(1, 1))), "turn 6: still neutral");
    assert_eq!(place(&g, 20), Place::Map(hex(4, 3)), "France's division lands in its turn, 6");
    pass_turn(&mut g);
    assert_eq!(g.clock().turn, 7);
    // Distance 0: the port itself; distance 1: (1, 0) is held, so (2, 0), then (2, 1) (row 1
    // before row 2); (0, 1) is sea.
    assert_eq!(place(&g, 30), Place::Map(hex(1, 1)));
    assert_eq!(place(&g, 31), Place::Map(hex(2, 0)));
    assert_eq!(place(&g, 32), Place::Map(hex(2, 1)));
    assert_eq!(hex(1, 1).distance(hex(2, 1)), 1);
    assert!(g.events().iter().any(|e| e.text().contains("lands at (2, 0) (its port (1, 1))")), "reported");
    // The landing replays: it is part of the rules, not of the orders.
    let again = GreatWar::replay(&g.save()).expect("replays");
    assert_eq!(again.hash(), g.hash());
}

#[test]
fn arrivals_are_refused_on_water_with_a_hex_or_in_the_first_turn() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/test_front.ron"));
    let base = std::fs::read_to_string(path).unwrap();
    let with = |power_extra: &str, force: &str| {
        base.replacen("  forces: [\n", &format!("  forces: [\n    {force}\n"), 1).replacen(
            "(id: \"gb\", name: \"Great Britain\", alliance: 0, group: 1,",
            &format!("(id: \"gb\", name: \"Great Britain\", alliance: 0, group: 1,{power_extra}"),
            1,
        )
    };
    let neutral = " entry: (turn: 5),";
    let force = |at: &str| format!("(id: 900, power: \"gb\", kind: Infantry(model: M1914, class: 1), {at}),");
    let ok = with(neutral, &force("arrives: (at: (2, 2))"));
    let s = Scenario::load_text(path, &ok).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        s.forces.iter().find(|f| f.id == 900).and_then(|f| f.arrives),
        Some(Arrival { at: hex(2, 2), turn: None })
    );
    // The test front starts in turn 4: an arrival comes in turn 5 or later.
    assert!(Scenario::load_text(path, &with("", &force("arrives: (at: (2, 2), turn: 5)"))).is_ok());
    let line = |text: &str| text.lines().position(|l| l.contains("id: 900")).unwrap() + 1;
    let refused = |text: String, what: &str| {
        let e = Scenario::load_text(path, &text).unwrap_err().to_string();
        assert!(e.contains(what) && e.contains(&format!(":{}:", line(&text))), "{e}");
    };
    refused(with("", &force("arrives: (at: (2, 2), turn: 4)")), "arrives in a turn after the first (4)");
    refused(with(neutral, &force("at: (2, 2), arrives: (at: (2, 2))")), "an arrival has no hex yet");
    let sea = s.map.hexes().find(|h| !s.map.is_land(*h)).expect("the test front has water");
    refused(with(neutral, &force(&format!("arrives: (at: ({}, {}))", sea.col, sea.row))), "arrives on a land hex");
    // Without arrivals a scenario writes no `arrives`, so older saves keep their text and hashes.
    assert!(!GreatWar::new(&Scenario::load(path).unwrap(), 1).save().to_text().contains("arrives"));
}

#[test]
fn neutral_entry_by_invasion_and_closed_neutral_land() {
    let s = campaign(vec![infantry(1, "germany", (7, 2))]);
    let mut c = movement(&s, GERMANY);
    // Belgium enters when invaded: the move into (6, 2) is allowed and brings it into the war.
    c.apply(&Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(6, 2)] }).unwrap();
    assert!(!c.powers[2].neutral);
    assert!(c.hostile(GERMANY, BELGIUM));
    // The move is offered to the players (reachability) only where it is legal.
    let s = campaign(vec![infantry(1, "germany", (7, 2)), infantry(2, "france", (4, 2))]);
    let c = movement(&s, GERMANY);
    let reach: Vec<_> = c.destinations(rules::strategic::Piece::Unit(id(1))).into_iter().map(|d| d.0).collect();
    assert!(reach.contains(&hex(6, 2)), "Germany may invade Belgium");
    let c = movement(&s, FRANCE);
    let reach: Vec<_> = c.destinations(rules::strategic::Piece::Unit(id(2))).into_iter().map(|d| d.0).collect();
    assert!(reach.contains(&hex(3, 2)) && !reach.contains(&hex(5, 2)), "France stays out of Belgium");
    // Its own alliance may not enter: France is refused.
    let s = campaign(vec![infantry(1, "france", (4, 2))]);
    let mut c = movement(&s, FRANCE);
    let e = c.apply(&Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(5, 2)] });
    assert_eq!(
        e,
        Err(OrderError::NeutralLand { at: hex(5, 2), power: Msg::named("gw.power.belgium".into(), "Belgium") })
    );
    // Without when_invaded the land is closed.
    let mut s = campaign(vec![infantry(1, "germany", (7, 2))]);
    s.powers[2].entry = Some(Entry { turn: None, when_invaded: false });
    let mut c = movement(&s, GERMANY);
    let e = c.apply(&Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(6, 2)] });
    assert_eq!(
        e,
        Err(OrderError::NeutralLand { at: hex(6, 2), power: Msg::named("gw.power.belgium".into(), "Belgium") })
    );
    assert!(c.powers[2].neutral);
    // A neutral's turn, were it to come: only EndPhase.
    let mut c = movement(&s, BELGIUM);
    assert!(matches!(c.apply(&Order::BuyGas { shells: 1, cylinders: 0 }), Err(OrderError::Idle(_))));
}

#[test]
fn s_city_3_uprising_house_odds_garrison_2_within_2_hexes_d6_6() {
    // Germany holds Paris with one division; a second one 3 hexes away does not count.
    let s = campaign(vec![infantry(1, "germany", (1, 1)), infantry(2, "germany", (4, 1))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[0].occupier = Some(GERMANY);
    c.dice.script(vec![5]);
    c.uprisings();
    assert_eq!(c.provinces[0].occupier, Some(GERMANY), "5: order holds");
    c.dice.script(vec![6]);
    c.uprisings();
    assert_eq!(c.provinces[0].occupier, None, "6: the people rise");
    assert_eq!(c.force(id(1)).unwrap().place, Place::Dispersed);
    assert_eq!(c.force(id(2)).unwrap().place, Place::Map(hex(4, 1)));
    // Two units within 2 hexes: no roll at all.
    let s = campaign(vec![infantry(1, "germany", (1, 1)), infantry(2, "germany", (3, 1))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[0].occupier = Some(GERMANY);
    let thrown = c.dice.thrown();
    c.uprisings();
    assert_eq!((c.dice.thrown(), c.provinces[0].occupier), (thrown, Some(GERMANY)));
}

#[test]
fn s_city_4_peace_treaty_cedes_and_returns_provinces() {
    let s = campaign(vec![]);
    let mut c = movement(&s, GERMANY);
    c.provinces[0].occupier = Some(GERMANY);
    c.provinces[1].occupier = Some(GERMANY);
    // Köln cannot be ceded: nobody occupies it.
    let bad = Order::OfferPeace { to: "france".into(), cede: vec!["de_west".into()] };
    assert!(matches!(c.apply(&bad), Err(OrderError::Peace(_))));
    c.apply(&Order::OfferPeace { to: "france".into(), cede: vec!["fr_south".into()] }).unwrap();
    // Germany cannot accept its own offer; France accepts in its part of the phase.
    assert!(c.apply(&Order::AcceptPeace { from: "france".into() }).is_err());
    c.clock.active = 1;
    c.apply(&Order::AcceptPeace { from: "germany".into() }).unwrap();
    assert!(!c.at_war(GERMANY, FRANCE) && !c.hostile(GERMANY, FRANCE));
    assert_eq!((c.provinces[1].ceded_to, c.provinces[1].occupier), (Some(GERMANY), None));
    assert_eq!((c.provinces[0].ceded_to, c.provinces[0].occupier), (None, None), "Nord is returned");
    assert_eq!(c.province_owner(1), Some(GERMANY));
    // No second peace.
    assert!(c.apply(&Order::AcceptPeace { from: "germany".into() }).is_err());
}

#[test]
fn victory_surrender_capital_and_half_the_provinces_then_the_alliance_wins() {
    // A French division takes Berlin (Germany's capital: the larger GDP, 30 against 12).
    // A second one next to it keeps the garrison at 2 (no uprising roll).
    let s =
        campaign(vec![infantry(1, "france", (10, 1)), infantry(2, "germany", (7, 3)), infantry(3, "france", (11, 2))]);
    let c = ctx(&s, Phase::Upkeep, 0);
    assert_eq!(c.capital_of(GERMANY), Some(4));
    // 1 of 2 provinces is 50 %: at 51 % Germany holds on, at 50 % it surrenders.
    let mut s51 = s.clone();
    s51.victory.as_mut().unwrap().surrender_share_percent = 51;
    let mut c = ctx(&s51, Phase::Upkeep, 0);
    c.provinces[4].occupier = Some(FRANCE);
    assert_eq!(c.surrender_reason(GERMANY), None);
    c.provinces[4].occupier = None;
    c.provinces[3].occupier = Some(FRANCE);
    assert_eq!(c.surrender_reason(GERMANY), None, "half the provinces but not the capital");
    // The whole game: both powers pass; Upkeep occupies Berlin, Germany surrenders, alliance 0 wins.
    let mut g = GreatWar::new(&s, 11);
    while !g.is_over() && g.clock().turn == 5 {
        g.apply(Order::EndPhase).unwrap();
    }
    assert!(g.is_over());
    let c = g.ctx();
    assert!(c.powers[0].out);
    assert_eq!(c.force(id(2)).unwrap().place, Place::Destroyed);
    assert_eq!(c.provinces[4].occupier, Some(FRANCE), "its provinces stay occupied");
    assert_eq!(c.outcome(), Some(Outcome::Surrender { winner: 0 }));
    assert!(g.events().iter().any(|e| e.text().contains("Germany surrenders")));
    assert_eq!(g.apply(Order::EndPhase), Err(OrderError::GameOver));
}

#[test]
fn victory_surrender_by_national_exhaustion() {
    let s = campaign(vec![infantry(1, "germany", (8, 2))]);
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.powers[0].manpower = [0, 0];
    c.powers[0].money = 0;
    assert_eq!(c.surrender_reason(GERMANY), None, "its last division still stands");
    c.force_mut(id(1)).unwrap().place = Place::Dispersed;
    c.powers[0].manpower = [0, 0];
    c.powers[0].money = 1;
    assert_eq!(c.surrender_reason(GERMANY), None, "money 1");
    c.powers[0].manpower = [0, 1];
    c.powers[0].money = 0;
    assert_eq!(c.surrender_reason(GERMANY), None, "1 class-2 manpower");
    c.powers[0].manpower = [0, 0];
    assert!(c.surrender_reason(GERMANY).is_some());
    c.surrenders();
    assert!(c.powers[0].out);
    assert_eq!(c.clock.phase, Phase::Over);
    assert_eq!(c.outcome(), Some(Outcome::Surrender { winner: 0 }));
}

#[test]
fn victory_points_at_the_turn_limit_decide_or_draw() {
    let mut s = campaign(vec![]);
    s.max_turns = 1;
    // Alliance 0: Nord and Midi = 2 (neutral Belgium's count for nobody); alliance 1: Rhineland 1 +
    // Brandenburg n.
    for (n, points, winner) in [(0, [2, 1], Some(0)), (1, [2, 2], None), (2, [2, 3], Some(1))] {
        let mut s = s.clone();
        s.victory.as_mut().unwrap().vp = vec![("de_east".into(), n)];
        let mut c = ctx(&s, Phase::Upkeep, 0);
        assert_eq!(c.outcome(), None, "not over yet");
        c.turn_end();
        assert_eq!(c.clock.phase, Phase::Over);
        assert_eq!(c.outcome(), Some(Outcome::Points { winner, points }));
    }
    // Occupation moves the points: France holds Rhineland → 3 against 1 (Brandenburg at 1); once
    // Belgium is at war its province counts: 4.
    let mut c = ctx(&s, Phase::Upkeep, 0);
    c.provinces[3].occupier = Some(FRANCE);
    assert_eq!(c.victory_points(), [3, 1]);
    c.powers[2].neutral = false;
    assert_eq!(c.victory_points(), [4, 1]);
}

#[test]
fn calendar_gives_the_date_of_each_turn() {
    let cal = Calendar { year: 1914, month: 8, months_per_turn: 1 };
    assert_eq!(cal.date(1, 1), Date { year: 1914, month: 8 });
    assert_eq!(cal.date(1, 5), Date { year: 1914, month: 12 });
    assert_eq!(cal.date(1, 6), Date { year: 1915, month: 1 });
    assert_eq!(cal.date(1, 10).to_string(), "May 1915");
    let quarter = Calendar { year: 1916, month: 2, months_per_turn: 3 };
    assert_eq!(quarter.date(4, 8), Date { year: 1917, month: 2 });
    // The entry turns of 1914's neutrals on a monthly calendar from August 1914.
    let turn = |year, month| cal.turn_of(1, Date { year, month });
    assert_eq!(turn(1914, 7), None);
    assert_eq!(
        [turn(1914, 11), turn(1915, 5), turn(1915, 10), turn(1916, 3), turn(1916, 8), turn(1917, 4), turn(1917, 6)],
        [Some(4), Some(10), Some(15), Some(20), Some(25), Some(33), Some(35)]
    );
    assert_eq!(quarter.turn_of(4, Date { year: 1916, month: 4 }), Some(4), "inside the first quarter");
    assert_eq!(quarter.turn_of(4, Date { year: 1916, month: 5 }), Some(5));
}

#[test]
fn campaign_blocks_parse_and_bad_values_point_at_the_line() {
    let base =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/test_front.ron"))
            .unwrap();
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/test_front.ron"));
    let with = |extra: &str| base.replacen("  powers: [", &format!("{extra}\n  powers: ["), 1);
    let ok = with(
        "  calendar: (year: 1916, month: 2, months_per_turn: 1),\n  victory: (surrender_share_percent: 50, exhaustion: true, province_vp: 1),",
    );
    let s = Scenario::load_text(path, &ok).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.calendar.map(|c| c.date(s.start_turn, 5)), Some(Date { year: 1916, month: 3 }));
    let bad = with("  calendar: (year: 1916, month: 13, months_per_turn: 1),");
    let e = Scenario::load_text(path, &bad).unwrap_err();
    let line = bad.lines().position(|l| l.contains("month: 13")).unwrap() + 1;
    assert!(e.to_string().contains(&format!(":{line}:")), "{e}");
    let e = Scenario::load_text(path, &with("  victory: (surrender_share_percent: 0),")).unwrap_err();
    assert!(e.to_string().contains("surrender_share_percent"), "{e}");
    let e = Scenario::load_text(path, &with("  victory: (surrender_share_percent: 5, bogus: 1),")).unwrap_err();
    assert!(e.to_string().contains("bogus"), "{e}");
    // The legacy scenario, without the blocks, serialises as before: no new field in its save.
    let legacy = Scenario::load(path).unwrap();
    let text = GreatWar::new(&legacy, 1).save().to_text();
    for field in ["calendar", "victory", "entry", "neutral", "ceded_to"] {
        assert!(!text.contains(field), "{field} in a legacy save");
    }
}

#[test]
fn a_save_with_economy_orders_replays_bit_identically() {
    let s = campaign(vec![infantry(1, "germany", (7, 2)), infantry(2, "france", (1, 2))]);
    let mut g = GreatWar::new(&s, 42);
    g.apply(Order::EndPhase).unwrap();
    g.apply(Order::EndPhase).unwrap();
    g.apply(Order::Recruit { unit: infantry_order(2), at: hex(10, 1) }).unwrap();
    g.apply(Order::BuyGas { shells: 2, cylinders: 1 }).unwrap();
    g.apply(Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(6, 2)] }).unwrap();
    g.apply(Order::OfferPeace { to: "france".into(), cede: vec![] }).unwrap();
    g.apply(Order::EndPhase).unwrap();
    g.apply(Order::Recruit { unit: Recruit::Ship(ShipType::Destroyer), at: hex(1, 1) }).unwrap();
    g.apply(Order::Recruit { unit: Recruit::Cavalry { class: 1 }, at: hex(1, 1) }).unwrap();
    for _ in 0..12 {
        if g.is_over() {
            break;
        }
        g.apply(Order::EndPhase).unwrap();
    }
    let save = g.save();
    let text = save.to_text();
    let back = SaveGame::from_text("econ.ron", &text).unwrap();
    let again = GreatWar::replay(&back).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.hash(), g.hash());
    assert_eq!(again.state(), g.state());
    assert!(g.ctx().forces.len() == 4 && !g.ctx().powers[2].neutral, "two recruits, Belgium invaded");
    // The entry is an event of its own kind (a screen leads it to the power's capital).
    let entries: Vec<_> = g
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            rules::strategic::EventKind::EntersWar { power } => Some(power),
            _ => None,
        })
        .collect();
    assert_eq!(entries, vec![BELGIUM]);
}

/// Issue 27: the preview of a move into a neutral's land that brings it into the war names the
/// neutral (the app warns with it); a move that stays out of neutral land names none.
#[test]
fn the_preview_names_the_neutral_a_move_brings_into_the_war() {
    let s = campaign(vec![infantry(1, "germany", (7, 2))]);
    let c = movement(&s, GERMANY);
    let into = Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(6, 2)] };
    assert_eq!(c.preview(&into).expect("legal").enters_war, vec![BELGIUM]);
    let home = Order::Move { piece: rules::strategic::Piece::Unit(id(1)), path: vec![hex(8, 2)] };
    assert_eq!(c.preview(&home).expect("legal").enters_war, Vec::<PowerId>::new());
    assert!(c.powers[2].neutral, "a preview changes nothing");
}

/// Issue 27: an engagement is named by the powers that fight in it, not by the whole alliances
/// (a German division against a French one names Germany and France, not Belgium and Italy).
#[test]
fn an_engagements_summary_names_only_the_powers_that_fight() {
    let s = campaign(vec![infantry(1, "germany", (8, 2)), infantry(2, "france", (3, 2))]);
    let c = movement(&s, FRANCE);
    let to = Order::Move { piece: rules::strategic::Piece::Unit(id(2)), path: vec![hex(4, 2)] };
    // Not adjacent yet: nothing to fight.
    assert!(c.preview(&to).expect("legal").engagements.is_empty());
    let s = campaign(vec![infantry(1, "germany", (5, 2)), infantry(2, "france", (3, 2))]);
    let c = movement(&s, FRANCE);
    let p = c.preview(&to).expect("legal");
    let e = p.engagements.first().expect("the move makes contact");
    let names = c.engagement_names(e).map(|m| m.english());
    assert_eq!(names, ["France".to_string(), "Germany".to_string()]);
    let line = p.engagement_lines.first().map(Msg::english).unwrap_or_default();
    assert!(!line.contains("Belgium") && !line.contains("Italy"), "{line}");
    // The Combat phase's own line (the log, the turn summary) names them the same way: it listed
    // both whole alliances, the neutrals waiting to enter included.
    let s = campaign(vec![infantry(1, "germany", (5, 2)), infantry(2, "france", (4, 2))]);
    let mut c = ctx(&s, Phase::Combat, 0);
    c.combat_engagements();
    let fought: Vec<String> = c
        .events
        .iter()
        .filter(|e| matches!(e.kind, rules::strategic::EventKind::Engagement { .. }))
        .map(|e| e.line.english())
        .collect();
    assert_eq!(fought.len(), 1, "{fought:?}");
    assert!(fought[0].contains("France") && fought[0].contains("Germany"), "{}", fought[0]);
    assert!(!fought[0].contains("Belgium") && !fought[0].contains("Italy"), "{}", fought[0]);
}

/// Issue 27: the game tells its last turn and each turn's date by the scenario's calendar (the
/// app's top bar and goals): one month a turn from August 1914, turn 52 is November 1918.
#[test]
fn the_last_turn_and_the_date_of_a_turn_follow_the_scenario() {
    let mut s = campaign(vec![]);
    s.start_turn = 1;
    s.max_turns = 52;
    s.calendar = Some(Calendar { year: 1914, month: 8, months_per_turn: 1 });
    let c = movement(&s, GERMANY);
    assert_eq!(c.last_turn(), 52);
    assert_eq!(c.date_of(1), Some(Date { year: 1914, month: 8 }));
    assert_eq!(c.date_of(52), Some(Date { year: 1918, month: 11 }));
    s.calendar = None;
    s.start_turn = 5;
    s.max_turns = 1;
    let c = movement(&s, GERMANY);
    assert_eq!((c.last_turn(), c.date_of(5)), (5, None));
}

/// Issue 27, S-TURN-1: the check the app asks before it offers research agrees with the order:
/// tanks refused in turn 3 and bought in turn 4, refused with one less than the price, and
/// refused once known.
#[test]
fn s_turn_1_research_is_offered_exactly_when_the_order_is_taken() {
    let mut s = campaign(vec![]);
    s.powers[0].techs = rules::strategic::state::Techs { tanks: false, gas: false, infantry: false };
    let price = i64::from(s.rules.economy.research_tanks);
    for (turn, money, ok) in [(3, price, false), (4, price, true), (4, price - 1, false)] {
        let mut c = movement(&s, GERMANY);
        c.clock.turn = turn;
        c.powers[0].money = money;
        let check = c.check_research(Tech::Tanks);
        let applied = c.apply(&Order::Research { tech: Tech::Tanks });
        assert_eq!(check.is_ok(), ok, "turn {turn}, money {money}: {check:?}");
        assert_eq!(applied.is_ok(), ok, "turn {turn}, money {money}: {applied:?}");
        assert_eq!(check.err(), applied.err(), "the same reason");
        if ok {
            assert_eq!(c.powers[0].money, 0, "paid {price}");
            assert!(c.check_research(Tech::Tanks).is_err(), "known now");
        }
    }
}

#[test]
fn s_land_5_s_land_6_s_army_2_the_new_orders_read_and_write() {
    use rules::strategic::purchase::Conversion;
    let text = "[Convert(unit: 5, to: Mountain), Convert(unit: 6, to: Elite), AttachSquadron(squadron: 2, formation: Some(201)), AttachSquadron(squadron: 2, formation: None)]";
    let orders: Vec<Order> = rules::data::parse_ron("orders", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(orders[0], Order::Convert { unit: id(5), to: Conversion::Mountain });
    assert_eq!(orders[2], Order::AttachSquadron { squadron: 2, formation: Some(rules::strategic::FormationId(201)) });
    let back: Vec<Order> =
        rules::data::parse_ron("orders", &rules::data::to_ron(&orders)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, orders);
}
