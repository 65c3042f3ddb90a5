//! What each side of a battle may know (T-TERR-2): the [`Sight`] of a [`Battle`].
//!
//! The one thing a battle hides is light infantry in forest: a unit with the `Ambush` ability
//! hides in sparse or dense forest when the battle begins or when it ends a move there out of
//! contact; the original ([004], note to the terrain table) says it «не может быть атакована, если
//! отряд противника не подошел к ней вплотную» and that «открыв огонь из укрытия легкая пехота
//! обнаруживает себя». So an enemy sees it when one of its units stands orthogonally next to it
//! (the grid's "close up", the melee adjacency of T-MELEE-1) and from the moment it fires; at two
//! cells, or diagonally, it stays hidden.
//!
//! ```
//! use rules::tactical::{Dir, Side, Terrain};
//! use rules::testing::Field;
//! use rules::view::{Sight, Viewer};
//!
//! // Light infantry of blue in forest, a red line regiment four cells away.
//! let battle = Field::new(8, 8)
//!     .terrain(&[(3, 5)], Terrain::DenseForest)
//!     .unit(1, Side::Red, "line_infantry", (3, 1), Dir::South)
//!     .unit(2, Side::Blue, "light_infantry", (3, 5), Dir::North)
//!     .battle(1);
//! let red = battle.view(Viewer::Player(Side::Red));
//! assert!(red.units.iter().all(|u| u.side == Side::Red), "red does not see the ambush");
//! let blue = battle.view(Viewer::Player(Side::Blue));
//! assert_eq!(blue.units.len(), 2, "blue sees its own unit and the red one");
//! ```

use super::battle::Battle;
use super::components::{Clock, CommandState, Redoubt, Side, SideStates, UnitId};
use super::event::Event;
use super::order::{Order, OrderError};
use super::preview::Preview;
use super::state::{Ctx, Outcome, UnitState};
use crate::dice::Dice;
use crate::hash::StateHash;
use crate::view::{Mirror, Seen, Sight, ViewError, Viewer, view_seed};
use serde::{Deserialize, Serialize};

/// A battle as one viewer knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleView {
    pub viewer: Viewer<Side>,
    /// The scenario it is played on (the map and the unit table are in it).
    pub scenario: StateHash,
    pub clock: Clock,
    pub sides: SideStates,
    pub command: CommandState,
    pub redoubts: Vec<Redoubt>,
    pub outcome: Option<Outcome>,
    /// The units the viewer knows of, by ID: hidden enemies are absent.
    pub units: Vec<UnitState>,
}

impl Ctx {
    /// Whether the unit is hidden from `viewer` (T-TERR-2): an enemy in ambush in forest that
    /// has not fired since it hid, with none of the viewer's units orthogonally next to it.
    pub fn hidden_from(&self, u: &UnitState, viewer: Side) -> bool {
        u.side != viewer
            && u.concealed
            && u.status.on_field()
            && !u.cell.neighbours().iter().any(|n| self.at(*n).is_some_and(|e| e.side == viewer))
    }

    /// The units a viewer knows of, in ID order.
    fn known_units(&self, viewer: Viewer<Side>) -> Vec<UnitState> {
        self.units.iter().filter(|u| viewer.player().is_none_or(|v| !self.hidden_from(u, v))).cloned().collect()
    }

    /// The command state without the units hidden from `viewer` (formation lists, the general's
    /// unit, the HQ).
    fn known_command(&self, viewer: Viewer<Side>) -> CommandState {
        let mut command = self.command.clone();
        let Some(v) = viewer.player() else { return command };
        let hidden = |id: &UnitId| self.unit(*id).is_some_and(|u| self.hidden_from(u, v));
        for f in &mut command.formations {
            f.units.retain(|u| !hidden(u));
            if f.general_with.as_ref().is_some_and(hidden) {
                f.general_with = None;
            }
        }
        for hq in &mut command.hq {
            if hq.as_ref().is_some_and(hidden) {
                *hq = None;
            }
        }
        command
    }

    /// The battle as `viewer` knows it.
    pub fn view(&self, viewer: Viewer<Side>) -> BattleView {
        BattleView {
            viewer,
            scenario: self.statics.scenario.hash(),
            clock: self.clock,
            sides: self.sides,
            command: self.known_command(viewer),
            redoubts: self.redoubts.clone(),
            outcome: self.outcome,
            units: self.known_units(viewer),
        }
    }

    /// Whether an event names a unit hidden from `viewer` now.
    fn names_hidden(&self, event: &Event, viewer: Side) -> bool {
        let hidden = |id: UnitId| self.unit(id).is_some_and(|u| self.hidden_from(u, viewer));
        match event {
            // The events that show a hidden unit are meant for its enemy.
            Event::Revealed { .. } | Event::Ambushed { .. } => false,
            Event::Deployed { unit, .. }
            | Event::HqNamed { unit, .. }
            | Event::Moved { unit, .. }
            | Event::Turned { unit, .. }
            | Event::CounterCharge { unit }
            | Event::ShotsTest { unit, .. }
            | Event::Damaged { unit, .. }
            | Event::MoraleTest { unit, .. }
            | Event::Removed { unit, .. }
            | Event::FellBack { unit, .. }
            | Event::SkirmishOrder { unit, .. }
            | Event::Reformed { unit }
            | Event::ReactionsSet { unit, .. }
            | Event::Retreated { unit }
            | Event::GunsTaken { unit, .. } => hidden(*unit),
            Event::Contact { unit, enemy, .. } => hidden(*unit) || hidden(*enemy),
            Event::Fired { firer, target, .. } => hidden(*firer) || hidden(*target),
            Event::Intercept { unit, target, .. } => hidden(*unit) || hidden(*target),
            Event::SkirmishersCharged { unit, cavalry, .. } => hidden(*unit) || hidden(*cavalry),
            Event::MeleeExchange { units, .. } => units.iter().any(|u| hidden(*u)),
            Event::FormationFormed { units, general, .. } => hidden(*general) || units.iter().any(|u| hidden(*u)),
            Event::GeneralMoved { to, .. } => hidden(*to),
            Event::RedoubtPlaced { .. }
            | Event::SetupDone { .. }
            | Event::BattleBegins
            | Event::TurnBegins { .. }
            | Event::GeneralTest { .. }
            | Event::HqCaptured { .. }
            | Event::RetreatOrdered { .. }
            | Event::Capitulation { .. }
            | Event::TermsAsked { .. }
            | Event::Moderated { .. }
            | Event::Ruled { .. }
            | Event::TurnEnded { .. }
            | Event::BattleEnded { .. } => false,
        }
    }

    /// `events` as `viewer` sees them, by the state as it now stands.
    pub fn seen(&self, viewer: Viewer<Side>, events: &[Event]) -> Vec<Seen<Event>> {
        events
            .iter()
            .map(|e| match viewer.player() {
                Some(v) if self.names_hidden(e, v) => Seen::Hidden,
                _ => Seen::Open(e.clone()),
            })
            .collect()
    }

    /// The working copy as `viewer` knows it: hidden enemies left out, and dice seeded from the
    /// view (the umpire's copy is the whole battle).
    pub fn as_known_by(&self, viewer: Viewer<Side>) -> Ctx {
        let Some(side) = viewer.player() else { return self.clone() };
        let view = self.view(viewer);
        let mut copy = self.clone();
        copy.units = view.units.clone();
        copy.command = view.command.clone();
        copy.events.clear();
        copy.dice = Dice::seeded(view_seed(Battle::view_hash(&view)));
        debug_assert!(copy.units.iter().all(|u| !copy.hidden_from(u, side)));
        copy
    }
}

impl Ctx {
    /// The working copy of a battle as a view tells it, on the scenario's statics: the view's
    /// units, command, redoubts (placed on the map) and clock; the dice those of the viewer's
    /// copy ([`Ctx::as_known_by`]). A view that names a unit the scenario lacks, a unit of
    /// another side or type, units out of ID order, or a cell off the map is refused.
    pub fn from_view(scenario: &super::scenario::Scenario, view: &BattleView) -> Result<Ctx, ViewError> {
        if view.scenario != scenario.hash() {
            return Err(ViewError::Scenario { view: view.scenario, scenario: scenario.hash() });
        }
        let bad = |why: String| Err(ViewError::Inconsistent(why));
        let mut ctx = Battle::new(scenario, 0).ctx();
        if !view.units.windows(2).all(|w| w[0].id < w[1].id) {
            return bad("the units are not in ID order, each once".into());
        }
        for u in &view.units {
            let Some(base) = ctx.unit(u.id) else { return bad(format!("no unit {} in the scenario", u.id.0)) };
            if (base.side, base.kind) != (u.side, u.kind) {
                return bad(format!("unit {} is of another side or type", u.id.0));
            }
            if u.status.on_field() && !ctx.grid.contains(u.cell) {
                return bad(format!("unit {} stands off the map", u.id.0));
            }
        }
        for r in &view.redoubts {
            if !ctx.grid.contains(r.cell) {
                return bad(format!("a redoubt at {} is off the map", r.cell));
            }
            ctx.grid.set(r.cell, super::grid::Terrain::Redoubt);
        }
        ctx.clock = view.clock;
        ctx.sides = view.sides;
        ctx.command = view.command.clone();
        ctx.redoubts = view.redoubts.clone();
        ctx.outcome = view.outcome;
        ctx.units = view.units.clone();
        ctx.dice = Dice::seeded(view_seed(Battle::view_hash(view)));
        Ok(ctx)
    }
}

/// ```
/// use rules::tactical::{Battle, Dir, Side, Terrain};
/// use rules::testing::Field;
/// use rules::view::{Mirror, Sight, Viewer};
///
/// let battle = Field::new(8, 8)
///     .terrain(&[(3, 5)], Terrain::DenseForest)
///     .unit(1, Side::Red, "line_infantry", (3, 1), Dir::South)
///     .unit(2, Side::Blue, "light_infantry", (3, 5), Dir::North)
///     .battle(1);
/// let red = Viewer::Player(Side::Red);
/// let view = battle.view(red);
/// // Red's client plays on the battle red knows: the ambush is not in it.
/// let mirror = Battle::from_view(battle.scenario(), &view).expect("a view of this scenario");
/// assert_eq!(mirror.view(red), view);
/// assert_eq!(mirror.units(None).len(), 1);
/// ```
impl Mirror for Battle {
    fn from_view(scenario: &super::scenario::Scenario, view: &BattleView) -> Result<Battle, ViewError> {
        Ctx::from_view(scenario, view).map(|ctx| Battle::from_ctx(ctx, 0))
    }
}

impl Sight for Battle {
    type View = BattleView;
    type SeenEvent = Seen<Event>;

    fn view(&self, viewer: Viewer<Side>) -> BattleView {
        self.ctx().view(viewer)
    }

    fn seen(&self, viewer: Viewer<Side>, events: &[Event]) -> Vec<Seen<Event>> {
        self.ctx().seen(viewer, events)
    }

    /// The preview of the battle's rules run on the viewer's copy (see [`Ctx::as_known_by`]).
    fn preview_on(ctx: Ctx, order: &Order) -> Result<Preview, OrderError> {
        ctx.preview(order)
    }

    fn ctx_as(&self, viewer: Viewer<Side>) -> Ctx {
        self.ctx().as_known_by(viewer)
    }

    fn known_by(ctx: &Ctx, viewer: Viewer<Side>) -> Ctx {
        ctx.as_known_by(viewer)
    }
}
