//! The shell's session, headless (issue 13, "found, to fix"): messages that belong to one game or
//! one selection go with it, final orders are final, orders the rules refuse are not offered for
//! a "yes", a turn with nothing done asks before it ends, leaving a game asks and saves it, each
//! battle keeps its own autosaves, and rebinding a key never silently steals or drops one.

mod support;
use bevy::prelude::*;
use kriegsspiel::battle::{HoveredCell, Selection, StartBattle};
use kriegsspiel::input::{ActionName, KeySlot, KnownActions, Rebinding};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::{Leave, LeaveAsked, SaveToSlot, Seat};
use kriegsspiel::settings::Settings;
use leafwing_input_manager::prelude::Buttonlike;
use rules::tactical::{Battle, Cell, Dir, Order, Scenario, Side, Terrain, UnitId};
use rules::testing::{Field, shipped};

type Session = kriegsspiel::session::Session<Battle>;

/// The data folder in use is global: each test has its own, and the tests take turns.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn app(name: &str) -> (std::sync::MutexGuard<'static, ()>, App) {
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = support::data_dir().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    (turn, support::app_in(dir, |_| {}))
}

fn start(app: &mut App, scenario: Scenario, seats: [Seat; 2]) {
    app.world_mut().write_message(StartBattle { scenario, seed: 1, seats: seats.to_vec() });
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Playing);
}

fn press(app: &mut App, input: impl Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

fn click(app: &mut App, cell: Cell) {
    app.world_mut().resource_mut::<HoveredCell>().0 = Some(cell);
    press(app, MouseButton::Left);
}

fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn selected(app: &App) -> Option<UnitId> {
    app.world().resource::<Selection>().of(session(app))
}

/// Two red battalions and a swamp, one blue battalion far away; red moves first.
fn field() -> Scenario {
    Field::new(10, 10)
        .terrain(&[(2, 4)], Terrain::Swamp)
        .unit(1, Side::Red, "line_infantry", (2, 2), Dir::South)
        .unit(2, Side::Red, "line_infantry", (5, 2), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (8, 8), Dir::North)
        .scenario()
}

#[test]
fn saved_to_a_slot_is_said_in_this_battle_only() {
    let (_turn, mut app) = app("notice");
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    app.world_mut().write_message(SaveToSlot("slot2".into()));
    app.update();
    assert_eq!(session(&app).notice.as_deref(), Some("Saved to Slot 2"));
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    assert_eq!(session(&app).notice, None, "a new battle starts without the last one's notice");
}

#[test]
fn a_refusal_goes_when_another_unit_is_selected_and_names_the_real_reason() {
    let (_turn, mut app) = app("refusal");
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    click(&mut app, Cell::new(2, 2));
    assert_eq!(selected(&app), Some(UnitId(1)));
    // Two cells into the swamp: refused for the swamp (T-TERR-3), not for the shape of a path.
    click(&mut app, Cell::new(2, 4));
    let why = session(&app).refusal.clone().expect("refused");
    assert!(why.english().contains("T-TERR-3") && why.english().contains("swamp"), "{why}");
    click(&mut app, Cell::new(5, 2));
    assert_eq!(selected(&app), Some(UnitId(2)));
    assert_eq!(session(&app).refusal, None, "the refusal was about the other unit");
    click(&mut app, Cell::new(5, 6));
    assert!(
        session(&app).refusal.as_ref().is_some_and(|r| r.english().contains("costs 4 MP")),
        "{:?}",
        session(&app).refusal
    );
    press(&mut app, KeyCode::Tab);
    assert_eq!(selected(&app), Some(UnitId(1)), "Tab cycles the units");
    assert_eq!(session(&app).refusal, None);
}

#[test]
fn the_retreat_cannot_be_undone_and_capitulation_is_not_offered_in_a_field_battle() {
    let (_turn, mut app) = app("final");
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    press(&mut app, KeyCode::KeyP);
    assert_eq!(session(&app).confirm, None, "T-FORT-7: nothing to capitulate in a field battle");
    let why = session(&app).refusal.clone().expect("refused at once");
    assert!(why.english().contains("T-FORT-7"), "{why}");
    press(&mut app, KeyCode::KeyR);
    assert_eq!(session(&app).confirm, Some(Order::Retreat));
    assert_eq!(session(&app).confirm_key(), Some("ui.confirm.retreat"));
    press(&mut app, KeyCode::Enter);
    assert!(session(&app).ctx().sides.retreating[Side::Red.index()]);
    assert!(!session(&app).can_undo(), "T-END-2: the retreat is final");
    press(&mut app, KeyCode::KeyZ);
    assert!(session(&app).ctx().sides.retreating[Side::Red.index()], "Z does not take it back");
    // An order after it can still be taken back (no die, nothing revealed).
    click(&mut app, Cell::new(2, 2));
    press(&mut app, KeyCode::KeyQ);
    assert!(session(&app).can_undo());
}

#[test]
fn space_on_a_turn_with_nothing_done_asks_first() {
    let (_turn, mut app) = app("idle");
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    press(&mut app, KeyCode::Space);
    assert_eq!(session(&app).confirm, Some(Order::EndTurn));
    assert_eq!(session(&app).confirm_key(), Some("ui.confirm.idle_turn"));
    assert_eq!(session(&app).game.clock().active, Side::Red, "not ended yet");
    press(&mut app, KeyCode::Escape);
    assert_eq!(session(&app).confirm, None);
    assert_eq!(session(&app).game.clock().active, Side::Red);
    press(&mut app, KeyCode::Space);
    press(&mut app, KeyCode::Enter);
    assert_eq!(session(&app).game.clock().active, Side::Blue, "ended after the yes");
    // Blue's turn with nothing done: Space, and Space again, ends it.
    press(&mut app, KeyCode::Enter); // ready (hand-over)
    press(&mut app, KeyCode::Space);
    assert_eq!(session(&app).game.clock().active, Side::Blue, "asked");
    press(&mut app, KeyCode::Space);
    assert_eq!(session(&app).game.clock().active, Side::Red, "Space again is the yes");
    press(&mut app, KeyCode::Enter);
    click(&mut app, Cell::new(2, 2));
    press(&mut app, KeyCode::KeyQ);
    press(&mut app, KeyCode::Space);
    assert_eq!(session(&app).game.clock().active, Side::Blue);
    // Blue's turn: an order given, then Space ends the turn at once.
    press(&mut app, KeyCode::Enter); // ready (hand-over)
    assert_eq!(*app.world().resource::<State<PlayView>>().get(), PlayView::Playing);
    click(&mut app, Cell::new(8, 8));
    press(&mut app, KeyCode::KeyQ);
    press(&mut app, KeyCode::Space);
    assert_eq!(session(&app).confirm, None);
    assert_eq!(session(&app).game.clock().active, Side::Red);
}

#[test]
fn the_menu_asks_before_leaving_a_battle_and_saves_it() {
    let (_turn, mut app) = app("leave");
    start(&mut app, field(), [Seat::Human, Seat::Human]);
    click(&mut app, Cell::new(2, 2));
    press(&mut app, KeyCode::KeyQ);
    let orders = session(&app).game.orders().to_vec();
    let name = session(&app).name.clone();
    app.world_mut().write_message(Leave::Ask);
    app.update();
    assert!(app.world().resource::<LeaveAsked>().0, "asked");
    assert_eq!(screen(&app), Screen::Playing);
    press(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<LeaveAsked>().0, "Esc: stay");
    assert_eq!(screen(&app), Screen::Playing);
    app.world_mut().write_message(Leave::Ask);
    app.update();
    press(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Title);
    let key = kriegsspiel::saves::autosave_key(&name, 1);
    let saved: kriegsspiel::saves::SavedGame<rules::tactical::SaveGame> =
        kriegsspiel::saves::load_slot(&key).expect("saved on leaving");
    assert_eq!(saved.save.orders, orders, "the turn's orders are kept");
}

#[test]
fn each_battle_keeps_its_own_autosaves() {
    let (_turn, mut app) = app("autosaves");
    let mut names = Vec::new();
    for _ in 0..2 {
        start(&mut app, shipped("worked_example_a"), [Seat::Human, Seat::Human]);
        click(&mut app, Cell::new(5, 3));
        press(&mut app, KeyCode::KeyQ);
        press(&mut app, KeyCode::Space);
        names.push(session(&app).name.clone());
    }
    assert_ne!(names[0], names[1], "two battles of one scenario begun within a second have two names");
    let store = kriegsspiel::storage::store().expect("the test's folder");
    for name in &names {
        let keys = store.keys(&format!("auto-{name}-t"));
        assert_eq!(keys.len(), 1, "{name}: {keys:?}");
        let loaded = kriegsspiel::saves::load_slot::<rules::tactical::SaveGame>(&keys[0]);
        assert!(loaded.is_ok_and(|g| g.game == *name && g.save.orders.len() == 2), "{name}");
    }
}

fn keys_of(app: &App, action: &str) -> Vec<KeyCode> {
    app.world().resource::<Settings>().bindings.iter().find(|b| b.action == action).map_or(vec![], |b| b.keys.clone())
}

fn rebind(app: &mut App, action: &'static str, replaces: Option<usize>, key: KeyCode) -> Option<String> {
    let slot = KeySlot { action: ActionName(action), replaces };
    app.world_mut().resource_mut::<Rebinding>().waiting = Some(slot);
    app.update();
    press(app, key);
    app.world().resource::<Rebinding>().notice.clone()
}

#[test]
fn a_rebound_key_keeps_the_other_key_and_takes_a_taken_key_with_a_clear_message() {
    let (_turn, mut app) = app("keys");
    assert_eq!(keys_of(&app, "Undo"), vec![KeyCode::KeyZ, KeyCode::Backspace]);
    // Z → U: Backspace stays.
    assert_eq!(rebind(&mut app, "Undo", Some(0), KeyCode::KeyU), None);
    assert_eq!(keys_of(&app, "Undo"), vec![KeyCode::KeyU, KeyCode::Backspace]);
    // Tab (next unit) → F, the only key of "fit the field": F moves, fit the field takes Tab.
    let notice = rebind(&mut app, "NextUnit", Some(0), KeyCode::KeyF).expect("said");
    assert_eq!(keys_of(&app, "NextUnit"), vec![KeyCode::KeyF]);
    assert_eq!(keys_of(&app, "FitField"), vec![KeyCode::Tab]);
    assert!(notice.contains('F') && notice.contains("Tab"), "{notice}");
    // A key added to undo that is turn-left's only key, with nothing to give back: refused.
    let notice = rebind(&mut app, "Undo", None, KeyCode::KeyQ).expect("said");
    assert!(notice.contains("only key"), "{notice}");
    assert_eq!(keys_of(&app, "TurnLeft"), vec![KeyCode::KeyQ]);
    assert_eq!(keys_of(&app, "Undo"), vec![KeyCode::KeyU, KeyCode::Backspace]);
    // A key that serves one of two keys of another action: taken, the other keeps its second.
    let notice = rebind(&mut app, "Undo", None, KeyCode::KeyW).expect("said");
    assert_eq!(keys_of(&app, "Undo"), vec![KeyCode::KeyU, KeyCode::Backspace, KeyCode::KeyW]);
    assert_eq!(keys_of(&app, "PanUp"), vec![KeyCode::ArrowUp]);
    assert!(notice.contains('W'), "{notice}");
    // Shell and scene actions share the screen: every action is known with its set.
    let known = app.world().resource::<KnownActions>().clone();
    assert!(known.clash("Undo", "TurnLeft") && known.clash("NextUnit", "Skirmish") && !known.clash("Undo", "Undo"));
}

#[test]
fn t_turn_2_and_t_setup_1_the_clocks_are_on_by_default_and_never_time_out_the_ai() {
    use kriegsspiel::session::TurnTimer;
    use rules::tactical::Phase;
    assert!(Settings::default().turn_timer, "T-TURN-2, T-SETUP-1: the clocks are rules, on by default");
    let (_turn, mut app) = app("clocks");
    assert!(app.world().resource::<Settings>().turn_timer);
    // Hot seat, set-up: one clock of 120 s for both sides together, not 120 s each.
    start(&mut app, shipped("open_field"), [Seat::Human, Seat::Human]);
    let timer = |app: &App| *app.world().resource::<TurnTimer>();
    let first = timer(&app).remaining.expect("the set-up clock runs");
    assert!(first <= 120.0 && first > 100.0, "T-SETUP-1: {first}");
    let mut ends = 0;
    while session(&app).game.clock().phase != Phase::Battle && ends < 8 {
        let side = session(&app).game.clock().active;
        app.world_mut().resource_mut::<Session>().game.apply(Order::EndSetup).expect("ends the step");
        app.update();
        ends += 1;
        let left = timer(&app).remaining.expect("still running");
        assert!(
            left <= first,
            "T-SETUP-1: {side:?} ended its step; the clock runs on ({left} ≤ {first}), it does not start again"
        );
    }
    assert_eq!(session(&app).game.clock().phase, Phase::Battle);
    app.update();
    let left = timer(&app).remaining.expect("the turn clock runs");
    assert!(left <= 20.0 && left > 15.0, "T-TURN-2: 20 s in a battle of more than 5 units a side: {left}");
    // A setting switches them off.
    app.world_mut().resource_mut::<Settings>().turn_timer = false;
    app.update();
    assert_eq!(timer(&app).remaining, None, "switched off by the setting");
    // The AI's seats: no clock runs for them, in set-up or in battle.
    app.world_mut().resource_mut::<Settings>().turn_timer = true;
    start(&mut app, shipped("open_field"), [Seat::Ai(ai::Level::Recruit), Seat::Ai(ai::Level::Recruit)]);
    for _ in 0..20 {
        app.update();
        if session(&app).game.clock().phase == Phase::Battle {
            assert_eq!(timer(&app).remaining, None, "T-TURN-2: the AI's seat is never timed out");
        }
    }
}
