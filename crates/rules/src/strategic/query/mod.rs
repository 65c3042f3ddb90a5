//! The Great War's query layer: what the app and the AI ask of the engine instead of working the
//! rules out again. Every answer comes from the rule that decides it, through one bounded walk
//! ([`walk`]) where a reach is asked: the pieces a power commands (S-ARMY-3, [`land_pieces`]),
//! where a fleet sails ([`fleet_reach`], [`sea_reach`]), where a retreat goes ([`retreat_reach`])
//! who wants relieving (S-SUP-6, [`rotation`], [`tired`]), what a fleet, a squadron or a coastal
//! gun may do now ([`embark_candidates`], [`merge_partners`], [`torpedo_targets`],
//! [`bomb_targets`], [`coastal_targets`], …, by the orders' own checks) and the provinces as they stand
//! ([`provinces`], read by borrow). Land moves are
//! [`Ctx::destinations`](crate::strategic::Ctx::destinations)'s (the engine's own walk, bounded by MP).
//!
//! A call about a piece is told its viewer where what it answers depends on who asks: `None` is
//! the umpire, who may ask of anything; a power asks of its own pieces.

mod candidates;
mod pieces;
mod provinces;
mod retreat;
mod rotation;
mod sea;
mod walk;

pub use candidates::{
    bomb_targets, coastal_targets, embark_candidates, merge_partners, squadron_attach_candidates,
    squadron_embark_candidates, torpedo_targets, wing_candidates,
};
pub use pieces::{
    LandPiece, army_moves, army_of, attached_squadrons, engaged_pieces, land_pieces, order_formation, pieces_at,
    pieces_on_map, squadrons_at,
};
pub use provinces::{powers, provinces};
pub use retreat::{retreat_may_pass, retreat_reach};
pub use rotation::{rotation, tired};
pub use sea::{fleet_may_enter, fleet_reach, sea_reach};
pub use walk::{Walk, walk};
