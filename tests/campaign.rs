//! The campaign scene, headless: a campaign turn given through input actions changes the engine
//! exactly as the same orders do; a battle arises, its forces are chosen, it is fought in the
//! battle scene and its result returns to the map; a campaign saved mid-battle reopens in it.

mod support;
use bevy::prelude::*;
use kriegsspiel::campaign::battle::CampaignBattle;
use kriegsspiel::campaign::command::BattleReport;
use kriegsspiel::campaign::{ArmySelection, HoveredHex, StartCampaign};
use kriegsspiel::screens::{Mode, PlayView, Screen};
use kriegsspiel::session::Seat;
use leafwing_input_manager::prelude::Buttonlike;
use rules::Game;
use rules::campaign::{ArmyId, Campaign, Event, HexAt, Order};
use rules::tactical::{Battle, Side};

type CampaignSession = kriegsspiel::session::Session<Campaign>;
type BattleSession = kriegsspiel::session::Session<Battle>;

fn new_app() -> App {
    support::app()
}

fn linden() -> rules::campaign::CampaignScenario {
    kriegsspiel::campaign::files::load_scenario("scenarios/campaign/linden.ron").expect("the Linden campaign loads")
}

fn start(app: &mut App, seed: u64, seats: [Seat; 2]) {
    app.world_mut().write_message(StartCampaign { scenario: linden(), seed, seats: seats.to_vec() });
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Playing);
    assert_eq!(mode(app), Mode::Campaign);
}

fn press(app: &mut App, input: impl Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

/// Points at a hex and clicks it.
fn click(app: &mut App, col: i32, row: i32) {
    app.world_mut().resource_mut::<HoveredHex>().0 = Some(HexAt::new(col, row));
    press(app, MouseButton::Left);
}

fn campaign(app: &App) -> &CampaignSession {
    app.world().resource::<CampaignSession>()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn mode(app: &App) -> Mode {
    *app.world().resource::<State<Mode>>().get()
}

/// Lets the screen follow (a hand-over is shown a frame after the turn passes), then says
/// "ready" on the hand-over screen if it shows.
fn hand_over(app: &mut App) {
    app.update();
    app.update();
    if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
        press(app, KeyCode::Enter);
    }
}

fn selected(app: &App) -> Option<ArmyId> {
    app.world().resource::<ArmySelection>().of(campaign(app))
}

#[test]
fn a_campaign_turn_through_actions_gives_the_same_campaign_as_the_orders() {
    let mut app = new_app();
    start(&mut app, 3, [Seat::Human, Seat::Human]);
    click(&mut app, 1, 0);
    assert_eq!(selected(&app), Some(ArmyId(1)), "I Corps selected by clicking its hex");
    click(&mut app, 2, 0);
    assert_eq!(campaign(&app).game.state().army(ArmyId(1)).map(|a| (a.at, a.mp_left)), Some((HexAt::new(2, 0), 5)));
    // Undo: no die was thrown, the turn goes on.
    press(&mut app, KeyCode::KeyZ);
    assert_eq!(campaign(&app).game.state().army(ArmyId(1)).map(|a| a.at), Some(HexAt::new(1, 0)));
    click(&mut app, 2, 0);
    // A hex out of reach is refused with the reason.
    click(&mut app, 7, 5);
    assert!(
        campaign(&app).refusal.as_ref().is_some_and(|r| r.english().contains("T-STRAT-1")),
        "{:?}",
        campaign(&app).refusal
    );
    press(&mut app, KeyCode::Tab);
    assert_eq!(selected(&app), Some(ArmyId(2)), "Tab: the next army");
    click(&mut app, 6, 1);
    press(&mut app, KeyCode::KeyI);
    press(&mut app, KeyCode::KeyX); // split: the second of its two units becomes a new army
    press(&mut app, KeyCode::KeyM); // and joins again
    press(&mut app, KeyCode::Space);
    app.update();
    let by_orders = {
        let mut c = Campaign::new(&linden(), 3);
        for order in [
            Order::Move { army: ArmyId(1), path: vec![HexAt::new(2, 0)] },
            Order::Move { army: ArmyId(2), path: vec![HexAt::new(6, 1)] },
            Order::Intercept { army: ArmyId(2), on: true },
            Order::Split { army: ArmyId(2), units: vec![rules::tactical::UnitId(14)] },
            Order::Merge { army: ArmyId(2), into: ArmyId(c_next(&linden())) },
            Order::EndTurn,
        ] {
            c.apply(order.clone()).unwrap_or_else(|e| panic!("{order:?}: {e}"));
        }
        c
    };
    assert_eq!(campaign(&app).game.orders(), by_orders.orders());
    assert_eq!(campaign(&app).game.state_hash(), by_orders.state_hash(), "the same campaign as the orders give");
    assert_eq!(campaign(&app).game.active_player(), Some(Side::Blue));
    // Hot seat: the map is hidden until blue is ready.
    assert_eq!(*app.world().resource::<State<PlayView>>().get(), PlayView::HandOver);
    press(&mut app, KeyCode::Enter);
    assert_eq!(*app.world().resource::<State<PlayView>>().get(), PlayView::Playing);
}

/// The id the engine gives the first army split off.
fn c_next(scenario: &rules::campaign::CampaignScenario) -> u32 {
    let c = Campaign::new(scenario, 1);
    c.state().next_army
}

/// Marches I Corps on Lindenau (12 v 13 units, a key hex: fought on the grid, T-STRAT-9) and
/// takes both sides' default forces with Enter.
fn march_to_battle(app: &mut App) {
    click(app, 1, 0);
    click(app, 3, 1);
    let b = campaign(app).game.state().battle.clone().expect("a battle at Lindenau");
    assert_eq!((b.units, b.fielded), ([12, 13], [9, 10]), "T-STRAT-5: 12 v 13 fight 9 v 10");
    for _ in 0..4 {
        hand_over(app);
        if campaign(app).game.state().battle.as_ref().is_some_and(|b| b.chooser().is_none()) {
            break;
        }
        press(app, KeyCode::Enter);
    }
    hand_over(app);
    assert!(kriegsspiel::campaign::battle::ready_battle(&campaign(app).game).is_some(), "both sides chose");
}

#[test]
fn a_battle_arises_is_fought_in_the_battle_scene_and_its_result_returns_to_the_map() {
    let mut app = new_app();
    start(&mut app, 5, [Seat::Human, Seat::Human]);
    march_to_battle(&mut app);
    let expected = campaign(&app).game.battle_scenario().expect("the battle's scenario");
    press(&mut app, KeyCode::Enter); // to the battlefield
    app.update();
    assert_eq!((screen(&app), mode(&app)), (Screen::Playing, Mode::Battle));
    assert!(app.world().contains_resource::<CampaignBattle>());
    let battle = app.world().resource::<BattleSession>();
    assert_eq!(battle.game.scenario(), &expected, "the engine's scenario after the cut");
    // The launch sees the campaign's turn, and the battle's as the inner battle's.
    let progress = *app.world().resource::<kriegsspiel::session::Progress>();
    assert_eq!((progress.turn, progress.inner_battle), (1, Some(battle.game.turn())));
    assert_eq!(
        [expected.units_of(Side::Red).count(), expected.units_of(Side::Blue).count()],
        [9, 10],
        "the cut fields 9 v 10"
    );
    // Both players pass every turn: the battle runs to its round limit (T-TURN-4).
    for _ in 0..400 {
        hand_over(&mut app);
        if mode(&app) == Mode::Campaign {
            break;
        }
        press(&mut app, KeyCode::Space);
    }
    app.update();
    assert_eq!((screen(&app), mode(&app)), (Screen::Playing, Mode::Campaign), "back on the map");
    assert!(!app.world().contains_resource::<BattleSession>());
    let game = &campaign(&app).game;
    assert!(matches!(game.orders().last(), Some(Order::BattleResult { .. })), "the result went in as an order");
    assert!(game.state().battle.is_none());
    assert!(game.events().iter().any(|e| matches!(e, Event::BattleWon { .. })), "the result applied");
    let report = app.world().resource::<BattleReport>().0.clone().expect("the battle's report is shown");
    assert!(report.iter().any(|e| matches!(e, Event::BattleWon { .. })));
    // The campaign replays to the same state (the battle inside it included).
    let replayed = Campaign::replay(&game.save()).expect("replays");
    assert_eq!(replayed.state_hash(), game.state_hash());
}

#[test]
fn an_auto_battle_is_reported_round_by_round() {
    let mut app = new_app();
    start(&mut app, 2, [Seat::Human, Seat::Human]);
    // The light cavalry (2 units) rides over the ford on the Cossacks (2): 4 units, an auto-battle.
    click(&mut app, 6, 0);
    click(&mut app, 5, 3);
    let report = app.world().resource::<BattleReport>().0.clone().expect("reported");
    assert!(report.iter().any(|e| matches!(e, Event::AutoRound { round: 1, .. })), "{report:?}");
    assert!(report.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })), "{report:?}");
    press(&mut app, KeyCode::Enter);
    assert!(app.world().resource::<BattleReport>().0.is_none(), "Enter closes the report");
}

#[test]
fn a_campaign_saved_mid_battle_reopens_in_that_battle() {
    use kriegsspiel::saves::{SaveKinds, open_text};
    let mut app = new_app();
    start(&mut app, 7, [Seat::Human, Seat::Human]);
    // Its own autosaves (games started in the same second share a name).
    app.world_mut().resource_mut::<CampaignSession>().name = format!("resume-test-{}", std::process::id());
    march_to_battle(&mut app);
    press(&mut app, KeyCode::Enter);
    app.update();
    for _ in 0..6 {
        hand_over(&mut app);
        press(&mut app, KeyCode::Space);
    }
    hand_over(&mut app);
    let fought = app.world().resource::<BattleSession>().game.orders().to_vec();
    assert!(!fought.is_empty());
    let c = campaign(&app);
    let text = kriegsspiel::campaign::save::text_with_battle(
        &c.saved_game(),
        Some(kriegsspiel::campaign::battle::running(app.world().resource::<BattleSession>())),
    );
    // The autosave of the campaign's turn holds the battle as it stood at its last turn.
    let store = kriegsspiel::storage::store().expect("a store");
    let key = kriegsspiel::saves::autosave_key(&c.name, c.game.turn());
    let auto = store.read(&key).expect("reads").expect("the autosave is written");
    let (_, running) = kriegsspiel::campaign::save::running_battle(&key, &auto).expect("with the battle");
    assert!(!running.orders.is_empty() && fought.starts_with(&running.orders));
    // The battle writes no autosaves of its own: the campaign's hold it.
    let mine = format!("auto-resume-test-{}", std::process::id());
    assert!(store.keys(&mine).iter().all(|k| !k.contains("-battle-")), "{:?}", store.keys(&mine));
    // Opened in a fresh game, the save continues the battle where it stood.
    let mut again = new_app();
    let kinds = again.world().resource::<SaveKinds>().clone();
    let open = open_text(&kinds, "mid-battle.ron", text, false).expect("opens");
    again.world_mut().write_message(open);
    for _ in 0..6 {
        again.update();
    }
    assert_eq!(mode(&again), Mode::Battle);
    assert_eq!(again.world().resource::<BattleSession>().game.orders(), &fought[..]);
}

/// `--scenario scenarios/campaign/linden.ron` needs no `--mode`: the launch finds the file's scene.
#[test]
fn the_launch_finds_the_campaign_scene_by_the_file() {
    use kriegsspiel::launch::{Launch, LaunchMode};
    let scenes = kriegsspiel::scenes();
    let launch = Launch { scenario: Some("scenarios/campaign/linden.ron".into()), ..Launch::interactive() };
    assert_eq!(launch.check(&scenes), Ok(()));
    assert_eq!(launch.scene(&scenes).map(|s| s.mode), Ok(Mode::Campaign));
    let battle = Launch { scenario: Some("scenarios/borodino.ron".into()), ..Launch::interactive() };
    assert_eq!(battle.scene(&scenes).map(|s| s.mode), Ok(Mode::Battle));
    // Named as a battle, the campaign's file is refused with the battle's reason.
    let wrong = Launch { mode: LaunchMode::Battle, ..launch };
    assert!(wrong.check(&scenes).is_err());
}

/// The AI holds its seats on the map (through the shell's AI turns), and with no person at the
/// screen a grid battle goes to the battle scene at once, fought there by the battle AI.
#[test]
fn the_ai_plays_the_map_and_its_grid_battle_goes_to_the_battle_scene() {
    let mut app = new_app();
    start(&mut app, 1, [Seat::Ai(ai::Level::Recruit), Seat::Ai(ai::Level::Recruit)]);
    for _ in 0..3000 {
        app.update();
        if mode(&app) == Mode::Battle {
            break;
        }
    }
    assert_eq!(mode(&app), Mode::Battle, "a grid battle arose and is fought in the battle scene");
    let c = &campaign(&app).game;
    assert!(c.turn() > 1, "the AI ended its turns on the map");
    assert!(c.orders().iter().any(|o| matches!(o, Order::Move { .. })), "and marched");
    let expected = c.battle_scenario().expect("the waiting battle");
    let battle = app.world().resource::<BattleSession>();
    assert_eq!(battle.game.scenario(), &expected);
    assert_eq!(battle.seats, vec![Seat::Ai(ai::Level::Recruit); 2], "the campaign's seats fight it");
    // Its AI plays on in the battle scene.
    let before = battle.game.orders().len();
    for _ in 0..50 {
        app.update();
    }
    assert!(app.world().get_resource::<BattleSession>().is_none_or(|b| b.game.orders().len() > before));
}

/// A campaign's save opens in the replay viewer, stop by stop (turn by turn).
#[test]
fn a_campaign_save_is_watched_in_the_replay_viewer() {
    use kriegsspiel::replay::ReplayView;
    use kriegsspiel::saves::{SaveKinds, open_text, saved_game_to_text};
    let mut app = new_app();
    start(&mut app, 2, [Seat::Human, Seat::Human]);
    click(&mut app, 6, 0);
    click(&mut app, 5, 3); // an auto-battle
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Space);
    let text = saved_game_to_text(&campaign(&app).saved_game());
    let kinds = app.world().resource::<SaveKinds>().clone();
    let open = open_text(&kinds, "linden.ron", text, true).expect("opens");
    app.world_mut().write_message(open);
    for _ in 0..4 {
        app.update();
    }
    assert_eq!((screen(&app), mode(&app)), (Screen::Replay, Mode::Campaign));
    let view = app.world().resource::<ReplayView<Campaign>>();
    assert_eq!(view.stops.len(), 2, "the start and the end of red's turn");
    assert_eq!(view.save.orders.len(), 2);
}

/// T-STRAT-10 in the app: the army panel's "Replenish" gives the engine's order for the selected
/// army; an army with no worn special unit is refused with the rule's reason, and nothing moves.
#[test]
fn t_strat_10_replenish_is_given_for_the_selected_army_and_refused_with_its_reason() {
    let mut app = new_app();
    start(&mut app, 3, [Seat::Human, Seat::Human]);
    click(&mut app, 1, 0);
    assert_eq!(selected(&app), Some(ArmyId(1)));
    let orders = campaign(&app).game.orders().len();
    app.world_mut().write_message(kriegsspiel::campaign::command::CampaignCommand::Replenish);
    app.update();
    assert_eq!(campaign(&app).game.orders().len(), orders, "refused");
    assert!(
        campaign(&app).refusal.as_ref().is_some_and(|r| r.english().contains("T-STRAT-10")),
        "{:?}",
        campaign(&app).refusal
    );
    let preview = campaign(&app).game.preview(&Order::Replenish { army: ArmyId(1) });
    assert!(preview.is_err(), "the panel's button is off for it");
}

/// Issue 27: the referee reads the saves the game itself writes of a campaign (the autosave at
/// a turn's end and the manual save to a slot) as `umpire replay` does
/// (crates/umpire/src/game_save.rs: the envelope's format and scene, the body with the seats
/// ignored) and the engine's replay of each gives the game's hash.
#[test]
fn the_referee_replays_the_games_own_autosave_and_manual_save_of_a_campaign() {
    use rules::savefile::{CampaignBody, ENVELOPE_FORMAT, Envelope, Probe, SceneKind};
    use serde::de::IgnoredAny;
    let referee = |label: &str, text: &str| {
        let probe: Probe = rules::data::parse_ron(label, text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((probe.format, probe.mode), (ENVELOPE_FORMAT, SceneKind::Campaign), "{label}");
        let file: Envelope<IgnoredAny, IgnoredAny, CampaignBody> =
            rules::data::parse_ron(label, text).unwrap_or_else(|e| panic!("{e}"));
        let save = file.save.to_save(label).unwrap_or_else(|e| panic!("{e}"));
        Campaign::replay(&save).unwrap_or_else(|e| panic!("{label}: {e:?}")).state_hash().to_string()
    };
    let mut app = new_app();
    start(&mut app, 4, [Seat::Human, Seat::Human]);
    let first = campaign(&app).game.turn();
    for _ in 0..6 {
        if campaign(&app).game.turn() > first {
            break;
        }
        press(&mut app, KeyCode::Space);
        app.update();
        hand_over(&mut app);
    }
    assert!(campaign(&app).game.turn() > first, "a turn ended");
    app.world_mut().write_message(kriegsspiel::session::SaveToSlot("referee-campaign".into()));
    app.update();
    let store = kriegsspiel::storage::store().expect("the test's store");
    let hash = campaign(&app).game.state_hash().to_string();
    let slot = store.read("referee-campaign").expect("reads").expect("the slot was written");
    assert_eq!(referee("referee-campaign", &slot), hash, "the manual save");
    let prefix = kriegsspiel::saves::autosave_key(&campaign(&app).name, 0).trim_end_matches('0').to_string();
    let key = store.keys(&prefix).last().cloned().expect("an autosave of this game");
    let text = store.read(&key).expect("reads").expect("written");
    // Written as the turn ended, the last order given.
    assert_eq!(referee(&key, &text), hash, "the autosave");
}
