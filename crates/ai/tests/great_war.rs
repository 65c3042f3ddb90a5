//! The Great War AI: deterministic, legal on every shipped scenario, a front without gaps, and
//! thinking in slices.

use ai::great_war::GwAi;
use ai::great_war::front::Front;
use ai::great_war::game::{GwSetup, play, tournament};
use ai::{Level, Player, Think};
use rules::Game;
use rules::strategic::query::land_pieces;
use rules::strategic::{GreatWar, Order, Phase, PowerId, Scenario};
use std::path::PathBuf;
use web_time::Duration;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war")
}

fn load(name: &str) -> Scenario {
    Scenario::load(&dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every Great War scenario shipped (order lists and other files left out).
/// The largest map (in hexes) the every-level legality test plays on: the theatre cuts are far below.
const THEATRE_HEXES: u32 = 100_000;

fn shipped() -> Vec<(String, Scenario)> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("scenarios/great_war")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter(|n| std::fs::read_to_string(dir().join(n)).is_ok_and(|t| t.contains("GreatWarScenario(")))
        .map(|n| {
            let s = load(&n);
            (n, s)
        })
        .collect()
}

fn setup(s: &Scenario, seed: u64, levels: &[Level], turns: u32, slice: Duration) -> GwSetup {
    GwSetup {
        seed,
        players: (0..s.powers.len()).map(|i| Some(levels[i % levels.len()])).collect(),
        max_turns: Some(turns),
        orders: Vec::new(),
        slice,
    }
}

#[test]
fn the_same_seed_gives_the_same_orders_and_hash_however_thinking_is_sliced() {
    let s = load("test_front.ron");
    let a = play(&s, &setup(&s, 7, &[Level::Marshal, Level::Veteran], 2, Duration::from_secs(60))).expect("plays");
    let b = play(&s, &setup(&s, 7, &[Level::Marshal, Level::Veteran], 2, Duration::from_micros(300))).expect("plays");
    assert!(a.game.orders().len() > 2 * 3 * 3, "the staff gives orders, not only passes");
    assert_eq!(a.game.orders(), b.game.orders());
    assert_eq!(a.game.state_hash(), b.game.state_hash());
    let c = play(&s, &setup(&s, 8, &[Level::Marshal, Level::Veteran], 2, Duration::from_secs(60))).expect("plays");
    assert_ne!(a.game.state_hash(), c.game.state_hash(), "another seed, another game");
}

#[test]
fn every_level_gives_only_legal_orders_on_every_shipped_scenario() {
    let levels = [Level::Random, Level::Greedy, Level::Recruit, Level::Veteran, Level::Marshal];
    // Every shipped scenario but the whole of Europe (701,250 hexes, 529 units), which has its own
    // test below (one turn of a mix of levels, and its replay): six games of two turns each there
    // would take minutes in a debug build.
    let scenarios: Vec<_> =
        shipped().into_iter().filter(|(_, s)| s.map.width * s.map.height <= THEATRE_HEXES).collect();
    assert!(scenarios.iter().any(|(n, _)| n == "test_front.ron"));
    assert!(scenarios.iter().any(|(n, _)| n == "frontiers_marne_1914.ron"), "the theatre scenarios are tested");
    for (name, s) in &scenarios {
        for seed in 0..2u64 {
            let mix: Vec<Level> = (0..s.powers.len()).map(|i| levels[(i + seed as usize) % levels.len()]).collect();
            let r = play(s, &setup(s, seed, &mix, 2, Duration::from_secs(60))).expect("plays");
            assert!(r.refused.is_empty(), "{name} seed {seed}: refused {:?}", r.refused);
            for level in [Level::Random, Level::Marshal] {
                let r = play(s, &setup(s, seed, &[level], 2, Duration::from_secs(60))).expect("plays");
                assert!(r.refused.is_empty(), "{name} seed {seed} {level}: refused {:?}", r.refused);
            }
        }
    }
}

/// The grand campaign (the whole of Europe, 701,250 hexes): every level gives only legal orders
/// through a whole first turn, and the same seed replays the same game.
#[test]
fn every_level_gives_only_legal_orders_in_the_grand_campaigns_first_turn() {
    let s = load("august_1914.ron");
    assert!(s.map.width * s.map.height > THEATRE_HEXES, "the grand campaign is the large map");
    let levels = [Level::Marshal, Level::Random, Level::Greedy, Level::Veteran, Level::Recruit];
    let r = play(&s, &setup(&s, 3, &levels, 1, Duration::from_millis(8))).expect("plays");
    assert!(r.refused.is_empty(), "refused {:?}", r.refused);
    assert!(r.game.orders().iter().filter(|o| **o != Order::EndPhase).count() > 20, "the AIs give orders");
    let again = play(&s, &setup(&s, 3, &levels, 1, Duration::from_secs(60))).expect("plays");
    assert_eq!(r.game.state_hash(), again.game.state_hash(), "the same seed, the same game, however sliced");
}

/// Plays the power's Movement phase of the first turn with its AI (the others pass) and returns the
/// game then, with the front as it stood when the power began to move.
fn after_movement(s: &Scenario, power: PowerId, level: Level) -> (GreatWar, Front) {
    let mut game = GreatWar::new(s, 3);
    let mut ai = GwAi::new(power, level, 3);
    let mut front = None;
    while let Some(active) = game.active_player() {
        let ctx = game.ctx();
        if ctx.clock.phase == Phase::Fire {
            break;
        }
        if active != power {
            game.apply(Order::EndPhase).expect("a pass");
            continue;
        }
        if ctx.clock.phase == Phase::Movement && front.is_none() {
            front = Some(Front::of(&ctx, power));
        }
        let o = ai.decide(&ctx).expect("its turn");
        game.apply(o.clone()).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
    (game, front.expect("it moved"))
}

#[test]
fn after_the_staffs_movement_the_test_front_has_no_gap() {
    let s = load("test_front.ron");
    for (power, level) in [(PowerId(0), Level::Marshal), (PowerId(0), Level::Veteran)] {
        let (game, front) = after_movement(&s, power, level);
        let ctx = game.ctx();
        assert!(!front.line.is_empty());
        let gaps = front.gaps(&ctx, power);
        assert!(gaps.is_empty(), "{level}: gaps at {gaps:?} on the line {:?}", front.line);
        // The engine agrees: no enemy piece can walk past the line in its next move.
        for enemy in [PowerId(1), PowerId(2)] {
            for p in land_pieces(&ctx, enemy) {
                let Ok((_, units)) = ctx.piece_units(p.piece) else { continue };
                let speed = units.iter().filter_map(|u| ctx.force(*u)).map(|f| ctx.speed(f.kind)).min().unwrap_or(0);
                for (h, _, _) in ctx.reachable(enemy, &units, p.at, speed) {
                    let behind = front.ours(h) && !front.line.contains(&h) && !ctx.next_to_enemy(enemy, h);
                    assert!(!behind, "{level}: {:?} of {enemy:?} walks through to {h}", p.piece);
                }
            }
        }
    }
}

#[test]
fn the_staff_thinks_in_slices_and_reports_the_longest() {
    let s = load("test_front.ron");
    let r = play(&s, &setup(&s, 5, &[Level::Marshal], 2, Duration::from_millis(8))).expect("plays");
    assert!(r.refused.is_empty());
    for p in Game::players(&r.game) {
        let (mean, max) = r.turn_time(p);
        println!(
            "power {}: AI time per turn mean {:.1} ms, max {:.1} ms",
            p.0,
            mean.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3
        );
    }
    println!("longest slice: {:.1} ms (slices of 8 ms)", r.longest_slice.as_secs_f64() * 1e3);
    // A zero budget still makes progress: one work item per call.
    let game = GreatWar::new(&s, 5);
    let mut ai = GwAi::new(PowerId(0), Level::Marshal, 5);
    let mut calls = 0;
    let first = loop {
        calls += 1;
        match Player::<GreatWar>::think(&mut ai, &game.ctx(), Duration::ZERO) {
            Think::Order(o) => break o,
            Think::Thinking => assert!(calls < 10_000),
            Think::Idle => panic!("its turn"),
        }
    };
    let mut whole = GwAi::new(PowerId(0), Level::Marshal, 5);
    assert_eq!(Some(first), whole.decide(&game.ctx()));
    assert_eq!(
        Player::<GreatWar>::think(&mut GwAi::new(PowerId(1), Level::Marshal, 5), &game.ctx(), Duration::ZERO),
        Think::Idle
    );
}

/// The tournament's pair scoring (`umpire tournament` on a Great War scenario): each game is
/// judged from alliance 0's side, a surrender before the victory-point margin before the war
/// score; a pair goes to the level that did better in the same seat.
#[test]
fn a_pair_goes_to_the_level_that_did_better_in_the_same_seat() {
    use ai::great_war::game::{Verdict, pair_winner};
    let v = |surrender: i8, points: i64, war_score: i64| Verdict { surrender, points, war_score };
    // A scenario that favours alliance 1: it wins both games on points, but with A as alliance 0 it
    // won by 3, with B there by 5. A did better as alliance 0 (and so B did worse as alliance 1).
    let (a_as_0, b_as_0) = (v(0, -3, -40), v(0, -5, 10));
    assert_eq!((a_as_0.winner(), b_as_0.winner()), (Some(1), Some(1)), "the scenario alone: one game each");
    assert_eq!(pair_winner(a_as_0, b_as_0), Some(true));
    assert_eq!(pair_winner(b_as_0, a_as_0), Some(false));
    // A surrender outweighs any margin of points; points outweigh the war score; all equal: level.
    assert_eq!(pair_winner(v(0, 9, 500), v(1, -9, -500)), Some(false));
    assert_eq!(pair_winner(v(0, 1, -500), v(0, 0, 500)), Some(true));
    assert_eq!(pair_winner(v(0, 2, 7), v(0, 2, 7)), None);
    assert_eq!(v(0, 0, 0).winner(), None);
    assert_eq!(v(0, 0, 1).winner(), Some(0), "level points: the war score decides the game");
}

#[test]
fn a_game_is_judged_by_the_scenarios_victory_points() {
    use ai::great_war::game::Verdict;
    // East Prussia 1914: Russia (alliance 0) holds 9 of its provinces, Germany 2; when every power
    // passes to the end, alliance 0 wins on points by 7 (the engine's victory points).
    let s = load("east_prussia_1914.ron");
    let mut game = GreatWar::new(&s, 1);
    while game.active_player().is_some() {
        game.apply(Order::EndPhase).expect("a pass");
    }
    let ctx = game.ctx();
    assert_eq!(ctx.victory_points(), [9, 2]);
    let v = Verdict::of(&ctx);
    assert_eq!((v.surrender, v.points, v.winner()), (0, 7, Some(0)));
}

#[test]
fn a_tournament_between_equals_has_only_level_pairs_and_a_theatre_scenario_does_not_force_half() {
    use ai::great_war::game::tournament;
    // The same level on both sides plays the same game twice in a pair: every pair is level.
    let s = load("test_front.ron");
    let t = tournament(&s, Level::Greedy, Level::Greedy, 2, 1, Duration::from_secs(60));
    assert_eq!((t.pairs, t.level_pairs, t.games, t.refused), (2, 2, 4, 0));
    assert_eq!(t.a_wins, t.b_wins, "A's game as one alliance is B's as the same alliance");
    // East Prussia is won by alliance 0 on points whatever is played: by the scenario alone each
    // level wins the game it plays as Russia, but the pair goes to the Marshal.
    let s = load("east_prussia_1914.ron");
    let t = tournament(&s, Level::Marshal, Level::Random, 1, 1, Duration::from_secs(60));
    assert_eq!((t.games, t.a_wins, t.b_wins, t.refused), (2, 1, 1, 0));
    assert_eq!((t.pairs, t.a_pairs), (1, 1), "{t:?}");
    assert!(t.by_level[0].mean_turn > Duration::ZERO && t.by_level[1].longest_slice > Duration::ZERO);
}

/// The staff keeps off a neutral's land (entering it brings the neutral into the war on the
/// other side, its provinces' points with it): on the Frontiers, with every power a Marshal, no
/// move, army move or retreat ends on the land of a power that is neutral when it is given.
#[test]
fn the_staff_moves_onto_no_neutrals_land() {
    let s = load("frontiers_marne_1914.ron");
    let r = play(&s, &setup(&s, 2, &[Level::Marshal], 2, Duration::from_secs(60))).expect("plays");
    assert!(r.refused.is_empty());
    let mut game = GreatWar::new(&s, 2);
    let mut moves = 0;
    for o in r.game.orders() {
        let ctx = game.ctx();
        let ends: Vec<_> = match o {
            Order::Move { path, .. } => path.last().copied().into_iter().collect(),
            Order::MoveArmy { moves, .. } => moves.iter().filter_map(|(_, p)| p.last().copied()).collect(),
            Order::Retreat { moves } => moves.iter().filter_map(|(_, p)| p.last().copied()).collect(),
            _ => Vec::new(),
        };
        for h in ends {
            moves += 1;
            let owner = ctx.province_at(h).and_then(|p| ctx.province_owner(p));
            let neutral = owner.is_some_and(|o| o != ctx.active_power() && ctx.powers[usize::from(o.0)].neutral);
            assert!(!neutral, "{o:?} ends on a neutral's land");
        }
        game.apply(o.clone()).expect("replays");
    }
    assert!(moves > 50, "the staffs move ({moves})");
}

#[test]
fn strikes_are_the_same_however_thinking_is_sliced() {
    // East Prussia: the Marshal masses reserves on enemy hexes (strikes over several work items).
    let s = load("east_prussia_1914.ron");
    let a = play(&s, &setup(&s, 4, &[Level::Marshal, Level::Veteran], 1, Duration::from_secs(60))).expect("plays");
    let b = play(&s, &setup(&s, 4, &[Level::Marshal, Level::Veteran], 1, Duration::from_micros(200))).expect("plays");
    assert!(a.refused.is_empty() && b.refused.is_empty());
    assert_eq!(a.game.orders(), b.game.orders());
    assert_eq!(a.game.state_hash(), b.game.state_hash());
}

/// Plays until the first Combat phase with fighting (or the end) with `power`'s AI at `level` while every other power
/// passes; returns each of its orders with the game as it stood when the order was given.
fn orders_of(s: &Scenario, power: PowerId, level: Level) -> Vec<(Order, rules::strategic::Ctx)> {
    let mut game = GreatWar::new(s, 3);
    let mut ai = GwAi::new(power, level, 3);
    let mut out = Vec::new();
    while let Some(active) = game.active_player() {
        let ctx = game.ctx();
        if ctx.clock.phase == Phase::Combat {
            break;
        }
        if active != power {
            game.apply(Order::EndPhase).expect("a pass");
            continue;
        }
        let o = ai.decide(&ctx).expect("its turn");
        game.apply(o.clone()).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        out.push((o, ctx));
    }
    out
}

/// S-ART-2, S-COMBAT-8: a Marshal and a Veteran prepare their attacks: every gun they fire in the
/// Fire phase aims at an enemy hex their troops fight in the Combat phase that follows whenever the
/// preview sees a shot there raise that engagement's margin or harm (else where it harms most),
/// and over a game on the test front they do fire at the hexes they then attack; their gas
/// cylinders are placed facing the enemy and released where the preview sees them harm it (and
/// raise the margin of an engagement, where the hex is fought).
#[test]
fn the_staff_fires_its_heavy_artillery_at_the_hexes_it_then_attacks() {
    use ai::great_war::judge::{margin_at, preparation_gain};
    let s = load("test_front.ron");
    for level in [Level::Marshal, Level::Veteran] {
        let r =
            play(&s, &setup(&s, 1, &[level, Level::Greedy, Level::Greedy], 3, Duration::from_secs(60))).expect("plays");
        assert!(r.refused.is_empty());
        let mut game = GreatWar::new(&s, 1);
        let (mut prepared, mut shots, mut gas) = (0, 0, [0; 3]);
        for o in r.game.orders() {
            let ctx = game.ctx();
            let p = ctx.active_power();
            if let Order::Fire { unit, target, .. } = o
                && p == PowerId(0)
            {
                shots += 1;
                let from = ctx.gun_hexes(*unit);
                let could = ai::great_war::enemy_combat_hexes(&ctx, p).into_iter().any(|h| {
                    from.iter().any(|g| g.distance(h) <= 12)
                        && [false, true].into_iter().any(|gas| {
                            let shot = Order::Fire { unit: *unit, target: h, gas };
                            preparation_gain(&ctx, p, &shot, h).is_some_and(|v| v > 0.0)
                        })
                });
                if could {
                    assert!(margin_at(&ctx, p, *target).is_some(), "{level}: {o:?} fires away from the engagements");
                    assert!(preparation_gain(&ctx, p, o, *target).is_some_and(|v| v > 0.0), "{level}: {o:?}");
                    prepared += 1;
                }
            }
            // S-CHEM-1: cylinders go where the troops face the enemy and are released where they
            // harm it; gas is bought when the store runs low.
            if ctx.active_power() == PowerId(0) {
                let enemy_next = |h: rules::strategic::HexAt| {
                    h.neighbours().into_iter().any(|n| ai::great_war::enemy_combat_hexes(&ctx, PowerId(0)).contains(&n))
                };
                match o {
                    Order::PlaceCylinder { at } => {
                        assert!(enemy_next(*at), "{level}: {o:?} faces no enemy");
                        gas[0] += 1;
                    }
                    Order::ReleaseGas { target, .. } => {
                        let gain = preparation_gain(&ctx, PowerId(0), o, *target)
                            .or_else(|| ai::great_war::judge::expected_gain(&ctx, PowerId(0), o));
                        assert!(gain.is_some_and(|v| v > 0.0), "{level}: {o:?} harms no enemy ({gain:?})");
                        gas[1] += 1;
                    }
                    Order::BuyGas { shells, .. } => {
                        assert!(ctx.powers[0].chem_shells + shells <= 4, "{level}: a shell a gun ({o:?})");
                        gas[2] += 1;
                    }
                    _ => {}
                }
            }
            game.apply(o.clone()).expect("replays");
        }
        eprintln!("{level}: {prepared} of {shots} shots prepare an attack");
        assert!(prepared > 0, "{level}: {prepared} of {shots} shots prepare an attack");
        // Gas is bought for the attacks; where a contact stands into a Preparation phase the
        // cylinders are set and released (every one checked above; the setting and release
        // themselves: `s_chem_1_the_staff_sets_its_cylinders_facing_the_enemy…` in the economy
        // tests, since the fighting of this game leaves no contact standing into a Preparation).
        assert!(gas[2] > 0, "{level}: cylinders placed, released, bought: {gas:?}");
        assert!(gas[1] <= gas[0] + 1, "{level}: releases need cylinders set: {gas:?}");
    }
}

/// North Sea 1916, one power's Marshal against passing enemies: its U-boats patrol the enemy's
/// convoy lane (S-NAVAL-15) and its minelayers mine the sea off its own coast (S-MINE-1); the High
/// Seas Fleet, stronger than any British fleet in sight, takes the intercept stance (S-NAVAL-12);
/// the British fleets, each weaker than it, give up intercepting, withdraw when weaker
/// (S-NAVAL-10), seek no battle with it, and the Harwich Force stays in port.
#[test]
fn at_sea_the_staff_seeks_battle_by_the_odds_patrols_lanes_and_mines_its_coast() {
    let s = load("north_sea_1916.ron");
    let (germany, gb) = (PowerId(0), PowerId(2));
    let german: Vec<Order> = orders_of(&s, germany, Level::Marshal).into_iter().map(|(o, _)| o).collect();
    // The Recruit's U-boats patrol the convoy lane; the Marshal's hunt (the next test).
    let recruit: Vec<Order> = orders_of(&s, germany, Level::Recruit).into_iter().map(|(o, _)| o).collect();
    assert!(recruit.contains(&Order::Patrol { flotilla: 11, lane: 0 }), "U-Flottille II patrols the convoy lane");
    assert!(german.contains(&Order::LayMine { fleet: 12 }), "the Minensuchverband mines the North Sea");
    let high_seas =
        Order::FleetStance { fleet: 10, intercept: true, withdraw: false, transports_first: false, targets: vec![] };
    assert!(german.contains(&high_seas), "{german:?}");
    let british = orders_of(&s, gb, Level::Marshal);
    let german_fleet_at = |ctx: &rules::strategic::Ctx| ctx.navy.fleet(10).map(|f| f.at);
    for (o, ctx) in &british {
        if let Order::MoveFleet { path, .. } = o {
            assert_ne!(path.last().copied(), german_fleet_at(ctx), "{o:?} seeks battle with a stronger fleet");
        }
        assert!(!matches!(o, Order::FleetStance { intercept: true, .. }), "{o:?}");
    }
    let bcf =
        Order::FleetStance { fleet: 2, intercept: false, withdraw: true, transports_first: false, targets: vec![] };
    assert!(british.iter().any(|(o, _)| *o == bcf), "the Battlecruiser Fleet gives up intercepting");
    // The Harwich Force, far weaker than the High Seas Fleet, stays in port: a fleet in being.
    let in_port = |ctx: &rules::strategic::Ctx| {
        let at = ctx.navy.fleet(3).expect("the Harwich Force").at;
        ctx.map().cell(at).is_some_and(|c| c.has(rules::strategic::hexmap::flag::PORT))
    };
    let (_, first) = british.first().expect("orders");
    assert!(in_port(first));
    for (o, ctx) in &british {
        assert!(in_port(ctx), "the Harwich Force left port before {o:?}");
    }
}

/// S-SUB-1, S-SUB-2, S-SUB-4: the worth of a U-boat attack in the war score. U-Flottille II's 4
/// boats against the Grand Fleet, which has no ASW ship, sink its first 4 ships, battleships
/// (class 5, worth 10 each): 40. Against the Battlecruiser Fleet with 3 ASW ships, s = 4 − 3 = +1
/// passes on 3–6 (4/6), then each boat sinks its ship on 3–6: the battlecruiser and three light
/// cruisers, 8 + 6 + 6 + 6 = 26, times 4/6 × 4/6; a failed test loses half the boats on average
/// (S-SUB-3), 1/3 × 2 boats × 2 = 4/3. The Marshal's and Veteran's flotillas sail next to the
/// Grand Fleet and attack it; 4 of its battleships go down.
#[test]
fn u_boats_sail_to_the_fleet_their_attack_harms_most_and_attack_it() {
    use ai::great_war::judge::submarine_attack_worth;
    let s = load("north_sea_1916.ron");
    let game = GreatWar::new(&s, 3);
    let ctx = game.ctx();
    assert_eq!(submarine_attack_worth(&ctx, 11, 1), 40.0);
    let expected = 26.0 * (4.0 / 6.0) * (4.0 / 6.0) - (1.0 / 3.0) * 0.5 * 4.0 * 2.0;
    assert!((submarine_attack_worth(&ctx, 11, 2) - expected).abs() < 1e-9, "{}", submarine_attack_worth(&ctx, 11, 2));
    let germany = PowerId(0);
    for level in [Level::Marshal, Level::Veteran] {
        let orders = orders_of(&s, germany, level);
        let (i, (_, before)) = orders
            .iter()
            .enumerate()
            .find(|(_, (o, _))| *o == Order::SubmarineAttack { flotilla: 11, target: 1 })
            .unwrap_or_else(|| panic!("{level}: no attack on the Grand Fleet"));
        let grand_fleet = before.navy.fleet(1).expect("the Grand Fleet").at;
        assert!(before.navy.fleet(11).expect("the flotilla").at.distance(grand_fleet) <= 1);
        assert!(matches!(orders[i - 1].0, Order::MoveFleet { fleet: 11, .. }), "{level}: it sailed there first");
        let mut after = before.clone();
        after.apply(&orders[i].0).expect("legal");
        let sunk = |c: &rules::strategic::Ctx| c.navy.ships.iter().filter(|x| x.sunk && x.fleet == 1).count();
        assert_eq!(sunk(&after) - sunk(before), 4, "{level}");
    }
}

/// A copy of North Sea 1916 with the Harwich Force moved to the first sea hex (in hex order) that
/// lies within `within` hexes of `near`, but not next to land.
fn harwich_force_near(near: rules::strategic::HexAt, within: u32) -> Scenario {
    let mut s = load("north_sea_1916.ron");
    let game = GreatWar::new(&s, 3);
    let ctx = game.ctx();
    let mut spot = None;
    'search: for dq in -(within as i32)..=within as i32 {
        for dr in -(within as i32)..=within as i32 {
            let h = rules::strategic::HexAt::new(near.col + dq, near.row + dr);
            if h.distance(near) <= within
                && h.distance(near) >= 2
                && ctx.map().cell(h).is_some_and(|c| c.terrain.is_water())
                && ctx.navigable(h)
            {
                spot = Some(h);
                break 'search;
            }
        }
    }
    let spot = spot.expect("a sea hex in reach");
    s.fleets.iter_mut().find(|f| f.id == 3).expect("the Harwich Force").at = spot;
    s
}

/// S-NAVAL-14: the Jade coastal battery fires at the Harwich Force's ship worth most: its light
/// cruiser (class 3, worth 6, destroyed on 4–6: 3.0) before a destroyer (worth 4 on 3–6: 2.67) or
/// the ASW ship (worth 2, no roll: 2.0). S-AIR-2: the Zeebrugge heavy bombers (bombing 2) cannot
/// attack the light cruiser (class 3 > 2) and bomb a destroyer (d = 0, 5–6: 1/3 × 4 = 1.33) before
/// the ASW ship (class 1, d = +1, 4–6: 1/2 × 2 = 1.0).
#[test]
fn coastal_guns_and_bombers_fire_at_the_ship_worth_most() {
    let germany = PowerId(0);
    let jade = rules::strategic::HexAt::new(193, 239);
    let s = harwich_force_near(jade, 4);
    let orders: Vec<Order> = orders_of(&s, germany, Level::Marshal).into_iter().map(|(o, _)| o).collect();
    let light_cruiser = 32;
    assert!(
        orders.contains(&Order::CoastalFire { unit: rules::strategic::state::ForceId(11), ship: light_cruiser }),
        "{orders:?}"
    );
    let zeebrugge = rules::strategic::HexAt::new(125, 288);
    let s = harwich_force_near(zeebrugge, 8);
    let orders: Vec<Order> = orders_of(&s, germany, Level::Marshal).into_iter().map(|(o, _)| o).collect();
    let destroyer = 33;
    assert!(orders.contains(&Order::Bomb { squadrons: vec![10], ship: destroyer }), "{orders:?}");
}

/// Issue 15's bar on North Sea 1916, the naval scenario: the Marshal wins every pair against
/// `random` and `greedy` with the alliances swapped, and so does the Veteran against `greedy`
/// (3 pairs each; `umpire tournament` plays more).
#[test]
fn on_the_north_sea_the_marshal_beats_random_and_greedy_and_the_veteran_beats_greedy() {
    let s = load("north_sea_1916.ron");
    for (a, b) in [(Level::Marshal, Level::Random), (Level::Marshal, Level::Greedy), (Level::Veteran, Level::Greedy)] {
        let t = tournament(&s, a, b, 3, 1, Duration::from_secs(60));
        assert_eq!(t.refused, 0);
        assert_eq!((t.pairs, t.a_pairs), (3, 3), "{a} v {b}: {t:?}");
    }
}

#[test]
fn at_sea_the_same_seed_gives_the_same_orders_however_thinking_is_sliced() {
    let s = load("north_sea_1916.ron");
    let a = play(&s, &setup(&s, 5, &[Level::Marshal, Level::Veteran], 3, Duration::from_secs(60))).expect("plays");
    let b = play(&s, &setup(&s, 5, &[Level::Marshal, Level::Veteran], 3, Duration::from_micros(200))).expect("plays");
    assert!(a.game.orders().iter().any(|o| matches!(o, Order::SubmarineAttack { .. })), "{:?}", a.game.orders());
    assert_eq!(a.game.orders(), b.game.orders());
    assert_eq!(a.game.state_hash(), b.game.state_hash());
}

/// S-SUB-1, S-SUB-2: the Marshal's escorts. The Grand Fleet has no ASW ship: a flotilla of 4 boats
/// would sink 4 battleships, 40. The Battlecruiser Fleet sends 2 of its 3 ASW ships (split off,
/// sailed there, merged): with 2 the Grand Fleet's worst case is s = +2, passes on 3–6, then 4 ×
/// 10 on 3–6, less 1/3 of half the boats: 4/6 × 40 × 4/6 − 4/3 = 16.4; the Battlecruiser Fleet
/// with 1 left, s = +3 (2–6): 5/6 × 26 × 4/6 − 1/6 × 4 = 13.8 — both under what sending 1 (21.5)
/// or all 3 (26 on the Battlecruiser Fleet) would leave.
#[test]
fn the_marshal_escorts_a_battle_fleet_without_asw_ships() {
    use ai::great_war::judge::torpedo_worth;
    let grand_fleet = [10.0; 8];
    assert_eq!(torpedo_worth(4, 0, &grand_fleet), 40.0);
    assert!((torpedo_worth(4, 2, &grand_fleet) - (4.0 / 6.0 * 40.0 * 4.0 / 6.0 - 4.0 / 3.0)).abs() < 1e-9);
    let battlecruisers = [8.0, 6.0, 6.0, 6.0];
    assert!((torpedo_worth(4, 1, &battlecruisers) - (5.0 / 6.0 * 26.0 * 4.0 / 6.0 - 4.0 / 6.0)).abs() < 1e-9);
    let s = load("north_sea_1916.ron");
    let gb = PowerId(2);
    let orders = orders_of(&s, gb, Level::Marshal);
    let split = orders
        .iter()
        .position(|(o, _)| matches!(o, Order::SplitFleet { fleet: 2, ships, .. } if ships.len() == 2))
        .unwrap_or_else(|| panic!("{:?}", orders.iter().map(|(o, _)| o).collect::<Vec<_>>()));
    let escort = orders[split].1.navy.next_fleet;
    assert!(matches!(orders[split + 1].0, Order::MoveFleet { fleet, .. } if fleet == escort));
    assert_eq!(orders[split + 2].0, Order::MergeFleet { fleet: escort, into: 1 });
    let mut after = orders[split + 2].1.clone();
    after.apply(&orders[split + 2].0).expect("legal");
    assert_eq!(after.navy.count(1, rules::strategic::naval::ShipType::Asw), 2);
    // The Veteran does not plan escorts.
    let veteran = orders_of(&s, gb, Level::Veteran);
    assert!(!veteran.iter().any(|(o, _)| matches!(o, Order::SplitFleet { .. })));
}

/// The test front cleared to a line: French class-1 infantry dug in (level 1) on column 7 every
/// third row, German class-1 infantry on column 9 every second row (two hexes from the French:
/// on the S-SUP-6 front line, not in contact), and German `extra` divisions far behind.
fn line_position(extra: &[(u32, rules::strategic::HexAt)]) -> Scenario {
    line_at(9, extra)
}

/// [`line_position`] with the German line on column `col` (8: in contact with the French).
fn line_at(col: i32, extra: &[(u32, rules::strategic::HexAt)]) -> Scenario {
    use rules::strategic::HexAt;
    let mut s = load("test_front.ron");
    let template = |id: u32, power: &str| {
        let mut f = s
            .forces
            .iter()
            .find(|f| f.id == if power == "germany" { 1 } else { 33 })
            .expect("class-1 infantry")
            .clone();
        f.id = id;
        f.name = None;
        f
    };
    let mut forces = Vec::new();
    for (i, row) in (0..16).step_by(3).enumerate() {
        let mut f = template(60 + i as u32, "france");
        f.at = Some(HexAt::new(7, row));
        forces.push(f);
    }
    for (i, row) in (0..16).step_by(2).enumerate() {
        let mut f = template(1 + i as u32, "germany");
        f.at = Some(HexAt::new(col, row));
        forces.push(f);
    }
    for (id, at) in extra {
        let mut f = template(*id, "germany");
        f.at = Some(*at);
        forces.push(f);
    }
    s.fortifications = forces
        .iter()
        .filter(|f| f.power == "france")
        .map(|f| rules::strategic::scenario::FortSpec {
            at: f.at.expect("on the map"),
            level: 2,
            power: "france".into(),
        })
        .collect();
    s.forces = forces;
    s.corps.clear();
    s.armies.clear();
    s.cylinders.clear();
    s.max_turns = 10;
    s
}

/// Passes (every power) until `power`'s Movement phase, or until the turn after `turn` begins.
fn pass_until(ctx: &mut rules::strategic::Ctx, power: Option<PowerId>, turn: u32) {
    while ctx.clock.phase != Phase::Over && ctx.clock.turn <= turn {
        if power.is_some_and(|p| ctx.active_power() == p && ctx.clock.phase == Phase::Movement) {
            return;
        }
        ctx.apply(&Order::EndPhase).expect("a pass");
    }
}

/// The Marshal's Movement phase for `power` on `ctx`, applied.
fn marshal_moves(ctx: &mut rules::strategic::Ctx, power: PowerId) {
    let mut ai = GwAi::new(power, Level::Marshal, 3);
    while ctx.clock.phase == Phase::Movement && ctx.active_power() == power {
        let o = ai.decide(ctx).expect("its turn");
        ctx.apply(&o).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
}

fn unit_hex(ctx: &rules::strategic::Ctx, id: u32) -> rules::strategic::HexAt {
    ctx.force(rules::strategic::state::ForceId(id)).and_then(|f| f.hex()).expect("on the map")
}

fn nearest_enemy(ctx: &rules::strategic::Ctx, power: PowerId, h: rules::strategic::HexAt) -> u32 {
    ai::great_war::enemy_hexes(ctx, power).into_iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX)
}

/// S-SUP-6: an independent division loses 1 Morale at an Upkeep beyond 2 turns in a row on the
/// front line (within 3 hexes of an enemy, S-COMBAT-1). The German division at (9, 6) has 2 such
/// turns, so the next Upkeep on the line would be its 3rd and cost it 1 Morale; a fresh division
/// stands behind at (12, 6). The Marshal relieves it: the fresh one takes its hex, it goes more
/// than 3 hexes from every enemy, the line keeps no gap, and at the Upkeep its Morale stays while
/// (left on the line by passing) it would have lost 1; its count goes back to 0.
#[test]
fn s_sup_6_the_marshal_relieves_a_front_division_before_the_upkeep_costs_it_morale() {
    use rules::strategic::HexAt;
    use rules::strategic::state::ForceId;
    let s = line_position(&[(9, HexAt::new(12, 6))]);
    let germany = PowerId(0);
    let (tired, fresh) = (ForceId(4), ForceId(9));
    let mut start = GreatWar::new(&s, 3).ctx();
    assert_eq!(unit_hex(&start, 4), HexAt::new(9, 6));
    start.force_mut(tired).expect("the tired division").front.turns = 2;
    let before = start.force(tired).and_then(|f| f.vitals.morale).expect("a Morale");
    let status = |ctx: &rules::strategic::Ctx, u: ForceId| {
        ctx.rotation_status().into_iter().find(|r| r.unit == u).expect("a combatant")
    };
    let r = status(&start, tired);
    assert!(r.on_front && r.period == 2 && r.turns == 2 && r.loses_morale(), "{r:?}");
    assert!(!status(&start, fresh).on_front, "the fresh division stands behind the front line");
    let turn = start.clock.turn;

    // Everyone passes: the next Upkeep costs the tired division 1 Morale (its 3rd turn).
    let mut passed = start.clone();
    pass_until(&mut passed, None, turn);
    assert_eq!(passed.force(tired).and_then(|f| f.vitals.morale), Some(before - 1));
    assert_eq!(passed.force(tired).map(|f| f.front.turns), Some(3));

    // The Marshal relieves it.
    let mut ctx = start.clone();
    pass_until(&mut ctx, Some(germany), turn);
    let front = Front::of(&ctx, germany);
    marshal_moves(&mut ctx, germany);
    let relieved = unit_hex(&ctx, 4);
    assert!(nearest_enemy(&ctx, germany, relieved) > 3, "the tired division left the front line: {relieved}");
    assert!(!status(&ctx, tired).loses_morale());
    // Its sector (the line hexes it covered) stays held, by fresh divisions.
    let sector: Vec<HexAt> =
        front.line.iter().copied().filter(|h| *h == HexAt::new(9, 6) || h.is_adjacent(HexAt::new(9, 6))).collect();
    assert!(!sector.is_empty());
    for h in &sector {
        let holders: Vec<u32> = land_pieces(&ctx, germany)
            .into_iter()
            .filter(|p| p.at == *h || p.at.is_adjacent(*h))
            .filter_map(|p| match p.piece {
                rules::strategic::Piece::Unit(u) => Some(u.0),
                _ => None,
            })
            .collect();
        assert!(!holders.is_empty(), "{h} of the tired division's sector is left open");
        for u in holders {
            assert_eq!(start.force(ForceId(u)).map(|f| f.front.turns), Some(0), "{u} holding {h} is fresh");
        }
    }
    // The relief opens no gap: the line is left no more open than by the Marshal's move with the
    // division fresh (its strikes, and posts it will not take in contact, leave a few hexes).
    let mut rested = start.clone();
    rested.force_mut(tired).expect("the tired division").front.turns = 0;
    pass_until(&mut rested, Some(germany), turn);
    marshal_moves(&mut rested, germany);
    let usual = front.gaps(&rested, germany);
    let gaps = front.gaps(&ctx, germany);
    assert!(gaps.len() <= usual.len(), "the relief opened gaps: {gaps:?}, fresh {usual:?}");
    pass_until(&mut ctx, None, turn);
    assert_eq!(ctx.force(tired).and_then(|f| f.vitals.morale), Some(before), "S-SUP-6 cost no Morale");
    assert_eq!(ctx.force(tired).map(|f| f.front.turns), Some(0), "a turn off resets the count");
    assert_eq!(ctx.force(fresh).map(|f| f.front.turns), Some(1), "the fresh one's first turn on the line");
}

/// S-SUP-6 with S-ARMY-15: a tired division in contact leaves it only by the retreat order, which
/// costs a defender 1 Morale once, where staying on the line costs it 1 Morale at every Upkeep from
/// its 3rd turn on. The German division at (8, 6) stands next to the French at (7, 6) with 2 turns
/// on the front line; a fresh division waits at (12, 6). The Marshal withdraws the tired one off
/// the front line (more than 3 hexes from every enemy) and the fresh one goes into the line, which
/// keeps no more gaps than with the division fresh; at the
/// Upkeep the tired one has lost only the retreat's Morale and its count is back to 0. The Recruit,
/// who does not rotate, leaves it in contact.
#[test]
fn s_sup_6_the_marshal_relieves_a_division_in_contact_by_the_retreat_order() {
    use rules::strategic::HexAt;
    use rules::strategic::state::ForceId;
    let s = line_at(8, &[(9, HexAt::new(12, 6))]);
    let germany = PowerId(0);
    let tired = ForceId(4);
    let post = HexAt::new(8, 6);
    let mut start = GreatWar::new(&s, 3).ctx();
    assert_eq!(unit_hex(&start, 4), post);
    assert!(start.next_to_enemy(germany, post), "the tired division is in contact");
    start.force_mut(tired).expect("the tired division").front.turns = 2;
    let before = start.force(tired).and_then(|f| f.vitals.morale).expect("a Morale");
    let turn = start.clock.turn;

    let mut ctx = start.clone();
    pass_until(&mut ctx, Some(germany), turn);
    let mut ai = GwAi::new(germany, Level::Marshal, 3);
    let mut orders = Vec::new();
    while ctx.clock.phase == Phase::Movement && ctx.active_power() == germany {
        let o = ai.decide(&ctx).expect("its turn");
        ctx.apply(&o).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        orders.push(o);
    }
    let withdrawn = unit_hex(&ctx, 4);
    assert!(
        orders
            .iter()
            .any(|o| matches!(o, Order::Retreat { moves } if moves[0].0 == rules::strategic::Piece::Unit(tired))),
        "S-ARMY-15: it leaves contact by the retreat order: {orders:?}"
    );
    assert!(nearest_enemy(&ctx, germany, withdrawn) > 3, "off the S-SUP-6 front line: {withdrawn}");
    assert_eq!(ctx.force(tired).and_then(|f| f.vitals.morale), Some(before - 1), "S-ARMY-15: 1 Morale");
    // The line is left no more open than by the Marshal's move with the division fresh.
    let front = Front::of(&start, germany);
    let mut rested = start.clone();
    rested.force_mut(tired).expect("the tired division").front.turns = 0;
    pass_until(&mut rested, Some(germany), turn);
    marshal_moves(&mut rested, germany);
    let (gaps, usual) = (front.gaps(&ctx, germany), front.gaps(&rested, germany));
    assert!(gaps.len() <= usual.len(), "the relief opened gaps: {gaps:?}, fresh {usual:?}");
    let relief = unit_hex(&ctx, 9);
    assert!(ctx.next_to_enemy(germany, relief), "the fresh division (9) went into the line: {relief}");
    pass_until(&mut ctx, None, turn);
    assert_eq!(ctx.force(tired).and_then(|f| f.vitals.morale), Some(before - 1), "S-SUP-6 cost nothing more");
    assert_eq!(ctx.force(tired).map(|f| f.front.turns), Some(0), "a turn off the line resets the count");

    let mut recruit = start.clone();
    pass_until(&mut recruit, Some(germany), turn);
    let mut ai = GwAi::new(germany, Level::Recruit, 3);
    while recruit.clock.phase == Phase::Movement && recruit.active_power() == germany {
        let o = ai.decide(&recruit).expect("its turn");
        recruit.apply(&o).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
    assert_eq!(unit_hex(&recruit, 4), post, "the Recruit does not rotate");
}

/// With more divisions than the line needs, the Marshal keeps reserves behind it (two): out of
/// contact, just off the S-SUP-6 front line (4 hexes from the nearest enemy), fresh to relieve.
#[test]
fn the_marshal_keeps_a_reserve_behind_the_front() {
    use rules::strategic::HexAt;
    let s = line_position(&[(9, HexAt::new(18, 6)), (10, HexAt::new(18, 9))]);
    let germany = PowerId(0);
    let mut ctx = GreatWar::new(&s, 3).ctx();
    let turn = ctx.clock.turn;
    pass_until(&mut ctx, Some(germany), turn);
    let front = Front::of(&ctx, germany);
    marshal_moves(&mut ctx, germany);
    let reserves: Vec<HexAt> = land_pieces(&ctx, germany)
        .into_iter()
        .map(|p| p.at)
        .filter(|h| !front.on_line(*h) && !ctx.next_to_enemy(germany, *h) && nearest_enemy(&ctx, germany, *h) == 4)
        .collect();
    // The Marshal keeps two (both spare divisions here); left to the plain reserve moves, one of
    // them would stand 3 hexes from the enemy, on the S-SUP-6 front line, tiring.
    assert!(reserves.len() >= 2, "two reserves stand behind the line: {:?}", land_pieces(&ctx, germany));
}

/// S-ARMY-4: the staff plans its army's moves within the army's frontage and depth (it asks the
/// engine): on the test front the Marshal's and the Veteran's 5th Army (two corps, four infantry
/// divisions: a block of 4 by 5) moves in the first Movement phase, its corps off the hexes they
/// started on, and stands within that block after.
#[test]
fn s_army_4_the_staff_moves_its_army_within_its_frontage_and_depth() {
    use rules::strategic::FormationId;
    use rules::strategic::army::{ARMY_DEPTH_HEXES, fits_block};
    let s = load("test_front.ron");
    let army = FormationId(201);
    for level in [Level::Marshal, Level::Veteran] {
        let (game, _) = after_movement(&s, PowerId(0), level);
        let ctx = game.ctx();
        let moved = game.orders().iter().any(|o| matches!(o, Order::MoveArmy { army: a, .. } if *a == army));
        assert!(moved, "{level}: the army moves");
        let hexes = ctx.formation_hexes(army);
        assert!(!hexes.contains(&rules::strategic::HexAt::new(14, 6)), "{level}: the army left (14,6): {hexes:?}");
        assert_eq!(ctx.army_frontage(army), 4);
        assert!(fits_block(&hexes, ctx.army_frontage(army), ARMY_DEPTH_HEXES), "{level}: {hexes:?}");
    }
}
