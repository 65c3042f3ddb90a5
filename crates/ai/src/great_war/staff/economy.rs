//! The staff's Movement-phase economy (ammunition, gas, repairs, restoring, S-SUP-*) and the money
//! it may spend before the coming Upkeep.

use super::state::{GAS_CYLINDERS, Staff};
use crate::great_war::legal;
use crate::great_war::treasury;
use rules::strategic::state::Place;
use rules::strategic::{Ctx, Order, PowerId};

impl Staff {
    /// S-SUP-1, S-SUP-3: keep ammunition for two turns of fighting; S-LOSS-1/2: restore and
    /// repair with what is left once the coming Upkeep is paid ([`spendable`]) and, at the levels
    /// that plan their spending, the later Upkeeps' shortfall kept: troops that go without money
    /// lose Morale (S-SUP-2), which costs more than any purchase gains.
    pub(super) fn economy(&mut self, ctx: &Ctx) {
        let p = self.power;
        let e = &ctx.scenario().rules.economy;
        let stock = &ctx.powers[usize::from(p.0)];
        let mine: Vec<_> = ctx.forces.iter().filter(|f| f.power == p && f.present()).collect();
        let need = 2 * i64::from(e.ammo_per_action) * mine.len() as i64;
        let price = i64::from(ctx.scenario().rules.ammunition.price).max(1);
        let mut money = spendable(ctx, p);
        if stock.ammo < need && money > 0 {
            let amount = ((need - stock.ammo).min(money / price)).max(0);
            if let Ok(amount) = u32::try_from(amount)
                && amount > 0
            {
                self.queue.push_back(Order::BuyAmmunition { amount });
                money -= i64::from(amount) * price;
            }
        }
        // What the Upkeeps after the coming one will lack, the levels that plan their spending
        // keep in hand ([`treasury::kept_for_upkeep`]).
        money -= self.doctrine.spending.map_or(0, |s| treasury::kept_for_upkeep(ctx, p, &s));
        // S-CHEM-1, S-CHEM-3: a staff that prepares its attacks with gas keeps a shell for each
        // gun and a cylinder for each of two hexes in contact, bought while the money lasts.
        if self.doctrine.gas
            && self.doctrine.prepare
            && let Some(buy) = ctx.scenario().rules.purchases.as_ref()
        {
            let guns = mine.iter().filter(|f| f.kind.is_artillery() && f.on_map()).count() as u32;
            let shells = guns.saturating_sub(stock.chem_shells);
            let cylinders = GAS_CYLINDERS.saturating_sub(stock.cylinders);
            let price = i64::from(shells) * i64::from(buy.gas_shell) + i64::from(cylinders) * i64::from(buy.cylinder);
            let order = Order::BuyGas { shells, cylinders };
            if shells + cylinders > 0 && price <= money && legal(ctx, &order) {
                self.queue.push_back(order);
                money -= price;
            }
        }
        for f in &mine {
            let full = i64::from(f.vitals.max_health.max(1));
            let lost = i64::from(f.vitals.max_health - f.vitals.health);
            if self.doctrine.repair && lost > 0 && f.on_map() {
                // S-LOSS-2: the unit's own price × lost/full.
                let cost = i64::from(ctx.unit_price(f.kind).money) * lost / full;
                if money >= cost {
                    self.queue.push_back(Order::Repair { unit: f.id });
                    money -= cost;
                }
            }
        }
        for f in ctx.forces.iter().filter(|f| f.power == p && f.place == Place::Dispersed) {
            // S-LOSS-1: half the unit's own price; back on the map it is paid again (S-SUP-1).
            let price = ctx.unit_price(f.kind);
            let cost = i64::from(price.money / 2) + treasury::independent_upkeep(ctx, f.kind);
            if money >= cost {
                let class = if stock.manpower[0] >= price.manpower / 2 { 1 } else { 2 };
                self.queue.push_back(Order::Restore { unit: f.id, class });
                money -= cost;
            }
        }
        self.money = money;
    }

    /// Whether this staff uses gas (it prepares its attacks with it) and the cylinders it keeps.
    pub(super) fn gas_store(&self) -> treasury::GasStore {
        treasury::GasStore { used: self.doctrine.gas && self.doctrine.prepare, cylinders: GAS_CYLINDERS }
    }
}

/// Money a power may spend before the coming Upkeep without leaving troops unpaid: its treasury
/// plus the income of the provinces it holds (S-CITY-2, paid before upkeep) less the upkeep of
/// its units with the surcharges of corps and independent units (S-SUP-1, S-SUP-4).
pub fn spendable(ctx: &Ctx, p: PowerId) -> i64 {
    ctx.powers[usize::from(p.0)].money + treasury::income(ctx, p) - treasury::upkeep(ctx, p)
}
