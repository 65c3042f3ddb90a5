//! The query layer's "what can this piece do now" at sea and in the air (issue 26): each list is
//! exactly what its order accepts, on both sides of every threshold, told its viewer.

use rules::strategic::hexmap::{HexMap, Terrain};
use rules::strategic::naval::ShipType;
use rules::strategic::query::{
    bomb_targets, coastal_targets, embark_candidates, merge_partners, squadron_embark_candidates, torpedo_targets,
    wing_candidates,
};
use rules::strategic::scenario::{CorpsSpec, KindSpec, Scenario, SquadronSpec};
use rules::strategic::testkit::{fleet, hex, id, infantry, scenario, unit};
use rules::strategic::{Ctx, Order, Phase, PowerId};
use rules::view::Viewer;

const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);

/// Sea everywhere but the land column 0 and the land row 1 (columns 0–5).
fn coast() -> HexMap {
    let mut map = HexMap::filled("coast", 16, 8, Terrain::Sea);
    for row in 0..8 {
        map.cell_mut(hex(0, row)).expect("on the map").terrain = Terrain::Clear;
    }
    for col in 0..6 {
        map.cell_mut(hex(col, 1)).expect("on the map").terrain = Terrain::Clear;
    }
    map
}

fn ctx(s: &Scenario, phase: Phase, active: PowerId) -> Ctx {
    rules::strategic::testkit::ctx(s, phase, active.0)
}

fn squadron(id: u32, power: &str, kind: &str, base: (i32, i32)) -> SquadronSpec {
    SquadronSpec { id, power: power.into(), kind: kind.into(), base: hex(base.0, base.1), name: None }
}

/// S-NAVAL-11: the German fleet at (5,3), off a coast of rows 0–2. Division 1 next to it
/// (distance 1) may board; division 2 two hexes off may not; division 3, next to it but in
/// contact with a French division, may not (S-ARMY-7: only the Retreat order leaves a contact —
/// the app's old list offered it, then the order refused); division 4, next to it but in a
/// corps, may not (S-NAVAL-11 takes independent units). Every one the list offers the order
/// takes, and only those.
#[test]
fn s_naval_11_embark_candidates_are_the_units_the_order_takes() {
    let mut map = HexMap::filled("coast", 12, 8, Terrain::Sea);
    for col in 0..12 {
        for row in 0..3 {
            map.cell_mut(hex(col, row)).expect("on the map").terrain = Terrain::Clear;
        }
    }
    let at = hex(5, 3);
    let row = |r: i32, d: u32| -> Vec<_> { (0..12).map(|c| hex(c, r)).filter(|h| h.distance(at) == d).collect() };
    let near = row(2, 1);
    let (d1, d3) = (near[0], near[1]);
    let d2 = row(2, 2)[0];
    let french = (0..12)
        .map(|c| hex(c, 1))
        .find(|h| h.distance(d3) == 1 && h.distance(d1) == 2 && h.distance(d2) >= 2)
        .expect("a hex next to division 3 only");
    let forces = vec![
        infantry(1, "germany", (d1.col, d1.row)),
        infantry(2, "germany", (d2.col, d2.row)),
        infantry(3, "germany", (d3.col, d3.row)),
        infantry(4, "germany", (d1.col, d1.row)),
        infantry(9, "france", (french.col, french.row)),
    ];
    let mut s = scenario(map, forces);
    s.corps = vec![CorpsSpec { id: 50, name: "I Corps".into(), units: vec![4], attached: Vec::new() }];
    s.fleets = vec![fleet(1, "germany", (5, 3), &[(ShipType::Destroyer, 2)])];
    let c = ctx(&s, Phase::Movement, GERMANY);
    assert!(c.next_to_enemy(GERMANY, d3) && !c.next_to_enemy(GERMANY, d1) && !c.next_to_enemy(GERMANY, d2));
    assert!(c.force(id(4)).is_some_and(|f| f.member.corps.is_some()), "division 4 is in a corps");
    let offered = embark_candidates(&c, Viewer::Player(GERMANY), 1);
    assert_eq!(offered, vec![id(1)]);
    assert_eq!(embark_candidates(&c, Viewer::Umpire, 1), offered);
    assert!(embark_candidates(&c, Viewer::Player(FRANCE), 1).is_empty(), "France asks nothing of a German fleet");
    for u in [1, 2, 3, 4] {
        let took = c.clone().apply(&Order::Embark { unit: id(u), fleet: 1 }).is_ok();
        assert_eq!(took, offered.contains(&id(u)), "division {u}");
    }
}

/// S-NAVAL-11: a squadron based next to the fleet (distance 1) may board, one two hexes off may
/// not, one next to it that has flown this turn may not.
#[test]
fn s_naval_11_squadrons_board_from_next_to_the_fleet_only() {
    let at = hex(1, 2);
    let land: Vec<_> = (0..8).map(|r| hex(0, r)).chain((0..6).map(|c| hex(c, 1))).collect();
    let near: Vec<_> = land.iter().copied().filter(|h| h.distance(at) == 1).collect();
    let off = land.iter().copied().find(|h| h.distance(at) == 2).expect("a land hex two off");
    assert!(near.len() >= 2, "{near:?}");
    let mut s = scenario(coast(), Vec::new());
    s.fleets = vec![fleet(1, "germany", (1, 2), &[(ShipType::Destroyer, 2)])];
    s.squadrons = vec![
        squadron(1, "germany", "Reconnaissance squadron", (near[0].col, near[0].row)),
        squadron(2, "germany", "Reconnaissance squadron", (off.col, off.row)),
        squadron(3, "germany", "Reconnaissance squadron", (near[1].col, near[1].row)),
    ];
    let mut c = ctx(&s, Phase::Movement, GERMANY);
    c.navy.squadrons[2].flew = true;
    let offered = squadron_embark_candidates(&c, Viewer::Player(GERMANY), 1);
    assert_eq!(offered, vec![1]);
    for q in [1, 2, 3] {
        let took = c.clone().apply(&Order::EmbarkSquadron { squadron: q, fleet: 1 }).is_ok();
        assert_eq!(took, offered.contains(&q), "squadron {q}");
    }
}

/// S-NAVAL-2: fleets on one hex join if together they hold at most 20 ships: 10 + 10 may, 10 +
/// 11 may not; a fleet on the next hex may not.
#[test]
fn s_naval_2_merge_partners_hold_twenty_ships_at_most() {
    let mut s = scenario(coast(), Vec::new());
    s.fleets = vec![
        fleet(1, "germany", (8, 4), &[(ShipType::Destroyer, 10)]),
        fleet(2, "germany", (8, 4), &[(ShipType::Destroyer, 10)]),
        fleet(3, "germany", (8, 4), &[(ShipType::Destroyer, 11)]),
        fleet(4, "germany", (9, 4), &[(ShipType::Destroyer, 1)]),
    ];
    let c = ctx(&s, Phase::Movement, GERMANY);
    let afloat = |f: u32| c.navy.afloat(f).len();
    assert_eq!((afloat(1), afloat(2), afloat(3)), (10, 10, 11), "the scenario's counts are the ships afloat");
    let offered = merge_partners(&c, Viewer::Player(GERMANY), 1);
    assert_eq!(offered, vec![2]);
    for into in [2, 3, 4] {
        let took = c.clone().apply(&Order::MergeFleet { fleet: 1, into }).is_ok();
        assert_eq!(took, offered.contains(&into), "into fleet {into}");
    }
    assert!(merge_partners(&c, Viewer::Player(FRANCE), 1).is_empty());
}

/// S-AIR-2: a torpedo bomber (radius 5, bombing 3) based at (0,4) may bomb a French destroyer
/// (class 2, D = 1) 5 hexes off and not one 6 hexes off, and a light cruiser (class 3, D = 0);
/// never a submarine. A light bomber (bombing 1) alone may not bomb the destroyer (D = −1, "too
/// weak"); two light bombers (radius 6) may bomb both destroyers (D = 0), but not the cruiser
/// (D = −1). The wing is the other bombers, not the reconnaissance squadron.
#[test]
fn s_air_2_bomb_targets_are_in_the_radius_strong_enough_and_never_submarines() {
    let aviation = rules::strategic::testkit::aviation();
    let stats = |k: &str| aviation.get(k).map(|a| (a.radius, a.bombing));
    assert_eq!((stats("Torpedo bomber squadron"), stats("Light bomber squadron")), (Some((5, 3)), Some((6, 1))));
    let base = hex(0, 4);
    let at = |d: u32| (1..16).map(|c| hex(c, 4)).find(|h| h.distance(base) == d).expect("on the row");
    let (five, six) = (at(5), at(6));
    let mut s = scenario(coast(), Vec::new());
    s.fleets = vec![
        fleet(1, "france", (five.col, five.row), &[(ShipType::Destroyer, 1)]),
        fleet(2, "france", (six.col, six.row), &[(ShipType::Destroyer, 1)]),
        fleet(3, "france", (at(2).col, at(2).row), &[(ShipType::Submarine, 1)]),
        fleet(4, "france", (at(3).col, at(3).row), &[(ShipType::LightCruiser, 1)]),
    ];
    s.squadrons = vec![
        squadron(1, "germany", "Torpedo bomber squadron", (0, 4)),
        squadron(2, "germany", "Light bomber squadron", (0, 4)),
        squadron(3, "germany", "Light bomber squadron", (0, 4)),
        squadron(4, "germany", "Reconnaissance squadron", (0, 4)),
    ];
    let c = ctx(&s, Phase::Fire, GERMANY);
    let ship = |f: u32| c.navy.afloat(f)[0];
    let (near, far, boat, cruiser) = (ship(1), ship(2), ship(3), ship(4));
    let me = Viewer::Player(GERMANY);
    assert_eq!(bomb_targets(&c, me, &[1]), vec![near, cruiser]);
    assert_eq!(bomb_targets(&c, me, &[2]), Vec::<u32>::new(), "D = 1 − 2 = −1 against the destroyer");
    assert_eq!(bomb_targets(&c, me, &[2, 3]), vec![near, far], "D = 2 − 3 = −1 against the cruiser");
    assert_eq!(bomb_targets(&c, me, &[1, 2]), vec![near, cruiser]);
    for (group, ship) in
        [(vec![1], near), (vec![1], far), (vec![1], boat), (vec![2], near), (vec![2, 3], far), (vec![2, 3], cruiser)]
    {
        let mut copy = c.clone();
        copy.powers[0].ammo = 1_000;
        let took = copy.apply(&Order::Bomb { squadrons: group.clone(), ship }).is_ok();
        assert_eq!(took, bomb_targets(&c, me, &group).contains(&ship), "{group:?} against ship {ship}");
    }
    assert_eq!(wing_candidates(&c, me, 1), vec![2, 3], "the recon squadron never bombs");
    assert!(bomb_targets(&c, Viewer::Player(FRANCE), &[1]).is_empty());
}

/// S-SUB-1, S-SUB-5: a German flotilla at (8,4) may attack the French cruiser next to it
/// (distance 1), not the one two hexes off, and not the French flotilla next to it that Germany
/// has not found — which is not even named to Germany; the umpire's list has what the order
/// takes for the active power (the cruiser only: the flotilla is undetected).
#[test]
fn s_sub_5_torpedo_targets_are_next_to_the_flotilla_and_found() {
    let mut s = scenario(coast(), Vec::new());
    s.fleets = vec![
        fleet(1, "germany", (8, 4), &[(ShipType::Submarine, 2)]),
        fleet(2, "france", (9, 4), &[(ShipType::LightCruiser, 1)]),
        fleet(3, "france", (10, 4), &[(ShipType::LightCruiser, 1)]),
        fleet(4, "france", (8, 5), &[(ShipType::Submarine, 1)]),
    ];
    let c = ctx(&s, Phase::Movement, GERMANY);
    assert_eq!((hex(8, 4).distance(hex(9, 4)), hex(8, 4).distance(hex(10, 4))), (1, 2));
    assert_eq!(hex(8, 4).distance(hex(8, 5)), 1);
    assert!(c.fleet_hidden_from(4, GERMANY));
    let offered = torpedo_targets(&c, Viewer::Player(GERMANY), 1);
    assert_eq!(offered, vec![2]);
    assert_eq!(torpedo_targets(&c, Viewer::Umpire, 1), vec![2]);
    for target in [2, 3, 4] {
        let mut copy = c.clone();
        copy.powers[0].ammo = 1_000;
        let took = copy.apply(&Order::SubmarineAttack { flotilla: 1, target }).is_ok();
        assert_eq!(took, offered.contains(&target), "fleet {target}");
    }
}

/// S-NAVAL-14: a German 28 cm gun (range 4) on the coast at (0,3) may fire at a cruiser 4 hexes
/// off, not at one 5 off, never at a submarine; once it has fired, at nothing.
#[test]
fn s_naval_14_coastal_targets_are_in_the_guns_range() {
    let gun = "28 cm K L/40 Kurfürst";
    let mut s = scenario(coast(), vec![unit(1, "germany", (0, 3), KindSpec::Artillery(gun.into()))]);
    let range = s.units.guns.iter().find(|g| g.name == gun).map(|g| g.range);
    assert_eq!(range, Some(4));
    s.fleets = vec![
        fleet(1, "france", (4, 3), &[(ShipType::LightCruiser, 1)]),
        fleet(2, "france", (5, 3), &[(ShipType::LightCruiser, 1)]),
        fleet(3, "france", (3, 3), &[(ShipType::Submarine, 1)]),
    ];
    let c = ctx(&s, Phase::Fire, GERMANY);
    assert_eq!((hex(0, 3).distance(hex(4, 3)), hex(0, 3).distance(hex(5, 3))), (4, 5));
    let (near, far, boat) = (c.navy.afloat(1)[0], c.navy.afloat(2)[0], c.navy.afloat(3)[0]);
    let offered = coastal_targets(&c, Viewer::Player(GERMANY), id(1));
    assert_eq!(offered, vec![near]);
    for ship in [near, far, boat] {
        let mut copy = c.clone();
        copy.powers[0].ammo = 1_000;
        let took = copy.apply(&Order::CoastalFire { unit: id(1), ship }).is_ok();
        assert_eq!(took, offered.contains(&ship), "ship {ship}");
    }
    let mut fired = c.clone();
    fired.powers[0].ammo = 1_000;
    fired.apply(&Order::CoastalFire { unit: id(1), ship: near }).expect("it fires");
    assert!(coastal_targets(&fired, Viewer::Player(GERMANY), id(1)).is_empty(), "once a turn");
    assert!(coastal_targets(&c, Viewer::Player(FRANCE), id(1)).is_empty());
}

/// Issue 27: `Ctx::would_take` (what the app asks before it offers a purchase, a restoration
/// or gas) is the order's own verdict and changes nothing: ammunition (S-SUP-1's price ×
/// amount) is taken with exactly the money for it and refused one short, and gas before turn 3
/// (S-CHEM-1) is refused as the order is.
#[test]
fn would_take_is_the_orders_verdict_and_changes_nothing() {
    let s = scenario(coast(), vec![infantry(1, "germany", (0, 4))]);
    let mut c = ctx(&s, Phase::Movement, GERMANY);
    let price = i64::from(s.rules.ammunition.price);
    assert!(price > 0);
    let order = Order::BuyAmmunition { amount: 10 };
    for (money, taken) in [(price * 10, true), (price * 10 - 1, false)] {
        c.powers[0].money = money;
        let before = (c.powers.clone(), c.events.len());
        let verdict = c.would_take(&order);
        assert_eq!((c.powers.clone(), c.events.len()), before, "nothing changes");
        assert_eq!(verdict.is_ok(), taken, "money {money}: {verdict:?}");
        let mut played = c.clone();
        assert_eq!(played.apply(&order).map_err(|e| e.to_string()), verdict.map_err(|e| e.to_string()));
    }
    c.powers[0].money = 1_000_000;
    c.powers[0].techs.gas = true;
    let gas = Order::BuyGas { shells: 5, cylinders: 0 };
    for (turn, taken) in [(2, false), (3, true)] {
        c.clock.turn = turn;
        let verdict = c.would_take(&gas);
        assert_eq!(verdict.is_ok(), taken, "turn {turn}: {verdict:?}");
        let mut played = c.clone();
        assert_eq!(played.apply(&gas).map_err(|e| e.to_string()), verdict.map_err(|e| e.to_string()));
    }
}

/// S-ARMY-2: a squadron based on or next to a corps hex may be attached to it in the Movement
/// phase (distance 1 yes, 2 no), not in the Fire phase, not by another power, not twice; the list
/// is exactly what `AttachSquadron` accepts. Attached, a click finds it at its corps' hexes once
/// the corps has moved, not at its old base (S-ARMY-5: it flies from the formation's hexes).
#[test]
fn s_army_2_squadrons_are_attached_where_the_order_accepts_and_found_with_their_corps() {
    use rules::strategic::FormationId;
    use rules::strategic::query::{attached_squadrons, squadron_attach_candidates, squadrons_at};
    let mut s = scenario(coast(), vec![infantry(1, "germany", (0, 4)), infantry(2, "germany", (0, 6))]);
    s.corps = vec![
        CorpsSpec { id: 50, name: "I Corps".into(), units: vec![1], attached: Vec::new() },
        CorpsSpec { id: 51, name: "II Corps".into(), units: vec![2], attached: Vec::new() },
    ];
    // Squadron 1 at (0, 5): next to both corps; squadron 2 at (0, 2): two hexes from I Corps.
    s.squadrons = vec![
        squadron(1, "germany", "Reconnaissance squadron", (0, 5)),
        squadron(2, "germany", "Reconnaissance squadron", (0, 2)),
    ];
    let (one, two) = (FormationId(50), FormationId(51));
    let mut c = ctx(&s, Phase::Movement, GERMANY);
    let me = Viewer::Player(GERMANY);
    assert_eq!(hex(0, 5).distance(hex(0, 4)), 1);
    assert_eq!(hex(0, 2).distance(hex(0, 4)), 2);
    assert_eq!(squadron_attach_candidates(&c, me, 1), vec![one, two]);
    assert_eq!(squadron_attach_candidates(&c, me, 2), Vec::<FormationId>::new(), "two hexes off");
    assert!(squadron_attach_candidates(&c, Viewer::Player(FRANCE), 1).is_empty(), "not France's to ask");
    assert!(squadron_attach_candidates(&ctx(&s, Phase::Fire, GERMANY), me, 1).is_empty(), "Movement only");
    for (squadron, fm) in [(1, one), (1, two), (2, one)] {
        let listed = squadron_attach_candidates(&c, me, squadron).contains(&fm);
        let taken = c.clone().apply(&Order::AttachSquadron { squadron, formation: Some(fm) }).is_ok();
        assert_eq!(listed, taken, "squadron {squadron} to {fm:?}");
    }
    c.apply(&Order::AttachSquadron { squadron: 1, formation: Some(one) }).expect("attached");
    assert!(squadron_attach_candidates(&c, me, 1).is_empty(), "attached already");
    assert_eq!(attached_squadrons(&c, one), vec![1]);
    assert!(attached_squadrons(&c, two).is_empty());
    // I Corps moves two hexes down the coast: the squadron is found with it, not at (0, 5).
    c.apply(&Order::Move { piece: rules::strategic::Piece::Corps(one), path: vec![hex(0, 3), hex(0, 2)] })
        .expect("the corps moves");
    assert_eq!(squadrons_at(&c, GERMANY, hex(0, 2)), vec![1, 2]);
    assert!(squadrons_at(&c, GERMANY, hex(0, 5)).is_empty());
    assert!(squadrons_at(&c, FRANCE, hex(0, 2)).is_empty(), "France's are France's");
    // Detached, it stays at the corps' hex nearest its old base.
    c.apply(&Order::AttachSquadron { squadron: 1, formation: None }).expect("detached");
    assert_eq!(squadrons_at(&c, GERMANY, hex(0, 2)), vec![1, 2]);
}
