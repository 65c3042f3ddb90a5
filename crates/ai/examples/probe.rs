//! Debug helper: replay an AI game up to a turn and print what the side to move could do.
use ai::Level;
use ai::game::{GameSetup, play};
use rules::tactical::{Battle, Order, Scenario, UnitId};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenario = Scenario::load(Path::new(&args[1])).expect("scenario");
    let seed: u64 = args[2].parse().expect("seed");
    let red: Level = args[3].parse().expect("level");
    let blue: Level = args[4].parse().expect("level");
    let turn: u32 = args[5].parse().expect("turn");
    let unit: u32 = args[6].parse().expect("unit");
    let report = play(&scenario, &GameSetup::ai(seed, red, blue)).expect("game");
    let save = report.battle.save();
    let n = (0..=save.orders.len())
        .find(|n| Battle::replay_until(&save, *n).map(|b| b.clock().turn >= turn).unwrap_or(false))
        .expect("turn");
    let b = Battle::replay_until(&save, n).expect("replay");
    let ctx = b.ctx();
    println!("turn {} active {:?}", ctx.clock.turn, ctx.clock.active);
    let id = UnitId(unit);
    println!("unit {:?}", ctx.unit(id));
    println!("fire targets: {:?}", ctx.fire_targets(id).iter().map(|s| s.target).collect::<Vec<_>>());
    for t in
        ctx.units.iter().filter(|t| t.side != ctx.unit(id).map(|u| u.side).unwrap_or(t.side) && t.status.on_field())
    {
        println!("  fire at {}: {:?}", t.id, ctx.check_fire(id, t.id).err());
    }
    println!("reach: {}", ctx.reachable(id).len());
    println!("move check: {:?}", ctx.check_move(id, &[], false).err());
    let _ = Order::EndTurn;
}
