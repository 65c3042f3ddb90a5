//! The referee for Napoleonic campaigns: validate, play (with the campaign AI), replay, preview,
//! and `umpire campaign battle SAVE --out FILE`, which writes the tactical scenario of the
//! waiting battle (after the cut) to be played or inspected alone.

use crate::Failure;
use crate::referee::{self, Refereed};
use rules::Game;
use rules::campaign::{Campaign, CampaignMap, CampaignRules, CampaignSave, CampaignScenario, Order, Preview};
use rules::data::DataError;
use rules::data::{read_text, to_ron};
use rules::tactical::Side;
use rules::view::{Sight, Viewer};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// `umpire campaign …`.
#[derive(clap::Subcommand)]
pub enum CampaignCommand {
    /// Write the tactical scenario of the battle waiting in a campaign save (after the cut, with
    /// the choices made so far), as a resolved `Scenario(..)` that `umpire play` and the game load.
    Battle {
        /// The campaign save (`CampaignSave(..)`).
        save: PathBuf,
        /// Where to write the scenario.
        #[arg(long)]
        out: PathBuf,
    },
    /// Report a battle fought alone (its `SaveGame(..)`, from the scenario `battle` wrote) to the
    /// campaign: sides that have not chosen take the defaults, the battle save is replayed and
    /// checked, its result applied; the campaign save goes to `--out`.
    Resolve {
        /// The campaign save with the waiting battle.
        save: PathBuf,
        /// The battle's save.
        #[arg(long)]
        battle: PathBuf,
        /// Where to write the campaign save.
        #[arg(long)]
        out: PathBuf,
    },
}

/// Validates one campaign file of the given kind; returns the summary line.
pub fn validate(kind: &str, path: &Path, text: &str) -> Result<String, Failure> {
    let label = path.to_string_lossy();
    Ok(match kind {
        "campaign scenario" => {
            let s = CampaignScenario::load(path)?;
            let units: usize = s.armies.iter().map(|a| a.units.len()).sum();
            format!(
                "{} armies of {units} units on a {} × {} hex map, {} key hexes, {} turns",
                s.armies.len(),
                s.map.width(),
                s.map.height(),
                s.victory.key_hexes.len(),
                s.victory.turns
            )
        }
        "campaign map" => {
            let m = CampaignMap::parse(&label, text)?;
            format!(
                "{} × {} hexes, {} river hexsides, {} places",
                m.width(),
                m.height(),
                m.rivers.len(),
                m.places.len()
            )
        }
        "campaign rules" => {
            CampaignRules::parse(&label, text)?;
            "campaign rule numbers".to_string()
        }
        _ => {
            let save = CampaignSave::from_text(&label, text)?;
            let game = Campaign::replay(&save).map_err(|e| Failure(format!("{label}: {e}")))?;
            let battles = save.orders.iter().filter(|o| matches!(o, Order::BattleResult { .. })).count();
            format!(
                "{} orders replayed ({battles} battles embedded, each replayed), hash {}",
                save.orders.len(),
                game.hash()
            )
        }
    })
}

/// Plays a campaign: the orders first, then the AI for its sides (the others pass); writes the save.
pub fn play(
    scenario: &Path,
    seed: u64,
    orders: Option<&Path>,
    ai: [Option<ai::Level>; 2],
    slice: std::time::Duration,
    save: Option<&Path>,
    json: bool,
) -> Result<(), Failure> {
    let s = CampaignScenario::load(scenario)?;
    let start = std::time::Instant::now();
    let mut game = Campaign::new(&s, seed);
    if let Some(path) = orders {
        referee::apply_all(&mut game, &referee::load_orders::<Campaign>(path)?)?;
    }
    let mut players = [Side::Red, Side::Blue].map(|side| {
        let level = ai[side.index()].or(ai[side.other().index()]).unwrap_or(ai::Level::Recruit);
        ai::campaign::CampaignAi::with_battle_players(side, level, ai)
    });
    if ai.iter().any(Option::is_some) {
        while !game.is_over() && game.orders().len() < 100_000 {
            // The referee moderates: a question the orders' moderator left open takes the
            // engine's answer.
            if let Some(ruling) = game.default_ruling() {
                game.apply(ruling).map_err(|e| Failure(format!("the engine's ruling: {e}")))?;
                continue;
            }
            let Some(side) = game.active_player() else { break };
            // A battle waiting to be reported is fought by the AI even for a side that passes.
            let fights = game.state().battle.as_ref().is_some_and(|b| b.chooser().is_none());
            let order = if ai[side.index()].is_some() || fights {
                // A battle fought out whole for both sides is played as the umpire (its dice).
                let ctx = if fights { game.ctx() } else { game.ctx_as(Viewer::Player(side)) };
                let Some(order) = players[side.index()].decide(&ctx, slice) else {
                    break;
                };
                order
            } else {
                game.pass()
            };
            game.apply(order.clone())
                .map_err(|e| Failure(format!("the campaign AI gave an illegal order ({}): {e}", order.name())))?;
        }
    }
    let mut stats = ai::campaign::Stats::default();
    for p in &players {
        stats.battles += p.stats.battles;
        stats.longest_slice = stats.longest_slice.max(p.stats.longest_slice);
        stats.longest_think = stats.longest_think.max(p.stats.longest_think);
    }
    if let Some(out) = save {
        std::fs::write(out, game.save().to_text())
            .map_err(|e| Failure(format!("{}: cannot write the save: {e}", out.display())))?;
    }
    if !json && ai.iter().any(Option::is_some) {
        println!(
            "campaign AI: {} orders, {} grid battles fought by the battle AI, {} auto-battles, {:.2} s in all, longest campaign-AI slice {:.1} ms (slices of {} ms), longest battle-AI slice {:.1} ms",
            game.orders().len(),
            stats.battles,
            game.events().iter().filter(|e| matches!(e, rules::campaign::Event::AutoBattleWon { .. })).count(),
            start.elapsed().as_secs_f64(),
            stats.longest_think.as_secs_f64() * 1e3,
            slice.as_millis(),
            stats.longest_slice.as_secs_f64() * 1e3
        );
    }
    print_state(&game, json);
    Ok(())
}

impl Refereed for Campaign {
    fn load_scenario(path: &Path) -> Result<CampaignScenario, DataError> {
        CampaignScenario::load(path)
    }

    fn describe(order: &Order) -> String {
        match order {
            Order::Move { army, path } => {
                let to = path.last().map_or_else(|| "nowhere".to_string(), ToString::to_string);
                format!("move {army} to {to} ({} hexes)", path.len())
            }
            Order::Intercept { army, on } => {
                format!("{army} {} the intercept order", if *on { "takes" } else { "drops" })
            }
            Order::Split { army, units } => format!("detach {} unit(s) from {army}", units.len()),
            Order::Merge { army, into } => format!("join {army} to {into}"),
            Order::Replenish { army } => format!("{army} replenishes its special units"),
            Order::Directive { .. } => "send a directive".to_string(),
            Order::ChooseForces(f) => format!("field {} unit(s) with {} redoubt(s)", f.units.len(), f.redoubts),
            Order::BattleResult { .. } => "report the battle".to_string(),
            Order::Fight(o) => format!("in the battle: {}", <rules::tactical::Battle as Refereed>::describe(o)),
            Order::EndTurn => "end the turn".to_string(),
            Order::Moderate { asks } => crate::orders::moderated(asks),
            Order::Rule(r) => format!("the moderator rules {r:?}"),
        }
    }

    fn print_state(&self, json: bool) {
        print_state(self, json);
    }

    fn preview_lines(preview: &Preview) -> Vec<String> {
        let mut lines = Vec::new();
        if !preview.reach.is_empty() {
            let reach: Vec<String> = preview.reach.iter().map(|(h, mp)| format!("{h}:{mp}")).collect();
            lines.push(format!("  reach (hex:MP): {}", reach.join(" ")));
        }
        if !preview.interception_risk.is_empty() {
            let risk: Vec<String> = preview.interception_risk.iter().map(ToString::to_string).collect();
            lines.push(format!("  interception risk (T-STRAT-2): {}", risk.join(", ")));
        }
        if let Some(b) = &preview.battle {
            lines.push(format!(
                "  battle at {}: {:?} attacks, {} v {} units, {} v {} fight{}",
                b.at,
                b.attacker,
                b.units[0],
                b.units[1],
                b.fielded[0],
                b.fielded[1],
                match b.attacker_wins {
                    Some(p) => format!(", auto-battle: the attacker wins with probability {p:.0}"),
                    None => ", fought on the grid".to_string(),
                }
            ));
        }
        lines.extend(preview.events.iter().map(|e| format!("  {e}")));
        if let Some(fight) = &preview.fight {
            lines.extend(<rules::tactical::Battle as Refereed>::preview_lines(fight));
        }
        lines
    }
}

fn load_save(path: &Path) -> Result<Campaign, Failure> {
    let label = path.to_string_lossy();
    let text = read_text(path)?;
    let s = CampaignSave::from_text(&label, &text)?;
    Campaign::replay(&s).map_err(|e| Failure(format!("{label}: {e}")))
}

/// `umpire campaign battle SAVE --out FILE`, `umpire campaign resolve SAVE --battle B --out FILE`.
pub fn run(command: CampaignCommand) -> Result<(), Failure> {
    match command {
        CampaignCommand::Resolve { save, battle, out } => {
            let mut game = load_save(&save)?;
            while game.state().battle.as_ref().is_some_and(|b| b.chooser().is_some()) {
                let order = game.pass();
                game.apply(order).map_err(|e| Failure(e.to_string()))?;
            }
            let label = battle.to_string_lossy();
            let fought = rules::tactical::SaveGame::from_text(&label, &read_text(&battle)?)?;
            game.apply(Order::BattleResult { save: Box::new(fought) }).map_err(|e| Failure(format!("{label}: {e}")))?;
            std::fs::write(&out, game.save().to_text())
                .map_err(|e| Failure(format!("{}: cannot write the save: {e}", out.display())))?;
            print_state(&game, false);
            Ok(())
        }
        CampaignCommand::Battle { save, out } => {
            let label = save.to_string_lossy();
            let text = read_text(&save)?;
            let s = CampaignSave::from_text(&label, &text)?;
            let game = Campaign::replay(&s).map_err(|e| Failure(format!("{label}: {e}")))?;
            let scenario = game
                .battle_scenario()
                .ok_or_else(|| Failure(format!("{label}: no battle is waiting in this campaign")))?;
            let b = game.state().battle.clone().ok_or_else(|| Failure(format!("{label}: no battle is waiting")))?;
            write_battle(
                &out,
                &scenario,
                &format!(
                    "// Battle {} of the campaign {:?} at {}, after the cut (T-STRAT-5/6): {} v {} units (red v blue).\n// Fight it with seed {} for the campaign to accept its save.\n",
                    b.number,
                    game.scenario().name,
                    b.at,
                    b.fielded[0],
                    b.fielded[1],
                    b.seed
                ),
            )?;
            println!(
                "{}: battle {} at {} ({} v {}; seed {}) written to {}",
                label,
                b.number,
                b.at,
                b.fielded[0],
                b.fielded[1],
                b.seed,
                out.display()
            );
            Ok(())
        }
    }
}

/// A battle scenario as `umpire play` and the game read it: the scenario file, with its map,
/// unit table and rule numbers in files beside it (`FILE.map.ron`, `FILE.units.ron`, `FILE.rules.ron`).
#[derive(Serialize)]
#[serde(rename = "Scenario")]
struct BattleFile<'a> {
    name: &'a str,
    name_ru: &'a str,
    description: &'a str,
    map: String,
    units_table: String,
    rules: String,
    kind: rules::tactical::BattleKind,
    attacker: Side,
    red: &'a rules::tactical::scenario::SideSpec,
    blue: &'a rules::tactical::scenario::SideSpec,
    units: &'a [rules::tactical::scenario::UnitSpec],
}

fn write_battle(out: &Path, s: &rules::tactical::Scenario, header: &str) -> Result<(), Failure> {
    let stem = out.file_name().map(|n| n.to_string_lossy().trim_end_matches(".ron").to_string()).unwrap_or_default();
    let beside = |suffix: &str| out.with_file_name(format!("{stem}.{suffix}.ron"));
    let name_of = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|e| Failure(format!("{}: cannot write: {e}", path.display())))
    };
    let (map, units, rules_path) = (beside("map"), beside("units"), beside("rules"));
    write(&map, to_ron(&rules::tactical::scenario::MapFile::from_grid(&s.map)) + "\n")?;
    write(&units, to_ron(&rules::tactical::units::UnitTable { types: s.unit_types.clone() }) + "\n")?;
    // A rules file names the fields saves leave out (RulesConfig::parse).
    write(&rules_path, s.rules.to_data_text() + "\n")?;
    let file = BattleFile {
        name: &s.name,
        name_ru: &s.name_ru,
        description: &s.description,
        map: name_of(&map),
        units_table: name_of(&units),
        rules: name_of(&rules_path),
        kind: s.kind,
        attacker: s.attacker,
        red: &s.red,
        blue: &s.blue,
        units: &s.units,
    };
    write(out, format!("{header}{}\n", to_ron(&file)))
}

#[derive(Serialize)]
struct ArmyReport {
    id: u32,
    side: Side,
    name: String,
    at: (i32, i32),
    units: usize,
    strength: i32,
    mp_left: u32,
}

#[derive(Serialize)]
struct CampaignReport {
    scenario: String,
    seed: u64,
    turn: u32,
    active: Option<Side>,
    winner: Option<Side>,
    reason: Option<String>,
    battles: u32,
    armies: Vec<ArmyReport>,
    events: Vec<String>,
    hash: String,
}

fn print_state(game: &Campaign, json: bool) {
    let state = game.state();
    let report = CampaignReport {
        scenario: game.scenario().name.clone(),
        seed: game.seed(),
        turn: state.turn,
        active: game.active_player(),
        winner: state.outcome.map(|o| o.winner),
        reason: state.outcome.map(|o| format!("{:?}", o.reason)),
        battles: state.battles,
        armies: state
            .armies
            .iter()
            .map(|a| ArmyReport {
                id: a.id.0,
                side: a.side,
                name: a.name.clone(),
                at: a.at.into(),
                units: a.units.len(),
                strength: a.units.iter().filter_map(|u| state.unit(*u)).map(|u| u.health).sum(),
                mp_left: a.mp_left,
            })
            .collect(),
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
    match state.outcome {
        Some(o) => println!("campaign over: {:?} wins ({:?}) in turn {}", o.winner, o.reason, o.turn),
        None => println!("campaign turn {}, {:?} to act", report.turn, report.active),
    }
    if let Some(b) = &state.battle {
        println!("battle waiting at {}: {:?} attacks, {} v {} fight", b.at, b.attacker, b.fielded[0], b.fielded[1]);
    }
    println!("{:>4}  {:<5} {:<34} {:<9} {:>5} {:>8} {:>3}", "army", "side", "name", "hex", "units", "strength", "MP");
    for a in &report.armies {
        println!(
            "{:>4}  {:<5} {:<34} {:<9} {:>5} {:>8} {:>3}",
            a.id,
            a.side.name(),
            a.name.chars().take(34).collect::<String>(),
            format!("({}, {})", a.at.0, a.at.1),
            a.units,
            a.strength,
            a.mp_left
        );
    }
    println!("battles: {}; state hash: {}", report.battles, report.hash);
}
