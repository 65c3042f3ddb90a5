//! The general staff: plans each part of a phase as a list of work items, decides each item on
//! the game as it stands, and gives the orders one at a time.
//!
//! Movement: research by the state of the war (S-TURN-1) → economy (ammunition, gas, repairs,
//! restoring) → upgrades of the divisions nearest the enemy (S-LAND-4) → recruits of what the
//! front lacks at the own cities nearest the enemy by land (issue 12; [`super::treasury`]) →
//! batteries of three guns standing together under the enemy's guns (S-ART-5) → units cut off by
//! sea shipped to the front out of the enemy's reach (S-NAVAL-11, [`super::sea`]) → engaged
//! pieces (attack the weakest adjacent hex by the preview's odds, retreat before destruction,
//! S-ARMY-15, or step back from an intact enemy fortress fought at a loss, S-FORT-6) → the front
//! (posts covering every hex of the line, divided between the alliance's powers; a piece the next
//! Upkeep on the front line would cost Morale, S-SUP-6, leaves its post to a fresh one and goes
//! off the line first, one in contact by the retreat order) → each piece to its post, or as a
//! reserve into a contact the preview favours, on to an enemy city, or kept behind the line (off
//! the S-SUP-6 front line, plugging the line's gaps after the other moves; a piece goes into
//! contact with an intact enemy fortress only at the attack's superiority, S-FORT-6), guns
//! gathering by threes → armies → army reserves (each army's reserve committed onto a gap next
//! to it or into a contact the preview favours, S-ARMY-8; a spare division into each army's
//! reserve, S-ARMY-6) → fortifications where it defends (S-FORT-1) → ASW ships to the known U-boats (S-SUB-6) → fleets (battle
//! or port by the odds, the intercept stance only when the stronger, mines off the own coast,
//! U-boats on the enemy's lanes). Fire: the Marshal's and Veteran's guns first break the enemy
//! fortress hexes they can break together (S-FORT-6), then prepare the Combat phase — first at
//! the enemy hexes their troops fight, by the harm and the engagement's margin the preview sees —
//! else at the hex where they do most harm, gas shells when they do more (S-ART-2, S-CHEM-3);
//! bombers at ships (S-AIR-2), reconnaissance over the known U-boats (S-AIR-1). Preparation:
//! gas cylinders set where the troops face the enemy, then released (S-CHEM-1).
//!
//! The levels differ by how far they look (how many contacts each reserve previews, how much
//! superiority an attack needs, whether they rotate tired divisions, retreat, fortify a second
//! level, use gas and repair, research, upgrade and recruit, and whether they plan the spending
//! turns ahead), never by what they may see.

use super::baseline::SeaReach;
use super::front::{Front, FrontDraft, held_by_alliance, posts};
use super::judge::{
    advantage, battle_value, expected_gain, margin_at, preparation_gain, ship_worth, submarine_attack_worth,
    torpedo_worth,
};
use super::sea;
use super::treasury::{self, Spending};
use super::{enemy_combat_hexes, enemy_hexes, legal, visible_enemy_fleets};
use crate::{Level, Think};
use rules::strategic::army::{ARMY_DEPTH_HEXES, RETREAT_HEXES, fits_block};
use rules::strategic::naval::ShipType;
use rules::strategic::state::{ForceId, FormationId, FormationKind, Place};
use rules::strategic::upkeep::{CityWalk, FRONT_LINE_HEXES, ROTATION_TURNS};
use rules::strategic::{Ctx, HexAt, Order, Phase, Piece, PowerId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use web_time::{Duration, Instant};

/// How a level plays.
#[derive(Clone, Copy, Debug)]
struct Doctrine {
    /// Contacts previewed per reserve piece, the best defended ground first (each preview
    /// resolves the engagements the move leads to: a cavalry division reaching fifty contacts
    /// would take a work item of 35 ms in August 1914).
    width: usize,
    /// The least D (S-COMBAT-8) in our favour for a deliberate attack.
    superiority: i64,
    /// Relieves front pieces before S-SUP-6 costs them Morale: a fresh piece takes the post of one
    /// whose next Upkeep on the front line would cost it Morale, and that one goes off the line.
    rotate: bool,
    /// Free pieces kept as a reserve behind the line (off the S-SUP-6 front line, so they stay
    /// fresh to relieve the line, plug a gap or strike) once every post is held.
    keep: usize,
    retreat: bool,
    gas: bool,
    repair: bool,
    fort_level2: bool,
    /// Expected ship classes a fleet must gain to seek battle.
    sea_odds: f64,
    /// The worst margin (S-COMBAT-8 D against us) a piece accepts when it takes a post in contact.
    hold: i64,
    /// Reserves massed on one enemy hex in a concentrated strike (0: none).
    strike: usize,
    /// Guns and gas prepare the Combat phase's engagements first (S-ART-2, S-CHEM-1/3).
    prepare: bool,
    /// Looks a move ahead at sea: U-boats sail to the enemy fleet they can harm most and attack
    /// it, a fleet gives battle only where no stronger enemy fleet reaches it next, one stronger
    /// than every enemy closes on the weakest, a weaker one keeps out of reach.
    hunt: bool,
    /// Shares ASW ships between its fleets so that no fleet lies open to U-boats (S-SUB-1/2).
    escort: bool,
    /// Forms batteries of three guns standing together under the enemy's guns (S-ART-5).
    batteries: bool,
    /// Lays sieges: guns break an enemy fortress when together they can this Fire phase, and no
    /// piece goes into contact with an intact one short of the attack's superiority (S-FORT-6).
    siege: bool,
    /// Each army keeps a division in its off-map reserve and commits it where a contact next to
    /// the army needs it (S-ARMY-6, S-ARMY-8).
    army_reserves: bool,
    /// Researches, upgrades and recruits by the state of the war (S-TURN-1, S-LAND-4, issue 12
    /// purchases), with these house numbers; `None`: buys only ammunition, gas and repairs.
    spending: Option<Spending>,
    /// Ships land units cut off by sea from the front over to it (S-NAVAL-11, [`sea::crossing`]),
    /// and moves a fleet with warships toward them when no crossing fits in a turn.
    sea_lift: bool,
    /// Closes rings round enemy troops: a reserve takes the hex that leaves an enemy unit no way
    /// out (S-COMBAT-11, [`super::ring`]).
    rings: bool,
    /// Hunts the enemy U-boats it knows of: ASW ships into a reconnaissance squadron's radius and
    /// the flight over them (S-AIR-1, S-SUB-2, S-SUB-6; [`sea::hunt`], [`sea::reconnaissance`]).
    asw_hunt: bool,
}

impl Doctrine {
    fn of(level: Level) -> Doctrine {
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

/// A piece the staff may move: an independent unit or corps, or a corps of an army (moved by the
/// army's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Mover {
    piece: Piece,
    army: Option<FormationId>,
    at: HexAt,
    artillery: bool,
}

/// S-COMBAT-11: the enemy hexes within two hexes of its troops the staff looks at for a ring to
/// close, at most (the nearest to its reserves first), a work item each.
const RING_TARGETS: usize = 16;

/// S-COMBAT-11: how far around a pocket the staff looks for hexes open to its cities (two
/// retreats' length, S-ARMY-15).
const ESCAPE_RADIUS: u32 = 2 * RETREAT_HEXES as u32;

/// Hexes of front-drawing work in one work item (about a millisecond in a release build).
const FRONT_WORK: usize = 5_000;

/// Where a reserve's look at the contacts within its reach stands ([`Staff::reserve_contact`]).
enum Contact {
    /// More previews to make, in the next work item.
    Pending,
    Found(HexAt, Vec<HexAt>),
    None,
}

/// A reserve's contacts between work items: those to preview, the next, the best so far (margin,
/// hex, path).
struct ContactDraft {
    piece: Piece,
    list: Vec<(HexAt, Vec<HexAt>)>,
    next: usize,
    best: Option<(i64, HexAt, Vec<HexAt>)>,
}

/// Previews of a reserve's contacts in one work item.
const CONTACT_WORK: usize = 4;

/// The pockets' walks between their work items (S-COMBAT-11): the walk under way, and the hexes
/// open to our cities once the first (with the enemy counted) is done.
struct PocketDraft {
    walk: CityWalk,
    open: Option<Vec<bool>>,
}

/// The plan between its work items: the pieces, the posts wanted, and what each piece reaches.
struct PlanDraft {
    all: Vec<Mover>,
    free: Vec<Mover>,
    posts: Vec<HexAt>,
    reach: BTreeMap<Piece, BTreeMap<HexAt, u32>>,
    /// The paths of each piece to the hexes it reaches next to an enemy (a strike's moves).
    contacts: BTreeMap<Piece, Vec<(HexAt, Vec<HexAt>)>>,
    /// The matching of posts and pieces under way: the posts still open and the pieces left.
    matching: Option<(Vec<HexAt>, Vec<Mover>)>,
    /// Hexes of free pieces that the next Upkeep on the front line would cost Morale (S-SUP-6).
    tired_at: BTreeSet<HexAt>,
    /// What each piece reaches of `tired_at` (the hex is free once its piece is relieved).
    relief: BTreeMap<Piece, Vec<(HexAt, u32)>>,
    /// Tired pieces in contact (S-SUP-6) that may withdraw by the retreat order (S-ARMY-15).
    withdraw: Vec<Mover>,
    /// The posts wanted this phase (before the matching takes them).
    wanted: BTreeSet<HexAt>,
}

#[derive(Clone, Debug)]
enum Item {
    /// Draw this phase's front, a part at a time ([`FrontDraft`]).
    Front,
    /// Research what the war calls for (S-TURN-1), before the economy buys what it opens.
    Research,
    Economy,
    /// Upgrade the 1914 divisions nearest the enemy first (S-LAND-4).
    Upgrades,
    /// Raise what the front lacks at the own cities nearest the enemy (issue 12 purchases).
    Recruits,
    Engaged(Piece),
    /// Retreat this engaged piece (S-ARMY-15), once the front is drawn.
    Retreat(Piece),
    /// Withdraw this tired piece from contact so a fresh one takes its hex (S-SUP-6, S-ARMY-15).
    Withdraw(Mover),
    /// Step this piece back from the intact enemy fortress it fights at a loss (S-FORT-6).
    Screen(Piece),
    /// Find the own pieces the enemy has encircled and the open hexes near them (S-COMBAT-11).
    Pockets,
    /// Take this encircled piece out of the pocket, by a move or (engaged) the retreat order.
    Escape(Mover),
    /// List the enemy hexes a ring may close round (S-COMBAT-11).
    Rings,
    /// Send a reserve to the hex that closes a ring round this enemy hex, if one does.
    Ring(HexAt),
    Plan,
    Reach(Mover),
    Assign,
    /// List the enemy hexes a strike may reach.
    Strikes,
    /// Mass reserves on this enemy hex if the preview sees it dispersed or destroyed.
    Strike(HexAt),
    Move(Mover),
    Army(FormationId),
    Fortify,
    Fleets,
    /// One fleet's orders.
    Fleet(u32),
    Gun(ForceId),
    /// One squadron's bombing (S-AIR-2).
    Air(u32),
    Gas,
    /// Release the cylinder on this hex where it harms the enemy most, if anywhere (S-CHEM-1), on
    /// the game as the releases before it left it.
    Release(HexAt),
    /// Place gas cylinders where our troops face the enemy (S-CHEM-1).
    Cylinders,
    /// Form batteries of guns standing together (S-ART-5).
    Batteries,
    /// Break enemy fortresses with the guns that together can this Fire phase (S-FORT-6).
    Siege,
    /// Commit this army reserve where a contact next to its army needs it (S-ARMY-8).
    Commit(ForceId),
    /// Send this spare division next to this army into its off-map reserve (S-ARMY-6).
    ArmyReserve(Mover, FormationId),
    /// List the units cut off by sea from the front and the fleets that may carry them (S-NAVAL-11).
    SeaLift,
    /// This fleet's crossing with cut-off units, if one fits in this phase (S-NAVAL-11).
    Crossing(u32),
    /// A fleet with warships sails toward the cut-off units no crossing took (S-NAVAL-11).
    LiftStation,
    /// ASW ships into a reconnaissance squadron's radius over known boats (S-SUB-2, S-SUB-6).
    Hunt,
    /// This reconnaissance squadron's flight (S-AIR-1).
    Recon(u32),
}

/// The general staff of one power.
pub struct Staff {
    power: PowerId,
    doctrine: Doctrine,
    key: Option<(u32, Phase)>,
    items: VecDeque<Item>,
    queue: VecDeque<Order>,
    /// This turn's posts by mover, and the hexes already claimed.
    posts: BTreeMap<Piece, HexAt>,
    claimed: BTreeSet<HexAt>,
    /// Corps moves of each army, gathered for one order.
    army_moves: BTreeMap<FormationId, Vec<(FormationId, Vec<HexAt>)>>,
    /// This phase's front, shared by the work items that read it.
    front: Option<std::sync::Arc<Front>>,
    /// Money left to spend this Movement phase after the purchases already queued.
    money: i64,
    /// Pieces sent to stand on a hex of an enemy province's capital this turn (S-CITY-1).
    grabs: BTreeMap<Piece, HexAt>,
    /// Enemy cities open to the reserves this phase ([`objectives`]).
    objectives: Vec<HexAt>,
    draft: Option<FrontDraft>,
    plan_draft: Option<PlanDraft>,
    /// The pieces free to move this phase that may join a strike.
    reserves: Vec<Mover>,
    /// Moves of the strikes planned this phase, by piece.
    strikes: BTreeMap<Piece, (HexAt, Vec<HexAt>)>,
    strike_draft: Option<StrikeDraft>,
    /// A piece retreated after the front was drawn: the plan draws it again.
    redraw: bool,
    /// Tired pieces relieved this phase (S-SUP-6): they leave the front line first.
    relieved: BTreeSet<Piece>,
    /// Engaged pieces given an attack this phase (they stay in the fight).
    attacking: BTreeSet<Piece>,
    /// This phase's own hexes the enemy has encircled (S-COMBAT-11), and the hexes open to our
    /// cities near them, where their pieces escape to.
    pocket: BTreeSet<HexAt>,
    exits: Vec<HexAt>,
    pocket_draft: Option<PocketDraft>,
    /// A reserve's look at its contacts under way.
    contact_draft: Option<ContactDraft>,
    /// Pieces kept as a reserve behind the line this phase.
    kept: BTreeSet<Piece>,
    /// Spare divisions going into an army's off-map reserve this phase (S-ARMY-6).
    army_reserve: BTreeMap<Piece, FormationId>,
    /// The longest work item of this phase so far (when a slice stops; it changes no decision).
    longest_item: Duration,
    /// A gun's preparation shot under way: the targets looked at and the best shot so far.
    shot_draft: Option<ShotDraft>,
    /// Fleets that carried cut-off units or sail to fetch them this phase: their moves are spent
    /// on it (S-NAVAL-11).
    lifting: Vec<u32>,
    /// How long each kind of step took over the game (it changes no decision).
    pub steps: StepTimes,
}

/// The time a staff's steps took, by kind (work items, the phase's start, the engine's check of a
/// queued order): how many, in all, and the longest; for the bench and `umpire play`.
#[derive(Clone, Debug, Default)]
pub struct StepTimes(pub BTreeMap<&'static str, StepTime>);

#[derive(Clone, Copy, Debug, Default)]
pub struct StepTime {
    pub count: u32,
    pub total: Duration,
    pub longest: Duration,
}

impl StepTimes {
    pub fn add(&mut self, kind: &'static str, took: Duration) {
        let t = self.0.entry(kind).or_default();
        t.count += 1;
        t.total += took;
        t.longest = t.longest.max(took);
    }

    pub fn merge(&mut self, other: &StepTimes) {
        for (kind, o) in &other.0 {
            let t = self.0.entry(kind).or_default();
            t.count += o.count;
            t.total += o.total;
            t.longest = t.longest.max(o.longest);
        }
    }
}

impl Item {
    /// The kind of work, for [`StepTimes`].
    fn kind(&self) -> &'static str {
        match self {
            Item::Front => "front",
            Item::Research => "research",
            Item::Economy => "economy",
            Item::Upgrades => "upgrades",
            Item::Recruits => "recruits",
            Item::Engaged(_) => "engaged",
            Item::Retreat(_) => "retreat",
            Item::Withdraw(_) => "withdraw",
            Item::Screen(_) => "screen",
            Item::Pockets => "pockets",
            Item::Escape(_) => "escape",
            Item::Rings => "rings",
            Item::Ring(_) => "ring",
            Item::Plan => "plan",
            Item::Reach(_) => "reach",
            Item::Assign => "assign",
            Item::Strikes => "strikes",
            Item::Strike(_) => "strike",
            Item::Move(_) => "move",
            Item::Army(_) => "army",
            Item::Fortify => "fortify",
            Item::Fleets => "fleets",
            Item::Fleet(_) => "fleet",
            Item::Gun(_) => "gun",
            Item::Air(_) => "air",
            Item::Gas => "gas",
            Item::Release(_) => "release",
            Item::Cylinders => "cylinders",
            Item::Batteries => "batteries",
            Item::Siege => "siege",
            Item::Commit(_) => "commit",
            Item::ArmyReserve(..) => "army reserve",
            Item::SeaLift => "sea lift",
            Item::Crossing(_) => "crossing",
            Item::LiftStation => "lift station",
            Item::Hunt => "hunt",
            Item::Recon(_) => "recon",
        }
    }
}

impl Staff {
    pub fn new(power: PowerId, level: Level) -> Staff {
        Staff {
            power,
            doctrine: Doctrine::of(level),
            key: None,
            items: VecDeque::new(),
            queue: VecDeque::new(),
            posts: BTreeMap::new(),
            claimed: BTreeSet::new(),
            army_moves: BTreeMap::new(),
            front: None,
            money: 0,
            grabs: BTreeMap::new(),
            objectives: Vec::new(),
            draft: None,
            plan_draft: None,
            reserves: Vec::new(),
            strikes: BTreeMap::new(),
            strike_draft: None,
            longest_item: Duration::ZERO,
            redraw: false,
            relieved: BTreeSet::new(),
            attacking: BTreeSet::new(),
            pocket: BTreeSet::new(),
            exits: Vec::new(),
            pocket_draft: None,
            contact_draft: None,
            kept: BTreeSet::new(),
            army_reserve: BTreeMap::new(),
            shot_draft: None,
            lifting: Vec::new(),
            steps: StepTimes::default(),
        }
    }

    pub fn think(&mut self, ctx: &Ctx, start: Instant, budget: Duration) -> Think<Order> {
        let key = (ctx.clock.turn, ctx.clock.phase);
        // Whether this slice has done anything yet (the phase's start, a refused order's check,
        // a work item): only then may it stop before an item.
        let mut worked = false;
        if self.key != Some(key) {
            self.key = Some(key);
            let t0 = Instant::now();
            self.begin(ctx);
            self.steps.add("begin", t0.elapsed());
            worked = true;
        }
        // A slice keeps an eighth of its budget in hand for an item longer than the guess.
        let budget = budget.saturating_sub(budget / 8);
        loop {
            while let Some(o) = self.queue.pop_front() {
                let t0 = Instant::now();
                let ok = legal(ctx, &o);
                self.steps.add("check", t0.elapsed());
                if ok {
                    return Think::Order(o);
                }
                worked = true;
            }
            let Some(item) = self.items.pop_front() else { return Think::Order(Order::EndPhase) };
            // A slice ends before an item that might not fit in what is left of the budget (the
            // guess: the longest item of this phase so far, or half as long again as the longest
            // of its kind in the game, whichever is longer; a kind not yet timed in the game may
            // take the whole budget); the first item always runs.
            let guess = match self.steps.0.get(item.kind()) {
                Some(t) => self.longest_item.max(t.longest + t.longest / 2),
                None => budget,
            };
            if worked && start.elapsed() + guess >= budget {
                self.items.push_front(item);
                return Think::Thinking;
            }
            worked = true;
            let t0 = Instant::now();
            let kind = item.kind();
            self.work(ctx, item);
            let took = t0.elapsed();
            self.longest_item = self.longest_item.max(took);
            self.steps.add(kind, took);
        }
    }

    fn begin(&mut self, ctx: &Ctx) {
        self.items.clear();
        self.queue.clear();
        self.posts.clear();
        self.claimed.clear();
        self.army_moves.clear();
        self.grabs.clear();
        self.objectives.clear();
        self.draft = None;
        self.plan_draft = None;
        self.front = None;
        self.reserves.clear();
        self.strikes.clear();
        self.strike_draft = None;
        self.longest_item = Duration::ZERO;
        self.redraw = false;
        self.relieved.clear();
        self.attacking.clear();
        self.pocket.clear();
        self.exits.clear();
        self.pocket_draft = None;
        self.contact_draft = None;
        self.kept.clear();
        self.army_reserve.clear();
        self.shot_draft = None;
        self.lifting.clear();
        let p = self.power;
        match ctx.clock.phase {
            // S-CHEM-1: cylinders are set and released in the Preparation phase.
            Phase::Preparation if self.doctrine.gas => self.items.extend([Item::Cylinders, Item::Gas]),
            Phase::Movement => {
                let spends = self.doctrine.spending.is_some();
                if spends {
                    self.items.push_back(Item::Research);
                }
                self.items.push_back(Item::Economy);
                if spends {
                    self.items.extend([Item::Upgrades, Item::Recruits]);
                }
                if self.doctrine.batteries {
                    self.items.push_back(Item::Batteries);
                }
                // Before the land plan: units landed this phase stand where the plan sees them.
                if self.doctrine.sea_lift {
                    self.items.push_back(Item::SeaLift);
                }
                if self.doctrine.retreat {
                    self.items.push_back(Item::Pockets);
                }
                for m in movers(ctx, p) {
                    if m.army.is_none() && ctx.next_to_enemy(p, m.at) && !m.artillery {
                        self.items.push_back(Item::Engaged(m.piece));
                    }
                }
                self.items.push_back(Item::Plan);
            }
            Phase::Fire => {
                if self.doctrine.siege {
                    self.items.push_back(Item::Siege);
                }
                for f in ctx.forces.iter().filter(|f| f.power == p && f.kind.is_artillery() && f.present()) {
                    if f.member.battery.is_none_or(|b| b == f.id) {
                        self.items.push_back(Item::Gun(f.id));
                    }
                }
                let mut squadrons: Vec<u32> = ctx
                    .navy
                    .squadrons
                    .iter()
                    .filter(|s| s.power == p && !s.recon && !s.flew && s.aircraft > 0 && s.aboard.is_none())
                    .map(|s| s.id)
                    .collect();
                squadrons.sort_unstable();
                self.items.extend(squadrons.into_iter().map(Item::Air));
                if self.doctrine.asw_hunt {
                    let mut recon: Vec<u32> = ctx
                        .navy
                        .squadrons
                        .iter()
                        .filter(|s| s.power == p && s.recon && !s.flew && s.aircraft > 0 && s.aboard.is_none())
                        .map(|s| s.id)
                        .collect();
                    recon.sort_unstable();
                    self.items.extend(recon.into_iter().map(Item::Recon));
                }
            }
            _ => {}
        }
    }

    fn work(&mut self, ctx: &Ctx, item: Item) {
        // The plan reads the front as it stands after the engaged pieces' orders: draw it first
        // (again, if a piece retreated from the line the retreat's front was drawn with).
        if matches!(item, Item::Plan) && self.redraw {
            self.redraw = false;
            self.front = None;
        }
        let needs_front =
            matches!(item, Item::Plan | Item::Retreat(_) | Item::Screen(_) | Item::SeaLift | Item::Recruits);
        if self.front.is_none() && needs_front {
            self.items.push_front(item);
            self.items.push_front(Item::Front);
            return;
        }
        match item {
            Item::Front => {
                let draft = self.draft.get_or_insert_with(|| FrontDraft::new(ctx, self.power));
                match draft.step(ctx, FRONT_WORK) {
                    Some(front) => {
                        self.front = Some(std::sync::Arc::new(front));
                        self.draft = None;
                    }
                    None => self.items.push_front(Item::Front),
                }
            }
            Item::Research => {
                if let Some(s) = self.doctrine.spending {
                    self.queue.extend(treasury::research(ctx, self.power, &s, &self.gas_store()));
                }
            }
            Item::Economy => self.economy(ctx),
            Item::Upgrades | Item::Recruits => {
                if let Some(s) = self.doctrine.spending {
                    let saving = treasury::research_saving(ctx, self.power, &s, &self.gas_store());
                    let (orders, spent) = if matches!(item, Item::Upgrades) {
                        treasury::upgrades(ctx, self.power, &s, saving)
                    } else {
                        treasury::recruits(ctx, self.power, &s, saving, &self.front_now(ctx))
                    };
                    self.queue.extend(orders);
                    self.money -= spent;
                    // S-AIR-1: the squadron the hunt of known U-boats needs, from what is left.
                    if matches!(item, Item::Recruits) && self.doctrine.asw_hunt {
                        let (orders, price) = treasury::reconnaissance_squadron(ctx, self.power, &s, saving + spent);
                        self.queue.extend(orders);
                        self.money -= price;
                    }
                }
            }
            Item::Engaged(piece) => self.engaged(ctx, piece),
            Item::Retreat(piece) => {
                let front = self.front_now(ctx);
                if let Some(at) = ctx.piece_hex(piece)
                    && let Some(o) = retreat(ctx, piece, at, front)
                {
                    self.queue.push_back(o);
                    self.redraw = true;
                }
            }
            Item::Withdraw(m) => {
                let front = self.front_now(ctx);
                if let Some(o) = withdrawal(ctx, m.piece, m.at, &front, &self.claimed, FRONT_LINE_HEXES + 1) {
                    self.queue.push_back(o);
                }
            }
            Item::Screen(piece) => {
                let front = self.front_now(ctx);
                if let Some(at) = ctx.piece_hex(piece)
                    && let Some(o) = withdrawal(ctx, piece, at, &front, &self.claimed, 2)
                {
                    self.queue.push_back(o);
                    self.redraw = true;
                }
            }
            Item::Pockets => self.pockets(ctx),
            Item::Escape(m) => self.escape(ctx, m),
            Item::Rings => {
                // The enemy hexes within two hexes of our troops (a ring closes round those),
                // nearest the reserves that may close it first, one work item each.
                let held = held_by_alliance(ctx, self.power);
                let near = |t: HexAt| t.neighbours().into_iter().any(|n| super::front::covered(&held, n));
                let mut targets: Vec<(u32, HexAt)> = enemy_combat_hexes(ctx, self.power)
                    .into_iter()
                    .filter(|t| near(*t))
                    .filter_map(|t| self.reserves.iter().map(|m| m.at.distance(t)).min().map(|d| (d, t)))
                    .collect();
                targets.sort_unstable();
                for (_, t) in targets.into_iter().take(RING_TARGETS).rev() {
                    self.items.push_front(Item::Ring(t));
                }
            }
            Item::Ring(target) => self.ring(ctx, target),
            Item::Plan => self.plan(ctx),
            Item::Reach(m) => self.reach(ctx, m),
            Item::Assign => self.assign(ctx),
            Item::Strikes => self.strike_targets(ctx),
            Item::Strike(target) => self.strike(ctx, target),
            Item::Move(m) => self.move_piece(ctx, m),
            Item::Army(a) => {
                if let Some(moves) = self.army_moves.remove(&a)
                    && let Some(o) = army_order(ctx, a, moves)
                {
                    self.queue.push_back(o);
                }
            }
            Item::Fortify => self.fortify(ctx),
            Item::Fleets => {
                let mut mine: Vec<u32> =
                    ctx.navy.fleets.iter().filter(|f| f.power == self.power).map(|f| f.id).collect();
                mine.sort_unstable();
                if self.doctrine.escort {
                    // Hunting groups stay where their squadron's flight needs them.
                    let hunters = if self.doctrine.asw_hunt { sea::hunters(ctx, self.power) } else { Vec::new() };
                    self.queue.extend(escort(ctx, self.power, &hunters).into_iter().flatten());
                }
                for id in mine.into_iter().rev() {
                    self.items.push_front(Item::Fleet(id));
                }
            }
            Item::Fleet(id) => self.fleet(ctx, id),
            Item::Gun(g) => self.gun(ctx, g),
            Item::Air(sq) => {
                if let Some(o) = bombing(ctx, self.power, sq) {
                    self.queue.push_back(o);
                }
            }
            Item::Gas => {
                let p = self.power;
                let mut cylinders: Vec<HexAt> =
                    ctx.hexes.iter().filter(|(_, s)| s.cylinder == Some(p)).map(|(h, _)| *h).collect();
                cylinders.sort_unstable();
                for from in cylinders.into_iter().rev() {
                    self.items.push_front(Item::Release(from));
                }
            }
            Item::Release(from) => self.release(ctx, from),
            Item::Cylinders => self.cylinders(ctx),
            Item::Batteries => self.queue.extend(super::guns::batteries(ctx, self.power)),
            Item::Siege => self.queue.extend(super::guns::siege(ctx, self.power)),
            Item::Commit(u) => self.commit(ctx, u),
            Item::ArmyReserve(m, a) => self.army_reserve(ctx, m, a),
            Item::SeaLift => self.sea_lift(ctx),
            Item::Crossing(id) => {
                let front = self.front_now(ctx);
                let units = sea::cut_off(ctx, self.power, &front);
                if let Some(c) = sea::crossing(ctx, self.power, id, &front, &units, self.money) {
                    self.money -= c.cost;
                    self.queue.extend(c.orders);
                    self.lifting.push(id);
                    // The plan sees the landed units on the front drawn again.
                    self.redraw = true;
                }
            }
            Item::LiftStation => {
                let front = self.front_now(ctx);
                let units = sea::cut_off(ctx, self.power, &front);
                if let Some((id, path)) = sea::lift_station(ctx, self.power, &front, &units, &self.lifting) {
                    self.lifting.push(id);
                    self.queue.push_back(Order::MoveFleet { fleet: id, path });
                }
            }
            Item::Hunt => {
                if let Some((orders, _)) = sea::hunt(ctx, self.power, GUARD_BOATS, &self.lifting) {
                    self.queue.extend(orders);
                }
            }
            Item::Recon(sq) => {
                if let Some(o) = sea::reconnaissance(ctx, self.power, sq) {
                    self.queue.push_back(o);
                }
            }
        }
    }

    /// S-NAVAL-11: the fleets that may carry the units cut off by sea from the front, those with
    /// warships (escorts) first, each a [`Item::Crossing`]; then a fleet sails toward the units
    /// left ([`Item::LiftStation`]).
    fn sea_lift(&mut self, ctx: &Ctx) {
        let front = self.front_now(ctx);
        if sea::cut_off(ctx, self.power, &front).is_empty() {
            return;
        }
        let mut fleets: Vec<(bool, u32)> = ctx
            .navy
            .fleets
            .iter()
            .filter(|f| f.power == self.power && f.mp_left > 0 && !ctx.navy.is_flotilla(f.id))
            .filter(|f| !ctx.navy.afloat(f.id).is_empty())
            .map(|f| (!ctx.navy.has_warships(f.id), f.id))
            .collect();
        fleets.sort_unstable();
        self.items.push_front(Item::LiftStation);
        for (_, id) in fleets.into_iter().rev() {
            self.items.push_front(Item::Crossing(id));
        }
    }

    /// S-SUP-1, S-SUP-3: keep ammunition for two turns of fighting; S-LOSS-1/2: restore and
    /// repair with what is left once the coming Upkeep is paid ([`spendable`]) and, at the levels
    /// that plan their spending, the later Upkeeps' shortfall kept: troops that go without money
    /// lose Morale (S-SUP-2), which costs more than any purchase gains.
    fn economy(&mut self, ctx: &Ctx) {
        let p = self.power;
        let e = &ctx.scenario().rules.economy;
        let stock = &ctx.powers[usize::from(p.0)];
        let mine: Vec<_> = ctx.forces.iter().filter(|f| f.power == p && f.present()).collect();
        let need = 2 * i64::from(e.ammo_per_action) * mine.len() as i64;
        let price = i64::from(ctx.scenario().rules.ammunition.price).max(1);
        let mut money = spendable(ctx, p);
        if stock.ammo < need && money > 0 {
            let amount = ((need - stock.ammo).min(money / price)).max(0);
            if let Ok(amount) = u32::try_from(amount)
                && amount > 0
            {
                self.queue.push_back(Order::BuyAmmunition { amount });
                money -= i64::from(amount) * price;
            }
        }
        // What the Upkeeps after the coming one will lack, the levels that plan their spending
        // keep in hand ([`treasury::kept_for_upkeep`]).
        money -= self.doctrine.spending.map_or(0, |s| treasury::kept_for_upkeep(ctx, p, &s));
        // S-CHEM-1, S-CHEM-3: a staff that prepares its attacks with gas keeps a shell for each
        // gun and a cylinder for each of two hexes in contact, bought while the money lasts.
        if self.doctrine.gas
            && self.doctrine.prepare
            && let Some(buy) = ctx.scenario().rules.purchases.as_ref()
        {
            let guns = mine.iter().filter(|f| f.kind.is_artillery() && f.on_map()).count() as u32;
            let shells = guns.saturating_sub(stock.chem_shells);
            let cylinders = GAS_CYLINDERS.saturating_sub(stock.cylinders);
            let price = i64::from(shells) * i64::from(buy.gas_shell) + i64::from(cylinders) * i64::from(buy.cylinder);
            let order = Order::BuyGas { shells, cylinders };
            if shells + cylinders > 0 && price <= money && legal(ctx, &order) {
                self.queue.push_back(order);
                money -= price;
            }
        }
        for f in &mine {
            let full = i64::from(f.vitals.max_health.max(1));
            let lost = i64::from(f.vitals.max_health - f.vitals.health);
            if self.doctrine.repair && lost > 0 && f.on_map() {
                // S-LOSS-2: the unit's own price × lost/full.
                let cost = i64::from(ctx.unit_price(f.kind).money) * lost / full;
                if money >= cost {
                    self.queue.push_back(Order::Repair { unit: f.id });
                    money -= cost;
                }
            }
        }
        for f in ctx.forces.iter().filter(|f| f.power == p && f.place == Place::Dispersed) {
            // S-LOSS-1: half the unit's own price; back on the map it is paid again (S-SUP-1).
            let price = ctx.unit_price(f.kind);
            let cost = i64::from(price.money / 2) + treasury::independent_upkeep(ctx, f.kind);
            if money >= cost {
                let class = if stock.manpower[0] >= price.manpower / 2 { 1 } else { 2 };
                self.queue.push_back(Order::Restore { unit: f.id, class });
                money -= cost;
            }
        }
        self.money = money;
    }

    /// Whether this staff uses gas (it prepares its attacks with it) and the cylinders it keeps.
    fn gas_store(&self) -> treasury::GasStore {
        treasury::GasStore { used: self.doctrine.gas && self.doctrine.prepare, cylinders: GAS_CYLINDERS }
    }

    /// An engaged piece: attack the adjacent hex the preview favours most, or retreat before the
    /// engagement disperses or destroys it (S-COMBAT-8 D ≥ 20, S-ARMY-15).
    fn engaged(&mut self, ctx: &Ctx, piece: Piece) {
        let p = self.power;
        let Some(at) = ctx.piece_hex(piece) else { return };
        let enemies = enemy_combat_hexes(ctx, p);
        let best = at
            .neighbours()
            .into_iter()
            .filter(|n| enemies.contains(n))
            .map(|target| Order::Attack { piece, target })
            .filter_map(|o| advantage(ctx, p, &o).map(|a| (a, o)))
            .max_by_key(|(a, _)| *a);
        match best {
            Some((a, _)) if self.doctrine.retreat && a <= -rules::strategic::combat::D_DISPERSED => {
                // Rare: the front is drawn (in work items) for it, and again for the plan.
                self.items.push_front(Item::Retreat(piece));
            }
            // Name a target only where the odds favour us; else the front's own hex is fought.
            Some((a, o)) if a > 0 => {
                self.attacking.insert(piece);
                self.queue.push_back(o);
            }
            _ if self.pocket.contains(&at) => {
                self.items.push_front(Item::Escape(Mover { piece, army: None, at, artillery: false }));
            }
            _ if self.doctrine.siege && self.screens(ctx, at) => self.items.push_front(Item::Screen(piece)),
            _ => {}
        }
    }

    /// S-COMBAT-11: a reserve (fresh, free, not striking) takes the hex that closes a ring round
    /// the enemy unit on `target`, where one hex does ([`super::ring::closer`]); it moves there as
    /// to a capital hex (in contact only at the doctrine's hold). An encircled unit loses 2 Morale
    /// and a quarter of its value at the Upkeep, and more every turn after.
    fn ring(&mut self, ctx: &Ctx, target: HexAt) {
        let Some(draft) = self.plan_draft.as_ref() else { return };
        let reserves: BTreeSet<Piece> = self.reserves.iter().map(|m| m.piece).collect();
        let usable = |piece: &Piece| {
            reserves.contains(piece) && !self.strikes.contains_key(piece) && !self.grabs.contains_key(piece)
        };
        let found = super::ring::closer(ctx, self.power, target, &draft.reach, usable, |h| self.taken(h));
        if let Some((piece, hex)) = found {
            self.grabs.insert(piece, hex);
            self.claimed.insert(hex);
        }
    }

    /// S-COMBAT-11: the own hexes the enemy has encircled (the engine's test as the coming Upkeep
    /// will make it, were nobody to move: cut off from every city of the alliance by the enemy,
    /// not by the sea) and the hexes open to our cities within [`ESCAPE_RADIUS`] of them. The
    /// engine's walks from the cities run a part a work item.
    fn pockets(&mut self, ctx: &Ctx) {
        let p = self.power;
        // The engine's test counts the units of an alliance's powers (its neutrals too) as its
        // side, and every other unit as the other side's.
        let alliance = ctx.alliance(p).min(1);
        let draft = self
            .pocket_draft
            .get_or_insert_with(|| PocketDraft { walk: CityWalk::new(ctx, alliance, true), open: None });
        let Some(done) = draft.walk.step(ctx, FRONT_WORK) else {
            self.items.push_front(Item::Pockets);
            return;
        };
        let index = |h: HexAt| ctx.map().index(h);
        let Some(open) = draft.open.take() else {
            // Walked with the enemy counted: our hexes it did not reach may be a pocket, unless
            // the sea, not the enemy, cuts them off (the walk without the enemy tells).
            let cut = ctx
                .forces
                .iter()
                .filter(|f| ctx.alliance(f.power) == ctx.alliance(p))
                .filter_map(|f| f.hex())
                .any(|h| index(h).is_some_and(|i| !done[i]));
            if cut {
                draft.open = Some(done);
                draft.walk = CityWalk::new(ctx, alliance, false);
                self.items.push_front(Item::Pockets);
            } else {
                self.pocket_draft = None;
            }
            return;
        };
        self.pocket_draft = None;
        let is_open = |h: HexAt| index(h).is_some_and(|i| open[i]);
        self.pocket = ctx
            .forces
            .iter()
            .filter(|f| ctx.alliance(f.power) == ctx.alliance(p))
            .filter_map(|f| f.hex())
            .filter(|h| !is_open(*h) && index(*h).is_some_and(|i| done[i]))
            .collect();
        if self.pocket.is_empty() {
            return;
        }
        // The open hexes that bound the pockets (the walk goes no further than them).
        let mut seen = vec![false; ctx.map().len()];
        let mut queue: VecDeque<(HexAt, u32)> = VecDeque::new();
        for h in &self.pocket {
            if let Some(i) = index(*h) {
                seen[i] = true;
                queue.push_back((*h, 0));
            }
        }
        while let Some((h, d)) = queue.pop_front() {
            if is_open(h) {
                self.exits.push(h);
                continue;
            }
            if d == ESCAPE_RADIUS {
                continue;
            }
            for n in h.neighbours() {
                if let Some(i) = index(n).filter(|i| !seen[*i] && ctx.map().is_land(n)) {
                    seen[i] = true;
                    queue.push_back((n, d + 1));
                }
            }
        }
        self.exits.sort_unstable();
    }

    /// How far a hex lies from the nearest open hex near the pocket (0: open), `u32::MAX` when
    /// none lies near.
    fn exit_distance(&self, h: HexAt) -> u32 {
        self.exits.iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX)
    }

    /// S-COMBAT-11: an encircled piece loses 2 Morale and a quarter of its value at the coming
    /// Upkeep, and more every turn after; it goes to the reachable hex nearest the open hexes
    /// (an open one first), by a move or, engaged, by the retreat order (S-ARMY-15: 1 Morale
    /// once), where that brings it nearer.
    fn escape(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let here = self.exit_distance(at);
        if here == u32::MAX {
            return;
        }
        let engaged = ctx.next_to_enemy(p, at);
        let order = if engaged {
            let walk = RetreatWalk::from(ctx, m.piece, at);
            let best = walk
                .ends
                .iter()
                .map(|(d, h)| (self.exit_distance(*h), *d, *h))
                .filter(|(exit, _, h)| *exit < here && !self.taken(*h))
                .min();
            let Some((_, _, end)) = best else { return };
            walk.order(end)
        } else {
            let best = ctx
                .destinations(m.piece)
                .into_iter()
                .filter(|(h, _, _)| !self.taken(*h) && super::neutral_free(ctx, p, *h))
                .map(|(h, c, path)| (self.exit_distance(h), c, h, path))
                .filter(|(d, ..)| *d < here)
                .min_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
            let Some((_, _, to, path)) = best else { return };
            self.claimed.insert(to);
            Order::Move { piece: m.piece, path }
        };
        if legal(ctx, &order) {
            self.queue.push_back(order);
            // An engaged piece leaves the line before the plan: the plan draws the front again.
            self.redraw |= engaged;
        }
    }

    /// S-FORT-6, S-COMBAT-8: whether a piece on `at` should step back from the intact enemy
    /// fortress it stands against instead of fighting it by default: every enemy next to it holds
    /// an intact fortress, and the fight it stands in goes against it by [`D_STUBBORN_HEAVY`] or
    /// more (stubborn fighting then costs it 2 Morale a turn to the garrison's 1, while the
    /// fortress's level 2 stays until the guns break it). It then screens the fortress a hex off.
    fn screens(&self, ctx: &Ctx, at: HexAt) -> bool {
        use rules::strategic::combat::D_STUBBORN_HEAVY;
        let p = self.power;
        let near: Vec<HexAt> = at.neighbours().into_iter().filter(|n| ctx.enemy_on(p, *n)).collect();
        !near.is_empty()
            && near.iter().all(|n| super::guns::enemy_fortress(ctx, p, *n))
            && margin_at(ctx, p, at).is_some_and(|d| d <= -D_STUBBORN_HEAVY)
    }

    /// The front: posts on the line, divided between the alliance's powers, and who takes each.
    fn plan(&mut self, ctx: &Ctx) {
        let p = self.power;
        let front = self.front_now(ctx);
        let all = movers(ctx, p);
        // S-COMBAT-11: a free piece in a pocket makes for the open hexes first.
        let escaping: Vec<Mover> = all
            .iter()
            .copied()
            .filter(|m| {
                m.army.is_none() && self.pocket.contains(&m.at) && !ctx.next_to_enemy(p, m.at) && can_move(ctx, m)
            })
            .collect();
        for m in escaping.iter().rev() {
            self.items.push_front(Item::Escape(*m));
        }
        let free: Vec<Mover> = all
            .iter()
            .copied()
            .filter(|m| !m.artillery && !ctx.next_to_enemy(p, m.at) && can_move(ctx, m) && !escaping.contains(m))
            .collect();
        // S-SUP-6, S-ARMY-15: tired pieces in contact that may be relieved: they leave contact
        // only by the retreat order, which costs a defender 1 Morale once (and its guns: pieces
        // with artillery stay), where staying costs 1 Morale every turn. An army retreats whole
        // (S-ARMY-7), and a piece that attacks this turn stays in its fight.
        let withdraw: Vec<Mover> = if self.doctrine.rotate {
            all.iter()
                .copied()
                .filter(|m| m.army.is_none() && !m.artillery && ctx.next_to_enemy(p, m.at))
                .filter(|m| !self.attacking.contains(&m.piece) && tired(ctx, m.piece))
                .filter(|m| {
                    ctx.piece_units(m.piece).is_ok_and(|(_, units)| {
                        units.iter().filter_map(|u| ctx.force(*u)).all(|f| !f.kind.is_artillery())
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        // Everything that will stay where it stands covers the line already.
        let mut fixed = held_by_alliance(ctx, p);
        for m in free.iter().chain(&withdraw) {
            fixed.remove(&m.at);
        }
        let wanted = posts(ctx, p, &front, &fixed);
        let wanted_all: BTreeSet<HexAt> = wanted.iter().copied().collect();
        self.objectives = objectives(ctx, p);
        // Allies that move after us fill the posts nearest to their own free pieces.
        let allies: Vec<(PowerId, HexAt)> = ctx
            .forces
            .iter()
            .filter(|f| f.power > p && !ctx.hostile(p, f.power) && f.kind.is_combatant())
            .filter_map(|f| f.hex().map(|h| (f.power, h)))
            .filter(|(_, h)| !ctx.next_to_enemy(p, *h))
            .collect();
        let mine: Vec<HexAt> = wanted
            .into_iter()
            .filter(|post| {
                let own = free.iter().map(|m| m.at.distance(*post)).min().unwrap_or(u32::MAX);
                let ally = allies.iter().map(|(_, h)| h.distance(*post)).min().unwrap_or(u32::MAX);
                own <= ally
            })
            .collect();
        for m in &free {
            self.items.push_back(Item::Reach(*m));
        }
        self.items.push_back(Item::Strikes);
        if self.doctrine.rings {
            self.items.push_back(Item::Rings);
        }
        self.items.push_back(Item::Assign);
        let tired_at: BTreeSet<HexAt> = if self.doctrine.rotate {
            free.iter().filter(|m| tired(ctx, m.piece)).chain(&withdraw).map(|m| m.at).collect()
        } else {
            BTreeSet::new()
        };
        self.plan_draft = Some(PlanDraft {
            all,
            free,
            posts: mine,
            reach: BTreeMap::new(),
            contacts: BTreeMap::new(),
            matching: None,
            tired_at,
            relief: BTreeMap::new(),
            withdraw,
            wanted: wanted_all,
        });
    }

    /// What a piece reaches this turn (an army's corps at the army's allowance, S-ARMY-1).
    fn reach(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Ok((_, units)) = ctx.piece_units(m.piece) else { return };
        // An army's corps at the army's allowance (S-ARMY-1), else the piece's own.
        let mp = match m.army {
            Some(a) => ctx.group_mp(&ctx.formation_units(a)).min(ctx.group_mp(&units)),
            None => ctx.group_mp(&units),
        };
        // The engine's reach (as `Ctx::destinations`, whose paths are built only where a strike
        // may need them: next to an enemy).
        let found = ctx.reachable(p, &units, m.at, mp);
        let parents: BTreeMap<HexAt, Option<HexAt>> = found.iter().map(|(h, _, par)| (*h, *par)).collect();
        let ends: Vec<(HexAt, u32)> = found
            .iter()
            .filter(|(h, _, _)| *h != m.at && ctx.at(*h).is_empty() && super::neutral_free(ctx, p, *h))
            .map(|(h, c, _)| (*h, *c))
            .collect();
        // A post on the line may lie in a harsh climate (holding the line is worth the Health);
        // a strike keeps out of one.
        let contacts: Vec<(HexAt, Vec<HexAt>)> = if self.doctrine.strike > 0 {
            ends.iter()
                .filter(|(h, _)| ctx.next_to_enemy(p, *h) && super::climate_free(ctx, p, &units, *h))
                .map(|(h, _)| {
                    let mut path = vec![*h];
                    let mut at = *h;
                    while let Some(Some(prev)) = parents.get(&at) {
                        if *prev == m.at {
                            break;
                        }
                        path.push(*prev);
                        at = *prev;
                    }
                    path.reverse();
                    (*h, path)
                })
                .collect()
        } else {
            Vec::new()
        };
        let r = ends.into_iter().chain(std::iter::once((m.at, 0))).collect();
        if let Some(d) = self.plan_draft.as_mut() {
            // S-SUP-6: the hexes of tired pieces it could take over once they leave.
            let relief: Vec<(HexAt, u32)> = found
                .iter()
                .filter(|(h, _, _)| *h != m.at && d.tired_at.contains(h))
                .map(|(h, c, _)| (*h, *c))
                .collect();
            d.reach.insert(m.piece, r);
            d.contacts.insert(m.piece, contacts);
            d.relief.insert(m.piece, relief);
        }
    }

    /// Who takes which capital hex and which post; then the moves in order.
    fn assign(&mut self, ctx: &Ctx) {
        let p = self.power;
        let Some(mut draft) = self.plan_draft.take() else { return };
        if draft.matching.is_none() {
            // Pieces striking or closing a ring are spoken for.
            let left: Vec<Mover> = draft
                .free
                .iter()
                .copied()
                .filter(|m| !self.strikes.contains_key(&m.piece) && !self.grabs.contains_key(&m.piece))
                .collect();
            // Posts a strike stands by are held by it.
            let striking: Vec<HexAt> = self.strikes.values().map(|(h, _)| *h).collect();
            let open: Vec<HexAt> = std::mem::take(&mut draft.posts)
                .into_iter()
                .filter(|post| !striking.iter().any(|h| h.distance(*post) <= 1))
                .collect();
            draft.matching = Some((open, left));
            self.relief(ctx, &mut draft);
            // The matching in work items of its own.
            self.plan_draft = Some(draft);
            self.items.push_front(Item::Assign);
            return;
        }
        let relieved = &self.relieved;
        let relieving = |m: &Mover| relieved.contains(&m.piece);
        let army_of: BTreeMap<Piece, FormationId> =
            draft.free.iter().filter_map(|m| m.army.map(|a| (m.piece, a))).collect();
        let reach = &draft.reach;
        let reaches = |m: &Mover, post: HexAt| reach.get(&m.piece).and_then(|r| r.get(&post)).copied();
        let Some((open, left)) = draft.matching.as_mut() else { return };
        // The post fewest pieces can reach this turn first, taken by the piece that reaches the
        // fewest other posts (then the fresher, then the cheaper; one beyond reach by distance):
        // the matching leaves no post open that some piece could have held. A few posts a work
        // item: each looks at every piece left for every post open, twice.
        let mut matched = 0;
        let mut work = 0;
        while !open.is_empty() && !left.is_empty() {
            if work >= ASSIGN_WORK {
                self.plan_draft = Some(draft);
                self.items.push_front(Item::Assign);
                return;
            }
            matched += 1;
            work += 2 * open.len() * left.len();
            let (i, post) = open
                .iter()
                .copied()
                .enumerate()
                .min_by_key(|(_, post)| {
                    let n = left.iter().filter(|m| reaches(m, *post).is_some()).count();
                    (n == 0, n, *post)
                })
                .expect("open posts");
            // S-ARMY-4: an army's corps takes a post only where the army, with the posts its other
            // corps hold, still stands within its frontage and depth (the engine's block).
            let fits = |m: &Mover| match (m.army, m.piece) {
                (Some(a), Piece::Corps(_)) => {
                    let mut hexes: Vec<HexAt> = self
                        .posts
                        .iter()
                        .filter(|(q, _)| **q != m.piece && army_of.get(*q) == Some(&a))
                        .map(|(_, h)| *h)
                        .collect();
                    hexes.push(post);
                    fits_block(&hexes, ctx.army_frontage(a), ARMY_DEPTH_HEXES)
                }
                _ => true,
            };
            let Some(j) = (0..left.len()).filter(|j| fits(&left[*j])).min_by_key(|j| {
                let m = &left[*j];
                let flexible = open.iter().filter(|q| **q != post && reaches(m, **q).is_some()).count();
                match reaches(m, post) {
                    Some(c) => (0, u32::from(relieving(m)), flexible, c),
                    None => (1, u32::from(relieving(m)), 0, m.at.distance(post)),
                }
            }) else {
                // No piece left may take it: it stays open (a kept reserve may plug it).
                open.remove(i);
                continue;
            };
            open.remove(i);
            let m = left.remove(j);
            self.posts.insert(m.piece, post);
            self.claimed.insert(post);
        }
        // What follows the matching in a work item of its own.
        if matched > 0 {
            self.plan_draft = Some(draft);
            self.items.push_front(Item::Assign);
            return;
        }
        // A tired piece that took a post after all stays on the line (no fresh piece reached it);
        // so does one in contact whose hex the line needs and no fresh piece took.
        let posts = &self.posts;
        self.relieved.retain(|piece| !posts.contains_key(piece));
        for m in &draft.withdraw {
            if draft.wanted.contains(&m.at) && !self.claimed.contains(&m.at) {
                self.relieved.remove(&m.piece);
            }
        }
        let Some((_, mut left)) = draft.matching.take() else { return };
        let PlanDraft { all, free, reach, withdraw, .. } = draft;
        let reaches = |m: &Mover, post: HexAt| reach.get(&m.piece).and_then(|r| r.get(&post)).copied();
        // S-CITY-1: a province changes hands when our troops hold every hex of its capital at
        // Upkeep; each capital hex within this turn's reach gets the piece that reaches it most
        // cheaply among the pieces the line does not need (the front stays closed first).
        let capitals: Vec<HexAt> = capital_hexes(ctx, p).into_iter().filter(|h| !self.claimed.contains(h)).collect();
        for hex in capitals {
            let best = (0..left.len()).filter_map(|j| reaches(&left[j], hex).map(|c| (c, left[j].piece, j))).min();
            if let Some((_, piece, j)) = best {
                left.remove(j);
                self.grabs.insert(piece, hex);
                self.claimed.insert(hex);
            }
        }
        // S-ARMY-6: each army keeps a spare division in its off-map reserve; those count against
        // the reserve the doctrine keeps behind the line.
        let held = self.army_reserves(ctx, &mut left, &reach);
        // A reserve behind the line (the doctrine's count, the pieces nearest the line first, fresh
        // ones only): it relieves, plugs gaps and strikes next turn instead of marching off.
        if let Some(front) = self.front.clone() {
            let mut spare: Vec<Mover> = left
                .iter()
                .copied()
                .filter(|m| !self.grabs.contains_key(&m.piece) && !self.relieved.contains(&m.piece) && m.army.is_none())
                .filter(|m| !tired(ctx, m.piece))
                .collect();
            spare.sort_by_key(|m| (front.enemy_steps(m.at), m.piece));
            self.kept.extend(spare.into_iter().take(self.doctrine.keep.saturating_sub(held)).map(|m| m.piece));
        }
        // Relieved pieces first (they leave the hexes their relief takes), then posts (the line
        // before the reserves), then reserves, artillery, armies, the rest.
        // The kept reserves last: they plug what gaps the line still has.
        for m in withdraw.iter().filter(|m| self.relieved.contains(&m.piece)) {
            self.items.push_back(Item::Withdraw(*m));
        }
        let mut order: Vec<Mover> = free.iter().copied().filter(|m| self.relieved.contains(&m.piece)).collect();
        order.extend(free.iter().copied().filter(|m| self.posts.contains_key(&m.piece)));
        order.extend(free.iter().copied().filter(|m| {
            !self.posts.contains_key(&m.piece)
                && !self.relieved.contains(&m.piece)
                && !self.kept.contains(&m.piece)
                && !self.army_reserve.contains_key(&m.piece)
        }));
        order.extend(all.iter().copied().filter(|m| m.artillery && can_move(ctx, m) && m.army.is_none()));
        order.extend(free.iter().copied().filter(|m| self.kept.contains(&m.piece)));
        for m in order {
            self.items.push_back(Item::Move(m));
        }
        let armies: BTreeSet<FormationId> = all.iter().filter_map(|m| m.army).collect();
        for a in armies {
            self.items.push_back(Item::Army(a));
        }
        // S-ARMY-8: the reserves already off the map come in where the line needs them after the
        // moves; then the spare divisions join their armies' reserves.
        if self.doctrine.army_reserves {
            for f in ctx.forces.iter().filter(|f| f.power == p && matches!(f.place, Place::Reserve(_))) {
                self.items.push_back(Item::Commit(f.id));
            }
            let joining: Vec<(Mover, FormationId)> =
                free.iter().filter_map(|m| self.army_reserve.get(&m.piece).map(|a| (*m, *a))).collect();
            self.items.extend(joining.into_iter().map(|(m, a)| Item::ArmyReserve(m, a)));
        }
        self.items.push_back(Item::Fortify);
        if self.doctrine.asw_hunt {
            self.items.push_back(Item::Hunt);
        }
        self.items.push_back(Item::Fleets);
    }

    /// S-SUP-6: the free pieces the next Upkeep on the front line would cost Morale that can get
    /// off the front line this turn are to be relieved; the hexes they leave join the reach of
    /// the other pieces, so the matching gives their posts to fresh pieces first (a relieved
    /// piece that no fresh one replaces keeps its post: the line stays closed).
    fn relief(&mut self, ctx: &Ctx, draft: &mut PlanDraft) {
        if !self.doctrine.rotate || draft.tired_at.is_empty() {
            return;
        }
        let p = self.power;
        let enemies = enemy_hexes(ctx, p);
        for m in draft.free.iter().filter(|m| draft.tired_at.contains(&m.at) && !self.strikes.contains_key(&m.piece)) {
            let away = draft.reach.get(&m.piece).is_some_and(|r| r.keys().any(|h| off_front_line(&enemies, *h)));
            if away {
                self.relieved.insert(m.piece);
            }
        }
        // A tired piece in contact is relieved where it can withdraw off the front line.
        let front = self.front_now(ctx);
        for m in &draft.withdraw {
            if withdrawal(ctx, m.piece, m.at, &front, &BTreeSet::new(), FRONT_LINE_HEXES + 1).is_some() {
                self.relieved.insert(m.piece);
            }
        }
        let freed: BTreeSet<HexAt> = draft
            .free
            .iter()
            .chain(&draft.withdraw)
            .filter(|m| self.relieved.contains(&m.piece))
            .map(|m| m.at)
            .collect();
        for (piece, hexes) in &draft.relief {
            if let Some(r) = draft.reach.get_mut(piece) {
                for (h, c) in hexes.iter().filter(|(h, _)| freed.contains(h)) {
                    r.entry(*h).or_insert(*c);
                }
            }
        }
    }

    /// The enemy hexes next to which some piece free to move this turn can stand, sorted: each
    /// gets a [`Self::strike`] before the line's posts are given out (a strike that scatters the
    /// enemy facing a sector does more than a post held against it).
    fn strike_targets(&mut self, ctx: &Ctx) {
        let p = self.power;
        let Some(draft) = self.plan_draft.as_ref() else { return };
        if self.doctrine.strike == 0 {
            return;
        }
        // A piece the next Upkeep on the line would cost Morale is relieved, not thrown in (S-SUP-6).
        let rotate = self.doctrine.rotate;
        self.reserves =
            draft.free.iter().copied().filter(|m| !m.artillery && (!rotate || !tired(ctx, m.piece))).collect();
        let mut targets: Vec<HexAt> = enemy_combat_hexes(ctx, p)
            .into_iter()
            .filter(|t| {
                t.neighbours()
                    .iter()
                    .any(|n| self.reserves.iter().any(|m| draft.reach.get(&m.piece).is_some_and(|r| r.contains_key(n))))
            })
            .collect();
        targets.sort();
        for t in targets.into_iter().rev() {
            self.items.push_front(Item::Strike(t));
        }
    }

    /// A concentrated strike (S-COMBAT-8: D is the margin per division of the weaker side, and
    /// D ≥ 20 disperses its engaged units, D ≥ 30 destroys them, while stubborn fighting below
    /// costs every engaged unit of ours Health and Morale): the reserves that reach a free hex next
    /// to `target` join one at a time, each time the one the preview sees raising the margin most,
    /// on a blind copy that holds the moves chosen before; the strike is ordered only if its margin
    /// reaches the doctrine's superiority (and at least dispersal). Each call looks at a few
    /// reserves and comes back ([`StrikeDraft`]), so a strike fits in think slices.
    fn strike(&mut self, ctx: &Ctx, target: HexAt) {
        let p = self.power;
        let mut draft = match self.strike_draft.take() {
            Some(d) if d.target == target => d,
            _ => StrikeDraft {
                target,
                probe: super::blind(ctx),
                chosen: Vec::new(),
                margin: i64::MIN,
                next: 0,
                near: 0,
                best: None,
            },
        };
        // A few previews a work item: a reserve's contacts next to the target may be looked at
        // over several items (each preview applies its move to a copy of the game).
        let mut previews = 0;
        while draft.next < self.reserves.len() && previews < STRIKE_WORK {
            let m = self.reserves[draft.next];
            let near = self.strike_contacts(&draft, m);
            let Some((h, path)) = near.get(draft.near) else {
                draft.next += 1;
                draft.near = 0;
                continue;
            };
            draft.near += 1;
            previews += 1;
            let o = strike_order(m, path.clone());
            let Some(a) = margin_after(&draft.probe, p, &o) else { continue };
            if draft.best.as_ref().is_none_or(|b| a > b.0) {
                draft.best = Some((a, m, *h, path.clone()));
            }
        }
        if draft.next < self.reserves.len() {
            self.strike_draft = Some(draft);
            self.items.push_front(Item::Strike(target));
            return;
        }
        // A round is over: the best reserve joins if it raises the margin.
        let joins = draft.best.take().filter(|b| draft.margin == i64::MIN || b.0 > draft.margin);
        let done = match joins {
            Some((a, m, h, path)) if draft.probe.apply(&strike_order(m, path.clone())).is_ok() => {
                draft.margin = a;
                draft.chosen.push((m.piece, h, path, m.army));
                draft.margin >= rules::strategic::combat::D_DESTROYED || draft.chosen.len() >= self.doctrine.strike
            }
            _ => true,
        };
        if !done {
            draft.next = 0;
            draft.near = 0;
            self.strike_draft = Some(draft);
            self.items.push_front(Item::Strike(target));
            return;
        }
        let goal = self.doctrine.superiority.max(rules::strategic::combat::D_DISPERSED);
        if draft.margin < goal {
            return;
        }
        // The line first where it can be closed: a strike takes only pieces the posts it does not
        // stand by can spare. Where the power has fewer pieces than posts, the line has gaps
        // whatever it does, and the strikes go first.
        // Pieces due for relief (S-SUP-6) hold no post if fresh ones can: they count out.
        if let Some(plan) = self.plan_draft.as_ref()
            && plan.free.len() >= plan.posts.len()
        {
            let fresh = plan.free.len().saturating_sub(plan.tired_at.len());
            let striking: Vec<HexAt> =
                self.strikes.values().map(|(h, _)| *h).chain(draft.chosen.iter().map(|c| c.1)).collect();
            let needed = plan.posts.iter().filter(|post| !striking.iter().any(|h| h.distance(**post) <= 1)).count();
            let left = fresh.saturating_sub(self.strikes.len() + draft.chosen.len());
            if left < needed {
                return;
            }
        }
        for (piece, h, path, _) in draft.chosen {
            self.claimed.insert(h);
            self.strikes.insert(piece, (h, path));
        }
    }

    /// The hexes next to the strike's target that reserve `m` reaches, with their paths; none if
    /// it strikes elsewhere already, is chosen for this strike, or another corps of its army is
    /// (an army's corps move in one order).
    fn strike_contacts(&self, draft: &StrikeDraft, m: Mover) -> Vec<(HexAt, Vec<HexAt>)> {
        let chosen = self.strikes.contains_key(&m.piece) || draft.chosen.iter().any(|c| c.0 == m.piece);
        if chosen || (m.army.is_some() && draft.chosen.iter().any(|c| c.3 == m.army)) {
            return Vec::new();
        }
        let Some(paths) = self.plan_draft.as_ref().and_then(|d| d.contacts.get(&m.piece)) else { return Vec::new() };
        paths
            .iter()
            .filter(|(h, _)| {
                h.distance(draft.target) == 1 && !self.taken(*h) && !draft.chosen.iter().any(|c| c.1 == *h)
            })
            .cloned()
            .collect()
    }

    fn move_piece(&mut self, ctx: &Ctx, m: Mover) {
        let p = self.power;
        let Some(front) = self.front.clone() else { return };
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let own_post = self.posts.get(&m.piece).copied();
        let free_for = |h: HexAt| own_post == Some(h) || !self.taken(h);
        // A post on the line (or a gap a kept reserve plugs) may lie in a harsh climate; other
        // moves keep out of one (S-SUP-5).
        let plugs = self.kept.contains(&m.piece);
        let fit = |h: HexAt| {
            super::neutral_free(ctx, p, h)
                && (own_post.is_some()
                    || plugs
                    || ctx.piece_units(m.piece).is_ok_and(|(_, u)| super::climate_free(ctx, p, &u, h)))
        };
        let dests: Vec<(HexAt, u32, Vec<HexAt>)> = match m.army {
            // An army moves at its slowest division's allowance (S-ARMY-1), and only where it
            // stands within its frontage and depth after (S-ARMY-4, asked of the engine).
            Some(a) => {
                let mp = ctx.group_mp(&ctx.formation_units(a));
                let within = |h: HexAt| self.army_fits(ctx, a, m.piece, h);
                ctx.destinations(m.piece)
                    .into_iter()
                    .filter(|(h, c, _)| *c <= mp && free_for(*h) && fit(*h) && within(*h))
                    .collect()
            }
            None => ctx.destinations(m.piece).into_iter().filter(|(h, _, _)| free_for(*h) && fit(*h)).collect(),
        };
        let grab = self.grabs.get(&m.piece).copied().and_then(|hex| {
            let (h, _, path) = dests.iter().find(|(h, _, _)| *h == hex)?;
            let hold = self.contact_bar(ctx, *h);
            let safe = !ctx.next_to_enemy(p, *h)
                || hold == i64::MIN
                || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.clone() }).is_none_or(|a| a >= hold);
            safe.then(|| (*h, path.clone()))
        });
        let strike = self.strikes.get(&m.piece).cloned();
        let choice = if strike.is_some() {
            strike
        } else if grab.is_some() {
            grab
        } else if m.artillery {
            artillery_spot(ctx, p, &front, at, &dests, self.doctrine.batteries)
        } else if let Some(post) = self.posts.get(&m.piece).copied() {
            if post == at {
                None
            } else {
                // A post in contact is taken only if the preview does not see the piece dispersed
                // or worse there (facing an intact fortress: short of the attack's superiority);
                // else it stands next to it, out of contact.
                let safe = |h: HexAt, path: &[HexAt]| {
                    let hold = self.contact_bar(ctx, h);
                    !ctx.next_to_enemy(p, h)
                        || hold == i64::MIN
                        || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.to_vec() })
                            .is_none_or(|a| a >= hold)
                };
                let post_ok = dests.iter().find(|(h, _, _)| *h == post).is_none_or(|(h, _, path)| safe(*h, path));
                toward(&dests, post, |h| front.ours(h) && ((h == post && post_ok) || !ctx.next_to_enemy(p, h)))
            }
        } else {
            match self.reserve_contact(ctx, m, &dests) {
                Contact::Pending => {
                    self.items.push_front(Item::Move(m));
                    return;
                }
                Contact::Found(h, path) => Some((h, path)),
                Contact::None => self.reserve(ctx, &front, m, at, &dests),
            }
        };
        let Some((to, path)) = choice else { return };
        // A strike's path was found before the army's other moves (S-ARMY-4): where the army would
        // not stand within its frontage there, the corps goes as near as it may.
        let (to, path) = match m.army {
            Some(a) if !self.army_fits(ctx, a, m.piece, to) => {
                let Some(near) = toward(&dests, to, |h| front.ours(h) && !ctx.next_to_enemy(p, h)) else { return };
                near
            }
            _ => (to, path),
        };
        self.claimed.insert(to);
        match m.army {
            Some(a) => {
                if let Piece::Corps(c) = m.piece {
                    self.army_moves.entry(a).or_default().push((c, path));
                }
            }
            None => self.queue.push_back(Order::Move { piece: m.piece, path }),
        }
    }

    /// S-ARMY-4: whether army `a` would stand within its frontage and depth (the engine's check
    /// [`Ctx::check_army_frontage`]) with corps `piece` on `h`, the corps whose moves are planned on
    /// the ends of their moves and those with a post yet to move on their posts.
    fn army_fits(&self, ctx: &Ctx, a: FormationId, piece: Piece, h: HexAt) -> bool {
        let Piece::Corps(corps) = piece else { return true };
        let Some(fm) = ctx.formation(a) else { return true };
        let planned = self.army_moves.get(&a);
        let mut placed: Vec<(FormationId, HexAt)> = vec![(corps, h)];
        for c in fm.corps.iter().copied().filter(|c| *c != corps) {
            let end = planned.and_then(|v| v.iter().find(|(x, _)| *x == c)).and_then(|(_, path)| path.last().copied());
            if let Some(at) = end.or_else(|| self.posts.get(&Piece::Corps(c)).copied()) {
                placed.push((c, at));
            }
        }
        ctx.check_army_frontage(a, &placed).is_ok()
    }

    /// This phase's front (drawn by the `Front` work items before the plan; at once for a retreat).
    fn front_now(&mut self, ctx: &Ctx) -> std::sync::Arc<Front> {
        self.front.get_or_insert_with(|| std::sync::Arc::new(Front::of(ctx, self.power))).clone()
    }

    fn taken(&self, h: HexAt) -> bool {
        self.claimed.contains(&h)
    }

    /// A reserve: into the contact the preview favours most (local superiority), else tired ones
    /// to the rear, else on to an enemy city when the way is open, else two hexes behind the line.
    /// A reserve goes into the contact within its reach where the preview gives the best margin,
    /// at the doctrine's superiority at least: the doctrine's `width` of them, the best defended
    /// ground first, then the cheapest, [`CONTACT_WORK`] previews a work item.
    fn reserve_contact(&mut self, ctx: &Ctx, m: Mover, dests: &[(HexAt, u32, Vec<HexAt>)]) -> Contact {
        let p = self.power;
        let d = self.doctrine;
        if m.army.is_some() || self.relieved.contains(&m.piece) || self.kept.contains(&m.piece) {
            return Contact::None;
        }
        let draft = match self.contact_draft.take() {
            Some(draft) if draft.piece == m.piece => draft,
            _ => {
                let mut contacts: Vec<&(HexAt, u32, Vec<HexAt>)> =
                    dests.iter().filter(|(h, _, _)| ctx.next_to_enemy(p, *h)).collect();
                contacts.sort_by_key(|(h, c, _)| (std::cmp::Reverse(super::front::defence(ctx, p, *h)), *c, *h));
                let list = contacts.into_iter().take(d.width).map(|(h, _, path)| (*h, path.clone())).collect();
                ContactDraft { piece: m.piece, list, next: 0, best: None }
            }
        };
        let mut draft = draft;
        for _ in 0..CONTACT_WORK {
            let Some((h, path)) = draft.list.get(draft.next).cloned() else { break };
            draft.next += 1;
            let o = Order::Move { piece: m.piece, path: path.clone() };
            if let Some(a) = advantage(ctx, p, &o).filter(|a| *a >= d.superiority)
                && draft.best.as_ref().is_none_or(|(b, bh, _)| (a, std::cmp::Reverse(h)) > (*b, std::cmp::Reverse(*bh)))
            {
                draft.best = Some((a, h, path));
            }
        }
        if draft.next < draft.list.len() {
            self.contact_draft = Some(draft);
            return Contact::Pending;
        }
        match draft.best {
            Some((_, h, path)) => Contact::Found(h, path),
            None => Contact::None,
        }
    }

    fn reserve(
        &self,
        ctx: &Ctx,
        front: &Front,
        m: Mover,
        at: HexAt,
        dests: &[(HexAt, u32, Vec<HexAt>)],
    ) -> Option<(HexAt, Vec<HexAt>)> {
        let p = self.power;
        let d = self.doctrine;
        if self.relieved.contains(&m.piece) {
            // S-SUP-6: off the front line (more than 3 hexes from every enemy), the nearest spot.
            let enemies = enemy_hexes(ctx, p);
            let back = dests
                .iter()
                .filter(|(h, _, _)| front.ours(*h) && off_front_line(&enemies, *h) && !self.taken(*h))
                .min_by_key(|(h, c, _)| (*c, *h))
                .map(|(h, _, path)| (*h, path.clone()));
            return back.or_else(|| toward_far(dests, front, 4));
        }
        if self.kept.contains(&m.piece) {
            let unharmed: Vec<(HexAt, u32, Vec<HexAt>)> = match ctx.piece_units(m.piece) {
                Ok((_, units)) => {
                    dests.iter().filter(|(h, _, _)| super::climate_free(ctx, p, &units, *h)).cloned().collect()
                }
                Err(_) => Vec::new(),
            };
            return self.plug(ctx, front, m, dests).or_else(|| reserve_spot(ctx, p, front, at, &unharmed));
        }
        if d.rotate && tired(ctx, m.piece) {
            return toward_far(dests, front, 4);
        }
        if let Some(city) =
            self.objectives.iter().copied().filter(|h| !held_now(ctx, p, *h)).min_by_key(|h| (h.distance(at), *h))
        {
            let step = toward(dests, city, |h| !ctx.next_to_enemy(p, h) || h == city);
            if step.is_some() {
                return step;
            }
        }
        if front.enemy_steps(at) > 3 || front.enemy_steps(at) < 2 {
            let spot = dests
                .iter()
                .filter(|(h, _, _)| front.ours(*h) && front.enemy_steps(*h) == 3)
                .min_by_key(|(h, c, _)| (h.distance(at), *c, *h));
            return spot.map(|(h, _, path)| (*h, path.clone()));
        }
        None
    }

    /// A kept reserve plugs the first gap the line has after the other moves (a line hex no piece
    /// holds or stands next to): onto it or next to it on our side, where the preview does not
    /// see it dispersed or worse if it is in contact.
    fn plug(
        &self,
        ctx: &Ctx,
        front: &Front,
        m: Mover,
        dests: &[(HexAt, u32, Vec<HexAt>)],
    ) -> Option<(HexAt, Vec<HexAt>)> {
        let p = self.power;
        let safe = |h: HexAt, path: &[HexAt]| {
            let hold = self.contact_bar(ctx, h);
            !ctx.next_to_enemy(p, h)
                || advantage(ctx, p, &Order::Move { piece: m.piece, path: path.to_vec() }).is_none_or(|a| a >= hold)
        };
        front.gaps(ctx, p).into_iter().find_map(|gap| {
            dests
                .iter()
                .filter(|(h, _, _)| (*h == gap || h.is_adjacent(gap)) && front.ours(*h) && !self.taken(*h))
                .filter(|(h, _, path)| safe(*h, path))
                .min_by_key(|(h, c, _)| (*c, *h))
                .map(|(h, _, path)| (*h, path.clone()))
        })
    }

    /// The least margin (S-COMBAT-8 D) at which a piece goes into contact on `h`: the doctrine's
    /// hold, or next to an enemy-held intact fortress (level 2 from every side, S-FORT-6) the
    /// superiority of a deliberate attack, so that no division is spent on one at bad odds; the
    /// line then stands off it, out of contact.
    fn contact_bar(&self, ctx: &Ctx, h: HexAt) -> i64 {
        if self.doctrine.siege && super::guns::faces_fortress(ctx, self.power, h) {
            self.doctrine.superiority.max(self.doctrine.hold)
        } else {
            self.doctrine.hold
        }
    }

    /// S-ARMY-6: each of our armies without a division in its off-map reserve takes the spare
    /// division (fresh, independent, not needed on the line or at a capital) that reaches a hex
    /// next to it most cheaply this turn, out of `left`. Returns how many armies hold a reserve.
    fn army_reserves(
        &mut self,
        ctx: &Ctx,
        left: &mut Vec<Mover>,
        reach: &BTreeMap<Piece, BTreeMap<HexAt, u32>>,
    ) -> usize {
        if !self.doctrine.army_reserves {
            return 0;
        }
        let p = self.power;
        let mut held = 0;
        for a in ctx.formations.iter().filter(|f| f.power == p && f.kind == FormationKind::Army) {
            let hexes = ctx.formation_hexes(a.id);
            if hexes.is_empty() {
                continue;
            }
            if ctx.forces.iter().any(|f| f.place == Place::Reserve(a.id)) {
                held += 1;
                continue;
            }
            let around: BTreeSet<HexAt> = hexes.iter().flat_map(|h| h.neighbours().into_iter().chain([*h])).collect();
            let next_to = |h: &HexAt| around.contains(h);
            let best = left
                .iter()
                .enumerate()
                .filter(|(_, m)| matches!(m.piece, Piece::Unit(_)) && m.army.is_none())
                .filter(|(_, m)| !self.grabs.contains_key(&m.piece) && !self.relieved.contains(&m.piece))
                .filter(|(_, m)| !tired(ctx, m.piece))
                .filter_map(|(j, m)| {
                    let cost = reach.get(&m.piece)?.iter().filter(|(h, _)| next_to(h)).map(|(_, c)| *c).min()?;
                    Some((cost, m.piece, j))
                })
                .min();
            if let Some((_, piece, j)) = best {
                left.remove(j);
                self.army_reserve.insert(piece, a.id);
                held += 1;
            }
        }
        held
    }

    /// S-ARMY-6: a spare division goes next to its army (out of contact, the cheapest hex) and
    /// into the army's off-map reserve, where it stays fresh (off the S-SUP-6 front line) and out
    /// of harm until a contact needs it; where the army's moves took it out of reach, it stays a
    /// reserve behind the line.
    fn army_reserve(&mut self, ctx: &Ctx, m: Mover, army: FormationId) {
        let p = self.power;
        let Piece::Unit(unit) = m.piece else { return };
        let Some(at) = ctx.piece_hex(m.piece) else { return };
        let hexes = ctx.formation_hexes(army);
        let next_to = |h: HexAt| hexes.iter().any(|x| x.distance(h) <= 1);
        let assign = Order::AssignReserve { unit, army };
        if next_to(at) {
            self.queue.push_back(assign);
            return;
        }
        let Ok((_, units)) = ctx.piece_units(m.piece) else { return };
        let spot = ctx
            .destinations(m.piece)
            .into_iter()
            .filter(|(h, _, _)| next_to(*h) && !ctx.next_to_enemy(p, *h) && !self.taken(*h))
            .filter(|(h, _, _)| super::fit_to_stand(ctx, p, &units, *h))
            .min_by_key(|(h, c, _)| (*c, *h));
        match spot {
            Some((h, _, path)) => {
                self.claimed.insert(h);
                self.queue.push_back(Order::Move { piece: m.piece, path });
                self.queue.push_back(assign);
            }
            // The army moved out of its reach: it stays a reserve behind the line this turn.
            None => {
                self.kept.insert(m.piece);
                self.move_piece(ctx, m);
            }
        }
    }

    /// S-ARMY-8: a division in an army's reserve comes onto a free hex next to its army where a
    /// contact needs it, after the other moves: onto a gap of the line (or next to one, on our
    /// side) where the preview does not see it beaten there; else into the contact where the
    /// preview sees it strike with the doctrine's superiority (it joins the combat at once and
    /// counts Attack, S-ARMY-9). Otherwise it stays in reserve.
    fn commit(&mut self, ctx: &Ctx, unit: ForceId) {
        let p = self.power;
        let Some(Place::Reserve(army)) = ctx.force(unit).map(|f| f.place) else { return };
        let Some(front) = self.front.clone() else { return };
        let mut spots: Vec<HexAt> = ctx
            .formation_hexes(army)
            .into_iter()
            .flat_map(|h| h.neighbours())
            .filter(|h| ctx.map().is_land(*h) && ctx.at(*h).is_empty() && !self.taken(*h))
            .filter(|h| super::fit_to_stand(ctx, p, &[unit], *h))
            .collect();
        spots.sort();
        spots.dedup();
        let order = |to: HexAt| Order::CommitReserve { unit, to };
        let beaten = |h: HexAt| {
            ctx.next_to_enemy(p, h) && advantage(ctx, p, &order(h)).is_none_or(|a| a < self.contact_bar(ctx, h))
        };
        let gap = front.gaps(ctx, p).into_iter().find_map(|g| {
            spots.iter().copied().filter(|h| (*h == g || h.is_adjacent(g)) && front.ours(*h)).find(|h| !beaten(*h))
        });
        let strike = || {
            spots
                .iter()
                .copied()
                .filter(|h| ctx.next_to_enemy(p, *h))
                .take(COMMIT_WORK)
                .filter_map(|h| advantage(ctx, p, &order(h)).map(|a| (a, h)))
                .filter(|(a, h)| *a >= self.doctrine.superiority.max(self.contact_bar(ctx, *h)))
                .max_by_key(|(a, h)| (*a, std::cmp::Reverse(*h)))
                .map(|(_, h)| h)
        };
        if let Some(to) = gap.or_else(strike) {
            self.claimed.insert(to);
            self.queue.push_back(order(to));
        }
    }

    /// S-FORT-1: pieces that stand still where they defend dig in, while the treasury keeps a
    /// turn's upkeep.
    fn fortify(&mut self, ctx: &Ctx) {
        let p = self.power;
        let e = &ctx.scenario().rules.economy;
        let mut money = self.money;
        let Some(front) = self.front.clone() else { return };
        for m in movers(ctx, p) {
            if m.artillery {
                continue;
            }
            let Ok((_, units)) = ctx.piece_units(m.piece) else { continue };
            if units.iter().any(|u| ctx.force(*u).is_some_and(|f| f.activity.moved || f.activity.fortified)) {
                continue;
            }
            // Only on the line or in contact: a fortification behind the front is money lost.
            if !(front.on_line(m.at) || ctx.next_to_enemy(p, m.at)) {
                continue;
            }
            let hs = ctx.hex_state(m.at);
            let ours = hs.fort_alliance == ctx.alliance(p);
            let level = if hs.fort == 0 || !ours { 0 } else { usize::from(hs.fort) };
            if level >= 2 || (level == 1 && !self.doctrine.fort_level2) {
                continue;
            }
            let price = i64::from(e.fortification[level]);
            let order = Order::Fortify { piece: m.piece };
            if money >= price && legal(ctx, &order) {
                money -= price;
                self.queue.push_back(order);
            }
        }
    }

    /// Fleets seek battle when the engine's odds favour them and lie in port otherwise;
    /// minelayers lay, minesweepers sweep where the enemy laid; submarines raid enemy sea lanes.
    fn fleet(&mut self, ctx: &Ctx, id: u32) {
        let p = self.power;
        let enemies = visible_enemy_fleets(ctx, p);
        if let Some(f) = ctx.navy.fleet(id).filter(|f| f.power == p) {
            if ctx.navy.afloat(f.id).is_empty() {
                return;
            }
            for o in [Order::LayMine { fleet: f.id }, Order::Sweep { fleet: f.id }] {
                let useful = match o {
                    Order::Sweep { .. } => {
                        let area = ctx.map().cell(f.at).map_or(0, |c| c.sea_area);
                        area > 0 && ctx.navy.enemy_mines(area - 1, |q| ctx.hostile(p, q)) > 0
                    }
                    // Mines guard our own coast (S-MINE-1): laid in a sea area that touches it.
                    _ => ctx.navy.count(f.id, ShipType::Minelayer) > 0 && own_coast(ctx, p, f.at),
                };
                if useful && legal(ctx, &o) {
                    self.queue.push_back(o);
                }
            }
            let paths = SeaReach::of(ctx, f.id);
            if ctx.navy.is_flotilla(f.id) {
                let hunt = if self.doctrine.hunt { hunt(ctx, f.id, f.at, &paths) } else { None };
                match hunt {
                    Some(orders) => self.queue.extend(orders),
                    None => self.queue.extend(self.raid(ctx, f.id, f.at, &paths)),
                }
                return;
            }
            if !ctx.navy.has_warships(f.id) {
                return;
            }
            // S-NAVAL-12, S-NAVAL-10: a fleet stronger than every enemy fleet in sight intercepts
            // and stands its ground; a weaker one keeps out of battle (a fleet in being) and
            // withdraws after a round when it must fight.
            let weakest = enemies.iter().map(|e| battle_value(ctx, f.id, *e)).min_by(f64::total_cmp);
            let stronger = weakest.is_some_and(|v| v >= self.doctrine.sea_odds);
            let stance = Order::FleetStance {
                fleet: f.id,
                intercept: stronger,
                withdraw: !stronger,
                transports_first: f.transports_first,
                targets: ctx.ship_targets(f.id),
            };
            if (f.intercept, f.withdraw) != (stronger, !stronger) && legal(ctx, &stance) {
                self.queue.push_back(stance);
            }
            // A fleet that carried or fetches cut-off units this phase has spent its move on it.
            if self.lifting.contains(&f.id) {
                return;
            }
            // A staff that looks ahead gives battle only where no stronger enemy fleet reaches the
            // battle's hex next (the battle spends the fleet's movement, S-NAVAL-12).
            let threats = if self.doctrine.hunt { threats(ctx, f.id) } else { Vec::new() };
            let safe = |h: HexAt| !exposed(ctx, &threats, h);
            let battle = enemies
                .iter()
                .filter_map(|e| {
                    let at = ctx.navy.fleet(*e)?.at;
                    Some((battle_value(ctx, f.id, *e), paths.path(at)?))
                })
                .filter(|(v, path)| *v >= self.doctrine.sea_odds && path.last().is_some_and(|h| safe(*h)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, path)) = battle {
                self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
                return;
            }
            if self.doctrine.hunt {
                if let Some(path) = self.station(ctx, f, stronger, &enemies, &threats, &paths) {
                    self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
                }
                return;
            }
            let in_port = |h: HexAt| ctx.map().cell(h).is_some_and(|c| c.has(rules::strategic::hexmap::flag::PORT));
            if !in_port(f.at)
                && let Some(path) =
                    paths.ends().filter(|(h, _)| in_port(*h)).min_by_key(|(_, d)| *d).and_then(|(h, _)| paths.path(h))
            {
                self.queue.push_back(Order::MoveFleet { fleet: f.id, path });
            }
        }
    }

    /// Where a fleet that looks ahead goes when it has no battle to give now: one stronger than
    /// every enemy fleet in sight closes on the weakest enemy fleet it would beat (to strike or
    /// intercept next turn); any other stays where no stronger enemy fleet reaches it, in an own
    /// port if one is in reach, else as far from the stronger enemies as it can sail.
    fn station(
        &self,
        ctx: &Ctx,
        fleet: &rules::strategic::naval::Fleet,
        stronger: bool,
        enemies: &[u32],
        threats: &[(HexAt, u32, PowerId)],
        paths: &SeaReach,
    ) -> Option<Vec<HexAt>> {
        let (id, at) = (fleet.id, fleet.at);
        let in_port = |h: HexAt| ctx.map().cell(h).is_some_and(|c| c.has(rules::strategic::hexmap::flag::PORT));
        if stronger {
            let prey = enemies
                .iter()
                .filter(|e| battle_value(ctx, id, **e) >= self.doctrine.sea_odds)
                .filter_map(|e| ctx.navy.fleet(*e).map(|f| f.at))
                .min_by_key(|h| (h.distance(at), *h))?;
            let here = prey.distance(at);
            return paths
                .ends()
                .filter(|(h, _)| h.distance(prey) < here)
                .min_by_key(|(h, d)| (h.distance(prey), *d, *h))
                .and_then(|(h, _)| paths.path(h));
        }
        if in_port(at) || !exposed(ctx, threats, at) {
            return None;
        }
        let threat = |h: HexAt| threats.iter().map(|(t, _, _)| t.distance(h)).min().unwrap_or(u32::MAX);
        paths
            .ends()
            .min_by_key(|(h, d)| (exposed(ctx, threats, *h), !in_port(*h), std::cmp::Reverse(threat(*h)), *d, *h))
            .and_then(|(h, _)| paths.path(h))
    }

    /// A submarine flotilla: attack a visible enemy fleet within reach that has no more ASW ships
    /// than it has boats (S-SUB-1, S-SUB-2), else patrol the nearest enemy sea lane (S-NAVAL-15).
    fn raid(&self, ctx: &Ctx, id: u32, at: HexAt, paths: &SeaReach) -> Option<Order> {
        let p = self.power;
        let boats = ctx.navy.count(id, ShipType::Submarine);
        for e in visible_enemy_fleets(ctx, p) {
            let asw = ctx.navy.count(e, ShipType::Asw);
            let o = Order::SubmarineAttack { flotilla: id, target: e };
            if asw < boats && legal(ctx, &o) {
                return Some(o);
            }
        }
        let area_of = |h: HexAt| ctx.map().cell(h).map_or(0, |c| c.sea_area);
        let lanes: Vec<(usize, u16)> = ctx
            .navy
            .lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| ctx.hostile(p, l.owner))
            .map(|(i, l)| (i, l.area + 1))
            .collect();
        if let Some((lane, _)) = lanes.iter().find(|(_, a)| *a == area_of(at)) {
            let o = Order::Patrol { flotilla: id, lane: *lane as u32 };
            let patrolling = ctx.navy.fleet(id).is_some_and(|f| f.patrol == Some(*lane));
            return (!patrolling && legal(ctx, &o)).then_some(o);
        }
        // The shortest way into an enemy lane's sea area, else toward the first lane's listed hexes.
        if let Some(path) = paths
            .ends()
            .filter(|(h, _)| lanes.iter().any(|(_, a)| *a == area_of(*h)))
            .min_by_key(|(h, d)| (*d, *h))
            .and_then(|(h, _)| paths.path(h))
        {
            return Some(Order::MoveFleet { fleet: id, path });
        }
        let (_, area) = lanes.first()?;
        let target =
            ctx.map().sea_areas.get(usize::from(*area - 1))?.hexes.iter().min_by_key(|h| h.distance(at)).copied()?;
        let (end, _) = paths.ends().min_by_key(|(h, d)| (h.distance(target), *d, *h))?;
        Some(Order::MoveFleet { fleet: id, path: paths.path(end)? })
    }

    /// S-ART-2, S-CHEM-3: a gun (or battery) fires where it does most. A staff that prepares its
    /// attacks looks first at the enemy hexes its troops fight in the coming Combat phase
    /// ([`preparation_gain`]: the harm plus what the shot adds to the engagement's margin), a few
    /// targets a work item; with no useful shot there, or at the Recruit level, at the hex where
    /// the expected harm is greatest.
    fn gun(&mut self, ctx: &Ctx, g: ForceId) {
        let p = self.power;
        // S-NAVAL-14: a coastal gun with an enemy ship in range sinks it before anything else
        // it could do on land (a ship is worth 2 to 10 in the war score, a shot on land about 1).
        if self.shot_draft.is_none()
            && let Some((worth, o)) = coastal_shot(ctx, p, g)
            && worth >= 1.0
        {
            self.queue.push_back(o);
            return;
        }
        let gas = self.doctrine.gas && ctx.powers[usize::from(p.0)].chem_shells > 0;
        let from = ctx.gun_hexes(g);
        let in_range = |t: &HexAt| from.iter().any(|h| h.distance(*t) <= 12);
        let mut draft = match self.shot_draft.take() {
            Some(d) if d.gun == g => d,
            _ if self.doctrine.prepare => {
                ShotDraft { gun: g, targets: engaged_enemy_hexes(ctx, p), next: 0, best: None, harm: false }
            }
            _ => ShotDraft {
                gun: g,
                targets: enemy_hexes(ctx, p).into_iter().filter(in_range).collect(),
                next: 0,
                best: None,
                harm: true,
            },
        };
        let probe = super::blind(ctx);
        let mut looked = 0;
        while draft.next < draft.targets.len() && looked < SHOT_WORK {
            let target = draft.targets[draft.next];
            draft.next += 1;
            if !in_range(&target) {
                continue;
            }
            looked += 1;
            for with_gas in [false, true] {
                if (with_gas && !gas) || probe.check_fire(g, target, with_gas).is_err() {
                    continue;
                }
                let o = Order::Fire { unit: g, target, gas: with_gas };
                let v = if draft.harm { expected_gain(ctx, p, &o) } else { preparation_gain(ctx, p, &o, target) };
                if let Some(v) = v
                    && v > 0.0
                    && draft.best.as_ref().is_none_or(|(b, _)| v > *b)
                {
                    draft.best = Some((v, o));
                }
            }
        }
        if draft.next < draft.targets.len() {
            self.shot_draft = Some(draft);
            self.items.push_front(Item::Gun(g));
            return;
        }
        match draft.best {
            Some((_, o)) => self.queue.push_back(o),
            // No useful shot at an engaged hex: the hex in range where it harms most, a few
            // targets a work item (as `best_shot` would choose, in the same order).
            None if !draft.harm => {
                let targets = enemy_hexes(ctx, p).into_iter().filter(in_range).collect();
                self.shot_draft = Some(ShotDraft { gun: g, targets, next: 0, best: None, harm: true });
                self.items.push_front(Item::Gun(g));
            }
            None => {}
        }
    }

    /// S-CHEM-1: cylinders go onto the hexes of our troops that face the most enemy hexes (in the
    /// Preparation phase, before the releases at the hex the attack goes in), while the store lasts.
    fn cylinders(&mut self, ctx: &Ctx) {
        let p = self.power;
        let mut left = ctx.powers[usize::from(p.0)].cylinders;
        if left == 0 {
            return;
        }
        let enemies: BTreeSet<HexAt> = enemy_combat_hexes(ctx, p).into_iter().collect();
        let mut spots: Vec<(usize, HexAt)> = ctx
            .occupancy
            .keys()
            .copied()
            .filter(|h| ctx.holder(*h) == Some(p) && held_now(ctx, p, *h) && ctx.hex_state(*h).cylinder.is_none())
            .map(|h| (h.neighbours().iter().filter(|n| enemies.contains(n)).count(), h))
            .filter(|(n, _)| *n > 0)
            .collect();
        spots.sort_by_key(|(n, h)| (std::cmp::Reverse(*n), *h));
        for (_, at) in spots {
            if left == 0 {
                break;
            }
            let o = Order::PlaceCylinder { at };
            if legal(ctx, &o) {
                self.queue.push_back(o);
                left -= 1;
            }
        }
    }

    /// S-CHEM-1: release the cylinder on `from` at the hex where the expected harm is greatest,
    /// if any.
    fn release(&mut self, ctx: &Ctx, from: HexAt) {
        let p = self.power;
        if ctx.hex_state(from).cylinder != Some(p) {
            return;
        }
        let best = enemy_hexes(ctx, p)
            .into_iter()
            .filter(|e| e.distance(from) <= 3)
            .map(|e| (e, Order::ReleaseGas { from, target: e }))
            .filter_map(|(e, o)| {
                // A cylinder released at a hex our troops fight counts what it adds to the
                // engagement's margin too (the preparation of an attack).
                let prepared = preparation_gain(ctx, p, &o, e);
                prepared.or_else(|| expected_gain(ctx, p, &o)).map(|v| (v, o))
            })
            .filter(|(v, _)| *v > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, o)) = best {
            self.queue.push_back(o);
        }
    }
}

/// Whether the sea area the fleet at `at` stands in washes a city of one of `p`'s own provinces:
/// the mines guard its own coast (S-MINE-1).
fn own_coast(ctx: &Ctx, p: PowerId, at: HexAt) -> bool {
    let map = ctx.map();
    let Some(area) = map.cell(at).map(|c| c.sea_area).filter(|a| *a > 0) else { return false };
    let in_area = |h: HexAt| map.cell(h).is_some_and(|c| c.sea_area == area);
    map.cities.iter().any(|c| {
        map.province_index(&c.province).and_then(|i| ctx.province_owner(i)) == Some(p)
            && c.hexes.iter().any(|h| in_area(*h) || h.neighbours().into_iter().any(in_area))
    })
}

/// Gas cylinders a staff that prepares its attacks keeps in store.
const GAS_CYLINDERS: u32 = 2;

/// Targets a gun's preparation work item looks at before it comes back.
const SHOT_WORK: usize = 1;

/// A gun's preparation shot being chosen ([`Staff::gun`]).
struct ShotDraft {
    gun: ForceId,
    targets: Vec<HexAt>,
    next: usize,
    best: Option<(f64, Order)>,
    /// Looking at every enemy hex in range by the harm alone (no engagement prepared there).
    harm: bool,
}

/// Enemy hexes with combat units next to combat units of `p`'s alliance, sorted: those the coming
/// Combat phase's engagements are fought against.
fn engaged_enemy_hexes(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    enemy_combat_hexes(ctx, p).into_iter().filter(|h| h.neighbours().iter().any(|n| held_now(ctx, p, *n))).collect()
}

/// Reach lookups of the matching of posts and pieces in one work item (about 2 ms in a release
/// build; at least one post is matched an item).
const ASSIGN_WORK: usize = 40_000;

/// Previews a strike work item makes before it comes back.
const STRIKE_WORK: usize = 1;

/// Contacts next to its army an army reserve's work item previews for a strike (S-ARMY-8).
const COMMIT_WORK: usize = 8;

/// The worst margin (S-COMBAT-8 D, negative when the enemy is the stronger) over the engagements
/// the units of `order` stand in once it is applied to a copy of `ctx`: what the preview's
/// engagements show (`Ctx::preview`), without its dice outcomes and text; `None` if illegal or no
/// engagement.
fn margin_after(ctx: &Ctx, power: PowerId, order: &Order) -> Option<i64> {
    let mut c = ctx.clone();
    c.defer_battles = true;
    c.apply(order).ok()?;
    let units: Vec<ForceId> = match order {
        Order::Move { piece, .. } => c.piece_units(*piece).ok()?.1,
        Order::MoveArmy { moves, .. } => moves
            .iter()
            .filter_map(|(corps, _)| c.piece_units(Piece::Corps(*corps)).ok())
            .flat_map(|(_, u)| u)
            .collect(),
        _ => return None,
    };
    c.engagements()
        .into_iter()
        .filter(|g| g.iter().flatten().any(|u| units.contains(u)))
        .filter_map(|g| {
            let e = c.assess(&g);
            let ours =
                (0..2).find(|s| e.sides[*s].iter().any(|u| c.force(*u).is_some_and(|f| !c.hostile(power, f.power))))?;
            Some(if e.stronger == ours { e.d } else { -e.d })
        })
        .min()
}

/// A strike being planned: the blind copy holding the moves chosen so far, their margin, and the
/// round under way (the next reserve to look at and the best join found).
struct StrikeDraft {
    target: HexAt,
    probe: Ctx,
    chosen: Vec<(Piece, HexAt, Vec<HexAt>, Option<FormationId>)>,
    margin: i64,
    next: usize,
    /// The next of the reserve's contacts next to the target to preview.
    near: usize,
    best: Option<(i64, Mover, HexAt, Vec<HexAt>)>,
}

/// The order that moves a reserve on a strike: its own move, or its army's with this corps alone.
fn strike_order(m: Mover, path: Vec<HexAt>) -> Order {
    match (m.army, m.piece) {
        (Some(army), Piece::Corps(c)) => Order::MoveArmy { army, moves: vec![(c, path)] },
        _ => Order::Move { piece: m.piece, path },
    }
}

/// The power's pieces: free units and corps, and the corps of its armies.
fn movers(ctx: &Ctx, p: PowerId) -> Vec<Mover> {
    let mut out: Vec<Mover> = super::land_pieces(ctx, p)
        .into_iter()
        .map(|l| Mover { piece: l.piece, army: None, at: l.at, artillery: l.artillery })
        .collect();
    for a in ctx.formations.iter().filter(|f| f.power == p && f.kind == FormationKind::Army) {
        for c in &a.corps {
            if let Some(at) = ctx.piece_hex(Piece::Corps(*c)) {
                out.push(Mover { piece: Piece::Corps(*c), army: Some(a.id), at, artillery: false });
            }
        }
    }
    out.sort();
    out
}

fn can_move(ctx: &Ctx, m: &Mover) -> bool {
    ctx.piece_units(m.piece).is_ok_and(|(_, units)| {
        !units.is_empty()
            && units.iter().all(|u| ctx.force(*u).is_some_and(|f| f.activity.mp_left > 0 && !f.activity.fortified))
    })
}

/// S-SUP-6: the piece will lose Morale at the next Upkeep if it stays on the front line
/// (independent units from the 3rd turn, corps the 4th, armies the 5th).
fn tired(ctx: &Ctx, piece: Piece) -> bool {
    let Ok((_, units)) = ctx.piece_units(piece) else { return false };
    units.iter().filter_map(|u| ctx.force(*u)).any(|f| {
        let period = if f.member.army.is_some() {
            ROTATION_TURNS[2]
        } else if f.member.corps.is_some() {
            ROTATION_TURNS[1]
        } else {
            ROTATION_TURNS[0]
        };
        f.front.turns >= period
    })
}

/// Off the S-SUP-6 front line: more than 3 hexes from every enemy land unit (S-COMBAT-1).
fn off_front_line(enemies: &[HexAt], h: HexAt) -> bool {
    enemies.iter().all(|e| e.distance(h) > FRONT_LINE_HEXES)
}

/// A reserve's spot: on our side, just off the S-SUP-6 front line (4 hexes from the nearest
/// enemy, one or two behind the line) so it stays fresh, where it stands if it is there already;
/// else 3 hexes from the enemy, out of contact.
fn reserve_spot(
    ctx: &Ctx,
    p: PowerId,
    front: &Front,
    at: HexAt,
    dests: &[(HexAt, u32, Vec<HexAt>)],
) -> Option<(HexAt, Vec<HexAt>)> {
    let enemies = enemy_hexes(ctx, p);
    let spot = |h: HexAt| {
        let near = enemies.iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX);
        front.ours(h) && near == FRONT_LINE_HEXES + 1
    };
    if spot(at) {
        return None;
    }
    if let Some(best) = toward(dests, at, spot) {
        return Some(best);
    }
    let out_of_contact = |h: HexAt| front.enemy_steps(h) == 3 && !ctx.next_to_enemy(p, h);
    if out_of_contact(at) {
        return None;
    }
    toward(dests, at, |h| front.ours(h) && out_of_contact(h))
}

/// The destination that brings a piece nearest to `goal` among those `ok` allows, if it is nearer
/// than where it stands.
fn toward(dests: &[(HexAt, u32, Vec<HexAt>)], goal: HexAt, ok: impl Fn(HexAt) -> bool) -> Option<(HexAt, Vec<HexAt>)> {
    dests
        .iter()
        .filter(|(h, _, _)| ok(*h))
        .min_by_key(|(h, c, _)| (h.distance(goal), *c, *h))
        .map(|(h, _, p)| (*h, p.clone()))
}

/// The army's move of these corps moves if the engine takes it; else (a corps' move would leave the
/// army outside its frontage and depth, S-ARMY-4) the most of them it takes, the earlier ones (the
/// posts on the line) first; none if it takes none.
fn army_order(ctx: &Ctx, army: FormationId, moves: Vec<(FormationId, Vec<HexAt>)>) -> Option<Order> {
    let n = moves.len().min(8);
    let mut subsets: Vec<u32> = (1..(1u32 << n)).collect();
    // The most moves first, then those that keep the earlier moves.
    subsets.sort_by_key(|m| (std::cmp::Reverse(m.count_ones()), (0..n).map(|i| (m >> i) & 1 == 0).collect::<Vec<_>>()));
    subsets.into_iter().find_map(|mask| {
        let kept: Vec<_> =
            moves.iter().enumerate().filter(|(i, _)| (mask >> i) & 1 == 1).map(|(_, mv)| mv.clone()).collect();
        let o = Order::MoveArmy { army, moves: kept };
        legal(ctx, &o).then_some(o)
    })
}

/// The nearest destination at least `steps` from the enemy on our side (rotation to the rear).
fn toward_far(dests: &[(HexAt, u32, Vec<HexAt>)], front: &Front, steps: u32) -> Option<(HexAt, Vec<HexAt>)> {
    dests
        .iter()
        .filter(|(h, _, _)| front.ours(*h) && front.enemy_steps(*h) >= steps)
        .min_by_key(|(h, c, _)| (*c, *h))
        .map(|(h, _, p)| (*h, p.clone()))
}

/// Heavy artillery keeps out of contact (S-COMBAT-10) but within reach of the enemy: two or three
/// hexes from the nearest enemy on our side, off the line; a gun three hexes off stays (unless
/// `gather`ing brings it next to more guns).
fn artillery_spot(
    ctx: &Ctx,
    p: PowerId,
    front: &Front,
    at: HexAt,
    dests: &[(HexAt, u32, Vec<HexAt>)],
    gather: bool,
) -> Option<(HexAt, Vec<HexAt>)> {
    let fit = |h: HexAt| {
        front.ours(h) && (2..=3).contains(&front.enemy_steps(h)) && !ctx.next_to_enemy(p, h) && !front.on_line(h)
    };
    // S-ART-5: a staff that forms batteries gathers its guns by threes (a battery forms from guns
    // on or next to one hex): the spot next to the most other free guns, up to the two a battery
    // needs, then the cheapest.
    let mates = |h: HexAt| if gather { guns_near(ctx, p, h, at).min(2) } else { 0 };
    let here = front.enemy_steps(at) == 3 && !ctx.next_to_enemy(p, at);
    if here && (!gather || mates(at) == 2) {
        return None;
    }
    let (to, _, path) = dests
        .iter()
        .filter(|(h, _, _)| fit(*h))
        .max_by_key(|(h, c, _)| (mates(*h), std::cmp::Reverse(*c), std::cmp::Reverse(*h)))?;
    if here && mates(*to) <= mates(at) {
        return None;
    }
    Some((*to, path.clone()))
}

/// The guns of `p` not yet in a battery on the hexes next to `h` (S-ART-5), but for the one on `me`.
fn guns_near(ctx: &Ctx, p: PowerId, h: HexAt, me: HexAt) -> usize {
    h.neighbours()
        .into_iter()
        .filter(|n| *n != me)
        .flat_map(|n| ctx.at(n).iter().copied())
        .filter_map(|u| ctx.force(u))
        .filter(|f| f.power == p && f.kind.is_artillery() && f.member.battery.is_none())
        .count()
}

/// Whether a combat unit of `p`'s alliance stands on a hex now.
fn held_now(ctx: &Ctx, p: PowerId, h: HexAt) -> bool {
    ctx.at(h).iter().filter_map(|u| ctx.force(*u)).any(|f| f.kind.is_combatant() && !ctx.hostile(p, f.power))
}

/// Cities of enemy provinces (capitals take provinces, S-CITY-1) that no enemy combat unit
/// stands on or next to, sorted: the reserves' objectives, once those of ours that hold one now
/// are left out (the enemy does not move during our phase, so the list holds for all of it).
fn objectives(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    let enemies: BTreeSet<HexAt> = enemy_combat_hexes(ctx, p).into_iter().collect();
    let mut out: Vec<HexAt> = ctx
        .map()
        .cities
        .iter()
        .filter(|c| {
            let Some(pi) = ctx.map().province_index(&c.province) else { return false };
            ctx.province_controller(pi).is_some_and(|q| ctx.hostile(p, q))
        })
        .flat_map(|c| c.hexes.iter().copied())
        .filter(|h| !enemies.contains(h) && !h.neighbours().iter().any(|n| enemies.contains(n)))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Hexes of the capitals of provinces an enemy of `p` controls that no land unit stands on
/// (S-CITY-1: holding every hex of the capital at Upkeep takes the province), sorted.
fn capital_hexes(ctx: &Ctx, p: PowerId) -> Vec<HexAt> {
    let map = ctx.map();
    let mut out: Vec<HexAt> = (0..map.provinces.len())
        .filter(|i| ctx.province_controller(*i).is_some_and(|c| ctx.hostile(p, c)))
        .filter_map(|i| map.city_index(&map.provinces[i].capital))
        .flat_map(|c| map.cities[c].hexes.iter().copied())
        .filter(|h| ctx.holder(*h).is_none())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// S-ARMY-15: an engaged piece retreats up to 10 hexes to the free hex of our side farthest from
/// the enemy it can reach through free hexes.
fn retreat(ctx: &Ctx, piece: Piece, at: HexAt, front: std::sync::Arc<Front>) -> Option<Order> {
    let walk = RetreatWalk::from(ctx, piece, at);
    let mut ends: Vec<HexAt> = walk.ends.iter().map(|(_, h)| *h).collect();
    ends.sort_by_key(|h| (std::cmp::Reverse(front.enemy_steps(*h).min(1000)), *h));
    walk.first_legal(ctx, ends)
}

/// S-ARMY-15: where an engaged piece may retreat to: the free land hexes within the retreat's 10
/// hexes of `at` by a path of free land hexes, each with its length, where the piece may stand.
struct RetreatWalk {
    piece: Piece,
    at: HexAt,
    /// (length, hex), by length then hex.
    ends: Vec<(usize, HexAt)>,
    parent: BTreeMap<HexAt, HexAt>,
}

impl RetreatWalk {
    fn from(ctx: &Ctx, piece: Piece, at: HexAt) -> RetreatWalk {
        let units = ctx.piece_units(piece).map(|(_, u)| u).unwrap_or_default();
        let mut parent: BTreeMap<HexAt, HexAt> = BTreeMap::from([(at, at)]);
        let mut queue = VecDeque::from([(at, 0usize)]);
        let mut ends = Vec::new();
        while let Some((h, d)) = queue.pop_front() {
            if h != at && super::fit_to_stand(ctx, ctx.active_power(), &units, h) {
                ends.push((d, h));
            }
            if d >= RETREAT_HEXES {
                continue;
            }
            for n in h.neighbours() {
                if !parent.contains_key(&n) && ctx.map().is_land(n) && ctx.at(n).is_empty() {
                    parent.insert(n, h);
                    queue.push_back((n, d + 1));
                }
            }
        }
        ends.sort_unstable();
        RetreatWalk { piece, at, ends, parent }
    }

    /// The retreat order to `end`.
    fn order(&self, end: HexAt) -> Order {
        let mut path = vec![end];
        let mut cur = end;
        while let Some(prev) = self.parent.get(&cur).filter(|prev| **prev != self.at) {
            path.push(*prev);
            cur = *prev;
        }
        path.reverse();
        Order::Retreat { moves: vec![(self.piece, path)] }
    }

    /// The retreat to the first of `ends` (eight at most) the engine accepts.
    fn first_legal(&self, ctx: &Ctx, ends: Vec<HexAt>) -> Option<Order> {
        ends.into_iter().take(8).map(|end| self.order(end)).find(|o| legal(ctx, o))
    }
}

/// S-ARMY-15: the retreat order that takes an engaged piece back to the nearest free hex of our
/// side at least `away` hexes from every enemy land unit (`FRONT_LINE_HEXES + 1`: off the S-SUP-6
/// front line, to rest; 2: out of contact, screening), by a path of free land hexes within the
/// retreat's 10 hexes; `None` when there is none or the engine refuses it. Hexes in `claimed` are
/// left to the pieces that claimed them.
fn withdrawal(
    ctx: &Ctx,
    piece: Piece,
    at: HexAt,
    front: &Front,
    claimed: &BTreeSet<HexAt>,
    away: u32,
) -> Option<Order> {
    let enemies = enemy_hexes(ctx, ctx.active_power());
    let walk = RetreatWalk::from(ctx, piece, at);
    let ends: Vec<HexAt> = walk
        .ends
        .iter()
        .map(|(_, h)| *h)
        .filter(|h| front.ours(*h) && !claimed.contains(h) && enemies.iter().all(|e| e.distance(*h) >= away))
        .collect();
    walk.first_legal(ctx, ends)
}

/// Money a power may spend before the coming Upkeep without leaving troops unpaid: its treasury
/// plus the income of the provinces it holds (S-CITY-2, paid before upkeep) less the upkeep of
/// its units with the surcharges of corps and independent units (S-SUP-1, S-SUP-4).
pub fn spendable(ctx: &Ctx, p: PowerId) -> i64 {
    ctx.powers[usize::from(p.0)].money + treasury::income(ctx, p) - treasury::upkeep(ctx, p)
}

/// The enemy fleets in sight stronger than fleet `id` (S-NAVAL-5, [`battle_value`] below zero):
/// where each stands, how far it sails in a turn (S-NAVAL-4) and its power.
pub(super) fn threats(ctx: &Ctx, id: u32) -> Vec<(HexAt, u32, PowerId)> {
    let Some(power) = ctx.navy.fleet(id).map(|f| f.power) else { return Vec::new() };
    visible_enemy_fleets(ctx, power)
        .into_iter()
        .filter(|e| battle_value(ctx, id, *e) < 0.0)
        .filter_map(|e| ctx.navy.fleet(e).map(|f| (f.at, ctx.navy.speed(e), f.power)))
        .collect()
}

/// Whether one of the `threats` can reach `h` with its full movement next turn (S-NAVAL-12); an
/// own port it may not enter (S-CITY-2) is out of its reach.
pub(super) fn exposed(ctx: &Ctx, threats: &[(HexAt, u32, PowerId)], h: HexAt) -> bool {
    threats.iter().any(|(at, reach, power)| at.distance(h) <= reach + 1 && ctx.check_port(*power, h).is_ok())
}

/// S-SUB-1, S-SUB-2: a flotilla sails next to the enemy surface fleet where its attack is worth
/// most ([`submarine_attack_worth`]) and attacks it; `None` when no attack is worth anything or
/// the engine would refuse it (no ammunition).
fn hunt(ctx: &Ctx, id: u32, at: HexAt, paths: &SeaReach) -> Option<Vec<Order>> {
    let power = ctx.navy.fleet(id)?.power;
    let mut best: Option<(f64, Vec<Order>)> = None;
    for e in visible_enemy_fleets(ctx, power) {
        let Some(target) = ctx.navy.fleet(e).map(|f| f.at) else { continue };
        let worth = submarine_attack_worth(ctx, id, e);
        if worth <= 0.0 || best.as_ref().is_some_and(|(b, _)| worth <= *b) {
            continue;
        }
        let attack = Order::SubmarineAttack { flotilla: id, target: e };
        let orders = if at.distance(target) <= 1 {
            vec![attack]
        } else {
            let Some(path) = paths
                .ends()
                .filter(|(h, _)| h.distance(target) <= 1)
                .min_by_key(|(h, d)| (*d, *h))
                .and_then(|(h, _)| paths.path(h))
            else {
                continue;
            };
            vec![Order::MoveFleet { fleet: id, path }, attack]
        };
        best = Some((worth, orders));
    }
    let (_, orders) = best?;
    let mut probe = super::blind(ctx);
    orders.iter().all(|o| probe.apply(o).is_ok()).then_some(orders)
}

/// S-AIR-2: a squadron bombs the enemy ship in its radius where the hit is worth most (the
/// chance of the hit times the ship's worth in the war score); `None` when it reaches none.
fn bombing(ctx: &Ctx, power: PowerId, squadron: u32) -> Option<Order> {
    use rules::strategic::naval::{ShipType, bomb_hit};
    let sq = ctx.navy.squadrons.iter().find(|s| s.id == squadron && s.power == power)?;
    let mut best: Option<(f64, u32)> = None;
    for e in visible_enemy_fleets(ctx, power) {
        let Some(fleet) = ctx.navy.fleet(e) else { continue };
        if fleet.at.distance(sq.base) > sq.radius {
            continue;
        }
        for ship in ctx.navy.afloat(e).iter().filter_map(|s| ctx.navy.ship(*s)) {
            if ship.kind == ShipType::Submarine {
                continue;
            }
            let d = i32::from(sq.bombing) - i32::from(ship.kind.target_class());
            let chance = match bomb_hit(d) {
                None => continue,
                Some(None) => 1.0,
                Some(Some(r)) => r.chance(),
            };
            let worth = chance * ship_worth(ship.kind);
            if best.is_none_or(|(b, _)| worth > b) {
                best = Some((worth, ship.id));
            }
        }
    }
    let (_, ship) = best?;
    let o = Order::Bomb { squadrons: vec![squadron], ship };
    legal(ctx, &o).then_some(o)
}

/// S-NAVAL-14: the enemy ship a coastal gun fires at where the shot is worth most (the chance
/// of destroying it times its worth in the war score), with that worth; `None` when no enemy
/// ship lies in range.
fn coastal_shot(ctx: &Ctx, power: PowerId, gun: ForceId) -> Option<(f64, Order)> {
    use rules::strategic::naval::coastal_hit;
    use rules::strategic::state::ForceKind;
    let f = ctx.force(gun)?;
    let ForceKind::Artillery { gun: kind } = f.kind else { return None };
    let at = f.hex()?;
    let range = ctx.scenario().units.guns.get(usize::from(kind)).map_or(0, |g| g.range);
    let mut best: Option<(f64, u32)> = None;
    for e in visible_enemy_fleets(ctx, power) {
        let Some(fleet) = ctx.navy.fleet(e) else { continue };
        if fleet.at.distance(at) > range {
            continue;
        }
        for ship in ctx.navy.afloat(e).iter().filter_map(|s| ctx.navy.ship(*s)) {
            if ship.kind == rules::strategic::naval::ShipType::Submarine {
                continue;
            }
            let worth = coastal_hit(ship.kind).map_or(1.0, |r| r.chance()) * ship_worth(ship.kind);
            if best.is_none_or(|(b, _)| worth > b) {
                best = Some((worth, ship.id));
            }
        }
    }
    let (worth, ship) = best?;
    let o = Order::CoastalFire { unit: gun, ship };
    legal(ctx, &o).then_some((worth, o))
}

/// The U-boat flotilla a staff guards its fleets against: 4 boats (16 scaled by S-NAVAL-1). A
/// staff sees no enemy submarine, so it plans for one flotilla of the size the war began with.
const GUARD_BOATS: usize = 4;

/// Escorts (S-SUB-1, S-SUB-2): the ASW ships one fleet of `power` sends to another this turn, as
/// orders (split them off, sail, merge), where that lowers what the worst-guarded of the two would
/// lose to a flotilla of [`GUARD_BOATS`] ([`torpedo_worth`]): a battle fleet without ASW ships loses
/// a ship to each boat, so it takes some from a fleet that has several. The sailing group keeps
/// out of the reach of enemy interceptors (S-NAVAL-12); the fleets in `keep` send none.
/// `None`: no escort worth sending.
fn escort(ctx: &Ctx, power: PowerId, keep: &[u32]) -> Option<Vec<Order>> {
    use rules::strategic::naval::{FLEET_LIMIT, ShipType};
    let worths = |id: u32| -> Vec<(u32, ShipType, f64)> {
        ctx.navy
            .afloat(id)
            .iter()
            .filter_map(|s| ctx.navy.ship(*s))
            .map(|s| (s.id, s.kind, ship_worth(s.kind)))
            .collect()
    };
    let exposure = |ships: &[(u32, ShipType, f64)]| {
        let asw = ships.iter().filter(|s| s.1 == ShipType::Asw).count();
        let w: Vec<f64> = ships.iter().map(|s| s.2).collect();
        torpedo_worth(GUARD_BOATS, asw, &w)
    };
    let mut fleets: Vec<u32> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.power == power && !ctx.navy.is_flotilla(f.id) && !ctx.navy.afloat(f.id).is_empty())
        .map(|f| f.id)
        .collect();
    fleets.sort_unstable();
    let interceptors: Vec<(HexAt, u32)> = ctx
        .navy
        .fleets
        .iter()
        .filter(|f| f.intercept && ctx.hostile(power, f.power) && ctx.navy.has_warships(f.id))
        .map(|f| (f.at, f.mp_left))
        .collect();
    let mut best: Option<(f64, Vec<Order>)> = None;
    for &to in &fleets {
        let guarded = worths(to);
        if !ctx.navy.has_warships(to) || guarded.len() >= FLEET_LIMIT {
            continue;
        }
        let Some(at) = ctx.navy.fleet(to).map(|f| f.at) else { continue };
        for &from in &fleets {
            let giver = worths(from);
            let asw: Vec<u32> = giver.iter().filter(|s| s.1 == ShipType::Asw).map(|s| s.0).collect();
            if from == to || asw.is_empty() || keep.contains(&from) {
                continue;
            }
            let Some(from_at) = ctx.navy.fleet(from).map(|f| f.at) else { continue };
            let reach = SeaReach::of(ctx, from);
            let path = if from_at == at { Some(Vec::new()) } else { reach.path(at) };
            let Some(path) = path else { continue };
            if path.iter().any(|h| interceptors.iter().any(|(i, mp)| i.distance(*h) <= *mp)) {
                continue;
            }
            let now = exposure(&guarded).max(exposure(&giver));
            for k in 1..=asw.len().min(FLEET_LIMIT - guarded.len()) {
                let sent: Vec<u32> = asw[asw.len() - k..].to_vec();
                let mut a = guarded.clone();
                a.extend(giver.iter().filter(|s| sent.contains(&s.0)).copied());
                let b: Vec<_> = giver.iter().filter(|s| !sent.contains(&s.0)).copied().collect();
                let after = exposure(&a).max(if b.is_empty() { 0.0 } else { exposure(&b) });
                let gain = now - after;
                if gain <= 1.0 || best.as_ref().is_some_and(|(g, _)| gain <= *g) {
                    continue;
                }
                // The whole fleet sails when it is all ASW ships; otherwise they split off first.
                let (group, mut orders) = if b.is_empty() {
                    (from, Vec::new())
                } else {
                    let name = format!("{} escort", ctx.navy.fleet(from).map_or("", |f| f.name.as_str()));
                    (ctx.navy.next_fleet, vec![Order::SplitFleet { fleet: from, ships: sent.clone(), name }])
                };
                if !path.is_empty() {
                    orders.push(Order::MoveFleet { fleet: group, path: path.clone() });
                }
                orders.push(Order::MergeFleet { fleet: group, into: to });
                best = Some((gain, orders));
            }
        }
    }
    let (_, orders) = best?;
    let mut probe = super::blind(ctx);
    orders.iter().all(|o| probe.apply(o).is_ok()).then_some(orders)
}
