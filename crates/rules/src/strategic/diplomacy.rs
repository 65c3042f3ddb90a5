//! Who is at war with whom (issue 12): neutral powers and their entry into the war, peace
//! treaties (S-CITY-4), and the sovereign of each province after them.

use super::event::{Event, EventKind};
use super::hexmap::HexAt;
use super::order::OrderError;
use super::state::{Ctx, ForceId, Place, PowerId};
pub use super::treaty::PeaceOffer;
use crate::texts::Msg;

impl Ctx {
    /// Whether two powers fight each other (whatever their alliances): neither is neutral nor has
    /// surrendered, and they made no peace.
    pub fn at_war(&self, a: PowerId, b: PowerId) -> bool {
        let (Some(pa), Some(pb)) = (self.powers.get(usize::from(a.0)), self.powers.get(usize::from(b.0))) else {
            return false;
        };
        !(pa.neutral || pb.neutral || pa.out || pb.out || pa.peace.contains(&b))
    }

    /// A power by its scenario id.
    pub fn power_by_id(&self, id: &str) -> Option<PowerId> {
        self.scenario().power_index(id).map(|i| PowerId(i as u8))
    }

    /// The sovereign of a province: the map's owner, or the power a peace treaty gave it to.
    pub fn province_owner(&self, province: usize) -> Option<PowerId> {
        if let Some(p) = self.provinces.get(province).and_then(|s| s.ceded_to) {
            return Some(p);
        }
        self.map().provinces.get(province).and_then(|p| self.power_by_id(&p.owner))
    }

    /// Who holds a province: its occupier, else its sovereign.
    pub fn province_controller(&self, province: usize) -> Option<PowerId> {
        self.provinces.get(province).and_then(|s| s.occupier).or_else(|| self.province_owner(province))
    }

    /// The province a hex lies in.
    pub fn province_at(&self, at: HexAt) -> Option<usize> {
        self.map().cell(at).and_then(|c| usize::from(c.province).checked_sub(1))
    }

    /// A neutral power whose land `at` is, if `power` is someone else.
    fn neutral_land(&self, power: PowerId, at: HexAt) -> Option<PowerId> {
        let owner = self.province_at(at).and_then(|p| self.province_owner(p))?;
        (owner != power && self.powers.get(usize::from(owner.0)).is_some_and(|p| p.neutral)).then_some(owner)
    }

    /// Neutral land is closed to other powers' land units unless the neutral's entry says it
    /// enters the war when invaded; then a power at war of the other alliance may invade it (the
    /// neutral's alliance is the side it joins when the other invades it).
    pub fn check_neutral_land(&self, power: PowerId, at: HexAt) -> Result<(), OrderError> {
        let Some(n) = self.neutral_land(power, at) else { return Ok(()) };
        if self.may_invade(power, n) {
            return Ok(());
        }
        Err(OrderError::NeutralLand { at, power: Msg::named(self.power_key(n), self.power_name(n)) })
    }

    fn may_invade(&self, power: PowerId, neutral: PowerId) -> bool {
        let invadable = self.scenario().powers[usize::from(neutral.0)].entry.is_some_and(|e| e.when_invaded);
        let belligerent = self.powers.get(usize::from(power.0)).is_some_and(|p| !p.neutral && !p.out);
        invadable && belligerent && self.alliance(power) != self.alliance(neutral)
    }

    /// Neutrals whose land a land unit of a power at war of the other alliance stands on enter the
    /// war at once.
    pub fn invasions(&mut self) {
        if !self.powers.iter().any(|p| p.neutral) {
            return;
        }
        let mut entering: Vec<PowerId> = Vec::new();
        for f in self.forces.iter().filter(|f| f.on_map()) {
            let Some(at) = f.hex() else { continue };
            if self.powers[usize::from(f.power.0)].neutral {
                continue;
            }
            if let Some(n) = self.neutral_land(f.power, at).filter(|n| self.may_invade(f.power, *n)) {
                entering.push(n);
            }
        }
        entering.sort();
        entering.dedup();
        for n in entering {
            self.enter_war(n, Msg::new("gwe.econ.entry_invaded"));
        }
    }

    /// Preparation: neutrals whose entry turn has come enter the war.
    pub fn neutral_entries(&mut self) {
        for i in 0..self.powers.len() {
            let due = self.scenario().powers[i].entry.and_then(|e| e.turn).is_some_and(|t| t <= self.clock.turn);
            if self.powers[i].neutral && due {
                self.enter_war(PowerId(i as u8), Msg::new("gwe.econ.entry_turn"));
            }
        }
    }

    fn enter_war(&mut self, p: PowerId, why: Msg) {
        self.powers[usize::from(p.0)].neutral = false;
        let side = self.alliance(p);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::EntersWar { power: p },
            line: Msg::new("gwe.econ.enters_war")
                .name("power", self.power_key(p), self.power_name(p))
                .arg("side", side)
                .msg("why", why),
        });
    }

    /// Preparation: units whose turn has come and whose power is at war arrive (house rule, issue
    /// 12): in the order of their IDs, each on the land hex nearest its port that no unit holds
    /// and that is no neutral's land (among equals the northernmost, then the westernmost). One
    /// that finds no such hex on the whole map waits for the next turn.
    pub fn land_arrivals(&mut self) {
        let turn = self.clock.turn;
        let due = |c: &Ctx, id: ForceId| {
            c.scenario()
                .forces
                .iter()
                .find(|s| s.id == id.0)
                .and_then(|s| s.arrives)
                .is_some_and(|a| a.turn.is_none_or(|t| t <= turn))
        };
        let arriving: Vec<(ForceId, PowerId, HexAt)> = self
            .forces
            .iter()
            .filter(|f| self.powers.get(usize::from(f.power.0)).is_some_and(|p| !p.neutral && !p.out))
            .filter_map(|f| match f.place {
                Place::Arriving(port) if due(self, f.id) => Some((f.id, f.power, port)),
                _ => None,
            })
            .collect();
        for (id, p, port) in arriving {
            let (w, h) = (self.map().width, self.map().height);
            let free =
                |c: &Ctx, at: HexAt| c.map().is_land(at) && c.at(at).is_empty() && c.neutral_land(p, at).is_none();
            // Rings outward from the port: no hex of the map lies farther than its width plus height.
            let landing = (0..=w.saturating_add(h)).find_map(|d| {
                port.hex().ring(d).map(HexAt::from_hex).filter(|at| free(self, *at)).min_by_key(|at| (at.row, at.col))
            });
            let Some(at) = landing else { continue };
            if let Some(f) = self.force_mut(id) {
                f.place = Place::Map(at);
                f.activity.start = Some(at);
            }
            self.rebuild_occupancy();
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new("gwe.econ.lands").msg("unit", self.name_msg(id)).hex("at", at).hex("port", port),
            });
        }
    }

    /// Provinces one of the two occupies of the other's, by index.
    fn contested(&self, a: PowerId, b: PowerId) -> Vec<u16> {
        (0..self.provinces.len())
            .filter(|i| {
                let (owner, occ) = (self.province_owner(*i), self.provinces[*i].occupier);
                (owner == Some(a) && occ == Some(b)) || (owner == Some(b) && occ == Some(a))
            })
            .map(|i| i as u16)
            .collect()
    }

    /// S-CITY-4: offers peace to an enemy power; `cede` names provinces that pass to their occupier.
    pub fn offer_peace(&mut self, to: &str, cede: &[String]) -> Result<(), OrderError> {
        let me = self.active_power();
        let them =
            self.power_by_id(to).ok_or_else(|| OrderError::Peace(Msg::new("gwe.econ.no_power").arg("id", to)))?;
        if !self.hostile(me, them) {
            return Err(self.not_at_war(me, to));
        }
        let contested = self.contested(me, them);
        let mut list: Vec<u16> = Vec::new();
        for id in cede {
            let i = self.map().province_index(id).and_then(|i| u16::try_from(i).ok());
            match i.filter(|i| contested.contains(i)) {
                Some(i) => list.push(i),
                None => {
                    return Err(OrderError::Peace(Msg::new("gwe.econ.not_contested").arg("id", id)));
                }
            }
        }
        list.sort();
        list.dedup();
        self.powers[usize::from(me.0)].offer = Some(PeaceOffer { to: them, cede: list });
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.offers_peace").name("power", self.power_key(me), self.power_name(me)).name(
                "to",
                self.power_key(them),
                self.power_name(them),
            ),
        });
        Ok(())
    }

    /// S-CITY-4: accepts a standing offer; the war between the two ends, ceded provinces pass to
    /// their occupier for good, the other occupied provinces between them return to their sovereign.
    pub fn accept_peace(&mut self, from: &str) -> Result<(), OrderError> {
        let me = self.active_power();
        let them =
            self.power_by_id(from).ok_or_else(|| OrderError::Peace(Msg::new("gwe.econ.no_power").arg("id", from)))?;
        let offer = self.powers[usize::from(them.0)].offer.clone().filter(|o| o.to == me).ok_or_else(|| {
            OrderError::Peace(Msg::new("gwe.econ.no_offer").arg("from", from).name(
                "power",
                self.power_key(me),
                self.power_name(me),
            ))
        })?;
        if !self.hostile(me, them) {
            return Err(self.not_at_war(me, from));
        }
        let contested = self.contested(me, them);
        if offer.cede.iter().any(|i| !contested.contains(i)) {
            return Err(OrderError::Peace(Msg::new("gwe.econ.offer_stale")));
        }
        for i in contested {
            let s = &mut self.provinces[usize::from(i)];
            if offer.cede.contains(&i) {
                s.ceded_to = s.occupier;
            }
            s.occupier = None;
        }
        for (a, b) in [(me, them), (them, me)] {
            let p = &mut self.powers[usize::from(a.0)];
            p.peace.push(b);
            p.peace.sort();
            if p.offer.as_ref().is_some_and(|o| o.to == b) {
                p.offer = None;
            }
        }
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.peace_made")
                .name("power", self.power_key(me), self.power_name(me))
                .name("other", self.power_key(them), self.power_name(them))
                .arg("n", offer.cede.len()),
        });
        Ok(())
    }

    /// A peace order's refusal: `me` is not at war with the power the order names by `id`.
    fn not_at_war(&self, me: PowerId, id: &str) -> OrderError {
        OrderError::Peace(
            Msg::new("gwe.econ.not_at_war").name("power", self.power_key(me), self.power_name(me)).arg("id", id),
        )
    }

    /// A neutral or surrendered power takes no orders but ending its part of a phase.
    pub fn idle(&self, p: PowerId) -> bool {
        self.powers.get(usize::from(p.0)).is_some_and(|s| s.neutral || s.out)
    }

    /// Passes over idle powers in the order of play (unless every power is idle).
    pub fn skip_idle_powers(&mut self) {
        let n = self.powers.len();
        if (0..n).all(|i| self.idle(PowerId(i as u8))) {
            return;
        }
        while usize::from(self.clock.active) < n && self.idle(self.active_power()) {
            self.clock.active += 1;
        }
    }
}
