//! The general staff at sea beyond battle: units cut off by sea shipped to the front under escort
//! (S-NAVAL-11, S-NAVAL-12), and U-boats hunted with ASW ships and reconnaissance (S-AIR-1,
//! S-SUB-2, S-SUB-6, S-NAVAL-15), on small maps built with `rules::strategic::testkit`.

mod gw_staff;

use ai::Level;
use ai::great_war::sea::hunt_worth;
use gw_staff::staff_plays;
use rules::strategic::hexmap::{Climate, HexMap, SeaArea, Terrain};
use rules::strategic::naval::ShipType;
use rules::strategic::scenario::{FleetSpec, LaneSpec, Scenario, SquadronSpec};
use rules::strategic::state::{Ctx, Phase, Place};
use rules::strategic::testkit::{hex, id, infantry, scenario};
use rules::strategic::{HexAt, Order, PowerId};

const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);

/// 12 rows of an island in columns 0–2, the sea ("channel", one sea area) from column 3 to
/// `sea_end`, and a continent from there to 16 columns further east.
const HEIGHT: u32 = 12;
/// The narrow channel a fleet (30 hexes a turn, S-NAVAL-4) crosses there and back in a turn.
const NARROW: i32 = 9;
/// The wide channel of the U-boat hunt, where a reconnaissance radius covers part of it.
const WIDE: i32 = 19;

fn channel_map(sea_end: i32) -> HexMap {
    let width = (sea_end + 17) as u32;
    let sea_cols = 3..=sea_end;
    let mut map = HexMap::filled("channel", width, HEIGHT, Terrain::Sea);
    let mut sea = Vec::new();
    for row in 0..HEIGHT as i32 {
        for col in 0..width as i32 {
            let c = map.cell_mut(hex(col, row)).expect("on the map");
            if sea_cols.contains(&col) {
                c.sea_area = 1;
                sea.push(hex(col, row));
            } else {
                c.terrain = Terrain::Clear;
                c.climate = Climate::Temperate;
            }
        }
    }
    map.sea_areas = vec![SeaArea { id: "channel".into(), name: "Channel".into(), name_ru: String::new(), hexes: sea }];
    map
}

/// The testkit's fleet, with the intercept stance or not (S-NAVAL-12).
fn fleet(id: u32, power: &str, at: (i32, i32), ships: &[(ShipType, u32)], intercept: bool) -> FleetSpec {
    FleetSpec { intercept, ..rules::strategic::testkit::fleet(id, power, at, ships) }
}

/// A French division (10) on the island, cut off by sea; on the continent a French division (11)
/// facing a German one (1).
fn cut_off_division(fleets: Vec<FleetSpec>) -> Scenario {
    let forces = vec![infantry(10, "france", (2, 5)), infantry(11, "france", (15, 5)), infantry(1, "germany", (23, 5))];
    let mut s = scenario(channel_map(NARROW), forces);
    s.fleets = fleets;
    s
}

/// The game in `phase` with `power` to act, the fleets' movement given out (S-NAVAL-4).
fn game(s: &Scenario, phase: Phase, power: PowerId) -> Ctx {
    let mut c = rules::strategic::game::new_ctx(s, 1);
    c.clock.phase = phase;
    c.clock.active = power.0;
    c.naval_turn_start();
    c.events.clear();
    c
}

fn unit_hex(c: &Ctx, unit: u32) -> Option<HexAt> {
    match c.force(id(unit))?.place {
        Place::Map(h) => Some(h),
        _ => None,
    }
}

/// S-NAVAL-11: the French division on the island, which no land path joins to the front, is
/// shipped over by the Marshal in one Movement phase: its fleet of two destroyers (the escort)
/// sails next to it, a transport is paid for (4) and the division embarks, the fleet crosses and
/// the division lands on the continent on the French side, out of contact (S-ARMY-7). The Recruit
/// (no sea lift in its doctrine) leaves it where it is.
#[test]
fn s_naval_11_the_staff_ships_a_division_cut_off_by_sea_to_the_front_under_escort() {
    let s = cut_off_division(vec![fleet(1, "france", (8, 2), &[(ShipType::Destroyer, 2)], false)]);
    let mut c = game(&s, Phase::Movement, FRANCE);
    let money = c.powers[1].money;
    let orders = staff_plays(&mut c, FRANCE, Level::Marshal);
    let embark = orders.iter().position(|o| *o == Order::Embark { unit: id(10), fleet: 1 });
    let embark = embark.unwrap_or_else(|| panic!("no embarkation: {orders:?}"));
    assert!(matches!(orders[embark - 1], Order::MoveFleet { fleet: 1, .. }), "the fleet sails to it first");
    assert!(matches!(orders[embark + 1], Order::MoveFleet { fleet: 1, .. }), "then crosses: {orders:?}");
    let landed = orders.iter().find_map(|o| match o {
        Order::Disembark { unit, to } if *unit == id(10) => Some(*to),
        _ => None,
    });
    let to = landed.unwrap_or_else(|| panic!("no landing: {orders:?}"));
    assert_eq!(unit_hex(&c, 10), Some(to));
    assert!(to.col > NARROW, "on the continent: {to:?}");
    assert!(!c.next_to_enemy(FRANCE, to), "out of contact");
    assert!(c.powers[1].money <= money - 4, "the transport is paid for (4)");
    // The transport sailed with the destroyers and was used up when its cargo landed.
    assert_eq!(c.navy.count(1, ShipType::Destroyer), 2);
    assert_eq!(c.navy.count(1, ShipType::Transport), 0);

    let mut c = game(&s, Phase::Movement, FRANCE);
    let recruit = staff_plays(&mut c, FRANCE, Level::Recruit);
    assert!(!recruit.iter().any(|o| matches!(o, Order::Embark { .. })), "{recruit:?}");
    assert_eq!(unit_hex(&c, 10).map(|h| h.col <= 2), Some(true));
}

/// S-NAVAL-11, S-NAVAL-12: a German battleship with the intercept stance and 20 hexes of movement
/// left (S-NAVAL-4) reaches the whole channel: no transport sails, neither in a fleet of ASW ships
/// alone (unescorted transports meeting enemy warships are lost) nor with destroyers (escorted
/// ones may be picked out). With the battleship lying in a corner without the intercept stance,
/// the same fleets make the crossing, keeping off its hex.
#[test]
fn s_naval_11_no_unescorted_transport_sails_within_reach_of_an_enemy_interceptor() {
    for carrier in [&[(ShipType::Asw, 2)][..], &[(ShipType::Destroyer, 2)][..]] {
        let with = |intercept: bool, at: (i32, i32)| {
            cut_off_division(vec![
                fleet(1, "france", (8, 2), carrier, false),
                fleet(2, "germany", at, &[(ShipType::Battleship, 1)], intercept),
            ])
        };
        let mut c = game(&with(true, (6, 10)), Phase::Movement, FRANCE);
        let orders = staff_plays(&mut c, FRANCE, Level::Marshal);
        assert!(!orders.iter().any(|o| matches!(o, Order::Embark { .. })), "{carrier:?}: {orders:?}");
        assert_eq!(c.navy.count(1, ShipType::Transport), 0);

        let corner = (9, 11);
        let mut c = game(&with(false, corner), Phase::Movement, FRANCE);
        let orders = staff_plays(&mut c, FRANCE, Level::Marshal);
        assert!(orders.contains(&Order::Embark { unit: id(10), fleet: 1 }), "{carrier:?}: {orders:?}");
        for o in &orders {
            if let Order::MoveFleet { path, .. } = o {
                assert!(!path.contains(&hex(corner.0, corner.1)), "{o:?} meets the battleship");
            }
        }
        assert!(unit_hex(&c, 10).is_some_and(|h| h.col > NARROW));

        // Intercepting from the corner with 6 hexes of movement left, it reaches the channel's
        // south: the crossing keeps more than 6 hexes from it all the way.
        let mut c = game(&with(true, corner), Phase::Movement, FRANCE);
        let reach = 6;
        c.navy.fleet_mut(2).expect("the battleship").mp_left = reach;
        let orders = staff_plays(&mut c, FRANCE, Level::Marshal);
        assert!(orders.contains(&Order::Embark { unit: id(10), fleet: 1 }), "{carrier:?}: {orders:?}");
        for o in &orders {
            if let Order::MoveFleet { path, .. } = o {
                assert!(path.iter().all(|h| h.distance(hex(corner.0, corner.1)) > reach), "{o:?} within its reach");
            }
        }
        assert!(unit_hex(&c, 10).is_some_and(|h| h.col > NARROW));
    }
}

/// The lane, the U-boats cutting it and the hunters: a French lane in the channel at 100 %, a
/// German flotilla of 2 boats patrolling it at `boats_at` (S-NAVAL-15: 100 − 2 × 5 = 90 %, which
/// is all France knows of them), a French reconnaissance squadron on the island (radius 8) and a
/// French fleet of `asw` ASW ships far out of its radius.
fn cut_lane(asw: u32, boats_at: (i32, i32)) -> Ctx {
    let mut c = game(&cut_lane_scenario(channel_map(WIDE), asw, boats_at), Phase::Movement, FRANCE);
    c.navy.fleet_mut(5).expect("the flotilla").patrol = Some(0);
    assert_eq!(c.lane_efficiency(0), 90);
    c
}

/// The scenario of [`cut_lane`] on `map`.
fn cut_lane_scenario(map: HexMap, asw: u32, boats_at: (i32, i32)) -> Scenario {
    let mut s = scenario(map, vec![infantry(11, "france", (25, 5)), infantry(1, "germany", (33, 5))]);
    s.fleets = vec![
        fleet(2, "france", (18, 1), &[(ShipType::Asw, asw)], false),
        fleet(5, "germany", boats_at, &[(ShipType::Submarine, 2)], false),
    ];
    s.sea_lanes =
        vec![LaneSpec { id: "convoy".into(), area: "channel".into(), owner: "france".into(), efficiency: 100 }];
    s.squadrons = vec![SquadronSpec {
        id: 1,
        power: "france".into(),
        kind: "Reconnaissance squadron".into(),
        base: hex(2, 5),
        name: None,
    }];
    s
}

/// The French Movement then Fire phase with the Marshal; the orders of each.
fn hunt_turn(mut c: Ctx) -> (Vec<Order>, Vec<Order>, Ctx) {
    let movement = staff_plays(&mut c, FRANCE, Level::Marshal);
    c.clock.phase = Phase::Fire;
    c.clock.active = FRANCE.0;
    let fire = staff_plays(&mut c, FRANCE, Level::Marshal);
    (movement, fire, c)
}

/// S-AIR-1, S-SUB-2, S-SUB-3, S-SUB-4, S-SUB-6, S-NAVAL-15: the lane at 90 % tells France of 2
/// boats. The Marshal sends its 4 ASW ships into the radius (8 hexes) of its reconnaissance
/// squadron in the Movement phase and flies it in the Fire phase: with s = 2 − 4 = −2 the boats
/// pass the stealth test on 5–6 only (1/3): the flight is worth 2/3 × half of 2 boats × 2 − 1/3 ×
/// 2 ASW ships × 4/6 × 2 = 4/9 times the share of the channel in the radius. With one ASW ship
/// (s = +1, passing on 3–6) it is worth less than nothing: no ship sails and nothing flies. Where
/// the undetected boats lie changes none of this (the staff reads only the lane).
#[test]
fn s_air_1_the_staff_flies_reconnaissance_over_its_cut_lane_when_its_asw_ships_outnumber_the_boats() {
    assert!((hunt_worth(2, 4) - (2.0 / 3.0 * 0.5 * 2.0 * 2.0 - 1.0 / 3.0 * 2.0 * 4.0 / 6.0 * 2.0)).abs() < 1e-9);
    assert!(hunt_worth(2, 1) < 0.0);
    assert_eq!(hunt_worth(2, 0), 0.0, "S-AIR-1: no ASW ship in the radius, nothing happens");
    let base = hex(2, 5);
    let (movement, fire, after) = hunt_turn(cut_lane(4, (6, 6)));
    let sailed = movement.iter().find_map(|o| match o {
        Order::MoveFleet { fleet: 2, path } => path.last().copied(),
        _ => None,
    });
    let sailed = sailed.unwrap_or_else(|| panic!("the ASW ships stay out of the radius: {movement:?}"));
    assert!(sailed.distance(base) <= 8, "{sailed:?}");
    assert!(fire.contains(&Order::Reconnaissance { squadron: 1 }), "{fire:?}");
    assert!(after.navy.squadrons[0].flew);
    // The same orders with the boats elsewhere in the channel, out of the radius.
    let (movement_far, fire_far, _) = hunt_turn(cut_lane(4, (18, 10)));
    assert_eq!((&movement, &fire), (&movement_far, &fire_far), "the staff read where the boats are");

    let (movement, fire, _) = hunt_turn(cut_lane(1, (6, 6)));
    assert!(!movement.iter().any(|o| matches!(o, Order::MoveFleet { fleet: 2, .. })), "{movement:?}");
    assert!(!fire.iter().any(|o| matches!(o, Order::Reconnaissance { .. })), "{fire:?}");
    // The Recruit does not hunt.
    let mut c = cut_lane(4, (6, 6));
    let recruit = staff_plays(&mut c, FRANCE, Level::Recruit);
    assert!(!recruit.iter().any(|o| matches!(o, Order::MoveFleet { fleet: 2, .. })), "{recruit:?}");
}

/// The crossing and the hunt are the same however thinking is sliced: a staff at a tiny budget
/// gives the orders the unhurried one gives.
#[test]
fn the_sea_lift_is_the_same_however_thinking_is_sliced() {
    use ai::great_war::GwAi;
    use ai::{Player, Think};
    use web_time::Duration;
    let s = cut_off_division(vec![fleet(1, "france", (8, 2), &[(ShipType::Destroyer, 2)], false)]);
    let play = |budget: Duration| {
        let mut c = game(&s, Phase::Movement, FRANCE);
        let mut ai = GwAi::new(FRANCE, Level::Marshal, 3);
        let mut out = Vec::new();
        while c.clock.phase == Phase::Movement && c.active_power() == FRANCE {
            match Player::think(&mut ai, &c, budget) {
                Think::Order(o) => {
                    c.apply(&o).expect("legal");
                    out.push(o);
                }
                Think::Thinking => {}
                Think::Idle => break,
            }
        }
        out
    };
    let calm = play(Duration::from_secs(60));
    assert!(calm.iter().any(|o| matches!(o, Order::Disembark { .. })), "{calm:?}");
    assert_eq!(calm, play(Duration::from_micros(50)));
    let _ = GERMANY;
}

/// S-AIR-1, S-SUB-6: the lane at 90 % tells France of 2 boats, and it has 4 ASW ships, but no
/// squadron: it buys a reconnaissance squadron of the widest radius (the seaplanes', 10) at its
/// port on the channel, whose radius covers the lane, with money to spare for the price of 8.
/// With a squadron of its own over the lane already, or no ASW ship, it buys none.
#[test]
fn s_air_1_the_staff_buys_a_reconnaissance_squadron_to_hunt_the_boats_on_its_lane() {
    use rules::strategic::economy::Recruit;
    use rules::strategic::hexmap::{City, Province, flag};
    let port = hex(2, 5);
    let mut map = channel_map(WIDE);
    map.provinces.push(Province {
        id: "home".into(),
        name: "Home".into(),
        name_ru: String::new(),
        owner: "france".into(),
        capital: "port".into(),
        gdp: 0,
        manpower: [0, 0],
    });
    map.cities.push(City {
        id: "port".into(),
        name: "Port".into(),
        name_ru: String::new(),
        province: "home".into(),
        hexes: vec![port],
        port: true,
        fortress: false,
    });
    let province = map.provinces.len() as u16;
    let cell = map.cell_mut(port).expect("on the map");
    cell.flags |= flag::CITY;
    cell.province = province;
    let play = |squadron: bool, asw: bool| {
        let mut s = cut_lane_scenario(map.clone(), 4, (6, 6));
        if !squadron {
            s.squadrons.clear();
        }
        if !asw {
            s.fleets.retain(|f| f.id != 2);
        }
        s.powers.iter_mut().for_each(|p| p.money = 500);
        let mut c = game(&s, Phase::Movement, FRANCE);
        c.navy.fleet_mut(5).expect("the flotilla").patrol = Some(0);
        assert_eq!(c.lane_efficiency(0), 90);
        staff_plays(&mut c, FRANCE, Level::Marshal).into_iter().find_map(|o| match o {
            Order::Recruit { unit: Recruit::Squadron(kind), at } => Some((kind, at)),
            _ => None,
        })
    };
    assert_eq!(play(false, true), Some(("Seaplane reconnaissance squadron".to_string(), port)));
    assert_eq!(play(true, true), None, "its squadron covers the lane");
    assert_eq!(play(false, false), None, "S-AIR-1: a flight with no ASW ship harms no boat");
}
