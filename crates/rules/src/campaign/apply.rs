//! The one door into the campaign rules: every order is validated, then applied, by
//! [`Ctx::apply`] on a working copy; on error nothing has changed.

use super::event::Event;
use super::field::most_redoubts;
use super::map::{Crossing, HexAt};
use super::order::{MAX_DIRECTIVE_CHARS, Order, OrderError, Ruling};
use super::resolve::{AutoUnit, attacker_redoubts, auto_battle, cut, fortress_cut, left_out_loss};
use super::scenario::CampaignScenario;
use super::state::*;
use crate::hash::fnv1a64;
use crate::moderation::Asked;
use crate::tactical::config::GeneralFate;
use crate::tactical::setup::DEFAULT_FORMATION;
use crate::tactical::units::Arm;
use crate::tactical::{BattleResult, Scenario, Side, Status, UnitId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The working copy of a campaign an order acts on.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub scenario: Arc<CampaignScenario>,
    pub seed: u64,
    pub state: CampaignState,
    /// Events of the order being applied.
    pub events: Vec<Event>,
    /// Dice thrown in the battles fought so far.
    pub battle_dice: u64,
    /// The waiting battle as it stands once both sides have chosen (its working copy, the
    /// battle's own [`crate::tactical::Ctx`]): what [`PendingBattle::fought`] made of its
    /// scenario and seed, kept so that an order does not replay the battle. A viewer's copy
    /// holds the battle as that viewer knows it ([`Ctx::as_known_by`]).
    pub fighting: Option<Box<crate::tactical::Ctx>>,
    /// The waiting battle's ground (by its number) where this copy's seed is not the campaign's
    /// and the field is generated from the battle's seed: a viewer's copy, or a campaign rebuilt
    /// from a view, which has the ground the battle's own seed gave. `None` in the game itself.
    pub ground: Option<(u32, crate::tactical::GridMap)>,
}

/// The seed of battle `number` of a campaign started with `seed`: fixed by the campaign, so no
/// player picks the dice of a battle.
pub fn battle_seed(seed: u64, number: u32) -> u64 {
    let mut bytes = seed.to_le_bytes().to_vec();
    bytes.extend_from_slice(&number.to_le_bytes());
    bytes.extend_from_slice(b"campaign battle");
    fnv1a64(&bytes)
}

impl Ctx {
    /// The state of a new campaign.
    pub fn new(scenario: &CampaignScenario, seed: u64) -> Ctx {
        let r = &scenario.campaign_rules;
        let mut armies: Vec<Army> = scenario
            .armies
            .iter()
            .map(|a| Army {
                id: ArmyId(a.id),
                side: a.side,
                name: a.name.clone(),
                at: a.at,
                units: a.units.iter().map(|u| u.id).collect(),
                mp_left: r.movement_points,
                intercept: false,
                came_from: None,
                general_lost: None,
            })
            .collect();
        armies.sort_by_key(|a| a.id);
        let mut units: Vec<Regiment> = scenario
            .armies
            .iter()
            .flat_map(|a| a.units.iter().map(move |u| (a.side, u)))
            .map(|(side, u)| {
                let ty = scenario.unit_type(&u.unit);
                Regiment {
                    id: u.id,
                    side,
                    unit: u.unit.clone(),
                    name: u.name.clone().unwrap_or_else(|| ty.map_or_else(|| u.unit.clone(), |t| t.name.clone())),
                    health: u.health.or(ty.map(|t| t.health)).unwrap_or(1),
                }
            })
            .collect();
        units.sort_by_key(|u| u.id);
        let next_army = armies.iter().map(|a| a.id.0.saturating_add(1)).max().unwrap_or(1);
        let state = CampaignState {
            turn: 1,
            active: scenario.first,
            armies,
            units,
            holders: scenario.victory.key_hexes.iter().map(|k| k.holder).collect(),
            battle: None,
            battles: 0,
            next_army,
            outcome: None,
            asks: Vec::new(),
            question: None,
        };
        Ctx {
            scenario: Arc::new(scenario.clone()),
            seed,
            state,
            events: Vec::new(),
            battle_dice: 0,
            fighting: None,
            ground: None,
        }
    }

    pub(super) fn push(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Who gives the next order: a battle's chooser, then its attacker (who reports it), else
    /// the side whose turn it is; `None` once the campaign is over.
    pub fn active_player(&self) -> Option<Side> {
        if self.state.outcome.is_some() {
            return None;
        }
        if self.state.question.is_some() {
            return None;
        }
        Some(match &self.state.battle {
            // Both sides chosen: the side the battle waits for (its attacker reports a battle
            // fought elsewhere whole).
            Some(b) => b.chooser().unwrap_or_else(|| self.fighting.as_ref().map_or(b.attacker, |f| f.clock.active)),
            None => self.state.active,
        })
    }

    /// Whether the campaign waits for the moderator's ruling (no side gives an order meanwhile).
    pub fn awaits_moderator(&self) -> bool {
        self.state.outcome.is_none() && self.state.question.is_some()
    }

    fn asks(&self, what: Asked) -> bool {
        self.state.asks.contains(&what)
    }

    fn ask(&mut self, question: Question) {
        self.push(Event::Asked { question: question.clone() });
        self.state.question = Some(question);
    }

    /// The moderator's: which decisions the campaign asks for from now on. A question already
    /// waiting is not taken back.
    fn moderate(&mut self, asks: &[Asked]) -> Result<(), OrderError> {
        let asks = crate::moderation::of_kind(asks, &Asked::CAMPAIGN).map_err(|a| {
            OrderError::rule(a.rule(), format!("{a:?} is decided in a battle, not on the campaign map"))
        })?;
        self.state.asks.clone_from(&asks);
        self.push(Event::Moderated { asks });
        Ok(())
    }

    /// The moderator's ruling on the waiting question, checked against it; then the campaign
    /// goes on from where the question stopped it.
    fn rule(&mut self, ruling: &Ruling) -> Result<(), OrderError> {
        let question = self.state.question.clone().ok_or(OrderError::NoQuestion)?;
        let rule = question.asked().rule();
        let bad = |why: String| Err(OrderError::rule(rule, why));
        let ruled = |this: &mut Ctx| {
            this.state.question = None;
            this.push(Event::Ruled { rule: question.asked(), ruling: ruling.clone() });
        };
        match (&question, ruling) {
            (Question::Played { at, attacker, from, played, .. }, Ruling::Played(_) | Ruling::Default) => {
                let played = if let Ruling::Played(p) = ruling { *p } else { *played };
                ruled(self);
                self.settle(*at, *attacker, *from, played);
            }
            (Question::Cut { at, attacker, from, units, fielded, limit }, Ruling::Cut(_) | Ruling::Default) => {
                let chosen = if let Ruling::Cut(c) = ruling { *c } else { *fielded };
                for side in Side::BOTH {
                    let (f, has) = (chosen[side.index()], units[side.index()]);
                    if f == 0 || f > has || f > *limit {
                        return bad(format!(
                            "{side:?} fields between 1 and {} of its {has} units, not {f}",
                            has.min(*limit)
                        ));
                    }
                }
                ruled(self);
                self.pend_battle(*at, *attacker, *from, *units, chosen, None);
            }
            (
                Question::AutoBattleEnd { at, attacker, rounds, winner },
                Ruling::AutoBattleEnd { .. } | Ruling::Default,
            ) => {
                let (after, won) = match ruling {
                    Ruling::AutoBattleEnd { after, winner } => (*after, *winner),
                    _ => (u32::try_from(rounds.len()).unwrap_or(u32::MAX), *winner),
                };
                let fought = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
                if after == 0 || after > fought {
                    return bad(format!(
                        "the auto-battle at {at} ends after one of its {fought} round(s), not {after}"
                    ));
                }
                ruled(self);
                self.end_auto(*at, *attacker, after, won);
            }
            (Question::Surrender { at, winner, rounds, units }, Ruling::Surrender { .. } | Ruling::Default) => {
                let destroyed: &[UnitId] = if let Ruling::Surrender { destroyed } = ruling { destroyed } else { &[] };
                if destroyed.len() > units.len() {
                    return bad(format!("the loser has {} unit(s) here, not {}", units.len(), destroyed.len()));
                }
                for (i, id) in destroyed.iter().enumerate() {
                    if !units.contains(id) || destroyed[..i].contains(id) {
                        return bad(format!("unit {id} is not one of the loser's units at {at} (or is named twice)"));
                    }
                }
                let destroyed = destroyed.to_vec();
                ruled(self);
                self.surrender(*at, *winner, *rounds, &destroyed);
            }
            (Question::LeftOut { units, .. }, Ruling::LeftOut { .. } | Ruling::Default) => {
                let losses: Vec<i32> = match ruling {
                    Ruling::LeftOut { losses } => losses.clone(),
                    _ => units.iter().map(|u| u.loss).collect(),
                };
                if losses.len() != units.len() {
                    return bad(format!("{} unit(s) were left out; {} loss(es) given", units.len(), losses.len()));
                }
                for (u, loss) in units.iter().zip(&losses) {
                    let most = (u.health - 1).max(0);
                    if !(0..=most).contains(loss) {
                        return bad(format!(
                            "unit {} (Health {}) loses between 0 and {most}, not {loss}",
                            u.unit, u.health
                        ));
                    }
                }
                ruled(self);
                for (u, loss) in units.iter().zip(losses) {
                    self.left_out_loss(u.unit, u.health, loss);
                }
            }
            _ => return bad(format!("the ruling {ruling:?} does not answer the question")),
        }
        Ok(())
    }

    /// Validates and applies one order to this copy.
    pub fn apply(&mut self, order: &Order) -> Result<(), OrderError> {
        self.apply_one(order)?;
        self.keep_fighting();
        Ok(())
    }

    fn apply_one(&mut self, order: &Order) -> Result<(), OrderError> {
        if self.state.outcome.is_some() {
            return Err(OrderError::CampaignOver);
        }
        match order {
            Order::Moderate { asks } => return self.moderate(asks),
            Order::Rule(ruling) => return self.rule(ruling),
            _ => {}
        }
        if let Some(q) = &self.state.question {
            return Err(OrderError::AwaitsModerator { rule: q.asked().rule() });
        }
        match order {
            Order::ChooseForces(forces) => self.choose_forces(forces),
            Order::BattleResult { save } => self.battle_result(save),
            Order::Fight(order) => self.fight(order),
            Order::Directive { to, text } => self.directive(*to, text),
            _ => {
                if let Some(b) = &self.state.battle {
                    return Err(OrderError::BattlePending { at: b.at });
                }
                match order {
                    Order::Move { army, path } => {
                        let costs = self.check_move(*army, path)?;
                        self.do_move(*army, path, &costs);
                    }
                    Order::Intercept { army, on } => {
                        self.own_army(*army)?;
                        if let Some(a) = self.state.army_mut(*army) {
                            a.intercept = *on;
                        }
                        self.push(Event::InterceptOrder { army: *army, on: *on });
                    }
                    Order::Split { army, units } => self.split(*army, units)?,
                    Order::Merge { army, into } => self.merge(*army, *into)?,
                    Order::Replenish { army } => self.replenish(*army)?,
                    _ => self.end_turn(),
                }
                Ok(())
            }
        }
    }

    fn own_army(&self, id: ArmyId) -> Result<&Army, OrderError> {
        let a = self.state.army(id).ok_or(OrderError::UnknownArmy(id))?;
        if a.side != self.state.active {
            return Err(OrderError::NotYours { army: id, owner: a.side, active: self.state.active });
        }
        Ok(a)
    }

    /// MP to step from `a` into its neighbour `b`, or why it cannot (T-STRAT-1; house: rivers
    /// are crossed at fords only, at `ford_cost` more).
    pub fn step_cost(&self, a: HexAt, b: HexAt) -> Result<u32, String> {
        let map = &self.scenario.map;
        let r = &self.scenario.campaign_rules;
        if !a.is_adjacent(b) {
            return Err(format!("{b} is not next to {a}"));
        }
        if !map.passable(b) {
            return Err(format!("{b} is off the map or water"));
        }
        match map.crossing(a, b) {
            Crossing::Open => Ok(r.hex_cost),
            Crossing::Ford => Ok(r.hex_cost.saturating_add(r.ford_cost)),
            Crossing::River => Err(format!("a river without a ford runs between {a} and {b}")),
        }
    }

    /// T-STRAT-1: the path is of neighbouring hexes and costs no more than the MP left; it ends
    /// where it meets an enemy (T-STRAT-4). Returns the MP spent after each step.
    pub fn check_move(&self, army: ArmyId, path: &[HexAt]) -> Result<Vec<u32>, OrderError> {
        let a = self.own_army(army)?;
        if path.is_empty() {
            return Err(OrderError::rule("T-STRAT-1", "the path is empty"));
        }
        let mut spent = 0u32;
        let mut costs = Vec::new();
        let mut from = a.at;
        for (i, &to) in path.iter().enumerate() {
            let cost = self.step_cost(from, to).map_err(|why| OrderError::rule("T-STRAT-1", why))?;
            spent = spent.saturating_add(cost);
            if spent > a.mp_left {
                return Err(OrderError::rule(
                    "T-STRAT-1",
                    format!(
                        "the path needs {spent} MP by {to}; {army} has {} left of {}",
                        a.mp_left, self.scenario.campaign_rules.movement_points
                    ),
                ));
            }
            if self.state.enemy_at(to, a.side) && i + 1 < path.len() {
                return Err(OrderError::rule(
                    "T-STRAT-4",
                    format!("the path goes on past the enemy at {to}; it must end there"),
                ));
            }
            costs.push(spent);
            from = to;
        }
        Ok(costs)
    }

    fn do_move(&mut self, army: ArmyId, path: &[HexAt], costs: &[u32]) {
        let Some(start) = self.state.army(army).map(|a| (a.at, a.mp_left, a.side)) else { return };
        let (mut from, mp, side) = start;
        for (&to, &spent) in path.iter().zip(costs) {
            let mp_left = mp.saturating_sub(spent);
            if let Some(a) = self.state.army_mut(army) {
                a.at = to;
                a.mp_left = mp_left;
                a.came_from = Some(from);
            }
            self.push(Event::Moved { army, to, mp_left });
            if self.state.enemy_at(to, side) {
                // T-STRAT-4: the side that entered attacks.
                self.start_battle(to, side, Some(from));
                return;
            }
            let interceptors = self.interceptors(to, side);
            if let Some(first) = interceptors.first().and_then(|id| self.state.army(*id)).map(|a| a.at) {
                for id in &interceptors {
                    if let Some(a) = self.state.army_mut(*id) {
                        a.came_from = Some(a.at);
                        a.at = to;
                        a.intercept = false;
                    }
                    self.push(Event::Intercepted { army: *id, at: to, target: army });
                }
                // T-STRAT-2: the interceptor is the attacker.
                self.start_battle(to, side.other(), Some(first));
                return;
            }
            from = to;
        }
    }

    /// T-STRAT-2: the enemy armies with the intercept order within range of a hex an army of
    /// `mover` enters, that can step into it, by id.
    pub fn interceptors(&self, at: HexAt, mover: Side) -> Vec<ArmyId> {
        let range = self.scenario.campaign_rules.intercept_range;
        self.state
            .armies
            .iter()
            .filter(|a| a.side != mover && a.intercept && a.at != at && a.at.distance(at) <= range)
            .filter(|a| a.at.distance(at) > 1 || self.step_cost(a.at, at).is_ok())
            .map(|a| a.id)
            .collect()
    }

    /// T-STRAT-4: the armies in `at` fight, `attacker` the side that entered. Small battles are
    /// settled at once by auto-battle (T-STRAT-9), the others wait to be fought on the grid.
    fn start_battle(&mut self, at: HexAt, attacker: Side, from: Option<HexAt>) {
        self.state.battles = self.state.battles.saturating_add(1);
        let units = [self.state.units_at(at, Side::Red).len(), self.state.units_at(at, Side::Blue).len()];
        self.push(Event::BattleJoined { at, attacker, units });
        let small = units[0] + units[1] <= self.scenario.campaign_rules.auto_battle_units;
        // A fortress assault is always played (T-FORT-1); any other small battle is the
        // moderator's to judge where the campaign asks (T-STRAT-9).
        if small && !self.scenario.map.has_fortress(at) && self.asks(Asked::Played) {
            let played = self.always_played(at);
            self.ask(Question::Played { at, attacker, from, units, played });
            return;
        }
        self.settle(at, attacker, from, !small || self.always_played(at));
    }

    /// The battle joined at `at` is played on the grid (after the cut) or auto-battled.
    fn settle(&mut self, at: HexAt, attacker: Side, from: Option<HexAt>, played: bool) {
        if !played {
            self.auto_battle(at, attacker);
            return;
        }
        let units = [self.state.units_at(at, Side::Red).len(), self.state.units_at(at, Side::Blue).len()];
        let r = &self.scenario.campaign_rules;
        let fortress = self.scenario.map.has_fortress(at);
        let c = if fortress {
            let t = &self.scenario.rules;
            let red_attacks = attacker == Side::Red;
            fortress_cut(units[0], units[1], red_attacks, t.max_units_fortress_attacker, t.max_units_fortress_defender)
        } else {
            cut(units[0], units[1], r)
        };
        let fielded = [c.fielded.0, c.fielded.1];
        // The moderator's recount: both sides over the limit, no side of 6 or fewer (T-STRAT-6
        // fixes that case) and no fortress (T-FORT-1 fixes that).
        let (large, small) = (units[0].max(units[1]), units[0].min(units[1]));
        if !fortress && self.asks(Asked::BattleCut) && large > r.battle_limit && small >= r.cut_smaller_min {
            let limit = r.battle_limit;
            self.ask(Question::Cut { at, attacker, from, units, fielded, limit });
            return;
        }
        let bring_up = c.bring_up.map(|second| if second { Side::Blue } else { Side::Red });
        self.pend_battle(at, attacker, from, units, fielded, bring_up);
    }

    /// The battle at `at` waits to be fought on the grid, `fielded` units a side.
    fn pend_battle(
        &mut self,
        at: HexAt,
        attacker: Side,
        from: Option<HexAt>,
        units: [usize; 2],
        fielded: [usize; 2],
        bring_up: Option<Side>,
    ) {
        let attacker_mp =
            self.state.armies.iter().filter(|a| a.at == at && a.side == attacker).map(|a| a.mp_left).min().unwrap_or(0);
        let number = self.state.battles;
        self.state.battle = Some(PendingBattle {
            number,
            at,
            attacker,
            seed: battle_seed(self.seed, number),
            attacker_mp,
            attacker_from: from,
            units,
            fielded,
            bring_up,
            forces: [None, None],
            fought: Vec::new(),
        });
        self.push(Event::Cut { at, fielded, bring_up });
    }

    /// T-STRAT-9 resolution: battles in key hexes (capitals, fortresses) and fortress assaults
    /// are always played.
    pub fn always_played(&self, at: HexAt) -> bool {
        self.scenario.map.has_fortress(at) || self.scenario.victory.key_hexes.iter().any(|k| k.at == at)
    }

    /// The units of both sides in an auto-battle at `at`, red then blue, each with its type.
    fn auto_fighters<'a>(&self, scenario: &'a CampaignScenario, at: HexAt) -> [Vec<(UnitId, AutoUnit<'a>)>; 2] {
        Side::BOTH.map(|side| {
            self.state
                .units_at(at, side)
                .iter()
                .filter_map(|id| self.state.unit(*id))
                .filter_map(|u| scenario.unit_type(&u.unit).map(|t| (u.id, AutoUnit { kind: t, health: u.health })))
                .collect()
        })
    }

    /// T-AUTO-1..4: the auto-battle; when its winner is clear (the moderator's, where asked:
    /// T-AUTO-2), its result.
    fn auto_battle(&mut self, at: HexAt, attacker: Side) {
        let scenario = Arc::clone(&self.scenario);
        let [red, blue] = self.auto_fighters(&scenario, at);
        let result = auto_battle(&strip(&red), &strip(&blue), attacker == Side::Blue, &self.scenario.campaign_rules);
        let winner = if result.first_wins { Side::Red } else { Side::Blue };
        let rounds = u32::try_from(result.rounds.len()).unwrap_or(u32::MAX);
        if self.asks(Asked::AutoBattleEnd) {
            let rounds = result.rounds.iter().map(|(a, b)| [*a, *b]).collect();
            self.ask(Question::AutoBattleEnd { at, attacker, rounds, winner });
            return;
        }
        self.end_auto(at, attacker, rounds, winner);
    }

    /// The auto-battle at `at` fought for `after` rounds, won by `winner`: the winner takes the
    /// damage it received (T-AUTO-4), then the loser's units surrender (T-AUTO-3).
    fn end_auto(&mut self, at: HexAt, attacker: Side, after: u32, winner: Side) {
        let scenario = Arc::clone(&self.scenario);
        let [red, blue] = self.auto_fighters(&scenario, at);
        let mut rules = self.scenario.campaign_rules.clone();
        rules.auto_round_limit = after;
        let result = auto_battle(&strip(&red), &strip(&blue), attacker == Side::Blue, &rules);
        let ids = |v: &[(UnitId, AutoUnit<'_>)]| v.iter().map(|(id, _)| *id).collect::<Vec<_>>();
        let (red_ids, blue_ids) = (ids(&red), ids(&blue));
        for (i, (a, b)) in result.rounds.iter().enumerate() {
            let round = u32::try_from(i + 1).unwrap_or(u32::MAX);
            self.push(Event::AutoRound { round, damage: [*a, *b] });
        }
        let rejoin = self.scenario.campaign_rules.rejoin_health;
        let (win_ids, win_hp, lose_ids) = match winner {
            Side::Red => (red_ids, result.health.0, blue_ids),
            Side::Blue => (blue_ids, result.health.1, red_ids),
        };
        // T-AUTO-4: the winner takes the damage it received; its dispersed units rejoin (T-STRAT-11).
        for (id, hp) in win_ids.iter().zip(win_hp) {
            if let Some(u) = self.state.unit_mut(*id) {
                u.health = if hp > 0 { hp } else { rejoin };
            }
            if hp <= 0 {
                self.push(Event::Rejoined { unit: *id, health: rejoin });
            }
        }
        let rounds = u32::try_from(result.rounds.len()).unwrap_or(u32::MAX);
        let units: Vec<UnitId> = lose_ids.into_iter().filter(|id| !self.is_gun(*id)).collect();
        if self.asks(Asked::Surrender) && !units.is_empty() {
            self.ask(Question::Surrender { at, winner, rounds, units });
            return;
        }
        self.surrender(at, winner, rounds, &[]);
    }

    /// T-AUTO-3: the loser's units at `at` surrender, but for those `destroyed`; its guns join
    /// the winner (T-AUTO-4).
    fn surrender(&mut self, at: HexAt, winner: Side, rounds: u32, destroyed: &[UnitId]) {
        for id in self.state.units_at(at, winner.other()) {
            if destroyed.contains(&id) {
                self.remove_unit(id);
                self.push(Event::UnitLost { unit: id });
            } else {
                self.capture(id, winner, at);
            }
        }
        self.push(Event::AutoBattleWon { at, winner, rounds });
        self.clear_empty();
        self.check_destroyed();
    }

    fn is_gun(&self, id: UnitId) -> bool {
        self.state.unit(id).and_then(|u| self.scenario.unit_type(&u.unit)).is_some_and(|t| t.arm == Arm::Artillery)
    }

    /// A unit taken by `by` in hex `at`: artillery joins the winner's first army there at full
    /// Health (T-AUTO-4, T-END-4); anything else is gone.
    fn capture(&mut self, id: UnitId, by: Side, at: HexAt) {
        let is_gun = self.is_gun(id);
        let into = self.state.armies_at(at, by).first().copied();
        self.detach(id);
        match into {
            Some(army) if is_gun => {
                let full = self.state.unit(id).and_then(|u| self.scenario.unit_type(&u.unit)).map(|t| t.health);
                if let Some(u) = self.state.unit_mut(id) {
                    u.side = by;
                    u.health = full.unwrap_or(u.health);
                }
                if let Some(a) = self.state.army_mut(army) {
                    a.units.push(id);
                }
                self.push(Event::GunTaken { unit: id, by, army });
            }
            _ => {
                self.remove_unit(id);
                self.push(Event::Captured { unit: id, by });
            }
        }
    }

    fn detach(&mut self, id: UnitId) {
        for a in &mut self.state.armies {
            a.units.retain(|u| *u != id);
        }
    }

    fn remove_unit(&mut self, id: UnitId) {
        self.detach(id);
        self.state.units.retain(|u| u.id != id);
    }

    fn clear_empty(&mut self) {
        let gone: Vec<ArmyId> = self.state.armies.iter().filter(|a| a.units.is_empty()).map(|a| a.id).collect();
        for army in gone {
            self.state.armies.retain(|a| a.id != army);
            self.push(Event::ArmyGone { army });
        }
    }

    /// A side without armies has lost the campaign.
    fn check_destroyed(&mut self) {
        for side in Side::BOTH {
            if !self.state.armies.iter().any(|a| a.side == side) {
                self.finish(side.other(), VictoryReason::EnemyDestroyed);
                return;
            }
        }
    }

    fn finish(&mut self, winner: Side, reason: VictoryReason) {
        if self.state.outcome.is_none() {
            self.state.outcome = Some(CampaignOutcome { winner, reason, turn: self.state.turn });
            self.state.battle = None;
            self.push(Event::CampaignOver { winner, reason });
        }
    }

    /// T-STRAT-5/6/8/11: the chooser's units, redoubts and line of retreat.
    fn choose_forces(&mut self, forces: &Forces) -> Result<(), OrderError> {
        let b = self.state.battle.clone().ok_or(OrderError::NoBattle)?;
        let Some(side) = b.chooser() else {
            return Err(OrderError::rule("T-STRAT-5", "both sides have chosen; the battle is to be fought"));
        };
        let wanted = b.fielded[side.index()];
        let mine = self.state.units_at(b.at, side);
        if forces.units.len() != wanted {
            return Err(OrderError::rule(
                "T-STRAT-5",
                format!("{side:?} fields {wanted} of its {} units here, not {}", mine.len(), forces.units.len()),
            ));
        }
        for (i, id) in forces.units.iter().enumerate() {
            if !mine.contains(id) || forces.units[..i].contains(id) {
                return Err(OrderError::rule(
                    "T-STRAT-5",
                    format!("unit {id} is not one of {side:?}'s units at {} (or is named twice)", b.at),
                ));
            }
        }
        let most = most_redoubts(&self.scenario, &b, side);
        if forces.redoubts > most {
            let why = if side == b.attacker {
                format!("the attacker has {} unused MP: at most {most} redoubt(s)", b.attacker_mp)
            } else {
                format!("the defender places at most {most} redoubts")
            };
            return Err(OrderError::rule("T-STRAT-8", why));
        }
        if let Some(r) = forces.retreat
            && self.step_cost(b.at, r).is_err()
        {
            return Err(OrderError::rule("T-STRAT-11", format!("{side:?} cannot fall back from {} to {r}", b.at)));
        }
        self.push(Event::ForcesChosen { side, units: wanted, redoubts: forces.redoubts });
        if side == b.attacker && forces.redoubts > 0 {
            // T-STRAT-8: the MP so spent cannot be used after the battle.
            let spent = forces.redoubts.saturating_mul(self.scenario.campaign_rules.mp_per_redoubt);
            for a in self.state.armies.iter_mut().filter(|a| a.at == b.at && a.side == side) {
                a.mp_left = a.mp_left.saturating_sub(spent);
            }
            self.push(Event::RedoubtsBuilt { side, redoubts: forces.redoubts, mp_spent: spent });
        }
        if let Some(battle) = &mut self.state.battle {
            battle.forces[side.index()] = Some(forces.clone());
        }
        Ok(())
    }

    /// T-STRAT-7, T-STRAT-11, T-END-4: the result of a grid battle on the campaign.
    pub(super) fn apply_battle(&mut self, b: &PendingBattle, scenario: &Scenario, result: &BattleResult) {
        let winner = result.winner;
        let fates: BTreeMap<UnitId, (Status, i32)> =
            result.units.iter().map(|u| (u.id, (u.status, u.health))).collect();
        let starts: BTreeMap<UnitId, i32> =
            scenario.units.iter().map(|u| (u.id, u.health.unwrap_or_else(|| self.full(u.id)))).collect();
        let start = |id: UnitId| starts.get(&id).copied().unwrap_or(0);
        let rejoin = self.scenario.campaign_rules.rejoin_health;
        self.generals_fallen(scenario, result);
        // Who was in the hex before anything changes hands (a taken gun is no left-out unit).
        let present = [self.state.units_at(b.at, Side::Red), self.state.units_at(b.at, Side::Blue)];
        let mut asked: Vec<LeftOut> = Vec::new();
        for side in Side::BOTH {
            let fighting: Vec<UnitId> = scenario
                .units_of(side)
                .filter(|u| !(u.reserve && fates.get(&u.id).is_some_and(|f| f.0 == Status::Undeployed)))
                .map(|u| u.id)
                .collect();
            // T-STRAT-7: F = Health lost by the fighting units ÷ their start Health.
            let (mut lost, mut total) = (0i64, 0i64);
            for id in &fighting {
                let s = i64::from(start(*id));
                total += s;
                lost += match fates.get(id) {
                    Some((Status::Active | Status::Retreated, h)) => (s - i64::from(*h).max(0)).max(0),
                    _ => s,
                };
            }
            let left_out: Vec<UnitId> =
                present[side.index()].iter().copied().filter(|u| !fighting.contains(u)).collect();
            for id in left_out {
                let health = self.state.unit(id).map_or(0, |u| u.health);
                let loss = left_out_loss(lost, total, health);
                if self.asks(Asked::LeftOutLosses) {
                    asked.push(LeftOut { unit: id, health, loss });
                } else {
                    self.left_out_loss(id, health, loss);
                }
            }
            let guns = &result.sides[side.index()].guns_lost;
            for id in fighting {
                match fates.get(&id) {
                    Some((Status::Active | Status::Retreated, h)) if *h > 0 => {
                        if let Some(u) = self.state.unit_mut(id) {
                            u.health = *h;
                        }
                    }
                    // T-STRAT-11: the winner's dispersed units rejoin with Health 1.
                    Some((Status::Dispersed, _)) if side == winner => {
                        if let Some(u) = self.state.unit_mut(id) {
                            u.health = rejoin;
                        }
                        self.push(Event::Rejoined { unit: id, health: rejoin });
                    }
                    // T-END-4: the loser's guns pass to the winner as full units.
                    _ if guns.contains(&id) => self.capture(id, winner, b.at),
                    _ => {
                        self.remove_unit(id);
                        self.push(Event::UnitLost { unit: id });
                    }
                }
            }
        }
        self.push(Event::BattleWon { at: b.at, winner, reason: result.reason, turns: result.turns });
        self.clear_empty();
        self.fall_back(b, winner.other());
        self.state.battle = None;
        self.clear_empty();
        self.check_destroyed();
        // T-STRAT-7 where the moderator decides: the left-out units still on the map (a loser
        // with nowhere to fall back was taken whole); the campaign over, the engine's losses.
        asked.retain(|u| self.state.unit(u.unit).is_some());
        if asked.is_empty() {
            return;
        }
        if self.state.outcome.is_some() {
            for u in asked {
                self.left_out_loss(u.unit, u.health, u.loss);
            }
        } else {
            self.ask(Question::LeftOut { at: b.at, units: asked });
        }
    }

    /// T-STRAT-7: a left-out unit of `health` loses `loss`.
    fn left_out_loss(&mut self, id: UnitId, health: i32, loss: i32) {
        if loss > 0 {
            if let Some(u) = self.state.unit_mut(id) {
                u.health = health - loss;
            }
            self.push(Event::LeftOutLoss { unit: id, lost: loss, health: health - loss });
        }
    }

    /// T-CMD-3: a side's army general commands its default formation, starting with its HQ
    /// unit; killed or badly wounded, he is gone for the army's next battles of the campaign
    /// (lightly wounded, he is back for the next one).
    fn generals_fallen(&mut self, scenario: &Scenario, result: &BattleResult) {
        for side in Side::BOTH {
            let spec = scenario.side(side);
            let Some(hq) = spec.hq.or_else(|| scenario.units_of(side).map(|u| u.id).next()) else {
                continue;
            };
            let fallen = result.generals.iter().find(|g| {
                g.side == side
                    && g.formation == DEFAULT_FORMATION
                    && matches!(g.fate, GeneralFate::Killed | GeneralFate::BadlyWounded)
            });
            if let (Some(g), None) = (fallen, spec.general_lost)
                && let Some(army) = self.state.armies.iter_mut().find(|a| a.side == side && a.units.contains(&hq))
            {
                army.general_lost = Some(g.fate);
            }
        }
    }

    fn full(&self, id: UnitId) -> i32 {
        self.state.unit(id).and_then(|u| self.scenario.unit_type(&u.unit)).map_or(1, |t| t.health)
    }

    /// T-STRAT-11: the loser's remaining units move to a neighbouring enemy-free hex (its choice,
    /// else where they came from, else the first such hex), else they are captured.
    fn fall_back(&mut self, b: &PendingBattle, loser: Side) {
        let armies = self.state.armies_at(b.at, loser);
        if armies.is_empty() {
            return;
        }
        let mut candidates: Vec<HexAt> = b.forces[loser.index()].as_ref().and_then(|f| f.retreat).into_iter().collect();
        candidates.extend(armies.iter().filter_map(|id| self.state.army(*id)).filter_map(|a| a.came_from));
        candidates.extend(b.at.neighbours());
        let target = candidates
            .into_iter()
            .find(|h| *h != b.at && self.step_cost(b.at, *h).is_ok() && !self.state.enemy_at(*h, loser));
        match target {
            Some(to) => {
                for army in armies {
                    if let Some(a) = self.state.army_mut(army) {
                        a.at = to;
                        a.mp_left = 0;
                        a.came_from = Some(b.at);
                    }
                    self.push(Event::FellBack { army, to });
                }
            }
            None => {
                for id in self.state.units_at(b.at, loser) {
                    self.capture(id, loser.other(), b.at);
                }
            }
        }
    }

    fn split(&mut self, army: ArmyId, units: &[UnitId]) -> Result<(), OrderError> {
        let a = self.own_army(army)?.clone();
        if units.is_empty() || units.len() >= a.units.len() {
            return Err(OrderError::rule("T-STRAT-4", "a detachment takes some of an army's units, not none or all"));
        }
        for (i, id) in units.iter().enumerate() {
            if !a.units.contains(id) || units[..i].contains(id) {
                return Err(OrderError::rule("T-STRAT-4", format!("unit {id} is not in {army} (or is named twice)")));
            }
        }
        let id = ArmyId(self.state.next_army);
        let next = self
            .state
            .next_army
            .checked_add(1)
            .ok_or_else(|| OrderError::rule("T-STRAT-4", "no army number is left"))?;
        self.state.next_army = next;
        let keep: Vec<UnitId> = a.units.iter().copied().filter(|u| !units.contains(u)).collect();
        let moved: Vec<UnitId> = a.units.iter().copied().filter(|u| units.contains(u)).collect();
        if let Some(old) = self.state.army_mut(army) {
            old.units = keep;
        }
        self.state.armies.push(Army {
            id,
            name: format!("{} (detachment {})", a.name, id.0),
            units: moved,
            intercept: false,
            ..a
        });
        self.state.armies.sort_by_key(|x| x.id);
        self.push(Event::Split { army, new: id, units: units.len() });
        Ok(())
    }

    fn merge(&mut self, army: ArmyId, into: ArmyId) -> Result<(), OrderError> {
        let a = self.own_army(army)?.clone();
        let b = self.own_army(into)?;
        if army == into || a.at != b.at {
            return Err(OrderError::rule("T-STRAT-4", format!("{army} and {into} are not two armies in one hex")));
        }
        if let Some(b) = self.state.army_mut(into) {
            b.units.extend(a.units.iter().copied());
            b.mp_left = b.mp_left.min(a.mp_left);
            // T-CMD-3: the merged army is led by whichever of the two generals is still there.
            if a.general_lost.is_none() {
                b.general_lost = None;
            }
        }
        self.state.armies.retain(|x| x.id != army);
        self.push(Event::Merged { army, into });
        Ok(())
    }

    /// T-STRAT-10: special units "можно восполнять, если они были рассеяны или понесли потери, но
    /// нанимать новые нельзя": an army that has not moved this turn spends the rest of it (house)
    /// bringing each of its special units below full Health back to full. Nothing is raised.
    fn replenish(&mut self, army: ArmyId) -> Result<(), OrderError> {
        let a = self.own_army(army)?.clone();
        if a.mp_left < self.scenario.campaign_rules.movement_points {
            return Err(OrderError::rule("T-STRAT-10", format!("{army} has moved this turn; it replenishes standing")));
        }
        let worn: Vec<(UnitId, i32)> = a
            .units
            .iter()
            .filter_map(|id| self.state.unit(*id))
            .filter_map(|u| {
                let t = self.scenario.unit_type(&u.unit).filter(|t| t.faction.is_some())?;
                (u.health < t.health).then_some((u.id, t.health))
            })
            .collect();
        if worn.is_empty() {
            return Err(OrderError::rule(
                "T-STRAT-10",
                format!("{army} has no special unit below full strength; only special units are replenished"),
            ));
        }
        if let Some(x) = self.state.army_mut(army) {
            x.mp_left = 0;
        }
        for (id, full) in worn {
            if let Some(u) = self.state.unit_mut(id) {
                u.health = full;
            }
            self.push(Event::Replenished { unit: id, health: full });
        }
        Ok(())
    }

    /// T-STRAT-3: a written directive; recorded in the order log and shown, no rules effect.
    fn directive(&mut self, to: Option<ArmyId>, text: &str) -> Result<(), OrderError> {
        let side = self.active_player().ok_or(OrderError::CampaignOver)?;
        if text.chars().count() > MAX_DIRECTIVE_CHARS {
            return Err(OrderError::rule(
                "T-STRAT-3",
                format!("a directive has at most {MAX_DIRECTIVE_CHARS} characters"),
            ));
        }
        if let Some(a) = to {
            let army = self.state.army(a).ok_or(OrderError::UnknownArmy(a))?;
            if army.side != side {
                return Err(OrderError::NotYours { army: a, owner: army.side, active: side });
            }
        }
        self.push(Event::Directive { side, to, text: text.to_string() });
        Ok(())
    }

    fn end_turn(&mut self) {
        let side = self.state.active;
        self.push(Event::TurnEnded { turn: self.state.turn, side });
        if side == self.scenario.first {
            self.state.active = side.other();
            return;
        }
        // The campaign turn is over: key hexes change hands, then victory.
        let keys: Vec<HexAt> = self.scenario.victory.key_hexes.iter().map(|k| k.at).collect();
        for (i, at) in keys.iter().enumerate() {
            let present: Vec<Side> =
                Side::BOTH.into_iter().filter(|s| !self.state.armies_at(*at, *s).is_empty()).collect();
            if let [by] = present[..]
                && self.state.holders.get(i) != Some(&by)
            {
                if let Some(h) = self.state.holders.get_mut(i) {
                    *h = by;
                }
                self.push(Event::KeyHexTaken { at: *at, by });
            }
        }
        let held = |s: Side| self.state.holders.iter().filter(|h| **h == s).count();
        // Taking every key hex it did not hold at the start wins at once.
        let held_at_start = |s: Side| self.scenario.victory.key_hexes.iter().all(|k| k.holder == s);
        if !keys.is_empty()
            && let Some(all) = Side::BOTH.into_iter().find(|s| held(*s) == keys.len() && !held_at_start(*s))
        {
            self.finish(all, VictoryReason::AllKeyHexes);
            return;
        }
        if self.state.turn >= self.scenario.victory.turns {
            let (red, blue) = (held(Side::Red), held(Side::Blue));
            let winner = match red.cmp(&blue) {
                std::cmp::Ordering::Greater => Side::Red,
                std::cmp::Ordering::Less => Side::Blue,
                std::cmp::Ordering::Equal => self.scenario.victory.on_tie,
            };
            self.finish(winner, VictoryReason::TurnLimit);
            return;
        }
        self.state.turn += 1;
        self.state.active = self.scenario.first;
        let mp = self.scenario.campaign_rules.movement_points;
        for a in &mut self.state.armies {
            a.mp_left = mp;
            a.came_from = None;
        }
    }

    /// The redoubts the attacker of the waiting battle may build (T-STRAT-8).
    pub fn attacker_redoubts(&self) -> Option<u32> {
        self.state.battle.as_ref().map(|b| attacker_redoubts(b.attacker_mp, &self.scenario.campaign_rules))
    }
}

fn strip<'a>(v: &[(UnitId, AutoUnit<'a>)]) -> Vec<AutoUnit<'a>> {
    v.iter().map(|(_, u)| u.clone()).collect()
}
