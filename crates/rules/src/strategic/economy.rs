//! What a power buys (issue 12, MD-S5 prices in `great_war_rules.ron`): new divisions of both
//! classes (mountain S-LAND-5, elite S-LAND-6), cavalry (S-LAND-8), tank battalions (S-LAND-9),
//! heavy artillery (S-ART-1), ships (S-NAVAL-1), air squadrons (S-AIR), gas shells and cylinders
//! (S-CHEM-1, S-CHEM-3); devastation (S-CITY-2) and uprisings (S-CITY-3) in Upkeep.
//!
//! House rule: a purchase is made in the power's part of the Movement phase and the new unit
//! appears at once on the named free hex of a city in a province the power owns and controls
//! (for a ship: a port hex of such a city), with no movement left this turn.

use super::event::{Event, EventKind};
use super::fire::{GAS_FROM_TURN, TANKS_FROM_TURN};
use super::hexmap::{HexAt, flag};
use super::naval::{Fleet, Ship, ShipType, Squadron};
use super::order::OrderError;
pub use super::purchase::{Conversion, PurchaseError, Recruit};
use super::state::{
    Activity, Ctx, Force, ForceId, ForceKind, FrontLine, Membership, Place, PowerId, SupplyState, Tech, Vitals,
};
use super::tables::{Model, Price, Purchases};
use crate::texts::{Msg, NAME};

/// What a recruit is, in words of the tables: the `what` of its event and of its refusals.
pub fn recruit_words(r: &Recruit) -> Msg {
    match r {
        Recruit::Infantry { mountain: true, elite: true, .. } => Msg::new("gwe.econ.buy.elite_mountain_infantry"),
        Recruit::Infantry { mountain: true, .. } => Msg::new("gwe.econ.buy.mountain_infantry"),
        Recruit::Infantry { elite: true, .. } => Msg::new("gwe.econ.buy.elite_infantry"),
        Recruit::Infantry { class, .. } => Msg::new("gwe.econ.buy.infantry").arg("class", class),
        Recruit::Cavalry { class } => Msg::new("gwe.econ.buy.cavalry").arg("class", class),
        Recruit::Tank(name) => Msg::new("gwe.econ.buy.tank").arg("name", name),
        Recruit::Artillery(name) => Msg::new("gwe.econ.buy.artillery").arg("name", name),
        Recruit::Ship(kind) => Msg::new("gwe.econ.buy.ship").msg("ship", Msg::new(kind.key())),
        Recruit::Squadron(kind) => Msg::new("gwe.econ.buy.squadron").arg("kind", kind),
    }
}

impl Ctx {
    /// The name of a unit raised in the game (scenario units have theirs in the static data).
    pub fn raised_name(&self, id: ForceId) -> String {
        self.raised_msg(id).english()
    }

    /// The name of a unit raised in the game in the tables' words, for the reader's language.
    pub fn raised_msg(&self, id: ForceId) -> Msg {
        let Some(f) = self.force(id) else { return Msg::new("gwe.unit.unknown") };
        let kind = match f.kind {
            ForceKind::Infantry { .. } => Msg::new("gwe.unit.infantry"),
            ForceKind::Cavalry { .. } => Msg::new("gwe.unit.cavalry"),
            ForceKind::Tank { tank } => Msg::new(NAME)
                .arg("name", self.scenario().units.tanks.get(usize::from(tank)).map_or("", |t| t.name.as_str())),
            ForceKind::Artillery { gun } => Msg::new(NAME)
                .arg("name", self.scenario().units.guns.get(usize::from(gun)).map_or("", |g| g.name.as_str())),
        };
        // Issue 27: no ID in a name: its number among its power's units of the same kind that
        // have no name of their own, in the order they came (units stay listed when lost, so a
        // number never changes).
        let unnamed = |g: &super::state::Force| {
            g.power == f.power
                && std::mem::discriminant(&g.kind) == std::mem::discriminant(&f.kind)
                && self.statics.names.binary_search_by_key(&g.id, |(i, _)| *i).is_err()
        };
        let n = self.forces.iter().filter(|g| g.id <= id && unnamed(g)).count();
        Msg::new("gwe.unit.numbered").msg("kind", kind).arg("n", n)
    }

    fn purchases(&self) -> Result<Purchases, OrderError> {
        self.scenario()
            .rules
            .purchases
            .clone()
            .ok_or_else(|| PurchaseError::NotForSale(Msg::new("gwe.econ.buy.anything")).into())
    }

    /// Takes money, refusing when the treasury is short.
    fn charge(&mut self, power: PowerId, price: i64, what: &Msg) -> Result<(), PurchaseError> {
        let left = self.powers[usize::from(power.0)].money;
        if left < price {
            return Err(PurchaseError::Money { what: what.clone(), price, left });
        }
        self.powers[usize::from(power.0)].money -= price;
        Ok(())
    }

    /// Manpower of class `class` (1 or 2) needed, or any class (class 2 first) when `None`.
    fn manpower_class(&self, power: PowerId, class: Option<u8>, need: u32, what: &Msg) -> Result<u8, PurchaseError> {
        let stock = self.powers[usize::from(power.0)].manpower;
        let tries: &[u8] = match class {
            Some(1) => &[1],
            Some(2) => &[2],
            Some(_) => return Err(PurchaseError::Class),
            None => &[2, 1],
        };
        tries.iter().copied().find(|c| stock[usize::from(c - 1)] >= need).ok_or(PurchaseError::Manpower {
            what: what.clone(),
            class: tries[0],
            need,
            left: stock[usize::from(tries[0] - 1)],
        })
    }

    /// Whether `at` is a free hex of a city in a province `power` owns and controls (`port`: a port hex).
    /// Whether a purchase may appear at `at`: a land unit on a free land hex of an own city that
    /// the power holds, a ship at a port of one, a squadron based at an own held city (others may
    /// stand on its hex).
    pub fn recruit_place_ok(&self, power: PowerId, r: &Recruit, at: HexAt) -> bool {
        match r {
            Recruit::Ship(_) => self.own_city_hex(power, at, true),
            Recruit::Squadron(_) => {
                self.map().cell(at).is_some_and(|c| c.has(flag::CITY))
                    && self.province_at(at).is_some_and(|pi| {
                        self.province_owner(pi) == Some(power) && self.provinces[pi].occupier.is_none()
                    })
            }
            _ => self.own_city_hex(power, at, false) && self.map().is_land(at),
        }
    }

    /// Every hex where a purchase of `power` may appear now (the app shows them while it waits
    /// for the click), in hex order.
    pub fn recruit_places(&self, power: PowerId, r: &Recruit) -> Vec<HexAt> {
        let mut hexes: Vec<HexAt> = self
            .map()
            .cities
            .iter()
            .flat_map(|c| c.hexes.iter().copied())
            .filter(|h| self.recruit_place_ok(power, r, *h))
            .collect();
        hexes.sort();
        hexes.dedup();
        hexes
    }

    pub fn own_city_hex(&self, power: PowerId, at: HexAt, port: bool) -> bool {
        let Some(cell) = self.map().cell(at) else { return false };
        let Some(city) = usize::from(cell.city).checked_sub(1).and_then(|c| self.map().cities.get(c)) else {
            return false;
        };
        let Some(pi) = self.map().province_index(&city.province) else { return false };
        let owned = self.province_owner(pi) == Some(power) && self.provinces[pi].occupier.is_none();
        owned && (!port || cell.has(flag::PORT)) && (port || self.at(at).is_empty())
    }

    /// The price of a land recruit: money, manpower, class (`None`: any), kind.
    fn land_recruit(
        &self,
        power: PowerId,
        r: &Recruit,
        p: &Purchases,
    ) -> Result<(Price, Option<u8>, ForceKind), OrderError> {
        let e = &self.scenario().rules.economy;
        let spec = &self.scenario().powers[usize::from(power.0)];
        let division = Price { money: e.division, manpower: e.division_manpower };
        Ok(match r {
            Recruit::Infantry { class, mountain, elite } => {
                if !(1..=2).contains(class) || ((*mountain || *elite) && *class != 1) {
                    return Err(PurchaseError::Class.into());
                }
                if *mountain && !p.mountain_powers.contains(&spec.id) {
                    return Err(PurchaseError::Mountain {
                        what: Msg::new("gwe.econ.buy.mountain_kind"),
                        power: Msg::named(format!("gw.power.{}", spec.id), spec.name.clone()),
                    }
                    .into());
                }
                if *elite {
                    self.elite_room(power, false)?;
                }
                let extra = if *mountain { p.mountain_extra } else { 0 } + if *elite { p.elite_extra } else { 0 };
                let kind = ForceKind::Infantry {
                    group: spec.group,
                    model: Model::M1914,
                    class: *class,
                    mountain: *mountain,
                    elite: *elite,
                    colonial: false,
                };
                (Price { money: division.money.saturating_add(extra), ..division }, Some(*class), kind)
            }
            Recruit::Cavalry { class } => {
                if !(1..=2).contains(class) {
                    return Err(PurchaseError::Class.into());
                }
                (p.cavalry, Some(*class), ForceKind::Cavalry { class: *class, model: Model::M1914, elite: false })
            }
            Recruit::Tank(name) => {
                // S-LAND-9, S-TURN-1: the technology, from turn 4.
                if self.clock.turn < TANKS_FROM_TURN {
                    return Err(OrderError::TooEarly { what: Msg::new(Tech::Tanks.key()), from: TANKS_FROM_TURN });
                }
                if !self.powers[usize::from(power.0)].techs.tanks {
                    return Err(OrderError::NoTech {
                        what: Msg::new("gwe.econ.buy.tank_battalion"),
                        tech: Tech::Tanks,
                    });
                }
                let t = self.scenario().units.tank(name);
                let ok = t.filter(|i| self.scenario().units.tanks[*i].countries.contains(&spec.id));
                let i = ok.ok_or_else(|| PurchaseError::NotForSale(recruit_words(r)))?;
                (p.tank, None, ForceKind::Tank { tank: i as u16 })
            }
            Recruit::Artillery(name) => {
                let g = self.scenario().units.gun(name);
                let ok = g.filter(|i| self.scenario().units.guns[*i].country == spec.id);
                let i = ok.ok_or_else(|| PurchaseError::NotForSale(recruit_words(r)))?;
                (p.artillery, None, ForceKind::Artillery { gun: i as u16 })
            }
            // Bought at a port or an airfield city: `buy_ship`, `buy_squadron`.
            Recruit::Ship(_) | Recruit::Squadron(_) => {
                return Err(PurchaseError::NotForSale(Msg::new("gwe.econ.buy.not_land")).into());
            }
        })
    }

    /// What a land unit of `kind` costs new, the price S-LOSS-1 halves and S-LOSS-2 shares out:
    /// a division's price and manpower, with the mountain and elite extras (S-LAND-5, S-LAND-6);
    /// cavalry, tank battalions and heavy artillery at their own prices (S-LAND-8, S-LAND-9,
    /// S-ART-1). The rules of a format-1 save have no price list: every unit costs a division there.
    /// No price has an industry or ammunition part (MD-S5), so restoring takes none.
    pub fn unit_price(&self, kind: ForceKind) -> Price {
        let e = &self.scenario().rules.economy;
        let division = Price { money: e.division, manpower: e.division_manpower };
        let Some(p) = self.scenario().rules.purchases.as_ref() else { return division };
        match kind {
            ForceKind::Infantry { mountain, elite, .. } => {
                let mountain_extra = if mountain { p.mountain_extra } else { 0 };
                let elite_extra = if elite { p.elite_extra } else { 0 };
                Price { money: division.money.saturating_add(mountain_extra).saturating_add(elite_extra), ..division }
            }
            // S-LAND-8: elite cavalry as elite infantry.
            ForceKind::Cavalry { elite, .. } => {
                Price { money: p.cavalry.money.saturating_add(if elite { p.elite_extra } else { 0 }), ..p.cavalry }
            }
            ForceKind::Tank { .. } => p.tank,
            ForceKind::Artillery { .. } => p.artillery,
        }
    }

    /// S-LAND-6: no more elite units of an arm (infantry, or cavalry by S-LAND-8) that are not
    /// destroyed than the power started with: a lost one may be re-created.
    fn elite_room(&self, power: PowerId, cavalry: bool) -> Result<(), PurchaseError> {
        let name = &self.scenario().powers[usize::from(power.0)].id;
        let limit = self
            .scenario()
            .forces
            .iter()
            .filter(|f| &f.power == name)
            .filter(|f| match f.kind {
                super::scenario::KindSpec::Infantry { elite: true, .. } => !cavalry,
                super::scenario::KindSpec::Cavalry { elite: true, .. } => cavalry,
                _ => false,
            })
            .count();
        let now = self
            .forces
            .iter()
            .filter(|f| f.power == power && f.kind.is_elite() && f.place != Place::Destroyed)
            .filter(|f| matches!(f.kind, ForceKind::Cavalry { .. }) == cavalry)
            .count();
        if now >= limit {
            return Err(PurchaseError::EliteLimit { limit });
        }
        Ok(())
    }

    /// Converts a regular class-1 division (S-LAND-5, S-LAND-6): into mountain infantry, for a
    /// power that may raise it; into an elite unit of its arm while the power has fewer than it
    /// started with. It keeps its model (1914, or 1916 after the upgrade), its Health lost and its
    /// place, and takes the class-1 values with the bonus of its new kind. House price: what the
    /// new kind costs more than a class-1 division when raised (`purchases.mountain_extra`,
    /// `purchases.elite_extra`); no manpower, as the division's men are class 1 already.
    pub fn convert(&mut self, unit: ForceId, to: Conversion) -> Result<(), OrderError> {
        let power = self.active_power();
        let p = self.purchases()?;
        let f = self.force(unit).ok_or(OrderError::NoUnit(unit))?.clone();
        if f.power != power {
            return Err(OrderError::NotYours(self.name(unit)));
        }
        if !f.present() {
            return Err(OrderError::OffMap(self.name(unit)));
        }
        let regular = |what: &'static str| {
            OrderError::Economy(
                Msg::new("gwe.econ.convert_regular").arg("name", self.name(unit)).msg("what", Msg::new(what)),
            )
        };
        let (kind, price, what) = match (to, f.kind) {
            (
                Conversion::Mountain,
                ForceKind::Infantry { group, model, class: 1, mountain: false, elite: false, colonial },
            ) => {
                let spec = &self.scenario().powers[usize::from(power.0)];
                if !p.mountain_powers.contains(&spec.id) {
                    return Err(PurchaseError::Mountain {
                        what: Msg::new("gwe.econ.buy.mountain_kind"),
                        power: Msg::named(format!("gw.power.{}", spec.id), spec.name.clone()),
                    }
                    .into());
                }
                let kind = ForceKind::Infantry { group, model, class: 1, mountain: true, elite: false, colonial };
                (kind, p.mountain_extra, Msg::new("gwe.econ.buy.mountain_infantry"))
            }
            (
                Conversion::Elite,
                ForceKind::Infantry { group, model, class: 1, mountain: false, elite: false, colonial },
            ) => {
                self.elite_room(power, false)?;
                let kind = ForceKind::Infantry { group, model, class: 1, mountain: false, elite: true, colonial };
                (kind, p.elite_extra, Msg::new("gwe.econ.buy.elite_infantry"))
            }
            (Conversion::Elite, ForceKind::Cavalry { model, class: 1, elite: false }) => {
                self.elite_room(power, true)?;
                (ForceKind::Cavalry { model, class: 1, elite: true }, p.elite_extra, Msg::new("gwe.econ.elite_cavalry"))
            }
            (Conversion::Mountain, _) => return Err(regular("gwe.econ.buy.mountain_infantry")),
            (Conversion::Elite, _) => return Err(regular("gwe.econ.elite_unit")),
        };
        self.charge(power, i64::from(price), &what)?;
        // Lost Health stays lost (the class-1 Health and Morale do not change).
        self.retype(unit, kind);
        let name = self.name_msg(unit);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.converted").msg("name", name).msg("what", what).arg("money", price),
        });
        Ok(())
    }

    /// Raises a unit at `at` (Movement phase).
    pub fn recruit(&mut self, r: &Recruit, at: HexAt) -> Result<(), OrderError> {
        let power = self.active_power();
        let p = self.purchases()?;
        let what = recruit_words(r);
        match r {
            Recruit::Ship(kind) => return self.buy_ship(power, *kind, at, &p),
            Recruit::Squadron(kind) => return self.buy_squadron(power, kind, at, &p),
            _ => {}
        }
        let (price, class, kind) = self.land_recruit(power, r, &p)?;
        let class = self.manpower_class(power, class, price.manpower, &what)?;
        if !self.recruit_place_ok(power, r, at) {
            return Err(PurchaseError::Place { what, at }.into());
        }
        self.charge(power, i64::from(price.money), &what)?;
        self.powers[usize::from(power.0)].manpower[usize::from(class - 1)] -= price.manpower;
        let id = ForceId(self.forces.last().map_or(1, |f| f.id.0 + 1));
        let s = self.stats(kind);
        let has_morale = !kind.is_artillery();
        self.forces.push(Force {
            id,
            power,
            kind,
            place: Place::Map(at),
            vitals: Vitals {
                health: s.health,
                max_health: s.health,
                morale: has_morale.then_some(s.morale),
                max_morale: has_morale.then_some(s.morale),
            },
            supply: SupplyState::default(),
            front: FrontLine::default(),
            activity: Activity { mp_left: 0, start: Some(at), ..Default::default() },
            member: Membership::default(),
        });
        self.rebuild_occupancy();
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.raises")
                .name("power", self.power_key(power), self.power_name(power))
                .msg("what", what)
                .msg("name", self.name_msg(id))
                .hex("at", at)
                .arg("money", price.money)
                .arg("manpower", price.manpower)
                .arg("class", class),
        });
        Ok(())
    }

    fn buy_ship(&mut self, power: PowerId, kind: ShipType, at: HexAt, p: &Purchases) -> Result<(), OrderError> {
        let what = recruit_words(&Recruit::Ship(kind));
        let price = p.ship(kind).ok_or_else(|| PurchaseError::NotForSale(what.clone()))?;
        if !self.recruit_place_ok(power, &Recruit::Ship(kind), at) {
            return Err(PurchaseError::Place { what, at }.into());
        }
        self.charge(power, i64::from(price), &what)?;
        let (ship, fleet) = (self.navy.next_ship, self.navy.next_fleet);
        self.navy.next_ship += 1;
        self.navy.next_fleet += 1;
        self.navy.ships.push(Ship {
            id: ship,
            power,
            kind,
            fleet,
            hits: 0,
            sunk: false,
            cargo: None,
            air_cargo: None,
            aim: None,
        });
        self.navy.fleets.push(Fleet {
            id: fleet,
            power,
            name: format!("{kind:?} {ship}"),
            at,
            mp_left: 0,
            intercept: false,
            withdraw: true,
            bombarded: false,
            laid_mine: false,
            sweeping: false,
            transports_first: false,
            patrol: None,
        });
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.commissions")
                .name("power", self.power_key(power), self.power_name(power))
                .msg("what", what)
                .arg("fleet", fleet)
                .hex("at", at)
                .arg("price", price),
        });
        Ok(())
    }

    fn buy_squadron(&mut self, power: PowerId, kind: &str, at: HexAt, p: &Purchases) -> Result<(), OrderError> {
        let what = recruit_words(&Recruit::Squadron(kind.to_string()));
        let t = self.scenario().aviation.get(kind).cloned().ok_or_else(|| PurchaseError::NotForSale(what.clone()))?;
        if !self.recruit_place_ok(power, &Recruit::Squadron(kind.to_string()), at) {
            return Err(PurchaseError::Place { what, at }.into());
        }
        self.charge(power, i64::from(p.squadron), &what)?;
        let id = self.navy.squadrons.iter().map(|s| s.id + 1).max().unwrap_or(1);
        self.navy.squadrons.push(Squadron {
            id,
            power,
            name: format!("{} {id}", t.name),
            base: at,
            recon: t.recon,
            radius: t.radius,
            bombing: t.bombing,
            aircraft: t.aircraft,
            flew: false,
            aboard: None,
            attached: None,
        });
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.raises_squadron")
                .name("power", self.power_key(power), self.power_name(power))
                .msg("what", what)
                .arg("name", format!("{} {id}", t.name))
                .hex("at", at)
                .arg("price", p.squadron),
        });
        Ok(())
    }

    /// S-CHEM-1, S-CHEM-3: chemical shells and gas cylinders, with the technology, from turn 3.
    pub fn buy_gas(&mut self, shells: u32, cylinders: u32) -> Result<(), OrderError> {
        let power = self.active_power();
        let p = self.purchases()?;
        if self.clock.turn < GAS_FROM_TURN {
            return Err(OrderError::TooEarly { what: Msg::new(Tech::Gas.key()), from: GAS_FROM_TURN });
        }
        if !self.powers[usize::from(power.0)].techs.gas {
            return Err(OrderError::NoTech { what: Msg::new("gwe.econ.buy.gas_supplies"), tech: Tech::Gas });
        }
        let price = i64::from(shells) * i64::from(p.gas_shell) + i64::from(cylinders) * i64::from(p.cylinder);
        let what = Msg::new("gwe.econ.buy.gas").arg("shells", shells).arg("cylinders", cylinders);
        self.charge(power, price, &what)?;
        let st = &mut self.powers[usize::from(power.0)];
        st.chem_shells = st.chem_shells.saturating_add(shells);
        st.cylinders = st.cylinders.saturating_add(cylinders);
        self.push(Event {
            turn: self.clock.turn,
            kind: EventKind::Note,
            line: Msg::new("gwe.econ.buys")
                .name("power", self.power_key(power), self.power_name(power))
                .msg("what", what)
                .arg("price", price),
        });
        Ok(())
    }

    /// S-CITY-2 house rule: a province is devastated for good when the city destruction on its
    /// capital's hexes reaches `occupation.devastation_destruction`, or its capital's fortress falls.
    pub fn devastation(&mut self) {
        let Some(rules) = self.scenario().rules.occupation else { return };
        for i in 0..self.provinces.len() {
            if self.provinces[i].devastated {
                continue;
            }
            let map = self.map();
            let Some(city) = map.city_index(&map.provinces[i].capital).map(|c| &map.cities[c]) else { continue };
            let (mut ruin, mut fortress) = (0u32, false);
            for h in &city.hexes {
                let s = self.hex_state(*h);
                ruin = ruin.saturating_add(s.city_destruction);
                fortress |= s.fortress_destroyed;
            }
            if ruin >= rules.devastation_destruction || fortress {
                let (name, name_ru) = (map.provinces[i].name.clone(), map.provinces[i].name_ru.clone());
                self.provinces[i].devastated = true;
                self.push(Event {
                    turn: self.clock.turn,
                    kind: EventKind::Note,
                    line: Msg::new("gwe.econ.devastated").local("province", name, name_ru),
                });
            }
        }
    }

    /// S-CITY-3 house rule: in each occupied province (not ceded by treaty, province order) whose
    /// occupier has fewer than `uprising_garrison` land units of its alliance within
    /// `uprising_radius` hexes of the capital, a d6 of at least `uprising_roll` raises the people:
    /// the troops in the capital are dispersed and the sovereign regains the province.
    pub fn uprisings(&mut self) {
        let Some(rules) = self.scenario().rules.occupation else { return };
        for i in 0..self.provinces.len() {
            let Some(occ) = self.provinces[i].occupier else { continue };
            let map = self.map();
            let Some(city) = map.city_index(&map.provinces[i].capital).map(|c| map.cities[c].clone()) else { continue };
            let near = |h: HexAt| city.hexes.iter().any(|c| c.distance(h) <= rules.uprising_radius);
            let side = self.alliance(occ);
            let garrison =
                self.forces.iter().filter(|f| self.alliance(f.power) == side && f.hex().is_some_and(near)).count();
            if garrison >= rules.uprising_garrison as usize {
                continue;
            }
            let pips = self.dice.d6();
            let (name, name_ru) = (self.map().provinces[i].name.clone(), self.map().provinces[i].name_ru.clone());
            let rises = pips >= rules.uprising_roll;
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new(if rises { "gwe.econ.uprising_rises" } else { "gwe.econ.uprising_fails" })
                    .local("province", &name, &name_ru)
                    .arg("pips", pips)
                    .arg("roll", rules.uprising_roll),
            });
            if !rises {
                continue;
            }
            let mut out: Vec<ForceId> = city.hexes.iter().flat_map(|h| self.at(*h).to_vec()).collect();
            out.sort();
            for u in out {
                self.disperse(u, Msg::new("gwe.econ.uprising_driven_out"));
            }
            self.provinces[i].occupier = None;
            let owner = self.province_owner(i);
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Occupied { province: self.map().provinces[i].id.clone(), by: None },
                line: Msg::new("gwe.econ.regains_after_uprising")
                    .name(
                        "power",
                        owner.map_or_else(String::new, |o| self.power_key(o)),
                        owner.map_or("?", |o| self.power_name(o)),
                    )
                    .local("province", name, name_ru),
            });
        }
    }
}
