//! Every number of the campaign layer, read from `assets/data/campaign_rules.ron`.

use crate::data::{DataError, Pos, parse_checked};
use serde::{Deserialize, Serialize};

/// The rule numbers of a campaign (T-STRAT, T-AUTO); each field names its rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignRules {
    /// T-STRAT-1 (MD-T2 house value): hex movement points of an army per campaign turn.
    pub movement_points: u32,
    /// T-STRAT-1: MP to enter a hex.
    pub hex_cost: u32,
    /// House: extra MP to cross a river hexside at a ford; a river without a ford is not crossed.
    pub ford_cost: u32,
    /// T-STRAT-2: an army intercepts enemies entering a hex within this many hexes of it.
    pub intercept_range: u32,
    /// T-STRAT-5: most units a side fields in a battle.
    pub battle_limit: usize,
    /// T-STRAT-5: the smaller side needs at least this many units for the cut; with fewer, T-STRAT-6.
    pub cut_smaller_min: usize,
    /// T-STRAT-6: units the larger side may bring up, and the battle turn from which it may.
    pub bring_up_units: u32,
    pub bring_up_turn: u32,
    /// T-STRAT-8: the defender's redoubts; the attacker's cost `mp_per_redoubt` unused MP each,
    /// at most `max_attacker_redoubts`.
    pub defender_redoubts: u32,
    pub mp_per_redoubt: u32,
    pub max_attacker_redoubts: u32,
    /// T-STRAT-9: both armies together with at most this many units fight an auto-battle.
    pub auto_battle_units: usize,
    /// T-AUTO-1: added per charging cavalry unit in round 2.
    pub auto_charge_bonus: i32,
    /// House (as T-TURN-4): an auto-battle still undecided after this round is the defender's.
    pub auto_round_limit: u32,
    /// T-STRAT-11: Health with which the winner's dispersed units rejoin.
    pub rejoin_health: i32,
    /// MD-T2: width and height of a generated battlefield, in cells.
    pub field_size: (i32, i32),
}

/// The shipped numbers, compiled in.
pub const BUILTIN_CAMPAIGN_RULES: &str = include_str!("../../../../assets/data/campaign_rules.ron");

impl CampaignRules {
    pub fn builtin() -> CampaignRules {
        // The shipped file is tested to parse.
        Self::parse("assets/data/campaign_rules.ron", BUILTIN_CAMPAIGN_RULES).unwrap_or_else(|_| CampaignRules::house())
    }

    /// The values of the shipped file, for the impossible case it does not parse.
    fn house() -> CampaignRules {
        CampaignRules {
            movement_points: 6,
            hex_cost: 1,
            ford_cost: 1,
            intercept_range: 1,
            battle_limit: 10,
            cut_smaller_min: 7,
            bring_up_units: 1,
            bring_up_turn: 5,
            defender_redoubts: 2,
            mp_per_redoubt: 2,
            max_attacker_redoubts: 2,
            auto_battle_units: 6,
            auto_charge_bonus: 1,
            auto_round_limit: 30,
            rejoin_health: 1,
            field_size: (20, 14),
        }
    }

    pub fn parse(path: &str, text: &str) -> Result<CampaignRules, DataError> {
        let rules: CampaignRules = parse_checked(path, text)?;
        rules.validate().map_err(|m| DataError::at(path, Pos::START, m))?;
        Ok(rules)
    }

    /// The numbers a campaign can run with (a save's embedded copy is checked too).
    pub fn validate(&self) -> Result<(), String> {
        if self.hex_cost == 0 || self.mp_per_redoubt == 0 || self.battle_limit == 0 {
            return Err("hex_cost, mp_per_redoubt and battle_limit must be at least 1".to_string());
        }
        if self.movement_points > 1000 || self.battle_limit > 1000 || self.auto_round_limit > 1000 {
            return Err("movement_points, battle_limit and auto_round_limit are at most 1000".to_string());
        }
        let (w, h) = self.field_size;
        if !(8..=64).contains(&w) || !(10..=64).contains(&h) {
            return Err("field_size must be 8 to 64 cells wide and 10 to 64 high".to_string());
        }
        Ok(())
    }
}
