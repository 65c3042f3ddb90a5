//! Every AI of the battle, driven through the game-generic `Player` trait (as the app's AI turns
//! drive it), plays as it does when called directly.

use ai::baseline::{GreedyPlayer, RandomPlayer};
use ai::{Ai, Level, Player, Think};
use rules::Game;
use rules::tactical::{Battle, Side};
use rules::testing::shipped;
use web_time::Duration;

/// Plays a game with one player per seat in the game's order of play, a slice at a time, until
/// it is over or `limit` orders were given; the seat to move is found through the game.
fn play_out<G: Game>(game: &mut G, seats: &mut [Box<dyn Player<G>>], slice: Duration, limit: usize) {
    let players = game.players();
    while let Some(active) = game.active_player() {
        if game.orders().len() >= limit {
            return;
        }
        let seat = players.iter().position(|p| *p == active).expect("the active player has a seat");
        let ctx = game.ctx();
        match seats[seat].think(&ctx, slice) {
            Think::Order(order) => {
                game.apply(order.clone()).unwrap_or_else(|e| panic!("{order:?}: {e}"));
            }
            Think::Thinking => {}
            Think::Idle => panic!("the player to move is idle"),
        }
    }
}

#[test]
fn the_planner_through_the_player_trait_plays_the_game_it_plays_directly() {
    let s = shipped("open_field");
    let mut generic = Battle::new(&s, 4);
    let order = generic.players();
    let mut seats: Vec<Box<dyn Player<Battle>>> =
        order.iter().map(|side| Box::new(Ai::new(*side, Level::Recruit, 4)) as Box<dyn Player<Battle>>).collect();
    play_out(&mut generic, &mut seats, Duration::from_micros(200), 60);
    let mut direct = Battle::new(&s, 4);
    let mut ais = [Ai::new(Side::Red, Level::Recruit, 4), Ai::new(Side::Blue, Level::Recruit, 4)];
    while direct.orders().len() < 60 && !Game::is_over(&direct) {
        let active = direct.clock().active;
        let o = ais[active.index()].decide(&direct.ctx()).expect("its turn");
        direct.apply(o).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(generic.orders(), direct.orders());
    assert_eq!(generic.hash(), direct.hash());
}

#[test]
fn the_baselines_are_players_idle_only_when_it_is_not_their_turn() {
    let s = shipped("open_field");
    let mut b = Battle::new(&s, 2);
    let first = b.players()[0];
    let waiting = Game::active_player(&b).map(Side::other).expect("the battle is on");
    let mut greedy = GreedyPlayer::new(waiting);
    assert_eq!(Player::<Battle>::think(&mut greedy, &b.ctx(), Duration::ZERO), Think::Idle);
    let mut greedy = GreedyPlayer::new(waiting.other());
    assert!(matches!(Player::<Battle>::think(&mut greedy, &b.ctx(), Duration::ZERO), Think::Order(_)));
    let mut seats: Vec<Box<dyn Player<Battle>>> =
        vec![Box::new(GreedyPlayer::new(first)), Box::new(RandomPlayer::new(2))];
    play_out(&mut b, &mut seats, Duration::ZERO, 40);
    assert!(b.orders().len() >= 40 || Game::is_over(&b));
    // The random baseline gives, through the trait, the order it gives directly.
    let ctx = Battle::new(&s, 2).ctx();
    let direct = RandomPlayer::new(9).next(&ctx);
    assert_eq!(Player::<Battle>::think(&mut RandomPlayer::new(9), &ctx, Duration::ZERO), Think::Order(direct));
}
