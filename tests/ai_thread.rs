//! Issue 30: natively the AI thinks on a worker thread, and in the Great War it thinks on ahead
//! through its power's orders on its own working copy. The orders must be those of the AI
//! thinking in slices, frame by frame, on the game's own copy after each order.

mod support;
use ai::Level;
use ai::great_war::game::{GwSetup, play};
use bevy::prelude::*;
use kriegsspiel::ai_turns::{AiThread, think_stretch};
use kriegsspiel::great_war::{StartGreatWar, files};
use kriegsspiel::session::{PlayGame, Seat, Session};
use rules::Game;
use rules::strategic::{GreatWar, Order, Scenario};
use web_time::{Duration, Instant};

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";
const SEED: u64 = 7;
const TURNS: u32 = 2;
const LEVELS: [Level; 3] = [Level::Marshal, Level::Veteran, Level::Marshal];

fn scenario() -> Scenario {
    files::load_scenario(TEST_FRONT).expect("the test front loads")
}

/// The AI crate's own play, thinking in slices on the game's copy after every order.
fn sliced(s: &Scenario) -> GreatWar {
    let setup = GwSetup {
        seed: SEED,
        players: (0..s.powers.len()).map(|i| Some(LEVELS[i % LEVELS.len()])).collect(),
        max_turns: Some(TURNS),
        orders: Vec::new(),
        slice: Duration::from_millis(2),
    };
    play(s, &setup).expect("the AIs play").game
}

#[test]
fn the_great_war_ai_thinking_ahead_on_its_copy_gives_the_orders_of_sliced_thinking() {
    let s = scenario();
    let reference = sliced(&s);
    let mut game = GreatWar::new(&s, SEED);
    let first = game.turn();
    let mut ais: Vec<_> = game
        .players()
        .into_iter()
        .enumerate()
        .map(|(i, p)| <GreatWar as PlayGame>::new_ai(p, LEVELS[i % LEVELS.len()], SEED))
        .collect();
    let mut stretches = 0;
    while let Some(active) = game.active_player() {
        if game.turn() >= first + TURNS {
            break;
        }
        let mut orders = Vec::new();
        think_stretch::<GreatWar>(&mut *ais[usize::from(active.0)], active, game.ctx(), |o| {
            orders.push(o);
            true
        });
        if orders.is_empty() {
            orders.push(Order::EndPhase);
        }
        stretches += 1;
        for o in orders {
            game.apply(o.clone()).unwrap_or_else(|e| panic!("the order thought ahead {o:?} is refused: {e}"));
        }
    }
    assert!(reference.orders().len() > stretches, "stretches of more than one order were thought ahead");
    assert_eq!(game.orders(), reference.orders());
    assert_eq!(game.state_hash(), reference.state_hash());
}

#[test]
fn the_game_with_the_ai_on_its_thread_plays_the_orders_of_sliced_thinking() {
    let s = scenario();
    let reference = sliced(&s);
    let mut app = support::app_with(|app| {
        app.insert_resource(AiThread);
    });
    let seats = (0..s.powers.len()).map(|i| Seat::Ai(LEVELS[i % LEVELS.len()])).collect();
    app.world_mut().write_message(StartGreatWar { scenario: s, seed: SEED, seats });
    let end = Instant::now() + Duration::from_secs(600);
    let (mut frames, mut longest) = (0u32, Duration::ZERO);
    loop {
        let at = Instant::now();
        app.update();
        longest = longest.max(at.elapsed());
        frames += 1;
        let given = app.world().get_resource::<Session<GreatWar>>().map_or(0, |s| s.game.orders().len());
        if given >= reference.orders().len() {
            break;
        }
        assert!(Instant::now() < end, "the AI's thread gave {given} orders in 10 minutes");
        std::thread::sleep(Duration::from_millis(1));
    }
    let session = app.world().resource::<Session<GreatWar>>();
    let orders = &session.game.orders()[..reference.orders().len()];
    assert_eq!(orders, reference.orders());
    assert!(frames > 1, "the frames went on while the AI thought");
    println!("{} orders in {frames} frames, the longest {longest:?}", orders.len());
}
