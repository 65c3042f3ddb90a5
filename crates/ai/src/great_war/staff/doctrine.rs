//! How far each level of the staff looks and what it does at all: one table per level.

use crate::Level;
use crate::great_war::treasury::Spending;

/// How a level plays.
#[derive(Clone, Copy, Debug)]
pub(super) struct Doctrine {
    /// Contacts previewed per reserve piece, the best defended ground first (each preview
    /// resolves the engagements the move leads to: a cavalry division reaching fifty contacts
    /// would take a work item of 35 ms in August 1914).
    pub(super) width: usize,
    /// The least D (S-COMBAT-8) in our favour for a deliberate attack.
    pub(super) superiority: i64,
    /// Relieves front pieces before S-SUP-6 costs them Morale: a fresh piece takes the post of one
    /// whose next Upkeep on the front line would cost it Morale, and that one goes off the line.
    pub(super) rotate: bool,
    /// Free pieces kept as a reserve behind the line (off the S-SUP-6 front line, so they stay
    /// fresh to relieve the line, plug a gap or strike) once every post is held.
    pub(super) keep: usize,
    pub(super) retreat: bool,
    pub(super) gas: bool,
    pub(super) repair: bool,
    pub(super) fort_level2: bool,
    /// Expected ship classes a fleet must gain to seek battle.
    pub(super) sea_odds: f64,
    /// The worst margin (S-COMBAT-8 D against us) a piece accepts when it takes a post in contact.
    pub(super) hold: i64,
    /// Reserves massed on one enemy hex in a concentrated strike (0: none).
    pub(super) strike: usize,
    /// Guns and gas prepare the Combat phase's engagements first (S-ART-2, S-CHEM-1/3).
    pub(super) prepare: bool,
    /// Looks a move ahead at sea: U-boats sail to the enemy fleet they can harm most and attack
    /// it, a fleet gives battle only where no stronger enemy fleet reaches it next, one stronger
    /// than every enemy closes on the weakest, a weaker one keeps out of reach.
    pub(super) hunt: bool,
    /// Shares ASW ships between its fleets so that no fleet lies open to U-boats (S-SUB-1/2).
    pub(super) escort: bool,
    /// Forms batteries of three guns standing together under the enemy's guns (S-ART-5).
    pub(super) batteries: bool,
    /// Lays sieges: guns break an enemy fortress when together they can this Fire phase, and no
    /// piece goes into contact with an intact one short of the attack's superiority (S-FORT-6).
    pub(super) siege: bool,
    /// Each army keeps a division in its off-map reserve and commits it where a contact next to
    /// the army needs it (S-ARMY-6, S-ARMY-8).
    pub(super) army_reserves: bool,
    /// Researches, upgrades and recruits by the state of the war (S-TURN-1, S-LAND-4, issue 12
    /// purchases), with these house numbers; `None`: buys only ammunition, gas and repairs.
    pub(super) spending: Option<Spending>,
    /// Ships land units cut off by sea from the front over to it (S-NAVAL-11, [`sea::crossing`]),
    /// and moves a fleet with warships toward them when no crossing fits in a turn.
    pub(super) sea_lift: bool,
    /// Closes rings round enemy troops: a reserve takes the hex that leaves an enemy unit no way
    /// out (S-COMBAT-11, [`crate::great_war::ring`]).
    pub(super) rings: bool,
    /// Hunts the enemy U-boats it knows of: ASW ships into a reconnaissance squadron's radius and
    /// the flight over them (S-AIR-1, S-SUB-2, S-SUB-6; [`sea::hunt`], [`sea::reconnaissance`]).
    pub(super) asw_hunt: bool,
}

impl Doctrine {
    pub(super) fn of(level: Level) -> Doctrine {
        match level {
            Level::Marshal => Doctrine {
                width: 16,
                superiority: 20,
                rotate: true,
                keep: 2,
                retreat: true,
                gas: true,
                repair: true,
                fort_level2: true,
                sea_odds: 0.5,
                hold: -4,
                strike: 4,
                prepare: true,
                hunt: true,
                escort: true,
                batteries: true,
                siege: true,
                army_reserves: true,
                spending: Some(Spending::MARSHAL),
                sea_lift: true,
                asw_hunt: true,
                rings: true,
            },
            Level::Veteran => Doctrine {
                width: 12,
                superiority: 10,
                rotate: true,
                keep: 1,
                retreat: true,
                gas: true,
                repair: true,
                fort_level2: false,
                sea_odds: 1.0,
                hold: -19,
                strike: 2,
                prepare: true,
                hunt: true,
                escort: false,
                batteries: true,
                siege: true,
                army_reserves: true,
                spending: Some(Spending::VETERAN),
                sea_lift: true,
                asw_hunt: true,
                rings: true,
            },
            _ => Doctrine {
                width: 3,
                superiority: 5,
                rotate: false,
                keep: 0,
                retreat: false,
                gas: false,
                repair: false,
                fort_level2: false,
                sea_odds: 2.0,
                hold: i64::MIN,
                strike: 0,
                prepare: false,
                hunt: false,
                escort: false,
                batteries: false,
                siege: false,
                army_reserves: false,
                spending: None,
                sea_lift: false,
                asw_hunt: false,
                rings: false,
            },
        }
    }
}
