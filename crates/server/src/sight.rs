//! The one place where the server turns a game and a seat into what it sends that seat: the
//! seat's view, its events as it may see them, and previews computed on what it knows, all from
//! the engine's sight rules ([`rules::view::Sight`]). Nothing else of a game's state leaves the
//! server (refusals and lobby data aside); the umpire's view goes to the moderator only.

use rules::view::Sight;
pub use rules::view::Viewer;
use serde::Serialize;
use serde_json::Value;

/// What a game shows to one viewer, as JSON.
pub trait Sighted: Sight {
    fn view_json(&self, viewer: Viewer<Self::Player>) -> Value;
    /// The events of one order as the viewer sees them (same length and order).
    fn seen_json(&self, viewer: Viewer<Self::Player>, events: &[Self::Event]) -> Vec<Value>;
    fn preview_json(&self, viewer: Viewer<Self::Player>, order: &Self::Order) -> Result<Value, Self::Error>;
    /// [`Sighted::preview_json`] on a viewer's working copy taken beforehand ([`Sighted::ctx_for`]).
    fn preview_on_json(ctx: Self::Ctx, order: &Self::Order) -> Result<Value, Self::Error>;
    /// The working copy the server's AI thinks on for a player: what that player knows.
    fn ctx_for(&self, viewer: Viewer<Self::Player>) -> Self::Ctx;
}

/// A value as JSON; a view the encoder cannot write is a bug of the engine's types, sent as
/// nothing rather than as anything else.
fn json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<G: Sight> Sighted for G
where
    G::Preview: Serialize,
{
    fn view_json(&self, viewer: Viewer<G::Player>) -> Value {
        json(&self.view(viewer))
    }

    fn seen_json(&self, viewer: Viewer<G::Player>, events: &[G::Event]) -> Vec<Value> {
        self.seen(viewer, events).iter().map(json).collect()
    }

    fn preview_json(&self, viewer: Viewer<G::Player>, order: &G::Order) -> Result<Value, G::Error> {
        self.preview_as(viewer, order).map(|p| json(&p))
    }

    fn preview_on_json(ctx: G::Ctx, order: &G::Order) -> Result<Value, G::Error> {
        G::preview_on(ctx, order).map(|p| json(&p))
    }

    fn ctx_for(&self, viewer: Viewer<G::Player>) -> G::Ctx {
        self.ctx_as(viewer)
    }
}
