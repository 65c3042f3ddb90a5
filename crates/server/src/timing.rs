//! Time on the server: a game's settings (battle clocks on or off, Great War phase deadlines and
//! what their expiry does, the directives' delay) and the one timer a game runs at a time.
//!
//! - T-SETUP-1: one clock for the whole set-up of both sides together (redoubts and
//!   deployment), the scenario's `deployment_seconds` (120); it runs only while a person's side
//!   sets up (an AI side is never timed out: the clock waits) and, once out, stays out: each side
//!   still setting up ends its set-up (`EndSetup`, logged as the clock's order).
//! - T-TURN-2: each turn of a person's side, `turn_seconds` (20, or 15 when neither army fields
//!   more than 5 units); a turn that runs out is logged as `EndTurn` ("после чего ход переходит к
//!   сопернику").
//! - Great War (and campaign) phases: a deadline set per game in minutes (up to days); at its
//!   expiry the power passes (`EndPhase`) or the AI plays the rest of its phase, as the game is
//!   set.
//!
//! The timer is stored with the game, in milliseconds since the epoch, so it survives a restart;
//! the moderator's pause stops it and the moderator may extend it.

use crate::table::Timing;
use serde::{Deserialize, Serialize};
pub use wire::{Expiry, MAX_DIRECTIVE_MINUTES, MAX_EXTEND_SECONDS, MAX_PHASE_MINUTES, Settings, TimerFace, What};

/// The timer a game should run now: what it times (a key that changes when the turn, phase or
/// player does), for how long, and whether it runs (a person's side, the game not paused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub key: String,
    pub what: What,
    pub ms: i64,
    pub runs: bool,
}

/// The timer the rules and settings ask for, from where the game stands.
pub fn plan(settings: &Settings, timing: Timing, turn: u32, active: &str, human: bool, paused: bool) -> Option<Plan> {
    let runs = human && !paused;
    let secs = |s: u32| i64::from(s) * 1000;
    match timing {
        Timing::None => None,
        // A campaign's battles each have their clocks.
        Timing::Setup { seconds, battle } if settings.battle_clock => {
            let key = battle.map_or_else(|| "setup".to_string(), |n| format!("battle {n} setup"));
            Some(Plan { key, what: What::Setup, ms: secs(seconds), runs })
        }
        Timing::Turn { seconds, turn, battle } if settings.battle_clock => {
            let key = match battle {
                None => format!("turn {turn} {active}"),
                Some(n) => format!("battle {n} turn {turn} {active}"),
            };
            Some(Plan { key, what: What::Turn, ms: secs(seconds), runs })
        }
        Timing::Setup { .. } | Timing::Turn { .. } => None,
        Timing::Phase { phase } => settings.phase_minutes.map(|m| Plan {
            key: format!("phase {turn} {phase} {active}"),
            what: What::Phase,
            ms: i64::from(m) * 60_000,
            runs,
        }),
    }
}

/// The timer a game runs, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timer {
    pub key: String,
    pub what: What,
    /// When it runs out, while it runs (milliseconds since the epoch).
    pub deadline: Option<i64>,
    /// What is left while it is stopped.
    pub left: i64,
    /// The player the AI plays for the rest of this phase, its time having run out.
    #[serde(default)]
    pub stand_in: Option<String>,
}

impl Timer {
    pub fn new(plan: &Plan) -> Timer {
        Timer { key: plan.key.clone(), what: plan.what, deadline: None, left: plan.ms, stand_in: None }
    }

    /// Starts or stops it; whether that changed anything.
    pub fn run(&mut self, runs: bool, now: i64) -> bool {
        match (runs, self.deadline) {
            (true, None) => {
                self.deadline = Some(now.saturating_add(self.left));
                true
            }
            (false, Some(d)) => {
                self.left = d.saturating_sub(now).max(0);
                self.deadline = None;
                true
            }
            _ => false,
        }
    }

    /// Whether its time is out now.
    pub fn due(&self, now: i64) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// Milliseconds left now.
    pub fn left_at(&self, now: i64) -> i64 {
        self.deadline.map_or(self.left, |d| d.saturating_sub(now).max(0))
    }

    /// Gives it `ms` more.
    pub fn extend(&mut self, ms: i64) {
        match &mut self.deadline {
            Some(d) => *d = d.saturating_add(ms),
            None => self.left = self.left.saturating_add(ms),
        }
    }
}

/// A timer as every seat sees it, at `now`.
pub fn face(timer: &Timer, now: i64) -> TimerFace {
    TimerFace {
        what: timer.what,
        running: timer.deadline.is_some(),
        deadline_ms: timer.deadline,
        left_ms: timer.left_at(now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai::Level;

    #[test]
    fn settings_refuse_unknown_fields_and_deadlines_out_of_bounds() {
        assert_eq!(Settings::parse("{}").expect("the defaults"), Settings::default());
        assert!(Settings::parse(r#"{"battle_clock": false, "colour": 1}"#).is_err());
        let ok = Settings::parse(r#"{"phase_minutes": 20160, "on_expiry": {"ai": "Veteran"}}"#).expect("14 days");
        assert_eq!(ok.on_expiry, Expiry::Ai(Level::Veteran));
        assert!(Settings::parse(r#"{"phase_minutes": 20161}"#).is_err(), "14 days and a minute");
        assert!(Settings::parse(r#"{"phase_minutes": 0}"#).is_err());
        assert!(Settings::parse(r#"{"phase_minutes": 1}"#).is_ok());
        assert!(Settings::parse(r#"{"directive_minutes": 10080}"#).is_ok());
        assert!(Settings::parse(r#"{"directive_minutes": 10081}"#).is_err());
    }

    #[test]
    fn an_ai_side_or_a_paused_game_is_never_timed_out_and_a_clock_switched_off_never_runs() {
        let on = Settings::default();
        let turn = Timing::Turn { seconds: 20, turn: 3, battle: None };
        let p = plan(&on, turn, 3, "red", true, false).expect("T-TURN-2 is on by default");
        assert_eq!((p.key.as_str(), p.ms, p.runs), ("turn 3 red", 20_000, true));
        assert!(!plan(&on, turn, 3, "red", false, false).expect("a timer").runs, "the AI's seat: T-TURN-2");
        assert!(!plan(&on, turn, 3, "red", true, true).expect("a timer").runs, "paused");
        let setup = plan(&on, Timing::Setup { seconds: 120, battle: None }, 0, "blue", true, false).expect("T-SETUP-1");
        assert_eq!((setup.key.as_str(), setup.ms), ("setup", 120_000), "one key for both sides");
        // A campaign's battles: each its own set-up clock and its own turns, whatever the
        // campaign's turn.
        let second = plan(&on, Timing::Setup { seconds: 120, battle: Some(2) }, 1, "red", true, false);
        assert_eq!(second.map(|p| p.key), Some("battle 2 setup".to_string()));
        let fight = Timing::Turn { seconds: 20, turn: 5, battle: Some(2) };
        assert_eq!(plan(&on, fight, 1, "red", true, false).map(|p| p.key), Some("battle 2 turn 5 red".to_string()));
        let off = Settings { battle_clock: false, ..Settings::default() };
        assert_eq!(plan(&off, turn, 3, "red", true, false), None);
        let phase = Timing::Phase { phase: "gw.phase.movement" };
        assert_eq!(plan(&on, phase, 1, "germany", true, false), None, "no deadline set: the game waits");
        let days = Settings { phase_minutes: Some(2 * 24 * 60), ..Settings::default() };
        assert_eq!(plan(&days, phase, 1, "germany", true, false).expect("a deadline").ms, 172_800_000);
    }

    #[test]
    fn a_timer_stopped_keeps_what_was_left_and_is_due_at_its_deadline() {
        let plan = Plan { key: "setup".into(), what: What::Setup, ms: 120_000, runs: true };
        let mut t = Timer::new(&plan);
        assert!(t.run(true, 1_000));
        assert!(!t.due(120_999));
        assert!(t.due(121_000));
        assert!(t.run(false, 31_000), "stopped after 30 s");
        assert_eq!(t.left, 90_000);
        assert!(!t.due(1_000_000), "a stopped clock is never due");
        t.extend(5_000);
        assert!(t.run(true, 50_000));
        assert_eq!(t.deadline, Some(145_000));
        assert_eq!(t.left_at(140_000), 5_000);
    }
}
