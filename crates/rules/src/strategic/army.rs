//! Army organisation (S-ARMY): corps and armies, attachments, reserves, retreat, and what becomes
//! of an army whose front divisions are gone.

use super::event::{Event, EventKind};
use super::hexmap::HexAt;
use super::order::{OrderError, Piece};
use super::state::{Ctx, ForceId, ForceKind, Formation, FormationId, FormationKind, Place, PowerId};
use crate::texts::Msg;

/// S-ARMY-15: a defending army may retreat only 10 hexes.
pub const RETREAT_HEXES: usize = 10;
/// S-ARMY-4: an army stands three to five hexes deep; the engine holds it to the five.
pub const ARMY_DEPTH_HEXES: u32 = 5;

impl Ctx {
    /// The name a player knows a piece by: the unit's, or the corps'.
    pub fn piece_name(&self, piece: Piece) -> String {
        match piece {
            Piece::Unit(u) => self.name(u),
            Piece::Corps(c) => self.formation(c).map_or_else(|| c.to_string(), |f| f.name.clone()),
        }
    }

    fn own_unit(&self, id: ForceId) -> Result<&super::state::Force, OrderError> {
        let f = self.force(id).ok_or(OrderError::NoUnit(id))?;
        if f.power != self.active_power() {
            return Err(OrderError::NotYours(self.name(id)));
        }
        Ok(f)
    }

    fn own_formation(&self, id: FormationId, kind: FormationKind) -> Result<&Formation, OrderError> {
        let fm = self.formation(id).ok_or(OrderError::NoFormation(id))?;
        if fm.power != self.active_power() {
            return Err(OrderError::NotYours(fm.name.clone()));
        }
        if fm.kind != kind {
            let key = match kind {
                FormationKind::Corps => "gwe.army.not_a_corps",
                FormationKind::Army => "gwe.army.not_an_army",
            };
            return Err(OrderError::Organization(Msg::new(key).arg("name", &fm.name)));
        }
        Ok(fm)
    }

    fn new_formation(
        &mut self,
        kind: FormationKind,
        name: String,
        units: Vec<ForceId>,
        corps: Vec<FormationId>,
    ) -> FormationId {
        let id = FormationId(self.next_formation);
        self.next_formation += 1;
        let power = self.active_power();
        self.formations.push(Formation { id, power, kind, name: name.clone(), units, corps, engaged: false });
        self.formations.sort_by_key(|f| f.id);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Formation { id },
            line: Msg::new("gwe.army.formed").arg("name", name),
        });
        id
    }

    /// The units of `units` that stand elsewhere than `at` (an organisational order steps them onto it).
    fn stepping_onto(&self, at: HexAt, units: &[ForceId]) -> Vec<ForceId> {
        units.iter().copied().filter(|u| self.force(*u).is_some_and(|f| f.hex() != Some(at))).collect()
    }

    /// S-COMBAT-2: the one-hex step of an organisational order (forming a corps or a battery,
    /// joining a corps, detaching) is a move: the units that stepped count as having moved, and
    /// arriving next to an enemy they attack, as after a move (S-COMBAT-7, S-ARMY-9).
    fn organisational_step(&mut self, at: HexAt, movers: &[ForceId]) {
        if movers.is_empty() {
            return;
        }
        for u in movers {
            if let Some(f) = self.force_mut(*u) {
                f.activity.moved = true;
            }
        }
        self.arrive(at, movers);
        self.engage_from(at, movers);
    }

    /// S-ARMY-2: a corps of 2–4 land units, standing on one hex or next to the first.
    pub fn form_corps(&mut self, name: &str, units: &[ForceId]) -> Result<(), OrderError> {
        if !(2..=4).contains(&units.len()) {
            return Err(OrderError::Organization(Msg::new("gwe.army.corps_size").arg("n", units.len())));
        }
        let first = self.own_unit(units[0])?.hex().ok_or_else(|| OrderError::OffMap(self.name(units[0])))?;
        for (i, u) in units.iter().enumerate() {
            let f = self.own_unit(*u)?;
            if units[..i].contains(u) {
                return Err(OrderError::Organization(Msg::new("gwe.army.listed_twice").arg("name", self.name(*u))));
            }
            if !f.kind.is_combatant() {
                return Err(OrderError::Organization(Msg::new("gwe.army.artillery_not_in_corps")));
            }
            if f.member.corps.is_some() || f.member.army.is_some() {
                return Err(OrderError::Organization(Msg::new("gwe.army.already_serves").arg("name", self.name(*u))));
            }
            let h = f.hex().ok_or_else(|| OrderError::OffMap(self.name(*u)))?;
            if h.distance(first) > 1 {
                return Err(OrderError::Organization(
                    Msg::new("gwe.army.not_next_to_hex").arg("name", self.name(*u)).hex("at", first),
                ));
            }
        }
        let id = self.new_formation(FormationKind::Corps, name.to_string(), units.to_vec(), Vec::new());
        let movers = self.stepping_onto(first, units);
        for u in units {
            if let Some(f) = self.force_mut(*u) {
                f.place = Place::Map(first);
                f.member.corps = Some(id);
                f.activity.mp_left = 0;
            }
        }
        self.rebuild_occupancy();
        self.organisational_step(first, &movers);
        Ok(())
    }

    /// S-ARMY-2: an army of 2–4 corps.
    pub fn form_army(&mut self, name: &str, corps: &[FormationId]) -> Result<(), OrderError> {
        if !(2..=4).contains(&corps.len()) {
            return Err(OrderError::Organization(Msg::new("gwe.army.army_size").arg("n", corps.len())));
        }
        for (i, c) in corps.iter().enumerate() {
            self.own_formation(*c, FormationKind::Corps)?;
            if corps[..i].contains(c) || self.formations.iter().any(|a| a.corps.contains(c)) {
                return Err(OrderError::Organization(Msg::new("gwe.army.corps_listed_twice").arg("corps", c)));
            }
        }
        let id = self.new_formation(FormationKind::Army, name.to_string(), Vec::new(), corps.to_vec());
        for u in self.formation_units(id) {
            if let Some(f) = self.force_mut(u) {
                f.member.army = Some(id);
            }
        }
        let attached: Vec<ForceId> = self
            .forces
            .iter()
            .filter(|f| matches!(f.place, Place::Attached(c) if corps.contains(&c)))
            .map(|f| f.id)
            .collect();
        for u in attached {
            if let Some(f) = self.force_mut(u) {
                f.member.army = Some(id);
            }
        }
        Ok(())
    }

    /// Adds a unit on or next to a corps' hex to the corps (at most 4).
    pub fn join_corps(&mut self, unit: ForceId, corps: FormationId) -> Result<(), OrderError> {
        let fm = self.own_formation(corps, FormationKind::Corps)?.clone();
        let f = self.own_unit(unit)?;
        let army = self.formations.iter().find(|a| a.corps.contains(&corps)).map(|a| a.id);
        // An independent unit, or a division of the corps' own army outside any corps (a reserve
        // committed to its army's fight, S-ARMY-8).
        let free = f.member.army.is_none() || (f.member.army == army && f.on_map());
        if !f.kind.is_combatant() || f.member.corps.is_some() || !free {
            return Err(OrderError::Organization(Msg::new("gwe.army.cannot_join").arg("name", self.name(unit))));
        }
        if fm.units.len() >= 4 {
            return Err(OrderError::Organization(Msg::new("gwe.army.corps_full").arg("name", &fm.name)));
        }
        let at = self.piece_hex(Piece::Corps(corps)).ok_or_else(|| OrderError::OffMap(fm.name.clone()))?;
        if f.hex().is_none_or(|h| h.distance(at) > 1) {
            return Err(OrderError::Organization(
                Msg::new("gwe.army.not_next_to").arg("name", self.name(unit)).arg("to", &fm.name),
            ));
        }
        let movers = self.stepping_onto(at, &[unit]);
        if let Some(f) = self.force_mut(unit) {
            f.place = Place::Map(at);
            f.member.corps = Some(corps);
            f.member.army = army;
            f.activity.mp_left = 0;
        }
        if let Some(c) = self.formation_mut(corps) {
            c.units.push(unit);
            c.units.sort();
        }
        self.rebuild_occupancy();
        self.organisational_step(at, &movers);
        Ok(())
    }

    /// Detaches a unit from its corps, or a corps from its army (S-ARMY-2).
    pub fn detach(&mut self, piece: Piece, to: Option<HexAt>) -> Result<(), OrderError> {
        match piece {
            Piece::Unit(u) => {
                let f = self.own_unit(u)?.clone();
                // A corps member, or a division of an army outside its corps (S-ARMY-8).
                let corps = f.member.corps;
                if corps.is_none() && (f.member.army.is_none() || !f.on_map()) {
                    return Err(OrderError::Organization(Msg::new("gwe.army.in_no_corps").arg("name", self.name(u))));
                }
                let at = f.hex().ok_or_else(|| OrderError::OffMap(self.name(u)))?;
                let to = to.ok_or_else(|| OrderError::Organization(Msg::new("gwe.army.detach_needs_hex")))?;
                if !to.is_adjacent(at) || !self.map().is_land(to) || !self.at(to).is_empty() {
                    return Err(OrderError::Organization(
                        Msg::new("gwe.army.detach_hex_not_free").hex("to", to).hex("at", at),
                    ));
                }
                // S-ARMY-7, S-ARMY-15: detaching must not take an engaged unit out of contact.
                if self.next_to_enemy(f.power, at) && !self.next_to_enemy(f.power, to) {
                    return Err(OrderError::Engaged(self.name(u)));
                }
                if let Some(c) = corps {
                    let left = self.formation(c).map_or(0, |k| k.units.len()).saturating_sub(1);
                    if left < 2 {
                        return Err(OrderError::Organization(Msg::new("gwe.army.corps_keeps_two")));
                    }
                    if let Some(k) = self.formation_mut(c) {
                        k.units.retain(|x| *x != u);
                    }
                }
                if let Some(f) = self.force_mut(u) {
                    f.place = Place::Map(to);
                    f.member.corps = None;
                    f.member.army = None;
                    f.activity.mp_left = 0;
                }
                self.rebuild_occupancy();
                self.organisational_step(to, &[u]);
            }
            Piece::Corps(c) => {
                self.own_formation(c, FormationKind::Corps)?;
                let Some(army) = self.formations.iter().find(|a| a.corps.contains(&c)).map(|a| a.id) else {
                    return Err(OrderError::Organization(Msg::new("gwe.army.corps_in_no_army").arg("corps", c)));
                };
                if self.formation(army).map_or(0, |a| a.corps.len()) <= 2 {
                    return Err(OrderError::Organization(Msg::new("gwe.army.army_keeps_two")));
                }
                if let Some(a) = self.formation_mut(army) {
                    a.corps.retain(|x| *x != c);
                }
                for u in self.formation_units(c) {
                    if let Some(f) = self.force_mut(u) {
                        f.member.army = None;
                    }
                }
                for f in &mut self.forces {
                    if f.place == Place::Attached(c) {
                        f.member.army = None;
                    }
                }
            }
        }
        Ok(())
    }

    /// Attaches heavy artillery on or next to a formation's hexes to it (S-ARMY-2, S-ARMY-5).
    pub fn attach(&mut self, unit: ForceId, formation: FormationId) -> Result<(), OrderError> {
        let f = self.own_unit(unit)?.clone();
        let fm = self.formation(formation).ok_or(OrderError::NoFormation(formation))?.clone();
        if fm.power != f.power {
            return Err(OrderError::NotYours(fm.name));
        }
        if !f.kind.is_artillery() || f.member.battery.is_some() {
            return Err(OrderError::Organization(Msg::new("gwe.army.only_heavy_artillery_attaches")));
        }
        let at = f.hex().ok_or_else(|| OrderError::OffMap(self.name(unit)))?;
        let near = self
            .formation_units(formation)
            .iter()
            .filter_map(|u| self.force(*u))
            .filter_map(|u| u.hex())
            .any(|h| h.distance(at) <= 1);
        if !near {
            return Err(OrderError::Organization(
                Msg::new("gwe.army.not_next_to").arg("name", self.name(unit)).arg("to", &fm.name),
            ));
        }
        let army = match fm.kind {
            FormationKind::Army => Some(formation),
            FormationKind::Corps => self.formations.iter().find(|a| a.corps.contains(&formation)).map(|a| a.id),
        };
        if let Some(f) = self.force_mut(unit) {
            f.place = Place::Attached(formation);
            f.member.army = army;
        }
        self.rebuild_occupancy();
        Ok(())
    }

    /// S-ARMY-2: an air squadron based on or next to a corps or army hex is attached to it
    /// (`Some`), or detached (`None`) onto a base at the formation's hex nearest its old one (tie:
    /// the lower hex). Attached, it flies from the formation's hexes (S-ARMY-5) and is lost with
    /// its army (S-ARMY-12).
    pub fn attach_squadron(&mut self, id: u32, formation: Option<FormationId>) -> Result<(), OrderError> {
        let base = self.attach_squadron_check(id, formation)?;
        if let Some(s) = self.navy.squadrons.iter_mut().find(|s| s.id == id) {
            s.attached = formation;
            s.base = base;
        }
        Ok(())
    }

    /// [`Ctx::attach_squadron`]'s check, changing nothing: the squadron's base once the order is
    /// given, or why it is refused (the Movement phase is the order's, `Order::AttachSquadron`).
    pub fn attach_squadron_check(&self, id: u32, formation: Option<FormationId>) -> Result<HexAt, OrderError> {
        let sq = self.navy.squadrons.iter().find(|s| s.id == id).cloned();
        let sq = sq.ok_or_else(|| OrderError::Naval(Msg::new("gwe.naval.no_squadron").arg("id", id)))?;
        if sq.power != self.active_power() {
            return Err(OrderError::NotYours(sq.name));
        }
        if sq.aircraft == 0 || sq.aboard.is_some() {
            return Err(OrderError::OffMap(sq.name));
        }
        let base = match (formation, sq.attached) {
            (Some(fm), None) => {
                let f = self.formation(fm).ok_or(OrderError::NoFormation(fm))?;
                if f.power != sq.power {
                    return Err(OrderError::NotYours(f.name.clone()));
                }
                if !self.formation_hexes(fm).iter().any(|h| h.distance(sq.base) <= 1) {
                    return Err(OrderError::Organization(
                        Msg::new("gwe.army.not_next_to").arg("name", &sq.name).arg("to", &f.name),
                    ));
                }
                sq.base
            }
            (None, Some(fm)) => {
                let near = self.formation_hexes(fm).into_iter().min_by_key(|h| (h.distance(sq.base), *h));
                near.unwrap_or(sq.base)
            }
            (Some(_), Some(fm)) => {
                let name = self.formation(fm).map_or_else(|| fm.to_string(), |f| f.name.clone());
                return Err(OrderError::Organization(
                    Msg::new("gwe.army.squadron_attached").arg("name", &sq.name).arg("to", name),
                ));
            }
            (None, None) => {
                return Err(OrderError::Organization(Msg::new("gwe.army.squadron_not_attached").arg("name", &sq.name)));
            }
        };
        Ok(base)
    }

    /// S-ARMY-12, S-ARMY-13 for the aviation of an army that is gone: destroyed with a destroyed
    /// army («артиллерия и авиация армии уничтожаются»); of an army that dissolves, independent
    /// again at `base` (the hex its divisions last held), as its other units. Squadrons of its
    /// corps go with it.
    fn army_aviation_fate(&mut self, army: FormationId, destroyed: bool, base: Option<HexAt>) {
        let corps = self.formation(army).map(|f| f.corps.clone()).unwrap_or_default();
        let ours: Vec<u32> = self
            .navy
            .squadrons
            .iter()
            .filter(|s| s.attached.is_some_and(|fm| fm == army || corps.contains(&fm)))
            .map(|s| s.id)
            .collect();
        for id in ours {
            let Some(s) = self.navy.squadrons.iter_mut().find(|s| s.id == id) else { continue };
            s.attached = None;
            if destroyed {
                s.aircraft = 0;
            } else if let Some(b) = base {
                s.base = b;
            }
            let (name, key) =
                (s.name.clone(), if destroyed { "gwe.army.squadron_lost" } else { "gwe.army.squadron_free" });
            self.push(Event { turn: self.clock.turn, kind: EventKind::Note, line: Msg::new(key).arg("name", name) });
        }
    }

    /// The hexes an army (or corps) holds.
    pub fn formation_hexes(&self, id: FormationId) -> Vec<HexAt> {
        let mut v: Vec<HexAt> =
            self.formation_units(id).iter().filter_map(|u| self.force(*u)).filter_map(|f| f.hex()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// S-ARMY-6: an independent unit next to its army goes into the off-map reserve.
    pub fn assign_reserve(&mut self, unit: ForceId, army: FormationId) -> Result<(), OrderError> {
        self.own_formation(army, FormationKind::Army)?;
        let f = self.own_unit(unit)?;
        // An independent unit, or one of this army's divisions outside its corps (S-ARMY-8).
        let free = f.member.army.is_none() || f.member.army == Some(army);
        if !f.kind.is_combatant() || f.member.corps.is_some() || !free || !f.on_map() {
            return Err(OrderError::Organization(Msg::new("gwe.army.not_independent").arg("name", self.name(unit))));
        }
        let at = f.hex().ok_or_else(|| OrderError::OffMap(self.name(unit)))?;
        if !self.formation_hexes(army).iter().any(|h| h.distance(at) <= 1) {
            return Err(OrderError::Organization(Msg::new("gwe.army.not_next_to_army").arg("name", self.name(unit))));
        }
        if let Some(f) = self.force_mut(unit) {
            f.place = Place::Reserve(army);
            f.member.army = Some(army);
        }
        self.rebuild_occupancy();
        Ok(())
    }

    /// S-ARMY-8, S-ARMY-9: a reserve comes onto a free hex next to its army. Next to an enemy it
    /// joins the combat at once and counts Attack; elsewhere it may move normally.
    pub fn commit_reserve(&mut self, unit: ForceId, to: HexAt) -> Result<(), OrderError> {
        let f = self.own_unit(unit)?.clone();
        let Place::Reserve(army) = f.place else {
            return Err(OrderError::Organization(Msg::new("gwe.army.not_in_reserve").arg("name", self.name(unit))));
        };
        if !self.map().is_land(to) || !self.at(to).is_empty() {
            return Err(OrderError::Occupied(to));
        }
        self.check_neutral_land(f.power, to)?;
        if !self.formation_hexes(army).iter().any(|h| h.is_adjacent(to)) {
            return Err(OrderError::Organization(Msg::new("gwe.army.reserve_hex_not_next").hex("at", to)));
        }
        let joins = self.next_to_enemy(f.power, to);
        let speed = self.speed(f.kind);
        if let Some(f) = self.force_mut(unit) {
            f.place = Place::Map(to);
            // S-ARMY-8: a reserve that joins its own army's fight stays in the army (it takes the
            // army's orders, S-ARMY-3, and its supply, S-SUP-4); one placed to move on by the
            // normal rules (to another army's fight) leaves it.
            f.member.army = if joins { Some(army) } else { None };
            f.activity.moved = joins;
            f.activity.mp_left = if joins { 0 } else { speed };
            f.activity.start = Some(to);
        }
        self.rebuild_occupancy();
        self.arrive(to, &[unit]);
        if joins {
            self.engage_from(to, &[unit]);
        }
        Ok(())
    }

    /// S-ARMY-7, S-ARMY-15: retreat of engaged pieces, an army only as a whole, up to 10 hexes.
    pub fn retreat(&mut self, moves: &[(Piece, Vec<HexAt>)]) -> Result<(), OrderError> {
        if moves.is_empty() {
            return Err(OrderError::Retreat(Msg::new("gwe.army.nothing_retreats")));
        }
        let mut armies: Vec<FormationId> = Vec::new();
        let mut pieces_units: Vec<(Vec<ForceId>, Vec<HexAt>)> = Vec::new();
        for (piece, path) in moves {
            let (power, units) = self.piece_units(*piece)?;
            if power != self.active_power() {
                return Err(OrderError::NotYours(self.piece_name(*piece)));
            }
            let first = units.first().and_then(|u| self.force(*u)).ok_or(OrderError::EmptyPath)?;
            if let Piece::Unit(u) = piece
                && first.member.corps.is_some()
            {
                return Err(OrderError::TakesOrdersFromFormation(self.name(*u)));
            }
            if let Some(a) = first.member.army
                && !armies.contains(&a)
            {
                armies.push(a);
            }
            let at = first.hex().ok_or_else(|| OrderError::OffMap(self.name(first.id)))?;
            if !self.next_to_enemy(power, at) {
                return Err(OrderError::Retreat(Msg::new("gwe.army.not_engaged").hex("at", at)));
            }
            // S-ARMY-15: a defender retreats at most 10 hexes; an attacker going back to where it
            // began the turn of its attack came from there in one move, at most its speed away.
            let free = self.returns_to_attack_start(&units, path.last().copied());
            let max = if free { RETREAT_HEXES.max(self.group_speed(&units) as usize) } else { RETREAT_HEXES };
            if path.is_empty() || path.len() > max {
                return Err(OrderError::Retreat(Msg::new("gwe.army.retreat_length").arg("max", RETREAT_HEXES)));
            }
            let mut prev = at;
            for h in path {
                if !prev.is_adjacent(*h) {
                    return Err(OrderError::NotAdjacent { from: prev, to: *h });
                }
                if !self.map().is_land(*h) {
                    return Err(OrderError::Water(*h));
                }
                if self.enemy_on(power, *h) {
                    return Err(OrderError::EnemyHex(*h));
                }
                self.check_neutral_land(power, *h)?;
                prev = *h;
            }
            pieces_units.push((units, path.clone()));
        }
        // S-ARMY-7: every engaged corps of the army goes, and every division of it on the map
        // outside its corps (a reserve committed to its fight, S-ARMY-8).
        for a in &armies {
            let corps = self.formation(*a).map(|f| f.corps.clone()).unwrap_or_default();
            for c in corps {
                let listed = moves.iter().any(|(p, _)| *p == Piece::Corps(c));
                let on_map = self.piece_hex(Piece::Corps(c)).is_some();
                if on_map && !listed {
                    return Err(OrderError::Retreat(Msg::new("gwe.army.retreat_whole").arg("corps", c)));
                }
            }
            let loose: Vec<ForceId> = self
                .forces
                .iter()
                .filter(|f| {
                    f.member.army == Some(*a) && f.member.corps.is_none() && f.on_map() && f.kind.is_combatant()
                })
                .map(|f| f.id)
                .collect();
            for u in loose {
                if !moves.iter().any(|(p, _)| *p == Piece::Unit(u)) {
                    return Err(OrderError::Retreat(Msg::new("gwe.army.retreat_whole_unit").arg("name", self.name(u))));
                }
            }
        }
        let mut ends: Vec<HexAt> = Vec::new();
        for (units, path) in &pieces_units {
            let end = *path.last().unwrap_or(&HexAt::new(0, 0));
            if ends.contains(&end)
                || self.at(end).iter().any(|u| !units.contains(u) && !pieces_units.iter().any(|(us, _)| us.contains(u)))
            {
                return Err(OrderError::Occupied(end));
            }
            ends.push(end);
        }
        for (units, path) in pieces_units {
            let end = *path.last().unwrap_or(&HexAt::new(0, 0));
            // An attacker returning to its start hexes goes freely; a defender pays (S-ARMY-15).
            let free = self.returns_to_attack_start(&units, Some(end));
            for u in &units {
                if let Some(f) = self.force_mut(*u) {
                    f.place = Place::Map(end);
                    f.activity.mp_left = 0;
                    f.front.front = None;
                    f.front.attack_from = None;
                }
                if !free {
                    self.change_morale(*u, -1);
                }
            }
            if !free {
                let corps = units.first().and_then(|u| self.force(*u)).and_then(|f| f.member.corps);
                let lost: Vec<ForceId> = self
                    .forces
                    .iter()
                    .filter(|f| matches!(f.place, Place::Attached(x) if Some(x) == corps || armies.contains(&x)))
                    .map(|f| f.id)
                    .collect();
                for g in lost {
                    self.destroy(g, Msg::new("gwe.army.artillery_lost_in_retreat"));
                }
            }
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new(if free { "gwe.army.retreat_to_start" } else { "gwe.army.retreat_morale" })
                    .arg("n", units.len())
                    .hex("at", end),
            });
        }
        self.rebuild_occupancy();
        self.check_losses(false);
        Ok(())
    }

    /// S-ARMY-15: whether every unit of a retreating piece attacked and goes back to the hex it
    /// began the turn of its attack on («наступающая армия может вернуться на исходные позиции
    /// без штрафа»): such a withdrawal, in the same turn or a later one, costs nothing.
    fn returns_to_attack_start(&self, units: &[ForceId], end: Option<HexAt>) -> bool {
        end.is_some()
            && !units.is_empty()
            && units
                .iter()
                .all(|u| self.force(*u).is_some_and(|f| f.front.attack_from.is_some() && f.front.attack_from == end))
    }

    /// S-ARMY-12…14 after combat: an army whose front divisions are all gone is destroyed or
    /// dissolves, as the larger group of its lost divisions says (tie: destroyed).
    pub fn army_fates(&mut self) {
        let armies: Vec<FormationId> =
            self.formations.iter().filter(|f| f.kind == FormationKind::Army).map(|f| f.id).collect();
        for a in armies {
            let members: Vec<ForceId> = self
                .forces
                .iter()
                .filter(|f| f.member.army == Some(a) && f.kind.is_combatant())
                .map(|f| f.id)
                .collect();
            let front_left = members.iter().any(|u| self.force(*u).is_some_and(|f| f.on_map()));
            let lost: Vec<Place> = members
                .iter()
                .filter_map(|u| self.force(*u))
                .filter(|f| matches!(f.place, Place::Destroyed | Place::Dispersed))
                .map(|f| f.place)
                .collect();
            if front_left || lost.is_empty() {
                continue;
            }
            let destroyed = lost.iter().filter(|p| **p == Place::Destroyed).count();
            let dispersed = lost.len() - destroyed;
            let is_destroyed = destroyed >= dispersed;
            let name = self.formation(a).map(|f| f.name.clone()).unwrap_or_default();
            let rest: Vec<ForceId> = self
                .forces
                .iter()
                .filter(|f| matches!(f.place, Place::Reserve(x) | Place::Attached(x) if x == a || self.formation(a).is_some_and(|fa| fa.corps.contains(&x))))
                .map(|f| f.id)
                .collect();
            let last_hex = members.iter().filter_map(|u| self.force(*u)).filter_map(|f| f.activity.start).min();
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::ArmyEnd { army: a, destroyed: is_destroyed },
                line: Msg::new(if is_destroyed { "gwe.army.army_destroyed" } else { "gwe.army.army_dissolves" })
                    .arg("name", name),
            });
            self.army_aviation_fate(a, is_destroyed, last_hex);
            for u in rest {
                let artillery = self.force(u).is_some_and(|f| f.kind.is_artillery());
                if is_destroyed {
                    if artillery {
                        self.destroy(u, Msg::new("gwe.army.its_army_destroyed"));
                    } else {
                        self.disperse(u, Msg::new("gwe.army.its_army_destroyed"));
                    }
                } else {
                    self.independent_retreat(u, last_hex);
                }
            }
            for f in &mut self.forces {
                if f.member.army == Some(a) {
                    f.member.army = None;
                }
            }
            let corps = self.formation(a).map(|f| f.corps.clone()).unwrap_or_default();
            self.formations.retain(|f| f.id != a && !corps.contains(&f.id));
            for f in &mut self.forces {
                if f.member.corps.is_some_and(|c| corps.contains(&c)) {
                    f.member.corps = None;
                }
            }
        }
        self.rebuild_occupancy();
    }

    /// S-ARMY-13 resolution: an independent unit appears on the free land hex nearest `near` and
    /// retreats its full movement to the reachable hex farthest from the nearest enemy.
    fn independent_retreat(&mut self, u: ForceId, near: Option<HexAt>) {
        let Some(f) = self.force(u).cloned() else { return };
        let Some(near) = near else {
            self.disperse(u, Msg::new("gwe.army.no_hex_to_retreat_from"));
            return;
        };
        let mut start = None;
        for r in 0..30u32 {
            let mut ring: Vec<HexAt> = near
                .hex()
                .ring(r)
                .map(HexAt::from_hex)
                .filter(|h| self.map().is_land(*h) && self.at(*h).is_empty())
                .collect();
            ring.sort();
            if let Some(h) = ring.into_iter().find(|h| !self.next_to_enemy(f.power, *h)) {
                start = Some(h);
                break;
            }
        }
        let Some(start) = start else {
            self.disperse(u, Msg::new("gwe.army.no_free_hex_to_retreat_to"));
            return;
        };
        if let Some(g) = self.force_mut(u) {
            g.place = Place::Map(start);
            g.activity.mp_left = 0;
        }
        self.rebuild_occupancy();
        let enemies: Vec<HexAt> =
            self.forces.iter().filter(|e| self.hostile(e.power, f.power)).filter_map(|e| e.hex()).collect();
        let speed = self.speed(f.kind);
        let reach = self.reachable(f.power, &[u], start, speed);
        let best = reach
            .iter()
            .filter(|(h, _, _)| *h == start || self.at(*h).is_empty())
            .map(|(h, _, _)| (enemies.iter().map(|e| e.distance(*h)).min().unwrap_or(u32::MAX), *h))
            .max_by_key(|(d, h)| (*d, std::cmp::Reverse(*h)))
            .map(|(_, h)| h)
            .unwrap_or(start);
        if let Some(g) = self.force_mut(u) {
            g.place = Place::Map(best);
            g.member.army = None;
        }
        self.rebuild_occupancy();
        let name = self.name(u);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.army.unit_retreats").arg("name", name).hex("at", best),
        });
    }

    /// S-ARMY-4: an army's frontage in hexes: one per infantry division it has on the map, and
    /// never under one per corps it has there (a corps may hold one hex).
    pub fn army_frontage(&self, army: FormationId) -> u32 {
        let units: Vec<&super::state::Force> =
            self.formation_units(army).iter().filter_map(|u| self.force(*u)).filter(|f| f.on_map()).collect();
        let infantry = units.iter().filter(|f| matches!(f.kind, ForceKind::Infantry { .. })).count();
        let mut corps: Vec<FormationId> = units.iter().filter_map(|f| f.member.corps).collect();
        corps.sort();
        corps.dedup();
        u32::try_from(infantry.max(corps.len())).unwrap_or(u32::MAX)
    }

    /// How far apart the two farthest hexes of an army stand (0 for one hex or none).
    pub fn army_spread(&self, army: FormationId) -> u32 {
        spread(&self.formation_hexes(army))
    }

    /// S-ARMY-4: whether the army would stand within its frontage and depth with the corps in
    /// `placed` on the hexes given there (the rest of it where it stands): the query the staff
    /// asks before it orders an army's move; a `MoveArmy` order is judged by the same rule.
    pub fn check_army_frontage(&self, army: FormationId, placed: &[(FormationId, HexAt)]) -> Result<(), OrderError> {
        let mut after: Vec<HexAt> = self
            .formation_units(army)
            .iter()
            .filter_map(|u| self.force(*u))
            .filter_map(|f| {
                let moved = f.member.corps.and_then(|c| placed.iter().find(|(p, _)| *p == c)).map(|(_, h)| *h);
                moved.or_else(|| f.hex())
            })
            .collect();
        after.sort();
        after.dedup();
        self.frontage_verdict(army, &self.formation_hexes(army), &after)
    }

    /// S-ARMY-4: an army's hexes must fit in a block of its frontage along the front and
    /// [`ARMY_DEPTH_HEXES`] deep (house rule: the block's sides run along the map's rows and
    /// columns or along the hex grid's axes, either way round, as the engine does not know which
    /// way the front runs), unless it stood outside such a block before and draws no farther
    /// apart (its two farthest hexes).
    fn frontage_verdict(&self, army: FormationId, before: &[HexAt], after: &[HexAt]) -> Result<(), OrderError> {
        let frontage = self.army_frontage(army);
        if fits_block(after, frontage, ARMY_DEPTH_HEXES) {
            return Ok(());
        }
        if !fits_block(before, frontage, ARMY_DEPTH_HEXES) && spread(after) <= spread(before) {
            return Ok(());
        }
        let name = self.formation(army).map(|f| f.name.clone()).unwrap_or_default();
        Err(OrderError::Organization(
            Msg::new("gwe.army.frontage").arg("name", name).arg("frontage", frontage).arg("depth", ARMY_DEPTH_HEXES),
        ))
    }

    /// S-ARMY-4: after an army's move (its hexes `before` it were these): see [`Self::frontage_verdict`].
    pub fn check_frontage(&self, army: FormationId, before: &[HexAt]) -> Result<(), OrderError> {
        self.frontage_verdict(army, before, &self.formation_hexes(army))
    }

    /// S-ART-5: three artillery divisions on or next to the first one's hex form a battery there.
    pub fn form_battery(&mut self, units: [ForceId; 3]) -> Result<(), OrderError> {
        let first = self.own_unit(units[0])?.hex().ok_or_else(|| OrderError::OffMap(self.name(units[0])))?;
        for (i, u) in units.iter().enumerate() {
            let f = self.own_unit(*u)?;
            if units[..i].contains(u) || !f.kind.is_artillery() || f.member.battery.is_some() {
                return Err(OrderError::Organization(Msg::new("gwe.army.battery_members")));
            }
            if f.hex().is_none_or(|h| h.distance(first) > 1) {
                return Err(OrderError::Organization(
                    Msg::new("gwe.army.not_next_to_hex").arg("name", self.name(*u)).hex("at", first),
                ));
            }
        }
        let id = *units.iter().min().unwrap_or(&units[0]);
        let movers = self.stepping_onto(first, &units);
        for u in units {
            if let Some(f) = self.force_mut(u) {
                f.place = Place::Map(first);
                f.member.battery = Some(id);
                f.activity.mp_left = 0;
            }
        }
        self.rebuild_occupancy();
        self.organisational_step(first, &movers);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.army.battery_formed").hex("at", first),
        });
        Ok(())
    }

    /// The speed of a group of units: the slowest one's (S-ARMY-1, S-ART-5).
    pub fn group_speed(&self, units: &[ForceId]) -> u32 {
        units.iter().filter_map(|u| self.force(*u)).map(|f| self.speed(f.kind)).min().unwrap_or(0)
    }

    /// Whether `power` may still use the kind of a unit (tanks need their technology and turn 4).
    pub fn kind_allowed(&self, power: PowerId, kind: ForceKind) -> bool {
        match kind {
            ForceKind::Tank { .. } => self.powers[usize::from(power.0)].techs.tanks,
            _ => true,
        }
    }
}

/// How far apart the two farthest of `hexes` stand (0 for one hex or none).
fn spread(hexes: &[HexAt]) -> u32 {
    hexes.iter().flat_map(|a| hexes.iter().map(move |b| a.distance(*b))).max().unwrap_or(0)
}

/// S-ARMY-4: whether `hexes` fit in a block `front` hexes long and `depth` hexes deep, its sides
/// along the map's rows and columns (columns as the map draws them) or along two of the hex
/// grid's three axes (a parallelogram), either side along the front.
pub fn fits_block(hexes: &[HexAt], front: u32, depth: u32) -> bool {
    let (Some(first), true) = (hexes.first(), front > 0 && depth > 0) else { return true };
    let long = i64::from(front.max(depth)) - 1;
    let short = i64::from(front.min(depth)) - 1;
    let extent = |key: &dyn Fn(&HexAt) -> i64| {
        let (lo, hi) = hexes.iter().map(key).fold((key(first), key(first)), |(lo, hi), k| (lo.min(k), hi.max(k)));
        hi - lo
    };
    let (cols, rows) = (extent(&|h| i64::from(h.col)), extent(&|h| i64::from(h.row)));
    let rectangle = (cols <= long && rows <= short) || (cols <= short && rows <= long);
    let q = extent(&|h| i64::from(h.hex().x));
    let r = extent(&|h| i64::from(h.hex().y));
    let s = extent(&|h| -i64::from(h.hex().x) - i64::from(h.hex().y));
    let mut axes = [q, r, s];
    axes.sort_unstable();
    rectangle || (axes[0] <= short && axes[1] <= long)
}
