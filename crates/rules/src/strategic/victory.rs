//! Surrender and victory (issue 12; house rules in the scenario's `victory` block).

use super::campaign::Outcome;
use super::event::{Event, EventKind};
use super::state::{Ctx, Phase, PowerId};
use crate::texts::Msg;

impl Ctx {
    /// The provinces a power owned at the start (map order).
    fn home_provinces(&self, p: PowerId) -> Vec<usize> {
        let id = &self.scenario().powers[usize::from(p.0)].id;
        (0..self.map().provinces.len()).filter(|i| &self.map().provinces[*i].owner == id).collect()
    }

    /// A power's capital province: the scenario's `capital`, else its home province with the
    /// largest GDP (the first on the map among equals).
    pub fn capital_of(&self, p: PowerId) -> Option<usize> {
        if let Some(c) = &self.scenario().powers[usize::from(p.0)].capital {
            return self.map().province_index(c);
        }
        let home = self.home_provinces(p);
        let best = home.iter().map(|i| self.map().provinces[*i].gdp).max()?;
        home.into_iter().find(|i| self.map().provinces[*i].gdp == best)
    }

    /// Whether the enemy holds a province of `p`'s: an occupier, or a treaty gave it away.
    fn lost(&self, p: PowerId, province: usize) -> bool {
        self.province_controller(province).is_some_and(|c| c != p)
    }

    /// Why a power surrenders now, if it does (victory block): the enemy holds its capital and at
    /// least `surrender_share_percent` of its home provinces; or, with `exhaustion`, it has no
    /// manpower of either class, money 0 or less, and no land unit left on the map, in reserve,
    /// attached or at sea (all dispersed or destroyed): nothing to fight with and nothing to raise.
    pub fn surrender_reason(&self, p: PowerId) -> Option<Msg> {
        let v = self.scenario().victory.as_ref()?;
        let st = &self.powers[usize::from(p.0)];
        if st.out || st.neutral {
            return None;
        }
        let home = self.home_provinces(p);
        let held = home.iter().filter(|i| self.lost(p, **i)).count() as u64;
        let capital_lost = self.capital_of(p).is_some_and(|c| self.lost(p, c));
        if capital_lost && held * 100 >= u64::from(v.surrender_share_percent) * home.len() as u64 {
            return Some(
                Msg::new("gwe.econ.surrender_capital")
                    .arg("held", held)
                    .arg("home", home.len())
                    .arg("percent", v.surrender_share_percent),
            );
        }
        let army = self.forces.iter().any(|f| f.power == p && f.present());
        if v.exhaustion && st.manpower == [0, 0] && st.money <= 0 && !army {
            return Some(Msg::new("gwe.econ.surrender_exhaustion").arg("money", st.money));
        }
        None
    }

    /// Upkeep: powers that meet the surrender rule surrender (in the order of play): their land
    /// units and squadrons are removed, their ships struck; their occupied provinces stay occupied.
    /// When every power of one alliance that went to war has surrendered, the other wins.
    pub fn surrenders(&mut self) {
        if self.scenario().victory.is_none() || self.clock.phase == Phase::Over {
            return;
        }
        for i in 0..self.powers.len() {
            let p = PowerId(i as u8);
            let Some(why) = self.surrender_reason(p) else { continue };
            self.powers[i].out = true;
            self.powers[i].offer = None;
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new("gwe.econ.surrenders")
                    .name("power", self.power_key(p), self.power_name(p))
                    .msg("why", why),
            });
            let units: Vec<_> = self.forces.iter().filter(|f| f.power == p && f.present()).map(|f| f.id).collect();
            for u in units {
                self.destroy(u, crate::texts::Msg::new("gwe.naval.why.surrendered"));
            }
            let ships: Vec<u32> = self.navy.ships.iter().filter(|s| s.power == p && !s.sunk).map(|s| s.id).collect();
            for s in ships {
                self.sink(s, crate::texts::Msg::new("gwe.naval.why.surrendered"));
            }
            self.navy.fleets.retain(|f| f.power != p);
            self.navy.squadrons.retain(|s| s.power != p);
        }
        if let Some(Outcome::Surrender { winner }) = self.surrender_outcome() {
            self.clock.phase = Phase::Over;
            self.push(Event {
                turn: self.clock.turn,
                kind: EventKind::Note,
                line: Msg::new("gwe.econ.alliance_wins").arg("side", winner),
            });
        }
    }

    /// The alliance whose enemies (every power of the other alliance that is not neutral) have all
    /// surrendered, at least one of them.
    fn surrender_outcome(&self) -> Option<Outcome> {
        for side in [0u8, 1] {
            let enemies: Vec<_> = (0..self.powers.len())
                .filter(|i| self.alliance(PowerId(*i as u8)).min(1) != side && !self.powers[*i].neutral)
                .collect();
            let friends_left =
                (0..self.powers.len()).any(|i| self.alliance(PowerId(i as u8)).min(1) == side && !self.powers[i].out);
            if friends_left && !enemies.is_empty() && enemies.iter().all(|i| self.powers[*i].out) {
                return Some(Outcome::Surrender { winner: side });
            }
        }
        None
    }

    /// Victory points of each alliance: the points of every province held by one of its powers at
    /// war (a neutral's or a surrendered power's own provinces count for nobody).
    pub fn victory_points(&self) -> [u64; 2] {
        let mut points = [0u64; 2];
        let Some(v) = self.scenario().victory.as_ref() else { return points };
        for (i, p) in self.map().provinces.iter().enumerate() {
            if let Some(c) = self.province_controller(i).filter(|c| !self.idle(*c)) {
                points[usize::from(self.alliance(c).min(1))] += u64::from(v.points(&p.id));
            }
        }
        points
    }

    /// The scenario's last turn: the game ends after it (its victory points decide).
    pub fn last_turn(&self) -> u32 {
        let s = self.scenario();
        s.start_turn.saturating_add(s.max_turns).saturating_sub(1)
    }

    /// The date of a turn by the scenario's calendar (none without one).
    pub fn date_of(&self, turn: u32) -> Option<super::campaign::Date> {
        let s = self.scenario();
        s.calendar.map(|c| c.date(s.start_turn, turn))
    }

    /// How the game ended: none while it goes on or when the scenario has no victory block.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.clock.phase != Phase::Over || self.scenario().victory.is_none() {
            return None;
        }
        if let Some(o) = self.surrender_outcome() {
            return Some(o);
        }
        let points = self.victory_points();
        let winner = match points[0].cmp(&points[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome::Points { winner, points })
    }
}
