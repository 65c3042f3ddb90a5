//! Every number of the Napoleonic battle rules, read from `assets/data/napoleonic_rules.ron`.
//!
//! Source values and house values alike live in the data file so a modder can see and change
//! them; each field names its rule.

use crate::data::{DataError, parse_checked};
use crate::dice::{PipRange, Pips};
use bevy_ecs::prelude::Resource;
use serde::{Deserialize, Serialize};

/// T-TERR-3's own numbers: "2 или 3 брода".
fn rule_river_fords() -> (usize, usize) {
    (2, 3)
}

fn is_rule_river_fords(fords: &(usize, usize)) -> bool {
    *fords == rule_river_fords()
}

/// T-ART-1's shots test for horse artillery's second shot (house: the source's coin, 4–6).
fn house_second_shot() -> PipRange {
    PipRange(4, 6)
}

fn is_house_second_shot(pips: &PipRange) -> bool {
    *pips == house_second_shot()
}

/// The rule numbers of one battle.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesConfig {
    /// T-MORALE-1: a morale test passes on d6 + modifiers ≥ this.
    pub morale_pass: i32,
    /// T-MELEE-8, T-MORALE-2: Health at or below which (and above 0) a morale test is taken.
    pub morale_threshold: ArmValues,
    /// T-MORALE-1 modifiers.
    pub morale_modifiers: MoraleModifiers,
    /// T-FIRE-5: canister range in cells; beyond it roundshot.
    pub canister_range: i32,
    /// T-FIRE-5: roundshot hits on these pips (the source's coin).
    pub roundshot_hits: PipRange,
    /// T-SKIRM-2: any fire at skirmishers hits on these pips.
    pub skirmisher_hit: PipRange,
    /// T-FIRE-8, T-TERR-1: fire at a unit in forest deals this much less (not below 0).
    pub forest_fire_reduction: i32,
    /// T-FIRE-10: light infantry counter-volley at a flank/rear attacker is divided by this (rounded down).
    pub flank_counter_volley_divisor: i32,
    /// T-FORT-3: range bonus for infantry firing from the wall.
    pub wall_range_bonus: i32,
    /// T-MOVE-2: MP an infantry unit pays to turn 90° or 180°.
    pub infantry_turn_cost: i32,
    /// T-FORT-4: extra MP to climb onto, and to descend from, the wall.
    pub wall_climb_cost: i32,
    pub wall_descend_cost: i32,
    /// T-TERR-1: cavalry Speed lost in a turn it is in or enters forest.
    pub forest_cavalry_speed_penalty: i32,
    /// T-END-2: Speed bonus of retreating units.
    pub retreat_speed_bonus: i32,
    /// T-MELEE-4: damage the stronger side (and both, if equal) takes in an exchange.
    pub melee_base_damage: i32,
    /// T-MELEE-5 bonuses.
    pub flank_bonus: i32,
    pub charge_bonus: i32,
    pub redoubt_defence_bonus: i32,
    /// T-SKIRM-3: skirmishers' melee penalty against cavalry.
    pub skirmisher_vs_cavalry_penalty: i32,
    /// T-SKIRM-4: what a skirmisher unit that passed its morale test does when charged by cavalry.
    pub skirmisher_charge_table: Vec<(PipRange, SkirmisherFate)>,
    /// T-CMD-1: formations of at least this many units are divisions, smaller ones brigades.
    pub division_min_units: usize,
    /// T-CMD-2: losses after which (and after every further multiple) the general takes a casualty test.
    pub division_loss_limit: i32,
    pub brigade_loss_limit: i32,
    /// T-CMD-2: the general casualty table.
    pub general_casualty_table: Vec<(PipRange, GeneralFate)>,
    /// T-CMD-2 (MD-T2 house value): command zone in cells.
    pub command_zone: i32,
    /// T-CMD-4 (MD-T2 house value): units without a general act only this near the HQ unit.
    pub hq_distance: i32,
    /// T-SETUP-2 (house): depth of a side's deployment zone in rows.
    pub deployment_rows: i32,
    /// T-SETUP-1: deployment time in seconds (client timer).
    pub deployment_seconds: u32,
    /// T-TURN-2: turn time in seconds, and the shorter time when both armies have at most
    /// `small_battle_units` units (client timer).
    pub turn_seconds: u32,
    pub small_battle_turn_seconds: u32,
    pub small_battle_units: usize,
    /// T-TURN-4 (house): after this round the defender wins.
    pub round_limit: u32,
    /// T-STRAT-5, T-FORT-1: most units per side.
    pub max_units_field: usize,
    pub max_units_fortress_defender: usize,
    pub max_units_fortress_attacker: usize,
    /// T-FORT-2: breaches in the wall; more if the attacker has artillery.
    pub breaches: usize,
    pub breaches_with_artillery: usize,
    /// T-STRAT-8: most redoubts a side may place.
    pub max_redoubts: u32,
    /// T-TERR-3: fewest and most fords a river has ("есть 2 или 3 брода"). Saves of format 1
    /// predate the field and read the rule's own numbers; those numbers are left out of saves and
    /// hashes, so such saves keep their hashes (issue 18). A data file must name it ([`RulesConfig::parse`]).
    #[serde(default = "rule_river_fords", skip_serializing_if = "is_rule_river_fords")]
    pub river_fords: (usize, usize),
    /// T-ART-1: the shots test horse artillery takes for a second shot in a turn (house: the
    /// source gives no numbers). Saves that predate the field read the house value, left out of
    /// saves and hashes as `river_fords` is; a data file must name it.
    #[serde(default = "house_second_shot", skip_serializing_if = "is_house_second_shot")]
    pub horse_artillery_second_shot: PipRange,
}

/// A value per arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmValues {
    pub infantry: i32,
    pub cavalry: i32,
    pub artillery: i32,
}

/// T-MORALE-1 modifiers (added to the d6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoraleModifiers {
    /// T-CMD-4: the unit's formation general is killed or wounded.
    pub general_lost: i32,
    /// T-CMD-5: the side's HQ is captured.
    pub hq_captured: i32,
    /// T-UNIT-3: in contact with enemy Guard infantry.
    pub guard_contact: i32,
    /// T-UNIT-2: attacked in melee by lancers.
    pub lancers: i32,
    /// T-SKIRM-3: attacked by skirmishers.
    pub skirmishers: i32,
    /// T-ART-2: artillery, per Health point lost to enemy fire.
    pub artillery_per_fire_loss: i32,
}

/// T-SKIRM-4 results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SkirmisherFate {
    /// Routs off the field (dispersed).
    Routs,
    /// Falls back behind own infantry, disorganized.
    FallsBack,
    /// Stays, disorganized, and fights the cavalry.
    Stands,
}

/// T-CMD-2 results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GeneralFate {
    Killed,
    /// Back only next campaign (T-CMD-3: unavailable for the rest of this one).
    BadlyWounded,
    /// Back next battle.
    LightlyWounded,
    Unhurt,
}

impl GeneralFate {
    pub fn is_casualty(self) -> bool {
        self != GeneralFate::Unhurt
    }

    /// Its key in the string tables, under `fate.`.
    pub fn key(self) -> &'static str {
        match self {
            GeneralFate::Killed => "killed",
            GeneralFate::BadlyWounded => "badly_wounded",
            GeneralFate::LightlyWounded => "lightly_wounded",
            GeneralFate::Unhurt => "unhurt",
        }
    }
}

/// The fields that came after the first saves: saves leave them out at their house values, a
/// data file names them.
const LATER_FIELDS: [&str; 2] = ["river_fords", "horse_artillery_second_shot"];

impl RulesConfig {
    /// The shipped rule numbers (compiled in, so the browser build has them).
    pub fn builtin() -> RulesConfig {
        Self::parse("assets/data/napoleonic_rules.ron", BUILTIN_RULES)
            .expect("the compiled-in napoleonic_rules.ron is checked by the tests")
    }

    /// The rule numbers as a data file is written: every field named, those that saves leave out
    /// at their house values included (`parse` wants them in a data file).
    pub fn to_data_text(&self) -> String {
        let text = crate::data::to_ron(self);
        let later = [
            ("river_fords", crate::data::to_ron(&self.river_fords)),
            ("horse_artillery_second_shot", crate::data::to_ron(&self.horse_artillery_second_shot)),
        ];
        let missing: Vec<String> = later
            .iter()
            .filter(|(field, _)| !text.contains(&format!("{field}:")))
            .map(|(field, value)| format!("  {field}: {value},\n"))
            .collect();
        if missing.is_empty() {
            return text;
        }
        let body = text.trim_end().trim_end_matches(')').trim_end().trim_end_matches(',');
        format!("{body},\n{})", missing.concat())
    }

    pub fn parse(path: &str, text: &str) -> Result<RulesConfig, DataError> {
        let config: RulesConfig = parse_checked(path, text)?;
        // Only saves may leave out the fields that came later; a data file names them.
        for field in LATER_FIELDS {
            if crate::data::position_of(text, &crate::path![field]).is_none() {
                let message = format!("missing field `{field}` in `RulesConfig`");
                return Err(DataError::at(path, crate::data::Pos::START, message));
            }
        }
        config.check().map_err(|m| DataError::at(path, crate::data::Pos::START, m))?;
        Ok(config)
    }

    /// The checks beyond the numbers' limit (see [`RulesConfig::parse`]); a save's resolved
    /// scenario runs them on the rules it embeds.
    pub(crate) fn check(&self) -> Result<(), String> {
        let (fewest, most) = self.river_fords;
        if fewest > most {
            return Err(format!("river_fords: ({fewest}, {most}) asks for at least {fewest} and at most {most} fords"));
        }
        for (name, table) in [
            ("skirmisher_charge_table", self.skirmisher_charge_table.iter().map(|r| r.0).collect::<Vec<_>>()),
            ("general_casualty_table", self.general_casualty_table.iter().map(|r| r.0).collect()),
        ] {
            for pips in 1..=6 {
                let rows = table.iter().filter(|r| r.contains(pips)).count();
                if rows != 1 {
                    return Err(format!(
                        "{name}: a throw of {pips} matches {rows} rows; every throw 1–6 must match exactly one"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Morale threshold of an arm (T-MORALE-2).
    pub fn threshold(&self, arm: crate::tactical::units::Arm) -> i32 {
        use crate::tactical::units::Arm;
        match arm {
            Arm::Infantry => self.morale_threshold.infantry,
            Arm::Cavalry => self.morale_threshold.cavalry,
            Arm::Artillery => self.morale_threshold.artillery,
        }
    }

    pub fn skirmisher_fate(&self, pips: Pips) -> SkirmisherFate {
        self.skirmisher_charge_table.iter().find(|r| r.0.contains(pips)).map_or(SkirmisherFate::Routs, |r| r.1)
    }

    pub fn general_fate(&self, pips: Pips) -> GeneralFate {
        self.general_casualty_table.iter().find(|r| r.0.contains(pips)).map_or(GeneralFate::Unhurt, |r| r.1)
    }
}

/// The shipped rule numbers, compiled in.
pub const BUILTIN_RULES: &str = include_str!("../../../../assets/data/napoleonic_rules.ron");

#[cfg(test)]
mod tests {
    /// A data file written from the rule numbers (`umpire campaign battle`'s `FILE.rules.ron`)
    /// names the fields saves leave out, and reads back to the same numbers.
    #[test]
    fn the_rules_written_as_a_data_file_read_back() {
        let c = RulesConfig::builtin();
        assert!(!crate::data::to_ron(&c).contains("horse_artillery_second_shot:"), "a save leaves it out");
        let text = c.to_data_text();
        assert!(text.contains("horse_artillery_second_shot:") && text.contains("river_fords:"), "{text}");
        assert_eq!(RulesConfig::parse("rules.ron", &text), Ok(c));
    }

    use super::*;

    #[test]
    fn shipped_rules_parse_and_match_the_digest() {
        let c = RulesConfig::parse("napoleonic_rules.ron", BUILTIN_RULES).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.morale_pass, 4); // T-MORALE-1
        assert_eq!((c.morale_threshold.infantry, c.morale_threshold.cavalry), (2, 1)); // T-MELEE-8
        assert_eq!(c.canister_range, 4); // T-FIRE-5
        assert_eq!(c.roundshot_hits, PipRange(4, 6)); // T-FIRE-5
        assert_eq!(c.skirmisher_hit, PipRange(1, 2)); // T-SKIRM-2
        assert_eq!((c.division_loss_limit, c.brigade_loss_limit), (10, 7)); // T-CMD-2
        assert_eq!(c.general_fate(1), GeneralFate::Killed); // T-CMD-2
        assert_eq!(c.general_fate(2), GeneralFate::BadlyWounded);
        assert_eq!(c.general_fate(4), GeneralFate::LightlyWounded);
        assert_eq!(c.general_fate(5), GeneralFate::Unhurt);
        assert_eq!(c.skirmisher_fate(1), SkirmisherFate::Routs); // T-SKIRM-4
        assert_eq!(c.skirmisher_fate(5), SkirmisherFate::FallsBack);
        assert_eq!(c.skirmisher_fate(6), SkirmisherFate::Stands);
        assert_eq!((c.max_units_fortress_defender, c.max_units_fortress_attacker), (10, 15)); // T-FORT-1
        assert_eq!(c.river_fords, (2, 3)); // T-TERR-3: 2 or 3 fords
        assert_eq!(c.horse_artillery_second_shot, PipRange(4, 6)); // T-ART-1 (house)
        assert_eq!(c.max_redoubts, 2); // T-STRAT-8: max 2
        assert_eq!((c.small_battle_units, c.small_battle_turn_seconds, c.turn_seconds), (5, 15, 20)); // T-TURN-2
        assert_eq!((c.hq_distance, c.command_zone), (4, 4)); // T-CMD-4, T-CMD-2 (house, MD-T2)
    }

    #[test]
    fn a_table_with_a_gap_is_refused() {
        let broken = BUILTIN_RULES.replace("((6, 6), Stands)", "((6, 5), Stands)");
        let err = RulesConfig::parse("r.ron", &broken).unwrap_err();
        assert!(err.message.contains("throw of 6"), "{err}");
    }
}
