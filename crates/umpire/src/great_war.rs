//! The referee for the Great War: its files, its state and its previews in the same commands and
//! JSON shape as for battles.

use crate::Failure;
use crate::referee::Refereed;
use rules::data::DataError;
use rules::strategic::game::ForceView;
use rules::strategic::tables::{AviationTables, RulesTables, UnitTables};
use rules::strategic::{GreatWar, HexMap, Order, Preview, Scenario};
use serde::Serialize;
use std::path::Path;

/// Validates one Great War file of the given kind; returns the summary line.
pub fn validate(kind: &str, path: &Path, text: &str) -> Result<String, Failure> {
    let label = path.to_string_lossy();
    Ok(match kind {
        "gw scenario" => {
            let s = Scenario::load(path)?;
            format!(
                "{} units of {} powers on a {} × {} hex map",
                s.forces.len(),
                s.powers.len(),
                s.map.width,
                s.map.height
            )
        }
        "gw map" => {
            let m = HexMap::parse(&label, text)?;
            format!("{} × {} hexes, {} cities, {} provinces", m.width, m.height, m.cities.len(), m.provinces.len())
        }
        "gw units" => {
            let t = UnitTables::parse(&label, text)?;
            format!(
                "{} infantry rows, {} cavalry rows, {} tanks, {} guns",
                t.infantry.len(),
                t.cavalry.len(),
                t.tanks.len(),
                t.guns.len()
            )
        }
        "gw rules" => {
            RulesTables::parse(&label, text)?;
            "house values".to_string()
        }
        "gw aviation" => format!("{} squadron types", AviationTables::parse(&label, text)?.squadrons.len()),
        _ => crate::referee::validate_save::<GreatWar>(&label, text)?,
    })
}

impl Refereed for GreatWar {
    fn load_scenario(path: &Path) -> Result<Scenario, DataError> {
        Scenario::load(path)
    }

    fn describe(order: &Order) -> String {
        crate::orders::great_war(order)
    }

    // Issue 12: `umpire play` without orders lets every power pass until the game ends.
    const PASSES_WITHOUT_ORDERS: bool = true;

    fn print_state(&self, json: bool) {
        print_state(self, json);
    }

    fn preview_lines(preview: &Preview) -> Vec<String> {
        let mut out = Vec::new();
        for o in &preview.outcomes {
            let pips: Vec<String> = o.pips.iter().map(u8::to_string).collect();
            if pips.is_empty() && (o.chance - 1.0).abs() < 1e-12 {
                out.push("  certain:".to_string());
            } else if pips.is_empty() {
                out.push(format!("  {:.2}%:", o.chance * 100.0));
                out.extend(o.effects.iter().map(|l| format!("    {l}")));
                continue;
            } else {
                out.push(format!("  {:.1}% (d6 = {}):", o.chance * 100.0, pips.join(", ")));
            }
            out.extend(o.lines.iter().map(|l| format!("    {l}")));
        }
        if preview.unexplored > 0.0 {
            out.push(format!(
                "  ({:.4}% of the chance lies in branches too unlikely to follow)",
                preview.unexplored * 100.0
            ));
        }
        out.extend(preview.engagement_lines.iter().map(|l| format!("  {l}")));
        out
    }
}

#[derive(Serialize)]
struct StateReport {
    scenario: String,
    seed: u64,
    turn: u32,
    /// The date of the turn, where the scenario has a calendar.
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    phase: String,
    /// How the game ended, where it has (and the scenario has a victory block).
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<rules::strategic::campaign::Outcome>,
    active: String,
    units: Vec<ForceView>,
    fleets: Vec<rules::strategic::naval::FleetView>,
    /// The event log, every die included.
    events: Vec<String>,
    hash: String,
}

fn print_state(game: &GreatWar, json: bool) {
    let clock = game.clock();
    let ctx = game.ctx();
    let report = StateReport {
        scenario: game.scenario().name.clone(),
        seed: game.seed(),
        turn: clock.turn,
        date: game.scenario().calendar.map(|c| c.date(game.scenario().start_turn, clock.turn).to_string()),
        phase: format!("{:?}", clock.phase),
        outcome: ctx.outcome(),
        active: game.scenario().powers.get(usize::from(clock.active)).map_or_else(String::new, |p| p.id.clone()),
        units: ctx.views(),
        fleets: ctx.fleet_views(),
        events: game.events().iter().map(ToString::to_string).collect(),
        hash: game.hash().to_string(),
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        return;
    }
    println!("{} (seed {})", report.scenario, report.seed);
    for e in &report.events {
        println!("  {e}");
    }
    let date = report.date.as_ref().map_or_else(String::new, |d| format!(" ({d})"));
    println!("turn {}{date}, {} phase, {} to act", report.turn, report.phase, report.active);
    match report.outcome.as_ref() {
        Some(rules::strategic::campaign::Outcome::Surrender { winner }) => {
            println!("game over: alliance {winner} wins, every enemy power surrendered");
        }
        Some(rules::strategic::campaign::Outcome::Points { winner: Some(w), points }) => {
            println!("game over: alliance {w} wins on victory points, {} to {}", points[0], points[1]);
        }
        Some(rules::strategic::campaign::Outcome::Points { winner: None, points }) => {
            println!("game over: a draw on victory points, {} to {}", points[0], points[1]);
        }
        None => {}
    }
    println!("{:>4}  {:<10} {:<34} {:<30} {:<18} health  morale", "id", "power", "name", "kind", "place");
    for u in &report.units {
        println!(
            "{:>4}  {:<10} {:<34} {:<30} {:<18} {:>2}/{:<2}   {}",
            u.id,
            u.power,
            crate::truncate(&u.name, 34),
            crate::truncate(&u.kind, 30),
            u.place,
            u.health,
            u.max_health,
            u.morale.map_or_else(|| "-".to_string(), |m| m.to_string())
        );
    }
    for f in &report.fleets {
        let mut counts: Vec<(String, usize)> = Vec::new();
        for (_, k) in &f.ships {
            let k = format!("{k:?}");
            match counts.iter_mut().find(|(x, _)| *x == k) {
                Some(c) => c.1 += 1,
                None => counts.push((k, 1)),
            }
        }
        let list: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
        println!(
            "fleet {:>3} {:<10} {:<24} at {:<9} {}",
            f.id,
            f.power,
            crate::truncate(&f.name, 24),
            f.at.to_string(),
            list.join(", ")
        );
    }
    println!("state hash: {}", report.hash);
}

/// `umpire play SCENARIO --ai all|POWER,...` for the Great War: the named powers are played by the
/// AI at `--level`, the others by the `--orders` list; prints each AI power's time per turn and
/// the longest think slice.
pub fn play_ai(args: &crate::PlayArgs, which: &str) -> Result<(), Failure> {
    let s = Scenario::load(&args.scenario)?;
    let ids: Vec<String> = s.powers.iter().map(|p| p.id.clone()).collect();
    let mut players: Vec<Option<ai::Level>> = vec![None; ids.len()];
    if which.eq_ignore_ascii_case("all") {
        players.iter_mut().for_each(|p| *p = Some(args.level));
    } else {
        for entry in which.split(',').map(str::trim) {
            // `POWER:LEVEL` plays that power at its own level (one game between levels).
            let (name, level) = match entry.split_once(':') {
                Some((name, level)) => {
                    (name.trim(), level.trim().parse().map_err(|e| Failure(format!("--ai {entry}: {e}")))?)
                }
                None => (entry, args.level),
            };
            let i = ids.iter().position(|id| id.eq_ignore_ascii_case(name)).ok_or_else(|| {
                Failure(format!("--ai {name}: no such power in {} (all, or some of: {})", s.name, ids.join(", ")))
            })?;
            players[i] = Some(level);
        }
    }
    let orders = match &args.orders {
        Some(path) => crate::referee::load_orders::<GreatWar>(path)?,
        None => Vec::new(),
    };
    let slice = std::time::Duration::from_millis(args.slice_ms);
    let setup = ai::great_war::game::GwSetup {
        seed: args.seed,
        players: players.clone(),
        // With an AI, `--turns N` and `--rounds N` both stop the game after N turns.
        max_turns: args.rounds.or(args.turns),
        orders,
        slice,
    };
    let report = ai::great_war::game::play(&s, &setup).map_err(|e| {
        Failure(format!("{}: {}", crate::orders::label(e.index, &crate::orders::great_war(&e.order)), e.error))
    })?;
    if let Some((_, order, e)) = report.refused.first() {
        return Err(Failure(format!("the AI gave an illegal order ({}): {e}", crate::orders::great_war(order))));
    }
    if !args.json {
        for (i, level) in players.iter().enumerate() {
            let Some(level) = level else { continue };
            let p = rules::strategic::PowerId(i as u8);
            let (mean, max) = report.turn_time(p);
            println!(
                "AI {} ({level}): {} turns, think time per turn mean {:.1} ms, max {:.1} ms",
                ids[i],
                report.turn_times[i].len(),
                mean.as_secs_f64() * 1e3,
                max.as_secs_f64() * 1e3
            );
        }
        println!(
            "longest single think slice: {:.1} ms (slices of {} ms)",
            report.longest_slice.as_secs_f64() * 1e3,
            slice.as_millis()
        );
        let mut steps: Vec<_> = report.steps.0.iter().collect();
        steps.sort_by_key(|(kind, t)| (std::cmp::Reverse(t.longest), **kind));
        let list: Vec<String> = steps
            .iter()
            .map(|(kind, t)| {
                format!(
                    "{kind} {} × mean {:.2} max {:.1} ms",
                    t.count,
                    t.total.as_secs_f64() * 1e3 / f64::from(t.count.max(1)),
                    t.longest.as_secs_f64() * 1e3
                )
            })
            .collect();
        if !list.is_empty() {
            println!("the staffs' steps by kind, longest first: {}", list.join("; "));
        }
        let (score, _) = report.result();
        let v = report.verdict();
        println!(
            "war score: alliance 0 {}, alliance 1 {}; the tournament's verdict for alliance 0: surrender {}, \
points {:+}, war score {:+}{}",
            score[0],
            score[1],
            v.surrender,
            v.points,
            v.war_score,
            v.winner().map_or_else(|| ", a draw".to_string(), |w| format!(", alliance {w} ahead"))
        );
    }
    if let Some(out) = &args.save {
        crate::referee::write_save(&report.game, out)?;
    }
    print_state(&report.game, args.json);
    Ok(())
}

/// `umpire tournament` on a Great War scenario: pairs of games on one seed with the alliances
/// swapped, each pair won by the level that did better in the same seat ([`TOURNAMENT_METHOD`]).
pub fn tournament(
    scenario: &Path,
    games: u32,
    a: ai::Level,
    b: ai::Level,
    seed: u64,
    slice_ms: u64,
) -> Result<(), Failure> {
    let s = Scenario::load(scenario)?;
    let start = std::time::Instant::now();
    let slice = std::time::Duration::from_millis(slice_ms);
    let pairs = games.div_ceil(2);
    let t = ai::great_war::game::tournament(&s, a, b, pairs, seed, slice);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} games of {a} v {b} on {} ({} pairs, seeds {seed}..{}, alliances swapped in each pair)",
        t.games,
        s.name,
        t.pairs,
        seed + u64::from(pairs)
    );
    println!(
        "pairs (the better result in the same seat): {a} {} ({:.0}%), {b} {}, level {}",
        t.a_pairs,
        100.0 * f64::from(t.a_pairs) / f64::from(t.pairs.max(1)),
        t.b_pairs,
        t.level_pairs
    );
    println!(
        "games won by the scenario alone: {a} {} ({:.0}%), {b} {}, draws {}",
        t.a_wins,
        100.0 * f64::from(t.a_wins) / f64::from(t.games.max(1)),
        t.b_wins,
        t.draws
    );
    for (i, g) in t.a_games_as.iter().enumerate() {
        let w = t.a_wins_as[i];
        println!("  {a} as alliance {i}: {w} wins of {g}");
    }
    println!(
        "AI time per power per turn: mean {:.1} ms, max {:.1} ms; longest slice {:.1} ms (slices of {slice_ms} ms)",
        t.mean_turn.as_secs_f64() * 1e3,
        t.max_turn.as_secs_f64() * 1e3,
        t.longest_slice.as_secs_f64() * 1e3
    );
    for (level, times) in [a, b].iter().zip(t.by_level) {
        println!(
            "  {level}: mean {:.1} ms, max {:.1} ms per power per turn; longest slice {:.1} ms",
            times.mean_turn.as_secs_f64() * 1e3,
            times.max_turn.as_secs_f64() * 1e3,
            times.longest_slice.as_secs_f64() * 1e3
        );
    }
    if t.refused > 0 {
        return Err(Failure(format!("the AI gave {} illegal orders", t.refused)));
    }
    println!("{:.2} s in all, {:.2} games per second", secs, f64::from(t.games) / secs.max(1e-9));
    Ok(())
}

/// How a Great War tournament judges (shown in `umpire tournament --help`).
pub const TOURNAMENT_METHOD: &str = "Great War scenarios are played in pairs of games on one seed (pair i on \
seed SEED + i; --games N plays ceil(N/2) pairs): A takes alliance 0 in the first game and alliance 1 in the \
second. Each game is judged from alliance 0's side by the scenario's own victory conditions: first a surrender \
of every enemy power at war, then the victory-point margin at the end (the engine's victory points); where \
those are level, or the scenario has no victory block, by the war score (losses inflicted, provinces and ships \
taken). A wins the pair when alliance 0 did better with A in its seat than with B there (which is also A doing \
better than B as alliance 1): a scenario that favours one alliance gives the same head start to whoever holds \
it, so only the play decides. The pairs won are the tally; the games won by the scenario alone are shown too.";
