//! The legal orders of the side to move (for the AI, the interface and property tests).

use super::components::{Phase, Status};
use super::grid::Dir;
use super::order::Order;
use super::state::Ctx;

impl Ctx {
    /// Every legal order of the side to move, as that side knows the field. Each one passes
    /// the same checks `apply` makes; an ambush may still stop a move short.
    pub fn legal_orders(&self) -> Vec<Order> {
        let side = self.clock.active;
        let mut out = Vec::new();
        match self.clock.phase {
            Phase::Over => return out,
            Phase::Redoubts => {
                for &cell in self.statics.zone(side) {
                    if self.check_redoubt(cell).is_ok() {
                        out.push(Order::PlaceRedoubt { cell });
                    }
                }
            }
            Phase::Deployment => {
                let facing = self.statics.scenario.side(side).edge.opposite();
                for u in self.units.iter().filter(|u| u.side == side && u.status == Status::Undeployed) {
                    for &cell in self.statics.zone(side) {
                        if self.check_deploy(u.id, cell).is_ok() {
                            out.push(Order::Deploy { unit: u.id, cell, facing });
                        }
                    }
                }
            }
            Phase::Battle => {
                if self.check_capitulate().is_ok() {
                    out.push(Order::Capitulate);
                }
                // T-STRAT-6: a reserve unit may come up on any free cell of the zone.
                let facing = self.statics.scenario.side(side).edge.opposite();
                for u in self.units.iter().filter(|u| u.side == side && u.status == Status::Undeployed) {
                    for &cell in self.statics.zone(side) {
                        if self.check_bring_up(u.id, cell).is_ok() {
                            out.push(Order::BringUp { unit: u.id, cell, facing });
                        }
                    }
                }
                let mine: Vec<_> =
                    self.units.iter().filter(|u| u.side == side && u.status.on_field()).map(|u| u.id).collect();
                for id in mine {
                    out.extend(self.fire_targets(id).into_iter().map(|s| Order::Fire { unit: id, target: s.target }));
                    for r in self.reachable(id) {
                        out.push(Order::Move { unit: id, path: r.path, exit: false });
                    }
                    if self.sides.retreating[side.index()]
                        && let Some(u) = self.unit(id)
                        && self.grid.on_edge(u.cell)
                        && self.check_move(id, &[], true).is_ok()
                    {
                        out.push(Order::Move { unit: id, path: Vec::new(), exit: true });
                    }
                    for facing in Dir::ALL {
                        if self.unit(id).is_some_and(|u| u.facing != facing) && self.check_turn(id, facing).is_ok() {
                            out.push(Order::Turn { unit: id, facing });
                        }
                    }
                    for on in [true, false] {
                        if self.check_skirmish(id, on).is_ok() {
                            out.push(Order::Skirmish { unit: id, on });
                        }
                    }
                    if self.check_reform(id).is_ok() {
                        out.push(Order::Reform { unit: id });
                    }
                }
                if self.check_retreat().is_ok() {
                    out.push(Order::Retreat);
                }
            }
        }
        out.push(if self.clock.phase == Phase::Battle { Order::EndTurn } else { Order::EndSetup });
        out
    }
}
