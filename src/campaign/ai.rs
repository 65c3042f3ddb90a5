//! The campaign's AI as the shell drives it (a slice at a time, through the session): the AI
//! crate's campaign player gives the orders on the map and chooses the forces; a battle waiting
//! to be fought is not its to settle here: the scene fights it in the battle scene, where the
//! battle AI plays the sides the AI holds.

use ai::{Level, Think};
use rules::campaign::{Campaign, Ctx, Order};
use rules::tactical::Side;
use web_time::Duration;

/// The AI of one side of a campaign.
pub struct CampaignAi {
    side: Side,
    level: Level,
    stats: ai::campaign::Stats,
}

impl CampaignAi {
    pub fn new(side: Side, level: Level, _seed: u64) -> CampaignAi {
        CampaignAi { side, level, stats: ai::campaign::Stats::default() }
    }
}

impl ai::Player<Campaign> for CampaignAi {
    fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        if ctx.active_player() != Some(self.side) {
            return Think::Idle;
        }
        // Both sides have chosen: the battle is fought on the grid by the scene.
        if ctx.state.battle.as_ref().is_some_and(|b| b.chooser().is_none()) {
            return Think::Idle;
        }
        let campaign = Campaign::at(ctx.clone());
        let mut levels = [None, None];
        levels[self.side.index()] = Some(self.level);
        match ai::campaign::next_order(&campaign, levels, budget, &mut self.stats) {
            Some(order) => Think::Order(order),
            None => Think::Idle,
        }
    }
}
