//! Sight: what one viewer may know of a game, decided by the rules in the engine.
//!
//! Every game of the engine is refereed with the whole state in view, but a player knows only
//! what the rules let it see: the Great War hides undetected enemy submarines (S-SUB-5, S-AIR-1),
//! the armies' off-map reserves (S-ARMY-6) and each power's treasury, stocks and research; the
//! battle hides light infantry in forest (T-TERR-2); the campaign hides the standing intercept
//! orders (T-STRAT-2) and the dice of the battle to come. [`Sight`] answers for a [`Viewer`]:
//! the umpire sees everything, a player what its side may know.
//!
//! A [`Sight::View`] is computed from the state and never changes it: saves, replays and state
//! hashes are those of the game alone. The seed and the dice still to come are in no view.
//!
//! ```
//! use rules::tactical::{Battle, Dir, Side, Terrain};
//! use rules::testing::Field;
//! use rules::view::{Sight, Viewer};
//!
//! let battle = Field::new(8, 8)
//!     .terrain(&[(3, 5)], Terrain::SparseForest)
//!     .unit(1, Side::Red, "line_infantry", (3, 1), Dir::South)
//!     .unit(2, Side::Blue, "light_infantry", (3, 5), Dir::North)
//!     .battle(7);
//! let red = battle.view(Viewer::Player(Side::Red));
//! let umpire = battle.view(Viewer::Umpire);
//! // The umpire knows every unit; red does not know of the light infantry in the forest.
//! assert_eq!((umpire.units.len(), red.units.len()), (2, 1));
//! // A view has its own hash, the same for equal views.
//! assert_eq!(Battle::view_hash(&red), Battle::view_hash(&battle.view(Viewer::Player(Side::Red))));
//! ```

use crate::game::Game;
use crate::hash::{StateHash, hash_of};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Who is looking: the umpire (moderator) sees everything; a player sees what its side may know.
///
/// ```
/// use rules::tactical::Side;
/// use rules::view::Viewer;
///
/// assert_eq!(Viewer::Player(Side::Red).player(), Some(Side::Red));
/// assert!(Viewer::<Side>::Umpire.sees_all());
/// assert!(!Viewer::Player(Side::Blue).sees_all());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Viewer<P> {
    Umpire,
    Player(P),
}

impl<P: Copy + Eq> Viewer<P> {
    /// The player looking; `None` for the umpire.
    pub fn player(self) -> Option<P> {
        match self {
            Viewer::Umpire => None,
            Viewer::Player(p) => Some(p),
        }
    }

    /// Whether this viewer sees everything (the umpire).
    pub fn sees_all(self) -> bool {
        matches!(self, Viewer::Umpire)
    }

    /// The umpire for `None`, else the player (for callers that keep an `Option` of a seat).
    pub fn of(player: Option<P>) -> Viewer<P> {
        player.map_or(Viewer::Umpire, Viewer::Player)
    }
}

/// One event as one viewer may see it: redacted, never omitted, so that a viewer's list of events
/// has the length and order of the game's and counts never shift.
///
/// ```
/// use rules::view::Seen;
///
/// let open: Seen<u32> = Seen::Open(3);
/// assert_eq!(open.event(), Some(&3));
/// assert_eq!(Seen::<u32>::Hidden.event(), None);
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Seen<E> {
    /// The event as it happened.
    Open(E),
    /// Something happened that the viewer may not know (a hidden unit moved, its die was thrown):
    /// it keeps its place and says nothing else.
    Hidden,
}

impl<E> Seen<E> {
    /// The event, where the viewer may see it.
    pub fn event(&self) -> Option<&E> {
        match self {
            Seen::Open(e) => Some(e),
            Seen::Hidden => None,
        }
    }

    pub fn is_hidden(&self) -> bool {
        matches!(self, Seen::Hidden)
    }
}

/// A game that knows who is looking.
pub trait Sight: Game {
    /// The state as one viewer knows it: serialisable, self-contained.
    type View: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// One event as one viewer may see it (redacted, never omitted).
    type SeenEvent: Clone + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    fn view(&self, viewer: Viewer<Self::Player>) -> Self::View;

    /// The view's own hash (postcard + FNV like [`crate::hash`]); equal views, equal hashes.
    fn view_hash(view: &Self::View) -> StateHash {
        hash_of(view)
    }

    /// `events` as `viewer` sees them: the same length and order, each redacted as the rules say.
    /// The state decides what is hidden, so pass the events the last order gave (or the log).
    fn seen(&self, viewer: Viewer<Self::Player>, events: &[Self::Event]) -> Vec<Self::SeenEvent>;

    /// What an order would do, computed on the viewer's view only (never reads past it); the
    /// error `apply` would give where the viewer may know it.
    fn preview_as(&self, viewer: Viewer<Self::Player>, order: &Self::Order) -> Result<Self::Preview, Self::Error> {
        Self::preview_on(self.ctx_as(viewer), order)
    }

    /// [`Sight::preview_as`] on a viewer's working copy taken beforehand ([`Sight::ctx_as`]), so
    /// that it may run elsewhere than the game (a server computes it off the game's lock).
    fn preview_on(ctx: Self::Ctx, order: &Self::Order) -> Result<Self::Preview, Self::Error>;

    /// The working copy as the viewer knows it (what the AI thinks on): hidden enemy pieces
    /// absent, enemy secrets reset, and dice that are not the game's (a stream seeded from the
    /// view's hash, so the future dice stay unknown and equal views think alike).
    fn ctx_as(&self, viewer: Viewer<Self::Player>) -> Self::Ctx;
    /// A working copy of the whole state made into the copy `viewer` knows, as
    /// [`Sight::ctx_as`] makes the game's: `known_by(&game.ctx(), v)` equals `game.ctx_as(v)` (the
    /// app's AI thread plays its own orders on a whole copy and thinks on what it knows of it).
    fn known_by(ctx: &Self::Ctx, viewer: Viewer<Self::Player>) -> Self::Ctx;
}

/// The seed of the dice a viewer's working copy throws: the view's hash, so that nothing past the
/// view (the game's seed, its stream) reaches a copy, and equal views throw equal dice.
pub fn view_seed(hash: StateHash) -> u64 {
    hash.0 ^ 0x5167_4854_5649_4557
}

/// Why a view cannot be made into a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("the view is of another scenario (its hash {view}, the scenario's {scenario})")]
    Scenario { view: StateHash, scenario: StateHash },
    #[error("the view is not one the rules could give: {0}")]
    Inconsistent(String),
}

/// A game rebuilt from one viewer's view: what a client plays on when the game itself is
/// another's (the umpire server's). Its pieces and state are those the viewer knows, its dice
/// those of [`Sight::ctx_as`] (seeded from the view, never the game's): its previews are the
/// ones the game gives that viewer, and `from_view(s, &v).view(viewer) == v`.
pub trait Mirror: Sight {
    fn from_view(scenario: &Self::Scenario, view: &Self::View) -> Result<Self, ViewError>;
}
