//! Weight tuning: `tune SCENARIO GAMES SEED LEVEL OPPONENT [field=value ...]` plays LEVEL with the
//! changed weights against OPPONENT, sides swapped every game, and prints the win rate.

use ai::Level;
use ai::eval::Weights;
use ai::game::{GameSetup, play};
use rules::tactical::{Scenario, Side};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenario = Scenario::load(Path::new(&args[1])).expect("scenario");
    let games: u64 = args[2].parse().expect("games");
    let seed: u64 = args[3].parse().expect("seed");
    let level: Level = args[4].parse().expect("level");
    let opponent: Level = args[5].parse().expect("level");
    let mut w = Weights::STANDARD;
    for kv in &args[6..] {
        let (k, v) = kv.split_once('=').expect("field=value");
        let v: f64 = v.parse().expect("number");
        match k {
            "exposure" => w.exposure = v,
            "opportunity" => w.opportunity = v,
            "advance" => w.advance = v,
            "cohesion" => w.cohesion = v,
            "terrain" => w.terrain = v,
            "artillery" => w.artillery = v,
            "facing" => w.facing = v,
            "command" => w.command = v,
            "melee" => w.melee = v,
            "charge_threat" => w.charge_threat = v,
            "hq" => w.hq = v,
            "general" => w.general = v,
            "hq_reach" => w.hq_reach = v,
            "hq_exposure" => w.hq_exposure = v,
            "hq_safety" => w.hq_safety = v,
            other => panic!("unknown weight {other}"),
        }
    }
    let (mut wins, mut red) = (0, 0);
    for g in 0..games {
        let side = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let mut setup = if side == Side::Red {
            GameSetup::ai(seed + g, level, opponent)
        } else {
            GameSetup::ai(seed + g, opponent, level)
        };
        setup.weights[side.index()] = Some(w);
        let r = play(&scenario, &setup).expect("game");
        if r.battle.outcome().is_some_and(|o| o.winner == side) {
            wins += 1;
            red += u32::from(side == Side::Red);
        }
    }
    println!("{:.1}% ({wins}/{games}, {red} as red) {:?}", 100.0 * wins as f64 / games as f64, &args[6..]);
}
