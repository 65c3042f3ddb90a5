//! What each side of a campaign may know: the [`Sight`] of a [`Campaign`].
//!
//! The campaign map is open (armies, their units and their Health are seen by both sides, as
//! the battle's field is). Hidden from the other side are
//! - the standing intercept orders (T-STRAT-2): an army "with the intercept order" enters the
//!   hex of an enemy passing by, and the mover does not know which armies hold it (the preview
//!   lists the risk instead); the order's giving and taking back are hidden with it;
//! - the written directives leaders send their generals through the moderators (T-STRAT-3);
//! - the dice of the battles to come: a view holds neither the campaign's seed nor a pending
//!   battle's;
//! - in the battle fought on the campaign's log ([`Order::Fight`]), what the battle's own sight
//!   hides (light infantry in forest, T-TERR-2): a view holds the battle as its side knows it
//!   ([`crate::tactical::BattleView`]), never the battle's orders, and a battle event that names
//!   a unit hidden from a side is hidden from it.
//!
//! ```
//! use rules::campaign::{Campaign, CampaignScenario};
//! use rules::game::Game;
//! use rules::tactical::Side;
//! use rules::view::{Sight, Viewer};
//!
//! let path = rules::testing::repo_path("scenarios/campaign/linden.ron");
//! let scenario = CampaignScenario::load(&path).expect("the shipped campaign");
//! let campaign = Campaign::new(&scenario, 3);
//! let red = campaign.view(Viewer::Player(Side::Red));
//! // Blue's standing orders are not in red's view.
//! assert!(red.armies.iter().filter(|a| a.side == Side::Blue).all(|a| !a.intercept));
//! ```

use super::apply::{Ctx, battle_seed};
use super::event::Event;
use super::game::{Campaign, Preview};
use super::order::{Order, OrderError};
use super::scenario::{CampaignScenario, CampaignUnit};
use super::state::{Army, CampaignOutcome, CampaignState, PendingBattle, Question, Regiment};
use crate::game::Game;
use crate::hash::StateHash;
use crate::moderation::Asked;
use crate::tactical::{BattleView, GridMap, Side, UnitId};
use crate::view::{Mirror, Seen, Sight, ViewError, Viewer, view_seed};
use serde::{Deserialize, Serialize};

/// A campaign as one viewer knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignView {
    pub viewer: Viewer<Side>,
    /// The scenario it is played on (the map is in it).
    pub scenario: StateHash,
    pub turn: u32,
    pub active: Side,
    /// Every army, by ID; the other side's intercept orders cleared.
    pub armies: Vec<Army>,
    pub units: Vec<Regiment>,
    pub holders: Vec<Side>,
    /// The waiting battle, its seed left out (0).
    pub battle: Option<PendingBattle>,
    pub battles: u32,
    pub next_army: u32,
    pub outcome: Option<CampaignOutcome>,
    /// The decisions the moderator takes ([`crate::moderation`]); the campaign's map is open,
    /// and so are its questions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asks: Vec<Asked>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
    /// The waiting battle as the viewer knows it, once both sides have chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fight: Option<BattleView>,
    /// The waiting battle's ground, where its field is generated (from the battle's seed, which
    /// no view holds); both sides see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ground: Option<GridMap>,
}

impl Ctx {
    /// The state as `side` knows it, the dice left as they are.
    fn redacted(&self, side: Side) -> Ctx {
        let mut copy = self.clone();
        copy.events.clear();
        for a in copy.state.armies.iter_mut().filter(|a| a.side != side) {
            a.intercept = false;
        }
        copy
    }

    /// The campaign as `viewer` knows it.
    pub fn view(&self, viewer: Viewer<Side>) -> CampaignView {
        let state = match viewer.player() {
            Some(side) => self.redacted(side).state,
            None => self.state.clone(),
        };
        CampaignView {
            viewer,
            scenario: self.scenario.hash(),
            turn: state.turn,
            active: state.active,
            armies: state.armies,
            units: state.units,
            holders: state.holders,
            battle: state.battle.map(|b| PendingBattle { seed: 0, fought: Vec::new(), ..b }),
            battles: state.battles,
            next_army: state.next_army,
            outcome: state.outcome,
            asks: state.asks,
            question: state.question,
            fight: self.fighting.as_ref().map(|f| f.view(viewer)),
            ground: self.ground_of_battle().map(|(_, g)| g),
        }
    }

    /// The waiting battle's ground by its number, where its field is generated (a hand-made
    /// field is the scenario's).
    fn ground_of_battle(&self) -> Option<(u32, GridMap)> {
        let b = self.state.battle.as_ref().filter(|b| self.scenario.field_at(b.at).is_none())?;
        Some((b.number, self.field_of(b).map))
    }

    /// The working copy as `viewer` knows it: the other side's intercept orders cleared, a seed
    /// (and so the dice of the waiting battle) drawn from the view, the waiting battle as the
    /// viewer knows it (its own sight, its dice from its view) and none of its orders; the
    /// umpire's is the campaign's. Whoever fights a battle out whole, both sides, to report it
    /// ([`Order::BattleResult`]) plays as the umpire.
    pub fn as_known_by(&self, viewer: Viewer<Side>) -> Ctx {
        let Some(side) = viewer.player() else { return self.clone() };
        let mut copy = self.redacted(side);
        copy.seed = view_seed(Campaign::view_hash(&self.view(viewer)));
        // The ground its side sees, not one the copy's own seed would generate.
        copy.ground = self.ground_of_battle();
        let seed = copy.seed;
        if let Some(b) = copy.state.battle.as_mut() {
            b.seed = battle_seed(seed, b.number);
            b.fought.clear();
        }
        copy.fighting = self.fighting.as_ref().map(|f| Box::new(f.as_known_by(viewer)));
        copy
    }

    /// `events` as `viewer` sees them: the other side's intercept orders and directives hidden.
    pub fn seen(&self, viewer: Viewer<Side>, events: &[Event]) -> Vec<Seen<Event>> {
        let side_of = |army| self.state.army(army).map(|a| a.side);
        events
            .iter()
            .map(|e| {
                let hidden = viewer.player().is_some_and(|v| match e {
                    Event::InterceptOrder { army, .. } => side_of(*army).is_some_and(|s| s != v),
                    Event::Directive { side, .. } => *side != v,
                    Event::Fought { hidden_from, .. } => hidden_from.contains(&v),
                    _ => false,
                });
                if hidden { Seen::Hidden } else { Seen::Open(e.clone()) }
            })
            .collect()
    }
}

impl Sight for Campaign {
    type View = CampaignView;
    type SeenEvent = Seen<Event>;

    fn view(&self, viewer: Viewer<Side>) -> CampaignView {
        self.ctx().view(viewer)
    }

    fn seen(&self, viewer: Viewer<Side>, events: &[Event]) -> Vec<Seen<Event>> {
        self.ctx().seen(viewer, events)
    }

    /// The campaign's preview run on a campaign standing at the viewer's copy.
    fn preview_on(ctx: Ctx, order: &Order) -> Result<Preview, OrderError> {
        Campaign::at(ctx).preview(order)
    }

    fn ctx_as(&self, viewer: Viewer<Side>) -> Ctx {
        self.ctx().as_known_by(viewer)
    }

    fn known_by(ctx: &Ctx, viewer: Viewer<Side>) -> Ctx {
        ctx.as_known_by(viewer)
    }
}

impl Ctx {
    /// The working copy of a campaign as a view tells it, on the scenario: the view's armies,
    /// units, key hexes, waiting battle and clock; the seed (and so the dice of the waiting
    /// battle) those of the viewer's copy ([`Ctx::as_known_by`]); the battle being fought made
    /// from its own view ([`crate::tactical::Ctx::from_view`]) on the battle's scenario. A view of
    /// another scenario is refused, and so is one the rules could not give: a regiment the
    /// scenario lacks or of another type, armies or units out of ID order, an army off the map,
    /// empty, or with a unit not of its side or in two armies, key hexes of another count, a
    /// battle off the map or without its ground (where the field is generated), or a battle
    /// view with no battle fought.
    pub fn from_view(scenario: &CampaignScenario, view: &CampaignView) -> Result<Ctx, ViewError> {
        if view.scenario != scenario.hash() {
            return Err(ViewError::Scenario { view: view.scenario, scenario: scenario.hash() });
        }
        let bad = |why: String| Err(ViewError::Inconsistent(why));
        let shipped: Vec<&CampaignUnit> = scenario.armies.iter().flat_map(|a| a.units.iter()).collect();
        if !view.units.windows(2).all(|w| w[0].id < w[1].id) {
            return bad("the units are not in ID order, each once".into());
        }
        if !view.armies.windows(2).all(|w| w[0].id < w[1].id) {
            return bad("the armies are not in ID order, each once".into());
        }
        for u in &view.units {
            match shipped.iter().find(|s| s.id == u.id) {
                None => return bad(format!("no unit {} in the scenario", u.id.0)),
                Some(s) if s.unit != u.unit => return bad(format!("unit {} is of another type", u.id.0)),
                Some(_) => {}
            }
        }
        let mut marching: Vec<UnitId> = Vec::new();
        for a in &view.armies {
            if !scenario.map.contains(a.at) {
                return bad(format!("army {} stands off the map", a.id.0));
            }
            if a.units.is_empty() || a.id.0 >= view.next_army {
                return bad(format!("army {} has no units, or an ID not yet given", a.id.0));
            }
            for id in &a.units {
                match view.units.iter().find(|u| u.id == *id) {
                    Some(u) if u.side == a.side && !marching.contains(id) => marching.push(*id),
                    _ => return bad(format!("army {} marches with unit {} not its own, or not once", a.id.0, id.0)),
                }
            }
        }
        if view.holders.len() != scenario.victory.key_hexes.len() {
            return bad(format!(
                "{} key hexes held, where the scenario has {}",
                view.holders.len(),
                scenario.victory.key_hexes.len()
            ));
        }
        if let Some(b) = &view.battle {
            if !scenario.map.contains(b.at) {
                return bad("the waiting battle is off the map".into());
            }
            if scenario.field_at(b.at).is_none() != view.ground.is_some() {
                return bad("the ground of the waiting battle is missing, or given for a hand-made field".into());
            }
        } else if view.ground.is_some() {
            return bad("a battle's ground where no battle waits".into());
        }
        let mut ctx = Ctx::new(scenario, view_seed(Campaign::view_hash(view)));
        ctx.state = CampaignState {
            turn: view.turn,
            active: view.active,
            armies: view.armies.clone(),
            units: view.units.clone(),
            holders: view.holders.clone(),
            battle: view.battle.clone(),
            battles: view.battles,
            next_army: view.next_army,
            outcome: view.outcome,
            asks: view.asks.clone(),
            question: view.question.clone(),
        };
        let seed = ctx.seed;
        if let Some(b) = ctx.state.battle.as_mut() {
            b.seed = battle_seed(seed, b.number);
            b.fought.clear();
        }
        ctx.ground = view.battle.as_ref().zip(view.ground.clone()).map(|(b, g)| (b.number, g));
        ctx.fighting = match (&view.fight, &ctx.state.battle) {
            (None, _) => None,
            (Some(fight), Some(b)) if b.chooser().is_none() => {
                let field = ctx.field_of(b);
                Some(Box::new(crate::tactical::Ctx::from_view(&field, fight)?))
            }
            (Some(_), _) => return bad("a battle is fought where none waits with both sides' forces chosen".into()),
        };
        Ok(ctx)
    }
}

/// ```
/// use rules::campaign::{Campaign, CampaignScenario};
/// use rules::game::Game;
/// use rules::tactical::Side;
/// use rules::view::{Mirror, Sight, Viewer};
///
/// let path = rules::testing::repo_path("scenarios/campaign/linden.ron");
/// let scenario = CampaignScenario::load(&path).expect("the shipped campaign");
/// let campaign = Campaign::new(&scenario, 3);
/// let red = Viewer::Player(Side::Red);
/// let view = campaign.view(red);
/// // Red's client plays on the campaign red knows: the same view, and none of the dice.
/// let mirror = Campaign::from_view(&scenario, &view).expect("a view of this scenario");
/// assert_eq!(mirror.view(red), view);
/// ```
impl Mirror for Campaign {
    fn from_view(scenario: &CampaignScenario, view: &CampaignView) -> Result<Campaign, ViewError> {
        Ctx::from_view(scenario, view).map(Campaign::at)
    }
}
