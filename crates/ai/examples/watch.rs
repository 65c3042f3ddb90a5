//! Watch an AI game turn by turn: `cargo run --release -p ai --example watch -- SCENARIO SEED RED BLUE`.

use ai::Level;
use ai::game::{GameSetup, play};
use rules::tactical::Scenario;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenario = Scenario::load(Path::new(&args[1])).expect("scenario");
    let seed: u64 = args[2].parse().expect("seed");
    let red: Level = args[3].parse().expect("level");
    let blue: Level = args[4].parse().expect("level");
    let report = play(&scenario, &GameSetup::ai(seed, red, blue)).expect("game");
    for e in report.battle.events() {
        println!("{}", report.battle.describe(e));
    }
    println!("refused: {:?}", report.refused);
    let ctx = report.battle.ctx();
    for u in report.battle.units(None) {
        if u.status == "active" {
            let f = ctx
                .unit(u.id)
                .and_then(|x| x.formation)
                .and_then(|f| ctx.command.formations.iter().find(|g| g.id == f));
            println!(
                "{:?} {} {} {:?} {} hp {} general_lost={:?}",
                u.side,
                u.id,
                u.name,
                u.cell,
                u.facing.name(),
                u.health,
                f.map(|f| f.general_lost())
            );
        }
    }
    println!("hq {:?} captured {:?}", ctx.command.hq, ctx.command.hq_captured);
}
