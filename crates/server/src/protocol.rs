//! The messages of a game's live stream: defined once, in the `wire` crate, for the server and
//! its clients.

pub use wire::*;
