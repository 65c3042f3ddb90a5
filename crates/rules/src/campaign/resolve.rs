//! The campaign's battle arithmetic as pure functions: the 10-unit cut (T-STRAT-5/6), redoubts
//! bought with unused MP (T-STRAT-8), losses of left-out units (T-STRAT-7) and the auto-battle
//! (T-STRAT-9, T-AUTO-1..4).

use super::rules::CampaignRules;
use crate::tactical::units::{Arm, UnitType};
use serde::{Deserialize, Serialize};

/// How many units each side fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cut {
    /// Per the order the sizes were given in.
    pub fielded: (usize, usize),
    /// Whether the larger side (the one fielding `battle_limit`) may bring up more (T-STRAT-6),
    /// and which of the two it is (false: the first).
    pub bring_up: Option<bool>,
}

/// T-STRAT-5/6: the units each side fields, from the units `a` and `b` each has.
///
/// With the larger side L over the limit and the smaller S at least `cut_smaller_min`, L fields
/// the limit and S round-half-up(limit × S / L), but never fewer than `cut_smaller_min` − 1 (6):
/// a side of 6 fights with all 6 (T-STRAT-6), so a side of 7 must not field fewer (house: no
/// cliff, 7 v 13 fight 6 v 10, not 5 v 10); with S smaller, S fields all, L the limit and L may
/// bring up a unit later. Otherwise (L within the limit) all fight.
pub fn cut(a: usize, b: usize, rules: &CampaignRules) -> Cut {
    let limit = rules.battle_limit;
    let (large, small) = (a.max(b), a.min(b));
    let second_larger = b > a;
    if large <= limit {
        return Cut { fielded: (a, b), bring_up: None };
    }
    let (large_fields, small_fields, bring_up) = if small >= rules.cut_smaller_min {
        // round-half-up(limit × S / L) = floor((2 × limit × S + L) / 2L), in integers.
        let scaled = (2 * limit * small + large) / (2 * large);
        let floor = rules.cut_smaller_min.saturating_sub(1);
        (limit, scaled.max(floor).min(small), None)
    } else {
        (limit, small, Some(second_larger))
    };
    let fielded = if second_larger { (small_fields, large_fields) } else { (large_fields, small_fields) };
    Cut { fielded, bring_up }
}

/// T-FORT-1: a fortress assault fields up to `max_attackers` attacking and `max_defenders`
/// defending units, with no proportional cut (16 v 11 fight 15 v 10) and no unit brought up;
/// the rest take losses by T-STRAT-7. `a` and `b` as for [`cut`]; `a_attacks`: the first side
/// is the attacker.
pub fn fortress_cut(a: usize, b: usize, a_attacks: bool, max_attackers: usize, max_defenders: usize) -> Cut {
    let (a_max, b_max) = if a_attacks { (max_attackers, max_defenders) } else { (max_defenders, max_attackers) };
    Cut { fielded: (a.min(a_max), b.min(b_max)), bring_up: None }
}

/// T-STRAT-8: redoubts the attacker may build with `unused_mp`: 1 per `mp_per_redoubt`, at most
/// `max_attacker_redoubts`.
pub fn attacker_redoubts(unused_mp: u32, rules: &CampaignRules) -> u32 {
    (unused_mp / rules.mp_per_redoubt.max(1)).min(rules.max_attacker_redoubts)
}

/// T-STRAT-7: the Health a left-out unit of `health` loses when its side's fighting units lost
/// `lost` of their `start` Health: floor(lost ÷ start × health), leaving it at least 1.
pub fn left_out_loss(lost: i64, start: i64, health: i32) -> i32 {
    if start <= 0 || health <= 1 {
        return 0;
    }
    let loss = (lost.clamp(0, start) * i64::from(health)) / start;
    i32::try_from(loss).unwrap_or(0).min(health - 1)
}

/// One unit in an auto-battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoUnit<'a> {
    pub kind: &'a UnitType,
    pub health: i32,
}

/// The end of an auto-battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoBattle {
    /// Damage dealt in each round by the first and the second side.
    pub rounds: Vec<(i32, i32)>,
    /// Health left, per side, in the order given (0: dispersed).
    pub health: (Vec<i32>, Vec<i32>),
    /// Whether the first side won.
    pub first_wins: bool,
}

/// T-AUTO-1/2: simultaneous rounds. Round 1 sums the ranged values, later rounds the melee
/// values (+`auto_charge_bonus` per cavalry unit in round 2) of the units above 0; the damage
/// fills the enemy's units in army-list order up to their Health. The battle ends after the
/// round that leaves a side with no unit above 0; both at once, or still undecided after
/// `auto_round_limit` rounds, the defender wins. `first_defends`: which side is the defender.
pub fn auto_battle(
    first: &[AutoUnit<'_>],
    second: &[AutoUnit<'_>],
    first_defends: bool,
    rules: &CampaignRules,
) -> AutoBattle {
    let mut hp = (
        first.iter().map(|u| u.health.max(0)).collect::<Vec<_>>(),
        second.iter().map(|u| u.health.max(0)).collect::<Vec<_>>(),
    );
    let mut rounds = Vec::new();
    let attack = |units: &[AutoUnit<'_>], hp: &[i32], round: u32| -> i32 {
        units
            .iter()
            .zip(hp)
            .filter(|(_, h)| **h > 0)
            .map(|(u, _)| match round {
                1 => u.kind.fires().map_or(0, |(v, _)| v),
                2 if u.kind.arm == Arm::Cavalry => u.kind.melee + rules.auto_charge_bonus,
                _ => u.kind.melee,
            })
            .sum()
    };
    let alive = |hp: &[i32]| hp.iter().any(|h| *h > 0);
    let mut round = 0;
    while alive(&hp.0) && alive(&hp.1) && round < rules.auto_round_limit {
        round += 1;
        let dealt = (attack(first, &hp.0, round), attack(second, &hp.1, round));
        fill(&mut hp.1, dealt.0);
        fill(&mut hp.0, dealt.1);
        rounds.push(dealt);
    }
    let first_wins = match (alive(&hp.0), alive(&hp.1)) {
        (true, false) => true,
        (false, true) => false,
        // Both gone at once, or the round limit: the defender wins (T-AUTO-2, house limit).
        _ => first_defends,
    };
    AutoBattle { rounds, health: hp, first_wins }
}

/// T-AUTO-1: damage fills units in order up to their Health, the rest passing on.
fn fill(hp: &mut [i32], mut damage: i32) {
    for h in hp.iter_mut().filter(|h| **h > 0) {
        if damage <= 0 {
            break;
        }
        let take = damage.min(*h);
        *h -= take;
        damage -= take;
    }
}
