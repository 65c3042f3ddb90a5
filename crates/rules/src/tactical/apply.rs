//! The one door into the rules: every order is validated, then applied, by [`Ctx::apply`];
//! [`apply_order`] runs it against the ECS world, with the end of the turn as a schedule of
//! rule phases.

use super::components::Phase;
use super::event::Event;
use super::order::{Order, OrderError};
use super::state::{Ctx, EventLog, OrderLog};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};

/// The end of a turn (T-TURN-3), one system set per rules phase, run in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndOfTurnSet {
    /// T-ART-3 overrun, then one exchange per melee group (T-MELEE-3), morale tests with each damage step.
    Melee,
    /// T-END-3: retreating units caught.
    Captures,
    /// T-END-1, T-FORT-6: is the battle over?
    Victory,
    /// T-TURN-1, T-TURN-4: the other side's turn.
    NextTurn,
}

/// The schedule that ends a turn.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EndOfTurn;

/// A rules phase: acts on the working copy of the battle.
pub type PhaseFn = fn(&mut Ctx);

/// The phases of the end of a turn, in order; the schedule is built from this list.
pub const END_OF_TURN: [(EndOfTurnSet, PhaseFn); 4] = [
    (EndOfTurnSet::Melee, Ctx::melee_phase),
    (EndOfTurnSet::Captures, Ctx::capture_phase),
    (EndOfTurnSet::Victory, Ctx::victory_phase),
    (EndOfTurnSet::NextTurn, Ctx::next_turn_phase),
];

/// Builds the end-of-turn schedule: single-threaded, sets chained, ambiguities are errors.
pub fn end_of_turn_schedule() -> Schedule {
    let mut schedule = Schedule::new(EndOfTurn);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..Default::default() });
    schedule.configure_sets(
        (EndOfTurnSet::Melee, EndOfTurnSet::Captures, EndOfTurnSet::Victory, EndOfTurnSet::NextTurn).chain(),
    );
    for (set, phase) in END_OF_TURN {
        schedule.add_systems((move |world: &mut World| run_phase(world, phase)).in_set(set));
    }
    schedule
}

fn run_phase(world: &mut World, phase: PhaseFn) {
    let mut ctx = Ctx::load(world);
    phase(&mut ctx);
    ctx.store(world);
}

impl Ctx {
    /// Validates and applies one order to this working copy. On error nothing has changed.
    pub fn apply(&mut self, order: &Order) -> Result<(), OrderError> {
        match order {
            Order::Moderate { asks } if self.outcome.is_none() => return self.moderate(asks),
            Order::Rule(ruling) if self.outcome.is_none() => return self.rule(*ruling),
            Order::Moderate { .. } | Order::Rule(_) => return Err(OrderError::BattleOver),
            _ => {}
        }
        self.not_awaiting_moderator()?;
        match order {
            Order::Moderate { .. } | Order::Rule(_) => {}
            Order::PlaceRedoubt { cell } => {
                let side = self.check_redoubt(*cell)?;
                self.place_redoubt(side, *cell);
            }
            Order::Deploy { unit, cell, facing } => {
                self.check_deploy(*unit, *cell)?;
                self.deploy(*unit, *cell, *facing, false);
            }
            Order::DesignateHq { unit } => {
                let side = self.check_hq(*unit)?;
                self.name_hq(side, *unit);
            }
            Order::FormFormation { name, units, general } => {
                let side = self.check_formation(units, *general)?;
                self.form_formation(side, name.clone(), units.clone(), *general);
            }
            Order::EndSetup => {
                let side = self.check_end_setup()?;
                self.end_setup(side);
            }
            Order::Move { unit, path, exit } => {
                self.battle_side("moving")?;
                let plan = self.check_move(*unit, path, *exit)?;
                self.do_move(&plan);
            }
            Order::Turn { unit, facing } => {
                self.battle_side("turning")?;
                let cost = self.check_turn(*unit, *facing)?;
                self.do_turn(*unit, *facing, cost);
            }
            Order::Fire { unit, target } => {
                self.battle_side("firing")?;
                let shot = self.check_fire(*unit, *target)?;
                self.fire_ordered(&shot);
            }
            Order::Skirmish { unit, on } => {
                self.check_skirmish(*unit, *on)?;
                self.set_skirmish(*unit, *on);
            }
            Order::Reform { unit } => {
                self.check_reform(*unit)?;
                self.reform(*unit);
            }
            Order::SetReactions { unit, reactions } => {
                self.check_reactions(*unit)?;
                self.set_reactions(*unit, *reactions);
            }
            Order::Retreat => {
                let side = self.check_retreat()?;
                self.retreat(side);
            }
            Order::Capitulate => {
                let side = self.check_capitulate()?;
                self.capitulate(side);
            }
            Order::BringUp { unit, cell, facing } => {
                self.check_bring_up(*unit, *cell)?;
                self.deploy(*unit, *cell, *facing, false);
            }
            Order::EndTurn => {
                self.battle_side("ending the turn")?;
                self.end_turn();
                return Ok(());
            }
        }
        if self.clock.phase == Phase::Battle {
            self.clock.orders_this_turn += 1;
            self.reveal_adjacent();
            self.victory_phase();
        }
        Ok(())
    }

    /// No side gives an order while a capitulation's terms wait for the moderator (T-FORT-7).
    pub fn not_awaiting_moderator(&self) -> Result<(), OrderError> {
        match self.sides.terms_asked {
            Some(_) => Err(OrderError::AwaitsModerator { rule: "T-FORT-7" }),
            None => Ok(()),
        }
    }

    /// Runs the end-of-turn phases on this copy (what the schedule does to the world).
    pub fn end_turn(&mut self) {
        for (_, phase) in END_OF_TURN {
            phase(self);
        }
    }

    /// T-TERR-2: a hidden unit with an enemy next to it is revealed.
    fn reveal_adjacent(&mut self) {
        let seen: Vec<_> = self.units.iter().filter(|u| u.concealed && self.in_contact(u)).map(|u| u.id).collect();
        for id in seen {
            self.reveal(id);
        }
    }
}

/// Applies an order to a battle world: the one entry point for play, AI and replay.
/// Returns the events, or the reason the order is illegal (the world is then untouched).
pub fn apply_order(world: &mut World, order: &Order) -> Result<Vec<Event>, OrderError> {
    let mut ctx = Ctx::load(world);
    let events = if *order == Order::EndTurn {
        ctx.not_awaiting_moderator()?;
        ctx.battle_side("ending the turn")?;
        let start = world.resource::<EventLog>().0.len();
        world.run_schedule(EndOfTurn);
        world.resource::<EventLog>().0[start..].to_vec()
    } else {
        ctx.apply(order)?;
        ctx.store(world)
    };
    world.resource_mut::<OrderLog>().0.push(order.clone());
    Ok(events)
}
