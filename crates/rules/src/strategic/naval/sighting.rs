//! Who has found whose submarines (S-AIR-1, and the house rule of S-SUB-5). The engine referees
//! with the whole sea in view, but it says which enemy flotillas a power has detected: only those
//! may be attacked by its flotillas (S-SUB-5), and only those a scene shows to a watching enemy.
//!
//! Both causes are read from the state as it stands, so nothing new is stored (saves keep their
//! hashes): reconnaissance flies only in the Fire phase and no fleet sails after it in a turn, so
//! the flotillas in a squadron's radius from then to the turn's end are the ones its flight found;
//! sharing a sea area lasts as long as the flotillas stay there. An order that finds one throws a
//! [`EventKind::Sighted`] event, so a player cannot take back a move that showed it.

use super::model::{FleetId, SquadronId};
use crate::strategic::event::{Event, EventKind};
use crate::strategic::hexmap::HexAt;
use crate::strategic::state::{Ctx, Phase, PowerId};
use crate::texts::Msg;

/// Why a power has detected an enemy flotilla.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// One of the power's reconnaissance squadrons flew this turn with the flotilla within its
    /// radius (S-AIR-1: "all submarines within the radius of the reconnaissance become open to
    /// attack this turn").
    Reconnaissance(SquadronId),
    /// One of the power's own flotillas lies in the same sea area (house rule to S-SUB-5: the
    /// sources let submarines attack submarines without aviation but say nothing of how they find
    /// them; the sea area is the sources' own unit of submarine warfare, for sea lanes and mines).
    SameSeaArea(FleetId),
}

impl Ctx {
    /// Whether and why `power` has detected the enemy flotilla `flotilla` (S-AIR-1, S-SUB-5 house
    /// rule); `None` for a fleet that is no afloat enemy flotilla.
    pub fn detection(&self, power: PowerId, flotilla: FleetId) -> Option<Detection> {
        let f = self.navy.fleet(flotilla)?;
        if !self.navy.is_flotilla(flotilla) || !self.hostile(power, f.power) {
            return None;
        }
        // `flew` is cleared when the next Movement phase begins: in Preparation it is last turn's.
        let this_turn = matches!(self.clock.phase, Phase::Fire | Phase::Combat | Phase::Upkeep);
        let found = self.navy.squadrons.iter().find(|s| {
            this_turn
                && s.power == power
                && s.recon
                && s.flew
                && s.aboard.is_none()
                && self.squadron_distance(s, f.at) <= s.radius
        });
        if let Some(s) = found {
            return Some(Detection::Reconnaissance(s.id));
        }
        let area = self.sea_area_index(f.at)?;
        self.navy
            .fleets
            .iter()
            .find(|o| o.power == power && self.sea_area_index(o.at) == Some(area) && self.navy.is_flotilla(o.id))
            .map(|o| Detection::SameSeaArea(o.id))
    }

    /// Whether `power` has detected the enemy flotilla (see [`Ctx::detection`]).
    pub fn detects(&self, power: PowerId, flotilla: FleetId) -> bool {
        self.detection(power, flotilla).is_some()
    }

    /// The sea area of a hex, if it lies in one.
    fn sea_area_index(&self, at: HexAt) -> Option<u16> {
        self.map().cell(at).and_then(|c| c.sea_area.checked_sub(1))
    }

    /// S-SUB-5 house rule: a flotilla that ends its move in a sea area detects the enemy
    /// flotillas there; each is reported by a `Sighted` event.
    pub(super) fn report_detections(&mut self, mover: FleetId) {
        let Some(m) = self.navy.fleet(mover).cloned() else { return };
        if !self.navy.is_flotilla(mover) {
            return;
        }
        let Some(area) = self.sea_area_index(m.at) else { return };
        let found: Vec<(FleetId, String)> = self
            .navy
            .fleets
            .iter()
            .filter(|o| self.sea_area_index(o.at) == Some(area) && self.hostile(m.power, o.power))
            .filter(|o| self.navy.is_flotilla(o.id))
            .map(|o| (o.id, o.name.clone()))
            .collect();
        let (area_name, area_ru) = self
            .map()
            .sea_areas
            .get(usize::from(area))
            .map_or_else(Default::default, |a| (a.name.clone(), a.name_ru.clone()));
        for (id, name) in found {
            let line = Msg::new("gwe.naval.detects")
                .arg("flotilla", &m.name)
                .arg("enemy", name)
                .local("area", &area_name, &area_ru);
            self.sighted(id, m.power, line);
        }
    }

    /// Records that `by` has found the enemy flotilla `flotilla`.
    pub(super) fn sighted(&mut self, flotilla: FleetId, by: PowerId, line: Msg) {
        self.push(Event { turn: self.clock.turn, kind: EventKind::Sighted { flotilla, by }, line });
    }
}
