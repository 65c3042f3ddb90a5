//! The whole war (issue 27): August 1914 played AI against AI to its end, November 1918 by the
//! calendar or a surrender, with every power's entry into the war and every unit's arrival that
//! the scenario schedules inside it.
//!
//! It takes minutes even in release, so it is ignored by `cargo test` and run by `.ci/run` as
//! `cargo test --release -p ai --test great_war_whole_war -- --ignored --nocapture`.

use ai::Level;
use ai::great_war::game::{GwSetup, play};
use rules::strategic::campaign::{Date, Outcome};
use rules::strategic::event::Event;
use rules::strategic::state::{ForceId, Place};
use rules::strategic::{PowerId, Scenario};
use rules::texts::Arg;
use std::path::PathBuf;
use web_time::{Duration, Instant};

fn august_1914() -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/august_1914.ron");
    Scenario::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether `event` says that the power of scenario index `power` entered the war.
fn enters(event: &Event, power_key: &str) -> bool {
    event.line.key == "gwe.econ.enters_war"
        && event
            .line
            .args
            .iter()
            .any(|(name, a)| name == "power" && matches!(a, Arg::Name { key, .. } if key == power_key))
}

/// The scenario's calendar ends the war in November 1918, and every neutral's entry and every
/// arrival falls before it (the generator refuses one after it, `mapgen scenarios`).
#[test]
fn august_1914_lasts_to_november_1918_with_every_entry_inside_it() {
    let s = august_1914();
    let game = rules::strategic::GreatWar::new(&s, 1914);
    let ctx = game.ctx();
    let last = ctx.last_turn();
    assert_eq!(ctx.date_of(s.start_turn), Some(Date { year: 1914, month: 8 }));
    assert_eq!(ctx.date_of(last), Some(Date { year: 1918, month: 11 }), "the last turn is the Armistice's month");
    assert_eq!(ctx.date_of(last + 1), Some(Date { year: 1918, month: 12 }));
    let entries: Vec<(&str, u32)> = s.powers.iter().filter_map(|p| Some((p.id.as_str(), p.entry?.turn?))).collect();
    for (id, turn) in [
        ("italy", 10),
        ("ottoman", 4),
        ("bulgaria", 15),
        ("romania", 25),
        ("portugal", 20),
        ("greece", 35),
        ("usa", 33),
    ] {
        assert!(entries.contains(&(id, turn)), "{id} enters in turn {turn}: {entries:?}");
    }
    assert!(entries.iter().all(|(_, t)| *t <= last), "{entries:?} after {last}");
    // The capitals the surrender rule counts are the national capitals' provinces, not the
    // richest (the Rhine Province, Voronezh and Tambov before).
    let capital = |id: &str| {
        let p = ctx.power_by_id(id).expect(id);
        ctx.capital_of(p).map(|i| ctx.map().provinces[i].id.clone())
    };
    for (power, province) in [
        ("germany", "brandenburg"),
        ("austria_hungary", "niederoesterreich"),
        ("france", "ile_de_france"),
        ("russia", "st_petersburg"),
        ("ottoman", "istanbul"),
        ("italy", "lazio"),
    ] {
        assert_eq!(capital(power).as_deref(), Some(province), "{power}");
    }
    assert!(s.forces.iter().filter_map(|f| f.arrives?.turn).all(|t| t <= last));
}

/// Every power an AI (Recruit: the whole war in minutes), seed 1914: the game ends by its calendar
/// after turn 52 or earlier by a surrender; every power whose entry turn came entered the war by
/// then, and every unit whose arrival came and whose power was at war is on the map or was lost.
#[test]
#[ignore = "minutes in release: .ci/run runs it with --ignored"]
fn august_1914_is_played_by_the_ai_to_its_end_with_every_scheduled_entry() {
    let s = august_1914();
    let started = Instant::now();
    let setup = GwSetup { slice: Duration::from_secs(60), ..GwSetup::all(&s, 1914, Level::Recruit) };
    let report = play(&s, &setup).expect("the AI plays the whole war");
    let took = started.elapsed();
    assert!(report.refused.is_empty(), "orders refused: {:?}", report.refused);
    let game = &report.game;
    let ctx = game.ctx();
    assert!(game.is_over(), "the game ends");
    let outcome = ctx.outcome().expect("August 1914 has victory conditions");
    let end = ctx.clock.turn;
    match outcome {
        Outcome::Surrender { .. } => assert!(end <= ctx.last_turn()),
        Outcome::Points { .. } => assert_eq!(end, ctx.last_turn(), "the calendar ends it in November 1918"),
    }
    for (i, p) in s.powers.iter().enumerate() {
        let Some(turn) = p.entry.and_then(|e| e.turn).filter(|t| *t <= end) else { continue };
        let key = ctx.power_key(PowerId(i as u8));
        let entered = game.events().iter().find(|e| enters(e, &key)).map(|e| e.turn);
        assert!(entered.is_some_and(|t| t <= turn), "{} enters by turn {turn}: {entered:?}", p.id);
        assert!(!ctx.powers[i].neutral, "{} is no longer neutral", p.id);
    }
    let mut arrivals = 0;
    for f in s.forces.iter().filter(|f| f.arrives.and_then(|a| a.turn).is_some_and(|t| t < end)) {
        let power = ctx.power_by_id(&f.power).expect("a power of the scenario");
        if ctx.idle(power) {
            continue;
        }
        let place = ctx.force(ForceId(f.id)).map(|u| u.place);
        assert!(!matches!(place, Some(Place::Arriving(_))), "unit {} of {} has not arrived: {place:?}", f.id, f.power);
        arrivals += 1;
    }
    assert!(arrivals >= 7, "the American divisions among them: {arrivals}");
    println!(
        "August 1914, every power Recruit, seed 1914: ended in turn {end} ({:?}), {outcome:?}, {} orders, {arrivals} arrivals, {:.0} s",
        ctx.date_of(end),
        game.orders().len(),
        took.as_secs_f64()
    );
}
