//! Which webhook notices are due (`crate::webhook`): "your turn" once for each seat of the
//! player the game waits for (a person's, not done, the game neither paused nor over) each time
//! the turn, phase or player changes; "directive" once for each directive that reaches a seat.

use super::RoomState;
use crate::store::{Store, StoreError};
use crate::table::Refusal;
use crate::webhook::{self, Notice};

impl RoomState {
    /// A seat registers its webhook (`None`: removes it).
    pub async fn set_webhook(&mut self, store: &dyn Store, seat: usize, url: Option<String>) -> Result<(), Refusal> {
        if let Some(u) = &url {
            webhook::parse(u).map_err(|code| Refusal::new(code, "server.err.bad_url"))?;
        }
        let mut rec = self.seats[seat].rec.clone();
        rec.webhook = url;
        store
            .update_seat(&self.rec.id, &rec)
            .await
            .map_err(|_: StoreError| Refusal::new("store", "server.err.store"))?;
        self.seats[seat].rec = rec;
        Ok(())
    }

    /// The notices due now, with their URLs; each is given once.
    pub fn notices(&mut self) -> Vec<(String, Notice)> {
        let face = self.table.clockface();
        let mut out = Vec::new();
        let notice = |seat: i32, event| Notice {
            game: self.rec.id.clone(),
            seat: u32::try_from(seat).unwrap_or(u32::MAX),
            event,
            turn: face.turn,
            phase: face.phase.clone(),
        };
        if let Some(active) =
            face.active.as_deref().filter(|a| !self.rec.over && !self.rec.paused && !self.table.ai_plays(a))
        {
            let key = format!("{} {} {active}", face.turn, face.phase);
            for (i, s) in self.seats.iter().enumerate() {
                let Some(url) = &s.rec.webhook else { continue };
                if !s.role.is_waited_for(active) || s.ready || self.notified.get(&i) == Some(&key) {
                    continue;
                }
                out.push((url.clone(), notice(s.rec.seat, "your_turn")));
                self.notified.insert(i, key.clone());
            }
        }
        let due = self.due_count();
        for d in self.deliveries.get(self.directives_notified..due).unwrap_or(&[]) {
            if d.part != 1 {
                continue;
            }
            for s in self.seats.iter().filter(|s| d.seats.contains(&s.rec.seat)) {
                if let Some(url) = &s.rec.webhook {
                    out.push((url.clone(), notice(s.rec.seat, "directive")));
                }
            }
        }
        self.directives_notified = self.directives_notified.max(due);
        out
    }
}
