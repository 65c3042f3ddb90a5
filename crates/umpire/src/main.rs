//! `umpire`: the headless referee. Validates data files, plays and replays battles, previews orders.
//!
//! Exit codes: 0 success, 2 bad input or an illegal order (one clear line on stderr).

use clap::{Parser, Subcommand};
use rules::data::{DataError, parse_ron, read_text};
use rules::tactical::config::RulesConfig;
use rules::tactical::scenario::parse_map;
use rules::tactical::units::UnitTable;
use rules::tactical::{Battle, Order, SaveGame, Scenario};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "umpire",
    version,
    about = "Kriegsspiel referee: validate, play, replay and preview battles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check scenarios, maps, unit tables, rule tables, order lists and saves.
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Play a scenario: apply a RON list of orders, write the save, print the final state.
    Play {
        scenario: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// RON list of orders, applied in turn order.
        #[arg(long)]
        orders: Option<PathBuf>,
        /// Where to write the save.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Print JSON for machines.
        #[arg(long)]
        json: bool,
    },
    /// Replay a save, checking every recorded state hash; print the final state.
    Replay {
        save: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Print what the last order of a list would do, after applying the ones before it.
    Preview {
        scenario: PathBuf,
        #[arg(long)]
        orders: PathBuf,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long)]
        json: bool,
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
        Command::Play {
            scenario,
            seed,
            orders,
            save,
            json,
        } => play(&scenario, seed, orders.as_deref(), save.as_deref(), json),
        Command::Replay { save, json } => replay(&save, json),
        Command::Preview {
            scenario,
            orders,
            seed,
            json,
        } => preview(&scenario, &orders, seed, json),
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
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1);
        } else if rest.starts_with("#![") {
            rest = rest.split_once(']').map_or("", |x| x.1);
        } else {
            break;
        }
    }
    if rest.starts_with('[') {
        return Some("orders");
    }
    let head: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    match head.as_str() {
        "Scenario" => Some("scenario"),
        "Map" => Some("map"),
        "UnitTable" => Some("unit table"),
        "RulesConfig" => Some("rules"),
        "SaveGame" => Some("save"),
        _ => None,
    }
}

fn validate(files: &[PathBuf]) -> Result<(), Failure> {
    for path in files {
        let label = path.to_string_lossy();
        let text = read_text(path)?;
        let kind = kind_of(&text).ok_or_else(|| {
            Failure(format!(
                "{label}:1:1: not a Kriegsspiel file (expected Scenario(..), Map(..), UnitTable(..), RulesConfig(..), SaveGame(..) or a list of orders)"
            ))
        })?;
        let summary = match kind {
            "scenario" => {
                let s = Scenario::load(path)?;
                format!("{} units on a {} × {} map", s.units.len(), s.map.width, s.map.height)
            }
            "map" => {
                let m = parse_map(&label, &text)?;
                format!("{} × {} cells", m.width, m.height)
            }
            "unit table" => format!("{} unit types", UnitTable::parse(&label, &text)?.types.len()),
            "rules" => {
                RulesConfig::parse(&label, &text)?;
                "rule numbers".to_string()
            }
            "save" => {
                let save = SaveGame::from_text(&label, &text)?;
                let battle = Battle::replay(&save).map_err(|e| Failure(format!("{label}: {e}")))?;
                format!("{} orders replayed, hash {}", save.orders.len(), battle.hash())
            }
            _ => format!("{} orders", parse_ron::<Vec<Order>>(&label, &text)?.len()),
        };
        println!("{label}: ok ({kind}: {summary})");
    }
    Ok(())
}

fn load_orders(path: &Path) -> Result<Vec<Order>, Failure> {
    let text = read_text(path)?;
    Ok(parse_ron(&path.to_string_lossy(), &text)?)
}

fn apply_all(battle: &mut Battle, orders: &[Order]) -> Result<(), Failure> {
    for (i, order) in orders.iter().enumerate() {
        battle
            .apply(order.clone())
            .map_err(|e| Failure(format!("order {} ({}): {e}", i + 1, order.name())))?;
    }
    Ok(())
}

fn play(scenario: &Path, seed: u64, orders: Option<&Path>, save: Option<&Path>, json: bool) -> Result<(), Failure> {
    let s = Scenario::load(scenario)?;
    let mut battle = Battle::new(&s, seed);
    if let Some(path) = orders {
        apply_all(&mut battle, &load_orders(path)?)?;
    }
    if let Some(out) = save {
        std::fs::write(out, battle.save().to_text())
            .map_err(|e| Failure(format!("{}: cannot write the save: {e}", out.display())))?;
    }
    print_state(&battle, json);
    Ok(())
}

fn replay(path: &Path, json: bool) -> Result<(), Failure> {
    let label = path.to_string_lossy();
    let save = SaveGame::from_text(&label, &read_text(path)?)?;
    let battle = Battle::replay(&save).map_err(|e| Failure(format!("{label}: {e}")))?;
    print_state(&battle, json);
    Ok(())
}

fn preview(scenario: &Path, orders: &Path, seed: u64, json: bool) -> Result<(), Failure> {
    let s = Scenario::load(scenario)?;
    let mut list = load_orders(orders)?;
    let last = list
        .pop()
        .ok_or_else(|| Failure(format!("{}: the order list is empty", orders.display())))?;
    let mut battle = Battle::new(&s, seed);
    apply_all(&mut battle, &list)?;
    let preview = battle
        .preview(&last)
        .map_err(|e| Failure(format!("order {} ({}): {e}", list.len() + 1, last.name())))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&preview).unwrap_or_default());
    } else {
        println!("Preview of {:?}", last);
        for line in preview.lines() {
            println!("  {line}");
        }
    }
    Ok(())
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
        hash: battle.hash().to_string(),
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
        return;
    }
    println!("{} (seed {})", report.scenario, report.seed);
    match outcome {
        Some(o) => println!(
            "battle over: {} wins ({:?}) in round {}",
            o.winner.name(),
            o.reason,
            o.round
        ),
        None => println!(
            "turn {} (round {}), {} to move, phase {}",
            report.turn, report.round, report.active, report.phase
        ),
    }
    println!(
        "{:>4}  {:<5} {:<16} {:<26} {:<9} {:<7} health  status",
        "id", "side", "type", "name", "cell", "facing"
    );
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
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(['…']).collect()
    }
}
