//! War at sea, the rules: naval orders, fleet movement and interception, surface battles,
//! transports, bombardment, coastal guns, submarines, mines and aircraft against ships.
//!
//! The battle code throws the game's seeded dice in a fixed order (sides by fleet ID, ships by
//! class then ID).

use super::checks::Bombing;
use super::model::{
    BattleRun, Fleet, FleetId, LANE_CUT_PERCENT, MINES_PER_AREA, MineField, SWEEP_POINTS_PER_MINE, Ship, ShipId,
    ShipType, Squadron, SquadronId, Stage,
};
use super::tables::{
    TORPEDO_HIT, aircraft_lost, coastal_hit, mine_loss, share_half_up, stealth, submarines_lost, surface_hit,
};
use crate::dice::{PipRange, Pips};
use crate::strategic::event::{Event, EventKind};
use crate::strategic::hexmap::{HexAt, flag};
use crate::strategic::order::OrderError;
use crate::strategic::state::{Ctx, ForceId, Place, PowerId};
use crate::texts::Msg;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

impl Ctx {
    fn naval_event(&mut self, line: Msg) {
        self.push(Event { turn: self.clock.turn, kind: EventKind::Note, line });
    }

    fn die(&mut self, what: &str, text: Msg) -> Pips {
        self.die_in(what, text, None)
    }

    /// A die decided by `decides` alone (see `Dice::d6_hinted`).
    fn die_in(&mut self, what: &str, text: Msg, decides: Option<PipRange>) -> Pips {
        let pips = self.dice.d6_hinted(decides);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Die { what: what.into(), pips },
            line: Msg::new("gwe.naval.die").msg("roll", text).arg("pips", pips),
        });
        pips
    }

    /// "Battlecruiser No. 3 (France)": the ship's number among its power's of its type
    /// (`Navy::number`), not its ID.
    pub fn ship_label(&self, id: ShipId) -> Msg {
        match self.navy.ship(id).zip(self.navy.number(id)) {
            Some((s, n)) => Msg::new("gwe.naval.ship").msg("kind", Msg::new(s.kind.key())).arg("n", n).name(
                "power",
                self.power_key(s.power),
                self.power_name(s.power),
            ),
            None => Msg::new("gwe.naval.ship_unknown").arg("id", id),
        }
    }

    /// A fleet's name, for a line (empty for a fleet that is gone).
    fn fleet_name(&self, id: FleetId) -> String {
        self.navy.fleet(id).map_or_else(String::new, |f| f.name.clone())
    }

    /// Sinks a ship; its cargo goes down with it (S-NAVAL-11).
    pub fn sink(&mut self, id: ShipId, why: Msg) {
        let cargo = self.navy.ship(id).and_then(|s| s.cargo);
        let air = self.navy.ship(id).and_then(|s| s.air_cargo);
        let name = self.ship_label(id);
        let at = self.navy.ship(id).and_then(|s| self.navy.fleet(s.fleet)).map(|f| f.at);
        if let Some(s) = self.navy.ship_mut(id) {
            s.sunk = true;
            s.cargo = None;
            s.air_cargo = None;
        }
        if let Some(q) = air
            && let Some(sq) = self.navy.squadrons.iter_mut().find(|x| x.id == q)
        {
            sq.aircraft = 0;
            sq.aboard = None;
        }
        let line = Msg::new("gwe.naval.sunk").msg("ship", name).msg("why", why);
        match at {
            Some(at) => self.push(Event { turn: self.clock.turn, kind: EventKind::Sunk { ship: id, at }, line }),
            None => self.naval_event(line),
        }
        if let Some(u) = cargo {
            self.destroy(u, Msg::new("gwe.naval.why.lost_with_transport"));
        }
    }

    /// Checks a fleet of the active power.
    pub fn own_fleet(&self, id: FleetId) -> Result<&Fleet, OrderError> {
        let f = self.navy.fleet(id).ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_fleet").arg("id", id)))?;
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(f.name.clone()));
        }
        if self.navy.afloat(id).is_empty() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.none_afloat").arg("fleet", &f.name)));
        }
        Ok(f)
    }

    /// Whether a fleet may be on a hex: sea, lake, or a port.
    pub fn navigable(&self, at: HexAt) -> bool {
        self.map().cell(at).is_some_and(|c| c.terrain.is_water() || c.has(flag::PORT))
    }

    /// S-CITY-2: who holds the port on `at`: the occupier of its province, else its sovereign; `None`
    /// for a province of a power not in the game (a neutral port) or a hex of no province.
    pub fn port_holder(&self, at: HexAt) -> Option<PowerId> {
        let i = usize::from(self.map().cell(at)?.province.checked_sub(1)?);
        if let Some(occupier) = self.provinces.get(i).and_then(|p| p.occupier) {
            return Some(occupier);
        }
        let owner = &self.map().provinces.get(i)?.owner;
        self.scenario().power_index(owner).and_then(|p| u8::try_from(p).ok()).map(PowerId)
    }

    /// S-CITY-2: only an own or allied port (one its alliance holds, occupied ones included) serves a
    /// fleet of `power`: it may enter and lie in it. Enemy and neutral ports are closed; sea hexes are
    /// open to all.
    pub fn check_port(&self, power: PowerId, at: HexAt) -> Result<(), OrderError> {
        let Some(c) = self.map().cell(at) else { return Ok(()) };
        if c.terrain.is_water() || !c.has(flag::PORT) {
            return Ok(());
        }
        match self.port_holder(at) {
            Some(h) if !self.hostile(power, h) => Ok(()),
            Some(h) => Err(OrderError::PortClosed {
                at,
                holder: Msg::new("gwe.naval.port_enemy").name("power", self.power_key(h), self.power_name(h)),
            }),
            None => Err(OrderError::PortClosed { at, holder: Msg::new("gwe.naval.port_neutral") }),
        }
    }

    /// S-NAVAL-4, S-NAVAL-12, S-MINE-2: moves a fleet step by step; mines are tested on entering an
    /// area, meeting or being intercepted by an enemy fleet stops the move with a battle.
    pub fn move_fleet(&mut self, id: FleetId, path: &[HexAt]) -> Result<(), OrderError> {
        let fleet = self.own_fleet(id)?.clone();
        if path.is_empty() {
            return Err(OrderError::EmptyPath);
        }
        let mut prev = fleet.at;
        for (i, h) in path.iter().enumerate() {
            if !prev.is_adjacent(*h) {
                return Err(OrderError::NotAdjacent { from: prev, to: *h });
            }
            if !self.navigable(*h) {
                return Err(OrderError::Naval(Msg::new("gwe.naval.not_navigable").hex("at", h)));
            }
            self.check_port(fleet.power, *h)?;
            if i as u32 + 1 > fleet.mp_left {
                return Err(OrderError::NoMovement { need: i as u32 + 1, left: fleet.mp_left });
            }
            prev = *h;
        }
        let name = fleet.name.clone();
        for (i, h) in path.iter().enumerate() {
            if i + 1 == path.len() {
                let line = Msg::new("gwe.naval.sails").arg("fleet", &name).hex("to", h).arg("mp", path.len());
                self.push(Event { turn: self.clock.turn, kind: EventKind::FleetMoved { fleet: id, to: *h }, line });
            }
            let from_area = self.map().cell(self.navy.fleet(id).map_or(*h, |f| f.at)).map_or(0, |c| c.sea_area);
            if let Some(f) = self.navy.fleet_mut(id) {
                f.at = *h;
                f.mp_left -= 1;
            }
            let area = self.map().cell(*h).map_or(0, |c| c.sea_area);
            if area != 0 && area != from_area {
                self.mine_test(id, area - 1);
                if self.navy.afloat(id).is_empty() {
                    return Ok(());
                }
            }
            if self.contact_at(id, *h) {
                return Ok(());
            }
        }
        self.report_detections(id);
        Ok(())
    }

    /// A fleet on `at`: enemy surface fleets there, or interceptors in reach, give battle (S-NAVAL-12).
    fn contact_at(&mut self, id: FleetId, at: HexAt) -> bool {
        let power = self.navy.fleet(id).map_or(PowerId(0), |f| f.power);
        if self.navy.is_flotilla(id) {
            return false;
        }
        let mut enemies: Vec<FleetId> = self
            .navy
            .fleets
            .iter()
            .filter(|f| {
                self.hostile(power, f.power) && !self.navy.afloat(f.id).is_empty() && !self.navy.is_flotilla(f.id)
            })
            .filter(|f| f.at == at || (f.intercept && f.at.distance(at) <= f.mp_left))
            // S-CITY-2: an interceptor does not follow into a port closed to it.
            .filter(|f| f.at == at || self.check_port(f.power, at).is_ok())
            .map(|f| f.id)
            .collect();
        enemies.sort_by_key(|e| (self.navy.fleet(*e).map_or(u32::MAX, |f| f.at.distance(at)), *e));
        let Some(enemy) = enemies.first().copied() else { return false };
        let (from, dist) = self.navy.fleet(enemy).map_or((at, 0), |f| (f.at, f.at.distance(at)));
        if dist > 0 {
            if let Some(f) = self.navy.fleet_mut(enemy) {
                f.mp_left -= dist;
                f.at = at;
            }
            let name = self.fleet_name(enemy);
            self.naval_event(
                Msg::new("gwe.naval.intercepts").arg("fleet", name).hex("from", from).hex("at", at).arg("mp", dist),
            );
            // The interceptor enters the area too: enemy mines there are tested (S-MINE-2).
            let (a0, a1) =
                (self.map().cell(from).map_or(0, |c| c.sea_area), self.map().cell(at).map_or(0, |c| c.sea_area));
            if a1 != 0 && a1 != a0 {
                self.mine_test(enemy, a1 - 1);
                if !self.navy.has_warships(enemy) {
                    return false;
                }
            }
        }
        self.surface_battle(id, enemy);
        if let Some(f) = self.navy.fleet_mut(id) {
            f.mp_left = 0;
        }
        true
    }

    /// The target a ship fires at: the enemy ship its player named (S-NAVAL-7), if it is afloat in
    /// this battle; else (house) the enemy it is likeliest to sink with this volley, warships first;
    /// ties to the higher class, then the lower ID.
    fn pick_target(&self, firer: &Ship, enemy: &[ShipId]) -> Option<ShipId> {
        let named = firer.aim.filter(|t| enemy.contains(t)).and_then(|t| self.navy.ship(t));
        if let Some(t) = named.filter(|t| !t.sunk && t.kind != ShipType::Submarine) {
            return Some(t.id);
        }
        let class = i32::from(firer.kind.class().unwrap_or(0));
        let transports_first = self.navy.fleet(firer.fleet).is_some_and(|f| f.transports_first);
        let score = |s: &Ship| {
            let d = class - i32::from(s.kind.target_class());
            let hit = surface_hit(d).map_or(6, |r| i32::from(r.1 - r.0 + 1));
            let sinks = !s.kind.is_warship() || i32::from(s.kind.target_class()) < class || s.hits >= 1;
            let preferred = if transports_first { s.kind == ShipType::Transport } else { s.kind.is_warship() };
            (preferred, if sinks { hit * 2 } else { hit }, s.kind.target_class(), std::cmp::Reverse(s.id))
        };
        enemy
            .iter()
            .filter_map(|i| self.navy.ship(*i))
            .filter(|s| !s.sunk && s.kind != ShipType::Submarine)
            .max_by_key(|s| score(s))
            .map(|s| s.id)
    }

    /// One volley (S-NAVAL-7…10).
    fn volley(&mut self, firer: ShipId, target: ShipId) {
        let (Some(f), Some(t)) = (self.navy.ship(firer).cloned(), self.navy.ship(target).cloned()) else { return };
        let fc = i32::from(f.kind.class().unwrap_or(0));
        let d = fc - i32::from(t.kind.target_class());
        let text = Msg::new("gwe.naval.volley")
            .msg("firer", self.ship_label(firer))
            .msg("target", self.ship_label(target))
            .arg("class", fc)
            .arg("target_class", t.kind.target_class());
        let hit = match surface_hit(d) {
            None => {
                self.push(Event {
                    turn: self.clock.turn,
                    kind: EventKind::Volley,
                    line: Msg::new("gwe.naval.volley_automatic").msg("volley", text),
                });
                true
            }
            Some(r) => {
                let pips = self.die_in(
                    "volley",
                    Msg::new("gwe.naval.volley_roll").msg("volley", text).arg("range", r),
                    Some(r),
                );
                r.contains(pips)
            }
        };
        if !hit {
            return;
        }
        let hits = t.hits + 1;
        if let Some(s) = self.navy.ship_mut(target) {
            s.hits = hits;
        }
        // S-NAVAL-9: one hit sinks a lower class; equal or higher needs two; non-combat ships one.
        if !t.kind.is_warship() || i32::from(t.kind.target_class()) < fc || hits >= 2 {
            self.sink(target, Msg::new("gwe.naval.why.hit"));
        }
    }

    /// S-NAVAL-6…11: a surface battle between two fleets, fought to its end now (or, while a
    /// preview enumerates, left pending for [`Ctx::battle_odds`]).
    pub fn surface_battle(&mut self, a: FleetId, b: FleetId) {
        let mut run = self.battle_start(a, b);
        if self.defer_battles {
            self.deferred = Some(run);
            return;
        }
        while run.stage != Stage::Done {
            self.battle_step(&mut run);
        }
        self.battle_end(&run);
    }

    /// Opens a battle: unescorted transports meeting warships are lost (S-NAVAL-11).
    pub fn battle_start(&mut self, a: FleetId, b: FleetId) -> BattleRun {
        let line = Msg::new("gwe.naval.battle").arg("a", self.fleet_name(a)).arg("b", self.fleet_name(b));
        self.naval_event(line);
        self.sink_unescorted(a, b);
        let armed = self.battle_ammunition(a, b);
        BattleRun {
            sides: [a, b],
            order: [a, b],
            stage: if armed { Stage::InitiativeA } else { Stage::Done },
            round: 1,
            queue: [Vec::new(), Vec::new()],
            turn: 0,
        }
    }

    /// S-SUP-3 in a surface battle: each fleet with warships draws `ammunition.fleet_battle` from its
    /// power's stock (by fleet ID). A fleet that cannot is destroyed if its enemy could (it is
    /// attacked without ammunition); if neither could, no shot is fired. Whether the battle goes on.
    fn battle_ammunition(&mut self, a: FleetId, b: FleetId) -> bool {
        let per = i64::from(self.scenario().rules.ammunition.fleet_battle);
        let mut sides = [a, b];
        sides.sort();
        let mut armed = [true, true];
        for (i, f) in sides.iter().enumerate() {
            if !self.navy.has_warships(*f) {
                continue;
            }
            let power = self.navy.fleet(*f).map_or(PowerId(0), |x| x.power);
            let Some(stock) = self.powers.get_mut(usize::from(power.0)).map(|p| &mut p.ammo) else { continue };
            if *stock >= per {
                *stock -= per;
            } else {
                armed[i] = false;
            }
        }
        let warships = sides.map(|f| self.navy.has_warships(f));
        for i in 0..2 {
            if !armed[i] && armed[1 - i] && warships[1 - i] {
                let name = self.fleet_name(sides[i]);
                self.naval_event(Msg::new("gwe.naval.unarmed_destroyed").arg("fleet", name));
                for s in self.navy.afloat(sides[i]) {
                    self.sink(s, Msg::new("gwe.naval.why.unarmed"));
                }
                return false;
            }
        }
        if !armed[0] && !armed[1] {
            self.naval_event(Msg::new("gwe.naval.neither_armed"));
            return false;
        }
        true
    }

    /// S-SUP-3: spends `need` ammunition of `power`'s stock for an attack by `what`, or refuses it.
    pub fn spend_ammunition(&mut self, power: PowerId, need: i64, what: Msg) -> Result<(), OrderError> {
        let left = self.powers.get(usize::from(power.0)).map_or(0, |p| p.ammo);
        if left < need {
            return Err(OrderError::NoAmmunition { what, need, left });
        }
        if let Some(p) = self.powers.get_mut(usize::from(power.0)) {
            p.ammo -= need;
        }
        Ok(())
    }

    /// S-SUP-1 resupply: the active power buys `amount` ammunition at `ammunition.price` each.
    pub fn buy_ammunition(&mut self, amount: u32) -> Result<(), OrderError> {
        if amount == 0 {
            return Err(OrderError::Economy(Msg::new("gwe.naval.buy_at_least_one")));
        }
        let power = self.active_power();
        let price = i64::from(self.scenario().rules.ammunition.price);
        let cost = price
            .checked_mul(i64::from(amount))
            .ok_or_else(|| OrderError::Economy(Msg::new("gwe.naval.buy_too_much").arg("amount", amount)))?;
        let (key, name) = (self.power_key(power), self.power_name(power).to_string());
        let p = self.powers.get_mut(usize::from(power.0)).ok_or(OrderError::GameOver)?;
        if p.money < cost {
            return Err(OrderError::Economy(
                Msg::new("gwe.naval.buy_money").arg("amount", amount).arg("cost", cost).arg("money", p.money),
            ));
        }
        p.money -= cost;
        p.ammo = p.ammo.saturating_add(i64::from(amount));
        let stock = p.ammo;
        self.naval_event(
            Msg::new("gwe.naval.buys_ammunition")
                .name("power", key, name)
                .arg("amount", amount)
                .arg("cost", cost)
                .arg("stock", stock),
        );
        Ok(())
    }

    fn sink_unescorted(&mut self, a: FleetId, b: FleetId) {
        for (own, other) in [(a, b), (b, a)] {
            if !self.navy.has_warships(own) && self.navy.has_warships(other) {
                for s in self.navy.afloat(own) {
                    if self.navy.ship(s).is_some_and(|s| s.kind != ShipType::Submarine) {
                        self.sink(s, Msg::new("gwe.naval.why.unescorted"));
                    }
                }
            }
        }
    }

    /// Closes a battle: escorts lost leave their transports to the enemy (S-NAVAL-11); hits clear (S-NAVAL-9).
    pub fn battle_end(&mut self, run: &BattleRun) {
        self.sink_unescorted(run.sides[0], run.sides[1]);
        for s in &mut self.navy.ships {
            s.hits = 0;
        }
    }

    /// The next volley of a battle in its fire stage: the first ship still afloat in the queue of the
    /// side whose turn it is, and its target.
    fn next_volley(&self, run: &BattleRun) -> Option<(usize, ShipId, ShipId)> {
        let pos = run.queue[run.turn].iter().position(|s| self.navy.ship(*s).is_some_and(|s| !s.sunk))?;
        let firer = run.queue[run.turn][pos];
        let enemy = self.navy.afloat(run.order[1 - run.turn]);
        let target = self.navy.ship(firer).and_then(|f| self.pick_target(f, &enemy))?;
        Some((pos, firer, target))
    }

    /// The faces of the next die a battle step throws, grouped into classes that lead to the same
    /// state, with their chances; empty when the step throws no die.
    pub fn battle_next_die(&self, run: &BattleRun) -> Vec<(Pips, f64)> {
        match run.stage {
            Stage::InitiativeA => (1..=6).map(|p| (p, 1.0 / 6.0)).collect(),
            Stage::InitiativeB(pa) => {
                let mut v = Vec::new();
                if pa > 1 {
                    v.push((1, f64::from(pa - 1) / 6.0));
                }
                v.push((pa, 1.0 / 6.0));
                if pa < 6 {
                    v.push((pa + 1, f64::from(6 - pa) / 6.0));
                }
                v
            }
            Stage::Fire => {
                let Some((_, firer, target)) = self.next_volley(run) else { return Vec::new() };
                let (Some(f), Some(t)) = (self.navy.ship(firer), self.navy.ship(target)) else { return Vec::new() };
                let d = i32::from(f.kind.class().unwrap_or(0)) - i32::from(t.kind.target_class());
                match surface_hit(d) {
                    None => Vec::new(),
                    Some(r) => {
                        let mut v = vec![(r.0, r.chance())];
                        if let Some(m) = (1..=6).find(|p| !r.contains(*p)) {
                            v.push((m, 1.0 - r.chance()));
                        }
                        v
                    }
                }
            }
            Stage::RoundStart | Stage::Done => Vec::new(),
        }
    }

    /// One step of a battle: at most one die.
    pub fn battle_step(&mut self, run: &mut BattleRun) {
        match run.stage {
            Stage::InitiativeA => {
                let name = self.fleet_name(run.sides[0]);
                let pa = self.die("initiative", Msg::new("gwe.naval.initiative").arg("fleet", name));
                run.stage = Stage::InitiativeB(pa);
            }
            Stage::InitiativeB(pa) => {
                let name = self.fleet_name(run.sides[1]);
                let pb = self.die("initiative", Msg::new("gwe.naval.initiative").arg("fleet", name));
                // S-NAVAL-6: the higher fires first; a tie is re-rolled.
                if pa != pb || self.dice.exhausted() {
                    run.order = if pa >= pb { run.sides } else { [run.sides[1], run.sides[0]] };
                    run.stage = Stage::RoundStart;
                } else {
                    run.stage = Stage::InitiativeA;
                }
            }
            Stage::RoundStart => {
                // House value from the data file: a tie at sea after `naval.max_battle_rounds` rounds.
                if run.round > self.scenario().rules.naval.max_battle_rounds
                    || !self.navy.has_warships(run.order[0])
                    || !self.navy.has_warships(run.order[1])
                {
                    run.stage = Stage::Done;
                    return;
                }
                run.queue = run.order.map(|f| {
                    self.navy
                        .afloat(f)
                        .into_iter()
                        .filter(|s| self.navy.ship(*s).is_some_and(|s| s.kind.is_warship()))
                        .collect()
                });
                run.turn = 0;
                run.stage = Stage::Fire;
            }
            Stage::Fire => {
                if run.queue[0].is_empty() && run.queue[1].is_empty() {
                    self.round_end(run);
                    return;
                }
                match self.next_volley(run) {
                    Some((pos, firer, target)) => {
                        run.queue[run.turn].drain(..=pos);
                        self.volley(firer, target);
                        if !self.navy.has_warships(run.order[1 - run.turn]) {
                            run.stage = Stage::Done;
                            return;
                        }
                    }
                    None => run.queue[run.turn].clear(),
                }
                run.turn = 1 - run.turn;
            }
            Stage::Done => {}
        }
    }

    /// S-NAVAL-10: after a round, the side that fired second may withdraw; it does when weaker.
    fn round_end(&mut self, run: &mut BattleRun) {
        let strength = |c: &Ctx, f: FleetId| -> u32 {
            c.navy.afloat(f).iter().filter_map(|s| c.navy.ship(*s)).filter_map(|s| s.kind.class()).map(u32::from).sum()
        };
        let second = run.order[1];
        let wants = self.navy.fleet(second).is_some_and(|f| f.withdraw);
        if wants && self.navy.has_warships(second) && strength(self, second) < strength(self, run.order[0]) {
            let name = self.fleet_name(second);
            self.naval_event(Msg::new("gwe.naval.withdraws").arg("fleet", name).arg("round", run.round));
            run.stage = Stage::Done;
            return;
        }
        run.round += 1;
        run.stage = Stage::RoundStart;
    }

    /// Exact odds of a pending battle's end (which ships are sunk), by dynamic programming over its
    /// states with [`Ctx::battle_step`] itself: the same code as the battle, one die class at a time.
    /// The initiative (re-rolled until the dice differ) is an even chance either way.
    pub fn battle_odds(&self, run: &BattleRun) -> Vec<(Vec<ShipId>, f64)> {
        type Key = (BattleRun, Vec<(ShipId, u8, bool)>);
        type Odds = Vec<(Vec<ShipId>, f64)>;
        struct Frame {
            ctx: Ctx,
            run: BattleRun,
            key: Key,
            branches: Vec<(Option<Pips>, f64)>,
            next: usize,
            acc: Odds,
        }
        let key_of = |c: &Ctx, r: &BattleRun| -> Key {
            let ships = c
                .navy
                .ships
                .iter()
                .filter(|s| s.fleet == r.sides[0] || s.fleet == r.sides[1])
                .map(|s| (s.id, s.hits, s.sunk))
                .collect();
            (r.clone(), ships)
        };
        let terminal = |c: &Ctx, r: &BattleRun| -> Odds {
            let mut c = c.clone();
            c.battle_end(r);
            let sunk = c
                .navy
                .ships
                .iter()
                .filter(|s| (s.fleet == r.sides[0] || s.fleet == r.sides[1]) && s.sunk)
                .map(|s| s.id)
                .collect();
            vec![(sunk, 1.0)]
        };
        let mut memo: HashMap<Key, Odds> = HashMap::new();
        let open = |c: Ctx, r: BattleRun, memo: &HashMap<Key, Odds>| -> Result<Frame, Odds> {
            let key = key_of(&c, &r);
            if let Some(v) = memo.get(&key) {
                return Err(v.clone());
            }
            if r.stage == Stage::Done {
                return Err(terminal(&c, &r));
            }
            let branches: Vec<(Option<Pips>, f64)> = if r.stage == Stage::InitiativeA {
                // Two branches standing for "a fires first" and "b fires first".
                vec![(Some(6), 0.5), (Some(1), 0.5)]
            } else {
                let faces = c.battle_next_die(&r);
                if faces.is_empty() {
                    vec![(None, 1.0)]
                } else {
                    faces.into_iter().map(|(p, x)| (Some(p), x)).collect()
                }
            };
            Ok(Frame { ctx: c, run: r, key, branches, next: 0, acc: Vec::new() })
        };
        let mut stack: Vec<Frame> = Vec::new();
        let mut returned: Option<Odds> = None;
        match open(self.clone(), run.clone(), &memo) {
            Ok(f) => stack.push(f),
            Err(v) => return v,
        }
        while let Some(top) = stack.last_mut() {
            if let Some(child) = returned.take() {
                let weight = top.branches[top.next - 1].1;
                for (sunk, p) in child {
                    match top.acc.iter_mut().find(|(s, _)| *s == sunk) {
                        Some(x) => x.1 += p * weight,
                        None => top.acc.push((sunk, p * weight)),
                    }
                }
            }
            if top.next < top.branches.len() {
                let (pips, _) = top.branches[top.next];
                top.next += 1;
                let mut c = top.ctx.clone();
                c.events.clear();
                let mut r = top.run.clone();
                if r.stage == Stage::InitiativeA {
                    // The whole initiative at once: the winner fires first (S-NAVAL-6).
                    let first_is_a = pips == Some(6);
                    r.order = if first_is_a { r.sides } else { [r.sides[1], r.sides[0]] };
                    r.stage = Stage::RoundStart;
                } else {
                    c.dice.script(pips.map_or_else(Vec::new, |p| vec![p]));
                    c.battle_step(&mut r);
                }
                match open(c, r, &memo) {
                    Ok(f) => stack.push(f),
                    Err(v) => returned = Some(v),
                }
                continue;
            }
            let done = stack.pop();
            if let Some(f) = done {
                memo.insert(f.key, f.acc.clone());
                returned = Some(f.acc);
            }
        }
        let mut out = returned.unwrap_or_default();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }

    /// S-MINE-2, S-MINE-3, S-MINE-4: a fleet entering an area with enemy mines.
    fn mine_test(&mut self, id: FleetId, area: u16) {
        let power = self.navy.fleet(id).map_or(PowerId(0), |f| f.power);
        let mines = self.navy.enemy_mines(area, |p| self.hostile(power, p));
        let Some(range) = mine_loss(mines) else { return };
        if self.navy.count(id, ShipType::Minesweeper) > 0 {
            let name = self.fleet_name(id);
            self.naval_event(Msg::new("gwe.naval.sweeps_through").arg("fleet", name).arg("mines", mines));
            return;
        }
        let name = self.fleet_name(id);
        let text = Msg::new("gwe.naval.enters_mines").arg("fleet", name).arg("mines", mines).arg("range", range);
        let pips = self.die_in("mines", text, Some(range));
        if !range.contains(pips) {
            return;
        }
        let mut afloat = self.navy.afloat(id);
        let lost = share_half_up(afloat.len() as u32, 1, 2);
        for _ in 0..lost {
            let i = self.dice.below(afloat.len() as u32) as usize;
            let s = afloat.remove(i);
            self.sink(s, Msg::new("gwe.naval.why.mine"));
        }
    }

    /// S-MINE-1: each minelayer lays 1 mine a turn, at most 3 in the area.
    pub fn lay_mine(&mut self, id: FleetId) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?.clone();
        let layers = self.navy.count(id, ShipType::Minelayer);
        if layers == 0 || f.laid_mine {
            return Err(OrderError::Naval(Msg::new("gwe.naval.one_mine_per_turn")));
        }
        let area = self.map().cell(f.at).map_or(0, |c| c.sea_area);
        if area == 0 {
            return Err(OrderError::Naval(Msg::new("gwe.naval.no_sea_area").hex("at", f.at)));
        }
        let area = area - 1;
        let total: u8 = self.navy.mines.iter().filter(|m| m.area == area).map(|m| m.mines).sum();
        if total >= MINES_PER_AREA {
            return Err(OrderError::Naval(Msg::new("gwe.naval.area_full")));
        }
        let add = (layers as u8).min(MINES_PER_AREA - total);
        match self.navy.mines.iter_mut().find(|m| m.area == area && m.power == f.power) {
            Some(m) => m.mines += add,
            None => self.navy.mines.push(MineField { area, power: f.power, mines: add, swept: 0 }),
        }
        self.navy.mines.sort_by_key(|m| (m.area, m.power));
        if let Some(f) = self.navy.fleet_mut(id) {
            f.laid_mine = true;
        }
        let (area_name, area_ru) = self
            .map()
            .sea_areas
            .get(usize::from(area))
            .map_or_else(Default::default, |a| (a.name.clone(), a.name_ru.clone()));
        self.naval_event(
            Msg::new("gwe.naval.lays_mines").arg("fleet", &f.name).arg("mines", add).local("area", area_name, area_ru),
        );
        Ok(())
    }

    /// S-MINE-4: a fleet with minesweepers sweeps its sea area this turn.
    pub fn order_sweep(&mut self, id: FleetId) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?.clone();
        if self.navy.count(id, ShipType::Minesweeper) == 0 || self.map().cell(f.at).map_or(0, |c| c.sea_area) == 0 {
            return Err(OrderError::Naval(Msg::new("gwe.naval.sweep_needs")));
        }
        if let Some(f) = self.navy.fleet_mut(id) {
            f.sweeping = true;
        }
        Ok(())
    }

    /// S-MINE-4 in Upkeep: each minesweeper of a sweeping fleet adds 1 point against enemy mines in
    /// its area; 2 points clear one.
    pub fn sweep_mines(&mut self) {
        let fleets: Vec<(PowerId, u16, u32)> = self
            .navy
            .fleets
            .iter()
            .filter(|f| f.sweeping)
            .map(|f| {
                (f.power, self.map().cell(f.at).map_or(0, |c| c.sea_area), self.navy.count(f.id, ShipType::Minesweeper))
            })
            .filter(|(_, a, n)| *a > 0 && *n > 0)
            .collect();
        for (power, area, sweepers) in fleets {
            let hostile: Vec<PowerId> = self
                .scenario()
                .powers
                .iter()
                .enumerate()
                .map(|(i, _)| PowerId(i as u8))
                .filter(|p| self.hostile(power, *p))
                .collect();
            if let Some(m) =
                self.navy.mines.iter_mut().find(|m| m.area == area - 1 && hostile.contains(&m.power) && m.mines > 0)
            {
                m.swept += sweepers as u8;
                while m.swept >= SWEEP_POINTS_PER_MINE && m.mines > 0 {
                    m.swept -= SWEEP_POINTS_PER_MINE;
                    m.mines -= 1;
                }
            }
        }
        self.navy.mines.retain(|m| m.mines > 0);
    }

    /// S-SUB-1…5: a flotilla attacks a fleet (or flotilla) on its hex or next to it.
    pub fn submarine_attack(&mut self, id: FleetId, target: FleetId) -> Result<(), OrderError> {
        self.submarine_attack_check(id, target)?;
        let f = self.own_fleet(id)?.clone();
        let per = i64::from(self.scenario().rules.ammunition.submarine_attack);
        self.spend_ammunition(f.power, per, Msg::new("gwe.naval.ammo.flotilla"))?;
        let boats = self.navy.afloat(id);
        if self.navy.is_flotilla(target) {
            // S-SUB-5: boats paired in list order; both roll; the higher sinks the other.
            let theirs = self.navy.afloat(target);
            for (mine, other) in boats.iter().zip(theirs.iter()) {
                let duel =
                    Msg::new("gwe.naval.duel").msg("a", self.ship_label(*mine)).msg("b", self.ship_label(*other));
                let a = self.die("submarine duel", duel);
                let b =
                    self.die("submarine duel", Msg::new("gwe.naval.duel_answer").msg("ship", self.ship_label(*other)));
                if a > b {
                    self.sink(*other, Msg::new("gwe.naval.why.duel"));
                } else if b > a {
                    self.sink(*mine, Msg::new("gwe.naval.why.duel"));
                }
            }
            return Ok(());
        }
        let asw = self.navy.count(target, ShipType::Asw);
        let mut victims: Vec<ShipId> = self.navy.afloat(target);
        if asw == 0 {
            // S-SUB-1: unharmed, each boat sinks one ship.
            for _ in &boats {
                if victims.is_empty() {
                    break;
                }
                let v = victims.remove(0);
                self.sink(v, Msg::new("gwe.naval.why.torpedoed_unhunted"));
            }
            return Ok(());
        }
        if self.stealth_test(&boats, asw) {
            // S-SUB-4: each boat attacks one ship, sinking it on 3–6.
            for b in &boats {
                if victims.is_empty() {
                    break;
                }
                let v = victims.remove(0);
                let pips = self.die_in("torpedo", self.torpedo_roll(*b, v), Some(TORPEDO_HIT));
                if TORPEDO_HIT.contains(pips) {
                    self.sink(v, Msg::new("gwe.naval.why.torpedoed"));
                }
            }
        }
        Ok(())
    }

    /// "U-boat attacks ship, sinks on 3–6" (S-SUB-4).
    fn torpedo_roll(&self, boat: ShipId, target: ShipId) -> Msg {
        Msg::new("gwe.naval.torpedo")
            .msg("boat", self.ship_label(boat))
            .msg("target", self.ship_label(target))
            .arg("range", TORPEDO_HIT)
    }

    /// S-SUB-2 then S-SUB-3 on failure; returns whether the boats passed.
    fn stealth_test(&mut self, boats: &[ShipId], asw: u32) -> bool {
        let s = boats.len() as i32 - asw as i32;
        let passed = match stealth(s) {
            Ok(p) => {
                let key = if p { "gwe.naval.stealth_pass" } else { "gwe.naval.stealth_fail" };
                self.naval_event(Msg::new(key).arg("boats", boats.len()).arg("asw", asw).arg("s", format!("{s:+}")));
                p
            }
            Err(r) => {
                let test = Msg::new("gwe.naval.stealth_roll")
                    .arg("boats", boats.len())
                    .arg("asw", asw)
                    .arg("s", format!("{s:+}"));
                let pips = self.die_in("stealth", test.arg("range", r), Some(r));
                r.contains(pips)
            }
        };
        if !passed {
            let pips = self.die("survival", Msg::new("gwe.naval.hunted_survival"));
            let lost = submarines_lost(pips, boats.len() as u32);
            for b in boats.iter().take(lost as usize) {
                self.sink(*b, Msg::new("gwe.naval.why.hunted"));
            }
        }
        passed
    }

    /// S-NAVAL-15: a flotilla on a lane's area patrols it.
    pub fn patrol(&mut self, id: FleetId, lane: usize) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?.clone();
        let l = self
            .navy
            .lanes
            .get(lane)
            .ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_lane").arg("lane", lane)))?;
        if !self.navy.is_flotilla(id) || self.map().cell(f.at).map_or(0, |c| c.sea_area) != l.area + 1 {
            return Err(OrderError::Naval(Msg::new("gwe.naval.patrol_where")));
        }
        if let Some(f) = self.navy.fleet_mut(id) {
            f.patrol = Some(lane);
        }
        Ok(())
    }

    /// Efficiency of a sea lane after the enemy submarines on it (S-NAVAL-15).
    pub fn lane_efficiency(&self, lane: usize) -> u32 {
        let Some(l) = self.navy.lanes.get(lane) else { return 0 };
        let boats: u32 = self
            .navy
            .fleets
            .iter()
            .filter(|f| f.patrol == Some(lane) && self.hostile(f.power, l.owner))
            .map(|f| self.navy.count(f.id, ShipType::Submarine))
            .sum();
        l.efficiency.saturating_sub(LANE_CUT_PERCENT * boats)
    }

    /// S-NAVAL-13: battleships bombard a coastal hex within 3 hexes once per Fire phase.
    pub fn bombard(&mut self, id: FleetId, target: HexAt) -> Result<(), OrderError> {
        self.bombard_check(id, target)?;
        let f = self.own_fleet(id)?.clone();
        let bb = self.navy.count(id, ShipType::Battleship);
        let per = i64::from(self.scenario().rules.ammunition.bombardment);
        self.spend_ammunition(f.power, per, Msg::new("gwe.naval.ammo.bombarding_fleet"))?;
        if let Some(f) = self.navy.fleet_mut(id) {
            f.bombarded = true;
        }
        self.naval_event(
            Msg::new("gwe.naval.bombards")
                .arg("fleet", &f.name)
                .hex("target", target)
                .arg("battleships", bb)
                .arg("damage", bb),
        );
        self.hex_damage(target, bb as i32, 0);
        Ok(())
    }

    /// S-NAVAL-14: a heavy artillery division on a coast fires at a ship in range.
    pub fn coastal_fire(&mut self, unit: ForceId, ship: ShipId) -> Result<(), OrderError> {
        self.coastal_fire_check(unit, ship)?;
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        let s = self
            .navy
            .ship(ship)
            .cloned()
            .ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_ship").arg("id", ship)))?;
        let per = i64::from(self.scenario().rules.economy.ammo_per_action);
        self.spend_ammunition(f.power, per, Msg::new("gwe.naval.ammo.coastal"))?;
        if let Some(g) = self.force_mut(unit) {
            g.activity.fired = true;
        }
        let hit = match coastal_hit(s.kind) {
            None => true,
            Some(r) => {
                let roll = Msg::new("gwe.naval.coastal_roll")
                    .arg("unit", self.name(unit))
                    .msg("ship", self.ship_label(ship))
                    .arg("range", r);
                let pips = self.die_in("coastal gun", roll, Some(r));
                r.contains(pips)
            }
        };
        if hit {
            self.sink(ship, Msg::new("gwe.naval.why.coastal"));
        }
        Ok(())
    }

    /// S-NAVAL-11: a land unit on a port hex (or next to the fleet's hex) boards a transport paid for now.
    pub fn embark(&mut self, unit: ForceId, fleet: FleetId) -> Result<(), OrderError> {
        // S-ARMY-7, S-ARMY-15: embarking is no way out of contact; only the Retreat order is.
        self.embark_unit_check(unit, fleet)?;
        let (id, price) = self.buy_transport(fleet)?;
        if let Some(s) = self.navy.ship_mut(id) {
            s.cargo = Some(unit);
        }
        if let Some(g) = self.force_mut(unit) {
            g.place = Place::Embarked(id);
            g.activity.mp_left = 0;
        }
        self.rebuild_occupancy();
        self.naval_event(
            Msg::new("gwe.naval.embarks")
                .msg("unit", self.name_msg(unit))
                .msg("ship", self.ship_label(id))
                .arg("price", price),
        );
        Ok(())
    }

    /// A transport appears in the fleet when paid for (S-NAVAL-11; one unit each, MD-S5).
    fn buy_transport(&mut self, fleet: FleetId) -> Result<(ShipId, i64), OrderError> {
        let price = self.transport_check(fleet)?;
        let power = self.own_fleet(fleet)?.power;
        if let Some(p) = self.powers.get_mut(usize::from(power.0)) {
            p.money -= price;
        }
        let id = self.navy.next_ship;
        self.navy.next_ship += 1;
        self.navy.ships.push(Ship {
            id,
            power,
            kind: ShipType::Transport,
            fleet,
            hits: 0,
            sunk: false,
            cargo: None,
            air_cargo: None,
            aim: None,
        });
        Ok((id, price))
    }

    /// S-NAVAL-11: an air squadron based on or next to the fleet's hex boards a transport paid for now.
    pub fn embark_squadron(&mut self, squadron: SquadronId, fleet: FleetId) -> Result<(), OrderError> {
        self.embark_squadron_check(squadron, fleet)?;
        let sq = self.own_squadron(squadron)?;
        let (id, price) = self.buy_transport(fleet)?;
        if let Some(s) = self.navy.ship_mut(id) {
            s.air_cargo = Some(squadron);
        }
        if let Some(x) = self.navy.squadrons.iter_mut().find(|x| x.id == squadron) {
            x.aboard = Some(id);
            x.flew = true;
        }
        self.naval_event(
            Msg::new("gwe.naval.embarks").arg("unit", &sq.name).msg("ship", self.ship_label(id)).arg("price", price),
        );
        Ok(())
    }

    /// Lands a transported squadron at a new base on land next to its fleet; it flies from the next turn.
    pub fn land_squadron(&mut self, squadron: SquadronId, base: HexAt) -> Result<(), OrderError> {
        let sq = self.navy.squadrons.iter().find(|x| x.id == squadron).cloned();
        let sq = sq.ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_squadron").arg("id", squadron)))?;
        if sq.power != self.active_power() {
            return Err(OrderError::NotYours(sq.name));
        }
        let ship =
            sq.aboard.ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.not_aboard").arg("unit", &sq.name)))?;
        let at =
            self.navy.ship(ship).and_then(|s| self.navy.fleet(s.fleet)).map(|f| f.at).ok_or(OrderError::EmptyPath)?;
        if !self.map().is_land(base) || base.distance(at) > 1 {
            return Err(OrderError::Naval(Msg::new("gwe.naval.no_landing_base").hex("at", base)));
        }
        if let Some(s) = self.navy.ship_mut(ship) {
            s.air_cargo = None;
            s.sunk = true;
        }
        if let Some(x) = self.navy.squadrons.iter_mut().find(|x| x.id == squadron) {
            x.aboard = None;
            x.base = base;
            x.flew = true;
        }
        self.naval_event(Msg::new("gwe.naval.lands").arg("unit", &sq.name).hex("at", base));
        Ok(())
    }

    /// Lands a transported unit on a free land hex next to the fleet; the transport is released.
    pub fn disembark(&mut self, unit: ForceId, to: HexAt) -> Result<(), OrderError> {
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        let Place::Embarked(ship) = f.place else {
            return Err(OrderError::Naval(Msg::new("gwe.naval.not_aboard").arg("unit", self.name(unit))));
        };
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        let at =
            self.navy.ship(ship).and_then(|s| self.navy.fleet(s.fleet)).map(|x| x.at).ok_or(OrderError::EmptyPath)?;
        if !self.map().is_land(to)
            || to.distance(at) > 1
            || !self.at(to).is_empty()
            || self.next_to_enemy(f.power, to) && self.enemy_on(f.power, to)
        {
            return Err(OrderError::Naval(Msg::new("gwe.naval.no_landing_hex").hex("at", to)));
        }
        self.check_neutral_land(f.power, to)?;
        if let Some(s) = self.navy.ship_mut(ship) {
            s.cargo = None;
            s.sunk = true;
        }
        if let Some(g) = self.force_mut(unit) {
            g.place = Place::Map(to);
            g.activity.moved = true;
            g.activity.mp_left = 0;
        }
        self.rebuild_occupancy();
        self.naval_event(Msg::new("gwe.naval.lands").msg("unit", self.name_msg(unit)).hex("at", to));
        Ok(())
    }

    /// S-AIR-1: a reconnaissance flight exposes enemy submarines within its radius to the ASW ships there.
    pub fn reconnaissance(&mut self, id: SquadronId) -> Result<(), OrderError> {
        let sq = self.own_squadron(id)?;
        if !sq.recon {
            return Err(OrderError::Naval(Msg::new("gwe.naval.not_recon").arg("squadron", &sq.name)));
        }
        if let Some(s) = self.navy.squadrons.iter_mut().find(|s| s.id == id) {
            s.flew = true;
        }
        let flotillas: Vec<FleetId> = self
            .navy
            .fleets
            .iter()
            .filter(|f| {
                self.hostile(sq.power, f.power)
                    && self.squadron_distance(&sq, f.at) <= sq.radius
                    && self.navy.is_flotilla(f.id)
            })
            .map(|f| f.id)
            .collect();
        let asw_ships: Vec<ShipId> = self
            .navy
            .fleets
            .iter()
            .filter(|f| f.power == sq.power || !self.hostile(sq.power, f.power))
            .filter(|f| self.squadron_distance(&sq, f.at) <= sq.radius)
            .flat_map(|f| self.navy.afloat(f.id))
            .filter(|s| self.navy.ship(*s).is_some_and(|s| s.kind == ShipType::Asw))
            .collect();
        self.naval_event(
            Msg::new("gwe.naval.recon_finds")
                .arg("squadron", &sq.name)
                .arg("n", flotillas.len())
                .arg("radius", sq.radius),
        );
        for fl in &flotillas {
            let (name, at) = self.navy.fleet(*fl).map_or_else(|| (String::new(), sq.base), |f| (f.name.clone(), f.at));
            let line = Msg::new("gwe.naval.recon_sights").arg("squadron", &sq.name).arg("flotilla", name).hex("at", at);
            self.sighted(*fl, sq.power, line);
        }
        for fl in flotillas {
            let boats = self.navy.afloat(fl);
            let alive: Vec<ShipId> =
                asw_ships.iter().copied().filter(|s| self.navy.ship(*s).is_some_and(|s| !s.sunk)).collect();
            if alive.is_empty() {
                // S-AIR-1 with S-SUB-1: no ASW ship in the radius to hunt them, the boats are unharmed.
                let name = self.fleet_name(fl);
                self.naval_event(Msg::new("gwe.naval.recon_no_asw").arg("flotilla", name).arg("radius", sq.radius));
                continue;
            }
            if self.stealth_test(&boats, alive.len() as u32) {
                for (b, target) in boats.iter().zip(alive.iter()) {
                    let pips = self.die_in("torpedo", self.torpedo_roll(*b, *target), Some(TORPEDO_HIT));
                    if TORPEDO_HIT.contains(pips) {
                        self.sink(*target, Msg::new("gwe.naval.why.torpedoed"));
                    }
                }
            }
        }
        Ok(())
    }

    /// How far a squadron flies to `at`: from its base, or, attached to a corps or army, from the
    /// formation's hex nearest `at` (S-ARMY-5; its base while the formation holds no hex).
    pub fn squadron_distance(&self, sq: &Squadron, at: HexAt) -> u32 {
        let from = sq.attached.map(|fm| self.formation_hexes(fm)).unwrap_or_default();
        from.iter().map(|h| h.distance(at)).min().unwrap_or_else(|| sq.base.distance(at))
    }

    pub(super) fn own_squadron(&self, id: SquadronId) -> Result<Squadron, OrderError> {
        let sq = self
            .navy
            .squadrons
            .iter()
            .find(|s| s.id == id)
            .cloned()
            .ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_squadron").arg("id", id)))?;
        if sq.power != self.active_power() {
            return Err(OrderError::NotYours(sq.name));
        }
        if sq.flew || sq.aircraft == 0 || sq.aboard.is_some() {
            return Err(OrderError::Naval(Msg::new("gwe.naval.flies_once").arg("squadron", &sq.name)));
        }
        Ok(sq)
    }

    /// S-AIR-2, S-AIR-3: bombers in range attack one ship together; then each rolls for survival.
    pub fn bomb(&mut self, squadrons: &[SquadronId], ship: ShipId) -> Result<(), OrderError> {
        let Bombing { bombing, class, d, table } = self.bomb_check(squadrons, ship)?;
        let per = i64::from(self.scenario().rules.ammunition.bombing);
        let need = per.checked_mul(squadrons.len() as i64).unwrap_or(i64::MAX);
        self.spend_ammunition(self.active_power(), need, Msg::new("gwe.naval.ammo.aviation"))?;
        let hit = match table {
            None => true,
            Some(r) => {
                let roll =
                    Msg::new("gwe.naval.bombs").arg("bombing", bombing).arg("class", class).arg("d", d).arg("range", r);
                let pips = self.die_in("bombs", roll, Some(r));
                r.contains(pips)
            }
        };
        if hit {
            self.sink(ship, Msg::new("gwe.naval.why.bombed"));
        }
        for id in squadrons {
            let aircraft = self.navy.squadrons.iter().find(|s| s.id == *id).map_or(0, |s| s.aircraft);
            let pips = self.die("air survival", Msg::new("gwe.naval.air_survival").arg("id", id));
            let lost = aircraft_lost(pips, aircraft);
            if let Some(sq) = self.navy.squadrons.iter_mut().find(|s| s.id == *id) {
                sq.aircraft -= lost;
                sq.flew = true;
            }
        }
        Ok(())
    }

    /// Every fleet's movement and flags renew at the start of a turn.
    pub fn naval_turn_start(&mut self) {
        let speeds: Vec<(FleetId, u32)> = self.navy.fleets.iter().map(|f| (f.id, self.navy.speed(f.id))).collect();
        for (id, speed) in speeds {
            if let Some(f) = self.navy.fleet_mut(id) {
                f.mp_left = speed;
                f.bombarded = false;
                f.laid_mine = false;
                f.sweeping = false;
            }
        }
        for s in &mut self.navy.squadrons {
            s.flew = false;
        }
    }
}

impl Ctx {
    /// Splits ships off into a new fleet on the same hex.
    pub fn split_fleet(&mut self, id: FleetId, ships: &[ShipId], name: &str) -> Result<(), OrderError> {
        let f = self.own_fleet(id)?.clone();
        let afloat = self.navy.afloat(id);
        if ships.is_empty() || ships.len() >= afloat.len() || ships.iter().any(|s| !afloat.contains(s)) {
            return Err(OrderError::Naval(Msg::new("gwe.naval.split_some")));
        }
        let new = self.navy.next_fleet;
        self.navy.next_fleet += 1;
        self.navy.fleets.push(Fleet { id: new, name: name.to_string(), patrol: None, ..f });
        self.navy.fleets.sort_by_key(|f| f.id);
        for s in ships {
            if let Some(x) = self.navy.ship_mut(*s) {
                x.fleet = new;
            }
        }
        let speed = self.navy.speed(new);
        if let Some(x) = self.navy.fleet_mut(new) {
            x.mp_left = x.mp_left.min(speed);
        }
        Ok(())
    }

    /// Joins a fleet to another on the same hex (S-NAVAL-2: at most 20 ships).
    pub fn merge_fleet(&mut self, id: FleetId, into: FleetId) -> Result<(), OrderError> {
        self.merge_check(id, into)?;
        let a = self.own_fleet(id)?.clone();
        let b = self.own_fleet(into)?.clone();
        for s in &mut self.navy.ships {
            if s.fleet == id {
                s.fleet = into;
            }
        }
        let mp = a.mp_left.min(b.mp_left);
        if let Some(x) = self.navy.fleet_mut(into) {
            x.mp_left = mp;
        }
        self.navy.fleets.retain(|f| f.id != id);
        Ok(())
    }

    pub fn fleet_stance(
        &mut self,
        id: FleetId,
        intercept: bool,
        withdraw: bool,
        transports_first: bool,
    ) -> Result<(), OrderError> {
        self.own_fleet(id)?;
        if let Some(f) = self.navy.fleet_mut(id) {
            f.intercept = intercept;
            f.withdraw = withdraw;
            f.transports_first = transports_first;
        }
        Ok(())
    }

    /// The enemy ships the player named for the fleet's ships (S-NAVAL-7), as `FleetStance` takes
    /// them: a stance given again with these keeps them.
    pub fn ship_targets(&self, id: FleetId) -> Vec<(ShipId, ShipId)> {
        self.navy.ships.iter().filter(|s| s.fleet == id && !s.sunk).filter_map(|s| s.aim.map(|t| (s.id, t))).collect()
    }

    /// S-NAVAL-7: the player names the enemy ship each of the fleet's warships fires at, as pairs
    /// (own ship, enemy ship); the names given before are replaced, and a ship not named fires as
    /// the engine chooses. Refused: a ship not afloat in this fleet or not a warship (S-NAVAL-10:
    /// the others do not fire), one named twice, or a target that is no afloat enemy surface ship.
    pub fn name_ship_targets(&mut self, id: FleetId, targets: &[(ShipId, ShipId)]) -> Result<(), OrderError> {
        let power = self.own_fleet(id)?.power;
        for (k, (own, enemy)) in targets.iter().enumerate() {
            let firer = self.navy.ship(*own).filter(|s| s.fleet == id && !s.sunk && s.kind.is_warship());
            if firer.is_none() {
                return Err(OrderError::Naval(
                    Msg::new("gwe.naval.aim_not_firer").msg("ship", self.ship_label(*own)).arg("fleet", id),
                ));
            }
            if targets[..k].iter().any(|(o, _)| o == own) {
                return Err(OrderError::Naval(Msg::new("gwe.naval.aim_twice").msg("ship", self.ship_label(*own))));
            }
            let target = self
                .navy
                .ship(*enemy)
                .filter(|s| !s.sunk && s.kind != ShipType::Submarine && self.hostile(power, s.power));
            if target.is_none() {
                return Err(OrderError::Naval(
                    Msg::new("gwe.naval.aim_not_enemy").msg("ship", self.ship_label(*enemy)),
                ));
            }
        }
        for s in self.navy.ships.iter_mut().filter(|s| s.fleet == id) {
            s.aim = targets.iter().find(|(o, _)| *o == s.id).map(|(_, t)| *t);
        }
        Ok(())
    }
}

/// A fleet as tools print it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FleetView {
    pub id: FleetId,
    pub name: String,
    pub power: String,
    pub at: HexAt,
    pub mp_left: u32,
    /// Afloat ship IDs with their types.
    pub ships: Vec<(ShipId, ShipType)>,
    /// Land units aboard its transports.
    pub cargo: Vec<u32>,
}

impl Ctx {
    /// Every fleet with ships afloat, by ID.
    pub fn fleet_views(&self) -> Vec<FleetView> {
        self.navy
            .fleets
            .iter()
            .filter(|f| !self.navy.afloat(f.id).is_empty())
            .map(|f| FleetView {
                id: f.id,
                name: f.name.clone(),
                power: self.scenario().powers[usize::from(f.power.0)].id.clone(),
                at: f.at,
                mp_left: f.mp_left,
                ships: self
                    .navy
                    .afloat(f.id)
                    .into_iter()
                    .filter_map(|s| self.navy.ship(s))
                    .map(|s| (s.id, s.kind))
                    .collect(),
                cargo: self
                    .navy
                    .afloat(f.id)
                    .into_iter()
                    .filter_map(|s| self.navy.ship(s).and_then(|s| s.cargo))
                    .map(|u| u.0)
                    .collect(),
            })
            .collect()
    }
}
