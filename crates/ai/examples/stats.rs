//! Why games end: `cargo run --release -p ai --example stats -- SCENARIO GAMES A B`.

use ai::Level;
use ai::game::{GameSetup, play};
use rules::tactical::{EndReason, Scenario, Side};
use std::collections::BTreeMap;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenario = Scenario::load(Path::new(&args[1])).expect("scenario");
    let games: u64 = args[2].parse().expect("games");
    let a: Level = args[3].parse().expect("level");
    let b: Level = args[4].parse().expect("level");
    let base: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut tally: BTreeMap<String, u32> = BTreeMap::new();
    for g in 0..games {
        let a_side = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let setup = if a_side == Side::Red { GameSetup::ai(base + g, a, b) } else { GameSetup::ai(base + g, b, a) };
        let r = play(&scenario, &setup).expect("game");
        let o = r.battle.outcome().expect("over");
        let ctx = r.battle.ctx();
        let hq_a = ctx.command.hq_captured[a_side.index()];
        let hq_b = ctx.command.hq_captured[a_side.other().index()];
        let reason = match o.reason {
            EndReason::RoundLimit => "time",
            _ => "field",
        };
        let key = format!(
            "A as {:<4} {} by {:<5} hqA={} hqB={}",
            a_side.name(),
            if o.winner == a_side { "wins " } else { "loses" },
            reason,
            hq_a as u8,
            hq_b as u8
        );
        *tally.entry(key).or_default() += 1;
    }
    for (k, v) in tally {
        println!("{v:>4}  {k}");
    }
}
