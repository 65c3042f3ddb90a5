//! A campaign: the working state behind a small API, a [`Game`] like the battle and the Great
//! War, with saves (`CampaignSave(..)`) that embed their battles and replay bit-identically.

use super::apply::Ctx;
use super::event::Event;
use super::field::default_forces;
use super::fight::stand_battle;
use super::map::HexAt;
use super::order::{Order, OrderError};
use super::scenario::CampaignScenario;
use super::state::{ArmyId, CampaignState};
use crate::data::DataError;
use crate::game::{Game, Save};
use crate::hash::StateHash;
use crate::replay::Checkpoint;
use crate::tactical::Side;
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the campaign save format.
pub const CAMPAIGN_SAVE_FORMAT: u32 = 1;

/// A saved campaign.
pub type CampaignSave = Save<Campaign>;

/// A campaign in progress.
#[derive(Clone, Debug)]
pub struct Campaign {
    ctx: Ctx,
    orders: Vec<Order>,
    checkpoints: Vec<Checkpoint>,
    events: Vec<Event>,
}

/// What an order would do, as the side giving it knows the map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preview {
    /// For a move: every hex the army could reach this turn, with the MP it costs.
    pub reach: Vec<(HexAt, u32)>,
    /// Enemy armies within intercept range of the path: whether they hold the (secret) intercept
    /// order is not known (T-STRAT-2).
    pub interception_risk: Vec<ArmyId>,
    /// The battle the order would start or settle.
    pub battle: Option<BattleForecast>,
    /// What would happen, if no enemy intercepts.
    pub events: Vec<String>,
    /// For an order of the battle fought on the campaign's log ([`Order::Fight`]): the battle's
    /// own preview, with its odds, on the battle as the side giving it knows it.
    pub fight: Option<crate::tactical::Preview>,
}

/// A battle foreseen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleForecast {
    pub at: HexAt,
    pub attacker: Side,
    /// Units in the hex and units that fight, red then blue (T-STRAT-5/6).
    pub units: [usize; 2],
    pub fielded: [usize; 2],
    /// Settled by auto-battle (T-STRAT-9); its outcome has no dice, so the odds are 0 or 1.
    pub auto: bool,
    pub attacker_wins: Option<f64>,
}

impl Campaign {
    pub fn state(&self) -> &CampaignState {
        &self.ctx.state
    }

    pub fn hash(&self) -> StateHash {
        self.ctx.state.hash()
    }

    /// The waiting battle as it stands once both sides have chosen (the umpire's: the whole
    /// battle; a side's is in its view).
    pub fn fight(&self) -> Option<&crate::tactical::Ctx> {
        self.ctx.fighting.as_deref()
    }

    /// The waiting battle once both sides have chosen, as a battle of its own standing where the
    /// campaign's log has fought it (no log of its own): on a campaign rebuilt from a side's view
    /// ([`crate::view::Mirror`]), the battle that side knows, which a seat online plays on and
    /// previews with. Its orders are the campaign's [`super::Order::Fight`].
    pub fn fight_game(&self) -> Option<crate::tactical::Battle> {
        self.ctx.fighting.as_deref().map(|f| crate::tactical::Battle::from_ctx(f.clone(), 0))
    }

    /// The tactical scenario of the waiting battle, after the cut (defaults where a side has not
    /// chosen yet): to be played alone or inspected.
    pub fn battle_scenario(&self) -> Option<crate::tactical::Scenario> {
        self.ctx.battle_scenario()
    }

    /// Every hex an army could reach with the MP it has left, with the cost (T-STRAT-1); it
    /// stops in enemy hexes.
    pub fn reach(&self, army: ArmyId) -> Vec<(HexAt, u32)> {
        let Some(a) = self.ctx.state.army(army) else { return Vec::new() };
        let mut best: BTreeMap<HexAt, u32> = BTreeMap::from([(a.at, 0)]);
        let mut frontier = vec![a.at];
        while let Some(h) = frontier.pop() {
            let spent = best.get(&h).copied().unwrap_or(0);
            if h != a.at && self.ctx.state.enemy_at(h, a.side) {
                continue;
            }
            for n in h.neighbours() {
                let Ok(cost) = self.ctx.step_cost(h, n) else { continue };
                let total = spent.saturating_add(cost);
                if total <= a.mp_left && best.get(&n).is_none_or(|b| total < *b) {
                    best.insert(n, total);
                    frontier.push(n);
                }
            }
        }
        best.remove(&a.at);
        best.into_iter().collect()
    }

    /// Enemy armies that could intercept a path (T-STRAT-2).
    pub fn interception_risk(&self, side: Side, path: &[HexAt]) -> Vec<ArmyId> {
        let range = self.ctx.scenario.campaign_rules.intercept_range;
        self.ctx
            .state
            .armies
            .iter()
            .filter(|a| a.side != side && path.iter().any(|h| a.at != *h && a.at.distance(*h) <= range))
            .map(|a| a.id)
            .collect()
    }
}

impl Game for Campaign {
    const SAVE_NAME: &'static str = "CampaignSave";
    const SAVE_FORMAT: u32 = CAMPAIGN_SAVE_FORMAT;

    type Scenario = CampaignScenario;
    type Order = Order;
    type Error = OrderError;
    type Event = Event;
    type Ctx = Ctx;
    type Preview = Preview;
    type Player = Side;

    fn new(scenario: &CampaignScenario, seed: u64) -> Campaign {
        let ctx = Ctx::new(scenario, seed);
        let mut checkpoints = Vec::new();
        crate::replay::record(&mut checkpoints, 0, 1, ctx.state.hash());
        Campaign { ctx, orders: Vec::new(), checkpoints, events: Vec::new() }
    }

    fn apply(&mut self, order: Order) -> Result<Vec<Event>, OrderError> {
        let mut ctx = self.ctx.clone();
        ctx.events.clear();
        ctx.apply(&order)?;
        let events = std::mem::take(&mut ctx.events);
        self.ctx = ctx;
        let checkpoint = Self::ends_turn(&order) || self.ctx.state.outcome.is_some();
        self.orders.push(order);
        self.events.extend(events.iter().cloned());
        if checkpoint {
            crate::replay::record(&mut self.checkpoints, self.orders.len(), self.ctx.state.turn, self.ctx.state.hash());
        }
        Ok(events)
    }

    /// The order applied to a copy on which no enemy army holds the intercept order (the side
    /// moving does not know them); the risk is listed instead.
    fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        let mut copy = self.ctx.clone();
        let side = copy.active_player().ok_or(OrderError::CampaignOver)?;
        for a in copy.state.armies.iter_mut().filter(|a| a.side != side) {
            a.intercept = false;
        }
        copy.events.clear();
        copy.apply(order)?;
        let (reach, risk) = match order {
            Order::Move { army, path } => (self.reach(*army), self.interception_risk(side, path)),
            _ => (Vec::new(), Vec::new()),
        };
        let battle = copy.events.iter().find_map(|e| match e {
            Event::BattleJoined { at, attacker, units } => Some((*at, *attacker, *units)),
            _ => None,
        });
        let battle = battle.map(|(at, attacker, units)| {
            let auto_winner = copy.events.iter().find_map(|e| match e {
                Event::AutoBattleWon { winner, .. } => Some(*winner),
                _ => None,
            });
            let fielded = copy.state.battle.as_ref().map_or(units, |b| b.fielded);
            BattleForecast {
                at,
                attacker,
                units,
                fielded,
                auto: auto_winner.is_some(),
                attacker_wins: auto_winner.map(|w| if w == attacker { 1.0 } else { 0.0 }),
            }
        });
        let fight = match (order, &self.ctx.fighting) {
            (Order::Fight(o), Some(f)) => Some(f.preview(o).map_err(OrderError::Fight)?),
            _ => None,
        };
        Ok(Preview {
            reach,
            interception_risk: risk,
            battle,
            events: copy.events.iter().map(ToString::to_string).collect(),
            fight,
        })
    }

    fn ctx(&self) -> Ctx {
        self.ctx.clone()
    }

    fn players(&self) -> Vec<Side> {
        let first = self.ctx.scenario.first;
        vec![first, first.other()]
    }

    fn active_player(&self) -> Option<Side> {
        self.ctx.active_player()
    }

    fn awaits_moderator(&self) -> bool {
        self.ctx.awaits_moderator()
    }

    fn default_ruling(&self) -> Option<Order> {
        self.awaits_moderator().then_some(Order::Rule(super::Ruling::Default))
    }

    fn is_moderators(order: &Order) -> bool {
        matches!(order, Order::Moderate { .. } | Order::Rule(_))
    }

    fn is_over(&self) -> bool {
        self.ctx.state.outcome.is_some()
    }

    fn turn(&self) -> u32 {
        self.ctx.state.turn
    }

    fn orders(&self) -> &[Order] {
        &self.orders
    }

    fn events(&self) -> &[Event] {
        &self.events
    }

    fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    fn scenario(&self) -> &CampaignScenario {
        &self.ctx.scenario
    }

    fn seed(&self) -> u64 {
        self.ctx.seed
    }

    fn state_hash(&self) -> StateHash {
        self.hash()
    }

    fn dice_thrown(&self) -> u64 {
        let fighting = self.ctx.fighting.as_ref().map_or(0, |f| f.dice.thrown());
        self.ctx.battle_dice.saturating_add(fighting)
    }

    /// End the turn; choose the default forces; in the waiting battle, end the side's set-up or
    /// turn (T-TURN-2: what a side whose time ran out does).
    fn pass(&self) -> Order {
        let state = &self.ctx.state;
        match &state.battle {
            None => Order::EndTurn,
            Some(b) => match (b.chooser(), &self.ctx.fighting) {
                (Some(side), _) => Order::ChooseForces(default_forces(state, &self.ctx.scenario, b, side)),
                (None, Some(fight)) => Order::Fight(crate::tactical::Order::pass_in(fight.clock.phase)),
                (None, None) => match self.ctx.battle_scenario() {
                    Some(scenario) => Order::BattleResult { save: Box::new(stand_battle(&scenario, b.seed)) },
                    None => Order::EndTurn,
                },
            },
        }
    }

    fn ends_turn(order: &Order) -> bool {
        match order {
            Order::Fight(order) => <crate::tactical::Battle as Game>::ends_turn(order),
            _ => matches!(order, Order::EndTurn | Order::ChooseForces(_) | Order::BattleResult { .. }),
        }
    }

    fn reveals(_: &Event) -> bool {
        false
    }

    fn scenario_name(scenario: &CampaignScenario) -> &str {
        &scenario.name
    }

    fn scenario_hash(scenario: &CampaignScenario) -> StateHash {
        scenario.hash()
    }

    fn check_save(save: &CampaignSave, path: &str, text: &str) -> Result<(), DataError> {
        save.scenario.check_embedded(path, text, "scenario")
    }
}

impl Campaign {
    /// A campaign standing at a working state, with no log: for a player that thinks on a copy
    /// of the game it is given (an AI driven through `Game::ctx`).
    pub fn at(ctx: Ctx) -> Campaign {
        Campaign { ctx, orders: Vec::new(), checkpoints: Vec::new(), events: Vec::new() }
    }
}
