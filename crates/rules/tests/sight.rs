//! Sight (issue 26): each mode played as two viewers. Neither's view, seen events or previews hold
//! what the rules hide from it (checked on the structures and on their text, by the hidden piece's
//! name and place); the umpire's view holds everything; a hidden piece moved elsewhere leaves the
//! other viewer's view, and its hash, as they were; each rule of hiding on both sides of its
//! threshold.

use rules::Game;
use rules::campaign::{Campaign, CampaignScenario};
use rules::strategic::hexmap::{HexMap, SeaArea, Terrain as GwTerrain};
use rules::strategic::naval::ShipType;
use rules::strategic::scenario::{ArmySpec, CorpsSpec, Scenario as GwScenario, SquadronSpec};
use rules::strategic::state::{Phase as GwPhase, Place};
use rules::strategic::testkit::{aviation, fleet, hex, infantry, scenario};
use rules::strategic::{self, EventKind, GreatWar, PowerId};
use rules::tactical::{Battle, Dir, Event, Order, Side, Terrain, UnitId};
use rules::testing::Field;
use rules::testing::orders::mv;
use rules::view::{Mirror, Seen, Sight, ViewError, Viewer};

fn text<T: std::fmt::Debug>(value: &T) -> String {
    format!("{value:?}")
}

fn ron<T: serde::Serialize>(value: &T) -> String {
    ron::to_string(value).expect("a view serialises")
}

// ---- the battle: light infantry in forest (T-TERR-2) ------------------------------------------

/// Red's jägers (4242) hide in the forest at (1,6), blue's (5151) in the one at (6,1); a red and
/// a blue line regiment stand in the open, out of reach of both.
fn two_ambushes(red_jaegers_at: (i32, i32)) -> Battle {
    Field::new(8, 8)
        .terrain(&[(1, 6), (1, 7), (0, 6), (6, 1), (7, 1)], Terrain::DenseForest)
        .unit(4242, Side::Red, "light_infantry", red_jaegers_at, Dir::North)
        .unit(11, Side::Red, "line_infantry", (4, 3), Dir::South)
        .unit(5151, Side::Blue, "light_infantry", (6, 1), Dir::South)
        .unit(21, Side::Blue, "line_infantry", (3, 6), Dir::North)
        .battle(5)
}

fn ids(units: &[rules::tactical::state::UnitState]) -> Vec<u32> {
    units.iter().map(|u| u.id.0).collect()
}

/// T-TERR-2, two viewers: red does not know blue's jägers, blue does not know red's; the umpire
/// knows all four units. The views, as text, name neither hidden unit's ID nor its cell.
#[test]
fn t_terr_2_two_viewers_of_a_battle_each_miss_the_others_light_infantry_in_forest() {
    let battle = two_ambushes((1, 6));
    let red = battle.view(Viewer::Player(Side::Red));
    let blue = battle.view(Viewer::Player(Side::Blue));
    let umpire = battle.view(Viewer::Umpire);
    assert_eq!(ids(&red.units), vec![11, 21, 4242]);
    assert_eq!(ids(&blue.units), vec![11, 21, 5151]);
    assert_eq!(ids(&umpire.units), vec![11, 21, 4242, 5151]);
    assert!(!ron(&red).contains("5151") && !ron(&blue).contains("4242"));
    assert!(!ron(&red).contains("(6,1)") && !ron(&blue).contains("(1,6)"), "{}", ron(&red));
    assert!(ron(&umpire).contains("4242") && ron(&umpire).contains("5151"));
    assert!(ron(&umpire).contains("(6,1)") && ron(&umpire).contains("(1,6)"), "cells read as (x,y)");
    // The working copies the AI and the previews think on hold no more than the views.
    assert_eq!(ids(&battle.ctx_as(Viewer::Player(Side::Red)).units), vec![11, 21, 4242]);
    assert_eq!(ids(&battle.ctx_as(Viewer::Player(Side::Blue)).units), vec![11, 21, 5151]);
    // The view round-trips through its text, with the same hash.
    let back: rules::tactical::BattleView = ron::from_str(&ron(&red)).expect("a view reads back");
    assert_eq!(Battle::view_hash(&back), Battle::view_hash(&red));
}

/// T-TERR-2: red's jägers move inside their forest, (1,6) → (1,7), and stay hidden; blue sees the
/// move as "something happened" in its place (the count of events is red's), and its view is the
/// same whichever cell of the forest they went to; red's own line regiment moving is seen by both.
#[test]
fn t_terr_2_a_hidden_move_is_seen_as_hidden_and_leaves_the_enemys_view_as_it_was() {
    let mut battle = two_ambushes((1, 6));
    let events = battle.apply(mv(4242, &[(1, 7)])).expect("a move inside the forest");
    assert!(battle.ctx().unit(UnitId(4242)).is_some_and(|u| u.concealed), "hidden again (T-TERR-2)");
    let blue = battle.seen(Viewer::Player(Side::Blue), &events);
    let red = battle.seen(Viewer::Player(Side::Red), &events);
    assert_eq!((blue.len(), red.len()), (events.len(), events.len()));
    assert!(blue.iter().all(Seen::is_hidden), "{blue:?}");
    assert!(red.iter().all(|e| !e.is_hidden()));
    assert!(!ron(&blue).contains("4242") && !ron(&blue).contains("(1,7)"));
    assert!(matches!(red[0].event(), Some(Event::Moved { unit: UnitId(4242), .. })));
    // Moved to (0,6) instead: blue's view and its hash are the same; the umpire's differ.
    let mut other = two_ambushes((1, 6));
    other.apply(mv(4242, &[(0, 6)])).expect("a move inside the forest");
    let (a, b) = (battle.view(Viewer::Player(Side::Blue)), other.view(Viewer::Player(Side::Blue)));
    assert_eq!(a, b);
    assert_eq!(Battle::view_hash(&a), Battle::view_hash(&b));
    assert_ne!(Battle::view_hash(&battle.view(Viewer::Umpire)), Battle::view_hash(&other.view(Viewer::Umpire)));
    // A unit in the open is seen by both.
    let events = battle.apply(mv(11, &[(4, 4)])).expect("a move in the open");
    assert!(battle.seen(Viewer::Player(Side::Blue), &events).iter().all(|e| !e.is_hidden()));
}

/// T-TERR-2, the threshold of the original («если отряд противника не подошел к ней вплотную»):
/// blue's jägers at (3,5) in forest are seen by a red unit orthogonally next to them (distance 1),
/// not by one two cells off, nor by one diagonally next to them (the grid's melee adjacency,
/// T-MELEE-1, is orthogonal).
#[test]
fn t_terr_2_light_infantry_in_forest_is_seen_close_up_and_not_two_cells_off() {
    let seen_from = |red_at: (i32, i32)| {
        let battle = Field::new(8, 8)
            .terrain(&[(3, 5)], Terrain::SparseForest)
            .unit(1, Side::Red, "line_infantry", (3, 0), Dir::South)
            .unit(2, Side::Blue, "light_infantry", (3, 5), Dir::North)
            .battle(1);
        let mut ctx = battle.ctx();
        assert!(ctx.unit(UnitId(2)).is_some_and(|u| u.concealed), "hidden at the start (T-TERR-2)");
        if let Some(u) = ctx.unit_mut(UnitId(1)) {
            u.cell = rules::tactical::Cell::new(red_at.0, red_at.1);
        }
        ctx.view(Viewer::Player(Side::Red)).units.iter().any(|u| u.id == UnitId(2))
    };
    assert!(seen_from((3, 4)), "orthogonally next to it: seen");
    assert!(!seen_from((3, 3)), "two cells off: hidden");
    assert!(!seen_from((4, 4)), "diagonally next to it: hidden");
}

/// T-TERR-2: «открыв огонь из укрытия легкая пехота обнаруживает себя»: blue's jägers fire at a
/// red regiment three cells off and are seen from then on.
#[test]
fn t_terr_2_light_infantry_that_fires_is_seen() {
    let mut battle = Field::new(8, 8)
        .attacker(Side::Blue)
        .terrain(&[(3, 5)], Terrain::DenseForest)
        .unit(1, Side::Red, "line_infantry", (3, 2), Dir::South)
        .unit(2, Side::Blue, "light_infantry", (3, 5), Dir::North)
        .battle(1);
    assert!(!battle.view(Viewer::Player(Side::Red)).units.iter().any(|u| u.id == UnitId(2)));
    let events = battle.apply(Order::Fire { unit: UnitId(2), target: UnitId(1) }).expect("in range");
    assert!(battle.view(Viewer::Player(Side::Red)).units.iter().any(|u| u.id == UnitId(2)), "seen once it fired");
    let seen = battle.seen(Viewer::Player(Side::Red), &events);
    assert!(seen.iter().any(|e| matches!(e.event(), Some(Event::Revealed { unit: UnitId(2) }))), "{seen:?}");
}

/// T-TERR-2, previews: blue previews its line regiment's march (2,7) → (2,6) → (2,5) past the
/// wood at (1,6) where red's jägers wait; computed on blue's view, the preview knows nothing of
/// them (no ambush, no ID), while the march itself is stopped short by the ambush when applied.
#[test]
fn t_terr_2_a_preview_on_the_view_knows_nothing_of_the_hidden_unit() {
    let mut battle = Field::new(8, 8)
        .attacker(Side::Blue)
        .terrain(&[(1, 6)], Terrain::DenseForest)
        .unit(4242, Side::Red, "light_infantry", (1, 6), Dir::East)
        .unit(7, Side::Red, "line_infantry", (7, 0), Dir::South)
        .unit(21, Side::Blue, "line_infantry", (2, 7), Dir::North)
        .battle(1);
    let march = mv(21, &[(2, 6), (2, 5)]);
    let preview = battle.preview_as(Viewer::Player(Side::Blue), &march).expect("legal on blue's view");
    assert!(!text(&preview).contains("4242") && !text(&preview).contains("light_infantry 4242"));
    let events = battle.apply(march).expect("legal");
    assert!(events.iter().any(|e| matches!(e, Event::Ambushed { by: UnitId(4242), .. })), "{events:?}");
}

/// A client's mirror (the battle rebuilt from a seat's view): its view is the view it was made
/// from, its previews are the ones the game gives that seat (the same dice, seeded from the
/// view), it holds nothing the view hid, and it goes on by orders as a battle does.
#[test]
fn t_terr_2_a_battle_rebuilt_from_a_view_is_the_battle_its_viewer_knows() {
    let mut battle = Field::new(8, 8)
        .attacker(Side::Blue)
        .terrain(&[(1, 6)], Terrain::DenseForest)
        .unit(4242, Side::Red, "light_infantry", (1, 6), Dir::East)
        .unit(7, Side::Red, "line_infantry", (7, 0), Dir::South)
        .unit(21, Side::Blue, "line_infantry", (2, 7), Dir::North)
        .battle(1);
    let blue = Viewer::Player(Side::Blue);
    let view = battle.view(blue);
    let mirror = Battle::from_view(battle.scenario(), &view).expect("a view of this scenario");
    assert_eq!(mirror.view(blue), view);
    assert_eq!(Battle::view_hash(&mirror.view(blue)), Battle::view_hash(&view));
    assert_eq!(ids(&mirror.ctx().units), vec![7, 21], "the jägers in the forest are not in blue's mirror");
    assert!(!text(&mirror.ctx().units).contains("4242") && !text(&mirror.ctx().command).contains("4242"));
    let march = mv(21, &[(2, 6), (2, 5)]);
    assert_eq!(
        text(&mirror.preview(&march).expect("legal on the mirror")),
        text(&battle.preview_as(blue, &march).expect("legal on blue's view")),
        "the mirror's preview is the one the game gives blue"
    );
    // The umpire's view rebuilds the whole battle.
    let all = Battle::from_view(battle.scenario(), &battle.view(Viewer::Umpire)).expect("the umpire's view");
    assert_eq!(ids(&all.ctx().units), vec![7, 21, 4242]);
    // A mirror takes orders as a battle does, but only the game decides: on what blue knows the
    // march reaches (2,5); in the game the jägers next to (2,6) ambush it. A client plays its
    // orders on the game and takes the view after them.
    let mut mirror = mirror;
    let on_mirror = mirror.apply(march.clone()).expect("the march, on what blue knows");
    assert!(!on_mirror.iter().any(|e| matches!(e, Event::Ambushed { .. })));
    let in_game = battle.apply(march).expect("the march");
    assert!(in_game.iter().any(|e| matches!(e, Event::Ambushed { by: UnitId(4242), .. })), "{in_game:?}");
}

/// A view that is not one of this scenario's, or names what the scenario lacks, is refused with
/// its reason, never made into a battle.
#[test]
fn a_view_of_another_scenario_or_with_a_stranger_is_refused() {
    let battle = two_ambushes((1, 6));
    let other = Field::new(6, 6).unit(1, Side::Red, "line_infantry", (1, 1), Dir::South).battle(1);
    let view = battle.view(Viewer::Player(Side::Red));
    assert!(matches!(Battle::from_view(other.scenario(), &view), Err(ViewError::Scenario { .. })));
    let mut stranger = view.clone();
    stranger.units[0].id = UnitId(999);
    stranger.units.sort_by_key(|u| u.id);
    let why = Battle::from_view(battle.scenario(), &stranger).expect_err("unit 999 is in no scenario");
    assert!(why.to_string().contains("999"), "{why}");
    let mut twice = view.clone();
    twice.units[1] = twice.units[0].clone();
    assert!(matches!(Battle::from_view(battle.scenario(), &twice), Err(ViewError::Inconsistent(_))));
    let mut turned = view.clone();
    turned.units[0].side = Side::Blue;
    assert!(matches!(Battle::from_view(battle.scenario(), &turned), Err(ViewError::Inconsistent(_))));
    let mut off = view;
    off.units[0].cell = rules::tactical::Cell::new(40, 40);
    assert!(matches!(Battle::from_view(battle.scenario(), &off), Err(ViewError::Inconsistent(_))));
}

// ---- the Great War: submarines (S-SUB-5, S-AIR-1), reserves (S-ARMY-6), economy -----------------

/// A sea of 16 × 10 with a coast in column 0 and two sea areas (west: columns 1–7, east: 8–15).
fn sea() -> HexMap {
    let mut map = HexMap::filled("sea", 16, 10, GwTerrain::Sea);
    for row in 0..10 {
        let c = map.cell_mut(hex(0, row)).expect("on the map");
        c.terrain = GwTerrain::Clear;
        c.climate = rules::strategic::hexmap::Climate::Temperate;
    }
    let (mut west, mut east) = (Vec::new(), Vec::new());
    for row in 0..10 {
        for col in 1..16 {
            if col < 8 { west.push(hex(col, row)) } else { east.push(hex(col, row)) }
        }
    }
    for (i, area) in [&west, &east].iter().enumerate() {
        for h in area.iter() {
            map.cell_mut(*h).expect("on the map").sea_area = i as u16 + 1;
        }
    }
    map.sea_areas = vec![
        SeaArea { id: "west".into(), name: "West".into(), name_ru: String::new(), hexes: west },
        SeaArea { id: "east".into(), name: "East".into(), name_ru: String::new(), hexes: east },
    ];
    map
}

const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);

/// Germany's boats ("germany fleet 1") lie at (3,3) in the West, France's ("france fleet 2") at
/// (10,3) in the East; a French destroyer (3) in the West and a German cruiser (4) in the East
/// are surface fleets, seen by all.
fn two_flotillas() -> GwScenario {
    let mut s = scenario(sea(), vec![infantry(1, "germany", (0, 2)), infantry(2, "france", (0, 7))]);
    s.fleets = vec![
        fleet(1, "germany", (3, 3), &[(ShipType::Submarine, 2)]),
        fleet(2, "france", (10, 3), &[(ShipType::Submarine, 2)]),
        fleet(3, "france", (5, 6), &[(ShipType::Destroyer, 4)]),
        fleet(4, "germany", (12, 6), &[(ShipType::LightCruiser, 4)]),
    ];
    s
}

/// Ends phases until `power` is to act in `phase`.
fn until(war: &mut GreatWar, phase: GwPhase, power: PowerId) {
    for _ in 0..40 {
        if war.clock().phase == phase && war.clock().active == power.0 {
            return;
        }
        war.apply(strategic::Order::EndPhase).expect("EndPhase");
    }
    panic!("never reached {phase:?} for {power:?}");
}

fn fleet_ids(view: &strategic::WarView) -> Vec<u32> {
    view.navy.fleets.iter().map(|f| f.id).collect()
}

/// S-SUB-5 house rule and S-AIR-1, two viewers: neither power sees the other's undetected boats,
/// both see the surface fleets, the umpire sees all four; no text of a view names the other's
/// flotilla. Germany's boats sail inside the West ((3,3) → (3,4)): France sees "something happened"
/// and the same view (and hash) as if they had gone to (4,3).
#[test]
fn s_sub_5_two_powers_each_miss_the_others_undetected_flotilla() {
    let s = two_flotillas();
    let mut war = GreatWar::new(&s, 9);
    until(&mut war, GwPhase::Movement, GERMANY);
    let (germany, france) = (war.view(Viewer::Player(GERMANY)), war.view(Viewer::Player(FRANCE)));
    assert_eq!(fleet_ids(&germany), vec![1, 3, 4]);
    assert_eq!(fleet_ids(&france), vec![2, 3, 4]);
    assert_eq!(fleet_ids(&war.view(Viewer::Umpire)), vec![1, 2, 3, 4]);
    assert!(!ron(&germany).contains("france fleet 2") && !ron(&france).contains("germany fleet 1"));
    assert!(france.navy.ships.iter().all(|s| s.fleet != 1), "nor its boats");
    let before = GreatWar::view_hash(&france);
    let events = war.apply(strategic::Order::MoveFleet { fleet: 1, path: vec![hex(3, 4)] }).expect("a move at sea");
    let seen = war.seen(Viewer::Player(FRANCE), &events);
    assert_eq!(seen.len(), events.len());
    assert!(!seen.is_empty() && seen.iter().all(Seen::is_hidden), "{seen:?}");
    assert!(!ron(&seen).contains("germany fleet 1"));
    assert!(war.seen(Viewer::Player(GERMANY), &events).iter().all(|e| !e.is_hidden()));
    let mut other = GreatWar::new(&s, 9);
    until(&mut other, GwPhase::Movement, GERMANY);
    other.apply(strategic::Order::MoveFleet { fleet: 1, path: vec![hex(4, 3)] }).expect("a move at sea");
    let (a, b) = (war.view(Viewer::Player(FRANCE)), other.view(Viewer::Player(FRANCE)));
    assert_eq!(GreatWar::view_hash(&a), GreatWar::view_hash(&b));
    assert_eq!(GreatWar::view_hash(&a), before, "nothing France may know changed");
    assert_ne!(GreatWar::view_hash(&war.view(Viewer::Umpire)), GreatWar::view_hash(&other.view(Viewer::Umpire)));
}

/// S-SUB-5 house rule: sailing into the East ((7,3) → (8,3)) Germany's boats find France's there
/// (a `Sighted` event, seen by Germany only) and France's find them: from then on each is in the
/// other's view.
#[test]
fn s_sub_5_boats_in_one_sea_area_are_seen_by_both_sides() {
    let mut s = two_flotillas();
    s.fleets[0].at = hex(7, 3);
    let mut war = GreatWar::new(&s, 9);
    until(&mut war, GwPhase::Movement, GERMANY);
    assert!(!fleet_ids(&war.view(Viewer::Player(GERMANY))).contains(&2), "at (7,3), in the West: not found");
    let events = war.apply(strategic::Order::MoveFleet { fleet: 1, path: vec![hex(8, 3)] }).expect("a move");
    assert!(fleet_ids(&war.view(Viewer::Player(GERMANY))).contains(&2), "at (8,3), in the East: found");
    assert!(fleet_ids(&war.view(Viewer::Player(FRANCE))).contains(&1), "both ways");
    let sighted = |p| {
        war.seen(Viewer::Player(p), &events)
            .iter()
            .filter(|e| matches!(e.event().map(|e| &e.kind), Some(EventKind::Sighted { .. })))
            .count()
    };
    assert_eq!((sighted(GERMANY), sighted(FRANCE)), (1, 0));
}

/// S-AIR-1: a French reconnaissance squadron based at (0,3) flies in the Fire phase; the German
/// boats at its radius are in France's view, those one hex further are not.
#[test]
fn s_air_1_reconnaissance_shows_the_boats_in_its_radius_and_not_one_hex_beyond() {
    let radius = aviation().get("Reconnaissance squadron").map(|a| a.radius).expect("the squadron type");
    let base = hex(0, 3);
    let at = |d: u32| (1..16).map(|c| hex(c, 3)).find(|h| h.distance(base) == d).expect("on the row");
    let (edge, outside) = (at(radius), at(radius + 1));
    let mut s = scenario(sea(), vec![]);
    s.fleets = vec![
        fleet(1, "germany", (edge.col, edge.row), &[(ShipType::Submarine, 1)]),
        fleet(2, "germany", (outside.col, outside.row), &[(ShipType::Submarine, 1)]),
    ];
    s.squadrons =
        vec![SquadronSpec { id: 1, power: "france".into(), kind: "Reconnaissance squadron".into(), base, name: None }];
    let mut c = rules::strategic::testkit::ctx(&s, GwPhase::Fire, 1);
    assert!(c.view(Viewer::Player(FRANCE)).navy.fleets.is_empty(), "before the flight");
    c.apply(&strategic::Order::Reconnaissance { squadron: 1 }).expect("a flight");
    let ids: Vec<u32> = c.view(Viewer::Player(FRANCE)).navy.fleets.iter().map(|f| f.id).collect();
    assert_eq!(ids, vec![1], "at {radius} hexes: seen; at {}: hidden", radius + 1);
}

/// S-SUB-5, previews: France previews an attack of its boats at (8,3), in the East, on Germany's
/// next to them at (7,3), in the West, which it has not detected. On
/// France's view the target is not there, and the refusal names nothing France may not know; the
/// umpire's preview gives the rules' reason with the flotilla's name.
#[test]
fn s_sub_5_a_preview_on_the_view_does_not_name_the_undetected_flotilla() {
    let mut s = two_flotillas();
    s.fleets[0].at = hex(7, 3);
    s.fleets[1].at = hex(8, 3);
    let mut war = GreatWar::new(&s, 9);
    until(&mut war, GwPhase::Movement, FRANCE);
    let order = strategic::Order::SubmarineAttack { flotilla: 2, target: 1 };
    let theirs = war.preview_as(Viewer::Player(FRANCE), &order).expect_err("no such target on France's view");
    assert!(!theirs.to_string().contains("germany fleet 1"), "{theirs}");
    let umpire = war.preview_as(Viewer::Umpire, &order).expect_err("undetected");
    assert!(umpire.to_string().contains("germany fleet 1"), "{umpire}");
}

/// S-SUB-5 on a client: France's war made from France's view is the war France knows (the German
/// boats at (3,3) and Germany's treasury are not in it, its view and hash are France's); the
/// French destroyer's preview on it is the game's preview for France; the umpire's view rebuilds
/// every fleet; orders go on a mirror as on a war.
#[test]
fn s_sub_5_a_war_rebuilt_from_a_view_is_the_war_its_viewer_knows() {
    let s = two_flotillas();
    let mut war = GreatWar::new(&s, 9);
    until(&mut war, GwPhase::Movement, FRANCE);
    let france = Viewer::Player(FRANCE);
    let view = war.view(france);
    let mut mirror = GreatWar::from_view(&s, &view).expect("a view of this scenario");
    assert_eq!(mirror.view(france), view);
    assert_eq!(GreatWar::view_hash(&mirror.view(france)), GreatWar::view_hash(&view));
    assert_eq!(mirror.ctx().navy.fleets.iter().map(|f| f.id).collect::<Vec<_>>(), vec![2, 3, 4]);
    assert!(!text(&mirror.state()).contains("germany fleet 1"), "the boats are not in France's mirror");
    assert_eq!(mirror.ctx().powers[0].money, 0, "nor Germany's treasury");
    assert_eq!(mirror.ctx().powers[1].money, war.ctx().powers[1].money, "France's own is");
    let sail = strategic::Order::MoveFleet { fleet: 3, path: vec![hex(4, 6)] };
    assert_eq!(
        text(&mirror.preview(&sail).expect("legal on the mirror")),
        text(&war.preview_as(france, &sail).expect("legal on France's view")),
        "the mirror's preview is the one the game gives France"
    );
    mirror.apply(sail.clone()).expect("the destroyers sail on the mirror");
    war.apply(sail).expect("and in the game");
    assert_eq!(mirror.view(france).navy.fleets, war.view(france).navy.fleets);
    let all = GreatWar::from_view(&s, &war.view(Viewer::Umpire)).expect("the umpire's view");
    assert_eq!(all.ctx().navy.fleets.iter().map(|f| f.id).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    assert_eq!(all.ctx().powers[0].money, war.ctx().powers[0].money);
}

/// A Great War view of another scenario, or one the rules could not give (a fleet off the map, a
/// unit of a power the scenario lacks, units out of order, a province too many), is refused.
#[test]
fn a_war_view_of_another_scenario_or_off_the_map_is_refused() {
    let s = two_flotillas();
    let war = GreatWar::new(&s, 9);
    let view = war.view(Viewer::Player(FRANCE));
    let other = scenario(HexMap::filled("land", 6, 6, GwTerrain::Clear), vec![infantry(1, "france", (1, 1))]);
    assert!(matches!(GreatWar::from_view(&other, &view), Err(ViewError::Scenario { .. })));
    let refused = |v: &strategic::WarView| matches!(GreatWar::from_view(&s, v), Err(ViewError::Inconsistent(_)));
    let mut off = view.clone();
    off.navy.fleets[0].at = hex(40, 40);
    assert!(refused(&off), "a fleet off the map");
    let mut stranger = view.clone();
    stranger.forces[0].power = PowerId(9);
    assert!(refused(&stranger), "a unit of no power");
    let mut twice = view.clone();
    twice.forces[1] = twice.forces[0].clone();
    assert!(refused(&twice), "a unit twice");
    let mut more = view.clone();
    more.provinces.push(Default::default());
    assert!(refused(&more), "a province the map lacks");
    let mut active = view;
    active.clock.active = 7;
    assert!(refused(&active), "an active power the order of play lacks");
}

/// S-ARMY-6 ([003]: reserves «не присутствуют на карте»): Germany's army 201 keeps division 3 in
/// reserve; France's view and working copy have no division 3, Germany's and the umpire's have it.
#[test]
fn s_army_6_reserves_are_seen_by_their_power_alone() {
    let mut reserve = infantry(3, "germany", (0, 0));
    reserve.at = None;
    let mut s = scenario(
        HexMap::filled("land", 8, 8, GwTerrain::Clear),
        vec![infantry(1, "germany", (2, 2)), infantry(2, "germany", (2, 2)), reserve, infantry(9, "france", (6, 6))],
    );
    s.corps = vec![CorpsSpec { id: 101, name: "I".into(), units: vec![1, 2], attached: vec![] }];
    s.armies = vec![ArmySpec { id: 201, name: "1".into(), corps: vec![101], reserves: vec![3], attached: vec![] }];
    let war = GreatWar::new(&s, 1);
    let has3 = |v: &strategic::WarView| v.forces.iter().any(|f| f.id.0 == 3);
    assert!(war.ctx().force(strategic::ForceId(3)).is_some_and(|f| matches!(f.place, Place::Reserve(_))));
    assert!(has3(&war.view(Viewer::Player(GERMANY))) && has3(&war.view(Viewer::Umpire)));
    let france = war.view(Viewer::Player(FRANCE));
    assert!(!has3(&france) && !text(&france).contains("Reserve("));
    assert!(war.ctx_as(Viewer::Player(FRANCE)).force(strategic::ForceId(3)).is_none());
}

/// House rule (economy): each power's treasury, stocks, manpower and research are its own;
/// Germany buying ammunition is hidden from France, seen by Germany.
#[test]
fn economy_is_private_to_each_power() {
    let s = two_flotillas();
    let mut war = GreatWar::new(&s, 1);
    let france = war.view(Viewer::Player(FRANCE));
    assert!(france.powers[1].secrets.is_some() && france.powers[0].secrets.is_none());
    assert!(war.view(Viewer::Umpire).powers.iter().all(|p| p.secrets.is_some()));
    assert_eq!(war.ctx_as(Viewer::Player(FRANCE)).powers[0].money, 0, "nothing of Germany's treasury");
    until(&mut war, GwPhase::Movement, GERMANY);
    let events = war.apply(strategic::Order::BuyAmmunition { amount: 10 }).expect("a purchase");
    assert!(war.seen(Viewer::Player(FRANCE), &events).iter().all(Seen::is_hidden));
    assert!(war.seen(Viewer::Player(GERMANY), &events).iter().all(|e| !e.is_hidden()));
}

// ---- the campaign: standing intercept orders (T-STRAT-2), directives (T-STRAT-3) ----------------

fn linden() -> CampaignScenario {
    CampaignScenario::load(&rules::testing::repo_path("scenarios/campaign/linden.ron")).expect("the shipped campaign")
}

/// T-STRAT-2 and T-STRAT-3, two viewers: red gives one army the intercept order and sends a
/// directive; blue's view shows no intercept order and its seen events hide both orders (in their
/// places), while red's and the umpire's show them. Blue's view is the same as if red had given
/// no order at all; the seed is in no view.
#[test]
fn t_strat_2_intercept_orders_and_directives_are_hidden_from_the_other_side() {
    let s = linden();
    let mut c = Campaign::new(&s, 987_654_321);
    let side = c.active_player().expect("a side to move");
    let other = side.other();
    let before = Campaign::view_hash(&c.view(Viewer::Player(other)));
    let army = c.state().armies.iter().find(|a| a.side == side).map(|a| a.id).expect("an army");
    let mut events = c.apply(rules::campaign::Order::Intercept { army, on: true }).expect("an order");
    events.extend(
        c.apply(rules::campaign::Order::Directive { to: Some(army), text: "hold the bridge".into() })
            .expect("a directive"),
    );
    let theirs = c.view(Viewer::Player(other));
    assert!(theirs.armies.iter().all(|a| !a.intercept));
    assert!(c.view(Viewer::Player(side)).armies.iter().any(|a| a.id == army && a.intercept));
    assert!(c.view(Viewer::Umpire).armies.iter().any(|a| a.id == army && a.intercept));
    assert_eq!(Campaign::view_hash(&theirs), before, "nothing blue may know changed");
    let seen = c.seen(Viewer::Player(other), &events);
    assert_eq!(seen.len(), events.len());
    assert!(seen.iter().all(Seen::is_hidden), "{seen:?}");
    assert!(!ron(&seen).contains("hold the bridge"));
    assert!(c.seen(Viewer::Player(side), &events).iter().all(|e| !e.is_hidden()));
    for v in [Viewer::Player(side), Viewer::Player(other), Viewer::Umpire] {
        assert!(!ron(&c.view(v)).contains("987654321"), "the seed is in no view");
    }
    assert!(c.ctx_as(Viewer::Player(other)).state.armies.iter().all(|a| !a.intercept));
}
