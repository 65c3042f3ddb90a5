//! A game's timer in play (`crate::timing`): kept in line with where the game stands after every
//! change, stored when it changes, and expired when its deadline passes — the clock's pass
//! (T-SETUP-1's `EndSetup`, T-TURN-2's `EndTurn`, a phase's `EndPhase`) logged as an order of
//! the clock, or the AI standing in for the rest of a Great War phase.

use super::{RoomState, ai_level};
use crate::seats::MODERATOR;
use crate::store::{Store, StoreError};
use crate::table::Refusal;
use crate::timing::{self, Expiry, Plan, Timer, What};

impl RoomState {
    fn plan_now(&self) -> Option<Plan> {
        let face = self.table.clockface();
        let active = face.active?;
        if face.over || self.rec.over {
            return None;
        }
        let human = !self.table.ai_plays(&active);
        let mut plan = timing::plan(&self.settings, self.table.timing(), face.turn, &active, human, self.rec.paused)?;
        if active == MODERATOR {
            // Each question has a deadline of its own, however many a phase puts.
            plan.key = format!("{} at {}", plan.key, face.orders);
        }
        Some(plan)
    }

    /// Brings the timer in line with where the game stands (a new turn, phase or player gets a
    /// fresh one; a pause or an AI side stops it) and stores it when it changed.
    pub async fn sync_timer(&mut self, store: &dyn Store) -> Result<(), StoreError> {
        let now = self.clock.now_ms();
        let same = matches!((self.plan_now(), &self.timer), (Some(p), Some(t)) if p.key == t.key);
        if !same {
            if let Some(old) = self.timer.take() {
                self.end_stand_in(old.stand_in);
            }
            self.timer = self.plan_now().as_ref().map(Timer::new);
        }
        if let (Some(plan), Some(timer)) = (self.plan_now(), self.timer.as_mut()) {
            timer.run(plan.runs, now);
        }
        self.store_timer(store).await
    }

    async fn store_timer(&mut self, store: &dyn Store) -> Result<(), StoreError> {
        if self.timer == self.timer_stored {
            return Ok(());
        }
        let text = serde_json::to_string(&self.timer).map_err(|e| StoreError::Damaged(e.to_string()))?;
        store.set_clock(&self.rec.id, &text).await?;
        self.timer_stored = self.timer.clone();
        Ok(())
    }

    /// The AI that stood in for a player gives it back (to the moderator's AI, if a seat of it
    /// is handed to one).
    fn end_stand_in(&mut self, stand_in: Option<String>) {
        if let Some(p) = stand_in {
            let level = self.seats.iter().find_map(|s| ai_level(s, &p));
            self.table.set_ai(&p, level, self.rec.seed);
        }
    }

    /// A stored timer, on restore: its stand-in AI plays again while its phase lasts.
    pub(crate) fn restore_timer(&mut self, text: &str) -> Result<(), StoreError> {
        let timer: Option<Timer> = serde_json::from_str(text).map_err(|e| StoreError::Damaged(e.to_string()))?;
        let current = self.plan_now().map(|p| p.key);
        if let Some(t) = &timer
            && Some(&t.key) == current.as_ref()
            && let (Some(p), Expiry::Ai(level)) = (&t.stand_in, self.settings.on_expiry)
        {
            self.table.set_ai(p, Some(level), self.rec.seed);
        }
        self.timer_stored = timer.clone();
        self.timer = timer;
        Ok(())
    }

    /// When the timer runs out, while it runs.
    pub fn deadline(&self) -> Option<i64> {
        self.timer.as_ref().and_then(|t| t.deadline)
    }

    /// Acts on the timer if its time is out: the clock's pass for the active player, or the AI
    /// for the rest of its phase. Whether it acted.
    pub async fn expire(&mut self, store: &dyn Store) -> Result<bool, StoreError> {
        let now = self.clock.now_ms();
        if self.rec.over || self.rec.paused || !self.timer.as_ref().is_some_and(|t| t.due(now)) {
            return Ok(false);
        }
        let what = self.timer.as_ref().map(|t| t.what);
        match (what, self.settings.on_expiry, self.table.clockface().active) {
            // A ruling's time out is the engine's answer (the pass below), never an AI.
            (Some(What::Phase), Expiry::Ai(level), Some(active)) if active != MODERATOR => {
                self.table.set_ai(&active, Some(level), self.rec.seed);
                if let Some(t) = self.timer.as_mut() {
                    t.run(false, now);
                    t.stand_in = Some(active);
                }
                self.store_timer(store).await?;
            }
            _ => {
                let applied = self.table.pass().map_err(|r| StoreError::Damaged(r.code.to_string()))?;
                self.commit(store, &applied, None, None, "clock").await?;
            }
        }
        Ok(true)
    }

    /// The moderator gives the running clock `seconds` more; a player the AI stood in for gets
    /// its phase back.
    pub(crate) async fn extend(&mut self, store: &dyn Store, seconds: u32) -> Result<(), Refusal> {
        if !(1..=timing::MAX_EXTEND_SECONDS).contains(&seconds) {
            return Err(Refusal::new("bad_extension", "server.err.bad_extension"));
        }
        let Some(timer) = self.timer.as_mut() else {
            return Err(Refusal::new("no_clock", "server.err.no_clock"));
        };
        timer.extend(i64::from(seconds) * 1000);
        let stand_in = timer.stand_in.take();
        self.end_stand_in(stand_in);
        let failed = |_| Refusal::new("store", "server.err.store");
        self.sync_timer(store).await.map_err(failed)
    }
}
