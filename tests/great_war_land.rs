//! The Great War's land, economy and diplomacy orders, headless, through input: panel buttons
//! (the messages they send), keys (C: form, R: retreat) and clicks on hexes give each order
//! through the session's one door, and the engine's state changes as the rules say; each family
//! of orders is also refused once, with the engine's reason shown. Gas and a reserve committed
//! next to the enemy wait for "yes" under the engine's preview.
//!
//! The fixture `tests/fixtures/great_war_land.ron` is the test front with more German units.

mod support;
use bevy::prelude::*;
use kriegsspiel::great_war::command::UiCommand;
use kriegsspiel::great_war::land_orders::{LandCommand, LandPick, Pick, engaged_pieces};
use kriegsspiel::great_war::{Selected, StartGreatWar, files};
use kriegsspiel::screens::Screen;
use kriegsspiel::session::Seat;
use rules::strategic::purchase::Recruit;
use rules::strategic::state::{FormationKind, Place};
use rules::strategic::{ForceId, FormationId, GreatWar, HexAt, Order, Phase, Piece, PowerId};
use support::app;

mod gw_input;
use gw_input::*;

const FIXTURE: &str = "tests/fixtures/great_war_land.ron";
const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);
/// The 5th Army of corps 101 and 102 (S-ARMY-2).
const FIFTH_ARMY: FormationId = FormationId(201);
const BAVARIAN_CORPS: FormationId = FormationId(101);

fn start(app: &mut App) {
    let scenario = files::load_scenario(FIXTURE).expect("the fixture loads");
    app.world_mut().write_message(StartGreatWar { scenario, seed: 7, seats: vec![Seat::Human; 3] });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

/// A panel button: the message it sends.
fn button(app: &mut App, command: LandCommand) {
    app.world_mut().write_message(command);
    app.update();
}

/// A panel button that gives an order at once (research, purchases of stock, peace…).
fn give(app: &mut App, order: Order) {
    app.world_mut().write_message(UiCommand::Give(order));
    app.update();
}

fn pick(app: &App) -> Option<Pick> {
    app.world().resource::<LandPick>().of(session(app)).cloned()
}

fn end_phase(app: &mut App) {
    press(app, KeyCode::Space);
    app.update();
    if handing_over(app) {
        press(app, KeyCode::Enter);
    }
}

fn phase(app: &App) -> (Phase, PowerId) {
    let ctx = session(app).ctx();
    (ctx.clock.phase, ctx.active_power())
}

fn to_movement(app: &mut App) {
    while phase(app) != (Phase::Movement, GERMANY) {
        end_phase(app);
    }
}

fn select(app: &mut App, piece: Selected, at: HexAt) {
    for _ in 0..6 {
        click(app, at);
        if selected(app) == Some(piece) {
            return;
        }
    }
    panic!("{piece:?} could not be selected at {at}");
}

fn unit_at(app: &App, unit: u32) -> Place {
    session(app).ctx().force(ForceId(unit)).expect("the unit exists").place
}

fn last_order(app: &App) -> Option<Order> {
    session(app).game.orders().last().cloned()
}

/// S-ARMY-2 by the mouse and C: a division selected, C starts a corps, a click on the next
/// hex adds the division there, "Form" gives `FormCorps`; both stand on the first one's hex.
/// A corps of one division is refused with the engine's reason.
#[test]
fn a_corps_is_formed_by_clicks_and_a_corps_of_one_is_refused() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    let cavalry = HexAt::new(16, 3);
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(7))), cavalry);
    // Refused: one division is no corps.
    press(&mut app, KeyCode::KeyC);
    assert!(matches!(pick(&app), Some(Pick::Gather { .. })), "C starts a corps: {:?}", refusal(&app));
    button(&mut app, LandCommand::Form);
    assert!(refusal(&app).contains("a corps has 2–4 land units, not 1 (S-ARMY-2)"), "{}", refusal(&app));
    assert!(pick(&app).is_some(), "the pick stays for another try");
    // The 12th Reserve Division next door joins the gathering; the click selects nothing.
    click(&mut app, HexAt::new(17, 4));
    assert_eq!(selected(&app), Some(Selected::Piece(Piece::Unit(ForceId(7)))), "the click was the pick's");
    let Some(Pick::Gather { units, .. }) = pick(&app) else { panic!("still gathering") };
    assert_eq!(units, vec![ForceId(7), ForceId(12)]);
    button(&mut app, LandCommand::Form);
    let Some(Order::FormCorps { name, units }) = last_order(&app) else { panic!("{:?}", refusal(&app)) };
    assert_eq!(units, vec![ForceId(7), ForceId(12)]);
    assert_eq!(name, "Corps 5", "the fifth German corps by default");
    let ctx = session(&app).ctx();
    let corps = ctx.force(ForceId(12)).and_then(|f| f.member.corps).expect("in the new corps");
    assert_eq!(ctx.formation(corps).map(|f| f.units.clone()), Some(vec![ForceId(7), ForceId(12)]));
    assert_eq!(unit_at(&app, 12), Place::Map(cavalry), "gathered on the first unit's hex");
    assert!(pick(&app).is_none());
    // Undo (no die was thrown) takes it back.
    press(&mut app, KeyCode::KeyZ);
    assert_eq!(unit_at(&app, 12), Place::Map(HexAt::new(17, 4)));
}

/// S-ARMY-2: a division joins a corps by a click on the corps' hex and is detached again onto
/// a free hex next to it; a corps of two cannot give one up (the engine's reason), and a corps
/// of an army cannot leave an army of two.
#[test]
fn join_and_detach_by_clicks_with_refusals() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    let bavarians = HexAt::new(14, 6);
    // Refused: the corps keeps at least 2 units.
    select(&mut app, Selected::Piece(Piece::Corps(BAVARIAN_CORPS)), bavarians);
    button(&mut app, LandCommand::Start(Pick::DetachTo(ForceId(1))));
    click(&mut app, HexAt::new(13, 5));
    assert!(refusal(&app).contains("a corps keeps at least 2 units (S-ARMY-2)"), "{}", refusal(&app));
    button(&mut app, LandCommand::Cancel);
    // Refused: the army keeps at least 2 corps.
    give(&mut app, Order::Detach { piece: Piece::Corps(BAVARIAN_CORPS), to: None });
    assert!(refusal(&app).contains("an army keeps at least 2 corps (S-ARMY-2)"), "{}", refusal(&app));
    // The 13th Reserve Division joins the Bavarians.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(13))), HexAt::new(15, 6));
    button(&mut app, LandCommand::Start(Pick::JoinCorps(ForceId(13))));
    click(&mut app, bavarians);
    assert_eq!(last_order(&app), Some(Order::JoinCorps { unit: ForceId(13), corps: BAVARIAN_CORPS }));
    let ctx = session(&app).ctx();
    assert_eq!(ctx.formation(BAVARIAN_CORPS).map(|f| f.units.len()), Some(3));
    assert_eq!(ctx.force(ForceId(13)).and_then(|f| f.member.army), Some(FIFTH_ARMY), "and so the army");
    // …and is detached again, to (15, 6).
    select(&mut app, Selected::Piece(Piece::Corps(BAVARIAN_CORPS)), bavarians);
    button(&mut app, LandCommand::Start(Pick::DetachTo(ForceId(13))));
    click(&mut app, HexAt::new(15, 6));
    assert_eq!(last_order(&app), Some(Order::Detach { piece: Piece::Unit(ForceId(13)), to: Some(HexAt::new(15, 6)) }));
    assert_eq!(unit_at(&app, 13), Place::Map(HexAt::new(15, 6)));
    assert_eq!(session(&app).ctx().force(ForceId(13)).and_then(|f| f.member.corps), None);
}

/// S-ART-5 and S-ARMY-5: three guns form a battery by C and two clicks; a gun next to the
/// army attaches to it by a click on its corps; a gun in a battery is refused.
#[test]
fn a_battery_is_formed_and_a_gun_attached() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    // A gun attached to the 5th Army by a click on the Bavarians.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(24))), HexAt::new(13, 6));
    button(&mut app, LandCommand::Start(Pick::Attach { unit: ForceId(24), army: true }));
    click(&mut app, HexAt::new(14, 6));
    assert_eq!(last_order(&app), Some(Order::Attach { unit: ForceId(24), formation: FIFTH_ARMY }), "{}", refusal(&app));
    assert_eq!(unit_at(&app, 24), Place::Attached(FIFTH_ARMY));
    // Two guns are no battery: refused before an order can be written.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(21))), HexAt::new(16, 6));
    press(&mut app, KeyCode::KeyC);
    click(&mut app, HexAt::new(17, 6));
    button(&mut app, LandCommand::Form);
    assert!(refusal(&app).contains("not 2 (S-ART-5)"), "{}", refusal(&app));
    click(&mut app, HexAt::new(16, 5));
    button(&mut app, LandCommand::Form);
    assert_eq!(last_order(&app), Some(Order::FormBattery { units: [ForceId(21), ForceId(22), ForceId(23)] }));
    for u in [21, 22, 23] {
        let ctx = session(&app).ctx();
        assert_eq!(ctx.force(ForceId(u)).and_then(|f| f.member.battery), Some(ForceId(21)));
        assert_eq!(unit_at(&app, u), Place::Map(HexAt::new(16, 6)));
    }
    // A gun of a battery does not attach: the engine's reason.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(21))), HexAt::new(16, 6));
    button(&mut app, LandCommand::Start(Pick::Attach { unit: ForceId(21), army: false }));
    click(&mut app, HexAt::new(14, 6));
    assert!(refusal(&app).contains("only a heavy artillery division (not in a battery) attaches"), "{}", refusal(&app));
}

/// S-ARMY-2: two corps in no army form one by C on the first and a click on the second.
#[test]
fn an_army_is_formed_from_two_corps() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    select(&mut app, Selected::Piece(Piece::Corps(FormationId(103))), HexAt::new(18, 8));
    press(&mut app, KeyCode::KeyC);
    // One corps: refused by the engine.
    button(&mut app, LandCommand::Form);
    assert!(refusal(&app).contains("an army has 2–4 corps, not 1 (S-ARMY-2)"), "{}", refusal(&app));
    click(&mut app, HexAt::new(20, 8));
    button(&mut app, LandCommand::Form);
    let Some(Order::FormArmy { corps, .. }) = last_order(&app) else { panic!("{}", refusal(&app)) };
    assert_eq!(corps, vec![FormationId(103), FormationId(104)]);
    let ctx = session(&app).ctx();
    let army =
        ctx.formations.iter().find(|f| f.kind == FormationKind::Army && f.corps == corps).expect("the new army").id;
    for u in [14, 15, 16, 17] {
        assert_eq!(ctx.force(ForceId(u)).and_then(|f| f.member.army), Some(army));
    }
}

/// S-ARMY-6 and S-ARMY-8: a division next to the army goes into its reserve by a click on the
/// army's hex; a reserve comes onto a free hex next to the army by a click (onto a held hex:
/// refused), next to the enemy after the preview of its fight; a unit far from the army is
/// refused.
#[test]
fn reserves_are_assigned_and_committed_by_clicks() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    // Refused: the 12th Reserve Division is not next to the army.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(12))), HexAt::new(17, 4));
    button(&mut app, LandCommand::Start(Pick::Reserve(ForceId(12))));
    click(&mut app, HexAt::new(14, 6));
    assert!(refusal(&app).contains("is not next to the army"), "{}", refusal(&app));
    button(&mut app, LandCommand::Cancel);
    // The 13th Reserve Division, next to the Bavarians, goes into the reserve.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(13))), HexAt::new(15, 6));
    button(&mut app, LandCommand::Start(Pick::Reserve(ForceId(13))));
    click(&mut app, HexAt::new(14, 6));
    assert_eq!(last_order(&app), Some(Order::AssignReserve { unit: ForceId(13), army: FIFTH_ARMY }));
    assert_eq!(unit_at(&app, 13), Place::Reserve(FIFTH_ARMY));
    // The Guards Cavalry (in reserve from the start) comes out: onto a held hex, refused…
    button(&mut app, LandCommand::Start(Pick::Commit(ForceId(5))));
    click(&mut app, HexAt::new(14, 8));
    assert!(refusal(&app).contains("already holds a division"), "{}", refusal(&app));
    // …onto the free (15, 8) next to the Guards Corps, and next to the French raiders: it joins
    // the fight at once (S-ARMY-8), so the engine's preview of the engagement is shown first.
    click(&mut app, HexAt::new(15, 8));
    let order = Order::CommitReserve { unit: ForceId(5), to: HexAt::new(15, 8) };
    assert_eq!(session(&app).confirm, Some(order.clone()), "{}", refusal(&app));
    let preview = session(&app).game.preview(&order).expect("the preview");
    assert!(!preview.engagement_lines.is_empty(), "the engagement with its terms");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_order(&app), Some(order));
    assert_eq!(unit_at(&app, 5), Place::Map(HexAt::new(15, 8)));
}

/// S-CHEM-1 by the mouse: in the Preparation phase the cylinder on (14, 6) is released at a hex
/// 3 away after the engine's preview (a d6: blown back, no effect, or a hit, chances summing to
/// one), and the die makes it final (no undo); a target 4 away is refused. A cylinder is set by
/// a click in the same phase (on an enemy hex it is refused); in the Movement phase gas is bought,
/// and a cylinder is not set there.
#[test]
fn gas_cylinders_are_released_after_the_preview_and_placed() {
    let mut app = app();
    start(&mut app);
    assert_eq!(phase(&app), (Phase::Preparation, GERMANY));
    let from = HexAt::new(14, 6);
    button(&mut app, LandCommand::Start(Pick::ReleaseGas { from }));
    click(&mut app, HexAt::new(18, 6));
    assert!(refusal(&app).contains("is not within 3 hexes of (14, 6)"), "{}", refusal(&app));
    assert!(session(&app).confirm.is_none());
    let target = HexAt::new(11, 6);
    click(&mut app, target);
    let order = Order::ReleaseGas { from, target };
    assert_eq!(session(&app).confirm, Some(order.clone()), "waits for yes: {}", refusal(&app));
    let preview = session(&app).game.preview(&order).expect("the preview");
    let total: f64 = preview.outcomes.iter().map(|o| o.chance).sum::<f64>() + preview.unexplored;
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let faces: usize = preview.outcomes.iter().map(|o| o.pips.len()).sum();
    assert_eq!(faces, 6, "one d6: every face in some outcome");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_order(&app), Some(order));
    assert_eq!(session(&app).ctx().hex_state(from).cylinder, None, "released");
    assert!(!session(&app).can_undo(), "the die was thrown");
    // S-CHEM-1: a cylinder is set in the Preparation phase too, by a click; on an enemy hex it is
    // refused.
    let before = session(&app).ctx().powers[0].cylinders;
    button(&mut app, LandCommand::Start(Pick::Cylinder));
    click(&mut app, HexAt::new(9, 6));
    assert!(refusal(&app).contains("(9, 6) holds no troops of yours"), "{}", refusal(&app));
    click(&mut app, HexAt::new(14, 8));
    assert_eq!(last_order(&app), Some(Order::PlaceCylinder { at: HexAt::new(14, 8) }));
    assert_eq!(session(&app).ctx().hex_state(HexAt::new(14, 8)).cylinder, Some(GERMANY));
    assert_eq!(session(&app).ctx().powers[0].cylinders, before - 1);
    // In the Movement phase gas is bought; a cylinder is not set there, with the engine's reason.
    to_movement(&mut app);
    let before = session(&app).ctx().powers[0].clone();
    give(&mut app, Order::BuyGas { shells: 5, cylinders: 1 });
    let after = session(&app).ctx().powers[0].clone();
    assert_eq!((after.chem_shells, after.cylinders), (before.chem_shells + 5, before.cylinders + 1));
    assert_eq!(after.money, before.money - 5 - 2, "5 shells at 1, a cylinder at 2 (great_war_rules.ron)");
    give(&mut app, Order::PlaceCylinder { at: HexAt::new(15, 6) });
    assert!(refusal(&app).contains("placing a gas cylinder is not allowed in the Movement phase"), "{}", refusal(&app));
    assert_eq!(session(&app).ctx().powers[0].cylinders, after.cylinders);
}

/// S-ARMY-15: the division engaged with the French is offered the retreat; R and a click two
/// hexes back give it (−1 Morale); into the enemy's hex it is refused with the engine's reason;
/// undo takes the retreat back (no die).
#[test]
fn an_engaged_division_retreats_by_r_and_a_click() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    let vanguard = Selected::Piece(Piece::Unit(ForceId(11)));
    assert!(engaged_pieces(&session(&app).ctx(), GERMANY).contains(&vanguard), "offered the retreat");
    let from = HexAt::new(10, 7);
    select(&mut app, vanguard, from);
    // A plain move is refused: engaged troops leave only by retreat.
    click(&mut app, HexAt::new(11, 7));
    assert!(refusal(&app).contains("is engaged"), "{}", refusal(&app));
    press(&mut app, KeyCode::KeyR);
    assert_eq!(pick(&app), Some(Pick::Retreat(vanguard)));
    click(&mut app, HexAt::new(9, 7));
    assert!(refusal(&app).contains("is held by the enemy"), "{}", refusal(&app));
    let morale = session(&app).ctx().force(ForceId(11)).and_then(|f| f.vitals.morale).expect("morale");
    click(&mut app, HexAt::new(12, 7));
    let Some(Order::Retreat { moves }) = last_order(&app) else { panic!("{}", refusal(&app)) };
    assert_eq!(moves, vec![(Piece::Unit(ForceId(11)), vec![HexAt::new(11, 7), HexAt::new(12, 7)])]);
    assert_eq!(unit_at(&app, 11), Place::Map(HexAt::new(12, 7)));
    assert_eq!(session(&app).ctx().force(ForceId(11)).and_then(|f| f.vitals.morale), Some(morale - 1));
    press(&mut app, KeyCode::KeyZ);
    assert_eq!(unit_at(&app, 11), Place::Map(from), "undone");
}

/// Purchases and restoring (issue 12, S-LOSS-1) and the S-SUP-4 priority from the panels: an
/// infantry division raised at Köln by a click, one refused off a city; a division dispersed
/// by its retreat restored, and refused once it stands on the map; the supply priority set, and refused for a
/// corps.
#[test]
fn purchases_restoring_and_supply_priority() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    let koeln = HexAt::new(20, 4);
    let before = session(&app).ctx().powers[0].clone();
    let economy = session(&app).game.scenario().rules.economy.clone();
    let recruit = Recruit::Infantry { class: 2, mountain: false, elite: false };
    button(&mut app, LandCommand::Start(Pick::Recruit(recruit.clone())));
    // Issue 27: the pick shows where the engine would take the recruit: free hexes of own cities.
    let ctx = session(&app).ctx();
    let places = kriegsspiel::great_war::overlay::pick_hexes(&ctx, &Pick::Recruit(recruit.clone()));
    assert!(places.contains(&koeln) && !places.contains(&HexAt::new(19, 4)), "{places:?}");
    for at in &places {
        let order = Order::Recruit { unit: recruit.clone(), at: *at };
        assert!(session(&app).game.preview(&order).is_ok(), "{at} is shown, so the order is taken there");
    }
    click(&mut app, HexAt::new(19, 4));
    assert!(refusal(&app).contains("appears on a free hex of an own city"), "{}", refusal(&app));
    click(&mut app, koeln);
    assert_eq!(last_order(&app), Some(Order::Recruit { unit: recruit, at: koeln }), "{}", refusal(&app));
    let ctx = session(&app).ctx();
    assert!(ctx.at(koeln).iter().any(|u| ctx.force(*u).is_some_and(|f| f.power == GERMANY)), "raised at Köln");
    assert_eq!(ctx.powers[0].money, before.money - i64::from(economy.division));
    assert_eq!(ctx.powers[0].manpower[1], before.manpower[1] - economy.division_manpower);
    // S-ARMY-15, S-COMBAT-9: the shaken 10th Reserve Division (Morale 1) retreats and, at
    // Morale 0, is dispersed; S-LOSS-1: it comes back at the nearest own city.
    select(&mut app, Selected::Piece(Piece::Unit(ForceId(10))), HexAt::new(10, 8));
    press(&mut app, KeyCode::KeyR);
    click(&mut app, HexAt::new(11, 8));
    assert_eq!(unit_at(&app, 10), Place::Dispersed, "{}", refusal(&app));
    give(&mut app, Order::Restore { unit: ForceId(10), class: 2 });
    assert!(matches!(unit_at(&app, 10), Place::Map(_)), "{}", refusal(&app));
    give(&mut app, Order::Restore { unit: ForceId(10), class: 2 });
    assert!(refusal(&app).contains("is not dispersed"), "{}", refusal(&app));
    // S-SUP-4: the 5th Army paid last; a corps has no such place.
    give(&mut app, Order::SupplyPriority { last: vec![FIFTH_ARMY] });
    assert_eq!(session(&app).ctx().powers[0].supply_last, vec![FIFTH_ARMY]);
    give(&mut app, Order::SupplyPriority { last: vec![BAVARIAN_CORPS] });
    assert!(refusal(&app).contains("there is no corps or army F101"), "{}", refusal(&app));
}

/// S-CITY-4 from the diplomacy panel: Germany offers France peace, France (at the screen after
/// the hand-over) accepts it, and the two are at peace; an offer to no power and an acceptance
/// of no offer are refused with the engine's reasons.
#[test]
fn peace_is_offered_and_accepted() {
    let mut app = app();
    start(&mut app);
    give(&mut app, Order::OfferPeace { to: "italy".into(), cede: vec![] });
    assert!(refusal(&app).contains("`italy` is no power (S-CITY-4)"), "{}", refusal(&app));
    give(&mut app, Order::OfferPeace { to: "france".into(), cede: vec![] });
    assert_eq!(last_order(&app), Some(Order::OfferPeace { to: "france".into(), cede: vec![] }));
    end_phase(&mut app);
    assert_eq!(phase(&app), (Phase::Preparation, FRANCE));
    give(&mut app, Order::AcceptPeace { from: "gb".into() });
    assert!(refusal(&app).contains("gb offers no peace to France"), "{}", refusal(&app));
    give(&mut app, Order::AcceptPeace { from: "germany".into() });
    let ctx = session(&app).ctx();
    assert!(!ctx.at_war(GERMANY, FRANCE), "{}", refusal(&app));
    assert!(ctx.powers[0].peace.contains(&FRANCE) && ctx.powers[1].peace.contains(&GERMANY));
}

/// S-SUP-6 as the army panel shows it: −1 Morale comes from the 3rd Upkeep in a row on the
/// front line for an independent unit (period 2), the 4th in a corps (3), the 5th in an army
/// (4); the panel warns once the next Upkeep there would cost Morale, and not off the front.
#[test]
fn the_army_panel_shows_the_rotation_period_of_s_sup_6() {
    use kriegsspiel::great_war::army_panel::Rotation;
    let scenario = files::load_scenario(FIXTURE).expect("loads");
    let game = GreatWar::new(&scenario, 1);
    let ctx = game.ctx();
    let front = HexAt::new(11, 7);
    // The Vanguard Division (independent), the 14th Division (in a corps, moved to the front
    // for the sum), the 1st Bavarian Division (in the 5th Army, likewise).
    for (unit, period) in [(11, 2), (14, 3), (1, 4)] {
        let mut f = ctx.force(ForceId(unit)).expect("in the fixture").clone();
        f.place = Place::Map(front);
        f.front.turns = period - 1;
        let r = Rotation::of(&ctx, &f);
        assert_eq!((r.period, r.on_front, r.due()), (period, true, false), "unit {unit}");
        f.front.turns = period;
        assert!(Rotation::of(&ctx, &f).due(), "unit {unit} after {period} turns");
        f.place = Place::Map(HexAt::new(20, 12));
        assert!(!Rotation::of(&ctx, &f).due(), "off the front line (more than 3 hexes away)");
    }
    let card = kriegsspiel::great_war::army_panel::unit_card(
        &kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::English),
        &ctx,
        ctx.force(ForceId(11)).expect("the Vanguard"),
    );
    assert_eq!(card.value("Health"), Some("3/3"));
    assert_eq!(card.value("Front line"), Some("0 turns in a row; each one past 2 costs 1 Morale (S-SUP-6)"));
}

/// Every string the land panels use is in both tables (English and Russian).
#[test]
fn the_land_panels_strings_are_in_both_languages() {
    use rules::texts::Texts;
    let (en, ru) = (Texts::english(), Texts::russian());
    let mut keys: Vec<String> = Vec::new();
    for file in ["land_orders.rs", "land_panels.rs", "army_panel.rs"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/great_war").join(file);
        let text = std::fs::read_to_string(&path).expect("the source");
        keys.extend(text.split('"').filter(|s| s.starts_with("gw.") && !s.contains('{')).map(str::to_string));
    }
    use rules::strategic::naval::model::ShipType::*;
    for ship in
        [Battleship, Battlecruiser, LightCruiser, Destroyer, Gunboat, Submarine, Asw, Minelayer, Minesweeper, Transport]
    {
        keys.push(format!("gw.buy.ship.{}", format!("{ship:?}").to_lowercase()));
    }
    keys.extend(["action.GwRetreat".to_string(), "action.GwGather".to_string()]);
    assert!(keys.len() > 80, "{}", keys.len());
    for k in keys {
        assert!(en.contains(&k) && ru.contains(&k), "{k} is missing");
    }
}

/// S-ARMY-7, S-ARMY-15: an army whose corps are both in contact retreats as a whole: the army
/// panel offers it, R on one of its corps and a click name where the first corps goes, and the
/// other goes the same way; every unit loses 1 Morale and the attached artillery is lost.
#[test]
fn an_engaged_army_retreats_as_a_whole() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    assert!(engaged_pieces(&session(&app).ctx(), GERMANY).contains(&Selected::Army(FIFTH_ARMY)));
    let guards = FormationId(102);
    let before = session(&app).ctx();
    select(&mut app, Selected::Piece(Piece::Corps(BAVARIAN_CORPS)), HexAt::new(14, 6));
    press(&mut app, KeyCode::KeyR);
    click(&mut app, HexAt::new(17, 7));
    let Some(Order::Retreat { moves }) = last_order(&app) else { panic!("{}", refusal(&app)) };
    let pieces: Vec<Piece> = moves.iter().map(|(p, _)| *p).collect();
    assert_eq!(pieces, vec![Piece::Corps(BAVARIAN_CORPS), Piece::Corps(guards)], "the whole army");
    let ctx = session(&app).ctx();
    assert_eq!(ctx.piece_hex(Piece::Corps(BAVARIAN_CORPS)), Some(HexAt::new(17, 7)));
    let guards_at = ctx.piece_hex(Piece::Corps(guards)).expect("on the map");
    assert_ne!(guards_at, HexAt::new(14, 8), "the Guards went too");
    for u in [1, 2, 3, 4] {
        let was = before.force(ForceId(u)).and_then(|f| f.vitals.morale).expect("morale");
        assert_eq!(ctx.force(ForceId(u)).and_then(|f| f.vitals.morale), Some(was - 1), "unit {u}");
    }
    assert_eq!(unit_at(&app, 20), Place::Destroyed, "the attached Dicke Bertha is lost in the retreat");
}

/// Issue 27, S-ARMY-5: attached heavy artillery has no counter, yet fires from its formation's
/// hexes. In the Fire phase a click on the army's hex picks its attached gun, so does the army
/// panel's "Fire…" (a `Select` of the gun) and Tab; a click on an enemy in range shows the
/// preview and "yes" fires it. A corps selected in the Fire phase fires with its army's gun, and
/// once that gun has fired the corps' click says why nothing fires.
#[test]
fn s_army_5_an_attached_gun_is_picked_by_click_panel_or_tab_and_fires() {
    let bertha = ForceId(20);
    let mut app = app();
    start(&mut app);
    while phase(&app) != (Phase::Fire, GERMANY) {
        end_phase(&mut app);
    }
    assert_eq!(unit_at(&app, 20), Place::Attached(FIFTH_ARMY));
    let gun = Selected::Piece(Piece::Unit(bertha));
    // A click on the 5th Army's hex: the gun that fires from there.
    click(&mut app, HexAt::new(14, 6));
    assert_eq!(selected(&app), Some(gun), "{}", refusal(&app));
    // The panel's button.
    app.world_mut().write_message(UiCommand::Deselect);
    app.update();
    assert_eq!(selected(&app), None);
    app.world_mut().write_message(UiCommand::Select(gun));
    app.update();
    assert_eq!(selected(&app), Some(gun));
    // Tab: the guns that may fire, the lowest ID first.
    app.world_mut().write_message(UiCommand::Deselect);
    app.update();
    press(&mut app, KeyCode::Tab);
    assert_eq!(selected(&app), Some(gun));
    // The corps selected, a click on the French cavalry three hexes off: the army's gun (range 3).
    app.world_mut().write_message(UiCommand::Select(Selected::Piece(Piece::Corps(BAVARIAN_CORPS))));
    app.update();
    let target = HexAt::new(14, 9);
    click(&mut app, target);
    let order = Order::Fire { unit: bertha, target, gas: false };
    assert_eq!(session(&app).confirm, Some(order.clone()), "{}", refusal(&app));
    assert_eq!(selected(&app), Some(gun), "the gun that fires is shown as the selection");
    press(&mut app, KeyCode::Enter);
    assert_eq!(last_order(&app), Some(order));
    assert!(session(&app).ctx().force(bertha).is_some_and(|f| f.activity.fired));
    // It has fired: Tab goes on to the guns on the map, the corps' click names why nothing fires.
    press(&mut app, KeyCode::Tab);
    assert_eq!(selected(&app), Some(Selected::Piece(Piece::Unit(ForceId(21)))));
    app.world_mut().write_message(UiCommand::Select(Selected::Piece(Piece::Corps(BAVARIAN_CORPS))));
    app.update();
    click(&mut app, HexAt::new(14, 5));
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("S-ARMY-5"), "{}", refusal(&app));
}

/// Issue 27, S-ARMY-3: orders go to armies. A click on a corps of an army selects the army first
/// and the corps on the next click; the corps alone shows no moves (the engine refuses them), Tab
/// goes through the army, not its corps; with the army selected a click on an enemy is no move:
/// next to one of its corps it says the army fights there in the Combat phase (S-ARMY-11), farther
/// off that the army must be moved up first. The preview of a fight says what it assumes.
#[test]
fn s_army_3_a_corps_of_an_army_is_commanded_through_its_army() {
    let mut app = app();
    start(&mut app);
    to_movement(&mut app);
    let army = Selected::Army(FIFTH_ARMY);
    let bavarians = Selected::Piece(Piece::Corps(BAVARIAN_CORPS));
    click(&mut app, HexAt::new(14, 6));
    assert_eq!(selected(&app), Some(army));
    click(&mut app, HexAt::new(14, 6));
    assert_eq!(selected(&app), Some(bavarians));
    let ctx = session(&app).ctx();
    assert!(kriegsspiel::great_war::overlay::reach(&ctx, bavarians).is_empty(), "no moves of its own");
    assert!(!kriegsspiel::great_war::overlay::reach(&ctx, army).is_empty(), "the army's moves");
    let tab = kriegsspiel::great_war::command::tab_order(&ctx, GERMANY);
    assert!(tab.contains(&army) && !tab.contains(&bavarians), "{tab:?}");
    // The army selected, a click on the French division next to the Guards Corps (14, 8).
    app.world_mut().write_message(UiCommand::Select(army));
    app.update();
    let orders = session(&app).game.orders().len();
    click(&mut app, HexAt::new(14, 9));
    assert!(session(&app).confirm.is_none());
    assert_eq!(session(&app).game.orders().len(), orders, "no move");
    assert!(refusal(&app).contains("it fights there as a whole in the Combat phase"), "{}", refusal(&app));
    // A fight's preview (a free piece moving next to the French) says what it assumes.
    let ctx = session(&app).ctx();
    let contact = rules::strategic::query::pieces_on_map(&ctx, GERMANY)
        .into_iter()
        .filter(|p| ctx.free_piece(*p).is_ok())
        .find_map(|p| {
            let (_, _, path) = ctx
                .destinations(p)
                .into_iter()
                .find(|(h, _, _)| h.neighbours().into_iter().any(|n| ctx.enemy_on(GERMANY, n)))?;
            Some(Order::Move { piece: p, path })
        })
        .expect("a German piece can reach the French");
    let preview = session(&app).game.preview(&contact).expect("a preview");
    let tr = kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::English);
    let lines = kriegsspiel::great_war::panels::preview_lines(&tr, &session(&app).ctx(), &preview);
    assert!(!preview.engagements.is_empty());
    assert!(lines.iter().any(|l| l.contains("after every power has moved")), "{lines:?}");
    // An enemy no corps of the army stands next to: why nothing happens.
    app.world_mut().write_message(UiCommand::Select(army));
    app.update();
    click(&mut app, HexAt::new(9, 8));
    assert!(session(&app).confirm.is_none());
    assert!(refusal(&app).contains("no corps of the army stands next to"), "{}", refusal(&app));
}

/// Issue 27: a refusal is shown until the player does something else, not for the rest of the
/// phase: a click that selects another piece clears it.
#[test]
fn a_refusal_is_cleared_by_the_next_click() {
    let mut app = app();
    start(&mut app);
    while phase(&app) != (Phase::Fire, GERMANY) {
        end_phase(&mut app);
    }
    app.world_mut().write_message(UiCommand::Select(Selected::Piece(Piece::Corps(BAVARIAN_CORPS))));
    app.update();
    click(&mut app, HexAt::new(2, 2));
    assert!(!refusal(&app).is_empty(), "out of every gun's range: refused");
    click(&mut app, HexAt::new(16, 6));
    assert_eq!(refusal(&app), "", "the next click clears it");
}

/// Issue 27: an order that brings a neutral into the war waits for "yes" under a warning that
/// names it (the engine's `enters_war`): a division's move into its land, not next to any enemy,
/// which was given at once before. France is made neutral until invaded; a German move that stays out of
/// French land is given at once.
#[test]
fn a_move_that_brings_a_neutral_into_the_war_is_shown_first_with_a_warning() {
    use kriegsspiel::great_war::panels::warnings;
    use rules::Game;
    use rules::strategic::query::land_pieces;
    let mut app = app();
    let mut scenario = files::load_scenario(FIXTURE).expect("the fixture loads");
    scenario.powers[1].entry = Some(rules::strategic::campaign::Entry { turn: None, when_invaded: true });
    // Verdun (9, 7), French land, left empty, and the Fifth Army's I Bavarian Corps on the road two
    // hexes from it: the army's move can take it into France.
    scenario.forces.retain(|f| f.id != 33);
    for f in scenario.forces.iter_mut().filter(|f| f.id == 1 || f.id == 2) {
        f.at = Some(HexAt::new(11, 7));
    }
    app.world_mut().write_message(StartGreatWar { scenario, seed: 7, seats: vec![Seat::Human; 3] });
    app.update();
    app.update();
    to_movement(&mut app);
    let ctx = session(&app).ctx();
    assert!(ctx.powers[1].neutral, "France waits");
    let tr = kriegsspiel::i18n::Tr::new(kriegsspiel::i18n::Lang::English);
    let game = GreatWar::replay(&session(&app).game.save()).expect("the game so far");
    let enters = |order: &Order| game.preview(order).map(|p| p.enters_war).unwrap_or_default();
    // A German piece of its own with one move into French land and one that stays out.
    let (piece, from, into, stay) = land_pieces(&ctx, GERMANY)
        .into_iter()
        .filter(|p| !p.artillery)
        .find_map(|p| {
            let ends = ctx.destinations(p.piece);
            let order = |path: &Vec<HexAt>| Order::Move { piece: p.piece, path: path.clone() };
            let into = ends.iter().find(|(_, _, path)| enters(&order(path)) == vec![FRANCE])?;
            let stay =
                ends.iter().find(|(h, _, path)| enters(&order(path)).is_empty() && !ctx.next_to_enemy(GERMANY, *h))?;
            Some((p.piece, p.at, into.0, stay.0))
        })
        .expect("a German piece on the French border");
    select(&mut app, Selected::Piece(piece), from);
    click(&mut app, into);
    let order = session(&app).confirm.clone().expect("the move waits for yes");
    assert!(matches!(order, Order::Move { piece: p, .. } if p == piece));
    let p = session(&app).game.preview(&order).expect("previewed");
    let said = warnings(&tr, &session(&app).ctx(), &p);
    assert!(said.iter().any(|l| l.contains("brings France into the war")), "{said:?}");
    assert!(session(&app).ctx().powers[1].neutral, "not given yet");
    press(&mut app, KeyCode::Escape);
    app.update();
    assert!(session(&app).confirm.is_none(), "taken back");
    select(&mut app, Selected::Piece(piece), from);
    let orders = session(&app).game.orders().len();
    click(&mut app, stay);
    assert!(session(&app).confirm.is_none(), "a move that stays out of France is given at once");
    assert_eq!(session(&app).game.orders().len(), orders + 1);
    // An army's move (the whole army by one click) that takes a corps into French land waits
    // under the same warning: the case of the review, where an army's move was routed through
    // neutral Dutch Limburg and only grey text said so.
    let ctx = session(&app).ctx();
    let army_order = |at: HexAt| Order::MoveArmy {
        army: FIFTH_ARMY,
        moves: rules::strategic::query::army_moves(&ctx, FIFTH_ARMY, at),
    };
    let lead = ctx.formation(FIFTH_ARMY).and_then(|f| f.corps.first().copied()).expect("the army's first corps");
    let into_france = ctx
        .destinations(Piece::Corps(lead))
        .into_iter()
        .map(|(h, _, _)| h)
        .filter(|h| ctx.at(*h).is_empty() && !ctx.enemy_on(GERMANY, *h))
        .find(|h| {
            let order = army_order(*h);
            matches!(&order, Order::MoveArmy { moves, .. } if !moves.is_empty()) && enters(&order) == vec![FRANCE]
        })
        .expect("a move of the Fifth Army into France");
    let orders = session(&app).game.orders().len();
    app.world_mut().write_message(UiCommand::Select(Selected::Army(FIFTH_ARMY)));
    app.update();
    click(&mut app, into_france);
    let order = session(&app).confirm.clone().expect("the army's move waits for yes");
    assert!(matches!(order, Order::MoveArmy { army, .. } if army == FIFTH_ARMY), "{order:?}");
    let p = session(&app).game.preview(&order).expect("previewed");
    let said = warnings(&tr, &session(&app).ctx(), &p);
    assert!(said.iter().any(|l| l.contains("brings France into the war")), "{said:?}");
    assert_eq!(session(&app).game.orders().len(), orders, "nothing given before yes");
    assert!(session(&app).ctx().powers[1].neutral, "France still waits");
}

/// S-ARMY-2 by the panels and the board (issue 27: attached squadrons could be reached only
/// through the fleet panel's list): a squadron next to the Fifth Army's I Bavarian Corps is
/// attached to the army by the order its panel offers; the army panel then lists it, and a
/// click on another hex of the army — the Guards Corps', not the squadron's base — finds it.
#[test]
fn s_army_2_a_squadron_is_attached_to_an_army_and_found_with_it() {
    use rules::strategic::query::{attached_squadrons, squadron_attach_candidates, squadrons_at};
    let mut app = app();
    let mut scenario = files::load_scenario(FIXTURE).expect("the fixture loads");
    scenario.aviation = rules::strategic::testkit::aviation();
    scenario.squadrons.push(rules::strategic::scenario::SquadronSpec {
        id: 1,
        power: "germany".into(),
        kind: "Reconnaissance squadron".into(),
        base: HexAt::new(15, 6),
        name: Some("Feldflieger-Abteilung 1".into()),
    });
    app.world_mut().write_message(StartGreatWar { scenario, seed: 7, seats: vec![Seat::Human; 3] });
    app.update();
    app.update();
    to_movement(&mut app);
    let ctx = session(&app).ctx();
    let viewer = rules::view::Viewer::Player(GERMANY);
    let offered = squadron_attach_candidates(&ctx, viewer, 1);
    assert!(offered.contains(&FIFTH_ARMY) && offered.contains(&BAVARIAN_CORPS), "{offered:?}");
    assert!(squadrons_at(&ctx, GERMANY, HexAt::new(14, 8)).is_empty(), "not yet with the army");
    app.world_mut().write_message(UiCommand::Select(Selected::Squadron(1)));
    app.update();
    give(&mut app, Order::AttachSquadron { squadron: 1, formation: Some(FIFTH_ARMY) });
    assert_eq!(last_order(&app), Some(Order::AttachSquadron { squadron: 1, formation: Some(FIFTH_ARMY) }));
    let ctx = session(&app).ctx();
    assert_eq!(attached_squadrons(&ctx, FIFTH_ARMY), vec![1], "the army panel's list");
    assert!(squadron_attach_candidates(&ctx, viewer, 1).is_empty(), "attached: detach is offered instead");
    select(&mut app, Selected::Squadron(1), HexAt::new(14, 8));
}
