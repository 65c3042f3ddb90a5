//! The Great War scene, headless: whole phases and turns driven through input actions (clicks on
//! hexes, keys) change the engine exactly as orders do — an army's corps moving, an attack and a
//! gas bombardment given after their previews, a naval battle, the hand-over between three people
//! at one screen — and a game sent as a file (play by file) continues where it stopped, while a
//! tampered file is refused.

mod support;
use bevy::prelude::*;
use kriegsspiel::great_war::{Selected, StartGreatWar, files};
use kriegsspiel::saves::{self, SceneSave};
use kriegsspiel::screens::Screen;
use kriegsspiel::session::{LoadGame, Seat};
use rules::Game;
use rules::strategic::event::EventKind;
use rules::strategic::query::{pieces_at, pieces_on_map as movable_pieces};
use rules::strategic::{GreatWar, HexAt, Order, Phase, Piece, PowerId};
use support::app;

mod gw_input;
use gw_input::*;

fn start(app: &mut App, path: &str, seed: u64, seats: Vec<Seat>) {
    let scenario = files::load_scenario(path).expect("the scenario loads");
    app.world_mut().write_message(StartGreatWar { scenario, seed, seats });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

/// Says "ready" on the hand-over screen if it shows.
fn hand_over(app: &mut App) {
    if handing_over(app) {
        press(app, KeyCode::Enter);
    }
}

/// Ends the active power's part of the phase by key (and hands the screen over).
fn end_phase(app: &mut App) {
    press(app, KeyCode::Space);
    // The hand-over screen follows a frame after the turn passes.
    app.update();
    hand_over(app);
}

/// Germany's Movement phase of the first turn: Germany's person ends Preparation; France and
/// Great Britain, with nothing to do in it (no cylinder, S-CHEM-1), pass by themselves.
fn to_movement(app: &mut App) {
    for _ in 0..6 {
        if phase(app) == (Phase::Movement, PowerId(0)) {
            return;
        }
        end_phase(app);
    }
    panic!("not in Germany's Movement phase: {:?}", phase(app));
}

fn phase(app: &App) -> (Phase, PowerId) {
    let ctx = session(app).ctx();
    (ctx.clock.phase, ctx.active_power())
}

/// Clicks a piece's hex until it is the selection.
fn select(app: &mut App, piece: Selected, at: HexAt) {
    for _ in 0..6 {
        click(app, at);
        if selected(app) == Some(piece) {
            return;
        }
    }
    panic!("{piece:?} could not be selected at {at}");
}

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";
const NORTH_SEA: &str = "scenarios/great_war/north_sea_1916.ron";

/// Three people at one screen: each end of a power's part of a phase hides the board until the
/// next power's player says they are ready (Germany, France, Great Britain in scenario order,
/// S-TURN-2) — in the Movement phase, where each has orders; in Preparation France and Great
/// Britain have nothing to do (no cylinder, S-CHEM-1), so they pass by themselves and the screen
/// is not handed to them (`tests/setup.rs`).
#[test]
fn hot_seat_hands_the_screen_over_between_three_powers() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 1, vec![Seat::Human; 3]);
    assert_eq!(phase(&app), (Phase::Preparation, PowerId(0)));
    to_movement(&mut app);
    assert_eq!(phase(&app), (Phase::Movement, PowerId(0)));
    let mut seen = Vec::new();
    for _ in 0..2 {
        press(&mut app, KeyCode::Space);
        app.update();
        assert!(handing_over(&app), "the screen is handed over after {:?}", phase(&app));
        // While it is handed over, no order is given.
        press(&mut app, KeyCode::Space);
        seen.push(phase(&app));
        press(&mut app, KeyCode::Enter);
        assert!(!handing_over(&app));
    }
    assert_eq!(seen, vec![(Phase::Movement, PowerId(1)), (Phase::Movement, PowerId(2))]);
    assert_eq!(session(&app).game.orders(), vec![Order::EndPhase; 5].as_slice());
}

/// S-ARMY-3 by the mouse: a division is selected by a click on its hex and moved by a click on a
/// hex it can reach (the engine's path); an army is taken in hand (Y) and its corps move by one
/// order; undo takes a move back while no die has been thrown.
#[test]
fn a_division_and_an_army_move_by_clicks() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 1, vec![Seat::Human; 3]);
    to_movement(&mut app);
    assert_eq!(phase(&app), (Phase::Movement, PowerId(0)));
    // The 4th Cavalry Division (unit 7) to (13, 3), as in the scripted test game.
    select(&mut app, Selected::Piece(Piece::Unit(rules::strategic::ForceId(7))), HexAt::new(16, 3));
    click(&mut app, HexAt::new(13, 3));
    let ctx = session(&app).ctx();
    assert_eq!(ctx.force(rules::strategic::ForceId(7)).and_then(|f| f.hex()), Some(HexAt::new(13, 3)));
    assert!(matches!(session(&app).game.orders().last(), Some(Order::Move { piece: Piece::Unit(_), .. })));
    // Undo (Z) takes it back: no die was thrown.
    press(&mut app, KeyCode::KeyZ);
    let ctx = session(&app).ctx();
    assert_eq!(ctx.force(rules::strategic::ForceId(7)).and_then(|f| f.hex()), Some(HexAt::new(16, 3)));
    // A corps of an army, then the whole army (Y), one hex west.
    let army_corps = ctx
        .formations
        .iter()
        .find(|f| f.kind == rules::strategic::state::FormationKind::Army && f.power == PowerId(0))
        .and_then(|a| a.corps.first().copied())
        .expect("Germany has an army");
    let from = ctx.piece_hex(Piece::Corps(army_corps)).expect("on the map");
    select(&mut app, Selected::Piece(Piece::Corps(army_corps)), from);
    press(&mut app, KeyCode::KeyY);
    let Some(Selected::Army(army)) = selected(&app) else { panic!("the army is in hand: {:?}", selected(&app)) };
    let to = ctx
        .destinations(Piece::Corps(army_corps))
        .into_iter()
        .map(|(h, _, _)| h)
        .find(|h| !rules::strategic::query::army_moves(&ctx, army, *h).is_empty());
    let to = to.expect("the army can move somewhere");
    click(&mut app, to);
    // An army's move is shown with its preview first, then given by Enter.
    assert!(matches!(session(&app).confirm, Some(Order::MoveArmy { .. })), "{:?}", session(&app).refusal);
    press(&mut app, KeyCode::Enter);
    assert!(matches!(session(&app).game.orders().last(), Some(Order::MoveArmy { .. })));
    assert_eq!(session(&app).ctx().piece_hex(Piece::Corps(army_corps)), Some(to));
}

/// A refusal is shown with the engine's reason: a hex no piece can reach this phase.
#[test]
fn a_refused_move_says_why() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 1, vec![Seat::Human; 3]);
    to_movement(&mut app);
    select(&mut app, Selected::Piece(Piece::Unit(rules::strategic::ForceId(7))), HexAt::new(16, 3));
    let orders = session(&app).game.orders().len();
    // Verdun, held by the French, seven hexes away.
    click(&mut app, HexAt::new(9, 6));
    assert_eq!(session(&app).game.orders().len(), orders, "nothing was ordered");
    let why = session(&app).refusal.clone().expect("a reason");
    assert!(why.english().contains("(S-COMBAT-4)") || why.english().contains("held by the enemy"), "{why}");
}

/// An attack and a gas bombardment through clicks, each shown with the engine's preview before it
/// is given (S-COMBAT-8 engagements, S-ART-7 / S-CHEM-3 fire with the chance of every outcome);
/// Esc takes an order back unsaid, Enter gives it; the Combat phase then fights.
#[test]
fn an_attack_and_a_gas_bombardment_are_previewed_then_given() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 3, vec![Seat::Human; 3]);
    to_movement(&mut app);
    let germany = PowerId(0);
    let ctx = session(&app).ctx();
    // A German piece that can reach a hex next to the French, and the French hex next to it.
    let (piece, to, enemy) = movable_pieces(&ctx, germany)
        .into_iter()
        .find_map(|p| {
            ctx.destinations(p).into_iter().find_map(|(h, _, _)| {
                let e = h.neighbours().into_iter().find(|n| ctx.enemy_on(germany, *n))?;
                Some((p, h, e))
            })
        })
        .expect("a German piece can reach the French");
    let from = ctx.piece_hex(piece).expect("on the map");
    select(&mut app, Selected::Piece(piece), from);
    click(&mut app, to);
    assert!(matches!(session(&app).confirm, Some(Order::Move { .. })), "the move next to the enemy waits");
    press(&mut app, KeyCode::Escape);
    assert!(session(&app).confirm.is_none());
    assert_eq!(session(&app).ctx().piece_hex(piece), Some(from), "nothing moved");
    select(&mut app, Selected::Piece(piece), from);
    click(&mut app, to);
    let waiting = session(&app).confirm.clone().expect("waiting for yes");
    let preview = session(&app).game.preview(&waiting).expect("the preview");
    assert!(!preview.engagement_lines.is_empty(), "the preview shows the engagement with its terms");
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).ctx().piece_hex(piece), Some(to));
    // Name the enemy hex to fight (S-COMBAT-8), after its preview.
    click(&mut app, enemy);
    assert_eq!(session(&app).confirm, Some(Order::Attack { piece, target: enemy }));
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&Order::Attack { piece, target: enemy }));
    // Germany's heavy artillery closes in, and in the Fire phase fires gas at the French.
    let ctx = session(&app).ctx();
    let gun = ctx
        .forces
        .iter()
        .filter(|f| f.power == germany && f.kind.is_artillery() && f.member.corps.is_none())
        .find_map(|f| Some((f.id, f.hex()?)))
        .expect("an independent German heavy artillery division");
    let french: Vec<HexAt> =
        ctx.forces.iter().filter(|f| ctx.hostile(germany, f.power)).filter_map(|f| f.hex()).collect();
    let best = ctx
        .destinations(Piece::Unit(gun.0))
        .into_iter()
        .min_by_key(|(h, _, _)| (french.iter().map(|e| e.distance(*h)).min().unwrap_or(99), *h))
        .map(|(h, _, _)| h);
    if let Some(best) = best {
        select(&mut app, Selected::Piece(Piece::Unit(gun.0)), gun.1);
        click(&mut app, best);
        hand_over(&mut app);
        if session(&app).confirm.is_some() {
            press(&mut app, KeyCode::Enter);
        }
    }
    while phase(&app).0 != Phase::Fire {
        end_phase(&mut app);
    }
    assert_eq!(phase(&app), (Phase::Fire, germany));
    let ctx = session(&app).ctx();
    let at = ctx.force(gun.0).and_then(|f| f.hex()).expect("the gun is on the map");
    let target = french
        .iter()
        .copied()
        .find(|t| session(&app).game.preview(&Order::Fire { unit: gun.0, target: *t, gas: true }).is_ok())
        .expect("a French hex within range of the gun");
    select(&mut app, Selected::Piece(Piece::Unit(gun.0)), at);
    press(&mut app, KeyCode::KeyG);
    click(&mut app, target);
    let order = Order::Fire { unit: gun.0, target, gas: true };
    assert_eq!(session(&app).confirm, Some(order.clone()), "{:?}", session(&app).refusal);
    let preview = session(&app).game.preview(&order).expect("the preview");
    let total: f64 = preview.outcomes.iter().map(|o| o.chance).sum::<f64>() + preview.unexplored;
    assert!((total - 1.0).abs() < 1e-6, "the outcomes' chances add up to one: {total}");
    let before = session(&app).game.events().len();
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&order));
    assert!(session(&app).game.events().len() > before, "the fire is in the log");
    // On to Combat: the attack named above is fought.
    let events = session(&app).game.events().len();
    while phase(&app).0 != Phase::Upkeep && phase(&app).0 != Phase::Over {
        end_phase(&mut app);
    }
    assert!(
        session(&app).game.events()[events..].iter().any(|e| matches!(e.kind, EventKind::Engagement { .. })),
        "the Combat phase fought the engagement"
    );
}

/// The North Sea through clicks (the preview game of `umpire preview`): the fleets sail by
/// selecting a fleet on its hex and clicking the end of its path (the interface's path is the
/// orders file's), phases end by key, and the minelayer group sailing at the Battlecruiser Fleet
/// is shown with the battle's preview, then fought out as a naval battle (S-NAVAL-6…10).
#[test]
fn a_naval_battle_through_clicks() {
    let mut app = app();
    start(
        &mut app,
        NORTH_SEA,
        3,
        vec![Seat::Human; 2.max(files::load_scenario(NORTH_SEA).expect("loads").powers.len())],
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/great_war/north_sea_1916_preview_orders.ron");
    let text = std::fs::read_to_string(&path).expect("the orders file");
    let orders: Vec<Order> = rules::data::parse_ron("north_sea_1916_preview_orders.ron", &text).expect("parses");
    let mut previewed = false;
    for (i, order) in orders.into_iter().enumerate() {
        app.update();
        hand_over(&mut app);
        // A power with nothing to do in its part of a phase passed by itself (hot-seat): the
        // file's pass for it is already in the game.
        if let Some(given) = session(&app).game.orders().get(i) {
            assert_eq!((given, &order), (&Order::EndPhase, &Order::EndPhase), "order {i}");
            continue;
        }
        match &order {
            Order::EndPhase => end_phase(&mut app),
            Order::MoveFleet { fleet, path } => {
                let ctx = session(&app).ctx();
                let at = kriegsspiel::great_war::fleet(&ctx, *fleet).expect("afloat").at;
                select(&mut app, Selected::Fleet(*fleet), at);
                let end = *path.last().expect("a path");
                assert_eq!(kriegsspiel::great_war::command::sea_path(&ctx, *fleet, end).as_ref(), Some(path));
                click(&mut app, end);
                // Sailing at an enemy fleet waits for "yes" under the battle's preview.
                if let Some(waiting) = session(&app).confirm.clone() {
                    previewed = true;
                    let preview = session(&app).game.preview(&waiting).expect("the preview");
                    let total: f64 = preview.outcomes.iter().map(|o| o.chance).sum::<f64>() + preview.unexplored;
                    assert!((total - 1.0).abs() < 1e-9, "the battle's outcomes sum to certainty: {total}");
                    press(&mut app, KeyCode::Enter);
                }
                assert!(
                    matches!(session(&app).game.orders().last(), Some(Order::MoveFleet { fleet: f, .. }) if f == fleet),
                    "fleet {fleet} sailed: {:?}",
                    session(&app).refusal
                );
            }
            other => {
                app.world_mut().write_message(kriegsspiel::great_war::command::UiCommand::Give(other.clone()));
                app.update();
            }
        }
        let volleys = session(&app)
            .game
            .events()
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::Die { what, .. } if what == "volley"))
            .count();
        if volleys > 0 {
            assert!(previewed, "the battle was previewed before the order");
            assert!(session(&app).game.events().iter().any(|e| e.text().contains("Surface battle")));
            return;
        }
    }
    panic!("no naval battle was fought");
}

/// Play by file: a game saved after Germany's part of a phase opens elsewhere and continues
/// with France to move; the same file with one order changed is refused, saying the replay
/// diverged, and the game on screen is kept.
#[test]
fn play_by_file_round_trip_and_a_tampered_file() {
    let mut app = self::app();
    start(&mut app, TEST_FRONT, 5, vec![Seat::Human; 3]);
    to_movement(&mut app);
    select(&mut app, Selected::Piece(Piece::Unit(rules::strategic::ForceId(7))), HexAt::new(16, 3));
    click(&mut app, HexAt::new(13, 3));
    end_phase(&mut app);
    let sent = session(&app).saved_game();
    let text = saves::saved_game_to_text(&sent);
    let hash = session(&app).game.state_hash();
    // The next player opens the file.
    let mut other = self::app();
    let read = saves::saved_game_from_text::<rules::Save<GreatWar>>("sent.ron", &text).expect("reads");
    assert_eq!(read.save.replay_hash(), Ok(hash.to_string()));
    other.world_mut().write_message(LoadGame::<GreatWar>(read));
    other.update();
    other.update();
    assert_eq!(session(&other).game.state_hash(), hash);
    assert_eq!(phase(&other), (Phase::Movement, PowerId(1)), "France continues");
    // Tampered: other dice.
    let tampered = text.replacen("seed: 5,", "seed: 6,", 1);
    assert_ne!(tampered, text, "the file names its seed");
    let e = saves::saved_game_from_text::<rules::Save<GreatWar>>("sent.ron", &tampered)
        .and_then(|g| g.save.replay_hash())
        .expect_err("refused");
    assert!(e.contains("hash") || e.contains("diverge") || e.contains("differ"), "{e}");
}

/// The AI plays every power of the test front through a whole turn in slices, as in a scripted
/// run (`--ai all`), and the game moves on to the next turn.
#[test]
fn the_ai_plays_every_power_through_a_turn() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 2, vec![Seat::Ai(ai::Level::Recruit); 3]);
    let first = session(&app).game.turn();
    for _ in 0..4000 {
        app.update();
        if session(&app).game.turn() > first || session(&app).game.is_over() {
            break;
        }
    }
    assert!(session(&app).game.turn() > first || session(&app).game.is_over(), "a whole turn was played");
}

/// The launch finds the scene from the scenario file: a Great War scenario needs no `--mode`, and
/// `--ai` names powers by their ids.
#[test]
fn the_launch_knows_a_great_war_scenario() {
    use kriegsspiel::launch::{AiSides, Launch};
    let launch = Launch { scenario: Some(TEST_FRONT.into()), ..Launch::interactive() };
    let scenes = kriegsspiel::scenes();
    assert_eq!(launch.scene(&scenes).map(|s| s.mode), Ok(kriegsspiel::screens::Mode::GreatWar));
    assert_eq!(launch.check(&scenes), Ok(()));
    let scene = kriegsspiel::great_war::SCENE;
    let seats =
        AiSides::seats(Some(&AiSides::parse("france").expect("parses")), &scene, ai::Level::Veteran).expect("known");
    let scenario = files::load_scenario(TEST_FRONT).expect("loads");
    assert_eq!(
        kriegsspiel::great_war::seats_for(&scenario, &seats, &names(&scene)),
        vec![Seat::Human, Seat::Ai(ai::Level::Veteran), Seat::Human]
    );
}

/// The launch's names of the scene's players, as it gives them with its seats.
fn names(scene: &kriegsspiel::launch::SceneInfo) -> Vec<String> {
    scene.players.iter().map(|p| p.to_string()).collect()
}

/// Issue 27: `--ai` knows every power of every shipped Great War scenario (`usa` was unknown).
#[test]
fn the_launch_names_every_power_of_the_shipped_scenarios() {
    use kriegsspiel::launch::AiSides;
    let scene = kriegsspiel::great_war::SCENE;
    for path in files::scenario_paths() {
        let scenario = files::load_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
        for p in &scenario.powers {
            let named = AiSides::parse(&p.id).expect("parses");
            let seats =
                AiSides::seats(Some(&named), &scene, ai::Level::Recruit).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mine = kriegsspiel::great_war::seats_for(&scenario, &seats, &names(&scene));
            let at = scenario.powers.iter().position(|q| q.id == p.id).expect("the power");
            assert_eq!(mine.get(at), Some(&Seat::Ai(ai::Level::Recruit)), "{path}: {}", p.id);
        }
    }
}

/// Each shipped Great War scenario's pieces: every piece a power commands on a hex is selectable.
#[test]
fn pieces_on_a_hex_are_the_corps_and_independent_units() {
    let scenario = files::load_scenario(TEST_FRONT).expect("loads");
    let game = GreatWar::new(&scenario, 1);
    let ctx = game.ctx();
    // Units 1 and 2 form the I Bavarian Corps on (14, 6): one piece.
    let pieces = pieces_at(&ctx, PowerId(0), HexAt::new(14, 6));
    assert_eq!(pieces.len(), 1, "{pieces:?}");
    assert!(matches!(pieces[0], Piece::Corps(_)));
}

/// The set-up screen's catalogue lists the Great War scenarios with one seat per power; a chosen
/// one is parsed on the loading screen and starts with the seats chosen (a person or the AI at
/// its level for each power).
#[test]
fn a_chosen_great_war_scenario_starts_from_the_loading_screen() {
    use kriegsspiel::catalog::{Catalog, Chosen};
    use kriegsspiel::screens::Mode;
    let mut app = app();
    let catalog = app.world().resource::<Catalog>().clone();
    let entry = catalog.find(TEST_FRONT).expect("listed").clone();
    assert_eq!(entry.mode, Mode::GreatWar);
    assert_eq!(entry.header.players.len(), 3, "one seat per power");
    assert!(catalog.find(NORTH_SEA).is_some_and(|e| e.mode == Mode::GreatWar));
    let seats = vec![Seat::Human, Seat::Ai(ai::Level::Marshal), Seat::Ai(ai::Level::Recruit)];
    app.world_mut().insert_resource(Chosen {
        mode: Mode::GreatWar,
        path: entry.path.clone(),
        seed: 4,
        seats: seats.clone(),
        seat_names: Vec::new(),
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Loading);
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    assert_eq!(session(&app).game.scenario().name, entry.header.name);
    assert_eq!(session(&app).seats, seats);
    assert_eq!(*app.world().resource::<State<Mode>>().get(), Mode::GreatWar);
}

/// A save of a game on a large map (the North Sea's 85,212 hexes) names the shipped scenario by
/// path and hash instead of embedding it, and opens again to the same game.
#[test]
fn a_save_on_a_large_map_references_its_scenario() {
    let mut app = self::app();
    start(&mut app, NORTH_SEA, 3, vec![Seat::Human; files::load_scenario(NORTH_SEA).expect("loads").powers.len()]);
    end_phase(&mut app);
    let sent = session(&app).saved_game();
    let text = saves::saved_game_to_text(&sent);
    assert!(text.contains("scenario_path: \"scenarios/great_war/north_sea_1916.ron\""), "referenced");
    assert!(text.len() < 20_000, "small: {} bytes", text.len());
    let read = saves::saved_game_from_text::<rules::Save<GreatWar>>("sent.ron", &text).expect("reads");
    assert_eq!(read.save.replay_hash(), Ok(session(&app).game.state_hash().to_string()));
}

/// A Great War save opens in the replay viewer, stepped from stop to stop by its hashes.
#[test]
fn a_great_war_save_opens_in_the_replay_viewer() {
    use kriegsspiel::replay::{OpenReplay, ReplayView};
    let mut app = self::app();
    start(&mut app, TEST_FRONT, 1, vec![Seat::Human; 3]);
    to_movement(&mut app);
    end_phase(&mut app);
    let save = session(&app).game.save();
    app.world_mut().write_message(OpenReplay::<GreatWar>(save));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Replay);
    let mut view = app.world_mut().resource_mut::<ReplayView<GreatWar>>();
    let last = view.stops.len() - 1;
    assert!(last >= 1, "stops: {:?}", view.stops);
    view.go(last).expect("replays to the end");
    assert_eq!(view.game.orders().len(), 4);
}

/// Issue 27: a Great War game is saved by hand (the top bar's Save, a `SaveToSlot`), the notice
/// says so, and the slot opens the same game.
#[test]
fn a_great_war_game_is_saved_by_hand_to_a_slot_and_opens_again() {
    let mut app = app();
    start(&mut app, TEST_FRONT, 3, vec![Seat::Human; 3]);
    end_phase(&mut app);
    end_phase(&mut app);
    app.world_mut().write_message(kriegsspiel::session::SaveToSlot("slot4".into()));
    app.update();
    assert!(session(&app).notice.as_deref().is_some_and(|n| n.contains("Saved")), "{:?}", session(&app).notice);
    let saved: kriegsspiel::saves::SavedGame<rules::strategic::SaveGame> =
        kriegsspiel::saves::load_slot("slot4").expect("the slot opens");
    assert_eq!(saved.save.final_hash, session(&app).game.state_hash());
    assert_eq!(saved.save.orders, session(&app).game.orders());
}

/// The referee's reading of a game save (`umpire replay`, crates/umpire/src/game_save.rs): the
/// envelope's format and scene first, then the body with the seats ignored, its scenario loaded
/// from the path it names; the engine's replay of it gives its hash.
fn referee_replays_great_war(label: &str, text: &str) -> String {
    use rules::savefile::{ENVELOPE_FORMAT, Envelope, GreatWarBody, Probe, SceneKind};
    use serde::de::IgnoredAny;
    let probe: Probe = rules::data::parse_ron(label, text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((probe.format, probe.mode), (ENVELOPE_FORMAT, SceneKind::GreatWar), "{label}");
    let file: Envelope<IgnoredAny, IgnoredAny, GreatWarBody> =
        rules::data::parse_ron(label, text).unwrap_or_else(|e| panic!("{e}"));
    let load = |path: &str| rules::strategic::Scenario::load(std::path::Path::new(path)).map_err(|e| e.to_string());
    let save = file.save.into_save(label, load).unwrap_or_else(|e| panic!("{e}"));
    GreatWar::replay(&save).unwrap_or_else(|e| panic!("{label}: {e}")).hash().to_string()
}

/// Issue 27: the referee reads the saves the game itself writes of a Great War — the autosave
/// at a turn's end and the manual save to a slot, of the test front (embedded) and of the North
/// Sea (referenced by its path) — and replays each to the game's own hash.
#[test]
fn the_referee_replays_the_games_own_autosave_and_manual_save_of_a_great_war() {
    for (path, referenced) in [(TEST_FRONT, false), (NORTH_SEA, true)] {
        let mut app = app();
        let powers = files::load_scenario(path).expect("loads").powers.len();
        start(&mut app, path, 11, vec![Seat::Human; powers]);
        let first = session(&app).game.turn();
        for _ in 0..60 {
            if session(&app).game.turn() > first {
                break;
            }
            end_phase(&mut app);
        }
        assert!(session(&app).game.turn() > first, "{path}: a turn ended");
        let slot = format!("referee-{}", if referenced { "ns" } else { "tf" });
        app.world_mut().write_message(kriegsspiel::session::SaveToSlot(slot.clone()));
        app.update();
        let store = kriegsspiel::storage::store().expect("the test's store");
        let name = session(&app).name.clone();
        let prefix = saves::autosave_key(&name, 0).trim_end_matches('0').to_string();
        let autosaves = store.keys(&prefix);
        assert!(!autosaves.is_empty(), "{path}: an autosave under {prefix}");
        let hash = session(&app).game.state_hash().to_string();
        let slot_text = store.read(&slot).expect("reads").expect("the slot was written");
        assert_eq!(slot_text.contains("scenario_path:"), referenced, "{path}");
        assert_eq!(referee_replays_great_war(&slot, &slot_text), hash, "{path}: the manual save");
        let key = autosaves.last().expect("one");
        let auto_text = store.read(key).expect("reads").expect("written");
        let auto = referee_replays_great_war(key, &auto_text);
        let saved: saves::SavedGame<rules::strategic::SaveGame> =
            saves::saved_game_from_text(key, &auto_text).expect("the game reads its own autosave");
        assert_eq!(auto, saved.save.final_hash.to_string(), "{path}: the autosave's own hash");
    }
}
