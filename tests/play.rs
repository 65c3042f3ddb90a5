//! The presentation, headless: selecting, moving and firing through input actions change the
//! engine exactly as the same orders do, and whole battles are played through actions to the
//! result screen (hot-seat and solo).

mod support;
use bevy::prelude::*;
use kriegsspiel::battle::{HoveredCell, Selection, StartBattle};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::Seat;
use leafwing_input_manager::prelude::Buttonlike;
use rules::tactical::components::{Phase, Status};
use rules::tactical::{Battle, Cell, Order, Scenario, Side, UnitId};
use rules::testing::{orders_file, shipped};
use support::app;

fn start(app: &mut App, scenario: Scenario, seed: u64, seats: [Seat; 2]) {
    app.world_mut().write_message(StartBattle { scenario, seed, seats: seats.to_vec() });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

fn press(app: &mut App, input: impl Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

/// Points at a cell and clicks it.
fn click(app: &mut App, cell: Cell) {
    app.world_mut().resource_mut::<HoveredCell>().0 = Some(cell);
    press(app, MouseButton::Left);
}

type Session = kriegsspiel::session::Session<Battle>;

fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

fn selected(app: &App) -> Option<UnitId> {
    app.world().resource::<Selection>().of(session(app))
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Says "ready" on the hand-over screen if it shows.
fn hand_over(app: &mut App) {
    if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
        press(app, KeyCode::Enter);
    }
}

#[test]
fn actions_give_the_same_battle_as_the_orders() {
    // T-EX variant B through the mouse and keys: select L, click P (fire), click (5,4) (move), Space (end turn).
    let mut app = app();
    start(&mut app, shipped("worked_example_b"), 5, [Seat::Human, Seat::Human]);
    click(&mut app, Cell::new(5, 3));
    assert_eq!(selected(&app), Some(UnitId(1)), "selected by clicking");
    click(&mut app, Cell::new(5, 5));
    click(&mut app, Cell::new(5, 4));
    press(&mut app, KeyCode::Space);
    let by_actions = session(&app).game.hash();
    let mut by_orders = Battle::new(&shipped("worked_example_b"), 5);
    for order in orders_file("scenarios/orders/worked_example_b.ron") {
        by_orders.apply(order).expect("legal");
    }
    assert_eq!(by_actions, by_orders.hash(), "the same state as umpire play");
    assert_eq!(session(&app).game.orders(), by_orders.orders());
}

#[test]
fn turning_undo_and_reactions_through_keys() {
    let mut app = app();
    start(&mut app, shipped("worked_example_a"), 1, [Seat::Human, Seat::Human]);
    click(&mut app, Cell::new(5, 3));
    press(&mut app, KeyCode::KeyQ); // turn left: south → east, 1 MP for infantry
    let ctx = session(&app).ctx();
    assert_eq!(ctx.unit(UnitId(1)).map(|u| (u.facing, u.activity.mp_spent)), Some((rules::tactical::Dir::East, 1)));
    press(&mut app, KeyCode::KeyZ); // undo: no die thrown, nothing revealed
    let ctx = session(&app).ctx();
    assert_eq!(ctx.unit(UnitId(1)).map(|u| (u.facing, u.activity.mp_spent)), Some((rules::tactical::Dir::South, 0)));
    press(&mut app, KeyCode::KeyI); // intercept on
    assert!(session(&app).ctx().unit(UnitId(1)).is_some_and(|u| u.reactions.intercept));
    click(&mut app, Cell::new(5, 5)); // fire at P: a die? no, a volley always hits — but P's health changes
    press(&mut app, KeyCode::KeyZ); // undo is still allowed: no die was thrown
    assert_eq!(session(&app).ctx().unit(UnitId(2)).map(|u| u.health.current), Some(7));
}

/// A person's turn: every unit fires at what it can reach, then the turn ends.
fn play_turn_by_actions(app: &mut App) {
    hand_over(app);
    let ctx = session(app).ctx();
    let side = ctx.clock.active;
    if ctx.clock.phase != Phase::Battle {
        press(app, KeyCode::Space);
        return;
    }
    let mine: Vec<UnitId> =
        ctx.units.iter().filter(|u| u.side == side && u.status == Status::Active).map(|u| u.id).collect();
    for id in mine {
        let ctx = session(app).ctx();
        let Some(u) = ctx.unit(id).cloned().filter(|u| u.status == Status::Active) else { continue };
        let Some(shot) = ctx.fire_targets(id).into_iter().next() else { continue };
        let Some(target) = ctx.unit(shot.target).map(|t| t.cell) else { continue };
        click(app, u.cell);
        click(app, target);
        if session(app).game.clock().phase == Phase::Over {
            return;
        }
    }
    press(app, KeyCode::Space);
    // A turn in which nothing could be done asks before it ends.
    if session(app).confirm.is_some() {
        press(app, KeyCode::Enter);
    }
}

#[test]
fn a_whole_hot_seat_battle_through_actions_reaches_the_result_screen() {
    let mut app = app();
    start(&mut app, shipped("borodino"), 3, [Seat::Human, Seat::Human]);
    let mut last_side = Side::Red;
    for _ in 0..200 {
        if screen(&app) == Screen::Result {
            break;
        }
        let side = session(&app).game.clock().active;
        if side != last_side {
            // The hand-over screen hides the board between the two players.
            assert_eq!(*app.world().resource::<State<PlayView>>().get(), PlayView::HandOver);
            last_side = side;
        }
        play_turn_by_actions(&mut app);
        app.update();
    }
    assert_eq!(screen(&app), Screen::Result, "the battle reached the result screen");
    let result = session(&app).game.result().expect("over");
    assert!(result.rounds >= 1);
}

#[test]
fn a_whole_solo_battle_against_the_ai_reaches_the_result_screen() {
    let mut app = app();
    start(&mut app, shipped("open_field"), 2, [Seat::Human, Seat::Ai(ai::Level::Recruit)]);
    for _ in 0..5000 {
        if screen(&app) == Screen::Result {
            break;
        }
        if session(&app).human_turn() {
            play_turn_by_actions(&mut app);
        }
        app.update(); // the AI thinks in slices, a frame at a time
    }
    assert_eq!(screen(&app), Screen::Result);
    let s = session(&app);
    assert!(s.game.orders().iter().any(|o| matches!(o, Order::Fire { .. })));
}

/// A menu opens over a running game and returns to it: the settings by key, the game waits
/// under it (its keys give no orders), Esc closes it and the game goes on where it was.
#[test]
fn the_settings_open_over_a_running_battle_and_return_to_it() {
    use kriegsspiel::screens::Menu;
    let mut app = app();
    start(&mut app, shipped("worked_example_a"), 1, [Seat::Human, Seat::Human]);
    click(&mut app, Cell::new(5, 3));
    let facing = |app: &App| session(app).ctx().unit(UnitId(1)).map(|u| u.facing);
    let before = facing(&app);
    press(&mut app, KeyCode::F10);
    app.update();
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::Settings);
    assert_eq!(screen(&app), Screen::Playing, "the battle stays under the menu");
    press(&mut app, KeyCode::KeyQ);
    assert_eq!(facing(&app), before, "Q under a menu does not turn the unit");
    press(&mut app, KeyCode::Escape);
    app.update();
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::None);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(selected(&app), Some(UnitId(1)), "the selection is kept");
    press(&mut app, KeyCode::KeyQ);
    assert_ne!(facing(&app), before, "back in the battle, Q turns the unit");
}

/// A scenario chosen in the catalogue is parsed on the loading screen and starts there; one that
/// cannot be read sends the player back to the set-up screen with the reason.
#[test]
fn a_chosen_scenario_is_parsed_on_the_loading_screen() {
    use kriegsspiel::catalog::{Catalog, Chosen, LoadProblem};
    use kriegsspiel::screens::Mode;
    let mut app = app();
    let catalog = app.world().resource::<Catalog>().clone();
    let entry = catalog.find("scenarios/borodino.ron").expect("listed").clone();
    assert_eq!(entry.header.players.len(), 2);
    let choose = |app: &mut App, path: &str| {
        app.world_mut().insert_resource(Chosen {
            mode: Mode::Battle,
            path: path.to_string(),
            seed: 4,
            seats: vec![Seat::Human, Seat::Ai(ai::Level::Recruit)],
            seat_names: Vec::new(),
        });
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Loading);
        for _ in 0..4 {
            app.update();
        }
    };
    choose(&mut app, &entry.path);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(session(&app).game.scenario().name, entry.header.name);
    assert_eq!(session(&app).seats, vec![Seat::Human, Seat::Ai(ai::Level::Recruit)]);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Title);
    app.update();
    choose(&mut app, "scenarios/nowhere.ron");
    assert_eq!(screen(&app), Screen::Setup);
    let problem = app.world().resource::<LoadProblem>().0.clone().expect("the reason is kept");
    assert!(problem.contains("nowhere.ron"), "{problem}");
}

/// `--ai` names players by their names (`red`, `blue`, `all`), as before the scenes were split.
#[test]
fn the_launch_names_ai_players_by_name() {
    use kriegsspiel::launch::AiSides;
    let scene = kriegsspiel::battle::SCENE;
    let level = ai::Level::Veteran;
    let seats = |text: &str| AiSides::seats(Some(&AiSides::parse(text).expect("parses")), &scene, level);
    assert_eq!(seats("red"), Ok(vec![Seat::Ai(level), Seat::Human]));
    assert_eq!(seats("blue"), Ok(vec![Seat::Human, Seat::Ai(level)]));
    assert_eq!(seats("all"), Ok(vec![Seat::Ai(level), Seat::Ai(level)]));
    assert_eq!(seats("Red,Blue"), Ok(vec![Seat::Ai(level), Seat::Ai(level)]));
    assert_eq!(AiSides::seats(None, &scene, level), Ok(vec![Seat::Human, Seat::Human]));
    let e = seats("green").expect_err("refused");
    assert!(e.contains("`green`") && e.contains("red, blue"), "{e}");
    // A battle's file named for another scene is refused by that scene's reader; `--mode auto`
    // finds the battle.
    let launch = kriegsspiel::launch::Launch {
        scenario: Some("scenarios/borodino.ron".into()),
        mode: kriegsspiel::launch::LaunchMode::Campaign,
        ..kriegsspiel::launch::Launch::interactive()
    };
    let e = launch.check(&kriegsspiel::scenes()).expect_err("not a campaign");
    assert!(e.contains("borodino.ron"), "{e}");
    let auto = kriegsspiel::launch::Launch { mode: kriegsspiel::launch::LaunchMode::Auto, ..launch.clone() };
    assert_eq!(auto.scene(&kriegsspiel::scenes()).map(|s| s.mode), Ok(kriegsspiel::screens::Mode::Battle));
    let battle = kriegsspiel::launch::Launch { mode: kriegsspiel::launch::LaunchMode::Battle, ..launch };
    assert_eq!(battle.check(&kriegsspiel::scenes()), Ok(()));
}

/// A save opened from the menus goes to the scene of its mode: continued in play, or watched in
/// the replay viewer (format 1 and format 2 envelopes alike).
#[test]
fn a_save_opened_from_the_menus_is_continued_or_replayed_by_its_scene() {
    use kriegsspiel::replay::ReplayView;
    use kriegsspiel::saves::{OpenSave, SaveKinds, open_text};
    for (name, replay) in [("app_format1.ron", false), ("app_format2.ron", false), ("app_format2.ron", true)] {
        let mut app = app();
        let text = std::fs::read_to_string(format!("tests/fixtures/saves/{name}")).expect("fixture");
        let kinds = app.world().resource::<SaveKinds>().clone();
        let open: OpenSave = open_text(&kinds, name, text, replay).expect("opens");
        app.world_mut().write_message(open);
        // Until the save is open (then, in play, the AI of blue moves on).
        for _ in 0..4 {
            app.update();
            if app.world().contains_resource::<Session>() || app.world().contains_resource::<ReplayView<Battle>>() {
                break;
            }
        }
        app.update();
        if replay {
            assert_eq!(screen(&app), Screen::Replay, "{name}");
            let view = app.world().resource::<ReplayView<Battle>>();
            assert_eq!((view.at, view.stops.len()), (0, 2), "{name}: the start and the end of turn 1");
        } else {
            assert_eq!(screen(&app), Screen::Playing, "{name}");
            assert_eq!(
                session(&app).game.orders()[..3],
                *rules::testing::orders_file("scenarios/orders/worked_example_b.ron"),
                "{name}"
            );
            assert_eq!(session(&app).seats, vec![Seat::Human, Seat::Ai(ai::Level::Veteran)], "{name}");
        }
    }
}

/// The title's "Replays" opens the saves menu for watching; once it closes, a game's own
/// "Save / load" button (which only opens the menu) opens it for saving and loading again, never
/// for watching a replay over the game in play.
#[test]
fn the_saves_menu_forgets_the_titles_replays_when_it_closes() {
    use kriegsspiel::screens::{Menu, SavesMenu};
    let mut app = app();
    app.world_mut().resource_mut::<SavesMenu>().replay = true;
    app.world_mut().resource_mut::<NextState<Menu>>().set(Menu::Saves);
    app.update();
    assert!(app.world().resource::<SavesMenu>().replay, "open for watching");
    app.world_mut().resource_mut::<NextState<Menu>>().set(Menu::None);
    app.update();
    assert!(!app.world().resource::<SavesMenu>().replay, "closed: for saving and loading");
}

/// Issue 27, T-END-2: a retreating army leaves the field by clicks. The selected unit on the map
/// edge leaves by a click on its own cell; one a step from the edge leaves by a click on the edge
/// cell (the step and the exit within its retreat MP); when the last has gone the battle is over.
#[test]
fn t_end_2_a_retreating_unit_leaves_the_field_by_a_click() {
    let mut scenario = shipped("worked_example_a");
    let line = scenario.units.iter_mut().find(|u| u.id == UnitId(1)).expect("L");
    line.at = Some(Cell::new(5, 1));
    let mut second = line.clone();
    second.id = UnitId(4);
    second.at = Some(Cell::new(8, 0));
    second.name = Some("2nd line".into());
    scenario.units.push(second);
    let mut app = app();
    start(&mut app, scenario, 1, [Seat::Human, Seat::Human]);
    assert_eq!(session(&app).game.clock().phase, Phase::Battle);
    // Before the retreat, a click on the edge is a plain move.
    click(&mut app, Cell::new(8, 0));
    assert_eq!(selected(&app), Some(UnitId(4)));
    click(&mut app, Cell::new(8, 0));
    assert!(session(&app).ctx().unit(UnitId(4)).is_some_and(|u| u.status.on_field()), "no retreat ordered yet");
    press(&mut app, KeyCode::KeyR);
    press(&mut app, KeyCode::Enter);
    assert!(session(&app).ctx().sides.retreating[Side::Red.index()], "the retreat is ordered");
    // On the edge: a click on its own cell.
    click(&mut app, Cell::new(8, 0));
    assert_eq!(session(&app).game.orders().last(), Some(&Order::Move { unit: UnitId(4), path: vec![], exit: true }));
    assert!(session(&app).ctx().unit(UnitId(4)).is_some_and(|u| !u.status.on_field()), "it has left the field");
    // A step from the edge: select, then a click on the edge cell.
    click(&mut app, Cell::new(5, 1));
    assert_eq!(selected(&app), Some(UnitId(1)));
    click(&mut app, Cell::new(5, 0));
    assert_eq!(
        session(&app).game.orders().last(),
        Some(&Order::Move { unit: UnitId(1), path: vec![Cell::new(5, 0)], exit: true })
    );
    app.update();
    assert_eq!(session(&app).game.clock().phase, Phase::Over, "the whole army has left");
}
