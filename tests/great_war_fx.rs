//! The Great War board's effects and keys, headless: an attack given by clicks and keys flashes
//! at the fight's hexes when the Combat phase fights it, and is gone after its time; a loaded
//! game or a replay's jump shows no effects of its past, the replay's step that fights does; no key serves two actions while a Great War game (or a
//! battle) is played.

mod support;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use kriegsspiel::great_war::fx::{Effect, FxKind};
use kriegsspiel::great_war::{Selected, Selection, StartGreatWar, files};
use kriegsspiel::input::{ActionSet, Controls, KnownActions};
use kriegsspiel::replay::{OpenReplay, ReplayView};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::{LoadGame, Seat};
use kriegsspiel::settings::{AnimSpeed, Settings};
use leafwing_input_manager::prelude::InputMap;
use rules::strategic::query::pieces_on_map as movable_pieces;
use rules::strategic::{GreatWar, HexAt, Order, Phase, PowerId};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

mod gw_input;
use gw_input::*;

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";

fn app() -> App {
    // The effects without the rest of the board (no window, no images: effects without sprites).
    support::app_with(|app| {
        app.add_plugins(kriegsspiel::great_war::fx::plugin);
    })
}

fn phase(app: &App) -> Phase {
    session(app).ctx().clock.phase
}

fn end_phase(app: &mut App) {
    press(app, KeyCode::Space);
    app.update();
    if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
        press(app, KeyCode::Enter);
    }
}

fn select(app: &mut App, piece: Selected, at: HexAt) {
    for _ in 0..6 {
        click(app, at);
        if app.world().resource::<Selection>().of(session(app)) == Some(piece) {
            return;
        }
    }
    panic!("{piece:?} could not be selected at {at}");
}

fn effects(app: &mut App) -> Vec<Effect> {
    let mut q = app.world_mut().query::<&Effect>();
    q.iter(app.world()).cloned().collect()
}

fn redraws(app: &App) -> &Messages<RequestRedraw> {
    app.world().resource::<Messages<RequestRedraw>>()
}

/// Updates until no effect plays (or the deadline passes), as the window would.
fn play_out(app: &mut App, within: Duration) {
    let start = Instant::now();
    while !effects(app).is_empty() && start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(10));
        app.update();
    }
}

/// A German piece moves next to the French by clicks, names the French hex to fight (Enter
/// under the preview), and the phases are ended by key: when the Combat phase fights it, a
/// burst plays at the fight's hexes for its time at the player's speed, then is gone. The game
/// before and after that order, loaded, shows nothing of its past.
#[test]
fn an_attack_given_by_clicks_flashes_at_the_fight_and_is_gone_after_its_time() {
    let mut app = app();
    app.world_mut().resource_mut::<Settings>().anim = AnimSpeed::Slow;
    let scenario = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    app.world_mut().write_message(StartGreatWar { scenario, seed: 3, seats: vec![Seat::Human; 3] });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    // To Germany's Movement (France and Britain, with nothing to do in Preparation, pass by themselves).
    let germany = PowerId(0);
    for _ in 0..3 {
        if (phase(&app), session(&app).ctx().active_power()) == (Phase::Movement, germany) {
            break;
        }
        end_phase(&mut app);
    }
    let ctx = session(&app).ctx();
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
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).ctx().piece_hex(piece), Some(to));
    click(&mut app, enemy);
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.orders().last(), Some(&Order::Attack { piece, target: enemy }));
    assert!(effects(&mut app).iter().all(|e| e.fx.kind != FxKind::Clash), "naming a target fights nothing yet");
    // End phases until the Combat phase has fought.
    let mut before = session(&app).saved_game();
    let mut clash = Vec::new();
    for _ in 0..12 {
        before = session(&app).saved_game();
        end_phase(&mut app);
        clash = effects(&mut app).into_iter().filter(|e| e.fx.kind == FxKind::Clash).collect();
        if !clash.is_empty() || phase(&app) == Phase::Upkeep {
            break;
        }
    }
    assert!(!clash.is_empty(), "the fight flashed");
    let hexes: Vec<HexAt> = clash.iter().map(|e| e.fx.at).collect();
    assert!(hexes.contains(&to) && hexes.contains(&enemy), "a burst at both sides' hexes {to} / {enemy}: {hexes:?}");
    let slow = FxKind::Clash.seconds(AnimSpeed::Slow.step_seconds());
    assert!(clash.iter().all(|e| e.duration == slow && e.left > 0.0), "at the player's speed: {clash:?}");
    app.update();
    assert!(!redraws(&app).is_empty(), "the window draws while an effect plays");
    // It plays out and is gone, and with it the reason to draw frames (the idle game costs no CPU).
    play_out(&mut app, Duration::from_secs_f32(slow + 3.0));
    assert!(effects(&mut app).is_empty(), "the effects are gone after their time");
    // Within a few frames (the window lingers 8 frames after input, messages live two frames), no
    // frame is asked for any more.
    for _ in 0..12 {
        app.update();
        if redraws(&app).is_empty() {
            break;
        }
    }
    assert!(redraws(&app).is_empty(), "no frames asked for when nothing plays");
    let after = session(&app).saved_game();
    // The last order fought the Combat phase (the end of Fire phase; the powers after it with
    // nothing to do passed by themselves).
    assert!(after.save.orders.len() > before.save.orders.len());
    assert!(after.save.orders[before.save.orders.len()..].iter().all(|o| *o == Order::EndPhase));
    // Loading the game before those orders, then the one after them: nothing of its past plays.
    let fought = after.save.orders.len() - 1;
    let replay = after.save.clone();
    for saved in [before, after] {
        app.world_mut().write_message(LoadGame::<GreatWar>(saved));
        for _ in 0..3 {
            app.update();
            assert!(effects(&mut app).is_empty(), "a loaded game shows no effects");
        }
    }
    assert!(
        session(&app).game.events().iter().any(|e| matches!(e.kind, rules::strategic::EventKind::Engagement { .. }))
    );
    // The replay viewer: a jump to the order before the fight shows nothing; the step (.) that
    // fights flashes.
    app.world_mut().write_message(OpenReplay::<GreatWar>(replay));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Replay);
    app.world_mut().resource_mut::<ReplayView<GreatWar>>().show_orders(fought).expect("the replay is rebuilt");
    for _ in 0..3 {
        app.update();
        assert!(effects(&mut app).is_empty(), "a jump in the replay shows no effects");
    }
    press(&mut app, KeyCode::Period);
    assert_eq!(app.world().resource::<ReplayView<GreatWar>>().orders, fought + 1);
    assert!(effects(&mut app).iter().any(|e| e.fx.kind == FxKind::Clash), "the replay's step that fights flashes");
}

/// Every binding on the controls for one action set, as "key → action" pairs.
fn bindings_of<A: ActionSet + std::fmt::Debug>(app: &mut App, into: &mut Vec<(String, String)>) {
    let mut q = app.world_mut().query_filtered::<&InputMap<A>, With<Controls>>();
    let map = q.single(app.world()).expect("the set is bound on the controls");
    let set = std::any::type_name::<A>().rsplit("::").next().unwrap_or("?");
    for (action, inputs) in map.iter_buttonlike() {
        for input in inputs {
            into.push((format!("{input:?}"), format!("{set}::{action:?}")));
        }
    }
    for (action, inputs) in map.iter_axislike() {
        for input in inputs {
            into.push((format!("{input:?}"), format!("{set}::{action:?}")));
        }
    }
}

/// Keys (with their modifiers: a chord is its own input) bound to more than one action.
fn clashes(bindings: &[(String, String)]) -> Vec<String> {
    let mut by_key: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (key, action) in bindings {
        let actions = by_key.entry(key).or_default();
        if !actions.contains(&action.as_str()) {
            actions.push(action);
        }
    }
    by_key.into_iter().filter(|(_, a)| a.len() > 1).map(|(k, a)| format!("{k}: {}", a.join(", "))).collect()
}

/// Every key live while a Great War game is played — the shell's (menus, the board's camera,
/// confirm, undo), help's (legend, replay), the Great War's orders, its sea keys, its land keys
/// and its overlays — serves one action only; so does every key of a battle. Every bound set is
/// one of these scenes' (or the campaign's), so a new set must be counted here.
#[test]
fn no_key_serves_two_actions_in_a_scene() {
    use kriegsspiel::battle::actions::BattleAction;
    use kriegsspiel::campaign::actions::CampaignAction;
    use kriegsspiel::great_war::actions::GwAction;
    use kriegsspiel::great_war::land_orders::LandAction;
    use kriegsspiel::great_war::layers::Overlay;
    use kriegsspiel::great_war::sea_keys::SeaAction;
    use kriegsspiel::help::HelpAction;
    use kriegsspiel::input::ShellAction;
    let mut app = app();
    let mut great_war = Vec::new();
    bindings_of::<ShellAction>(&mut app, &mut great_war);
    bindings_of::<HelpAction>(&mut app, &mut great_war);
    let mut battle = great_war.clone();
    let mut campaign = great_war.clone();
    bindings_of::<GwAction>(&mut app, &mut great_war);
    bindings_of::<SeaAction>(&mut app, &mut great_war);
    bindings_of::<LandAction>(&mut app, &mut great_war);
    bindings_of::<Overlay>(&mut app, &mut great_war);
    bindings_of::<BattleAction>(&mut app, &mut battle);
    bindings_of::<CampaignAction>(&mut app, &mut campaign);
    assert!(great_war.len() > 40, "the Great War's bindings are read: {}", great_war.len());
    for (scene, bindings) in [("Great War", &great_war), ("battle", &battle), ("campaign", &campaign)] {
        assert_eq!(clashes(bindings), Vec::<String>::new(), "keys of two actions in the {scene}");
    }
    // The check itself finds a clash: G given to a sea order too.
    let gas = great_war.iter().find(|(_, a)| a == "GwAction::ToggleGas").cloned().expect("bound");
    let mut doubled = great_war.clone();
    doubled.push((gas.0.clone(), "SeaAction::LayMine".into()));
    assert_eq!(clashes(&doubled), vec![format!("{}: GwAction::ToggleGas, SeaAction::LayMine", gas.0)]);
    // Every set bound in the app is one of the scenes' above.
    let counted = [
        std::any::type_name::<ShellAction>(),
        std::any::type_name::<HelpAction>(),
        std::any::type_name::<GwAction>(),
        std::any::type_name::<SeaAction>(),
        std::any::type_name::<LandAction>(),
        std::any::type_name::<Overlay>(),
        std::any::type_name::<BattleAction>(),
        std::any::type_name::<CampaignAction>(),
    ];
    let known = app.world().resource::<KnownActions>();
    for a in &known.0 {
        assert!(counted.contains(&a.set), "{} of {} is not counted in any scene's keys", a.name, a.set);
    }
}
