//! Turns and the end of the battle (T-TURN, T-END, T-FORT-6/7), skirmish order (T-SKIRM-1/5)
//! and reaction orders (T-FIRE-11).

use super::components::{Phase, Reactions, Side, Skirmishing, Status, TurnActivity, UnitId};
use super::event::{Event, Removal};
use super::order::{OrderError, Ruling, Terms};
use super::state::{Ctx, EndReason, Outcome};
use super::units::{Ability, Arm};
use crate::moderation::Asked;

impl Ctx {
    /// The side giving battle orders now.
    pub fn battle_side(&self, what: &'static str) -> Result<Side, OrderError> {
        match self.clock.phase {
            Phase::Battle => Ok(self.clock.active),
            Phase::Over => Err(OrderError::BattleOver),
            _ => Err(OrderError::WrongPhase { what, when: "before the battle begins" }),
        }
    }

    /// T-TURN-2: seconds per turn for the client's timer: 15 if the armies that fight have at
    /// most 5 units each, counted when the battle starts (the units each side fields, not its
    /// reserves, T-STRAT-6), else 20. Losses during the battle do not shorten the turn.
    pub fn turn_seconds(&self) -> u32 {
        let r = self.rules();
        let scenario = &self.statics.scenario;
        let fielded = |s: Side| scenario.units_of(s).filter(|u| !u.reserve).count();
        if Side::BOTH.iter().all(|s| fielded(*s) <= r.small_battle_units) {
            r.small_battle_turn_seconds
        } else {
            r.turn_seconds
        }
    }

    /// T-SETUP-1: seconds for the whole set-up, redoubts and deployment, of both sides together
    /// (the attacker first): one clock of 2 minutes that runs on from one side to the other, not
    /// 2 minutes each. The client counts it down over its human seats; when it runs out, each side
    /// still setting up ends its set-up (T-SETUP-1's automatic placement).
    pub fn setup_seconds(&self) -> u32 {
        self.rules().deployment_seconds
    }

    // ---- end of turn (T-TURN-3): the phases, in order ------------------------------------

    /// T-END-3: retreating units next to an enemy at the end of a turn are captured.
    pub fn capture_phase(&mut self) {
        let caught: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.status.on_field() && self.sides.retreating[u.side.index()] && self.in_contact(u))
            .map(|u| u.id)
            .collect();
        for id in caught {
            self.remove(id, Removal::CaughtRetreating);
        }
    }

    /// T-END-1, T-FORT-6: has one side been driven from the field (or the fortress)?
    pub fn victory_phase(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let attacker = self.statics.attacker();
        let defender = attacker.other();
        let alive = |s: Side| self.units.iter().filter(|u| u.side == s && u.status.on_field()).count();
        let (a, d) = (alive(attacker), alive(defender));
        let inside = self
            .units
            .iter()
            .filter(|u| u.side == defender && u.status.on_field() && self.statics.in_fortress(&self.grid, u.cell))
            .count();
        let end = if a == 0 && d == 0 {
            Some((defender, EndReason::BothGone))
        } else if self.statics.is_fortress() && inside == 0 && a > 0 {
            Some((attacker, EndReason::FortressTaken))
        } else if a == 0 {
            Some((defender, EndReason::FieldHeld))
        } else if d == 0 {
            Some((attacker, EndReason::FieldHeld))
        } else {
            None
        };
        if let Some((winner, reason)) = end {
            self.finish(winner, reason);
        }
    }

    /// The next side's turn; after the round limit the defender holds (T-TURN-1, T-TURN-4).
    pub fn next_turn_phase(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let (turn, side) = (self.clock.turn, self.clock.active);
        self.push(Event::TurnEnded { turn, side });
        let attacker = self.statics.attacker();
        if side != attacker && self.clock.round >= self.rules().round_limit {
            self.finish(attacker.other(), EndReason::RoundLimit);
            return;
        }
        self.clock.turn += 1;
        self.clock.active = side.other();
        if self.clock.active == attacker {
            self.clock.round += 1;
        }
        self.clock.orders_this_turn = 0;
        for u in &mut self.units {
            u.activity = TurnActivity::default();
        }
        self.push(Event::TurnBegins { turn: self.clock.turn, round: self.clock.round, side: self.clock.active });
    }

    /// Ends the battle: T-END-4 (the loser's dispersed units are captured, its dispersed guns change hands).
    pub fn finish(&mut self, winner: Side, reason: EndReason) {
        let loser = winner.other();
        let taken: Vec<(UnitId, bool)> = self
            .units
            .iter()
            .filter(|u| u.side == loser && u.status == Status::Dispersed)
            .map(|u| (u.id, self.arm(u) == Arm::Artillery))
            .collect();
        for (id, gun) in taken {
            self.set_status(id, Status::Captured);
            self.push(Event::Removed { unit: id, how: Removal::TakenAtTheEnd });
            if gun {
                self.push(Event::GunsTaken { unit: id, by: winner });
            }
        }
        self.outcome = Some(Outcome { winner, reason, turn: self.clock.turn, round: self.clock.round });
        self.clock.phase = Phase::Over;
        self.push(Event::BattleEnded { winner, reason });
    }

    // ---- side-wide orders ----------------------------------------------------------------

    pub fn check_retreat(&self) -> Result<Side, OrderError> {
        let side = self.battle_side("retreating")?;
        if self.sides.retreating[side.index()] {
            return Err(OrderError::rule("T-END-2", "the retreat has already been ordered"));
        }
        Ok(side)
    }

    /// T-END-2: final; no attacks, +1 Speed.
    pub fn retreat(&mut self, side: Side) {
        self.sides.retreating[side.index()] = true;
        for u in self.units.iter_mut().filter(|u| u.side == side) {
            u.reactions = Reactions { counter_volley: false, counter_charge: false, intercept: false };
        }
        self.push(Event::RetreatOrdered { side });
    }

    pub fn check_capitulate(&self) -> Result<Side, OrderError> {
        let side = self.battle_side("capitulating")?;
        if !self.statics.is_fortress() || side == self.statics.attacker() {
            return Err(OrderError::rule("T-FORT-7", "only a fortress's defender may capitulate"));
        }
        if self.clock.orders_this_turn > 0 {
            return Err(OrderError::rule(
                "T-FORT-7",
                "a capitulation is given at the start of the turn, before any other order",
            ));
        }
        Ok(side)
    }

    /// T-FORT-7: the fortress capitulates, on the terms the moderator records where the battle
    /// asks it (the battle waits for them), else with its defenders captured.
    pub fn capitulate(&mut self, side: Side) {
        if self.sides.ask_terms {
            self.sides.terms_asked = Some(side);
            self.push(Event::TermsAsked { side });
            return;
        }
        self.surrender_fortress(side, Terms::Captured);
    }

    /// T-FORT-7: the fortress is lost; its defenders are captured or march out.
    pub fn surrender_fortress(&mut self, side: Side, terms: Terms) {
        self.sides.capitulated[side.index()] = true;
        self.push(Event::Capitulation { side });
        let defenders: Vec<UnitId> = self
            .units
            .iter()
            .filter(|u| u.side == side && matches!(u.status, Status::Active | Status::Undeployed))
            .map(|u| u.id)
            .collect();
        let (status, how) = match terms {
            Terms::Captured => (Status::Captured, Removal::Capitulated),
            Terms::MarchOut => (Status::Retreated, Removal::MarchedOut),
        };
        for id in defenders {
            self.set_status(id, status);
            self.push(Event::Removed { unit: id, how });
        }
        self.finish(side.other(), EndReason::Capitulation);
    }

    /// The moderator's: which decisions the battle asks for (a battle's: T-FORT-7's terms).
    pub fn moderate(&mut self, asks: &[Asked]) -> Result<(), OrderError> {
        let asks = crate::moderation::of_kind(asks, &Asked::BATTLE).map_err(|a| {
            OrderError::rule(a.rule(), format!("{a:?} is decided on the campaign map, not in a battle"))
        })?;
        self.sides.ask_terms = asks.contains(&Asked::Capitulation);
        self.push(Event::Moderated { asks });
        Ok(())
    }

    /// The moderator's ruling on the capitulation's terms; then the fortress is surrendered.
    pub fn rule(&mut self, ruling: Ruling) -> Result<(), OrderError> {
        let side = self.sides.terms_asked.ok_or(OrderError::NoQuestion)?;
        let terms = match ruling {
            Ruling::Terms(t) => t,
            Ruling::Default => Terms::Captured,
        };
        self.sides.terms_asked = None;
        self.push(Event::Ruled { rule: Asked::Capitulation, ruling });
        self.surrender_fortress(side, terms);
        Ok(())
    }

    // ---- unit orders of a whole turn -----------------------------------------------------

    /// T-SKIRM-1: light infantry takes or leaves open order, spending its whole turn.
    pub fn check_skirmish(&self, id: UnitId, on: bool) -> Result<(), OrderError> {
        self.battle_side("changing skirmish order")?;
        let u = self.own_unit(id)?;
        if !self.has(u, Ability::SkirmishOrder) {
            return Err(OrderError::rule(
                "T-SKIRM-1",
                format!("{} is not light infantry and cannot skirmish", self.name(id)),
            ));
        }
        if u.skirmish.is_some() == on {
            return Err(OrderError::rule(
                "T-SKIRM-1",
                format!("{} is {} in skirmish order", self.name(id), if on { "already" } else { "not" }),
            ));
        }
        if u.skirmish.is_some_and(|s| s.disorganized) {
            return Err(OrderError::rule(
                "T-SKIRM-5",
                format!("{} is disorganized and must reform first", self.name(id)),
            ));
        }
        self.check_whole_turn(u.id)?;
        if self.in_contact(u) {
            return Err(OrderError::rule("T-SKIRM-1", format!("{} is in melee", self.name(id))));
        }
        self.check_command(u)
    }

    fn check_whole_turn(&self, id: UnitId) -> Result<(), OrderError> {
        let u = self.own_unit(id)?;
        if u.activity.moved || u.activity.fired || u.activity.mp_spent > 0 || u.activity.whole_turn {
            return Err(OrderError::rule(
                "T-SKIRM-1",
                format!("{} has already acted this turn; this takes the whole turn", self.name(id)),
            ));
        }
        Ok(())
    }

    pub fn set_skirmish(&mut self, id: UnitId, on: bool) {
        if let Some(u) = self.unit_mut(id) {
            u.skirmish = on.then_some(Skirmishing { disorganized: false });
            u.activity.whole_turn = true;
        }
        self.push(Event::SkirmishOrder { unit: id, on });
    }

    /// T-SKIRM-5: disorganized skirmishers may only reform, which takes the whole turn.
    pub fn check_reform(&self, id: UnitId) -> Result<(), OrderError> {
        self.battle_side("reforming")?;
        let u = self.own_unit(id)?;
        if !u.skirmish.is_some_and(|s| s.disorganized) {
            return Err(OrderError::rule("T-SKIRM-5", format!("{} is not disorganized", self.name(id))));
        }
        self.check_whole_turn(id)
    }

    pub fn reform(&mut self, id: UnitId) {
        if let Some(u) = self.unit_mut(id) {
            u.skirmish = Some(Skirmishing { disorganized: false });
            u.activity.whole_turn = true;
        }
        self.push(Event::Reformed { unit: id });
    }

    /// T-FIRE-11: reaction orders are set free in the own turn or at deployment.
    pub fn check_reactions(&self, id: UnitId) -> Result<(), OrderError> {
        let u = self.unit(id).ok_or(OrderError::UnknownUnit(id))?;
        match self.clock.phase {
            Phase::Over => return Err(OrderError::BattleOver),
            Phase::Redoubts => {
                return Err(OrderError::WrongPhase { what: "setting reactions", when: "while redoubts are placed" });
            }
            _ => {}
        }
        if u.side != self.clock.active {
            return Err(OrderError::NotYours { unit: id, owner: u.side, active: self.clock.active });
        }
        if !matches!(u.status, Status::Active | Status::Undeployed) {
            return Err(OrderError::OffField { unit: id, status: u.status.name() });
        }
        if self.sides.retreating[u.side.index()] {
            return Err(OrderError::rule("T-END-2", "a retreating army no longer attacks"));
        }
        Ok(())
    }

    pub fn set_reactions(&mut self, id: UnitId, reactions: Reactions) {
        if let Some(u) = self.unit_mut(id) {
            u.reactions = reactions;
        }
        self.push(Event::ReactionsSet { unit: id, reactions });
    }
}
