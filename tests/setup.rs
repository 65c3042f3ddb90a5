//! The set-up screen, headless: "play as" a power, an alliance or a side with the AI at one level
//! on every other seat starts a game in two clicks from a scenario's page (the buttons are
//! `SetupClick`s); the page gives a picture of the map, the sides, the length, the objectives and
//! the victory conditions in both languages; the campaigns are offered; and at one screen the
//! board is handed over only to a person with something to do, never between one person's seats.

mod support;
use bevy::prelude::*;
use kriegsspiel::catalog::{Catalog, THUMBNAIL_SIDE};
use kriegsspiel::hud::legend::LegendBook;
use kriegsspiel::i18n::{Lang, Tr};
use kriegsspiel::screens::{Mode, PlayView, Screen};
use kriegsspiel::session::Seat;
use kriegsspiel::setup::{PlayAs, ScenarioPages, SetupClick, SetupForm};
use rules::strategic::{GreatWar, Phase, PowerId};
use support::app;

const TEST_FRONT: &str = "scenarios/great_war/test_front.ron";

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// The title's button of a war: the set-up screen on that war's scenario at `path`.
fn scenario_page(app: &mut App, mode: Mode, path: &str) {
    app.world_mut().resource_mut::<SetupForm>().choose_war(mode);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Setup);
    app.update();
    let i = app.world().resource::<Catalog>().entries.iter().position(|e| e.path == path).expect("listed");
    app.world_mut().write_message(SetupClick::Scenario(i));
    app.update();
    assert_eq!(screen(app), Screen::Setup);
}

/// The two clicks: "play as", then "start"; then the loading screen's frames.
fn two_clicks(app: &mut App, play_as: PlayAs) {
    app.world_mut().write_message(SetupClick::PlayAs(play_as));
    app.update();
    app.world_mut().write_message(SetupClick::Start);
    for _ in 0..6 {
        app.update();
    }
    assert_eq!(screen(app), Screen::Playing);
}

fn gw_session(app: &App) -> &kriegsspiel::session::Session<GreatWar> {
    app.world().resource::<kriegsspiel::session::Session<GreatWar>>()
}

/// Issue 27: a power is played against the AI in two clicks (before: one drop-down per power);
/// only its seat is a person's, every other the AI at the one level chosen.
#[test]
fn play_as_a_power_starts_in_two_clicks_with_every_other_seat_the_ai() {
    let mut app = app();
    scenario_page(&mut app, Mode::GreatWar, TEST_FRONT);
    app.world_mut().write_message(SetupClick::Level(ai::Level::Marshal));
    app.update();
    two_clicks(&mut app, PlayAs::Player(1));
    let s = gw_session(&app);
    assert_eq!(s.seats, vec![Seat::Ai(ai::Level::Marshal), Seat::Human, Seat::Ai(ai::Level::Marshal)]);
    assert!(!s.hot_seat(), "one person against the AI");
}

/// An alliance is one person's: France and Great Britain are human, Germany the AI, and the
/// screen is never handed over between the two (the same person plays both).
#[test]
fn play_as_an_alliance_makes_its_powers_one_persons() {
    let mut app = app();
    scenario_page(&mut app, Mode::GreatWar, TEST_FRONT);
    let header = app.world().resource::<Catalog>().find(TEST_FRONT).expect("listed").header.clone();
    assert!(SetupForm::choices(&header).contains(&PlayAs::Alliance(0)), "the Entente of two powers is offered");
    assert!(!SetupForm::choices(&header).contains(&PlayAs::Alliance(1)), "Germany alone is offered as a power only");
    two_clicks(&mut app, PlayAs::Alliance(0));
    let s = gw_session(&app);
    assert_eq!(s.seats, vec![Seat::Ai(ai::Level::Veteran), Seat::Human, Seat::Human]);
    assert!(s.one_person && !s.hot_seat());
}

/// A battle's side and a campaign's side in two clicks too; the campaigns are the set-up
/// screen's when the title's "New campaign" chose them.
#[test]
fn a_battle_and_a_campaign_side_start_in_two_clicks() {
    let mut app = app();
    scenario_page(&mut app, Mode::Battle, "scenarios/borodino.ron");
    two_clicks(&mut app, PlayAs::Player(1));
    let s = app.world().resource::<kriegsspiel::session::Session<rules::tactical::Battle>>();
    assert_eq!(s.seats, vec![Seat::Ai(ai::Level::Veteran), Seat::Human]);
    let mut app = self::app();
    scenario_page(&mut app, Mode::Campaign, "scenarios/campaign/linden.ron");
    two_clicks(&mut app, PlayAs::Player(0));
    let s = app.world().resource::<kriegsspiel::session::Session<rules::campaign::Campaign>>();
    assert_eq!(s.seats, vec![Seat::Human, Seat::Ai(ai::Level::Veteran)]);
    assert_eq!(*app.world().resource::<State<Mode>>().get(), Mode::Campaign);
}

/// The scenario page: a picture of the map (no larger than the UI limit, land in the powers'
/// colours), the sides, the length with its dates, the objectives and the victory conditions,
/// read once per scenario and language.
#[test]
fn the_scenario_page_shows_the_map_sides_length_objectives_and_victory() {
    let mut app = app();
    let path = "scenarios/great_war/east_prussia_1914.ron";
    scenario_page(&mut app, Mode::GreatWar, path);
    app.update();
    let pages = app.world().resource::<ScenarioPages>();
    let page = pages.get(path, Lang::English).expect("read on the page").clone().expect("the page reads");
    let t = page.thumbnail.expect("a map picture");
    assert!(t.width.max(t.height) <= THUMBNAIL_SIDE && t.width.max(t.height) > THUMBNAIL_SIDE / 2);
    assert_eq!(t.rgba.len(), (t.width * t.height * 4) as usize);
    let keys: Vec<&str> = page.sections.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["gw.page.sides", "gw.page.length", "gw.page.objectives", "gw.page.victory"]);
    let text = |i: usize| page.sections[i].1.join(" ");
    assert!(text(0).contains("Germany and allies: Germany") && text(0).contains("Russia"), "{}", text(0));
    let scenario = kriegsspiel::great_war::files::load_scenario(path).expect("loads");
    let ctx = GreatWar::new(&scenario, 1).ctx();
    let last = ctx.last_turn();
    assert!(text(1).contains(&format!("turn {} to turn {last}", scenario.start_turn)), "{}", text(1));
    assert!(text(1).contains("From "), "the calendar's dates: {}", text(1));
    assert!(text(2).contains("Capitals"), "{}", text(2));
    assert!(text(3).contains("surrenders"), "{}", text(3));
    // In Russian: the names of the powers and the words are the string table's.
    let ru = kriegsspiel::great_war::page::page_of(&scenario, &Tr::new(Lang::Russian));
    let sides = ru.sections[0].1.join(" ");
    assert!(sides.contains("Германия и союзники: Германия") && sides.contains("Россия"), "{sides}");
    assert!(ru.sections[1].1.join(" ").contains("Время:"), "{:?}", ru.sections[1]);
}

/// The battle's and the campaign's pages have their map's picture and the four sections.
#[test]
fn battle_and_campaign_pages_have_a_map_and_their_sections() {
    let tr = Tr::new(Lang::English);
    let battle = kriegsspiel::battle::page::scenario_page("scenarios/badajoz.ron", &tr).expect("reads");
    let campaign = kriegsspiel::campaign::page::scenario_page("scenarios/campaign/linden.ron", &tr).expect("reads");
    for page in [&battle, &campaign] {
        assert!(page.thumbnail.as_ref().is_some_and(|t| !t.rgba.is_empty()));
        assert_eq!(page.sections.len(), 4);
    }
    assert!(battle.sections[2].1[0].contains("fortress"), "Badajoz is stormed: {:?}", battle.sections[2]);
    assert!(campaign.sections[2].1[0].starts_with("Key places: "), "{:?}", campaign.sections[2]);
    // T-TURN-4: the battle's length is the rules' round limit (30), after which the defender holds;
    // it said "no turn limit" before.
    let limit = rules::tactical::Scenario::load(std::path::Path::new("scenarios/badajoz.ron"))
        .expect("loads")
        .rules
        .round_limit;
    assert_eq!(limit, 30);
    let length = &battle.sections[1].1[0];
    assert!(length.contains("At most 30 rounds") && length.contains("T-TURN-4"), "{length}");
    assert!(battle.sections[3].1[0].contains("after round 30 goes to the defender"), "{:?}", battle.sections[3]);
    let ru = kriegsspiel::battle::page::scenario_page("scenarios/badajoz.ron", &Tr::new(Lang::Russian)).expect("reads");
    assert!(ru.sections[1].1[0].contains("Не больше 30 раундов"), "{:?}", ru.sections[1]);
}

/// Every Great War scenario shipped has its name in Russian (the files have none).
#[test]
fn great_war_scenarios_are_named_in_russian() {
    let app = app();
    let ru = Tr::new(Lang::Russian);
    for e in app.world().resource::<Catalog>().entries.iter().filter(|e| e.mode == Mode::GreatWar) {
        let stem = std::path::Path::new(&e.path).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let key = format!("scenario.{stem}");
        assert_ne!(ru.t(&key), key, "{}: no Russian name", e.path);
        assert_eq!(Tr::new(Lang::English).t(&key), e.header.name, "{}: the English name is the file's", e.path);
    }
}

/// The campaign map has a legend of its own (it said "This scene has no legend yet"), every
/// line of it in both string tables.
#[test]
fn the_campaign_map_has_its_legend() {
    let app = app();
    let sections = app.world().resource::<LegendBook>().of(Mode::Campaign).to_vec();
    assert!(sections.len() >= 3, "ground, pieces and overlays");
    for lang in [Lang::English, Lang::Russian] {
        let tr = Tr::new(lang);
        for s in &sections {
            assert_ne!(tr.t(s.title), s.title, "{lang:?}: {}", s.title);
            for item in &s.items {
                assert_ne!(tr.t(&item.text), item.text, "{lang:?}: {}", item.text);
            }
        }
    }
}

fn view(app: &App) -> PlayView {
    *app.world().resource::<State<PlayView>>().get()
}

/// Three people at one screen on the test front (turn 4): in Preparation only Germany has a
/// cylinder set (S-CHEM-1), so the screen is not handed over to France nor Great Britain, who
/// have nothing to do; the Movement phase hands it over to Germany's player, and each power's
/// then.
#[test]
fn the_screen_is_handed_over_only_to_a_person_with_something_to_do() {
    let mut app = app();
    let scenario = kriegsspiel::great_war::files::load_scenario(TEST_FRONT).expect("loads");
    app.world_mut().write_message(kriegsspiel::great_war::StartGreatWar {
        scenario,
        seed: 1,
        seats: vec![Seat::Human; 3],
    });
    app.update();
    app.update();
    let phase = |app: &App| {
        let c = gw_session(app).ctx();
        (c.clock.phase, c.active_power(), c.has_phase_orders(c.active_power()))
    };
    assert_eq!(phase(&app), (Phase::Preparation, PowerId(0), true));
    let mut seen = Vec::new();
    for _ in 0..3 {
        press(&mut app, KeyCode::Space);
        app.update();
        let (p, power, work) = phase(&app);
        assert!(work, "{p:?} {power:?}: a person with nothing to do is never left to move");
        seen.push((p, power, view(&app) == PlayView::HandOver));
        if view(&app) == PlayView::HandOver {
            press(&mut app, KeyCode::Enter);
        }
    }
    // France and Great Britain have no cylinder to set or release in Preparation: they pass at
    // once, by their own pass order, and Germany's person goes on to Movement without a hand-over
    // (before, Germany's person pressed Space for them with the board in their view).
    assert_eq!(
        seen,
        [
            (Phase::Movement, PowerId(0), false),
            (Phase::Movement, PowerId(1), true),
            (Phase::Movement, PowerId(2), true),
        ]
    );
    let passes = gw_session(&app).game.orders().iter().filter(|o| matches!(o, rules::strategic::Order::EndPhase));
    assert_eq!(passes.count(), 5, "Germany's Preparation, France's and Britain's by themselves, two Movements");
}

fn press(app: &mut App, input: impl leafwing_input_manager::prelude::Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

/// The Great War's tutorial walked through as a player would: select an army, move a division
/// next to the French, name its target, fire a gun in the Fire phase, end the turn; each step is
/// done when the game shows it.
#[test]
fn the_great_war_tutorial_walks_through_its_steps() {
    use kriegsspiel::great_war::tutorial::{GwTutorial, PLAYER, StartGwTutorial, Step};
    use kriegsspiel::great_war::{HoveredHex, Selected, Selection};
    use rules::strategic::{HexAt, Order, Piece};
    let mut app = app();
    // A player's very first game is the tutorial: it opens without the legend over the panel
    // its first step points at (the legend waits for the next game).
    app.world_mut().resource_mut::<kriegsspiel::settings::Settings>().legend_seen = false;
    app.world_mut().write_message(StartGwTutorial);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Playing);
    assert!(!app.world().resource::<kriegsspiel::help::LegendWindow>().open, "no legend over the tutorial");
    assert!(!app.world().resource::<kriegsspiel::settings::Settings>().legend_seen, "kept for the next game");
    let step = |app: &App| app.world().resource::<GwTutorial>().step;
    let click = |app: &mut App, at: HexAt| {
        app.world_mut().resource_mut::<HoveredHex>().0 = Some(at);
        press(app, MouseButton::Left);
    };
    let selected = |app: &App| app.world().resource::<Selection>().of(gw_session(app));
    assert_eq!(step(&app), Step::SelectArmy);
    // A click on a corps of the army selects the army (S-ARMY-3).
    let ctx = gw_session(&app).ctx();
    let army = ctx
        .formations
        .iter()
        .find(|f| f.kind == rules::strategic::state::FormationKind::Army && f.power == PLAYER)
        .expect("Germany has an army");
    let corps_hex = army.corps.first().and_then(|c| ctx.piece_hex(Piece::Corps(*c))).expect("on the map");
    click(&mut app, corps_hex);
    assert!(matches!(selected(&app), Some(Selected::Army(_))), "{:?}", selected(&app));
    app.update();
    assert_eq!(step(&app), Step::Move);
    // End Preparation; the AI's powers pass theirs.
    let until = |app: &mut App, phase: Phase| {
        for _ in 0..400 {
            let c = gw_session(app).ctx();
            if c.clock.phase == phase && c.active_power() == PLAYER {
                return;
            }
            if gw_session(app).human_turn() {
                press(app, KeyCode::Space);
            } else {
                app.update();
            }
        }
        panic!("never reached {phase:?}");
    };
    until(&mut app, Phase::Movement);
    // A division next to the French, then its target.
    let ctx = gw_session(&app).ctx();
    let (piece, to, enemy) = rules::strategic::query::pieces_on_map(&ctx, PLAYER)
        .into_iter()
        .find_map(|p| {
            ctx.destinations(p).into_iter().find_map(|(h, _, _)| {
                let e = h.neighbours().into_iter().find(|n| ctx.enemy_on(PLAYER, *n))?;
                Some((p, h, e))
            })
        })
        .expect("a German piece can reach the French");
    let from = ctx.piece_hex(piece).expect("on the map");
    for _ in 0..4 {
        if selected(&app) == Some(Selected::Piece(piece)) {
            break;
        }
        click(&mut app, from);
    }
    click(&mut app, to);
    press(&mut app, KeyCode::Enter);
    assert_eq!(gw_session(&app).ctx().piece_hex(piece), Some(to), "{:?}", gw_session(&app).refusal);
    app.update();
    // The move ends in contact: the attack step is done with it (contact is battle, S-COMBAT-8).
    assert_eq!(step(&app), Step::Fire);
    click(&mut app, enemy);
    press(&mut app, KeyCode::Enter);
    assert!(gw_session(&app).game.orders().contains(&Order::Attack { piece, target: enemy }));
    // An independent heavy gun closes in on the French (the step's text says so).
    let ctx = gw_session(&app).ctx();
    let (gun, gun_at) = ctx
        .forces
        .iter()
        .filter(|f| f.power == PLAYER && f.kind.is_artillery() && f.member.corps.is_none() && f.member.army.is_none())
        .find_map(|f| Some((f.id, f.hex()?)))
        .expect("an independent German heavy artillery division");
    let french: Vec<HexAt> =
        ctx.forces.iter().filter(|f| ctx.hostile(PLAYER, f.power)).filter_map(|f| f.hex()).collect();
    let best = ctx
        .destinations(Piece::Unit(gun))
        .into_iter()
        .min_by_key(|(h, _, _)| (french.iter().map(|e| e.distance(*h)).min().unwrap_or(99), *h))
        .map(|(h, _, _)| h)
        .expect("the gun can move");
    for _ in 0..4 {
        if selected(&app) == Some(Selected::Piece(Piece::Unit(gun))) {
            break;
        }
        click(&mut app, gun_at);
    }
    click(&mut app, best);
    if gw_session(&app).confirm.is_some() {
        press(&mut app, KeyCode::Enter);
    }
    // A gun fires in the Fire phase, at an enemy hex the engine says it reaches.
    until(&mut app, Phase::Fire);
    let ctx = gw_session(&app).ctx();
    let (gun, target) = ctx
        .guns_ready(PLAYER)
        .into_iter()
        .find_map(|g| {
            let reach = ctx.check_fire_range(g)?.1;
            let t = reach.into_iter().find(|t| ctx.enemy_on(PLAYER, *t) && ctx.check_fire(g, *t, false).is_ok())?;
            Some((g, t))
        })
        .expect("a German gun reaches the French");
    let at = ctx.gun_hexes(gun).first().copied().expect("it fires from somewhere");
    click(&mut app, at);
    for _ in 0..6 {
        if matches!(selected(&app), Some(Selected::Piece(Piece::Unit(g))) if g == gun) {
            break;
        }
        press(&mut app, KeyCode::Tab);
    }
    click(&mut app, target);
    press(&mut app, KeyCode::Enter);
    assert!(
        gw_session(&app).game.orders().iter().any(|o| matches!(o, Order::Fire { unit, .. } if *unit == gun)),
        "{:?}",
        gw_session(&app).refusal
    );
    app.update();
    assert_eq!(step(&app), Step::EndTurn);
    until(&mut app, Phase::Preparation);
    app.update();
    assert_eq!(step(&app), Step::Done);
}
