//! The one place where the server turns a game and a seat into what it sends that seat: the
//! seat's view, its events as it may see them, and previews computed on what it knows. Nothing
//! else of a game's state leaves the server (refusals and lobby data aside).
//!
//! Until the engine's sight rules (`rules::view::Sight`) are in, a seat is sent the game's
//! public clock only (turn, whether it is over) and every event as hidden: nothing a seat may not
//! know can leak through here, and previews are refused.

use rules::Game;
use serde::Serialize;
use serde_json::{Value, json};

/// Who is looking: the umpire (the moderator) or one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer<P> {
    Umpire,
    Player(P),
}

/// Why a preview was not given.
#[derive(Debug)]
pub enum PreviewError<E> {
    Refused(E),
    Unavailable,
}

/// What a game shows to one viewer.
pub trait Sighted: Game {
    fn view_json(&self, viewer: Viewer<Self::Player>) -> Value;
    /// The events of one order as the viewer sees them (same length and order).
    fn seen_json(&self, viewer: Viewer<Self::Player>, events: &[Self::Event]) -> Vec<Value>;
    fn preview_json(&self, viewer: Viewer<Self::Player>, order: &Self::Order) -> Result<Value, PreviewError<Self::Error>>;
    /// The working copy the server's AI thinks on for a player.
    fn ctx_for(&self, viewer: Viewer<Self::Player>) -> Self::Ctx;
}

fn public<G: Game>(game: &G) -> Value {
    json!({ "turn": game.turn(), "over": game.is_over() })
}

fn hidden(events: usize) -> Vec<Value> {
    vec![Value::String("hidden".to_string()); events]
}

impl<G: Game> Sighted for G
where
    G::Preview: Serialize,
{
    fn view_json(&self, _viewer: Viewer<G::Player>) -> Value {
        public(self)
    }

    fn seen_json(&self, _viewer: Viewer<G::Player>, events: &[G::Event]) -> Vec<Value> {
        hidden(events.len())
    }

    fn preview_json(&self, _viewer: Viewer<G::Player>, _order: &G::Order) -> Result<Value, PreviewError<G::Error>> {
        Err(PreviewError::Unavailable)
    }

    fn ctx_for(&self, _viewer: Viewer<G::Player>) -> G::Ctx {
        self.ctx()
    }
}
