//! The Great War board, headless: the overlays a player toggles by key (supply, front line,
//! encirclement, climate, sea lanes) and the engine's values they show, the zoom levels that
//! switch divisions for armies, and the room the panels leave the map.

mod support;
use bevy::prelude::*;
use kriegsspiel::great_war::board::{OVERVIEW_SCALE, map_rect};
use kriegsspiel::great_war::camera::{MAX_SCALE, fitted_view, view_rect};
use kriegsspiel::great_war::counters::{
    ARMY_SCALE, CORPS_SCALE, CounterOf, ZoomLevel, declutter, piles, stacks, zoom_level,
};
use kriegsspiel::great_war::layers::{
    FrontMark, Overlay, Overlays, Supply, climate_casualties, encirclement, front_line, lanes, sea_places, supply,
    tint_image,
};
use kriegsspiel::great_war::{StartGreatWar, files};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::Seat;
use rules::strategic::hexmap::{Climate, HexMap, Terrain};
use rules::strategic::naval::model::ShipType;
use rules::strategic::testkit::{ctx, hex, id, infantry, scenario};
use rules::strategic::{FormationId, GreatWar, Order, Phase, Piece, PowerId, Scenario};
use support::app;

mod gw_input;
use gw_input::*;

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";
const NORTH_SEA: &str = "scenarios/great_war/north_sea_1916.ron";

fn start(app: &mut App, scenario: Scenario, seats: Vec<Seat>) {
    app.world_mut().write_message(StartGreatWar { scenario, seed: 1, seats });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

fn overlays(app: &App) -> Overlays {
    *app.world().resource::<Overlays>()
}

/// F3…F7 lay each overlay over the map and take it off again, one at a time.
#[test]
fn each_overlay_toggles_by_its_key() {
    let mut app = app();
    let scenario = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    start(&mut app, scenario, vec![Seat::Human; 3]);
    assert_eq!(overlays(&app), Overlays::default(), "a game opens with no overlay");
    let keys = [KeyCode::F3, KeyCode::F4, KeyCode::F5, KeyCode::F6, KeyCode::F7];
    for (key, overlay) in keys.into_iter().zip(Overlay::ALL) {
        press(&mut app, key);
        let on = overlays(&app);
        assert!(on.is_on(overlay), "{key:?} lays {overlay:?}");
        assert_eq!(on.on().collect::<Vec<_>>(), vec![overlay], "{key:?} lays only {overlay:?}");
        press(&mut app, key);
        assert_eq!(overlays(&app), Overlays::default(), "{key:?} again takes {overlay:?} off");
    }
    // Toggling gives no order.
    assert!(session(&app).game.orders().is_empty());
}

/// S-SUP-2 through the game: a power with no money cannot pay its troops in the Upkeep, and the
/// supply overlay shows its hexes without money while its enemies' stay supplied.
#[test]
fn an_unpaid_power_shows_unsupplied_on_the_supply_overlay() {
    let mut app = app();
    let mut scenario = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    // Bankrupt: the Upkeep's income cannot cover its troops.
    scenario.powers[0].money = -100_000;
    let start_turn = scenario.start_turn;
    let before = supply(&GreatWar::new(&scenario, 1).ctx());
    assert!(before.values().all(|s| *s == Supply::Supplied), "everyone starts supplied: {before:?}");
    start(&mut app, scenario, vec![Seat::Human; 3]);
    for _ in 0..40 {
        if session(&app).ctx().clock.turn > start_turn {
            break;
        }
        press(&mut app, KeyCode::Space);
        app.update();
        if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
            press(&mut app, KeyCode::Enter);
        }
    }
    let c = session(&app).ctx();
    assert!(c.clock.turn > start_turn, "the Upkeep has been played");
    let shown = supply(&c);
    let power_at = |at| c.at(at).iter().filter_map(|u| c.force(*u)).map(|f| f.power).next();
    let german: Vec<_> = shown.iter().filter(|(at, _)| power_at(**at) == Some(PowerId(0))).collect();
    let allied: Vec<_> = shown.iter().filter(|(at, _)| power_at(**at) != Some(PowerId(0))).collect();
    assert!(!german.is_empty() && !allied.is_empty());
    assert!(german.iter().all(|(_, s)| matches!(s, Supply::NoMoney | Supply::Unsupplied)), "{german:?}");
    assert!(allied.iter().all(|(_, s)| **s == Supply::Supplied), "{allied:?}");
    // The overlay reads the engine's flags, unit by unit.
    for f in c.forces.iter().filter(|f| f.on_map()) {
        let at = f.hex().expect("on the map");
        assert!(shown[&at] >= if f.supply.money { Supply::Supplied } else { Supply::NoMoney });
    }
}

/// S-SUP-6: the front-line overlay counts the turns in a row against the period (2 for a unit
/// outside corps) and turns red the Upkeep before the Morale loss.
#[test]
fn the_front_line_overlay_counts_turns_against_the_period() {
    let s = scenario(
        HexMap::filled("m", 20, 8, Terrain::Clear),
        vec![infantry(1, "germany", (2, 2)), infantry(9, "france", (4, 3)), infantry(5, "germany", (15, 6))],
    );
    let mut c = ctx(&s, Phase::Upkeep, 0);
    let mark = |c: &rules::strategic::Ctx| front_line(c).get(&hex(2, 2)).copied();
    assert_eq!(mark(&c), Some(FrontMark { turns: 0, period: 2, worn: false }), "on the line, no turn counted yet");
    assert!(!front_line(&c).contains_key(&hex(15, 6)), "far from the enemy, no mark");
    c.rotation();
    assert_eq!(mark(&c), Some(FrontMark { turns: 1, period: 2, worn: false }));
    c.rotation();
    assert_eq!(mark(&c), Some(FrontMark { turns: 2, period: 2, worn: true }), "the 3rd turn costs Morale");
}

use rules::strategic::testkit::german_city;

/// S-COMBAT-11: a German division between two French ones with the path north held by a
/// second German division is not encircled; without it, it is, and the overlay counts its turns.
#[test]
fn the_encirclement_overlay_shows_the_cut_off_hex() {
    let forces = vec![
        infantry(1, "germany", (5, 5)),
        infantry(2, "germany", (5, 4)),
        infantry(10, "france", (4, 5)),
        infantry(11, "france", (6, 5)),
    ];
    let map = || german_city(HexMap::filled("m", 12, 10, Terrain::Clear), (5, 0));
    let s = scenario(map(), forces.clone());
    assert!(encirclement(&ctx(&s, Phase::Upkeep, 0)).is_empty(), "the path north is held");
    let s = scenario(map(), forces.into_iter().filter(|f| f.id != 2).collect());
    let mut c = ctx(&s, Phase::Upkeep, 0);
    assert_eq!(encirclement(&c).into_iter().collect::<Vec<_>>(), vec![(hex(5, 5), 0)]);
    c.encirclement();
    assert_eq!(encirclement(&c).into_iter().collect::<Vec<_>>(), vec![(hex(5, 5), 1)], "one turn encircled");
}

/// S-SUP-5: the climate overlay rings the units the harsh climate will cost Health, not the
/// mountain troops in the mountains nor anyone in a temperate hex.
#[test]
fn the_climate_overlay_marks_who_the_climate_hurts() {
    let mut map = HexMap::filled("m", 10, 6, Terrain::Clear);
    for (at, t) in [((1, 1), Terrain::Desert), ((5, 1), Terrain::Mountains)] {
        let cell = map.cell_mut(hex(at.0, at.1)).expect("on the map");
        cell.terrain = t;
        cell.climate = Climate::of(t);
    }
    let mountain = rules::strategic::scenario::KindSpec::Infantry {
        model: rules::strategic::tables::Model::M1914,
        class: 1,
        mountain: true,
        elite: false,
        colonial: None,
    };
    let s = scenario(
        map.clone(),
        vec![
            infantry(1, "france", (1, 1)),
            rules::strategic::testkit::unit(2, "france", (5, 1), mountain),
            infantry(3, "france", (3, 3)),
        ],
    );
    assert_eq!(climate_casualties(&ctx(&s, Phase::Upkeep, 0)), vec![hex(1, 1)]);
    // The zones' tint: two pixels a hex, odd rows a pixel east, clear where the climate is mild.
    let img = tint_image(&map, [(hex(1, 1), [1, 2, 3, 4]), (hex(2, 2), [5, 6, 7, 8])].into_iter());
    let size = img.texture_descriptor.size;
    assert_eq!((size.width, size.height), (21, 6));
    let data = img.data.as_ref().expect("pixels");
    let px = |x: usize, y: usize| &data[(y * 21 + x) * 4..(y * 21 + x) * 4 + 4];
    assert_eq!(
        (px(3, 1), px(4, 1), px(2, 1), px(5, 1)),
        (&[1, 2, 3, 4][..], &[1, 2, 3, 4][..], &[0; 4][..], &[0; 4][..])
    );
    assert_eq!((px(4, 2), px(5, 2)), (&[5, 6, 7, 8][..], &[5, 6, 7, 8][..]));
}

/// S-NAVAL-15: the sea-lane overlay shows the lane's sea by name and the North Sea convoy lane at 100 %, and 5 % less for
/// each submarine of an enemy flotilla patrolling it.
#[test]
fn the_sea_lane_overlay_shows_the_efficiency_after_submarines() {
    let scenario = files::load_scenario(NORTH_SEA).expect("the scenario loads");
    let game = GreatWar::new(&scenario, 1);
    let mut c = game.ctx();
    let shown = lanes(&c);
    assert_eq!(shown.len(), 1);
    assert_eq!((shown[0].efficiency, shown[0].full), (100, 100));
    let area = shown[0].area;
    // Large maps list a sea area's hexes in the cells alone: its place (and the hex its name and
    // its mines are drawn on) is found from them.
    let places = sea_places(c.map());
    let label = places[usize::from(area)].label.expect("the North Sea has hexes");
    assert_eq!(c.map().sea_area_at(label).map(|a| a.id.as_str()), Some("north_sea"));
    // The U-boat flotilla moves onto the lane's area and patrols it.
    let flotilla = 11;
    let boats = c.navy.count(flotilla, ShipType::Submarine);
    assert!(boats > 0);
    let on_lane = sea_places(c.map())[usize::from(area)].hexes[0];
    c.navy.fleet_mut(flotilla).expect("afloat").at = on_lane;
    c.clock.phase = Phase::Movement;
    c.clock.active = 0;
    c.apply(&Order::Patrol { flotilla, lane: 0 }).expect("the flotilla patrols the lane");
    assert_eq!(lanes(&c)[0].efficiency, 100 - boats * 5);
}

/// Issue 27: close up every division has its own counter, those of corps too; at the middle
/// zoom each corps stands for its divisions; from the army zoom on the 5th Army's corps give way
/// to its XXXX counter; far out the overview alone is drawn under it. A hex of several counters
/// reads as one, the highest echelon on top, with their number.
#[test]
fn the_zoom_switches_from_divisions_to_corps_to_armies_and_a_stack_is_one_counter_with_a_count() {
    assert_eq!(zoom_level(1.0), ZoomLevel::Divisions);
    assert_eq!(zoom_level(CORPS_SCALE), ZoomLevel::Divisions);
    assert_eq!(zoom_level(CORPS_SCALE + 0.01), ZoomLevel::Corps);
    assert_eq!(zoom_level(ARMY_SCALE), ZoomLevel::Corps);
    assert_eq!(zoom_level(ARMY_SCALE + 0.01), ZoomLevel::Armies);
    assert_eq!(zoom_level(OVERVIEW_SCALE), ZoomLevel::Armies);
    assert_eq!(zoom_level(OVERVIEW_SCALE + 0.01), ZoomLevel::Overview);
    let scenario = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    let c = GreatWar::new(&scenario, 1).ctx();
    let all = |level| stacks(&c, level, None).into_values().flatten().map(|(_, what)| what).collect::<Vec<_>>();
    let near = all(ZoomLevel::Divisions);
    let middle = all(ZoomLevel::Corps);
    let far = all(ZoomLevel::Armies);
    let army = CounterOf::Army(FormationId(201));
    let corps = CounterOf::Piece(Piece::Corps(FormationId(101)));
    let members: Vec<CounterOf> = c
        .formation(FormationId(101))
        .expect("corps 101")
        .units
        .iter()
        .map(|u| CounterOf::Piece(Piece::Unit(*u)))
        .collect();
    assert!(members.len() >= 2, "{members:?}");
    assert!(members.iter().all(|m| near.contains(m)) && !near.contains(&corps), "{near:?}");
    assert!(middle.contains(&corps) && !middle.contains(&army), "{middle:?}");
    assert!(members.iter().all(|m| !middle.contains(m)), "{middle:?}");
    assert!(far.contains(&army) && !far.contains(&corps), "{far:?}");
    assert!(!far.contains(&CounterOf::Piece(Piece::Corps(FormationId(102)))));
    assert_eq!(all(ZoomLevel::Overview), far, "the overview shows the armies too");
    // A French division outside any army keeps its counter at every zoom.
    let french = CounterOf::Piece(Piece::Unit(id(36)));
    assert!(near.contains(&french) && middle.contains(&french) && far.contains(&french));
    // Each hex is one counter; its count is the number of counters it stands for.
    for level in [ZoomLevel::Divisions, ZoomLevel::Corps, ZoomLevel::Armies] {
        let stacked = stacks(&c, level, None);
        let shown = piles(stacked.clone());
        assert_eq!(shown.len(), stacked.len());
        for (at, pile) in &shown {
            assert_eq!(pile.count, stacked[at].len(), "{level:?} at {at}");
            assert!(stacked[at].contains(&pile.top));
            assert!(stacked[at].iter().all(|(l, _)| l.echelon <= pile.top.0.echelon), "the highest echelon on top");
        }
    }
    let hex_of_corps = c.piece_hex(Piece::Corps(FormationId(101))).expect("on the map");
    let close = &piles(stacks(&c, ZoomLevel::Divisions, None))[&hex_of_corps];
    let mid = &piles(stacks(&c, ZoomLevel::Corps, None))[&hex_of_corps];
    assert!(close.count >= members.len(), "the corps's divisions counted close up: {}", close.count);
    assert!(mid.count < close.count, "the corps is one counter at the middle zoom: {} v {}", mid.count, close.count);
}

/// F fits the whole map into the room the panels leave (never under them): the view of the
/// fitted zoom holds the whole map, and a smaller room needs a farther zoom.
#[test]
fn the_fitted_map_lies_in_the_panels_room() {
    for path in [TEST_FRONT, NORTH_SEA, "scenarios/great_war/august_1914.ron"] {
        let scenario = files::load_scenario(path).expect("the scenario loads");
        let map = map_rect(&scenario.map);
        let window = Vec2::new(1280.0, 720.0);
        // The left panel (270), the phase bar (30) and the log (150) taken.
        let room = window - Vec2::new(270.0, 180.0);
        let (centre, scale) = fitted_view(&scenario.map, room);
        let shown = view_rect(centre, scale, room);
        assert!(scale < MAX_SCALE, "{path}: the zoom reaches the whole map");
        assert!(shown.contains(map.min) && shown.contains(map.max), "{path}: {shown:?} holds {map:?}");
        let (_, whole_window) = fitted_view(&scenario.map, window);
        assert!(scale > whole_window, "{path}: the room is smaller than the window");
    }
}

/// Issue 27: the top bar's goals say when the war ends (turn and date), how it is won, and the
/// victory points each side holds, from the scenario's calendar and victory block.
#[test]
fn the_goals_say_when_the_war_ends_how_it_is_won_and_the_points_now() {
    let scenario = files::load_scenario("scenarios/great_war/east_prussia_1914.ron").expect("loads");
    let c = ctx(&scenario, Phase::Movement, 0);
    let tr = kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::English);
    let lines = kriegsspiel::great_war::panels::goal_lines(&tr, &c, PowerId(0));
    assert_eq!(lines[0], "The war ends after turn 2 (September 1914), unless one side has surrendered first.");
    assert!(lines.iter().any(|l| l.contains("holds its capital and 50 %")), "{lines:?}");
    let points = c.victory_points();
    let mine = usize::from(c.alliance(PowerId(0)).min(1));
    let want = format!("Victory points now: your side {}, the enemy {}.", points[mine], points[1 - mine]);
    assert!(lines.contains(&want), "{lines:?}");
    let ru = kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::Russian);
    let lines = kriegsspiel::great_war::panels::goal_lines(&ru, &c, PowerId(0));
    assert!(lines[0].contains("сентябрь 1914"), "{lines:?}");
    // Without a victory block: played to the last turn.
    let test_front = files::load_scenario(TEST_FRONT).expect("loads");
    let c = ctx(&test_front, Phase::Movement, 0);
    let lines = kriegsspiel::great_war::panels::goal_lines(&tr, &c, PowerId(0));
    assert!(lines.iter().any(|l| l.contains("sets no victory conditions")), "{lines:?}");
}

/// Issue 27: the political map fills each land hex with its sovereign's colour and hatches an
/// occupied one in the occupier's; the front runs where the land of powers at war meets. When a
/// Russian border province of East Prussia 1914 changes hands its hexes follow, and the front
/// moves to its far side; ceded by a treaty, it takes the new sovereign's colour. T switches to
/// the terrain view and back.
#[test]
fn political_colours_follow_a_province_that_changes_hands() {
    use kriegsspiel::great_war::art::power_rgb;
    use kriegsspiel::great_war::political::{HexLook, MapView, Politics};
    // East Prussia: German provinces on the border with Russian ones.
    let scenario = files::load_scenario("scenarios/great_war/east_prussia_1914.ron").expect("the scenario loads");
    let mut c = GreatWar::new(&scenario, 1).ctx();
    let map = scenario.map.clone();
    let power = |id: &str| PowerId(scenario.power_index(id).expect(id) as u8);
    // "france" below is the Russian side: the province that changes hands is Russian.
    let (germany, france) = (power("germany"), power("russia"));
    let hexes_of =
        |p: usize| map.hexes().filter(|h| c_province(&map, *h) == Some(p) && map.is_land(*h)).collect::<Vec<_>>();
    let borders = |a: &[rules::strategic::HexAt], b: &[rules::strategic::HexAt]| {
        a.iter()
            .flat_map(|h| (0..6u8).map(move |d| (*h, h.neighbour(d))))
            .filter(|(_, n)| b.contains(n))
            .collect::<Vec<_>>()
    };
    // A Russian province on the border with a German one.
    let owned = |owner: &str| (0..map.provinces.len()).filter(|i| map.provinces[*i].owner == owner).collect::<Vec<_>>();
    let (lorraine, lothringen) = owned("russia")
        .into_iter()
        .flat_map(|f| owned("germany").into_iter().map(move |g| (f, g)))
        .find(|(f, g)| !borders(&hexes_of(*f), &hexes_of(*g)).is_empty())
        .expect("Russia borders Germany");
    let (french, german) = (hexes_of(lorraine), hexes_of(lothringen));
    let between = borders(&french, &german);
    let before = Politics::of(&c);
    for h in &french {
        assert_eq!(before.hex(&map, *h), Some(HexLook { sovereign: france, hatch: None }));
    }
    assert!(between.iter().all(|(a, b)| before.front_between(&map, *a, *b)), "the front on the border");
    // Allies at war share no front (the map of August 1914 drew one round Bohemia): the same
    // border with Russia in Germany's alliance has none.
    let mut allied = scenario.clone();
    let alliance = allied.powers[usize::from(germany.0)].alliance;
    allied.powers[usize::from(france.0)].alliance = alliance;
    let friends = Politics::of(&GreatWar::new(&allied, 1).ctx());
    assert!(between.iter().all(|(a, b)| !friends.front_between(&map, *a, *b)), "no front between allies");
    assert_ne!(before.rgb(germany), before.rgb(france));
    assert_eq!(before.rgb(france), power_rgb("russia", usize::from(france.0)));
    // Germany takes Verdun: Lorraine is hatched in German grey, the front leaves the border.
    c.provinces[lorraine].occupier = Some(germany);
    let occupied = Politics::of(&c);
    assert_ne!(occupied, before);
    for h in &french {
        assert_eq!(occupied.hex(&map, *h), Some(HexLook { sovereign: france, hatch: Some(germany) }));
        assert_eq!(occupied.holder(&map, *h), Some(germany));
    }
    assert!(between.iter().all(|(a, b)| !occupied.front_between(&map, *a, *b)), "no front inside German-held land");
    let rest: Vec<_> = map
        .hexes()
        .filter(|h| map.is_land(*h) && c_province(&map, *h).is_some_and(|p| p != lorraine && p != lothringen))
        .collect();
    let west = borders(&french, &rest);
    let french_held = |h: &rules::strategic::HexAt| occupied.holder(&map, *h) == Some(france);
    assert!(west.iter().any(|(a, b)| french_held(b) && occupied.front_between(&map, *a, *b)), "the front moved west");
    // A peace treaty cedes it: Germany's colour, no hatching.
    c.provinces[lorraine].occupier = None;
    c.provinces[lorraine].ceded_to = Some(germany);
    let ceded = Politics::of(&c);
    for h in &french {
        assert_eq!(ceded.hex(&map, *h), Some(HexLook { sovereign: germany, hatch: None }));
    }
    // The sea has no political colour.
    let sea = map.hexes().find(|h| map.cell(*h).is_some_and(|cell| cell.terrain.is_water())).expect("a sea hex");
    assert_eq!(before.hex(&map, sea), None);
    // The view: political at the start, T for the terrain and back.
    let mut app = app();
    start(&mut app, scenario, vec![Seat::Human; 3]);
    assert_eq!(*app.world().resource::<MapView>(), MapView::Political);
    press(&mut app, KeyCode::KeyT);
    assert_eq!(*app.world().resource::<MapView>(), MapView::Terrain);
    press(&mut app, KeyCode::KeyT);
    assert_eq!(*app.world().resource::<MapView>(), MapView::Political);
}

fn c_province(map: &HexMap, at: rules::strategic::HexAt) -> Option<usize> {
    map.cell(at).and_then(|cell| usize::from(cell.province).checked_sub(1))
}

/// Issue 27: far out, a power's counters that would overlap on screen read as one with the count
/// of all: in cells wider than the whole test front each power keeps one counter counting every
/// one of its counters, its highest echelon on top; in cells smaller than a hex nothing changes.
#[test]
fn far_out_a_powers_overlapping_counters_read_as_one() {
    let scenario = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    let c = GreatWar::new(&scenario, 1).ctx();
    let heaps = piles(stacks(&c, ZoomLevel::Armies, None));
    assert_eq!(declutter(heaps.clone(), 1.0), heaps, "a cell smaller than a hex changes nothing");
    let one = declutter(heaps.clone(), 1.0e6);
    let mut powers: Vec<PowerId> = heaps.values().map(|p| p.top.0.power).collect();
    powers.sort();
    powers.dedup();
    assert_eq!(one.len(), powers.len(), "one counter a power: {one:?}");
    for p in powers {
        let of = |m: &std::collections::BTreeMap<_, kriegsspiel::great_war::counters::Pile>| {
            m.values().filter(|x| x.top.0.power == p).map(|x| x.count).sum::<usize>()
        };
        assert_eq!(of(&one), of(&heaps), "{p:?}: every counter counted");
        let top = one.values().find(|x| x.top.0.power == p).expect("its counter");
        let highest = heaps.values().filter(|x| x.top.0.power == p).map(|x| x.top.0.echelon).max();
        assert_eq!(Some(top.top.0.echelon), highest, "{p:?}: the highest echelon on top");
    }
}
