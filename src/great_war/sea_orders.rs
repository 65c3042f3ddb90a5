//! The Great War's orders at sea and in the air (S-NAVAL, S-SUB, S-MINE, S-AIR) beyond moving a
//! fleet: what the fleet panel and the map make of a person's picks. Stances, splitting and
//! merging, mines, patrols and transports are given at once; a submarine attack, bombing, coastal
//! fire, a reconnaissance flight and a bombardment throw dice, so they wait for "yes" under the
//! engine's preview. Every order goes through the scene's one door (`command::handle_commands`,
//! then `Session::apply`); a refusal is the engine's own reason.
//!
//! What a person may see is decided here, in [`sees`], for the board's counters, the hex panel,
//! the fleet panel's targets and clicks on the map alike: an enemy submarine flotilla is shown to
//! a watching enemy only once that power has detected it, as the engine says
//! (`Ctx::detection`): its reconnaissance found it this turn (S-AIR-1), or one of its own
//! flotillas shares its sea area (house rule to S-SUB-5). The others are never offered as
//! targets nor listed, and a click on the hex where one lies does nothing it would betray. A
//! detected flotilla next to a selected own flotilla may be attacked: the duel (S-SUB-5) waits
//! under the engine's preview for "yes", and the engine refuses a duel against boats not found
//! (`OrderError::Undetected`); a move that finds boats cannot be taken back (`GreatWar::reveals`).

use super::{Give, Selected, fleet};
use crate::screens::Screen;
use crate::session::Session;
use bevy::prelude::*;
use rules::strategic::naval::model::{Fleet, FleetId, ShipId, ShipType, Squadron, SquadronId};
use rules::strategic::{Ctx, ForceId, GreatWar, HexAt, Order, Phase, Piece, PowerId};
use rules::texts::Msg;
use std::collections::BTreeSet;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SeaHand>().add_systems(OnEnter(Screen::Playing), forget);
}

fn forget(mut hand: ResMut<SeaHand>) {
    *hand = SeaHand::default();
}

/// What the player has picked for an order at sea before giving it; picks made for another
/// selection are dropped.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct SeaHand {
    /// The selection these picks were made for.
    pub made_for: Option<Selected>,
    /// Ships chosen to split off the selected fleet.
    pub ships: BTreeSet<ShipId>,
    /// Other bomber squadrons that join the selected one against one ship (S-AIR-2).
    pub wing: BTreeSet<SquadronId>,
    /// What the next click on the map names.
    pub pick: Option<SeaPick>,
}

impl SeaHand {
    /// Keeps the picks while the same thing is selected, drops them otherwise.
    pub fn follow(&mut self, selected: Option<Selected>) {
        if self.made_for != selected {
            *self = SeaHand { made_for: selected, ..SeaHand::default() };
        }
    }
}

/// A hex the next click names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeaPick {
    /// The free land hex next to its fleet where an embarked unit lands.
    Disembark(ForceId),
    /// The land hex next to its fleet where an embarked squadron makes its new base.
    LandSquadron(SquadronId),
}

/// What the fleet panel asks for (the orders given at once come as `UiCommand::Give`).
#[derive(Debug, Clone, PartialEq)]
pub enum SeaCommand {
    /// Choose a ship of the selected fleet to split off, or drop it from the choice.
    ToggleShip(ShipId),
    /// Let another bomber squadron join the selected one, or leave it out.
    ToggleWing(SquadronId),
    /// The next click on the map names the hex for this.
    Pick(SeaPick),
    /// Split the chosen ships off the selected fleet into a new fleet of this name.
    Split(String),
    /// The selected flotilla attacks this fleet (S-SUB-1…5).
    Torpedo(FleetId),
    /// The selected bomber squadron and its wing attack this ship (S-AIR-2, S-AIR-3).
    Bomb(ShipId),
    /// The selected heavy artillery fires at this ship from the coast (S-NAVAL-14).
    CoastalFire(ShipId),
    /// The selected reconnaissance squadron flies (S-AIR-1).
    Reconnaissance,
}

/// A squadron with aircraft left.
pub fn squadron(ctx: &Ctx, id: SquadronId) -> Option<&Squadron> {
    ctx.navy.squadrons.iter().find(|s| s.id == id && s.aircraft > 0)
}

/// Whether `viewer` may see a fleet, as the engine's sight says (`Ctx::fleet_hidden_from`:
/// S-AIR-1, S-SUB-5 house rule); with no one watching (the AI plays every power) all is seen.
pub fn sees(ctx: &Ctx, viewer: Option<PowerId>, f: &Fleet) -> bool {
    viewer.is_none_or(|v| !ctx.fleet_hidden_from(f.id, v))
}

/// Fleets afloat on a hex that `viewer` may see, by ID.
pub fn seen_fleets_at(ctx: &Ctx, viewer: Option<PowerId>, at: HexAt) -> Vec<FleetId> {
    ctx.navy
        .fleets
        .iter()
        .filter(|f| f.at == at && fleet(ctx, f.id).is_some() && sees(ctx, viewer, f))
        .map(|f| f.id)
        .collect()
}

/// The squadrons of a bombing: the selected one first, then its wing, by ID.
pub fn bombers(hand: &SeaHand, lead: SquadronId) -> Vec<SquadronId> {
    std::iter::once(lead).chain(hand.wing.iter().copied().filter(|s| *s != lead)).collect()
}

/// What a transport of the fleet carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cargo {
    Unit(ForceId),
    Squadron(SquadronId),
}

/// The fleet's cargo, ship by ship (S-NAVAL-11).
pub fn cargo(ctx: &Ctx, id: FleetId) -> Vec<(ShipId, Cargo)> {
    ctx.navy
        .afloat(id)
        .into_iter()
        .filter_map(|s| ctx.navy.ship(s))
        .flat_map(|s| {
            let unit = s.cargo.map(|u| (s.id, Cargo::Unit(u)));
            let air = s.air_cargo.map(|q| (s.id, Cargo::Squadron(q)));
            unit.into_iter().chain(air)
        })
        .collect()
}

/// The first ship of a fleet a bomber or gun aims at when its hex is clicked: the engine's
/// battle order (highest class first, then ID), submarines left out.
fn first_surface_ship(ctx: &Ctx, id: FleetId) -> Option<ShipId> {
    ctx.navy.afloat(id).into_iter().find(|s| ctx.navy.ship(*s).is_some_and(|s| s.kind != ShipType::Submarine))
}

/// The order a fleet-panel command stands for.
pub(super) fn command(
    session: &mut Session<GreatWar>,
    chosen: Option<Selected>,
    hand: &mut SeaHand,
    command: &SeaCommand,
) -> Option<Give> {
    hand.follow(chosen);
    let toggle = |set: &mut BTreeSet<u32>, id: u32| {
        if !set.remove(&id) {
            set.insert(id);
        }
    };
    match (command, chosen) {
        (SeaCommand::ToggleShip(s), Some(Selected::Fleet(_))) => toggle(&mut hand.ships, *s),
        (SeaCommand::ToggleWing(s), Some(Selected::Squadron(_))) => toggle(&mut hand.wing, *s),
        (SeaCommand::Pick(p), Some(Selected::Fleet(_))) => hand.pick = Some(*p),
        (SeaCommand::Split(name), Some(Selected::Fleet(fleet))) => {
            let ships = hand.ships.iter().copied().collect();
            hand.ships.clear();
            return Some(Give::Now(Order::SplitFleet { fleet, ships, name: name.clone() }));
        }
        (SeaCommand::Torpedo(target), Some(Selected::Fleet(flotilla))) => {
            return Some(Give::AfterPreview(Order::SubmarineAttack { flotilla, target: *target }));
        }
        (SeaCommand::Bomb(ship), Some(Selected::Squadron(lead))) => {
            return Some(Give::AfterPreview(Order::Bomb { squadrons: bombers(hand, lead), ship: *ship }));
        }
        (SeaCommand::CoastalFire(ship), Some(Selected::Piece(Piece::Unit(unit)))) => {
            return Some(Give::AfterPreview(Order::CoastalFire { unit, ship: *ship }));
        }
        (SeaCommand::Reconnaissance, Some(Selected::Squadron(squadron))) => {
            return Some(Give::AfterPreview(Order::Reconnaissance { squadron }));
        }
        _ => session.refusal = Some(Msg::new("gw.why.select_sea_first")),
    }
    None
}

/// A click on a hex as the sea orders read it: the hex a pick waits for, or an enemy fleet the
/// selection can strike (a flotilla next to it in the Movement phase; a bomber or a coastal gun in
/// the Fire phase). `None` leaves the click to selecting (`own`: own things stand there) and to
/// the land and fleet moves.
pub(super) fn click(
    session: &Session<GreatWar>,
    ctx: &Ctx,
    chosen: Option<Selected>,
    hand: &mut SeaHand,
    at: HexAt,
    own: bool,
) -> Option<Option<Give>> {
    hand.follow(chosen);
    if let Some(pick) = hand.pick.take() {
        let give = match pick {
            // Landing next to the enemy starts a fight (S-COMBAT-4): shown first, as a move is.
            SeaPick::Disembark(unit) if ctx.next_to_enemy(ctx.active_power(), at) => {
                Give::AfterPreview(Order::Disembark { unit, to: at })
            }
            SeaPick::Disembark(unit) => Give::Now(Order::Disembark { unit, to: at }),
            SeaPick::LandSquadron(squadron) => Give::Now(Order::LandSquadron { squadron, base: at }),
        };
        return Some(Some(give));
    }
    let power = ctx.active_power();
    if own {
        return None;
    }
    let viewer = session.viewer();
    let enemy = seen_fleets_at(ctx, viewer, at)
        .into_iter()
        .find(|f| fleet(ctx, *f).is_some_and(|x| ctx.hostile(power, x.power)));
    let enemy = enemy?;
    let phase = ctx.clock.phase;
    let order = match chosen? {
        Selected::Fleet(flotilla) if phase == Phase::Movement && ctx.navy.is_flotilla(flotilla) => {
            let near = fleet(ctx, flotilla).is_some_and(|f| f.at.distance(at) <= 1);
            if !near {
                return None;
            }
            Order::SubmarineAttack { flotilla, target: enemy }
        }
        Selected::Squadron(lead) if phase == Phase::Fire => {
            Order::Bomb { squadrons: bombers(hand, lead), ship: first_surface_ship(ctx, enemy)? }
        }
        Selected::Piece(Piece::Unit(unit)) if phase == Phase::Fire && ctx.coastal_range(unit).is_some() => {
            Order::CoastalFire { unit, ship: first_surface_ship(ctx, enemy)? }
        }
        _ => return None,
    };
    Some(Some(Give::AfterPreview(order)))
}
