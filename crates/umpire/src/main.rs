//! `umpire`: the headless referee. Validates data files, plays and replays battles, previews orders.
//!
//! Exit codes: 0 success, 2 bad input or an illegal order (one clear line on stderr).

use clap::{Parser, Subcommand};
use referee::Refereed;
use rules::data::{DataError, parse_orders, read_text};
use rules::strategic::GreatWar;
use rules::tactical::config::RulesConfig;
use rules::tactical::scenario::parse_map_with;
use rules::tactical::units::UnitTable;
use rules::tactical::{Battle, Order, Scenario};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod campaign;
mod game_save;
mod great_war;
mod map;
mod orders;
mod referee;
mod rules_ref;

#[derive(Parser)]
#[command(
    name = "umpire",
    version,
    about = "Kriegsspiel referee: validate, play, replay and preview battles and Great War games",
    long_about = "Kriegsspiel referee: validates every kind of game file, plays scenarios with a list of orders \
(or the AI), replays saves checking every state hash, and previews orders. Battle (Napoleonic) and Great War \
files are told apart by their contents. Exit code 0 on success, 2 on bad input or an illegal order, with one \
`path:line:col: what is wrong` or `order N (what it does): why` line on stderr.",
    after_long_help = orders::VOCABULARY
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options of `umpire play`.
#[derive(clap::Args)]
pub(crate) struct PlayArgs {
    /// The scenario file (a battle's `Scenario(..)` or a `GreatWarScenario(..)`).
    pub(crate) scenario: PathBuf,
    /// Seed of the dice: the same seed and orders give the same game.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// RON list of orders, applied in turn order (for the sides without an AI).
    #[arg(long)]
    pub(crate) orders: Option<PathBuf>,
    /// Sides or powers played by the AI: all, red or blue in a battle; all or a comma-separated
    /// list of power IDs (e.g. germany,austria) in the Great War, each optionally with its own
    /// level (e.g. gb:marshal,germany:random).
    #[arg(long)]
    pub(crate) ai: Option<String>,
    /// AI level: random, greedy, recruit, veteran, marshal.
    #[arg(long, default_value = "veteran")]
    pub(crate) level: ai::Level,
    /// Stop after this many rounds (battle) or turns (Great War).
    #[arg(long)]
    pub(crate) rounds: Option<u32>,
    /// After the orders (if any), every player passes for this many turns (a Great War game
    /// without orders and without this: until it ends); with `--ai`, the AI plays this many turns.
    #[arg(long)]
    pub(crate) turns: Option<u32>,
    /// The AI thinks in slices of this many milliseconds (its decisions do not depend on it).
    #[arg(long, default_value_t = 50)]
    pub(crate) slice_ms: u64,
    /// Where to write the save.
    #[arg(long)]
    pub(crate) save: Option<PathBuf>,
    /// Print JSON for machines (the final state with the event log).
    #[arg(long)]
    pub(crate) json: bool,
}

/// Which sides of a battle the AI plays.
#[derive(Clone, Copy, Debug)]
enum AiSides {
    All,
    Red,
    Blue,
}

impl AiSides {
    fn parse(s: &str) -> Result<AiSides, Failure> {
        match s.to_ascii_lowercase().as_str() {
            "all" => Ok(AiSides::All),
            "red" => Ok(AiSides::Red),
            "blue" => Ok(AiSides::Blue),
            _ => Err(Failure(format!("--ai {s}: a battle's AI plays all, red or blue"))),
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check scenarios, maps, unit tables, rule tables, order lists and saves.
    Validate {
        /// The files to check, of any kind; each is told by its contents.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Play a scenario: apply a RON list of orders (and let AI sides play), write the save,
    /// print the final state.
    Play(PlayArgs),
    /// Replay a save, checking every recorded state hash; print the final state.
    Replay {
        /// The save file (of a battle or a Great War game).
        save: PathBuf,
        /// Print JSON for machines (the final state with the event log).
        #[arg(long)]
        json: bool,
    },
    /// Play seeded AI games between two levels, swapping sides, and print the tally.
    #[command(after_help = great_war::TOURNAMENT_METHOD)]
    Tournament {
        /// The scenario to play (a battle, or a Great War scenario: the levels take the two
        /// alliances in turn).
        scenario: PathBuf,
        /// How many games (Great War: in pairs with the alliances swapped, so rounded up to even).
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// The first AI level: random, greedy, recruit, veteran, marshal.
        #[arg(long)]
        a: ai::Level,
        /// The second AI level.
        #[arg(long)]
        b: ai::Level,
        /// Seed of the first game; game i uses seed + i (Great War: pair i uses seed + i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop each game after this many rounds.
        #[arg(long)]
        rounds: Option<u32>,
        /// Great War: the AI thinks in slices of this many milliseconds (its decisions do not
        /// depend on it; the longest slice is reported).
        #[arg(long, default_value_t = 8)]
        slice_ms: u64,
    },
    /// Print what the last order of a list would do, after applying the ones before it.
    Preview {
        /// The scenario file (battle or Great War).
        scenario: PathBuf,
        /// RON list of orders; the last one is previewed.
        #[arg(long)]
        orders: PathBuf,
        /// Seed of the dice for the orders before the last.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// The rules reference: one entry by rule ID, --list, or --markdown (English or Russian).
    Rules(rules_ref::RulesArgs),
    /// Napoleonic campaigns: `campaign battle SAVE --out FILE` writes the waiting battle's
    /// scenario (after the cut). Campaign files also work with validate, play, replay and preview.
    Campaign {
        #[command(subcommand)]
        command: campaign::CampaignCommand,
    },
    /// Look up places and counts on a Great War map drawn from geography (maps/europe_1914.ron).
    Map {
        #[command(subcommand)]
        command: map::MapCommand,
    },
}

/// A failure with the one line to print.
struct Failure(String);

impl From<DataError> for Failure {
    fn from(e: DataError) -> Self {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate { files } => validate(&files),
        Command::Play(args) => play(&args),
        Command::Tournament { scenario, games, a, b, seed, rounds, slice_ms } => {
            if matches!(is_great_war(&scenario), Ok(true)) {
                great_war::tournament(&scenario, games, a, b, seed, slice_ms)
            } else {
                tournament(&scenario, games, a, b, seed, rounds)
            }
        }
        Command::Replay { save, json } => replay(&save, json),
        Command::Preview { scenario, orders, seed, json } => preview(&scenario, &orders, seed, json),
        Command::Rules(args) => rules_ref::run(&args).map_err(Failure),
        Command::Map { command } => map::run(command),
        Command::Campaign { command } => campaign::run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(line)) => {
            eprintln!("error: {line}");
            ExitCode::from(2)
        }
    }
}

/// What a RON file holds, from its first struct name (or `[` for an order list).
fn kind_of(text: &str) -> Option<&'static str> {
    match rules::source::struct_name(text).0 {
        "[" => Some("orders"),
        "Scenario" => Some("scenario"),
        "Map" => Some("map"),
        "UnitTable" => Some("unit table"),
        "RulesConfig" => Some("rules"),
        "SaveGame" => Some("save"),
        "GreatWarScenario" => Some("gw scenario"),
        "GreatWarMap" => Some("gw map"),
        "GreatWarUnits" => Some("gw units"),
        "GreatWarRules" => Some("gw rules"),
        "GreatWarAviation" => Some("gw aviation"),
        "GreatWarSave" => Some("gw save"),
        "CampaignScenario" => Some("campaign scenario"),
        "CampaignMap" => Some("campaign map"),
        "CampaignRules" => Some("campaign rules"),
        "CampaignSave" => Some("campaign save"),
        "SavedGame" => Some("game save"),
        _ => None,
    }
}

fn validate(files: &[PathBuf]) -> Result<(), Failure> {
    for path in files {
        let label = path.to_string_lossy();
        let text = read_text(path)?;
        let kind = kind_of(&text).ok_or_else(|| {
            Failure(format!(
                "{label}:1:1: not a Kriegsspiel file (expected Scenario(..), Map(..), UnitTable(..), RulesConfig(..), SaveGame(..), GreatWarScenario(..), GreatWarMap(..), GreatWarUnits(..), GreatWarRules(..), GreatWarAviation(..), GreatWarSave(..), CampaignScenario(..), CampaignMap(..), CampaignRules(..), CampaignSave(..), the game's SavedGame(..) or a list of orders)"
            ))
        })?;
        let summary = match kind {
            k if k.starts_with("gw ") => great_war::validate(k, path, &text)?,
            k if k.starts_with("campaign ") => campaign::validate(k, path, &text)?,
            "scenario" => {
                let s = Scenario::load(path)?;
                format!("{} units on a {} × {} map", s.units.len(), s.map.width, s.map.height)
            }
            "map" => {
                let m = parse_map_with(&label, &text, &RulesConfig::builtin())?; // T-TERR-3 under the shipped rule numbers
                format!("{} × {} cells", m.width, m.height)
            }
            "unit table" => format!("{} unit types", UnitTable::parse(&label, &text)?.types.len()),
            "rules" => {
                RulesConfig::parse(&label, &text)?;
                "rule numbers".to_string()
            }
            "save" => referee::validate_save::<Battle>(&label, &text)?,
            "game save" => {
                let inner = game_save::inner(&label, &text)?;
                let summary = match &inner {
                    game_save::Inner::Battle(t) => referee::validate_save::<Battle>(&label, t)?,
                    game_save::Inner::GreatWar(t) => referee::validate_save::<GreatWar>(&label, t)?,
                    game_save::Inner::Campaign(t) => referee::validate_save::<rules::campaign::Campaign>(&label, t)?,
                };
                format!("the game's save of a {}: {summary}", inner.scene())
            }
            _ => match parse_orders::<Order>(&label, &text) {
                Ok(list) => format!("{} battle orders", list.len()),
                Err(battle_error) => match parse_orders::<rules::strategic::Order>(&label, &text) {
                    Ok(list) => format!("{} Great War orders", list.len()),
                    Err(_) if parse_orders::<rules::campaign::Order>(&label, &text).is_ok() => {
                        let n = parse_orders::<rules::campaign::Order>(&label, &text).map_or(0, |l| l.len());
                        format!("{n} campaign orders")
                    }
                    // Report the reading that got further into the file.
                    Err(gw_error) if (gw_error.line, gw_error.col) > (battle_error.line, battle_error.col) => {
                        return Err(gw_error.into());
                    }
                    Err(_) => return Err(battle_error.into()),
                },
            },
        };
        println!("{label}: ok ({kind}: {summary})");
    }
    Ok(())
}

/// Whether a scenario or save file is of the Great War.
fn is_great_war(path: &Path) -> Result<bool, Failure> {
    Ok(kind_of(&read_text(path)?).is_some_and(|k| k.starts_with("gw ")))
}

/// Whether a scenario or save file is of a campaign.
fn is_campaign(path: &Path) -> Result<bool, Failure> {
    Ok(kind_of(&read_text(path)?).is_some_and(|k| k.starts_with("campaign ")))
}

fn play(args: &PlayArgs) -> Result<(), Failure> {
    if is_campaign(&args.scenario)? {
        let ai = match args.ai.as_deref().map(AiSides::parse).transpose()? {
            None => [None, None],
            Some(AiSides::All) => [Some(args.level), Some(args.level)],
            Some(AiSides::Red) => [Some(args.level), None],
            Some(AiSides::Blue) => [None, Some(args.level)],
        };
        let slice = std::time::Duration::from_millis(args.slice_ms);
        return campaign::play(
            &args.scenario,
            args.seed,
            args.orders.as_deref(),
            ai,
            slice,
            args.save.as_deref(),
            args.json,
        );
    }
    if is_great_war(&args.scenario)? {
        if let Some(ai) = &args.ai {
            return great_war::play_ai(args, ai);
        }
        return referee::play::<GreatWar>(
            &args.scenario,
            args.seed,
            args.orders.as_deref(),
            args.save.as_deref(),
            args.json,
            args.turns,
        );
    }
    let players = match args.ai.as_deref().map(AiSides::parse).transpose()? {
        None => {
            return referee::play::<Battle>(
                &args.scenario,
                args.seed,
                args.orders.as_deref(),
                args.save.as_deref(),
                args.json,
                args.turns,
            );
        }
        Some(AiSides::All) => [Some(args.level), Some(args.level)],
        Some(AiSides::Red) => [Some(args.level), None],
        Some(AiSides::Blue) => [None, Some(args.level)],
    };
    let (seed, rounds, json) = (args.seed, args.rounds, args.json);
    let slice = std::time::Duration::from_millis(args.slice_ms);
    let scenario = args.scenario.as_path();
    let save = args.save.as_deref();
    let orders = args.orders.as_deref();
    let s = Scenario::load(scenario)?;
    let orders = match orders {
        Some(path) => referee::load_orders::<Battle>(path)?,
        None => Vec::new(),
    };
    let battle = {
        let setup = ai::game::GameSetup { seed, players, max_rounds: rounds, orders, slice, weights: [None, None] };
        let report = ai::game::play(&s, &setup)
            .map_err(|e| Failure(format!("{}: {}", orders::label(e.index, &orders::battle(&e.order)), e.error)))?;
        if let Some((order, e)) = report.refused.first() {
            return Err(Failure(format!("the AI gave an illegal order ({}): {e}", orders::battle(order))));
        }
        if !json {
            for side in [rules::tactical::Side::Red, rules::tactical::Side::Blue] {
                if let Some(level) = players[side.index()] {
                    let (mean, max) = report.turn_time(side);
                    println!(
                        "AI {} ({level}): {} turns, think time per turn mean {:.1} ms, max {:.1} ms",
                        side.name(),
                        report.turn_times[side.index()].len(),
                        mean.as_secs_f64() * 1e3,
                        max.as_secs_f64() * 1e3
                    );
                }
            }
            println!(
                "longest single think slice: {:.1} ms (slices of {} ms)",
                report.longest_slice.as_secs_f64() * 1e3,
                slice.as_millis()
            );
        }
        report.battle
    };
    if let Some(out) = save {
        referee::write_save(&battle, out)?;
    }
    battle.print_state(json);
    Ok(())
}

fn tournament(
    scenario: &Path,
    games: u32,
    a: ai::Level,
    b: ai::Level,
    seed: u64,
    rounds: Option<u32>,
) -> Result<(), Failure> {
    let s = Scenario::load(scenario)?;
    let start = std::time::Instant::now();
    let t = ai::game::tournament(&s, a, b, games, seed, rounds);
    let secs = start.elapsed().as_secs_f64();
    println!("{} games of {} v {} on {} (seeds {seed}..{})", t.games, a, b, s.name, seed + u64::from(games));
    println!(
        "{a}: {} wins ({:.0}%), {b}: {} wins, draws: 0, unfinished: {}",
        t.a_wins,
        100.0 * f64::from(t.a_wins) / f64::from(t.games.max(1)),
        t.b_wins,
        t.unfinished
    );
    for (i, side) in ["red", "blue"].iter().enumerate() {
        let g = t.a_games_as[i];
        let w = t.a_wins_as[i];
        println!("  {a} as {side}: {w} wins, {} losses of {g}", g - w);
    }
    println!("{:.2} s in all, {:.2} games per second", secs, f64::from(t.games) / secs.max(1e-9));
    Ok(())
}

fn replay(path: &Path, json: bool) -> Result<(), Failure> {
    let text = read_text(path)?;
    // The game's own saves: the engine's save inside the envelope.
    if kind_of(&text) == Some("game save") {
        return match game_save::inner(&path.to_string_lossy(), &text)? {
            game_save::Inner::Battle(t) => referee::replay::<Battle>(path, &t, json),
            game_save::Inner::GreatWar(t) => referee::replay::<GreatWar>(path, &t, json),
            game_save::Inner::Campaign(t) => referee::replay::<rules::campaign::Campaign>(path, &t, json),
        };
    }
    if kind_of(&text) == Some("gw save") {
        return referee::replay::<GreatWar>(path, &text, json);
    }
    if kind_of(&text) == Some("campaign save") {
        return referee::replay::<rules::campaign::Campaign>(path, &text, json);
    }
    referee::replay::<Battle>(path, &text, json)
}

fn preview(scenario: &Path, orders: &Path, seed: u64, json: bool) -> Result<(), Failure> {
    if is_campaign(scenario)? {
        return referee::preview::<rules::campaign::Campaign>(scenario, orders, seed, json);
    }
    if is_great_war(scenario)? {
        return referee::preview::<GreatWar>(scenario, orders, seed, json);
    }
    referee::preview::<Battle>(scenario, orders, seed, json)
}

impl Refereed for Battle {
    fn load_scenario(path: &Path) -> Result<Scenario, DataError> {
        Scenario::load(path)
    }

    fn describe(order: &Order) -> String {
        orders::battle(order)
    }

    fn print_state(&self, json: bool) {
        print_state(self, json);
    }

    fn preview_lines(preview: &rules::tactical::Preview) -> Vec<String> {
        preview.lines().iter().map(|line| format!("  {line}")).collect()
    }
}

#[derive(Serialize)]
struct StateReport {
    scenario: String,
    seed: u64,
    turn: u32,
    round: u32,
    active: String,
    phase: String,
    winner: Option<String>,
    reason: Option<String>,
    units: Vec<rules::tactical::UnitView>,
    /// The event log, every die included.
    events: Vec<String>,
    hash: String,
}

fn print_state(battle: &Battle, json: bool) {
    let clock = battle.clock();
    let outcome = battle.outcome();
    let report = StateReport {
        scenario: battle.scenario().name.clone(),
        seed: battle.seed(),
        turn: clock.turn,
        round: clock.round,
        active: clock.active.name().to_string(),
        phase: format!("{:?}", clock.phase),
        winner: outcome.map(|o| o.winner.name().to_string()),
        reason: outcome.map(|o| format!("{:?}", o.reason)),
        units: battle.units(None),
        events: battle.events().iter().map(|e| battle.describe(e)).collect(),
        hash: battle.hash().to_string(),
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        return;
    }
    println!("{} (seed {})", report.scenario, report.seed);
    for e in &report.events {
        println!("  {e}");
    }
    match outcome {
        Some(o) => println!("battle over: {} wins ({:?}) in round {}", o.winner.name(), o.reason, o.round),
        None => {
            println!("turn {} (round {}), {} to move, phase {}", report.turn, report.round, report.active, report.phase)
        }
    }
    println!("{:>4}  {:<5} {:<16} {:<26} {:<9} {:<7} health  status", "id", "side", "type", "name", "cell", "facing");
    for u in &report.units {
        println!(
            "{:>4}  {:<5} {:<16} {:<26} {:<9} {:<7} {:>2}/{:<2}   {}{}",
            u.id.0,
            u.side.name(),
            u.unit_type,
            truncate(&u.name, 26),
            u.cell.to_string(),
            u.facing.name(),
            u.health,
            u.max_health,
            u.status,
            if u.skirmish { " (skirmish)" } else { "" }
        );
    }
    println!("state hash: {}", report.hash);
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n { s.to_string() } else { s.chars().take(n - 1).chain(['…']).collect() }
}
