//! A campaign's battle once both sides have chosen (T-STRAT-4): reported whole, as a save
//! replayed and checked ([`super::Order::BattleResult`]), or fought on the campaign's own log, order by
//! order through the battle's door on its working copy ([`super::Order::Fight`],
//! [`Ctx::fighting`]). Either way its result comes back by [`Ctx::apply_battle`].

use super::apply::Ctx;
use super::event::Event;
use super::field::battle_scenario_on;
use super::order::OrderError;
use super::state::PendingBattle;
use crate::game::Game;
use crate::tactical::{Battle, SaveGame, Scenario, Side};

impl Ctx {
    /// The tactical scenario of the waiting battle (after the cut, with the choices made so far).
    pub fn battle_scenario(&self) -> Option<Scenario> {
        self.state.battle.as_ref().map(|b| self.field_of(b))
    }

    /// The tactical scenario of battle `b` on this copy's ground ([`Ctx::ground`]) where it has
    /// one for it, else on the ground the battle's seed gives.
    pub(super) fn field_of(&self, b: &PendingBattle) -> Scenario {
        let ground = self.ground.as_ref().filter(|(n, _)| *n == b.number).map(|(_, g)| g);
        battle_scenario_on(&self.scenario, &self.state, b, ground)
    }

    /// The battle's working copy follows the state: set up once both sides have chosen,
    /// dropped once no battle waits.
    pub(super) fn keep_fighting(&mut self) {
        match self.state.battle.as_ref().filter(|b| b.chooser().is_none()) {
            None => self.fighting = None,
            Some(_) if self.fighting.is_some() => {}
            Some(b) => self.fighting = self.fight_of(b).ok().map(Box::new),
        }
    }

    /// The waiting battle as its fought orders left it, on its scenario and seed.
    fn fight_of(&self, b: &PendingBattle) -> Result<crate::tactical::Ctx, OrderError> {
        let scenario = self.field_of(b);
        let mut fight = Battle::new(&scenario, b.seed).ctx();
        for order in &b.fought {
            fight.apply(order).map_err(OrderError::Fight)?;
        }
        fight.events.clear();
        Ok(fight)
    }

    /// The finished battle's save is replayed (every hash checked) and must be of this battle,
    /// with the campaign's seed; then its result is applied.
    pub(super) fn battle_result(&mut self, save: &SaveGame) -> Result<(), OrderError> {
        let b = self.state.battle.clone().ok_or(OrderError::NoBattle)?;
        if b.chooser().is_some() {
            return Err(OrderError::rule("T-STRAT-5", "both sides choose their forces before the battle"));
        }
        if !b.fought.is_empty() {
            return Err(OrderError::BadBattle(format!(
                "the battle at {} is being fought order by order ({} so far): its result comes with its last",
                b.at,
                b.fought.len()
            )));
        }
        let expected = self.field_of(&b);
        if save.scenario != expected {
            return Err(OrderError::BadBattle(format!(
                "the save is not of the battle at {} (its scenario differs)",
                b.at
            )));
        }
        // The campaign's seed for it is not told: a refusal is no way to learn the dice.
        if save.seed != b.seed {
            return Err(OrderError::BadBattle(format!(
                "the battle was fought with seed {}, not the one the campaign fixed for it",
                save.seed
            )));
        }
        let battle =
            Battle::replay(save).map_err(|e| OrderError::BadBattle(format!("the battle save does not replay: {e}")))?;
        let result = battle.result().ok_or_else(|| OrderError::BadBattle("the battle is not over".to_string()))?;
        self.battle_dice = self.battle_dice.saturating_add(battle.dice_thrown());
        self.apply_battle(&b, &expected, &result);
        Ok(())
    }

    /// One order of the waiting battle, through the battle's own door on its working copy;
    /// its events are the campaign's, each with the sides the battle's sight hides it from
    /// (T-TERR-2). The order that ends the battle applies the result (T-STRAT-7, T-STRAT-11,
    /// T-END-4).
    pub(super) fn fight(&mut self, order: &crate::tactical::Order) -> Result<(), OrderError> {
        let b = self.state.battle.clone().ok_or(OrderError::NoBattle)?;
        if b.chooser().is_some() {
            return Err(OrderError::rule("T-STRAT-5", "both sides choose their forces before the battle"));
        }
        if <Battle as Game>::is_moderators(order) {
            return Err(OrderError::BadBattle(
                "a campaign's moderator rules on the campaign (Moderate, Rule), not inside its battles".to_string(),
            ));
        }
        let mut fight = match self.fighting.take() {
            Some(f) => *f,
            None => self.fight_of(&b)?,
        };
        fight.events.clear();
        if let Err(e) = fight.apply(order) {
            self.fighting = Some(Box::new(fight));
            return Err(OrderError::Fight(e));
        }
        for event in std::mem::take(&mut fight.events) {
            let hidden_from = Side::BOTH
                .into_iter()
                .filter(|s| {
                    fight.seen(crate::view::Viewer::Player(*s), std::slice::from_ref(&event)).first()
                        == Some(&crate::view::Seen::Hidden)
                })
                .collect();
            self.push(Event::Fought { event, hidden_from });
        }
        if let Some(battle) = &mut self.state.battle {
            battle.fought.push(order.clone());
        }
        match fight.result() {
            Some(result) => {
                self.battle_dice = self.battle_dice.saturating_add(fight.dice.thrown());
                let scenario = self.field_of(&b);
                self.apply_battle(&b, &scenario, &result);
            }
            None => self.fighting = Some(Box::new(fight)),
        }
        Ok(())
    }
}

/// A battle in which no one gives an order: both sides deploy by default and stand until the
/// round limit (T-TURN-4). What a player who passes the battle gets.
pub fn stand_battle(scenario: &Scenario, seed: u64) -> SaveGame {
    let mut battle = Battle::new(scenario, seed);
    while !Game::is_over(&battle) {
        let order = Game::pass(&battle);
        if battle.apply(order).is_err() {
            break;
        }
    }
    battle.save()
}
