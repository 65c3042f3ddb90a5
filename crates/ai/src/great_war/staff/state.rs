//! What the staff keeps between its work items: the work items themselves, the pieces it moves,
//! the drafts of long work under way and the step timings; the [`Staff`] struct.

use super::doctrine::Doctrine;
use crate::great_war::front::{Front, FrontDraft};
use rules::strategic::army::RETREAT_HEXES;
use rules::strategic::state::{ForceId, FormationId};
use rules::strategic::upkeep::CityWalk;
use rules::strategic::{Ctx, HexAt, Order, Phase, Piece, PowerId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use web_time::Duration;

/// A piece the staff may move: an independent unit or corps, or a corps of an army (moved by the
/// army's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Mover {
    pub(super) piece: Piece,
    pub(super) army: Option<FormationId>,
    pub(super) at: HexAt,
    pub(super) artillery: bool,
}

/// S-COMBAT-11: the enemy hexes within two hexes of its troops the staff looks at for a ring to
/// close, at most (the nearest to its reserves first), a work item each.
pub(super) const RING_TARGETS: usize = 16;

/// S-COMBAT-11: how far around a pocket the staff looks for hexes open to its cities (two
/// retreats' length, S-ARMY-15).
pub(super) const ESCAPE_RADIUS: u32 = 2 * RETREAT_HEXES as u32;

/// Hexes of front-drawing work in one work item (about a millisecond in a release build).
pub(super) const FRONT_WORK: usize = 5_000;

/// Where a reserve's look at the contacts within its reach stands ([`Staff::reserve_contact`]).
pub(super) enum Contact {
    /// More previews to make, in the next work item.
    Pending,
    Found(HexAt, Vec<HexAt>),
    None,
}

/// A reserve's contacts between work items: those to preview, the next, the best so far (margin,
/// hex, path).
pub(super) struct ContactDraft {
    pub(super) piece: Piece,
    pub(super) list: Vec<(HexAt, Vec<HexAt>)>,
    pub(super) next: usize,
    pub(super) best: Option<(i64, HexAt, Vec<HexAt>)>,
}

/// Previews of a reserve's contacts in one work item.
pub(super) const CONTACT_WORK: usize = 4;

/// The pockets' walks between their work items (S-COMBAT-11): the walk under way, and the hexes
/// open to our cities once the first (with the enemy counted) is done.
pub(super) struct PocketDraft {
    pub(super) walk: CityWalk,
    pub(super) open: Option<Vec<bool>>,
}

/// The plan between its work items: the pieces, the posts wanted, and what each piece reaches.
pub(super) struct PlanDraft {
    pub(super) all: Vec<Mover>,
    pub(super) free: Vec<Mover>,
    pub(super) posts: Vec<HexAt>,
    pub(super) reach: BTreeMap<Piece, BTreeMap<HexAt, u32>>,
    /// The paths of each piece to the hexes it reaches next to an enemy (a strike's moves).
    pub(super) contacts: BTreeMap<Piece, Vec<(HexAt, Vec<HexAt>)>>,
    /// The matching of posts and pieces under way: the posts still open and the pieces left.
    pub(super) matching: Option<(Vec<HexAt>, Vec<Mover>)>,
    /// Hexes of free pieces that the next Upkeep on the front line would cost Morale (S-SUP-6).
    pub(super) tired_at: BTreeSet<HexAt>,
    /// What each piece reaches of `tired_at` (the hex is free once its piece is relieved).
    pub(super) relief: BTreeMap<Piece, Vec<(HexAt, u32)>>,
    /// Tired pieces in contact (S-SUP-6) that may withdraw by the retreat order (S-ARMY-15).
    pub(super) withdraw: Vec<Mover>,
    /// The posts wanted this phase (before the matching takes them).
    pub(super) wanted: BTreeSet<HexAt>,
}

#[derive(Clone, Debug)]
pub(super) enum Item {
    /// Draw this phase's front, a part at a time ([`FrontDraft`]).
    Front,
    /// Research what the war calls for (S-TURN-1), before the economy buys what it opens.
    Research,
    Economy,
    /// Upgrade the 1914 divisions nearest the enemy first (S-LAND-4).
    Upgrades,
    /// Raise what the front lacks at the own cities nearest the enemy (issue 12 purchases).
    Recruits,
    Engaged(Piece),
    /// Retreat this engaged piece (S-ARMY-15), once the front is drawn.
    Retreat(Piece),
    /// Withdraw this tired piece from contact so a fresh one takes its hex (S-SUP-6, S-ARMY-15).
    Withdraw(Mover),
    /// Step this piece back from the intact enemy fortress it fights at a loss (S-FORT-6).
    Screen(Piece),
    /// Find the own pieces the enemy has encircled and the open hexes near them (S-COMBAT-11).
    Pockets,
    /// Take this encircled piece out of the pocket, by a move or (engaged) the retreat order.
    Escape(Mover),
    /// List the enemy hexes a ring may close round (S-COMBAT-11).
    Rings,
    /// Send a reserve to the hex that closes a ring round this enemy hex, if one does.
    Ring(HexAt),
    Plan,
    Reach(Mover),
    Assign,
    /// List the enemy hexes a strike may reach.
    Strikes,
    /// Mass reserves on this enemy hex if the preview sees it dispersed or destroyed.
    Strike(HexAt),
    Move(Mover),
    Army(FormationId),
    Fortify,
    Fleets,
    /// One fleet's orders.
    Fleet(u32),
    Gun(ForceId),
    /// One squadron's bombing (S-AIR-2).
    Air(u32),
    Gas,
    /// Release the cylinder on this hex where it harms the enemy most, if anywhere (S-CHEM-1), on
    /// the game as the releases before it left it.
    Release(HexAt),
    /// Place gas cylinders where our troops face the enemy (S-CHEM-1).
    Cylinders,
    /// Form batteries of guns standing together (S-ART-5).
    Batteries,
    /// Break enemy fortresses with the guns that together can this Fire phase (S-FORT-6).
    Siege,
    /// Commit this army reserve where a contact next to its army needs it (S-ARMY-8).
    Commit(ForceId),
    /// Send this spare division next to this army into its off-map reserve (S-ARMY-6).
    ArmyReserve(Mover, FormationId),
    /// List the units cut off by sea from the front and the fleets that may carry them (S-NAVAL-11).
    SeaLift,
    /// This fleet's crossing with cut-off units, if one fits in this phase (S-NAVAL-11).
    Crossing(u32),
    /// A fleet with warships sails toward the cut-off units no crossing took (S-NAVAL-11).
    LiftStation,
    /// ASW ships into a reconnaissance squadron's radius over known boats (S-SUB-2, S-SUB-6).
    Hunt,
    /// This reconnaissance squadron's flight (S-AIR-1).
    Recon(u32),
}

/// The general staff of one power.
pub struct Staff {
    pub(super) power: PowerId,
    pub(super) doctrine: Doctrine,
    pub(super) key: Option<(u32, Phase)>,
    pub(super) items: VecDeque<Item>,
    pub(super) queue: VecDeque<Order>,
    /// This turn's posts by mover, and the hexes already claimed.
    pub(super) posts: BTreeMap<Piece, HexAt>,
    pub(super) claimed: BTreeSet<HexAt>,
    /// Corps moves of each army, gathered for one order.
    pub(super) army_moves: BTreeMap<FormationId, Vec<(FormationId, Vec<HexAt>)>>,
    /// This phase's front, shared by the work items that read it.
    pub(super) front: Option<std::sync::Arc<Front>>,
    /// Money left to spend this Movement phase after the purchases already queued.
    pub(super) money: i64,
    /// Pieces sent to stand on a hex of an enemy province's capital this turn (S-CITY-1).
    pub(super) grabs: BTreeMap<Piece, HexAt>,
    /// Enemy cities open to the reserves this phase ([`objectives`]).
    pub(super) objectives: Vec<HexAt>,
    pub(super) draft: Option<FrontDraft>,
    pub(super) plan_draft: Option<PlanDraft>,
    /// The pieces free to move this phase that may join a strike.
    pub(super) reserves: Vec<Mover>,
    /// Moves of the strikes planned this phase, by piece.
    pub(super) strikes: BTreeMap<Piece, (HexAt, Vec<HexAt>)>,
    pub(super) strike_draft: Option<StrikeDraft>,
    /// A piece retreated after the front was drawn: the plan draws it again.
    pub(super) redraw: bool,
    /// Tired pieces relieved this phase (S-SUP-6): they leave the front line first.
    pub(super) relieved: BTreeSet<Piece>,
    /// Engaged pieces given an attack this phase (they stay in the fight).
    pub(super) attacking: BTreeSet<Piece>,
    /// This phase's own hexes the enemy has encircled (S-COMBAT-11), and the hexes open to our
    /// cities near them, where their pieces escape to.
    pub(super) pocket: BTreeSet<HexAt>,
    pub(super) exits: Vec<HexAt>,
    pub(super) pocket_draft: Option<PocketDraft>,
    /// A reserve's look at its contacts under way.
    pub(super) contact_draft: Option<ContactDraft>,
    /// Pieces kept as a reserve behind the line this phase.
    pub(super) kept: BTreeSet<Piece>,
    /// Spare divisions going into an army's off-map reserve this phase (S-ARMY-6).
    pub(super) army_reserve: BTreeMap<Piece, FormationId>,
    /// The longest work item of this phase so far (when a slice stops; it changes no decision).
    pub(super) longest_item: Duration,
    /// A gun's preparation shot under way: the targets looked at and the best shot so far.
    pub(super) shot_draft: Option<ShotDraft>,
    /// Fleets that carried cut-off units or sail to fetch them this phase: their moves are spent
    /// on it (S-NAVAL-11).
    pub(super) lifting: Vec<u32>,
    /// How long each kind of step took over the game (it changes no decision).
    pub steps: StepTimes,
}

/// The time a staff's steps took, by kind (work items, the phase's start, the engine's check of a
/// queued order): how many, in all, and the longest; for the bench and `umpire play`.
#[derive(Clone, Debug, Default)]
pub struct StepTimes(pub BTreeMap<&'static str, StepTime>);

#[derive(Clone, Copy, Debug, Default)]
pub struct StepTime {
    pub count: u32,
    pub total: Duration,
    pub longest: Duration,
}

impl StepTimes {
    pub fn add(&mut self, kind: &'static str, took: Duration) {
        let t = self.0.entry(kind).or_default();
        t.count += 1;
        t.total += took;
        t.longest = t.longest.max(took);
    }

    pub fn merge(&mut self, other: &StepTimes) {
        for (kind, o) in &other.0 {
            let t = self.0.entry(kind).or_default();
            t.count += o.count;
            t.total += o.total;
            t.longest = t.longest.max(o.longest);
        }
    }
}

impl Item {
    /// The kind of work, for [`StepTimes`].
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Item::Front => "front",
            Item::Research => "research",
            Item::Economy => "economy",
            Item::Upgrades => "upgrades",
            Item::Recruits => "recruits",
            Item::Engaged(_) => "engaged",
            Item::Retreat(_) => "retreat",
            Item::Withdraw(_) => "withdraw",
            Item::Screen(_) => "screen",
            Item::Pockets => "pockets",
            Item::Escape(_) => "escape",
            Item::Rings => "rings",
            Item::Ring(_) => "ring",
            Item::Plan => "plan",
            Item::Reach(_) => "reach",
            Item::Assign => "assign",
            Item::Strikes => "strikes",
            Item::Strike(_) => "strike",
            Item::Move(_) => "move",
            Item::Army(_) => "army",
            Item::Fortify => "fortify",
            Item::Fleets => "fleets",
            Item::Fleet(_) => "fleet",
            Item::Gun(_) => "gun",
            Item::Air(_) => "air",
            Item::Gas => "gas",
            Item::Release(_) => "release",
            Item::Cylinders => "cylinders",
            Item::Batteries => "batteries",
            Item::Siege => "siege",
            Item::Commit(_) => "commit",
            Item::ArmyReserve(..) => "army reserve",
            Item::SeaLift => "sea lift",
            Item::Crossing(_) => "crossing",
            Item::LiftStation => "lift station",
            Item::Hunt => "hunt",
            Item::Recon(_) => "recon",
        }
    }
}

/// Gas cylinders a staff that prepares its attacks keeps in store.
pub(super) const GAS_CYLINDERS: u32 = 2;

/// A gun's preparation shot being chosen ([`Staff::gun`]).
pub(super) struct ShotDraft {
    pub(super) gun: ForceId,
    pub(super) targets: Vec<HexAt>,
    pub(super) next: usize,
    pub(super) best: Option<(f64, Order)>,
    /// Looking at every enemy hex in range by the harm alone (no engagement prepared there).
    pub(super) harm: bool,
}

/// A strike being planned: the blind copy holding the moves chosen so far, their margin, and the
/// round under way (the next reserve to look at and the best join found).
pub(super) struct StrikeDraft {
    pub(super) target: HexAt,
    pub(super) probe: Ctx,
    pub(super) chosen: Vec<(Piece, HexAt, Vec<HexAt>, Option<FormationId>)>,
    pub(super) margin: i64,
    pub(super) next: usize,
    /// The next of the reserve's contacts next to the target to preview.
    pub(super) near: usize,
    pub(super) best: Option<(i64, Mover, HexAt, Vec<HexAt>)>,
}
