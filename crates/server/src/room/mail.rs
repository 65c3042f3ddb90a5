//! The game's written record (T-STRAT-3): a leader's directives to its generals, which go
//! through the moderator (who has them at once) and reach the generals at once or after the
//! delay the game sets, or sooner when the moderator passes them on; chat within an alliance
//! and with the moderator. Every entry is committed to the record before it is acknowledged,
//! and is sent to its own seats (the writer's, the moderators', the addressees') and nobody else.
//!
//! Deliveries are numbered in the order they fall due (by time, then by the record entry that
//! set that time), so a client resumes after the last number it was sent.

use super::RoomState;
use crate::protocol::{ChatTo, ServerMsg};
use crate::seats::Role;
use crate::store::{MailRecord, Store, StoreError};
use crate::table::Refusal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The longest text, in characters.
pub const MAX_TEXT: usize = 2000;
/// Most entries a game's written record holds.
pub const MAX_MAIL: usize = 10_000;

/// A directive's or a chat line's text, as the record keeps it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Text {
    text: String,
    /// When it was written (milliseconds since the epoch).
    sent: i64,
}

/// The moderator passed a directive on before its delay was up.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PassOn {
    directive: i64,
    sent: i64,
}

/// One delivery of an entry to some seats.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub time: i64,
    /// The record entry that set `time` (the entry itself, or the moderator's passing on).
    cause: i64,
    /// 0: to the writer and the moderators; 1: a directive to its generals.
    pub(super) part: u8,
    pub idx: i64,
    pub seats: Vec<i32>,
}

fn damaged(e: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged(e.to_string())
}

fn bad_text() -> Refusal {
    Refusal::new("bad_text", "server.err.bad_text")
}

impl RoomState {
    fn moderators(&self) -> Vec<i32> {
        self.seats.iter().filter(|s| s.role == Role::Moderator).map(|s| s.rec.seat).collect()
    }

    /// The record's entries, read on restore.
    pub(crate) fn load_mail(&mut self, mail: Vec<MailRecord>) -> Result<(), StoreError> {
        self.mail_clock = mail
            .iter()
            .filter_map(|m| serde_json::from_str::<serde_json::Value>(&m.body).ok())
            .filter_map(|v| v["sent"].as_i64())
            .max()
            .unwrap_or(i64::MIN);
        self.mail = mail;
        self.deliveries = self.deliveries_of()?;
        self.mail_due = self.due_count();
        // What fell due before the restart was notified then.
        self.directives_notified = self.mail_due;
        Ok(())
    }

    fn deliveries_of(&self) -> Result<Vec<Delivery>, StoreError> {
        let mut passed: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for m in self.mail.iter().filter(|m| m.kind == "pass_on") {
            let p: PassOn = serde_json::from_str(&m.body).map_err(damaged)?;
            passed.entry(p.directive).or_insert((p.sent, m.idx));
        }
        let moderators = self.moderators();
        let mut out = Vec::new();
        for m in self.mail.iter().filter(|m| m.kind != "pass_on") {
            let text: Text = serde_json::from_str(&m.body).map_err(damaged)?;
            let to: Vec<i32> = serde_json::from_str(&m.recipients).map_err(damaged)?;
            let mut first: Vec<i32> = m.from_seat.into_iter().chain(moderators.iter().copied()).collect();
            match m.kind.as_str() {
                "directive" => {
                    let (time, cause) =
                        passed.get(&m.idx).copied().filter(|(t, _)| *t < m.deliver_at).unwrap_or((m.deliver_at, m.idx));
                    out.push(Delivery { time, cause, part: 1, idx: m.idx, seats: to });
                }
                "chat" => first.extend(to),
                other => return Err(damaged(format!("an entry of kind `{other}`"))),
            }
            first.sort_unstable();
            first.dedup();
            out.push(Delivery { time: text.sent, cause: m.idx, part: 0, idx: m.idx, seats: first });
        }
        out.sort_by_key(|d| (d.time, d.cause, d.part));
        Ok(out)
    }

    /// The time for the written record: the server's clock, never going back.
    fn mail_now(&mut self) -> i64 {
        self.mail_clock = self.mail_clock.max(self.clock.now_ms());
        self.mail_clock
    }

    /// How many deliveries have fallen due.
    pub fn due_count(&self) -> usize {
        let now = self.clock.now_ms().max(self.mail_clock);
        self.deliveries.partition_point(|d| d.time <= now)
    }

    /// When the next delivery falls due.
    pub fn next_delivery(&self) -> Option<i64> {
        self.deliveries.get(self.due_count()).map(|d| d.time)
    }

    /// Whether deliveries fell due since last asked (the game's task wakes the seats then).
    pub fn mail_fell_due(&mut self) -> bool {
        let due = self.due_count();
        let fell = due > self.mail_due;
        self.mail_due = due;
        fell
    }

    /// The deliveries due to a seat after number `after`, and the number of the last due.
    pub fn mail_for(&self, seat: usize, after: u64) -> (Vec<ServerMsg>, u64) {
        let me = self.seats[seat].rec.seat;
        let due = self.due_count();
        let from = usize::try_from(after).unwrap_or(usize::MAX).min(due);
        let mut out = Vec::new();
        for (i, d) in self.deliveries[..due].iter().enumerate().skip(from) {
            if !d.seats.contains(&me) {
                continue;
            }
            let Some(m) = usize::try_from(d.idx).ok().and_then(|i| self.mail.get(i)) else { continue };
            let Ok(text) = serde_json::from_str::<Text>(&m.body) else { continue };
            let to: Vec<u32> = serde_json::from_str::<Vec<i32>>(&m.recipients)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|s| u32::try_from(s).ok())
                .collect();
            let deliver_ms = self.deliveries.iter().find(|x| x.idx == d.idx && x.part == 1).map(|x| x.time);
            out.push(ServerMsg::Mail {
                n: u64::try_from(i + 1).unwrap_or(u64::MAX),
                entry: u64::try_from(m.idx).unwrap_or(u64::MAX),
                kind: m.kind.clone(),
                from: m.from_seat.and_then(|s| u32::try_from(s).ok()),
                to,
                text: text.text,
                sent_ms: text.sent,
                deliver_ms,
            });
        }
        (out, u64::try_from(due).unwrap_or(u64::MAX))
    }

    async fn append(&mut self, store: &dyn Store, rec: MailRecord) -> Result<(), Refusal> {
        let failed = |_| Refusal::new("store", "server.err.store");
        store.append_mail(&self.rec.id, &rec).await.map_err(failed)?;
        self.mail.push(rec);
        self.deliveries = self.deliveries_of().map_err(failed)?;
        Ok(())
    }

    fn entry(
        &mut self,
        kind: &str,
        seat: usize,
        seq: Option<u64>,
        to: &[i32],
        body: String,
    ) -> Result<MailRecord, Refusal> {
        if self.mail.len() >= MAX_MAIL {
            return Err(Refusal::new("mail_full", "server.err.mail_full"));
        }
        let idx = i64::try_from(self.mail.len()).map_err(|_| Refusal::new("mail_full", "server.err.mail_full"))?;
        let now = self.mail_now();
        let delay = if kind == "directive" { i64::from(self.settings.directive_minutes) * 60_000 } else { 0 };
        Ok(MailRecord {
            idx,
            kind: kind.to_string(),
            from_seat: Some(self.seats[seat].rec.seat),
            seq: seq.and_then(|q| i64::try_from(q).ok()),
            recipients: serde_json::to_string(to).map_err(|_| bad_text())?,
            deliver_at: now.saturating_add(delay),
            body,
        })
    }

    fn text_body(&mut self, text: String) -> Result<String, Refusal> {
        let n = text.chars().count();
        if text.trim().is_empty() || n > MAX_TEXT {
            return Err(bad_text());
        }
        let sent = self.mail_now();
        serde_json::to_string(&Text { text, sent }).map_err(|_| bad_text())
    }

    /// A leader's written directive to generals of its power (T-STRAT-3).
    pub async fn directive(
        &mut self,
        store: &dyn Store,
        seat: usize,
        seq: u64,
        to: Vec<u32>,
        text: String,
    ) -> Result<(), Refusal> {
        let Role::Player { player } = self.seats[seat].role.clone() else {
            return Err(Refusal::new("leader_only", "server.err.directive_leader"));
        };
        let generals: Vec<i32> = self
            .seats
            .iter()
            .filter(|s| matches!(&s.role, Role::General { player: p, .. } if *p == player))
            .map(|s| s.rec.seat)
            .collect();
        let mut to: Vec<i32> = to.into_iter().map(|s| i32::try_from(s).unwrap_or(-1)).collect();
        to.sort_unstable();
        to.dedup();
        if to.is_empty() || !to.iter().all(|s| generals.contains(s)) {
            return Err(Refusal::new("bad_seat", "server.err.not_a_general"));
        }
        let body = self.text_body(text)?;
        let rec = self.entry("directive", seat, Some(seq), &to, body)?;
        self.append(store, rec).await
    }

    /// A chat line: to the writer's alliance, to the moderator, or from the moderator to a seat.
    pub async fn chat(
        &mut self,
        store: &dyn Store,
        seat: usize,
        seq: u64,
        to: ChatTo,
        text: String,
    ) -> Result<(), Refusal> {
        let role = self.seats[seat].role.clone();
        let to: Vec<i32> = match to {
            ChatTo::Alliance => {
                let Some(player) = role.commands() else {
                    return Err(Refusal::new("no_alliance", "server.err.no_alliance"));
                };
                let allies = self.table.allies(player);
                self.seats
                    .iter()
                    .filter(|s| s.role.commands().is_some_and(|p| allies.iter().any(|a| a == p)))
                    .map(|s| s.rec.seat)
                    .collect()
            }
            ChatTo::Moderator => Vec::new(),
            ChatTo::Seat(n) => {
                if role != Role::Moderator {
                    return Err(Refusal::new("moderator_only", "server.err.moderator_only"));
                }
                let n = i32::try_from(n).unwrap_or(-1);
                if !self.seats.iter().any(|s| s.rec.seat == n) {
                    return Err(Refusal::new("bad_seat", "server.err.bad_seat"));
                }
                vec![n]
            }
        };
        let body = self.text_body(text)?;
        let rec = self.entry("chat", seat, Some(seq), &to, body)?;
        self.append(store, rec).await
    }

    /// The moderator passes a directive on now, before its delay is up.
    pub(crate) async fn pass_on(&mut self, store: &dyn Store, seat: usize, directive: u64) -> Result<(), Refusal> {
        let idx = i64::try_from(directive).unwrap_or(-1);
        let now = self.mail_now();
        let held = self.deliveries.iter().any(|d| d.idx == idx && d.part == 1 && d.time > now);
        if !held {
            return Err(Refusal::new("not_held", "server.err.not_held"));
        }
        let body = serde_json::to_string(&PassOn { directive: idx, sent: now }).map_err(|_| bad_text())?;
        let rec = self.entry("pass_on", seat, None, &[], body)?;
        self.append(store, rec).await
    }
}
