//! The Great War as a person plays it (issue 27), headless: places named by their towns, names
//! without ids and in the reader's language, the turn summary after the other powers' moves and
//! its places, the AI's progress, and the odds of the Combat phase to come.

mod support;
use bevy::prelude::*;
use kriegsspiel::great_war::combat_ahead::combat_ahead;
use kriegsspiel::great_war::recap::{Recap, RecapCommand};
use kriegsspiel::great_war::summary::{SummaryKind, TurnSummary, ai_progress, summary};
use kriegsspiel::great_war::{GwNames, StartGreatWar, files};
use kriegsspiel::i18n::{Lang, Tr};
use kriegsspiel::screens::{PlayView, Screen};
use kriegsspiel::session::Seat;
use rules::Game;
use rules::strategic::purchase::Recruit;
use rules::strategic::testkit::hex;
use rules::strategic::{GreatWar, Order, Phase, Piece, PowerId, Scenario};
use support::app;

mod gw_input;
use gw_input::*;

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";

fn start(app: &mut App, scenario: Scenario, seats: Vec<Seat>) {
    app.world_mut().write_message(StartGreatWar { scenario, seed: 1, seats });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

/// The test front with the German 4th Cavalry Division (7) standing next to the French 1st
/// Cavalry Division (36): a standing contact, fought in every Combat phase (S-COMBAT-1).
fn in_contact() -> Scenario {
    let mut s = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    let french = s.forces.iter().find(|f| f.id == 36).and_then(|f| f.at).expect("the French cavalry");
    let taken: Vec<_> = s.forces.iter().filter_map(|f| f.at).collect();
    let next = french
        .neighbours()
        .into_iter()
        .find(|h| s.map.is_land(*h) && !taken.contains(h) && s.map.city_at(*h).is_none())
        .expect("a free land hex next to it");
    let german = s.forces.iter_mut().find(|f| f.id == 7).expect("the German cavalry");
    german.at = Some(next);
    s
}

fn english() -> Tr {
    Tr::new(Lang::English)
}

/// No "(c, r)" of a hex in a line.
fn has_coordinates(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = rest.find('(') {
        let after = &rest[i + 1..];
        let inner = after.split(')').next().unwrap_or("");
        let parts: Vec<&str> = inner.split(", ").collect();
        if parts.len() == 2 && parts.iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())) {
            return true;
        }
        rest = after;
    }
    false
}

/// Issue 27: the engine's lines name hexes by their places on the map — a town, a hex near one
/// — in the reader's language, where the referee's English (`Display`) keeps the coordinates; a
/// unit raised in the game is named without its ID and without its power twice.
#[test]
fn lines_name_places_by_their_towns_and_raised_units_without_ids() {
    let s = files::load_scenario(TEST_FRONT).expect("the scenario loads");
    let mut game = GreatWar::new(&s, 1);
    for _ in 0..s.powers.len() {
        game.apply(Order::EndPhase).expect("Preparation passes");
    }
    assert_eq!(game.ctx().clock.phase, Phase::Movement);
    let metz = hex(14, 7);
    let events =
        game.apply(Order::Recruit { unit: Recruit::Infantry { class: 1, mountain: false, elite: false }, at: metz });
    let events = events.expect("Germany raises a division at Metz");
    let ctx = game.ctx();
    let raised = events.iter().find(|e| e.line.key == "gwe.econ.raises").expect("the raising is told");
    let (tr, ru) = (english(), Tr::new(Lang::Russian));
    let line = tr.line(&ctx, &raised.line);
    assert!(line.contains("at Metz"), "{line}");
    assert!(line.contains("infantry division no. "), "{line}");
    assert!(!has_coordinates(&line) && !line.contains('#'), "{line}");
    assert!(!line.contains("(Germany)"), "the power once, not in the name: {line}");
    assert!(has_coordinates(&raised.line.to_string()), "the referee's words keep the hex: {}", raised.line);
    let in_russian = ru.line(&ctx, &raised.line);
    // The Russian words, the town in Russian (the map's name_ru), and the raised unit named in Russian too (not the engine's
    // English "infantry division no. 1").
    assert!(in_russian.contains("формирует") && in_russian.contains("Мец"), "{in_russian}");
    assert!(in_russian.contains("пехотная дивизия № ") && !in_russian.contains("infantry"), "{in_russian}");
    assert!(!has_coordinates(&in_russian), "{in_russian}");
    // A move's line: a hex near a town.
    // The 4th Cavalry Division, on its own, one hex on.
    let (cavalry, from) = (rules::strategic::ForceId(7), hex(16, 3));
    let to = ctx
        .reachable(PowerId(0), &[cavalry], from, 25)
        .into_iter()
        .map(|(h, _, _)| h)
        .find(|h| h.is_adjacent(from) && ctx.map().city_at(*h).is_none())
        .expect("a hex next to it");
    let moved = game.apply(Order::Move { piece: Piece::Unit(cavalry), path: vec![to] }).expect("moves");
    let ctx = game.ctx();
    let line = moved.iter().find(|e| e.line.key == "gwe.land.moved").map(|e| tr.line(&ctx, &e.line)).expect("told");
    assert!(line.contains("a hex near "), "{line}");
    assert!(!has_coordinates(&line), "{line}");
    assert_eq!(tr.place(&ctx, metz), "Metz");
    assert!(tr.place(&ctx, to).starts_with("a hex near "), "{}", tr.place(&ctx, to));
}

/// Issue 27: August 1914's Russian formations are named in English in the English interface
/// and in Russian in the Russian one (the scenario's `names_ru`); no unit of the grand campaign
/// is named in Cyrillic in English.
#[test]
fn russian_formations_are_named_in_the_readers_language() {
    let s = files::load_scenario("scenarios/great_war/august_1914.ron").expect("loads");
    let ctx = GreatWar::new(&s, 1914).ctx();
    let (en, ru) = (english(), Tr::new(Lang::Russian));
    let first = ctx
        .formations
        .iter()
        .find(|f| s.name_ru(f.id.0).is_some_and(|n| n.starts_with("1-я армия")))
        .expect("the Russian 1st Army");
    assert!(en.formation(&ctx, first.id).starts_with("1st Army"), "{}", en.formation(&ctx, first.id));
    assert!(ru.formation(&ctx, first.id).starts_with("1-я армия"), "{}", ru.formation(&ctx, first.id));
    let cyrillic = |t: &str| t.chars().any(|c| ('\u{400}'..='\u{4FF}').contains(&c));
    let russian_units: Vec<_> = ctx.forces.iter().filter(|f| s.name_ru(f.id.0).is_some()).collect();
    assert!(russian_units.len() > 50, "{}", russian_units.len());
    for f in &ctx.forces {
        assert!(!cyrillic(&en.unit(&ctx, f.id)), "{}", en.unit(&ctx, f.id));
    }
    assert!(russian_units.iter().all(|f| cyrillic(&ru.unit(&ctx, f.id))));
    // The engine's lines name them so too: a Russian division's move in the log.
    let mut game = GreatWar::new(&s, 1914);
    let russia = s.power_index("russia").map(|i| PowerId(i as u8)).expect("Russia");
    while (game.ctx().clock.phase, game.ctx().active_power()) != (Phase::Movement, russia) {
        assert_eq!(game.ctx().clock.turn, 1, "Russia moves in the first turn's Movement phase");
        game.apply(Order::EndPhase).expect("ends its part");
    }
    let c = game.ctx();
    let moved = rules::strategic::query::land_pieces(&c, russia).into_iter().find_map(|p| {
        let to = c.destinations(p.piece).into_iter().find(|(h, _, _)| h.is_adjacent(p.at))?;
        let mut probe = c.clone();
        probe.apply(&Order::Move { piece: p.piece, path: to.2 }).ok()?;
        probe.events.into_iter().find(|e| {
            e.line.key == "gwe.land.moved"
                && matches!(e.kind, rules::strategic::event::EventKind::Moved { unit, .. } if s.name_ru(unit.0).is_some())
        })
    });
    let event = moved.expect("a Russian piece moves a hex and its line names a unit with a Russian name");
    let rules::strategic::event::EventKind::Moved { unit, .. } = event.kind else { panic!("{event:?}") };
    let (in_en, in_ru) = (en.line(&ctx, &event.line), ru.line(&ctx, &event.line));
    assert!(in_en.contains(&ctx.name(unit)) && !cyrillic(&in_en), "{in_en}");
    assert!(in_ru.contains(s.name_ru(unit.0).expect("its Russian name")), "{in_ru}");
}

/// Issue 27: after the AI's powers have moved, the person's turn opens with a summary of what
/// they did; its battles lead to a hex where the fight's units stand, its provinces to their
/// capitals. While the AI moves, its progress says which power thinks and its place among them,
/// and the camera follows its moves.
#[test]
fn the_turn_summary_tells_what_happened_while_the_person_waited_and_where() {
    let mut app = app();
    let scenario = in_contact();
    let first = scenario.start_turn;
    let seats = vec![Seat::Human, Seat::Ai(ai::Level::Recruit), Seat::Ai(ai::Level::Recruit)];
    start(&mut app, scenario, seats);
    let mut progress_seen = Vec::new();
    let mut recap_checked = false;
    let mut looks_while_ai = 0;
    for _ in 0..6000 {
        let s = session(&app);
        if let Some(p) = ai_progress(s) {
            progress_seen.push((p.power, p.at, p.of));
        }
        let summary = app.world().resource::<TurnSummary>();
        if s.game.turn() > first && s.human_turn() && summary.open {
            break;
        }
        let human = s.human_turn();
        if human && !recap_checked && !app.world().resource::<Recap>().steps.is_empty() {
            check_recap(&mut app);
            recap_checked = true;
        }
        if human {
            press(&mut app, KeyCode::Space);
        } else {
            app.update();
            // The camera follows the AI's moves the person may see (the others' pieces here
            // stand in the open).
            let looks = app.world().resource::<Messages<kriegsspiel::hud::log::LookAt>>();
            looks_while_ai += looks.iter_current_update_messages().count();
        }
        if app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver) {
            press(&mut app, KeyCode::Enter);
        }
    }
    let s = session(&app);
    assert!(s.game.turn() > first, "a whole turn was played");
    let summary = app.world().resource::<TurnSummary>().clone();
    assert!(summary.open, "the summary opens when the person's turn comes");
    let ctx = s.ctx();
    let battles: Vec<_> = summary.items.iter().filter(|i| i.kind == SummaryKind::Battle).collect();
    assert!(!battles.is_empty(), "the cavalry's contact is fought: {:?}", summary.items);
    for b in &battles {
        let at = b.place.expect("a battle has its place");
        assert!(ctx.map().contains(at));
    }
    assert!(battles.iter().any(|b| b.place.is_some_and(|at| !ctx.at(at).is_empty())), "{battles:?}");
    let kinds: Vec<SummaryKind> = summary.items.iter().map(|i| i.kind).collect();
    assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "grouped by kind: {kinds:?}");
    // The AI's progress: France then Great Britain, 1 and 2 of 2.
    assert!(
        progress_seen.contains(&(PowerId(1), 1, 2)) && progress_seen.contains(&(PowerId(2), 2, 2)),
        "{progress_seen:?}"
    );
    assert!(ai_progress(s).is_none(), "no progress while the person plays");
    assert!(looks_while_ai > 0, "the camera followed the AI's moves");
    // The same summary from the engine's log: the lines are the engine's, in English with places.
    let tr = english();
    for item in &summary.items {
        assert!(!tr.line(&ctx, &item.line).is_empty());
    }
    let again = summary_of_whole_log(&ctx, s.game.events());
    assert!(again.iter().filter(|i| i.kind == SummaryKind::Battle).count() >= battles.len());
    // The shell's "whole log" key (L) opens the whole log in the Great War, and closes it; the
    // foot log stays where it is (the same key folded it away before, so L hid the log it opened).
    use kriegsspiel::great_war::summary::WholeLog;
    use kriegsspiel::room::PanelsShown;
    assert_eq!(*app.world().resource::<WholeLog>(), WholeLog(false));
    assert!(app.world().resource::<PanelsShown>().log);
    press(&mut app, KeyCode::KeyL);
    assert_eq!(*app.world().resource::<WholeLog>(), WholeLog(true));
    assert!(app.world().resource::<PanelsShown>().log, "the foot log stays");
    press(&mut app, KeyCode::KeyL);
    assert_eq!(*app.world().resource::<WholeLog>(), WholeLog(false));
    assert!(app.world().resource::<PanelsShown>().log, "the foot log stays");
    assert!(recap_checked, "the AI's moves were offered for a replay");
}

/// Issue 27: the summary's entries lead to the entering power's capital and its sinkings to
/// where the ship went down (they led nowhere): France's capital on the test front is Paris,
/// the first hex of its largest home province's capital (1, 8).
#[test]
fn the_summarys_entries_and_sinkings_lead_to_their_places() {
    use rules::strategic::{Event, EventKind};
    use rules::texts::Msg;
    let game = GreatWar::new(&files::load_scenario("scenarios/great_war/test_front.ron").expect("loads"), 1);
    let ctx = game.ctx();
    let event = |kind| Event { turn: 4, kind, line: Msg::plain("x") };
    let items = summary(
        &ctx,
        &[event(EventKind::EntersWar { power: PowerId(1) }), event(EventKind::Sunk { ship: 3, at: hex(0, 1) })],
    );
    let place = |kind| items.iter().find(|i| i.kind == kind).and_then(|i| i.place);
    assert_eq!(place(SummaryKind::Entry), Some(hex(1, 8)), "{items:?}");
    assert_eq!(place(SummaryKind::Ship), Some(hex(0, 1)), "{items:?}");
}

fn summary_of_whole_log(
    ctx: &rules::strategic::Ctx,
    events: &[rules::strategic::Event],
) -> Vec<kriegsspiel::great_war::summary::SummaryItem> {
    summary(ctx, events)
}

/// Issue 27: when the Combat phase comes — in the Fire phase, every power having moved — each
/// engagement of the viewer's side is listed with the engine's sums, D and result as they stand
/// then, and whether the viewer's side is the stronger; the same as the engine's own assessment.
#[test]
fn the_odds_are_shown_again_before_the_combat_phase() {
    let s = in_contact();
    let mut game = GreatWar::new(&s, 1);
    while game.ctx().clock.phase != Phase::Fire {
        game.apply(Order::EndPhase).expect("passes");
    }
    let ctx = game.ctx();
    let german = combat_ahead(&ctx, Some(PowerId(0)));
    let french = combat_ahead(&ctx, Some(PowerId(1)));
    let all = combat_ahead(&ctx, None);
    assert!(!german.is_empty(), "the cavalry's standing contact");
    assert_eq!(german.len(), all.len(), "every engagement has a German side");
    for (a, b) in german.iter().zip(&french) {
        assert_eq!(a.engagement, b.engagement, "both sides see the same engagement");
        assert_eq!(a.ours_stronger.map(|x| !x), b.ours_stronger, "and which of them is the stronger");
        assert_eq!(a.ours_stronger, Some(a.engagement.stronger == 1), "Germany is alliance 1");
        let line = english().line(&ctx, &a.line);
        assert!(line.contains("D = "), "{line}");
        assert!(a.place.is_some_and(|at| !ctx.at(at).is_empty()));
    }
    let engine: Vec<_> = ctx.engagements().into_iter().map(|g| ctx.assess(&g)).collect();
    assert_eq!(all.iter().map(|a| a.engagement.clone()).collect::<Vec<_>>(), engine, "the engine's own assessment");
    // What the Combat phase then does is what was shown: the engagements' results in the log.
    let before = game.events().len();
    while game.ctx().clock.phase == Phase::Fire {
        game.apply(Order::EndPhase).expect("passes");
    }
    let fought = game.events()[before..]
        .iter()
        .filter_map(|e| match &e.kind {
            rules::strategic::EventKind::Engagement { d, result, .. } => Some((*d, *result)),
            _ => None,
        })
        .collect::<Vec<_>>();
    let shown = all.iter().map(|a| (a.engagement.d, a.engagement.result)).collect::<Vec<_>>();
    assert_eq!(fought, shown, "the Combat phase fights what was shown, as it was shown");
}

/// The others' moves, replayed as Germany saw them: each step a move of France's or Britain's
/// the engine lets Germany see; "watch" plays them with the summary put away, "next" steps on,
/// "skip" ends them and brings the summary back.
fn check_recap(app: &mut App) {
    let recap = app.world().resource::<Recap>().clone();
    let s = session(app);
    let ctx = s.ctx();
    let seen = ctx.seen(rules::view::Viewer::Player(PowerId(0)), s.game.events());
    let others_moves: Vec<&rules::strategic::Event> = seen
        .iter()
        .filter_map(|e| e.event())
        .filter(|e| {
            matches!(e.kind, rules::strategic::event::EventKind::Moved { unit, .. }
                if ctx.force(unit).is_some_and(|f| f.power != PowerId(0)))
        })
        .collect();
    for step in &recap.steps {
        assert!(others_moves.iter().any(|e| e.line == step.line), "{step:?} is a seen move of another power");
        assert_ne!(step.from, Some(step.to), "{step:?} moved");
    }
    let recap_of = |app: &App| app.world().resource::<Recap>().clone();
    app.world_mut().write_message(RecapCommand::Start);
    app.update();
    assert!(recap_of(app).playing && recap_of(app).at == 0);
    use kriegsspiel::great_war::summary::summary_shown;
    let shown = |app: &App| summary_shown(app.world().resource::<TurnSummary>(), &recap_of(app));
    assert!(!shown(app), "the summary makes way for the replay");
    if recap.steps.len() > 1 {
        app.world_mut().write_message(RecapCommand::Next);
        app.update();
        assert_eq!(recap_of(app).at, 1);
    }
    app.world_mut().write_message(RecapCommand::Skip);
    app.update();
    assert!(!recap_of(app).playing, "skipped");
    assert!(shown(app), "the summary is back");
}

/// Issue 27: the top bar names the scenario in the reader's language (the string table's
/// `scenario.STEM`, as the set-up screen does), not the file's English name.
#[test]
fn the_top_bar_names_the_scenario_in_the_readers_language() {
    use kriegsspiel::great_war::panels::scenario_title;
    let s = files::load_scenario("scenarios/great_war/august_1914.ron").expect("loads");
    assert_eq!(scenario_title(&english(), &s.name), s.name);
    let ru = Tr::new(Lang::Russian);
    assert_eq!(scenario_title(&ru, &s.name), ru.t("scenario.august_1914"));
    assert_ne!(ru.t("scenario.august_1914"), s.name, "translated");
    assert_eq!(scenario_title(&ru, "A scenario of one's own"), "A scenario of one's own");
}
