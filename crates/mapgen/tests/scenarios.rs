//! The Great War scenarios of 1914 (`mapgen scenarios`): the committed files are the generator's
//! output, the referee accepts them, they play and replay, and the armies stand where they stood in
//! August 1914.

use mapgen::oob::{Folders, Generated, generate_all};
use rules::Game;
use rules::strategic::hexmap::HexAt;
use rules::strategic::scenario::ScenarioFile;
use rules::strategic::{GreatWar, Order, Scenario};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The generator's output, built once for every test.
fn generated() -> &'static [Generated] {
    static ALL: OnceLock<Vec<Generated>> = OnceLock::new();
    ALL.get_or_init(|| generate_all(&Folders::at(&root())).expect("the tables build"))
}

fn path_of(file: &str) -> PathBuf {
    root().join("scenarios/great_war").join(file)
}

#[test]
fn committed_scenarios_are_the_generators_output_and_the_referee_accepts_them() {
    for g in generated() {
        let path = path_of(&g.file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(committed == g.text, "{} differs from `mapgen scenarios`: run it", path.display());
        // The text reads back as the very file the generator built (defaults left out are defaults).
        let back: ScenarioFile = rules::data::parse_checked(&path.display().to_string(), &g.text).expect("parses");
        assert_eq!(back, g.scenario, "{}", g.file);
        Scenario::load(&path).unwrap_or_else(|e| panic!("{}: {e}", g.file));
        for (file, text) in &g.orders {
            let committed = std::fs::read_to_string(path_of(file)).unwrap_or_default();
            assert!(committed == *text, "{file} differs from `mapgen scenarios`: run it");
        }
        println!("{}: {}", g.file, g.census);
    }
}

#[test]
fn the_generator_is_deterministic() {
    let again = generate_all(&Folders::at(&root())).expect("the tables build");
    for (a, b) in generated().iter().zip(&again) {
        assert!(a.text == b.text, "{} differs between two runs", a.file);
    }
}

/// Latitude and longitude of a unit's hex.
fn latlon(s: &Scenario, at: HexAt) -> (f64, f64) {
    s.map.projection.as_ref().expect("a geographic map").latlon_of(at)
}

/// Great-circle distance in km.
fn km((a, b): (f64, f64), (c, d): (f64, f64)) -> f64 {
    let (p1, p2, dl) = (a.to_radians(), c.to_radians(), (d - b).to_radians());
    6371.0 * (p1.sin() * p2.sin() + p1.cos() * p2.cos() * dl.cos()).clamp(-1.0, 1.0).acos()
}

/// The hexes of every division of an army, found by the army's name.
fn army_hexes(s: &Scenario, army: &str) -> Vec<HexAt> {
    // By its name, or by its Russian name (the tables' original, issue 27).
    let named = |a: &&rules::strategic::scenario::ArmySpec| {
        a.name.starts_with(army) || s.name_ru(a.id).is_some_and(|n| n.starts_with(army))
    };
    let a = s.armies.iter().find(named).unwrap_or_else(|| panic!("no army {army}"));
    let corps = s.corps.iter().filter(|c| a.corps.contains(&c.id));
    let hexes: Vec<HexAt> =
        corps.flat_map(|c| c.units.iter()).filter_map(|u| s.forces.iter().find(|f| f.id == *u)?.at).collect();
    assert!(!hexes.is_empty(), "{army} has no divisions on the map");
    hexes
}

fn province(s: &Scenario, at: HexAt) -> String {
    s.map.province_at(at).map(|p| p.id.clone()).unwrap_or_default()
}

#[test]
fn the_armies_of_august_1914_stand_where_they_stood() {
    let s = Scenario::load(&path_of("august_1914.ron")).expect("loads");
    // The German 8th Army in East Prussia.
    for h in army_hexes(&s, "8. Armee") {
        assert_eq!(province(&s, h), "ostpreussen", "8. Armee at {h}");
    }
    // The BEF between Maubeuge and Mons.
    let (mons, maubeuge) = ((50.45, 3.95), (50.28, 3.97));
    for h in army_hexes(&s, "British Expeditionary Force") {
        let p = latlon(&s, h);
        assert!(km(p, mons).min(km(p, maubeuge)) < 25.0, "BEF at {p:?}");
    }
    // The Russian 1st Army east of East Prussia, the 2nd south of it, both on Russian ground;
    // named in English, with the tables' Russian beside (issue 27).
    let first = s.armies.iter().find(|a| s.name_ru(a.id).is_some_and(|n| n.starts_with("1-я армия"))).expect("1st");
    assert!(first.name.starts_with("1st Army"), "{}", first.name);
    assert!(
        s.forces
            .iter()
            .filter_map(|f| f.name.as_deref())
            .all(|n| !n.chars().any(|c| ('\u{400}'..='\u{4FF}').contains(&c))),
        "no unit of the scenario is named in Cyrillic"
    );
    for h in army_hexes(&s, "1-я армия") {
        let (lat, lon) = latlon(&s, h);
        assert!(lon > 22.6 && (53.7..55.2).contains(&lat), "1st Army at {lat},{lon}");
        assert_eq!(s.map.province_at(h).map(|p| p.owner.as_str()), Some("russia"));
    }
    for h in army_hexes(&s, "2-я армия") {
        let (lat, lon) = latlon(&s, h);
        assert!(lat < 53.45 && (19.3..22.0).contains(&lon), "2nd Army at {lat},{lon}");
        assert_eq!(s.map.province_at(h).map(|p| p.owner.as_str()), Some("russia"));
    }
    // The Austro-Hungarian 1st, 3rd and 4th Armies in Galicia.
    for army in [
        "1. Armee (General der Kavallerie Viktor Dankl",
        "3. Armee (General der Kavallerie Rudolf von Brudermann",
        "4. Armee (General der Infanterie Moritz von Auffenberg",
    ] {
        for h in army_hexes(&s, army) {
            let p = province(&s, h);
            assert!(p.starts_with("galizien"), "{army} at {h} in {p}");
        }
    }
    // The Serbian armies around Valjevo and the Cer, within 90 km of Valjevo.
    for h in army_hexes(&s, "Serbian Supreme Command") {
        let p = latlon(&s, h);
        assert!(km(p, (44.27, 19.89)) < 90.0, "Serbian army at {p:?}");
        assert_eq!(s.map.province_at(h).map(|p| p.owner.as_str()), Some("serbia"));
    }
    // Goeben and Breslau at Constantinople, the Grand Fleet at Scapa Flow.
    let fleet = |name: &str| s.fleets.iter().find(|f| f.name.starts_with(name)).expect("fleet").at;
    assert!(km(latlon(&s, fleet("Mittelmeerdivision")), (41.01, 28.98)) < 15.0);
    assert!(km(latlon(&s, fleet("Grand Fleet: 1st")), (58.88, -3.10)) < 15.0);
}

/// Every power passes: EndPhase until `turns` turns are over (or the game ends).
fn pass_turns(game: &mut GreatWar, turns: u32) {
    let last = game.clock().turn + turns;
    let mut orders = 0;
    while game.clock().turn < last && !game.is_over() {
        game.apply(Order::EndPhase).expect("a power may always end its phase");
        orders += 1;
        assert!(orders < 10_000, "the turns never end");
    }
}

#[test]
fn august_1914_plays_its_52_turns_with_every_power_passing_and_replays_bit_identically() {
    let s = Scenario::load(&path_of("august_1914.ron")).expect("loads");
    // Issue 27: the whole war, August 1914 to November 1918 by the calendar (was 20 turns).
    assert_eq!((s.start_turn, s.max_turns), (1, 52), "the grand campaign's 52 turns");
    let mut game = GreatWar::new(&s, 1914);
    pass_turns(&mut game, 52);
    // Nobody surrenders while everyone passes: the turn limit's victory points decide.
    assert!(game.is_over(), "the game ends after turn 52");
    assert_eq!(game.clock().turn, 52);
    // The save as a file holds it: written, read back within the referee's file limit (the map
    // is packed, hexmap::PACKED_ABOVE_HEXES), and replayed from the text.
    let text = game.save().to_text();
    assert!(text.len() as u64 <= rules::limits::MAX_FILE_BYTES / 8, "the save takes {} bytes", text.len());
    let save = rules::strategic::SaveGame::from_text("august_1914_save.ron", &text).expect("the save reads back");
    assert_eq!(save.to_text(), text, "and writes back byte for byte");
    let again = GreatWar::replay(&save).expect("the save replays");
    assert_eq!(again.hash(), game.hash());
    assert_eq!(again.state(), game.state());
    println!("august_1914: {} orders, save {} bytes, state hash {:?}", game.orders().len(), text.len(), game.hash());
}

#[test]
fn north_sea_1916_plays_its_orders_on_the_europe_map() {
    let s = Scenario::load(&path_of("north_sea_1916.ron")).expect("loads");
    assert!(s.map.projection.is_some(), "North Sea 1916 lies on the Europe map");
    let text = std::fs::read_to_string(path_of("north_sea_1916_orders.ron")).expect("orders");
    let orders: Vec<Order> = rules::data::parse_orders("north_sea_1916_orders.ron", &text).expect("parses");
    let mut game = GreatWar::new(&s, 3);
    for (i, o) in orders.into_iter().enumerate() {
        game.apply(o.clone()).unwrap_or_else(|e| panic!("order {i} ({o:?}): {e}"));
    }
    // Jutland: the fleets stood where they were at 14:00 on 31 May 1916.
    let fleet = |name: &str| s.fleets.iter().find(|f| f.name.starts_with(name)).expect("fleet").at;
    assert!(km(latlon(&s, fleet("Battlecruiser Fleet")), (56.80, 4.35)) < 10.0);
    assert!(km(latlon(&s, fleet("Hochseeflotte")), (56.35, 6.00)) < 10.0);
    // The division landed next to the Harwich Force on the Belgian coast (Nieuport).
    let landed = game.events().iter().any(|e| e.text().contains("lands at"));
    assert!(landed, "the Royal Naval Division lands");
}

#[test]
fn august_1914_lands_its_arrivals_on_their_turns_and_the_usa_when_it_enters() {
    use rules::strategic::campaign::Entry;
    use rules::strategic::state::{ForceId, Place};
    let mut s = Scenario::load(&path_of("august_1914.ron")).expect("loads");
    let usa = s.power_index("usa").expect("the USA is a power of the grand campaign");
    assert_eq!(s.powers[usa].entry.and_then(|e| e.turn), Some(33), "April 1917 by the calendar");
    let americans: Vec<_> = s.forces.iter().filter(|f| f.power == "usa").cloned().collect();
    assert_eq!(americans.len(), 7, "the Regular Army as three divisions, the National Guard as four");
    // Its entry lies in turn 33: bring it forward to turn 2 to see them land.
    s.powers[usa].entry = Some(Entry { turn: Some(2), when_invaded: false });
    let mut game = GreatWar::new(&s, 1914);
    let place = |g: &GreatWar, id: u32| g.ctx().force(ForceId(id)).expect("unit").place;
    let by_name =
        |name: &str| s.forces.iter().find(|f| f.name.as_deref().is_some_and(|n| n.starts_with(name))).expect(name);
    let (lahore, meerut) = (by_name("Lahore Division"), by_name("Meerut Division"));
    assert_eq!(lahore.arrives.and_then(|a| a.turn), Some(2), "September 1914");
    assert_eq!(meerut.arrives.and_then(|a| a.turn), Some(3), "October 1914");
    for f in americans.iter().chain([lahore, meerut]) {
        assert!(matches!(place(&game, f.id), Place::Arriving(_)), "{:?} is off the map in turn 1", f.name);
    }
    pass_turns(&mut game, 1);
    assert_eq!(game.clock().turn, 2);
    for f in americans.iter().chain([lahore]) {
        let Place::Map(at) = place(&game, f.id) else { panic!("{:?} has not landed", f.name) };
        let port = f.arrives.expect("an arrival").at;
        assert!(port.distance(at) <= 2, "{:?} lands at {at}, {} hexes from its port {port}", f.name, port.distance(at));
        assert_eq!(s.map.province_at(at).map(|p| p.owner.as_str()), Some("france"), "{:?} lands in France", f.name);
    }
    let marseille = latlon(
        &s,
        match place(&game, lahore.id) {
            Place::Map(at) => at,
            other => panic!("{other:?}"),
        },
    );
    assert!(km(marseille, (43.30, 5.37)) < 20.0, "the Indian Corps lands at Marseille");
    assert!(matches!(place(&game, meerut.id), Place::Arriving(_)), "Meerut comes in turn 3");
}

#[test]
fn august_1914_has_sea_lanes_in_the_atlantic_approaches_the_mediterranean_the_baltic_and_the_black_sea() {
    use rules::strategic::naval::ShipType;
    use rules::strategic::state::{Phase, PowerId};
    let s = Scenario::load(&path_of("august_1914.ron")).expect("loads");
    let has_lane = |areas: &[&str]| s.sea_lanes.iter().any(|l| areas.contains(&l.area.as_str()));
    assert!(has_lane(&["western_approaches", "iberian_atlantic", "bay_of_biscay", "english_channel"]), "Atlantic");
    assert!(has_lane(&["western_med", "central_med", "adriatic", "aegean_sea"]), "Mediterranean");
    assert!(has_lane(&["baltic_south", "baltic_central", "gulf_of_bothnia", "gulf_of_finland"]), "Baltic");
    assert!(has_lane(&["black_sea_west", "black_sea_east"]), "Black Sea");
    for l in &s.sea_lanes {
        let area = s.map.sea_areas.iter().position(|a| a.id == l.area).expect("a sea area of the map");
        assert!(s.map.hexes().any(|h| s.map.cell(h).is_some_and(|c| usize::from(c.sea_area) == area + 1)), "{}", l.id);
        assert!(s.power_index(&l.owner).is_some() && l.efficiency == 100, "{}", l.id);
    }
    // S-NAVAL-15 on the Europe map: the U-boat flotillas of Helgoland (20 boats, 5 after S-NAVAL-1's
    // division by 4) patrol the Scandinavian trade lane of the North Sea: 5 % a boat, 75 % left.
    let germany = PowerId(s.power_index("germany").expect("germany") as u8);
    let mut c = rules::strategic::testkit::ctx(&s, Phase::Movement, germany.0);
    let lane = s.sea_lanes.iter().position(|l| l.id == "scandinavian_trade").expect("the lane");
    let north_sea = s.map.sea_areas.iter().position(|a| a.id == "north_sea").expect("the North Sea");
    let flotilla =
        c.navy.fleets.iter().find(|f| f.power == germany && c.navy.is_flotilla(f.id)).map(|f| f.id).expect("U-boats");
    let boats = c.navy.count(flotilla, ShipType::Submarine);
    assert_eq!(boats, 5);
    // The fleets start in port; the flotilla puts to sea on a hex of the lane's area.
    let at = s.map.hexes().find(|h| s.map.cell(*h).is_some_and(|c| usize::from(c.sea_area) == north_sea + 1));
    c.navy.fleets.iter_mut().find(|f| f.id == flotilla).expect("the flotilla").at = at.expect("a North Sea hex");
    assert_eq!(c.lane_efficiency(lane), 100);
    c.apply(&Order::Patrol { flotilla, lane: lane as u32 }).expect("a patrol");
    assert_eq!(c.lane_efficiency(lane), 75);
}
