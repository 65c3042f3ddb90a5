//! The Great War at sea and in the air, headless: every naval and air order of the engine given
//! through the scene's input (clicks on hexes, the fleet panel's commands) changes the engine as
//! the rules say, the fights wait for "yes" under the engine's preview, each family's refusal
//! shows the engine's reason, and enemy submarines stay hidden from a watching enemy until it
//! detects them (S-AIR-1 reconnaissance; its own flotilla in the same sea area, the house rule to
//! S-SUB-5), when its flotillas may fight them boat against boat (S-SUB-5).
//!
//! The fixture `tests/fixtures/great_war/sea_orders.ron` puts Germany (first to move) and Great
//! Britain on the small North Sea map with a ship or squadron for every order.

mod support;
use bevy::prelude::*;
use kriegsspiel::great_war::command::UiCommand;
use kriegsspiel::great_war::sea_orders::{self, SeaCommand, SeaPick};
use kriegsspiel::great_war::{Selected, StartGreatWar, files};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::Seat;
use rules::strategic::naval::model::{ShipId, ShipType};
use rules::strategic::query;
use rules::strategic::state::Place;
use rules::strategic::{Ctx, ForceId, GreatWar, HexAt, Order, Phase, Piece, PowerId};
use rules::view::Viewer;
use support::app;

mod gw_input;
use gw_input::*;

const SEA: &str = "tests/fixtures/great_war/sea_orders.ron";
const GERMANY: PowerId = PowerId(0);
const GB: PowerId = PowerId(1);

/// The fixture with a person at each power (hot-seat).
fn start() -> App {
    let mut app = app();
    let scenario = files::load_scenario(SEA).expect("the fixture loads");
    app.world_mut().write_message(StartGreatWar { scenario, seed: 7, seats: vec![Seat::Human; 2] });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    app
}

/// A button of a panel: the command it sends.
fn send(app: &mut App, command: UiCommand) {
    app.world_mut().write_message(command);
    app.update();
}

fn sea(app: &mut App, command: SeaCommand) {
    send(app, UiCommand::Sea(command));
}

fn ctx(app: &App) -> Ctx {
    session(app).ctx()
}

fn phase(app: &App) -> (Phase, PowerId) {
    let c = ctx(app);
    (c.clock.phase, c.active_power())
}

fn hand_over(app: &mut App) {
    if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
        press(app, KeyCode::Enter);
    }
}

fn end_phase(app: &mut App) {
    press(app, KeyCode::Space);
    app.update();
    hand_over(app);
}

/// Ends parts of phases until it is `power`'s part of `phase`.
fn until(app: &mut App, want: (Phase, PowerId)) {
    for _ in 0..12 {
        if phase(app) == want {
            return;
        }
        end_phase(app);
    }
    panic!("never reached {want:?}: at {:?}", phase(app));
}

/// Clicks a hex until the thing is the selection.
fn select(app: &mut App, what: Selected, at: HexAt) {
    for _ in 0..6 {
        click(app, at);
        if selected(app) == Some(what) {
            return;
        }
    }
    panic!("{what:?} could not be selected at {at}: {:?}", selected(app));
}

fn ships(c: &Ctx, fleet: u32, kind: ShipType) -> Vec<ShipId> {
    c.navy.afloat(fleet).into_iter().filter(|s| c.navy.ship(*s).is_some_and(|s| s.kind == kind)).collect()
}

/// The fight waiting for "yes" is the order asked for, and its preview's outcomes are certain in sum.
fn previewed(app: &App, order: &Order) {
    assert_eq!(session(app).confirm.as_ref(), Some(order), "waits for yes: {}", refusal(app));
    let p = session(app).game.preview(order).expect("the engine previews it");
    let total: f64 = p.outcomes.iter().map(|o| o.chance).sum::<f64>() + p.unexplored;
    assert!((total - 1.0).abs() < 1e-9, "the outcomes' chances add up to one: {total}");
}

fn hex(c: i32, r: i32) -> HexAt {
    HexAt::new(c, r)
}

/// The fixture stands as the tests expect: who is next to whom.
#[test]
fn the_fixture_places_every_ship_and_squadron_the_orders_need() {
    let scenario = files::load_scenario(SEA).expect("loads");
    let c = GreatWar::new(&scenario, 1).ctx();
    let at = |f: u32| c.navy.fleet(f).expect("a fleet").at;
    assert_eq!(at(11).distance(at(1)), 1, "the U-boats lie next to the Grand Fleet");
    assert_eq!(at(11).distance(at(2)), 2, "and two hexes from the Battlecruiser Fleet");
    assert_eq!(at(13).distance(hex(18, 16)), 1, "the transports lie off Wilhelmshaven");
    assert!(c.map().is_land(hex(18, 16)) && c.map().is_land(hex(22, 12)));
    assert_eq!(c.coastal_range(ForceId(11)), Some((hex(22, 12), 4)), "the Kurfürst reaches 4 hexes");
    assert_eq!(c.navy.lanes.len(), 1);
}

/// S-NAVAL-10/11/12 stances, splitting ships off (chosen one by one) and joining a fleet on its
/// hex (S-NAVAL-2), laying a mine (S-MINE-1) and sweeping (S-MINE-4), all from the fleet panel;
/// splitting with no ship chosen and merging outside the Movement phase are refused with the
/// engine's reasons.
#[test]
fn stances_split_merge_mines_and_sweeping_from_the_fleet_panel() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    select(&mut app, Selected::Fleet(10), hex(14, 10));
    let stance =
        Order::FleetStance { fleet: 10, intercept: true, withdraw: true, transports_first: true, targets: vec![] };
    send(&mut app, UiCommand::Give(stance.clone()));
    let f = ctx(&app).navy.fleet(10).cloned().expect("afloat");
    assert!(f.intercept && f.withdraw && f.transports_first, "all three stances taken");
    // Refused: nothing chosen to split off.
    sea(&mut app, SeaCommand::Split("Detachment".into()));
    assert!(refusal(&app).contains("split off some, not all"), "{}", refusal(&app));
    // The light cruiser and the destroyer split off; the battleship stays.
    let c = ctx(&app);
    let (cruiser, destroyer) = (ships(&c, 10, ShipType::LightCruiser)[0], ships(&c, 10, ShipType::Destroyer)[0]);
    sea(&mut app, SeaCommand::ToggleShip(cruiser));
    sea(&mut app, SeaCommand::ToggleShip(destroyer));
    sea(&mut app, SeaCommand::ToggleShip(destroyer));
    sea(&mut app, SeaCommand::ToggleShip(destroyer));
    sea(&mut app, SeaCommand::Split("Detachment".into()));
    let c = ctx(&app);
    let new = c.navy.fleets.iter().find(|f| f.name == "Detachment").expect("a new fleet").id;
    assert_eq!(c.navy.afloat(new), vec![cruiser, destroyer]);
    assert_eq!(ships(&c, 10, ShipType::Battleship).len(), 1);
    assert_eq!(c.navy.afloat(10).len(), 1);
    assert_eq!(c.navy.fleet(new).map(|f| f.at), Some(hex(14, 10)), "on the same hex");
    // The minelayer group lays a mine (1 German mine there already) and sweeps.
    select(&mut app, Selected::Fleet(12), hex(14, 10));
    send(&mut app, UiCommand::Give(Order::LayMine { fleet: 12 }));
    let area = ctx(&app).map().cell(hex(14, 10)).map(|c| c.sea_area - 1).expect("a sea area");
    let mines = |app: &App| ctx(app).navy.mines.iter().filter(|m| m.area == area).map(|m| m.mines).sum::<u8>();
    assert_eq!(mines(&app), 2, "one minelayer lays one mine (S-MINE-1)");
    send(&mut app, UiCommand::Give(Order::Sweep { fleet: 12 }));
    assert!(ctx(&app).navy.fleet(12).is_some_and(|f| f.sweeping));
    // The minelayer group joins the battleship: 3 ships.
    send(&mut app, UiCommand::Give(Order::MergeFleet { fleet: 12, into: 10 }));
    let c = ctx(&app);
    assert_eq!(c.navy.afloat(10).len(), 3);
    assert!(c.navy.fleet(12).is_none(), "the joined fleet is gone");
    assert!(matches!(session(&app).game.orders().last(), Some(Order::MergeFleet { fleet: 12, into: 10 })));
    // Refused: merging is for the Movement phase.
    until(&mut app, (Phase::Fire, GERMANY));
    select(&mut app, Selected::Fleet(10), hex(14, 10));
    send(&mut app, UiCommand::Give(Order::MergeFleet { fleet: new, into: 10 }));
    assert!(refusal(&app).contains("merging fleets is not allowed in the Fire phase"), "{}", refusal(&app));
}

/// S-SUB-1 by the mouse: the flotilla is selected, a click on the Grand Fleet next to it (no ASW
/// ship) waits under the engine's preview, and on "yes" each of the two boats sinks a ship, the
/// battleship first; a fleet two hexes away is refused with the engine's reason.
#[test]
fn a_submarine_attack_is_previewed_then_sinks_a_ship_a_boat() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    select(&mut app, Selected::Fleet(11), hex(8, 10));
    // Refused: the Battlecruiser Fleet is two hexes off.
    sea(&mut app, SeaCommand::Torpedo(2));
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("is no enemy fleet on or next to"), "{}", refusal(&app));
    assert_eq!(query::torpedo_targets(&ctx(&app), Viewer::of(session(&app).viewer()), 11), vec![1]);
    click(&mut app, hex(9, 10));
    let order = Order::SubmarineAttack { flotilla: 11, target: 1 };
    previewed(&app, &order);
    let p = session(&app).game.preview(&order).expect("previews");
    assert_eq!(p.outcomes.len(), 1, "no ASW ship: certain (S-SUB-1)");
    let ammo = ctx(&app).powers[0].ammo;
    let battleship = ships(&ctx(&app), 1, ShipType::Battleship)[0];
    press(&mut app, KeyCode::Enter);
    let c = ctx(&app);
    assert_eq!(session(&app).game.orders().last(), Some(&order));
    assert!(c.navy.ship(battleship).is_some_and(|s| s.sunk), "the battleship is sunk first");
    assert_eq!(c.navy.afloat(1).len(), 1, "two boats sink two of three ships");
    assert_eq!(c.navy.afloat(11).len(), 2, "the boats are unharmed");
    assert_eq!(c.powers[0].ammo, ammo - 1, "one ammunition for the flotilla's attack (S-SUP-3)");
}

/// S-NAVAL-15 from the fleet panel: the flotilla patrols the British convoy lane of its area and
/// the lane's efficiency falls by 5 % a boat (2 boats: 100 → 90); a fleet that is no flotilla is
/// refused with the engine's reason.
#[test]
fn a_patrol_cuts_the_lane_by_five_percent_a_submarine() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    assert_eq!(ctx(&app).lane_efficiency(0), 100);
    select(&mut app, Selected::Fleet(10), hex(14, 10));
    send(&mut app, UiCommand::Give(Order::Patrol { flotilla: 10, lane: 0 }));
    assert!(refusal(&app).contains("a flotilla patrols a sea lane"), "{}", refusal(&app));
    select(&mut app, Selected::Fleet(11), hex(8, 10));
    send(&mut app, UiCommand::Give(Order::Patrol { flotilla: 11, lane: 0 }));
    assert_eq!(ctx(&app).navy.fleet(11).and_then(|f| f.patrol), Some(0));
    assert_eq!(ctx(&app).lane_efficiency(0), 90);
}

/// S-NAVAL-11: a division boards a transport bought for 4 (economy.transport) and lands again by
/// the fleet panel's "Land…" and a click on the port; a squadron does the same; a landing on
/// water or far from the fleet is refused with the engine's reason.
#[test]
fn units_and_squadrons_embark_and_land_by_clicks() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    select(&mut app, Selected::Fleet(13), hex(17, 16));
    let c = ctx(&app);
    assert_eq!(query::embark_candidates(&c, Viewer::Umpire, 13), vec![ForceId(10)]);
    assert_eq!(query::squadron_embark_candidates(&c, Viewer::Umpire, 13), vec![12]);
    let money = c.powers[0].money;
    send(&mut app, UiCommand::Give(Order::Embark { unit: ForceId(10), fleet: 13 }));
    let c = ctx(&app);
    assert!(matches!(c.force(ForceId(10)).map(|f| f.place), Some(Place::Embarked(_))), "{}", refusal(&app));
    assert_eq!(c.powers[0].money, money - 4);
    send(&mut app, UiCommand::Give(Order::EmbarkSquadron { squadron: 12, fleet: 13 }));
    let c = ctx(&app);
    assert!(c.navy.squadrons.iter().any(|s| s.id == 12 && s.aboard.is_some()), "{}", refusal(&app));
    assert_eq!(sea_orders::cargo(&c, 13).len(), 2, "two transports, one load each");
    // Refused: landing on the sea.
    sea(&mut app, SeaCommand::Pick(SeaPick::Disembark(ForceId(10))));
    click(&mut app, hex(16, 16));
    assert!(refusal(&app).contains("is no free land hex next to the fleet"), "{}", refusal(&app));
    assert_eq!(selected(&app), Some(Selected::Fleet(13)), "the fleet stays in hand");
    sea(&mut app, SeaCommand::Pick(SeaPick::Disembark(ForceId(10))));
    click(&mut app, hex(18, 16));
    assert_eq!(ctx(&app).force(ForceId(10)).and_then(|f| f.hex()), Some(hex(18, 16)), "{}", refusal(&app));
    // Refused: a base far from the fleet.
    select(&mut app, Selected::Fleet(13), hex(17, 16));
    sea(&mut app, SeaCommand::Pick(SeaPick::LandSquadron(12)));
    click(&mut app, hex(25, 20));
    assert!(refusal(&app).contains("is no land hex next to the fleet"), "{}", refusal(&app));
    sea(&mut app, SeaCommand::Pick(SeaPick::LandSquadron(12)));
    click(&mut app, hex(18, 16));
    let c = ctx(&app);
    assert!(c.navy.squadrons.iter().any(|s| s.id == 12 && s.aboard.is_none() && s.base == hex(18, 16)));
    assert!(sea_orders::cargo(&c, 13).is_empty(), "the transports are released");
}

/// S-NAVAL-11 with S-COMBAT-4: the division sails aboard to the British coast and lands next to a
/// British division; the landing starts a fight, so it waits for "yes" under the engine's preview
/// with the engagement's terms.
#[test]
fn a_landing_next_to_the_enemy_is_previewed() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    select(&mut app, Selected::Fleet(13), hex(17, 16));
    send(&mut app, UiCommand::Give(Order::Embark { unit: ForceId(10), fleet: 13 }));
    click(&mut app, hex(6, 12));
    assert_eq!(ctx(&app).navy.fleet(13).map(|f| f.at), Some(hex(6, 12)), "{}", refusal(&app));
    sea(&mut app, SeaCommand::Pick(SeaPick::Disembark(ForceId(10))));
    click(&mut app, hex(5, 12));
    let order = Order::Disembark { unit: ForceId(10), to: hex(5, 12) };
    previewed(&app, &order);
    let p = session(&app).game.preview(&order).expect("previews");
    assert!(!p.engagement_lines.is_empty(), "the preview shows the fight with its terms");
    press(&mut app, KeyCode::Enter);
    assert_eq!(ctx(&app).force(ForceId(10)).and_then(|f| f.hex()), Some(hex(5, 12)));
}

/// S-AIR-2/3 and S-NAVAL-14 in Germany's Fire phase: the heavy bombers with the light ones as
/// their wing cannot attack the battleship a click on the Channel Squadron names (bombing 2 + 1
/// against class 5: refused with the engine's reason) but bomb the light cruiser (d = 0, 5–6)
/// after the preview; the coastal battery, selected, fires at the battleship by a click on its hex
/// after the preview (a 6); a ship beyond the gun's range is refused.
#[test]
fn coastal_fire_and_bombing_in_the_fire_phase() {
    let mut app = start();
    until(&mut app, (Phase::Fire, GERMANY));
    let c = ctx(&app);
    let battleship = ships(&c, 3, ShipType::Battleship)[0];
    let cruiser = ships(&c, 3, ShipType::LightCruiser)[0];
    let far = ships(&c, 1, ShipType::Destroyer)[0];
    // The bombers: the heavy squadron takes the light one as its wing.
    select(&mut app, Selected::Squadron(10), hex(22, 10));
    assert_eq!(query::wing_candidates(&ctx(&app), Viewer::Umpire, 10), vec![11]);
    sea(&mut app, SeaCommand::ToggleWing(11));
    click(&mut app, hex(20, 12));
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("bombing 3 cannot attack a class-5 ship (S-AIR-2)"), "{}", refusal(&app));
    sea(&mut app, SeaCommand::Bomb(cruiser));
    let order = Order::Bomb { squadrons: vec![10, 11], ship: cruiser };
    previewed(&app, &order);
    let p = session(&app).game.preview(&order).expect("previews");
    let sunk: f64 =
        p.outcomes.iter().filter(|o| o.effects.iter().any(|e| e.english().contains("bombed"))).map(|o| o.chance).sum();
    assert!((sunk - 2.0 / 6.0).abs() < 1e-9, "bombing 3 − class 3 = 0 hits on 5–6 (S-AIR-2): {sunk}");
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&order));
    let c = ctx(&app);
    assert!(c.navy.squadrons.iter().filter(|s| s.id == 10 || s.id == 11).all(|s| s.flew), "both flew (S-AIR-3)");
    // The coastal battery.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(11))), hex(22, 12));
    sea(&mut app, SeaCommand::CoastalFire(far));
    assert!(refusal(&app).contains("cannot fire at Destroyer No. 1 (Great Britain)"), "{}", refusal(&app));
    click(&mut app, hex(20, 12));
    let order = Order::CoastalFire { unit: ForceId(11), ship: battleship };
    previewed(&app, &order);
    let p = session(&app).game.preview(&order).expect("previews");
    let sunk: f64 =
        p.outcomes.iter().filter(|o| o.effects.iter().any(|e| e.english().contains("sunk"))).map(|o| o.chance).sum();
    assert!((sunk - 1.0 / 6.0).abs() < 1e-9, "a battleship is destroyed on a 6 (S-NAVAL-14): {sunk}");
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&order));
    assert!(ctx(&app).force(ForceId(11)).is_some_and(|f| f.activity.fired));
}

/// S-AIR-1 and S-NAVAL-13 in Britain's Fire phase: the Rosyth seaplanes fly after the preview and
/// find the U-boats within 10 hexes (two ASW ships there hunt them); the Channel Squadron's
/// battleship bombards the coastal battery's hex after the preview; a second bombardment is
/// refused with the engine's reason.
#[test]
fn reconnaissance_and_bombardment_in_the_fire_phase() {
    let mut app = start();
    until(&mut app, (Phase::Fire, GB));
    select(&mut app, Selected::Squadron(1), hex(5, 8));
    // O: the selected reconnaissance squadron flies (the fleet panel's button sends the same).
    press(&mut app, KeyCode::KeyO);
    previewed(&app, &Order::Reconnaissance { squadron: 1 });
    press(&mut app, KeyCode::Enter);
    assert!(
        session(&app).game.events().iter().any(|e| e.text().contains("finds 1 flotilla(s) within 10 hexes")),
        "the flight found the U-boats"
    );
    select(&mut app, Selected::Fleet(3), hex(20, 12));
    click(&mut app, hex(22, 12));
    let order = Order::Bombard { fleet: 3, target: hex(22, 12) };
    previewed(&app, &order);
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&order));
    assert!(ctx(&app).navy.fleet(3).is_some_and(|f| f.bombarded));
    click(&mut app, hex(22, 12));
    assert!(refusal(&app).contains("once per Fire phase (S-NAVAL-13)"), "{}", refusal(&app));
    assert!(ctx(&app).navy.squadrons.iter().any(|s| s.id == 1 && s.flew), "the seaplanes flew");
}

/// The sea orders by key: I turns the selected fleet's intercept stance on and off (S-NAVAL-12),
/// M lays a mine (S-MINE-1; a second the same turn is refused), P sets the selected flotilla on
/// the lane of its area (S-NAVAL-15); a key with nothing fitting selected orders nothing.
#[test]
fn intercept_mines_and_patrols_by_key() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GERMANY));
    let orders = session(&app).game.orders().len();
    press(&mut app, KeyCode::KeyI);
    assert_eq!(session(&app).game.orders().len(), orders, "nothing selected: no order");
    select(&mut app, Selected::Fleet(12), hex(14, 10));
    assert!(!ctx(&app).navy.fleet(12).is_some_and(|f| f.intercept));
    press(&mut app, KeyCode::KeyI);
    assert!(ctx(&app).navy.fleet(12).is_some_and(|f| f.intercept), "{}", refusal(&app));
    press(&mut app, KeyCode::KeyI);
    assert!(!ctx(&app).navy.fleet(12).is_some_and(|f| f.intercept));
    press(&mut app, KeyCode::KeyM);
    assert!(ctx(&app).navy.fleet(12).is_some_and(|f| f.laid_mine), "{}", refusal(&app));
    press(&mut app, KeyCode::KeyM);
    assert!(refusal(&app).contains("1 mine per turn (S-MINE-1)"), "{}", refusal(&app));
    select(&mut app, Selected::Fleet(11), hex(8, 10));
    press(&mut app, KeyCode::KeyP);
    assert_eq!(ctx(&app).navy.fleet(11).and_then(|f| f.patrol), Some(0), "{}", refusal(&app));
    assert_eq!(ctx(&app).lane_efficiency(0), 90);
}

/// A squadron is taken in hand from the power panel's list (an enemy one is not); a bomber
/// squadron asked to reconnoitre is refused with the engine's reason (S-AIR-1).
#[test]
fn a_squadron_from_the_list_and_a_bomber_that_does_not_reconnoitre() {
    let mut app = start();
    until(&mut app, (Phase::Fire, GERMANY));
    send(&mut app, UiCommand::Select(Selected::Squadron(1)));
    assert_eq!(selected(&app), None, "the British seaplanes are not Germany's");
    send(&mut app, UiCommand::Select(Selected::Squadron(11)));
    assert_eq!(selected(&app), Some(Selected::Squadron(11)));
    sea(&mut app, SeaCommand::Reconnaissance);
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("is no reconnaissance squadron"), "{}", refusal(&app));
}

/// Enemy submarines are seen only by their own side (S-SUB): a British player is offered no
/// U-boat to see, and the hex panel lists none, while the Germans see their flotilla; the fleets
/// on the surface are seen by all.
#[test]
fn enemy_submarines_are_hidden_from_the_enemy() {
    let mut app = start();
    until(&mut app, (Phase::Movement, GB));
    let c = ctx(&app);
    assert_eq!(session(&app).viewer(), Some(GB));
    assert!(sea_orders::seen_fleets_at(&c, Some(GB), hex(8, 10)).is_empty(), "the U-boats are hidden");
    assert_eq!(sea_orders::seen_fleets_at(&c, Some(GERMANY), hex(8, 10)), vec![11]);
    assert_eq!(sea_orders::seen_fleets_at(&c, Some(GB), hex(14, 10)), vec![10, 12], "surface fleets are seen");
    assert_eq!(sea_orders::seen_fleets_at(&c, None, hex(8, 10)), vec![11], "no one watching: all is seen");
    // A click by the British on the hidden flotilla's hex offers no attack on it.
    select(&mut app, Selected::Fleet(1), hex(9, 10));
    let orders = session(&app).game.orders().len();
    click(&mut app, hex(8, 10));
    assert!(session(&app).confirm.is_none(), "nothing to confirm");
    assert!(
        !session(&app).game.orders()[orders..].iter().any(|o| matches!(o, Order::SubmarineAttack { .. })),
        "no attack on an unseen flotilla"
    );
}

/// The fixture with extra fleets, changed before the game starts, a person at each power.
fn start_with(change: impl FnOnce(&mut rules::strategic::Scenario)) -> App {
    let mut app = app();
    let mut scenario = files::load_scenario(SEA).expect("the fixture loads");
    change(&mut scenario);
    app.world_mut().write_message(StartGreatWar { scenario, seed: 7, seats: vec![Seat::Human; 2] });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    app
}

fn flotilla(id: u32, power: &str, name: &str, at: HexAt, boats: u32) -> rules::strategic::scenario::FleetSpec {
    rules::strategic::scenario::FleetSpec {
        id,
        power: power.into(),
        name: name.into(),
        at,
        ships: vec![(ShipType::Submarine, boats)],
        historical: false,
        intercept: false,
        withdraw: false,
    }
}

/// The fleets on the board a viewer is shown (the counters at division zoom).
fn on_board(c: &Ctx, viewer: PowerId) -> Vec<u32> {
    use kriegsspiel::great_war::counters::{CounterOf, ZoomLevel, stacks};
    let counters = stacks(c, ZoomLevel::Divisions, Some(viewer)).into_values().flatten();
    counters.filter_map(|(_, what)| if let CounterOf::Fleet(f) = what { Some(f) } else { None }).collect()
}

fn sea_area(c: &Ctx, at: HexAt) -> String {
    c.map().sea_area_at(at).map(|a| a.id.clone()).unwrap_or_default()
}

fn english() -> kriegsspiel::i18n::Tr {
    kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::English)
}

/// S-SUB-5 with its house rule, by clicks: a British flotilla of two boats lies at (8,7) in the
/// Northern North Sea. The German U-boats sail to (8,8), next to it but in the Central North Sea:
/// it stays hidden from the German player (no counter, no line in the hex panel, no target) and a
/// duel asked for anyway is refused with the engine's reason. A click on (7,7), in the Northern
/// North Sea, sails there: the British boats are detected (the move cannot be taken back), shown on
/// the board and in the hex panel with the reason, and offered as a duel; a click on their hex
/// waits under the engine's preview (each pair: 15/36 either boat sinks, a tie 6/36: no boat sunk
/// (1/36) in all) and "yes" fights it: every pair's two dice in the log sink the lower roller's boat.
#[test]
fn an_enemy_flotilla_in_the_same_sea_area_is_detected_and_fought_by_clicks() {
    let mut app = start_with(|s| s.fleets.push(flotilla(20, "gb", "E-Flotilla", hex(8, 7), 2)));
    until(&mut app, (Phase::Movement, GERMANY));
    let c = ctx(&app);
    assert_eq!(
        (sea_area(&c, hex(8, 7)), sea_area(&c, hex(8, 8))),
        ("northern_north_sea".into(), "central_north_sea".into())
    );
    assert_eq!(
        (hex(8, 8).distance(hex(8, 7)), hex(8, 8).distance(hex(7, 7)), sea_area(&c, hex(7, 7))),
        (1, 1, "northern_north_sea".into())
    );
    select(&mut app, Selected::Fleet(11), hex(8, 10));
    click(&mut app, hex(8, 8));
    assert_eq!(ctx(&app).navy.fleet(11).map(|f| f.at), Some(hex(8, 8)), "{}", refusal(&app));
    // Next to it, in another sea area: hidden everywhere.
    let c = ctx(&app);
    assert!(sea_orders::seen_fleets_at(&c, Some(GERMANY), hex(8, 7)).is_empty());
    assert!(!on_board(&c, GERMANY).contains(&20) && on_board(&c, GB).contains(&20));
    assert!(query::torpedo_targets(&c, Viewer::Player(GERMANY), 11).is_empty(), "no target offered");
    assert_eq!(c.detection(GERMANY, 20), None);
    let orders = session(&app).game.orders().len();
    sea(&mut app, SeaCommand::Torpedo(20));
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("E-Flotilla has not been found"), "{}", refusal(&app));
    assert!(refusal(&app).contains("(S-SUB-5, S-AIR-1)"), "{}", refusal(&app));
    assert_eq!(session(&app).game.orders().len(), orders);
    // Into the Northern North Sea: detected.
    click(&mut app, hex(7, 7));
    let c = ctx(&app);
    assert_eq!(c.navy.fleet(11).map(|f| f.at), Some(hex(7, 7)), "{}", refusal(&app));
    assert!(
        session(&app)
            .game
            .events()
            .iter()
            .any(|e| e.text().contains("U-Flottille detects E-Flotilla in the Northern North Sea")),
        "the log says so"
    );
    assert!(!session(&app).can_undo(), "the move showed the boats: it cannot be taken back");
    assert_eq!(sea_orders::seen_fleets_at(&c, Some(GERMANY), hex(8, 7)), vec![20]);
    assert!(on_board(&c, GERMANY).contains(&20));
    assert_eq!(query::torpedo_targets(&c, Viewer::Player(GERMANY), 11), vec![20]);
    let why = kriegsspiel::great_war::fleet_panel::detected_words(&english(), &c, GERMANY, 20);
    assert_eq!(why.as_deref(), Some("detected by U-Flottille in the same sea area (S-SUB-5, house rule)"));
    // The duel by a click on their hex, after the preview.
    click(&mut app, hex(8, 7));
    let order = Order::SubmarineAttack { flotilla: 11, target: 20 };
    previewed(&app, &order);
    let p = session(&app).game.preview(&order).expect("previews");
    let none_sunk: f64 = p
        .outcomes
        .iter()
        .filter(|o| !o.effects.iter().any(|e| e.english().contains("S-SUB-5")))
        .map(|o| o.chance)
        .sum();
    assert!((none_sunk - 1.0 / 36.0).abs() < 1e-9, "two ties (6/36 each): {none_sunk}");
    let c = ctx(&app);
    let (ours, theirs) = (c.navy.afloat(11), c.navy.afloat(20));
    let (events, ammo) = (session(&app).game.events().len(), c.powers[0].ammo);
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&order), "{}", refusal(&app));
    let c = ctx(&app);
    let pips: Vec<u8> = session(&app).game.events()[events..]
        .iter()
        .filter_map(|e| match &e.kind {
            rules::strategic::EventKind::Die { what, pips } if what == "submarine duel" => Some(*pips),
            _ => None,
        })
        .collect();
    assert_eq!(pips.len(), 4, "two pairs, both roll (S-SUB-5)");
    for (i, pair) in pips.chunks(2).enumerate() {
        let sunk = |s: ShipId| c.navy.ship(s).is_some_and(|s| s.sunk);
        let (a, b) = (pair[0], pair[1]);
        assert_eq!(sunk(theirs[i]), a > b, "pair {i}: {a} against {b}");
        assert_eq!(sunk(ours[i]), b > a, "pair {i}: {a} against {b}");
    }
    assert_eq!(c.powers[0].ammo, ammo - 1, "one ammunition for the attack (S-SUP-3)");
}

/// With no rule to reveal it, an enemy flotilla stays hidden: the British boats at (8,7) in the
/// Northern North Sea are not shown to the Germans, whose U-boats lie in the Central North Sea,
/// and the U-boats are not shown to the British, on the board, in the hex panel or as targets.
#[test]
fn an_enemy_flotilla_in_another_sea_area_stays_hidden() {
    let mut app = start_with(|s| s.fleets.push(flotilla(20, "gb", "E-Flotilla", hex(8, 7), 2)));
    until(&mut app, (Phase::Movement, GERMANY));
    let c = ctx(&app);
    assert!(sea_orders::seen_fleets_at(&c, Some(GERMANY), hex(8, 7)).is_empty());
    assert!(sea_orders::seen_fleets_at(&c, Some(GB), hex(8, 10)).is_empty());
    assert!(!on_board(&c, GERMANY).contains(&20) && !on_board(&c, GB).contains(&11));
    assert!(on_board(&c, GERMANY).contains(&11) && on_board(&c, GB).contains(&20), "each sees its own");
    assert_eq!((c.detection(GERMANY, 20), c.detection(GB, 11)), (None, None));
    until(&mut app, (Phase::Movement, GB));
    select(&mut app, Selected::Fleet(20), hex(8, 7));
    assert!(query::torpedo_targets(&ctx(&app), Viewer::Player(GB), 20).is_empty());
}

/// S-AIR-1 by the scene: with the Battlecruiser Fleet's ASW ships gone (no hunt, no die), two more
/// German flotillas lie 10 and 11 hexes from the Rosyth seaplanes (radius 10). Before the flight
/// the British see none; after it (O, the preview, "yes") the two within 10 hexes are shown, with
/// the reason, the one at 11 is not; the next turn they are hidden again.
#[test]
fn reconnaissance_shows_the_submarines_in_its_radius_for_the_rest_of_the_turn() {
    let base = hex(5, 8);
    let scenario = files::load_scenario(SEA).expect("loads");
    let c = GreatWar::new(&scenario, 1).ctx();
    let free = |d: u32| {
        (0..24)
            .flat_map(|r| (0..30).map(move |col| hex(col, r)))
            .find(|h| {
                h.distance(base) == d && c.map().sea_area_at(*h).is_some() && c.navy.fleets.iter().all(|f| f.at != *h)
            })
            .expect("a free sea hex")
    };
    let (edge, outside) = (free(10), free(11));
    let mut app = start_with(|s| {
        s.fleets.push(flotilla(21, "germany", "U-Flottille II", edge, 1));
        s.fleets.push(flotilla(22, "germany", "U-Flottille III", outside, 1));
        if let Some(f) = s.fleets.iter_mut().find(|f| f.id == 2) {
            f.ships = vec![(ShipType::Battlecruiser, 1)];
        }
    });
    until(&mut app, (Phase::Fire, GB));
    let c = ctx(&app);
    assert!(on_board(&c, GB).iter().all(|f| ![11, 21, 22].contains(f)), "none seen before the flight");
    select(&mut app, Selected::Squadron(1), base);
    press(&mut app, KeyCode::KeyO);
    previewed(&app, &Order::Reconnaissance { squadron: 1 });
    let thrown = rules::Game::dice_thrown(&session(&app).game);
    press(&mut app, KeyCode::Enter);
    assert_eq!(rules::Game::dice_thrown(&session(&app).game), thrown, "no ASW ship: no die");
    let c = ctx(&app);
    let seen = on_board(&c, GB);
    assert!(seen.contains(&11) && seen.contains(&21), "within 10 hexes: shown");
    assert!(!seen.contains(&22), "11 hexes off: hidden");
    assert_eq!(sea_orders::seen_fleets_at(&c, Some(GB), edge), vec![21]);
    assert!(sea_orders::seen_fleets_at(&c, Some(GB), outside).is_empty());
    let why = kriegsspiel::great_war::fleet_panel::detected_words(&english(), &c, GB, 21);
    assert_eq!(why.as_deref(), Some("found this turn by the reconnaissance of RNAS Rosyth (S-AIR-1)"));
    until(&mut app, (Phase::Movement, GB));
    let c = ctx(&app);
    assert!(on_board(&c, GB).iter().all(|f| ![11, 21, 22].contains(f)), "the next turn: hidden again");
}

/// The SEA game at Germany's Movement (seed 7), for the replay and the live follow.
fn at_german_movement() -> GreatWar {
    let scenario = files::load_scenario(SEA).expect("the fixture loads");
    let mut game = GreatWar::new(&scenario, 7);
    while (game.ctx().clock.phase, game.ctx().active_power()) != (Phase::Movement, GERMANY) {
        game.apply(Order::EndPhase).expect("ends its part");
    }
    game
}

/// Germany's fleet sails to the farthest hex it reaches that keeps it out of the British
/// fleets' way (one hex on at least): the voyage's events.
fn sail_quietly(game: &mut GreatWar, fleet: u32) -> Vec<rules::strategic::event::Event> {
    let c = game.ctx();
    let reach = rules::strategic::query::fleet_reach(&c, rules::view::Viewer::Player(GERMANY), fleet);
    let from = c.navy.fleet(fleet).map(|f| f.at).expect("the fleet");
    let mut ends: Vec<(HexAt, u32)> = reach.ends().collect();
    ends.sort_by_key(|(h, cost)| (std::cmp::Reverse(*cost), *h));
    let sailed = ends.into_iter().find_map(|(to, _)| {
        let path = reach.path(to)?;
        let mut probe = game.ctx();
        probe.apply(&Order::MoveFleet { fleet, path: path.clone() }).ok()?;
        let quiet =
            probe.events.iter().all(|e| matches!(e.kind, rules::strategic::event::EventKind::FleetMoved { .. }));
        (quiet && to != from).then_some(path)
    });
    let path = sailed.expect("a quiet voyage");
    game.apply(Order::MoveFleet { fleet, path }).expect("sails")
}

/// Issue 27: the replay of the others' moves shows what the person saw, by the engine's sight:
/// the High Seas Fleet's voyage from where the British saw it, not the U-boats' (hidden from
/// them, S-SUB-5), and for the Germans nothing of their own moves.
#[test]
fn the_others_moves_are_replayed_as_the_person_saw_them() {
    use kriegsspiel::great_war::recap::{Mover, places_seen, steps};
    use rules::view::Viewer;
    let mut game = at_german_movement();
    let c = game.ctx();
    let before = places_seen(&c, GB);
    assert!(!before.contains_key(&Mover::Fleet(11)), "the British do not know where the U-boats are");
    assert_eq!(before.get(&Mover::Fleet(10)), Some(&hex(14, 10)), "they see the High Seas Fleet");
    let mut events = sail_quietly(&mut game, 11);
    events.extend(sail_quietly(&mut game, 10));
    let c = game.ctx();
    assert!(c.fleet_hidden_from(11, GB), "the U-boats are still unseen");
    let british = steps(&c, GB, &before, &events);
    let surface_to = c.navy.fleet(10).map(|f| f.at).expect("the fleet");
    assert_eq!(british.len(), 1, "{british:?}");
    assert_eq!((british[0].from, british[0].to), (Some(hex(14, 10)), surface_to));
    let seen = c.seen(Viewer::Player(GB), &events);
    assert!(
        seen.iter().filter_map(|s| s.event()).any(|e| e.line == british[0].line),
        "the step is an event the British may see"
    );
    let german = steps(&c, GERMANY, &places_seen(&c, GERMANY), &events);
    assert!(german.is_empty(), "one's own moves are not replayed: {german:?}");
}

/// Issue 27 ("no camera following"): while the AI moves the others, the camera goes to the
/// moves the person may see as they are given, one at a time, and never to a hidden one: the
/// U-boats sail first and the camera does not move; the High Seas Fleet sails and it goes there,
/// and not again until the step's time has run out.
#[test]
fn the_camera_follows_the_others_moves_the_person_may_see_as_the_ai_gives_them() {
    use kriegsspiel::great_war::recap::{LiveFollow, STEP_SECONDS, places_seen};
    let mut game = at_german_movement();
    let mut live = LiveFollow::default();
    live.start(places_seen(&game.ctx(), GB), game.events().len());
    assert_eq!(live.step(|| game.ctx(), GB, game.events(), 0.1), None, "nothing has moved");
    sail_quietly(&mut game, 11);
    assert!(game.ctx().fleet_hidden_from(11, GB), "the U-boats are unseen");
    assert_eq!(live.step(|| game.ctx(), GB, game.events(), 0.1), None, "a hidden voyage moves no camera");
    sail_quietly(&mut game, 10);
    let surface = game.ctx().navy.fleet(10).map(|f| f.at).expect("the fleet");
    assert_eq!(live.step(|| game.ctx(), GB, game.events(), 0.1), Some(surface), "the camera goes to the fleet");
    // A second look waits for the step's time: just before it runs out, none; at it, the next.
    live.pending = Some(hex(1, 1));
    assert_eq!(live.step(|| game.ctx(), GB, game.events(), STEP_SECONDS - 0.01), None, "not before its time");
    assert_eq!(live.step(|| game.ctx(), GB, game.events(), 0.02), Some(hex(1, 1)), "then the next");
    // Germany's own view: its own moves are nothing to follow.
    let mut own = LiveFollow::default();
    own.start(places_seen(&game.ctx(), GERMANY), 0);
    assert_eq!(own.step(|| game.ctx(), GERMANY, game.events(), 1.0), None, "one's own moves are not followed");
}
