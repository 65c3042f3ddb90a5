//! The one door into the Great War rules: [`Ctx::apply`] validates and applies an order on a
//! copy and keeps it only if it was legal. The turn's phases (S-TURN-2) are schedules of chained
//! system sets, each of which can be run alone.

use super::event::{Event, EventKind};
use super::fire::{GAS_FROM_TURN, TANKS_FROM_TURN, UPGRADE_FROM_TURN};
use super::hexmap::{HexAt, Terrain, flag};
use super::order::{Order, OrderError, Piece, Ruling};
use super::state::{Ctx, EventLog, ForceId, ForceKind, FormationKind, OrderLog, Phase, Place, Tech};
use super::tables::Model;
use crate::moderation::Asked;
use crate::texts::Msg;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings, ScheduleLabel, SingleThreadedExecutor};

/// A rules step acting on the working copy.
pub type Step = fn(&mut Ctx);

/// The system sets of every phase, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhaseSet {
    /// New turn: activities and land movement allowances reset (S-TURN-2 Preparation).
    TurnStart,
    /// Fleets and squadrons ready for the Movement phase (S-NAVAL-4).
    FleetsReady,
    /// S-TURN-3: undestroyed damage restored at the end of the Fire phase.
    FireEnd,
    /// S-COMBAT-11: encirclement, judged on this turn's movement before anyone fights.
    Encirclement,
    /// S-SUP-3 and S-COMBAT-10 before the engagements.
    Contact,
    /// S-COMBAT-8: every engagement.
    Engagements,
    /// S-COMBAT-9 losses.
    CombatLosses,
    /// S-ARMY-12…14.
    ArmyFates,
    /// S-CITY-2, S-CITY-3.
    Income,
    /// S-SUP-1, S-SUP-2, S-SUP-4.
    Supply,
    /// S-SUP-5.
    Climate,
    /// S-SUP-6.
    Rotation,
    /// S-MINE-4: minesweeping.
    Sweeping,
    /// S-CITY-2 devastation (house rule).
    Devastation,
    /// S-CITY-1, S-CITY-3.
    Occupation,
    /// S-CITY-3 uprisings (house rule).
    Uprisings,
    /// Surrender and victory (issue 12).
    Surrender,
    /// Fronts of units out of contact cleared; the next turn begins.
    TurnEnd,
}

/// One schedule per phase of S-TURN-2: what the rules do on their own in it (players' orders
/// come between: Preparation and Movement at their start, Fire at its end).
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhaseSchedule {
    Preparation,
    Movement,
    Fire,
    Combat,
    Upkeep,
}

/// The steps of each schedule, in order; the schedules are built from these lists.
pub const PREPARATION: [(PhaseSet, Step); 1] = [(PhaseSet::TurnStart, Ctx::turn_start)];
pub const MOVEMENT: [(PhaseSet, Step); 1] = [(PhaseSet::FleetsReady, Ctx::naval_turn_start)];
pub const FIRE_END: [(PhaseSet, Step); 1] = [(PhaseSet::FireEnd, Ctx::restore_damage)];
/// Where [`COMBAT`]'s engagements begin: a moderator's ruling on the support (S-COMBAT-3)
/// comes before them.
const ENGAGEMENTS: usize = 2;
pub const COMBAT: [(PhaseSet, Step); 5] = [
    // S-COMBAT-11: a group cut off by this turn's movement fights this Combat phase encircled.
    (PhaseSet::Encirclement, Ctx::encirclement),
    (PhaseSet::Contact, Ctx::artillery_contact),
    (PhaseSet::Engagements, Ctx::combat_engagements),
    (PhaseSet::CombatLosses, Ctx::combat_losses),
    (PhaseSet::ArmyFates, Ctx::army_fates),
];
pub const UPKEEP: [(PhaseSet, Step); 10] = [
    (PhaseSet::Devastation, Ctx::devastation),
    (PhaseSet::Income, Ctx::income),
    (PhaseSet::Supply, Ctx::pay_upkeep),
    (PhaseSet::Climate, Ctx::climate_attrition),
    (PhaseSet::Rotation, Ctx::rotation),
    (PhaseSet::Sweeping, Ctx::sweep_mines),
    (PhaseSet::Occupation, Ctx::occupation),
    (PhaseSet::Uprisings, Ctx::uprisings),
    (PhaseSet::Surrender, Ctx::surrenders),
    (PhaseSet::TurnEnd, Ctx::turn_end),
];

/// Builds one phase schedule: single-threaded, sets chained, ambiguities are errors.
pub fn phase_schedule(label: PhaseSchedule) -> Schedule {
    let steps: &[(PhaseSet, Step)] = match label {
        PhaseSchedule::Preparation => &PREPARATION,
        PhaseSchedule::Movement => &MOVEMENT,
        PhaseSchedule::Fire => &FIRE_END,
        PhaseSchedule::Combat => &COMBAT,
        PhaseSchedule::Upkeep => &UPKEEP,
    };
    let mut schedule = Schedule::new(label);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.set_build_settings(ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..Default::default() });
    for pair in steps.windows(2) {
        schedule.configure_sets(pair[0].0.before(pair[1].0));
    }
    for &(set, step) in steps {
        schedule.add_systems((move |world: &mut World| run_step(world, step)).in_set(set));
    }
    schedule
}

fn run_step(world: &mut World, step: Step) {
    let mut ctx = Ctx::load(world);
    step(&mut ctx);
    ctx.store(world);
}

impl Ctx {
    /// `what`: the key of the order's words, as a noun (`gwe.army.act.*`).
    fn phase_is(&self, phase: Phase, what: &'static str) -> Result<(), OrderError> {
        if self.clock.phase == Phase::Over {
            return Err(OrderError::GameOver);
        }
        if self.clock.phase != phase {
            return Err(OrderError::WrongPhase { what: Msg::new(what), phase: self.clock.phase });
        }
        Ok(())
    }

    /// S-ARMY-3: a unit or corps that serves in a larger formation takes no orders of its own
    /// (its army's or corps' orders move it); also whether the piece is the active power's and
    /// on the map. The app asks it before it shows a piece's own moves.
    pub fn free_piece(&self, piece: Piece) -> Result<(), OrderError> {
        let (power, units) = self.piece_units(piece)?;
        if power != self.active_power() {
            return Err(OrderError::NotYours(self.piece_name(piece)));
        }
        let f = units.first().and_then(|u| self.force(*u)).ok_or(OrderError::EmptyPath)?;
        if !f.on_map() {
            return Err(OrderError::OffMap(self.name(f.id)));
        }
        let bound = match piece {
            Piece::Unit(_) => f.member.corps.is_some() || f.member.army.is_some(),
            Piece::Corps(_) => f.member.army.is_some(),
        };
        if bound {
            return Err(OrderError::TakesOrdersFromFormation(self.piece_name(piece)));
        }
        Ok(())
    }

    /// S-ARMY-7, S-ARMY-15: engaged troops (next to an enemy land unit) leave contact only by the
    /// Retreat order; a plain move or an army's move of an engaged corps is refused.
    fn not_engaged(&self, power: super::state::PowerId, units: &[ForceId]) -> Result<(), OrderError> {
        let at = units.first().and_then(|u| self.force(*u)).and_then(|f| f.hex());
        match (at, units.first()) {
            (Some(at), Some(u)) if self.next_to_enemy(power, at) => Err(OrderError::Engaged(self.name(*u))),
            _ => Ok(()),
        }
    }

    /// Whether the engine would take `order` now, changing nothing: the order is played on a
    /// copy of the state (its log left behind). The app asks it before it offers a button whose
    /// order has no check of its own (a purchase, a restoration, gas), so no button offers what
    /// the order refuses, and a refused one says the engine's reason.
    pub fn would_take(&self, order: &Order) -> Result<(), OrderError> {
        let mut copy = self.clone_without_log();
        copy.apply_unchecked(order)
    }

    /// A copy of the state without its event log (what a check needs, at a fraction of the cost
    /// late in a long war).
    fn clone_without_log(&self) -> Ctx {
        Ctx {
            statics: self.statics.clone(),
            clock: self.clock,
            powers: self.powers.clone(),
            provinces: self.provinces.clone(),
            hexes: self.hexes.clone(),
            forces: self.forces.clone(),
            formations: self.formations.clone(),
            next_formation: self.next_formation,
            dice: self.dice.clone(),
            navy: self.navy.clone(),
            events: Vec::new(),
            defer_battles: self.defer_battles,
            deferred: self.deferred.clone(),
            occupancy: self.occupancy.clone(),
            withheld: self.withheld.clone(),
        }
    }

    /// Validates and applies an order; on error nothing changes.
    pub fn apply(&mut self, order: &Order) -> Result<(), OrderError> {
        let mut next = self.clone();
        next.apply_unchecked(order)?;
        *self = next;
        Ok(())
    }

    fn apply_unchecked(&mut self, order: &Order) -> Result<(), OrderError> {
        if self.clock.phase == Phase::Over {
            return Err(OrderError::GameOver);
        }
        match order {
            Order::Moderate { asks } => return self.moderate(asks),
            Order::Rule(ruling) => return self.rule(ruling),
            _ if self.clock.support_asked => {
                return Err(OrderError::Moderation(Msg::new("gw.err.awaits_moderator").arg("rule", "S-COMBAT-3")));
            }
            _ => {}
        }
        if self.idle(self.active_power()) && *order != Order::EndPhase {
            return Err(OrderError::Idle(Msg::named(
                self.power_key(self.active_power()),
                self.power_name(self.active_power()),
            )));
        }
        self.apply_order_kind(order)?;
        // A land unit of a power at war on a neutral's land brings it into the war (issue 12).
        self.invasions();
        Ok(())
    }

    fn apply_order_kind(&mut self, order: &Order) -> Result<(), OrderError> {
        match order {
            Order::Move { piece, path } => {
                self.phase_is(Phase::Movement, "gwe.army.act.moving")?;
                self.free_piece(*piece)?;
                let (power, units) = self.piece_units(*piece)?;
                self.not_engaged(power, &units)?;
                let plan = self.check_path(power, &units, path)?;
                self.do_move(&plan);
            }
            Order::MoveArmy { army, moves } => {
                self.phase_is(Phase::Movement, "gwe.army.act.moving")?;
                let fm = self.formation(*army).ok_or(OrderError::NoFormation(*army))?.clone();
                if fm.power != self.active_power() || fm.kind != FormationKind::Army {
                    return Err(OrderError::Organization(Msg::new("gwe.army.not_your_army").arg("name", &fm.name)));
                }
                // S-ARMY-1: the army moves at its slowest division's speed.
                let all = self.formation_units(*army);
                let before = self.formation_hexes(*army);
                let mp = self.group_mp(&all);
                for (corps, path) in moves {
                    if !fm.corps.contains(corps) {
                        return Err(OrderError::Organization(
                            Msg::new("gwe.army.corps_not_in_army").arg("corps", corps).arg("army", &fm.name),
                        ));
                    }
                    let (power, units) = self.piece_units(Piece::Corps(*corps))?;
                    self.not_engaged(power, &units)?;
                    for u in &units {
                        if let Some(f) = self.force_mut(*u) {
                            f.activity.mp_left = f.activity.mp_left.min(mp);
                        }
                    }
                    let plan = self.check_path(power, &units, path)?;
                    self.do_move(&plan);
                }
                // S-ARMY-4: it stays within its frontage and depth.
                self.check_frontage(*army, &before)?;
                for u in all {
                    if let Some(f) = self.force_mut(u) {
                        f.activity.mp_left = 0;
                    }
                }
            }
            Order::Attack { piece, target } => {
                self.phase_is(Phase::Movement, "gwe.army.act.attack_target")?;
                self.free_piece(*piece)?;
                self.name_target(*piece, *target)?;
            }
            Order::FormCorps { name, units } => {
                self.phase_is(Phase::Movement, "gwe.army.act.form_corps")?;
                self.form_corps(name, units)?;
            }
            Order::FormArmy { name, corps } => {
                self.phase_is(Phase::Movement, "gwe.army.act.form_army")?;
                self.form_army(name, corps)?;
            }
            Order::JoinCorps { unit, corps } => {
                self.phase_is(Phase::Movement, "gwe.army.act.join_corps")?;
                self.join_corps(*unit, *corps)?;
            }
            Order::Detach { piece, to } => {
                self.phase_is(Phase::Movement, "gwe.army.act.detach")?;
                self.detach(*piece, *to)?;
            }
            Order::Attach { unit, formation } => {
                self.phase_is(Phase::Movement, "gwe.army.act.attach")?;
                self.attach(*unit, *formation)?;
            }
            Order::AttachSquadron { squadron, formation } => {
                self.phase_is(Phase::Movement, "gwe.army.act.attach")?;
                self.attach_squadron(*squadron, *formation)?;
            }
            Order::AssignReserve { unit, army } => {
                self.phase_is(Phase::Movement, "gwe.army.act.assign_reserve")?;
                self.assign_reserve(*unit, *army)?;
            }
            Order::CommitReserve { unit, to } => {
                self.phase_is(Phase::Movement, "gwe.army.act.commit_reserve")?;
                self.commit_reserve(*unit, *to)?;
            }
            Order::Fortify { piece } => {
                self.phase_is(Phase::Movement, "gwe.army.act.fortify")?;
                self.fortify(*piece)?;
            }
            Order::Fire { unit, target, gas } => {
                self.phase_is(Phase::Fire, "gwe.army.act.fire")?;
                let shot = self.check_fire(*unit, *target, *gas)?;
                self.fire(&shot);
            }
            Order::FormBattery { units } => {
                self.phase_is(Phase::Movement, "gwe.army.act.form_battery")?;
                self.form_battery(*units)?;
            }
            Order::PlaceCylinder { at } => {
                // S-CHEM-1: the cylinder is set and its gas released in the Preparation phase.
                self.phase_is(Phase::Preparation, "gwe.army.act.place_cylinder")?;
                self.place_cylinder(*at)?;
            }
            Order::ReleaseGas { from, target } => {
                self.phase_is(Phase::Preparation, "gwe.army.act.release_gas")?;
                self.check_release(*from, *target)?;
                self.release_gas(*from, *target);
            }
            Order::Upgrade { unit } => {
                self.phase_is(Phase::Movement, "gwe.army.act.upgrade")?;
                self.upgrade(*unit)?;
            }
            Order::Convert { unit, to } => {
                self.phase_is(Phase::Movement, "gwe.army.act.convert")?;
                self.convert(*unit, *to)?;
            }
            Order::Research { tech } => {
                self.research(*tech)?;
            }
            Order::Restore { unit, class } => {
                self.phase_is(Phase::Movement, "gwe.army.act.restore")?;
                self.restore(*unit, *class)?;
            }
            Order::Repair { unit } => {
                self.phase_is(Phase::Movement, "gwe.army.act.repair")?;
                self.repair(*unit)?;
            }
            Order::Retreat { moves } => {
                self.phase_is(Phase::Movement, "gwe.army.act.retreat")?;
                self.retreat(moves)?;
            }
            Order::SupplyPriority { last } => {
                let p = self.active_power();
                for a in last {
                    let ok = self.formation(*a).is_some_and(|f| f.power == p && f.kind == FormationKind::Army);
                    if !ok {
                        return Err(OrderError::NoFormation(*a));
                    }
                }
                self.powers[usize::from(p.0)].supply_last = last.clone();
            }
            Order::MoveFleet { fleet, path } => {
                self.phase_is(Phase::Movement, "gwe.army.act.move_fleet")?;
                self.move_fleet(*fleet, path)?;
            }
            Order::FleetStance { fleet, intercept, withdraw, transports_first, targets } => {
                self.fleet_stance(*fleet, *intercept, *withdraw, *transports_first)?;
                self.name_ship_targets(*fleet, targets)?;
            }
            Order::SplitFleet { fleet, ships, name } => {
                self.phase_is(Phase::Movement, "gwe.army.act.split_fleet")?;
                self.split_fleet(*fleet, ships, name)?;
            }
            Order::MergeFleet { fleet, into } => {
                self.phase_is(Phase::Movement, "gwe.army.act.merge_fleets")?;
                self.merge_fleet(*fleet, *into)?;
            }
            Order::LayMine { fleet } => {
                self.phase_is(Phase::Movement, "gwe.army.act.lay_mine")?;
                self.lay_mine(*fleet)?;
            }
            Order::Sweep { fleet } => {
                self.phase_is(Phase::Movement, "gwe.army.act.sweep")?;
                self.order_sweep(*fleet)?;
            }
            Order::SubmarineAttack { flotilla, target } => {
                self.phase_is(Phase::Movement, "gwe.army.act.submarine_attack")?;
                self.submarine_attack(*flotilla, *target)?;
            }
            Order::Patrol { flotilla, lane } => {
                self.phase_is(Phase::Movement, "gwe.army.act.patrol")?;
                self.patrol(*flotilla, *lane as usize)?;
            }
            Order::Embark { unit, fleet } => {
                self.phase_is(Phase::Movement, "gwe.army.act.embark")?;
                self.embark(*unit, *fleet)?;
            }
            Order::Disembark { unit, to } => {
                self.phase_is(Phase::Movement, "gwe.army.act.land")?;
                self.disembark(*unit, *to)?;
            }
            Order::EmbarkSquadron { squadron, fleet } => {
                self.phase_is(Phase::Movement, "gwe.army.act.embark")?;
                self.embark_squadron(*squadron, *fleet)?;
            }
            Order::LandSquadron { squadron, base } => {
                self.phase_is(Phase::Movement, "gwe.army.act.land")?;
                self.land_squadron(*squadron, *base)?;
            }
            Order::Bombard { fleet, target } => {
                self.phase_is(Phase::Fire, "gwe.army.act.bombard")?;
                self.bombard(*fleet, *target)?;
            }
            Order::CoastalFire { unit, ship } => {
                self.phase_is(Phase::Fire, "gwe.army.act.coastal_fire")?;
                self.coastal_fire(*unit, *ship)?;
            }
            Order::Reconnaissance { squadron } => {
                self.phase_is(Phase::Fire, "gwe.army.act.reconnaissance")?;
                self.reconnaissance(*squadron)?;
            }
            Order::Bomb { squadrons, ship } => {
                self.phase_is(Phase::Fire, "gwe.army.act.bomb")?;
                self.bomb(squadrons, *ship)?;
            }
            Order::BuyAmmunition { amount } => {
                self.buy_ammunition(*amount)?;
            }
            Order::Recruit { unit, at } => {
                self.phase_is(Phase::Movement, "gwe.army.act.recruit")?;
                self.recruit(unit, *at)?;
            }
            Order::BuyGas { shells, cylinders } => {
                self.phase_is(Phase::Movement, "gwe.army.act.buy_gas")?;
                self.buy_gas(*shells, *cylinders)?;
            }
            Order::OfferPeace { to, cede } => self.offer_peace(to, cede)?,
            Order::AcceptPeace { from } => self.accept_peace(from)?,
            Order::EndPhase => self.end_phase(),
            // Taken by `apply_unchecked` before any player's order.
            Order::Moderate { .. } | Order::Rule(_) => {}
        }
        Ok(())
    }

    /// S-COMBAT-8 resolution: a piece names the adjacent enemy hex it fights this turn.
    fn name_target(&mut self, piece: Piece, target: HexAt) -> Result<(), OrderError> {
        let (power, units) = self.piece_units(piece)?;
        let at = self.piece_hex(piece).ok_or(OrderError::EmptyPath)?;
        if !self.map().contains(target) {
            return Err(OrderError::OutsideMap(target));
        }
        if !at.is_adjacent(target) {
            return Err(OrderError::NotAdjacent { from: at, to: target });
        }
        let enemy = self
            .at(target)
            .iter()
            .any(|u| self.force(*u).is_some_and(|f| f.kind.is_combatant() && self.hostile(power, f.power)));
        if !enemy {
            return Err(OrderError::NoEnemyAt(target));
        }
        for u in &units {
            if let Some(f) = self.force_mut(*u) {
                f.activity.target = Some(target);
            }
        }
        let name = units.first().map(|u| self.name_msg(*u)).unwrap_or_else(|| Msg::plain(""));
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.army.attacks").msg("name", name).hex("at", target),
        });
        Ok(())
    }

    /// S-FORT-1, S-FORT-2, S-ARMY-10: build level 1, or level 2 from the next turn on.
    fn fortify(&mut self, piece: Piece) -> Result<(), OrderError> {
        if let Err(e) = self.free_piece(piece) {
            // A corps of an army builds where it stands, in lulls only (checked below).
            let army_corps = matches!(piece, Piece::Corps(_)) && matches!(e, OrderError::TakesOrdersFromFormation(_));
            if !army_corps {
                return Err(e);
            }
        }
        let (power, units) = self.piece_units(piece)?;
        let at = self.piece_hex(piece).ok_or(OrderError::EmptyPath)?;
        if !units.iter().any(|u| self.force(*u).is_some_and(|f| f.kind.is_division())) {
            return Err(OrderError::Fortification(Msg::new("gwe.army.fort_divisions_only")));
        }
        let cell = self.map().cell(at).copied().unwrap_or_default();
        if cell.terrain == Terrain::Mountains || cell.has(flag::CITY) {
            return Err(OrderError::Fortification(Msg::new("gwe.army.fort_terrain")));
        }
        let army = units.first().and_then(|u| self.force(*u)).and_then(|f| f.member.army);
        if let Some(a) = army.and_then(|a| self.formation(a))
            && a.engaged
        {
            return Err(OrderError::Fortification(Msg::new("gwe.army.fort_not_in_lull").arg("name", &a.name)));
        }
        let hs = self.hex_state(at);
        let alliance = self.alliance(power);
        let level = if hs.fort == 1 && hs.fort_alliance == alliance {
            if hs.fort_turn >= self.clock.turn {
                return Err(OrderError::Fortification(Msg::new("gwe.army.fort_level_two_next_turn")));
            }
            2
        } else if hs.fort == 2 && hs.fort_alliance == alliance {
            return Err(OrderError::Fortification(Msg::new("gwe.army.fort_already_level_two")));
        } else {
            1
        };
        let price = i64::from(self.scenario().rules.economy.fortification[usize::from(level - 1)]);
        self.pay(power, price, "gwe.army.pay.fortification")?;
        let turn = self.clock.turn;
        let s = self.hex_state_mut(at);
        s.fort = level;
        s.fort_alliance = alliance;
        s.fort_turn = turn;
        for u in &units {
            if let Some(f) = self.force_mut(*u) {
                f.activity.mp_left = 0;
                f.activity.fortified = true;
            }
        }
        self.push(Event {
            turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.army.fortified").arg("level", level).hex("at", at).arg("price", price),
        });
        Ok(())
    }

    /// `what`: the key of what is paid for, as a noun (`gwe.army.pay.*`).
    fn pay(&mut self, power: super::state::PowerId, price: i64, what: &'static str) -> Result<(), OrderError> {
        let p = &mut self.powers[usize::from(power.0)];
        if p.money < price {
            return Err(OrderError::Economy(
                Msg::new("gw.err.buy.money").msg("what", Msg::new(what)).arg("price", price).arg("left", p.money),
            ));
        }
        p.money -= price;
        Ok(())
    }

    /// S-CHEM-1: a cylinder on a hex with own troops, from turn 3 with the technology.
    fn place_cylinder(&mut self, at: HexAt) -> Result<(), OrderError> {
        self.check_place_cylinder(at)?;
        let power = self.active_power();
        self.powers[usize::from(power.0)].cylinders -= 1;
        self.hex_state_mut(at).cylinder = Some(power);
        Ok(())
    }

    /// Whether the active power may set a cylinder at `at` (S-CHEM-1), the phase aside.
    pub fn check_place_cylinder(&self, at: HexAt) -> Result<(), OrderError> {
        let power = self.active_power();
        if self.clock.turn < GAS_FROM_TURN {
            return Err(OrderError::TooEarly { what: Msg::new(Tech::Gas.key()), from: GAS_FROM_TURN });
        }
        let p = &self.powers[usize::from(power.0)];
        if !p.techs.gas {
            return Err(OrderError::NoTech { what: Msg::new("gwe.army.gas_cylinder"), tech: Tech::Gas });
        }
        if p.cylinders == 0 {
            return Err(OrderError::Gas(Msg::new("gwe.army.no_cylinders")));
        }
        if self.holder(at) != Some(power) {
            return Err(OrderError::Gas(Msg::new("gwe.army.cylinder_no_troops").hex("at", at)));
        }
        if self.hex_state(at).cylinder.is_some() {
            return Err(OrderError::Gas(Msg::new("gwe.army.cylinder_already").hex("at", at)));
        }
        Ok(())
    }

    /// Where the active power may set a cylinder now (S-CHEM-1), the phase aside: the first of
    /// the hexes its troops hold that [`Ctx::check_place_cylinder`] takes, else that check's
    /// refusal at the first of them (too early, no gas, no cylinder in stock, one set already),
    /// or [`OrderError::Gas`] when it holds no hex at all. What the shell's button and
    /// [`Ctx::has_phase_orders`] both ask.
    pub fn cylinder_place(&self) -> Result<HexAt, OrderError> {
        let power = self.active_power();
        let mut held: Vec<HexAt> =
            self.forces.iter().filter(|f| f.power == power && f.on_map()).filter_map(|f| f.hex()).collect();
        held.sort();
        held.dedup();
        let mut refused = None;
        for at in held {
            match self.check_place_cylinder(at) {
                Ok(()) => return Ok(at),
                Err(e) => {
                    refused.get_or_insert(e);
                }
            }
        }
        Err(refused.unwrap_or_else(|| OrderError::Gas(Msg::new("gwe.army.cylinder_no_hex"))))
    }

    /// S-LAND-4, S-LAND-8: a division takes the 1916 stats of its class for its own price.
    fn upgrade(&mut self, unit: ForceId) -> Result<(), OrderError> {
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        if self.clock.turn < UPGRADE_FROM_TURN {
            return Err(OrderError::TooEarly { what: Msg::new("gwe.army.infantry_upgrade"), from: UPGRADE_FROM_TURN });
        }
        if !self.powers[usize::from(f.power.0)].techs.infantry {
            return Err(OrderError::NoTech { what: Msg::new("gwe.army.upgrade_1916"), tech: Tech::Infantry });
        }
        let kind = match f.kind {
            ForceKind::Infantry { model: Model::M1914, group, class, mountain, elite, colonial } => {
                ForceKind::Infantry { model: Model::M1916, group, class, mountain, elite, colonial }
            }
            ForceKind::Cavalry { model: Model::M1914, class, elite } => {
                ForceKind::Cavalry { model: Model::M1916, class, elite }
            }
            ForceKind::Infantry { model, .. } | ForceKind::Cavalry { model, .. } => {
                return Err(OrderError::AlreadyUpgraded { unit, model });
            }
            _ => return Err(OrderError::Economy(Msg::new("gwe.army.upgrade_divisions_only"))),
        };
        let price = i64::from(self.scenario().rules.economy.upgrade);
        self.pay(f.power, price, "gwe.army.pay.upgrade")?;
        self.retype(unit, kind);
        let name = self.name_msg(unit);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.army.upgraded").msg("name", name).arg("price", price),
        });
        Ok(())
    }

    /// A unit becomes another kind (the 1916 upgrade, a conversion, S-LAND-4/5/6): lost Health
    /// stays lost, and a changed Morale ceiling moves its Morale by as much.
    pub(super) fn retype(&mut self, unit: ForceId, kind: ForceKind) {
        let new = self.stats(kind);
        if let Some(g) = self.force_mut(unit) {
            g.kind = kind;
            let lost = g.vitals.max_health - g.vitals.health;
            g.vitals.max_health = new.health;
            g.vitals.health = (new.health - lost).max(0);
            if let (Some(m), Some(mm)) = (g.vitals.morale, g.vitals.max_morale) {
                g.vitals.morale = Some((m + new.morale - mm).clamp(0, new.morale));
                g.vitals.max_morale = Some(new.morale);
            }
        }
    }

    /// Whether the active power may buy a technology now, and its price: in the Movement phase,
    /// gas from turn 3, tanks from turn 4, the infantry upgrade from turn 5 (S-TURN-1), once, with
    /// the money for it. The app asks it before it offers the button.
    pub fn check_research(&self, tech: Tech) -> Result<i64, OrderError> {
        if !matches!(self.clock.phase, Phase::Movement) {
            return Err(OrderError::WrongPhase { what: Msg::new("gwe.army.act.research"), phase: self.clock.phase });
        }
        let power = self.active_power();
        let e = &self.scenario().rules.economy;
        let (from, price) = match tech {
            Tech::Gas => (GAS_FROM_TURN, e.research_gas),
            Tech::Tanks => (TANKS_FROM_TURN, e.research_tanks),
            Tech::Infantry => (UPGRADE_FROM_TURN, e.research_infantry),
        };
        if self.clock.turn < from {
            return Err(OrderError::TooEarly { what: Msg::new(tech.key()), from });
        }
        let p = &self.powers[usize::from(power.0)];
        let has = match tech {
            Tech::Gas => p.techs.gas,
            Tech::Tanks => p.techs.tanks,
            Tech::Infantry => p.techs.infantry,
        };
        if has {
            return Err(OrderError::Economy(Msg::new("gwe.army.tech_known").msg("tech", Msg::new(tech.key()))));
        }
        let price = i64::from(price);
        if p.money < price {
            return Err(OrderError::Economy(
                Msg::new("gw.err.buy.money")
                    .msg("what", Msg::new("gwe.army.pay.research"))
                    .arg("price", price)
                    .arg("left", p.money),
            ));
        }
        Ok(price)
    }

    /// Buys a technology (see [`Ctx::check_research`]).
    fn research(&mut self, tech: Tech) -> Result<(), OrderError> {
        let price = self.check_research(tech)?;
        let power = self.active_power();
        self.pay(power, price, "gwe.army.pay.research")?;
        let t = &mut self.powers[usize::from(power.0)].techs;
        match tech {
            Tech::Gas => t.gas = true,
            Tech::Tanks => t.tanks = true,
            Tech::Infantry => t.infantry = true,
        }
        Ok(())
    }

    /// S-LOSS-1: a dispersed unit returns at the nearest own city for half price and half manpower;
    /// manpower of another class gives that class's stats.
    fn restore(&mut self, unit: ForceId, class: u8) -> Result<(), OrderError> {
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        if f.place != Place::Dispersed {
            return Err(OrderError::Economy(Msg::new("gwe.army.not_dispersed").arg("name", self.name(unit))));
        }
        if !(1..=2).contains(&class) {
            return Err(OrderError::Economy(Msg::new("gwe.army.manpower_classes")));
        }
        // S-LOSS-1: half of what the unit it comes back as costs new, of its own kind.
        let kind = Self::restored_kind(f.kind, class);
        let full = self.unit_price(kind);
        let price = i64::from(full.money / 2);
        let men = full.manpower / 2;
        if self.powers[usize::from(f.power.0)].manpower[usize::from(class - 1)] < men {
            return Err(OrderError::Economy(
                Msg::new("gwe.army.class_manpower_needed").arg("men", men).arg("class", class),
            ));
        }
        let near = f.activity.start.unwrap_or(HexAt::new(0, 0));
        let city = self
            .assembly_point(f.power, near)
            .ok_or_else(|| OrderError::Economy(Msg::new("gwe.army.no_assembly_city")))?;
        self.pay(f.power, price, "gwe.army.pay.restore")?;
        self.powers[usize::from(f.power.0)].manpower[usize::from(class - 1)] -= men;
        let s = self.stats(kind);
        if let Some(g) = self.force_mut(unit) {
            g.kind = kind;
            g.place = Place::Map(city);
            g.vitals.health = s.health;
            g.vitals.max_health = s.health;
            if g.vitals.max_morale.is_some() {
                g.vitals.morale = Some(s.morale);
                g.vitals.max_morale = Some(s.morale);
            }
            g.member = Default::default();
            g.activity.mp_left = 0;
            g.supply = Default::default();
        }
        self.rebuild_occupancy();
        let name = self.name(unit);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Restored { unit },
            line: Msg::new("gwe.army.restored")
                .arg("name", name)
                .hex("at", city)
                .arg("price", price)
                .arg("men", men)
                .arg("class", class),
        });
        Ok(())
    }

    /// S-LOSS-1: the kind a dispersed unit comes back as with manpower of `class`: another class
    /// gives that class's values (a mountain or elite division restored from class 2 is a regular one).
    fn restored_kind(kind: ForceKind, class: u8) -> ForceKind {
        match kind {
            ForceKind::Infantry { group, model, mountain, elite, colonial, .. } => ForceKind::Infantry {
                group,
                model,
                class,
                mountain: mountain && class == 1,
                elite: elite && class == 1,
                colonial,
            },
            ForceKind::Cavalry { model, elite, .. } => ForceKind::Cavalry { class, model, elite: elite && class == 1 },
            k => k,
        }
    }

    /// Nearest free hex of a city the power owns and holds (S-LOSS-1 resolution).
    pub fn assembly_point(&self, power: super::state::PowerId, near: HexAt) -> Option<HexAt> {
        let own = &self.scenario().powers[usize::from(power.0)].id;
        let mut best: Option<(u32, HexAt)> = None;
        for city in &self.map().cities {
            let Some(pi) = self.map().province_index(&city.province) else { continue };
            let province = &self.map().provinces[pi];
            let controller_ok = match self.provinces[pi].occupier {
                Some(o) => o == power,
                None => &province.owner == own,
            };
            if !controller_ok {
                continue;
            }
            for h in &city.hexes {
                if self.at(*h).is_empty() {
                    let d = h.distance(near);
                    if best.is_none_or(|(bd, bh)| (d, *h) < (bd, bh)) {
                        best = Some((d, *h));
                    }
                }
            }
        }
        best.map(|(_, h)| h)
    }

    /// S-LOSS-2: lost Health made good for price × lost/full and as much manpower, rounded down.
    fn repair(&mut self, unit: ForceId) -> Result<(), OrderError> {
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        let lost = f.vitals.max_health - f.vitals.health;
        if lost <= 0 || !f.present() {
            return Err(OrderError::Economy(Msg::new("gwe.army.no_health_lost").arg("name", self.name(unit))));
        }
        // S-LOSS-2: the unit's own price × lost/full, rounded down (README: round down unless a rule
        // says otherwise).
        let cost = self.unit_price(f.kind);
        let full = i64::from(f.vitals.max_health);
        let price = (i64::from(cost.money) * i64::from(lost)).div_euclid(full);
        let men = u32::try_from((i64::from(cost.manpower) * i64::from(lost)).div_euclid(full)).unwrap_or(0);
        let stock = self.powers[usize::from(f.power.0)].manpower;
        // Any class: class 2 first.
        let class = if stock[1] >= men {
            1
        } else if stock[0] >= men {
            0
        } else {
            return Err(OrderError::Economy(Msg::new("gwe.army.manpower_needed").arg("men", men)));
        };
        self.pay(f.power, price, "gwe.army.pay.repair")?;
        self.powers[usize::from(f.power.0)].manpower[class] -= men;
        self.change_health(unit, lost);
        Ok(())
    }

    /// Ends the active power's part of the phase; after the last power the next phase begins.
    pub fn end_phase(&mut self) {
        self.clock.active += 1;
        self.skip_idle_powers();
        if usize::from(self.clock.active) < self.powers.len() {
            return;
        }
        self.clock.active = 0;
        match self.clock.phase {
            Phase::Preparation => {
                self.enter(Phase::Movement);
                for (_, step) in MOVEMENT {
                    step(self);
                }
            }
            Phase::Movement => self.enter(Phase::Fire),
            Phase::Fire => {
                for (_, step) in FIRE_END {
                    step(self);
                }
                self.enter(Phase::Combat);
                for (_, step) in &COMBAT[..ENGAGEMENTS] {
                    step(self);
                }
                // S-COMBAT-3 where the moderator decides: the engagements wait for the ruling.
                if self.clock.ask_support && !self.support_question().is_empty() {
                    self.clock.support_asked = true;
                    self.note(Msg::new("gwe.moderation.support_asked"));
                    return;
                }
                self.fight_and_keep();
            }
            Phase::Combat | Phase::Upkeep | Phase::Over => {}
        }
        // Neutral and surrendered powers have no part in the phases (issue 12).
        self.skip_idle_powers();
    }

    /// The Combat phase from its engagements on, then the Upkeep phase.
    fn fight_and_keep(&mut self) {
        for (_, step) in &COMBAT[ENGAGEMENTS..] {
            step(self);
        }
        self.enter(Phase::Upkeep);
        for (_, step) in UPKEEP {
            step(self);
        }
    }

    fn note(&mut self, line: Msg) {
        self.push(Event { turn: self.clock.turn, kind: EventKind::Note, line });
    }

    /// The moderator's: which decisions the war asks for (the Great War's: S-COMBAT-3).
    fn moderate(&mut self, asks: &[Asked]) -> Result<(), OrderError> {
        let asks = crate::moderation::of_kind(asks, &Asked::GREAT_WAR)
            .map_err(|a| OrderError::Moderation(Msg::new("gw.err.not_a_war_decision").arg("rule", a.rule())))?;
        self.clock.ask_support = asks.contains(&Asked::Support);
        let rules: Vec<&str> = asks.iter().map(|a| a.rule()).collect();
        self.note(Msg::new("gwe.moderation.moderated").arg("rules", rules.join(", ")));
        Ok(())
    }

    /// S-COMBAT-3: the moderator's ruling on the support, checked against the question; then
    /// the Combat phase is fought and the Upkeep phase follows.
    fn rule(&mut self, ruling: &Ruling) -> Result<(), OrderError> {
        if !self.clock.support_asked {
            return Err(OrderError::Moderation(Msg::new("gw.err.no_question")));
        }
        let question = self.support_question();
        let withheld: &[ForceId] = if let Ruling::Support { withheld } = ruling { withheld } else { &[] };
        let blocks: usize = question.iter().flatten().map(Vec::len).sum();
        if withheld.len() > blocks {
            return Err(OrderError::Moderation(
                Msg::new("gw.err.support_too_many").arg("n", withheld.len()).arg("blocks", blocks),
            ));
        }
        let mut units: Vec<ForceId> = Vec::new();
        for (i, id) in withheld.iter().enumerate() {
            let block = question.iter().flatten().flatten().find(|b| b.first() == Some(id));
            match block {
                Some(b) if !withheld[..i].contains(id) => units.extend(b.iter().copied()),
                _ => return Err(OrderError::Moderation(Msg::new("gw.err.bad_support").arg("id", id))),
            }
        }
        for side in question.iter().flatten() {
            if side.iter().all(|b| b.first().is_some_and(|f| withheld.contains(f))) {
                let id = side.first().and_then(|b| b.first()).map_or(0, |f| f.0);
                return Err(OrderError::Moderation(Msg::new("gw.err.support_keeps_one").arg("id", id)));
            }
        }
        self.clock.support_asked = false;
        self.note(Msg::new("gwe.moderation.ruled").arg("rule", Asked::Support.rule()));
        self.withheld = units;
        self.fight_and_keep();
        self.withheld.clear();
        self.skip_idle_powers();
        Ok(())
    }

    fn enter(&mut self, phase: Phase) {
        self.clock.phase = phase;
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Phase { phase, power: None },
            line: Msg::new("gwe.army.phase_begins").arg("turn", self.clock.turn).msg("phase", Msg::new(phase.key())),
        });
    }

    /// S-COMBAT-9: after the Combat phase Morale 0 destroys.
    pub fn combat_losses(&mut self) {
        self.check_losses(true);
    }

    /// A new turn: allowances and activities reset (Preparation); neutrals whose entry turn has
    /// come enter the war (issue 12).
    pub fn turn_start(&mut self) {
        let ids: Vec<ForceId> = self.forces.iter().map(|f| f.id).collect();
        for u in ids {
            let Some(f) = self.force(u) else { continue };
            let speed = self.speed(f.kind);
            // Units off the map keep the hex they left from: a restored unit assembles near it (S-LOSS-1).
            let at = f.hex().or(f.activity.start);
            if let Some(f) = self.force_mut(u) {
                f.activity = super::state::Activity { mp_left: speed, start: at, ..Default::default() };
                f.supply.ammo = true;
            }
        }
        self.enter(Phase::Preparation);
        self.neutral_entries();
        self.land_arrivals();
    }

    /// End of Upkeep: fronts out of contact cleared, lull flags kept for one turn, next turn.
    pub fn turn_end(&mut self) {
        self.clear_fronts();
        if self.clock.phase == Phase::Over {
            return;
        }
        if self.clock.turn >= self.scenario().start_turn + self.scenario().max_turns - 1 {
            self.clock.phase = Phase::Over;
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new("gwe.army.last_turn_over"),
            });
            if let Some(super::campaign::Outcome::Points { winner, points }) = self.outcome() {
                let line = match winner {
                    Some(w) => Msg::new("gwe.army.points_win").arg("alliance", w),
                    None => Msg::new("gwe.army.points_draw"),
                };
                let line = line.arg("a", points[0]).arg("b", points[1]);
                self.push(Event { turn: self.clock.turn, kind: EventKind::Note, line });
            }
            return;
        }
        self.clock.turn += 1;
        self.turn_start();
        // The lull flag of S-ARMY-10 looks at the previous Combat phase only: it is cleared when the
        // next Combat phase begins (see `combat_engagements`), so it is kept through this turn.
    }
}

/// Applies an order to a game world: the one entry point for play, AI and replay.
pub fn apply_order(world: &mut World, order: &Order) -> Result<Vec<Event>, OrderError> {
    let mut ctx = Ctx::load(world);
    ctx.apply(order)?;
    let events = ctx.store(world);
    world.resource_mut::<OrderLog>().0.push(order.clone());
    Ok(events)
}

/// Runs a phase schedule on a world (for tests and tools).
pub fn run_phase(world: &mut World, label: PhaseSchedule) -> Vec<Event> {
    let start = world.resource::<EventLog>().0.len();
    world.add_schedule(phase_schedule(label));
    world.run_schedule(label);
    world.resource::<EventLog>().0[start..].to_vec()
}
