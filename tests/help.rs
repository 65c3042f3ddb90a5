//! Help for a newcomer, headless (issue 13): the legend opens on the first game and by key, unit
//! cards carry every value in both languages, a move into contact and a refused fire are
//! explained, generals and HQs are marked, the tutorial is completed by a scripted input
//! sequence, and the replay viewer steps order by order by keys.

mod support;
use bevy::prelude::*;
use kriegsspiel::battle::card::{CommandMark, command_marks, unit_card, why_not_fire};
use kriegsspiel::battle::tutorial::{Step, Tutorial};
use kriegsspiel::battle::{HoveredCell, StartBattle};
use kriegsspiel::help::{LegendWindow, StartTutorial};
use kriegsspiel::i18n::{Lang, Tr};
use kriegsspiel::replay::{OpenReplay, ReplayView};
use kriegsspiel::rules_ref::RulesCommand;
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::Seat;
use kriegsspiel::settings::Settings;
use leafwing_input_manager::prelude::Buttonlike;
use rules::Game;
use rules::tactical::{Battle, Cell, Order, Side, UnitId};
use rules::testing::{orders_file, shipped};
use support::app;

type Session = kriegsspiel::session::Session<Battle>;

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

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn start(app: &mut App, name: &str) {
    app.world_mut().write_message(StartBattle { scenario: shipped(name), seed: 3, seats: vec![Seat::Human; 2] });
    app.update();
    app.update();
    assert_eq!(screen(app), Screen::Playing);
}

#[test]
fn the_legend_opens_by_itself_on_the_first_game_only_and_by_f2() {
    let mut app = app();
    app.world_mut().resource_mut::<Settings>().legend_seen = false;
    assert!(!app.world().resource::<LegendWindow>().open);
    start(&mut app, "worked_example_a");
    assert!(app.world().resource::<LegendWindow>().open, "shown on the first game");
    assert!(app.world().resource::<Settings>().legend_seen, "remembered in the settings");
    press(&mut app, KeyCode::F2);
    assert!(!app.world().resource::<LegendWindow>().open, "F2 closes it");
    press(&mut app, KeyCode::F2);
    assert!(app.world().resource::<LegendWindow>().open, "F2 opens it");
    press(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<LegendWindow>().open, "Esc closes it");
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Title);
    app.update();
    start(&mut app, "worked_example_b");
    assert!(!app.world().resource::<LegendWindow>().open, "not shown again on the next game");
}

#[test]
fn the_settings_keep_that_the_legend_was_seen_and_old_files_read_as_not_seen() {
    let seen = Settings { legend_seen: true, ..Settings::default() };
    let text = rules::data::to_ron(&seen);
    assert!(text.contains("legend_seen: true"), "{text}");
    let back: Settings = rules::data::parse_ron("settings.ron", &text).expect("parses");
    assert!(back.legend_seen);
    // A settings file written before the legend existed has no such field.
    let old = rules::data::to_ron(&Settings::default());
    assert!(!old.contains("legend_seen"), "the default is not written: {old}");
    let back: Settings = rules::data::parse_ron("settings.ron", &old).expect("parses");
    assert!(!back.legend_seen);
}

#[test]
fn a_unit_card_gives_every_value_with_its_general_and_morale_in_both_languages() {
    let battle = Battle::new(&shipped("open_field"), 1);
    let ctx = battle.ctx();
    let en = Tr::new(Lang::English);
    // Unit 1 of the Linden valley: British line infantry, the 1st Division's general and the HQ.
    let card = unit_card(&en, &ctx, UnitId(1)).expect("a card");
    let u = ctx.unit(UnitId(1)).expect("unit 1");
    assert_eq!(
        card.value("Strength"),
        Some(format!("Health {} of {} (T-UNIT-4)", u.health.current, u.health.max).as_str())
    );
    for label in
        ["Movement", "Melee", "Fire", "Ammunition", "Facing", "Morale", "Formation", "General", "Order", "Reactions"]
    {
        assert!(card.value(label).is_some_and(|v| !v.is_empty()), "{label} in {:#?}", card.lines());
    }
    assert_eq!(card.value("Formation"), Some("1st Division (division)"));
    assert_eq!(card.value("General"), Some("with this unit (T-CMD-1)"));
    let morale = card.value("Morale").expect("morale");
    // T-MORALE-2: line infantry (Health 10) tests at 2; T-MORALE-1: 4+ on a d6 with no modifier is 3 in 6.
    assert!(morale.starts_with("steady: tested once Health falls to 2"), "{morale}");
    assert!(morale.contains("passes on 3 in 6 (T-MORALE-1)"), "{morale}");
    assert!(card.notes.iter().any(|n| n.contains("(T-CMD-5)")), "the HQ is said: {:?}", card.notes);
    // Unit 2 is in the same division: its general is with unit 1.
    let other = unit_card(&en, &ctx, UnitId(2)).expect("a card");
    assert!(other.value("General").is_some_and(|g| g.starts_with("with ") && g.ends_with("(T-CMD-1)")));
    // The same card in Russian: every label and value in Russian words.
    let ru = unit_card(&Tr::new(Lang::Russian), &ctx, UnitId(1)).expect("a card");
    assert_eq!(ru.rows.len(), card.rows.len());
    assert!(ru.value("Сила").is_some_and(|v| v.starts_with("Здоровье")), "{:#?}", ru.lines());
    assert!(ru.value("Боевой дух").is_some_and(|v| v.starts_with("твёрд")), "{:#?}", ru.lines());
    for (label, value) in &ru.rows {
        for text in [label, value] {
            assert!(!text.contains("card."), "an untranslated key: {text}");
        }
    }
    // A unit at Health 2 is shaken (T-MORALE-2).
    let mut scenario = shipped("worked_example_a");
    scenario.units[0].health = Some(2);
    let weak = Battle::new(&scenario, 1);
    let card = unit_card(&en, &weak.ctx(), UnitId(1)).expect("a card");
    assert!(card.value("Morale").is_some_and(|m| m.starts_with("shaken")), "{:?}", card.value("Morale"));
}

#[test]
fn generals_and_headquarters_are_marked_on_the_board() {
    let battle = Battle::new(&shipped("open_field"), 1);
    let marks = command_marks(&battle.ctx());
    // The Linden valley: red HQ 1 (the 1st Division's general too), blue HQ 21.
    assert!(marks.contains(&(UnitId(1), CommandMark::General)));
    assert!(marks.contains(&(UnitId(1), CommandMark::Hq)));
    assert!(marks.contains(&(UnitId(21), CommandMark::Hq)));
    assert!(marks.contains(&(UnitId(7), CommandMark::General)), "the cavalry brigade's general");
}

#[test]
fn cavalry_clicking_to_fire_is_told_why_not_and_to_charge() {
    let mut battle = Battle::new(&shipped("tutorial"), 1);
    let ctx = battle.ctx();
    let en = Tr::new(Lang::English);
    // The tutorial's cuirassiers (heavy cavalry, no ranged value) at the 33e de Ligne.
    let lines = why_not_fire(&en, &ctx, UnitId(2), UnitId(4)).expect("refused");
    assert!(lines[0].starts_with("Cannot fire:") && lines[0].contains("(T-FIRE-4)"), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("move it next to the enemy")), "{lines:?}");
    let ru = why_not_fire(&Tr::new(Lang::Russian), &ctx, UnitId(2), UnitId(4)).expect("refused");
    assert_eq!(ru[0], "Стрелять нельзя: (T-FIRE-4)", "no English words in Russian");
    assert!(ru.iter().any(|l| l.contains("вплотную")), "{ru:?}");
    // A legal fire has nothing to explain: the Guards after their step forward.
    battle.apply(Order::Move { unit: UnitId(1), path: vec![Cell::new(5, 4)], exit: false }).expect("legal");
    assert_eq!(why_not_fire(&en, &battle.ctx(), UnitId(1), UnitId(3)), None);
}

#[test]
fn a_move_that_ends_next_to_an_enemy_explains_the_melee() {
    use kriegsspiel::battle::melee::{contact_at, explain};
    let battle = Battle::new(&shipped("tutorial"), 1);
    let ctx = battle.ctx();
    let en = Tr::new(Lang::English);
    assert_eq!(contact_at(&ctx, UnitId(2), Cell::new(9, 6)), vec![UnitId(4)], "next to the 33e");
    assert!(contact_at(&ctx, UnitId(2), Cell::new(9, 5)).is_empty(), "one cell short");
    let path = vec![Cell::new(9, 4), Cell::new(9, 5), Cell::new(9, 6)];
    let order = Order::Move { unit: UnitId(2), path, exit: false };
    let preview = battle.preview(&order).expect("legal").lines_with(&en.texts, &|id| ctx.name(id));
    let lines = explain(&en, &ctx, &order, Ok(preview.clone()));
    assert!(lines[0].contains("melee at the end of the turn (T-MELEE-1, T-MELEE-3)"), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("+1 in the first exchange (T-MELEE-5)")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("(T-FIRE-9)")), "the counter-volley is warned of: {lines:?}");
    assert!(lines.ends_with(&preview), "the engine's preview follows");
    // A move that ends in the open says nothing more than the preview.
    let short = Order::Move { unit: UnitId(2), path: vec![Cell::new(9, 4)], exit: false };
    let plain = battle.preview(&short).expect("legal").lines_with(&en.texts, &|id| ctx.name(id));
    assert_eq!(explain(&en, &ctx, &short, Ok(plain.clone())), plain);
}

#[test]
fn the_tutorial_is_completed_by_a_scripted_input_sequence() {
    let mut app = app();
    app.world_mut().write_message(StartTutorial);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Playing);
    let step = |app: &App| app.world().resource::<Tutorial>().step;
    assert_eq!(step(&app), Step::Move);
    // Move: select the Guards, step south.
    click(&mut app, Cell::new(5, 3));
    click(&mut app, Cell::new(5, 4));
    assert_eq!(step(&app), Step::Fire);
    // Fire: click the 21e de Ligne, 2 cells ahead.
    click(&mut app, Cell::new(5, 6));
    assert_eq!(step(&app), Step::Morale);
    let events = app.world().resource::<Session>().game.events().to_vec();
    assert!(
        events.iter().any(|e| matches!(e, rules::tactical::Event::MoraleTest { unit: UnitId(3), .. })),
        "the volley brought the 21e to its morale threshold"
    );
    // Morale: the rule ID in the log or the panel is a link; its click opens the rule.
    app.world_mut().write_message(RulesCommand::Open("T-MORALE-1".into()));
    app.update();
    assert_eq!(step(&app), Step::Melee);
    // Melee: the cuirassiers cannot fire (the click is refused), then charge next to the 33e.
    click(&mut app, Cell::new(9, 3));
    click(&mut app, Cell::new(9, 7));
    assert!(app.world().resource::<Session>().refusal.as_ref().is_some_and(|r| r.english().contains("T-FIRE-4")));
    assert_eq!(step(&app), Step::Melee);
    click(&mut app, Cell::new(9, 6));
    assert_eq!(step(&app), Step::HandOver);
    // Hand-over: end the turn, the screen is handed to Blue, who says "ready".
    press(&mut app, KeyCode::Space);
    app.update();
    assert_eq!(*app.world().resource::<State<PlayView>>().get(), PlayView::HandOver);
    assert_eq!(step(&app), Step::HandOver);
    press(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(step(&app), Step::Done);
    assert_eq!(app.world().resource::<Session>().game.clock().active, Side::Blue);
    // Leaving the game ends the tutorial.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Title);
    app.update();
    assert!(!app.world().contains_resource::<Tutorial>());
}

#[test]
fn the_replay_viewer_steps_order_by_order_and_turn_by_turn_by_keys() {
    let mut battle = Battle::new(&shipped("worked_example_b"), 5);
    let orders = orders_file("scenarios/orders/worked_example_b.ron");
    for order in orders.clone() {
        battle.apply(order).expect("legal");
    }
    let save = battle.save();
    let mut app = app();
    app.world_mut().write_message(OpenReplay::<Battle>(save));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Replay);
    let shown = |app: &App| {
        let v = app.world().resource::<ReplayView<Battle>>();
        (v.orders, v.at, v.game.orders().len(), v.last_order().cloned())
    };
    assert_eq!(shown(&app), (0, 0, 0, None));
    press(&mut app, KeyCode::Period);
    assert_eq!(shown(&app), (1, 0, 1, Some(orders[0].clone())), "one order on");
    press(&mut app, KeyCode::Period);
    assert_eq!(shown(&app).0, 2);
    press(&mut app, KeyCode::Comma);
    assert_eq!(shown(&app), (1, 0, 1, Some(orders[0].clone())), "and back");
    press(&mut app, KeyCode::PageDown);
    let stops = app.world().resource::<ReplayView<Battle>>().stops.clone();
    assert_eq!(shown(&app).0, stops[1], "to the end of the turn");
    press(&mut app, KeyCode::PageUp);
    assert_eq!(shown(&app).0, 0, "back to the start");
    // The state shown is the game after that many orders, checked against the recorded hashes.
    press(&mut app, KeyCode::Period);
    press(&mut app, KeyCode::Period);
    let mut by_orders = Battle::new(&shipped("worked_example_b"), 5);
    for order in &orders[..2] {
        by_orders.apply(order.clone()).expect("legal");
    }
    let view = app.world().resource::<ReplayView<Battle>>();
    assert_eq!(view.game.hash(), by_orders.hash());
    // The events of the second order are told apart from those before it.
    let mut one = Battle::new(&shipped("worked_example_b"), 5);
    one.apply(orders[0].clone()).expect("legal");
    assert_eq!(view.last_events, one.events().len());
    assert!(view.last_events < view.game.events().len());
}

#[test]
fn every_tutorial_step_and_every_ability_has_its_words_in_both_languages() {
    for lang in Lang::ALL {
        let tr = Tr::new(lang);
        for step in Step::ALL {
            for part in ["title", "text"] {
                let key = format!("ui.tutorial.{}.{part}", step.key());
                assert_ne!(tr.t(&key), key, "{lang:?}");
            }
        }
        for ty in rules::tactical::units::UnitTable::builtin().types {
            for ability in ty.abilities {
                let key = format!("card.ability.{ability:?}");
                assert_ne!(tr.t(&key), key, "{lang:?}: {}", ty.id);
            }
        }
    }
}

/// The legend and the cards know no scene: each scene registers its own legend, and a card is
/// plain data any scene can fill (the Great War's and the campaign's too).
#[test]
fn each_scene_registers_its_own_legend_and_fills_its_own_cards() {
    use kriegsspiel::hud::card::Card;
    use kriegsspiel::hud::legend::{LegendBook, LegendItem, LegendSection, Swatch};
    use kriegsspiel::screens::Mode;
    let section = |title| LegendSection {
        title,
        items: vec![LegendItem { swatch: Swatch::Tint([0, 0, 0, 0]), text: "legend.reachable".into() }],
    };
    let mut book = LegendBook::default();
    book.register(Mode::Battle, vec![section("legend.overlays")]);
    book.register(Mode::GreatWar, vec![section("legend.marks"), section("legend.terrain")]);
    assert_eq!(book.of(Mode::Battle).len(), 1);
    assert_eq!(book.of(Mode::GreatWar).len(), 2);
    assert!(book.of(Mode::Campaign).is_empty(), "a scene without a legend shows none");
    book.register(Mode::Battle, vec![section("legend.overlays"), section("legend.symbols")]);
    assert_eq!(book.of(Mode::Battle).len(), 2, "registered again, it replaces the old one");
    assert_eq!(book.of(Mode::GreatWar).len(), 2);
    let card = Card {
        title: "1st Army".into(),
        subtitle: "Army · Germany".into(),
        colour: [90, 90, 90],
        rows: vec![("Strength".into(), "12 (S-LAND-1)".into())],
        notes: vec!["In supply.".into()],
    };
    assert_eq!(card.value("Strength"), Some("12 (S-LAND-1)"));
    assert_eq!(card.lines(), ["1st Army", "Army · Germany", "Strength: 12 (S-LAND-1)", "In supply."]);
}
