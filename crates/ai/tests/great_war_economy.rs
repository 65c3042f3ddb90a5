//! The general staff's economy at the Veteran and Marshal levels: research by the state of the
//! war (S-TURN-1, MD-S5 prices), upgrades in the line first (S-LAND-4), recruits at the cities
//! nearest the front (issue 12 purchases), and never a treasury short of its upkeep (S-SUP-1,
//! S-SUP-2), on small hand-built fronts.

mod gw_staff;

use ai::Level;
use ai::great_war::GwAi;
use ai::great_war::staff::spendable;
use gw_staff::staff_plays;
use rules::strategic::economy::Recruit;
use rules::strategic::scenario::{ForceSpec, Scenario};
use rules::strategic::state::Techs;
use rules::strategic::tech::Tech;
use rules::strategic::testkit::{ctx, hex, id, infantry, scenario};
use rules::strategic::{EventKind, HexAt, HexMap, Order, Phase, PowerId, Terrain};
use std::collections::BTreeMap;

const GERMANY: PowerId = PowerId(0);
const LEVELS: [Level; 2] = [Level::Veteran, Level::Marshal];

/// A clear map with German cities: "rear" at (1, 1) and "front" at (9, 4), each the capital of a
/// German province of income `gdp`.
fn german_cities(gdp: u32) -> HexMap {
    let text = format!(
        r#"GreatWarMap(name: "c", width: 16, height: 10,
      provinces: [
        (id: "west", name: "West", owner: "germany", capital: "rear", gdp: {gdp}, manpower: (0, 0)),
        (id: "east", name: "East", owner: "germany", capital: "front", gdp: {gdp}, manpower: (0, 0)),
      ],
      cities: [
        (id: "rear", name: "Rear", province: "west", hexes: [(1, 1)]),
        (id: "front", name: "Front", province: "east", hexes: [(9, 4)]),
      ])"#
    );
    HexMap::parse("c.ron", &text).unwrap_or_else(|e| panic!("{e}"))
}

/// `n` German divisions on column 4, each facing a French one on column 5 (the same row: next to
/// each other), rows 1, 3, 5, ….
fn line(n: i32) -> Vec<ForceSpec> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(infantry(1 + i as u32, "germany", (4, 1 + 2 * i)));
        out.push(infantry(100 + i as u32, "france", (5, 1 + 2 * i)));
    }
    out
}

fn researched(orders: &[Order], tech: Tech) -> bool {
    orders.contains(&Order::Research { tech })
}

/// S-TURN-1, S-CHEM-1, MD-S5: at turn 3 a Germany with three divisions in contact (a static
/// front) and money to spare researches gas for 30 and buys the shells and cylinders it opens
/// (S-CHEM-3); with 20 in the treasury (below the research's 30) it does not.
#[test]
fn s_turn_1_s_chem_1_the_staff_researches_gas_at_turn_3_when_rich_and_in_contact_not_when_poor() {
    for level in LEVELS {
        for (money, rich) in [(1000, true), (20, false)] {
            let mut s = scenario(HexMap::filled("test", 16, 10, Terrain::Clear), line(3));
            s.start_turn = 3;
            s.powers[0].techs = Techs { tanks: false, gas: false, infantry: false };
            s.powers[0].money = money;
            s.powers[0].cylinders = 0;
            let mut c = ctx(&s, Phase::Movement, 0);
            assert_eq!(c.clock.turn, 3);
            assert!([hex(4, 1), hex(4, 3), hex(4, 5)].iter().all(|h| c.next_to_enemy(GERMANY, *h)));
            let orders = staff_plays(&mut c, GERMANY, level);
            assert_eq!(researched(&orders, Tech::Gas), rich, "{level}, money {money}: {orders:?}");
            assert_eq!(c.powers[0].techs.gas, rich, "{level}, money {money}");
            if rich {
                assert!(orders.iter().any(|o| matches!(o, Order::BuyGas { .. })), "{level}: gas bought: {orders:?}");
            }
            // Tanks from turn 4, the infantry upgrade from turn 5 (S-TURN-1): not yet.
            assert!(!researched(&orders, Tech::Tanks) && !researched(&orders, Tech::Infantry), "{level}");
        }
    }
}

/// S-TURN-1: gas is researched only on a static front; with one division in contact the Germany
/// of the test above keeps its money.
#[test]
fn s_turn_1_the_staff_researches_no_gas_without_a_static_front() {
    for level in LEVELS {
        let mut s = scenario(HexMap::filled("test", 16, 10, Terrain::Clear), line(1));
        s.start_turn = 3;
        s.powers[0].techs = Techs { tanks: false, gas: false, infantry: false };
        let mut c = ctx(&s, Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        assert!(!researched(&orders, Tech::Gas), "{level}: {orders:?}");
    }
}

/// S-LAND-4: from turn 5, with the 1916 model researched, the division in contact (ID 2, facing
/// French 100 at (7, 4)) is upgraded before the one far behind at (1, 8), though its ID is the
/// higher; with money for one upgrade of 6 only the one in contact is.
#[test]
fn s_land_4_the_staff_upgrades_a_division_in_contact_before_one_far_behind() {
    let forces = vec![infantry(1, "germany", (1, 8)), infantry(2, "germany", (6, 4)), infantry(100, "france", (7, 4))];
    for level in LEVELS {
        let s = scenario(HexMap::filled("test", 16, 10, Terrain::Clear), forces.clone());
        let mut c = ctx(&s, Phase::Movement, 0);
        assert!(c.next_to_enemy(GERMANY, hex(6, 4)) && !c.next_to_enemy(GERMANY, hex(1, 8)));
        let orders = staff_plays(&mut c, GERMANY, level);
        let upgrades: Vec<&Order> = orders.iter().filter(|o| matches!(o, Order::Upgrade { .. })).collect();
        assert_eq!(
            upgrades,
            [&Order::Upgrade { unit: id(2) }, &Order::Upgrade { unit: id(1) }],
            "{level}: in contact first: {orders:?}"
        );
    }
    // Money for one: the coming Upkeep of two independent divisions (2 each, S-SUP-1, with the
    // 25 % surcharge, S-SUP-4: 2 × 2.5) is 5, no income: the Veteran keeps one more Upkeep's
    // shortfall (5), the Marshal four (20) and two restorings (2 × 10, S-LOSS-1).
    for (level, money) in [(Level::Veteran, 5 + 5 + 6), (Level::Marshal, 5 + 20 + 20 + 6)] {
        let mut s = scenario(HexMap::filled("test", 16, 10, Terrain::Clear), forces.clone());
        s.powers[0].money = money;
        let mut c = ctx(&s, Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        let upgrades: Vec<&Order> = orders.iter().filter(|o| matches!(o, Order::Upgrade { .. })).collect();
        assert_eq!(upgrades, [&Order::Upgrade { unit: id(2) }], "{level}, money {money}: {orders:?}");
    }
}

/// The hex of each `Recruit` order.
fn recruited(orders: &[Order]) -> Vec<(Recruit, HexAt)> {
    orders
        .iter()
        .filter_map(|o| match o {
            Order::Recruit { unit, at } => Some((unit.clone(), *at)),
            _ => None,
        })
        .collect()
}

/// Issue 12 purchases: a rich Germany raises its first unit at the city nearest the enemy (the
/// "front" city at (9, 4), 3 hexes from the French division at (12, 4)), not at the "rear" city
/// at (1, 1), which comes first in hex order.
#[test]
fn issue_12_the_staff_recruits_at_the_city_nearest_the_front() {
    let forces = vec![infantry(1, "germany", (6, 8)), infantry(100, "france", (12, 4))];
    assert!(hex(1, 1) < hex(9, 4));
    for level in LEVELS {
        let s = scenario(german_cities(0), forces.clone());
        let mut c = ctx(&s, Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        let raised = recruited(&orders);
        assert!(!raised.is_empty(), "{level}: raises: {orders:?}");
        assert_eq!(raised[0].1, hex(9, 4), "{level}: nearest the front: {orders:?}");
        assert!(c.at(hex(9, 4)).iter().any(|u| c.force(*u).is_some_and(|f| f.power == GERMANY)));
    }
}

/// S-ART-1, S-ART-2: a front of four German divisions in contact without one heavy gun lacks
/// guns: the first recruit is a heavy artillery division of Germany's own guns; with no division
/// in contact (a war of movement) it is cavalry (S-LAND-8), not a gun.
#[test]
fn s_art_1_the_staff_recruits_guns_for_a_front_that_lacks_them_cavalry_for_an_open_one() {
    for level in LEVELS {
        let s = scenario(german_cities(0), line(4));
        let mut c = ctx(&s, Phase::Movement, 0);
        let raised = recruited(&staff_plays(&mut c, GERMANY, level));
        assert!(matches!(raised.first(), Some((Recruit::Artillery(_), _))), "{level}: {raised:?}");

        let s = scenario(german_cities(0), vec![infantry(1, "germany", (6, 8)), infantry(100, "france", (12, 4))]);
        let mut c = ctx(&s, Phase::Movement, 0);
        let raised = recruited(&staff_plays(&mut c, GERMANY, level));
        assert!(matches!(raised.first(), Some((Recruit::Cavalry { .. }, _))), "{level}: {raised:?}");
    }
}

/// S-SUP-1, S-SUP-2, S-SUP-4: over six turns of a Germany with 60 in the treasury (the Marshal,
/// who keeps more in hand: 110), income 2 and four divisions in contact (upkeep 8 a turn: a
/// shortfall of 6 that its recruits grow), the staff raises units and buys what it buys, yet a Movement phase that starts with the coming
/// Upkeep paid for ([`spendable`] at least 0) ends so too, and that Upkeep is paid in full: the
/// staff never spends the troops' pay. (A shortfall the treasury no longer covers, once the turns
/// the level looks ahead to have passed, is the war's, not a purchase's.)
#[test]
fn s_sup_2_the_staff_never_leaves_its_treasury_below_what_its_upkeep_needs() {
    for (level, money) in [(Level::Veteran, 60), (Level::Marshal, 110)] {
        let mut s: Scenario = scenario(german_cities(1), line(4));
        s.powers[0].money = money;
        let mut c = ctx(&s, Phase::Movement, 0);
        let mut ai = GwAi::new(GERMANY, level, 3);
        let mut raised = 0;
        // Whether each turn's Movement phase started with its Upkeep paid for.
        let mut covered: BTreeMap<u32, bool> = BTreeMap::new();
        let last = c.clock.turn + 6;
        while c.clock.turn < last && c.clock.phase != Phase::Over {
            let o = if c.active_power() == GERMANY {
                let movement = c.clock.phase == Phase::Movement;
                if movement {
                    covered.entry(c.clock.turn).or_insert(spendable(&c, GERMANY) >= 0);
                }
                let o = ai.decide(&c).expect("its turn");
                raised += usize::from(matches!(o, Order::Recruit { .. }));
                if o == Order::EndPhase && movement && covered[&c.clock.turn] {
                    let left = spendable(&c, GERMANY);
                    assert!(left >= 0, "{level}, turn {}: {left}", c.clock.turn);
                }
                o
            } else {
                Order::EndPhase
            };
            c.apply(&o).unwrap_or_else(|e| panic!("{level}: {o:?}: {e}"));
            for e in c.events.drain(..) {
                if let EventKind::Supply { power: GERMANY, short, .. } = e.kind {
                    let ok = covered.get(&e.turn).copied().unwrap_or(false);
                    assert!(!(short && ok), "{level}, turn {}: upkeep short", e.turn);
                }
            }
        }
        assert!(raised > 0, "{level}: raises units");
    }
}

/// S-TURN-1, S-LAND-4: at turn 4, with four infantry divisions in contact, the Marshal keeps the
/// price of the 1916 infantry research (50) and of the first three upgrades (3 × 6) that turn 5
/// opens, rather than raise units with it; at turn 5 it researches it. The Veteran, which does not
/// plan ahead, raises units at turn 4.
#[test]
fn s_turn_1_the_marshal_saves_for_the_research_the_next_turn_opens() {
    for level in LEVELS {
        let mut s = scenario(german_cities(0), line(4));
        s.start_turn = 4;
        s.powers[0].techs.infantry = false;
        s.powers[0].money = 150;
        let mut c = ctx(&s, Phase::Movement, 0);
        let orders = staff_plays(&mut c, GERMANY, level);
        let raised = recruited(&orders);
        match level {
            Level::Marshal => assert!(raised.is_empty(), "{level}: saves: {orders:?}"),
            _ => assert!(!raised.is_empty(), "{level}: raises: {orders:?}"),
        }
        if level == Level::Marshal {
            c.clock.turn = 5;
            c.clock.phase = Phase::Movement;
            c.clock.active = 0;
            let orders = staff_plays(&mut c, GERMANY, level);
            assert!(researched(&orders, Tech::Infantry), "{level}: {orders:?}");
        }
    }
}

/// S-LAND-9, S-TURN-1, MD-S5: tanks are researched for 40, not before turn 4, and a battalion
/// adds its Attack only in a turn it moves, so they pay only for an attacker. At turn 4 a Marshal
/// with six divisions in contact against four French (150 %, its attacker's margin) and two heavy
/// guns (one per 3 divisions in contact: the line lacks no gun) researches tanks and raises a
/// battalion of its own A7V at once. With the line even (four against four) it researches none,
/// and the Veteran, who fields no tanks, none either.
#[test]
fn s_land_9_the_marshal_researches_tanks_when_it_attacks_and_raises_a_battalion() {
    use rules::strategic::scenario::KindSpec;
    use rules::strategic::testkit::unit;
    let setup = |extra: bool| {
        let mut forces = line(4);
        if extra {
            forces.push(infantry(10, "germany", (5, 2)));
            forces.push(infantry(11, "germany", (5, 4)));
        }
        for (n, row) in [(20, 5), (21, 7)] {
            forces.push(unit(n, "germany", (1, row), KindSpec::Artillery("28 cm K L/40 Kurfürst".into())));
        }
        let mut s = scenario(german_cities(0), forces);
        s.start_turn = 4;
        s.powers[0].techs = Techs { tanks: false, gas: false, infantry: false };
        s.powers[0].money = 1000;
        s
    };
    let tank =
        |orders: &[Order]| recruited(orders).into_iter().any(|(r, _)| matches!(r, Recruit::Tank(t) if t == "A7V"));
    for (level, extra, fields) in
        [(Level::Marshal, true, true), (Level::Marshal, false, false), (Level::Veteran, true, false)]
    {
        let mut c = ctx(&setup(extra), Phase::Movement, 0);
        assert_eq!(c.clock.turn, 4);
        let contact = |p: PowerId| {
            c.forces
                .iter()
                .filter(|f| f.power == p && f.kind.is_combatant() && f.hex().is_some_and(|h| c.next_to_enemy(p, h)))
                .count()
        };
        assert_eq!((contact(GERMANY), contact(PowerId(1))), (if extra { 6 } else { 4 }, 4));
        let orders = staff_plays(&mut c, GERMANY, level);
        assert_eq!(researched(&orders, Tech::Tanks), fields, "{level}, extra {extra}: {orders:?}");
        assert_eq!(tank(&orders), fields, "{level}, extra {extra}: a battalion raised: {orders:?}");
        assert_eq!(c.powers[0].techs.tanks, fields);
    }
}

/// Issue 12, S-NAVAL-11: a city cut off by sea from the front comes after every city the front
/// can be reached from by land, however near it lies as the crow flies (its recruits would need a
/// transport each). With the sea all round "front" (9, 4), three hexes from the French division at
/// (12, 4), the staff raises its first unit at "rear" (1, 1), eleven hexes off but joined to the
/// enemy by land.
#[test]
fn issue_12_the_staff_recruits_on_the_mainland_before_a_nearer_city_cut_off_by_sea() {
    let forces = vec![infantry(1, "germany", (6, 8)), infantry(100, "france", (12, 4))];
    for level in LEVELS {
        let mut map = german_cities(0);
        for n in hex(9, 4).neighbours() {
            map.cell_mut(n).expect("on the map").terrain = Terrain::Sea;
        }
        let mut c = ctx(&scenario(map, forces.clone()), Phase::Movement, 0);
        assert!(hex(9, 4).distance(hex(12, 4)) < hex(1, 1).distance(hex(12, 4)));
        let raised = recruited(&staff_plays(&mut c, GERMANY, level));
        assert_eq!(raised.first().map(|r| r.1), Some(hex(1, 1)), "{level}: {raised:?}");
    }
}

/// S-LAND-8, issue 12: in a war of movement (no division in contact) a recruit is cavalry, which
/// moves 25 hexes, only while cavalry is under a fifth of the divisions: it holds a line at half
/// infantry's Defense. Five German infantry divisions far from the French raise cavalry first;
/// four and a cavalry division (a fifth) raise infantry.
#[test]
fn s_land_8_the_staff_raises_cavalry_for_a_war_of_movement_up_to_a_fifth_of_its_divisions() {
    use rules::strategic::scenario::KindSpec;
    use rules::strategic::tables::Model;
    use rules::strategic::testkit::unit;
    for level in LEVELS {
        for cavalry in [false, true] {
            let mut forces: Vec<ForceSpec> =
                (0..4).map(|i| infantry(1 + i, "germany", (2, 1 + 2 * i as i32))).collect();
            forces.push(if cavalry {
                unit(5, "germany", (3, 8), KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false })
            } else {
                infantry(5, "germany", (3, 8))
            });
            forces.push(infantry(100, "france", (14, 8)));
            let mut c = ctx(&scenario(german_cities(0), forces), Phase::Movement, 0);
            let raised = recruited(&staff_plays(&mut c, GERMANY, level));
            let first = raised.first().map(|r| r.0.clone());
            if cavalry {
                assert!(matches!(first, Some(Recruit::Infantry { .. })), "{level}, a fifth cavalry: {raised:?}");
            } else {
                assert!(matches!(first, Some(Recruit::Cavalry { .. })), "{level}, no cavalry: {raised:?}");
            }
        }
    }
}

/// S-CHEM-1: in the Preparation phase a staff with cylinders in store sets them on its hexes
/// that face the enemy (a standing contact) and releases them where the preview sees them harm
/// it; with no contact it sets none. (The game on the test front no longer keeps a contact into a
/// Preparation phase, so this is shown on its own line.)
#[test]
fn s_chem_1_the_staff_sets_its_cylinders_facing_the_enemy_and_releases_them_in_preparation() {
    for level in LEVELS {
        for contact in [true, false] {
            let forces = if contact {
                line(2)
            } else {
                vec![infantry(1, "germany", (2, 1)), infantry(100, "france", (9, 1)), infantry(101, "france", (9, 3))]
            };
            let mut s = scenario(HexMap::filled("test", 16, 10, Terrain::Clear), forces);
            s.powers[0].cylinders = 2;
            let mut c = ctx(&s, Phase::Preparation, 0);
            let orders = staff_plays(&mut c, GERMANY, level);
            let placed: Vec<HexAt> = orders
                .iter()
                .filter_map(|o| if let Order::PlaceCylinder { at } = o { Some(*at) } else { None })
                .collect();
            let released = orders.iter().filter(|o| matches!(o, Order::ReleaseGas { .. })).count();
            if contact {
                assert!(!placed.is_empty(), "{level}: {orders:?}");
                assert!(
                    placed.iter().all(|h| s
                        .forces
                        .iter()
                        .any(|f| f.power == "france" && f.at.is_some_and(|e| e.distance(*h) == 1))),
                    "{level}: {placed:?} faces the enemy"
                );
                assert!(released > 0, "{level}: released: {orders:?}");
            } else {
                assert!(placed.is_empty() && released == 0, "{level}, no contact: {orders:?}");
            }
        }
    }
}
