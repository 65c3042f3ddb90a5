//! The rules reference in the game, headless: the key opens and closes the window, a rule ID
//! cited in the event log opens its entry, "see also" and "back" walk between entries, and the
//! language follows the settings.

mod support;
use bevy::prelude::*;
use kriegsspiel::battle::{BattleNames, HoveredCell, Selection, StartBattle};
use kriegsspiel::i18n::Lang;
use kriegsspiel::input::{ActionSet, ShellAction, add_missing_bindings, default_bindings};
use kriegsspiel::rules_ref::{RulesBook, RulesCommand, RulesWindow};
use kriegsspiel::session::Seat;
use support::app;

type Session = kriegsspiel::session::Session<rules::tactical::Battle>;
use kriegsspiel::settings::Settings;
use leafwing_input_manager::prelude::Buttonlike;
use rules::testing::shipped;

fn press(app: &mut App, input: impl Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

fn window(app: &App) -> &RulesWindow {
    app.world().resource::<RulesWindow>()
}

fn send(app: &mut App, command: RulesCommand) {
    app.world_mut().write_message(command);
    app.update();
}

#[test]
fn f1_opens_and_closes_the_rules_window_and_esc_closes_it() {
    let mut app = app();
    assert!(!window(&app).open);
    press(&mut app, KeyCode::F1);
    assert!(window(&app).open, "F1 opens the reference");
    press(&mut app, KeyCode::F1);
    assert!(!window(&app).open, "F1 again closes it");
    press(&mut app, KeyCode::F1);
    press(&mut app, KeyCode::Escape);
    assert!(!window(&app).open, "Esc closes it");
}

#[test]
fn a_rule_id_cited_in_the_battle_log_opens_its_entry() {
    let mut app = app();
    app.world_mut().write_message(StartBattle {
        scenario: shipped("worked_example_b"),
        seed: 5,
        seats: vec![Seat::Human, Seat::Human],
    });
    app.update();
    app.update();
    // The log as the panel shows it: the first line that cites a rule ID with an entry.
    let tr = kriegsspiel::i18n::Tr::new(Lang::English);
    let book = app.world().resource::<RulesBook>().clone();
    let session = app.world().resource::<Session>();
    let ctx = session.ctx();
    let lines: Vec<String> =
        session.game.events().iter().map(|e| e.describe_with(&tr.texts, &|id| tr.unit(&ctx, id))).collect();
    // A battle's first events may cite nothing; the term tables always do (T-CMD-4 is cited in
    // the morale terms of every preview).
    let cited = lines
        .iter()
        .flat_map(|l| book.links_in(l, Lang::English))
        .next()
        .or_else(|| book.links_in(&tr.t("term.general_lost"), Lang::English).into_iter().next())
        .expect("a cited rule ID with an entry");
    send(&mut app, RulesCommand::Open(cited.clone()));
    assert!(window(&app).open);
    assert_eq!(window(&app).entry.as_deref(), Some(cited.as_str()));
    let entry = book.entry(&cited, Lang::English).expect("entry");
    assert_eq!(entry.id, cited);
}

#[test]
fn see_also_and_back_walk_between_entries_in_the_players_language() {
    let mut app = app();
    let book = app.world().resource::<RulesBook>().clone();
    let (first, see) = {
        let reference = book.0.as_ref().expect("the shipped reference resolves");
        let e = reference
            .entries(rules::reference::Lang::En)
            .find(|e| !e.see.is_empty())
            .expect("an entry with a see-also");
        (e.id.clone(), e.see[0].clone())
    };
    send(&mut app, RulesCommand::Open(first.clone()));
    send(&mut app, RulesCommand::Open(see.clone()));
    assert_eq!(window(&app).entry.as_deref(), Some(see.as_str()));
    send(&mut app, RulesCommand::Back);
    assert_eq!(window(&app).entry.as_deref(), Some(first.as_str()), "back returns to the entry before");
    // Russian: the same ID shows the Russian entry.
    app.world_mut().resource_mut::<Settings>().lang = Lang::Russian;
    app.update();
    let ru = book.entry(&first, Lang::Russian).expect("a Russian entry for every English one");
    let en = book.entry(&first, Lang::English).expect("English entry");
    assert_eq!(ru.id, en.id);
    assert_ne!(ru.title, en.title, "the Russian entry is in Russian");
}

#[test]
fn the_rules_key_is_in_the_key_settings_and_added_to_old_settings() {
    assert!(ShellAction::KEYED.contains(&ShellAction::OpenRules), "listed in the key settings");
    let rules = ShellAction::OpenRules.name();
    let f1 = default_bindings().into_iter().find(|b| b.action == rules).map(|b| b.keys);
    assert_eq!(f1, Some(vec![KeyCode::F1]));
    let mut old: Vec<_> = default_bindings().into_iter().filter(|b| b.action != rules).collect();
    add_missing_bindings(&mut old, &default_bindings());
    assert!(old.iter().any(|b| b.action == rules && b.keys == [KeyCode::F1]));
}

#[test]
fn keys_typed_into_the_search_box_give_no_orders() {
    let mut app = app();
    app.world_mut().write_message(StartBattle {
        scenario: shipped("worked_example_a"),
        seed: 1,
        seats: vec![Seat::Human, Seat::Human],
    });
    app.update();
    app.update();
    app.world_mut().resource_mut::<HoveredCell>().0 = Some(rules::tactical::Cell::new(5, 3));
    press(&mut app, MouseButton::Left);
    let selected = app.world().resource::<Selection>().of(app.world().resource::<Session>());
    assert_eq!(selected, Some(rules::tactical::UnitId(1)));
    let facing = |app: &App| app.world().resource::<Session>().ctx().unit(rules::tactical::UnitId(1)).map(|u| u.facing);
    let before = facing(&app);
    app.world_mut().resource_mut::<kriegsspiel::input::TypingText>().0 = true;
    press(&mut app, KeyCode::KeyQ);
    assert_eq!(facing(&app), before, "Q typed into a text field does not turn the unit");
    app.world_mut().resource_mut::<kriegsspiel::input::TypingText>().0 = false;
    press(&mut app, KeyCode::KeyQ);
    assert_ne!(facing(&app), before, "Q turns the unit when no text field has the keyboard");
}

/// Issue 27: F1 in the Great War opens the Great War's rules (not the Napoleonic tab), in a battle
/// the Napoleonic ones; a search lists the tab's own rules first.
#[test]
fn f1_opens_the_rules_of_the_war_being_played_and_a_search_lists_them_first() {
    use rules::reference::Mode as Book;
    let mut app = app();
    let scenario = kriegsspiel::great_war::files::load_scenario("scenarios/great_war/test_front.ron").expect("loads");
    app.world_mut().write_message(kriegsspiel::great_war::StartGreatWar {
        scenario,
        seed: 1,
        seats: vec![Seat::Human; 3],
    });
    app.update();
    app.update();
    press(&mut app, KeyCode::F1);
    assert!(window(&app).open);
    assert_eq!(window(&app).mode, Book::Strategic);
    let book = app.world().resource::<RulesBook>().0.clone().expect("the reference");
    let found =
        kriegsspiel::hud::rules::search_tab_first(&book, "victory", rules::reference::Lang::En, Book::Strategic);
    assert!(found.first().is_some_and(|e| e.id.starts_with("S-")), "{:?}", found.first().map(|e| &e.id));
    let found = kriegsspiel::hud::rules::search_tab_first(&book, "victory", rules::reference::Lang::En, Book::Tactical);
    assert!(found.first().is_some_and(|e| e.id.starts_with("T-")), "{:?}", found.first().map(|e| &e.id));
    press(&mut app, KeyCode::F1);
    // A battle: the Napoleonic book.
    app.world_mut().write_message(StartBattle {
        scenario: shipped("worked_example_b"),
        seed: 1,
        seats: vec![Seat::Human, Seat::Human],
    });
    app.update();
    app.update();
    press(&mut app, KeyCode::F1);
    assert_eq!(window(&app).mode, Book::Tactical);
}
