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
//!
//! The rooms: this file plans a phase's work items and dispatches each ([`Staff::think`]);
//! `state` holds the items, the pieces and the drafts between items; `doctrine` the levels;
//! `pieces` the small questions about the staff's pieces; `contact` engaged pieces, pockets and
//! retreats; `plan` the front's matching, relief and strikes; `moves` each piece to its post or
//! reserve, army moves and reserves, fortification; `fleets` the sea; `fire` guns, bombers and
//! gas; `economy` the Movement phase's spending. What the rules answer (reach, rotation, the
//! pieces a power commands) the staff asks of `rules::strategic::query`.

mod contact;
mod doctrine;
mod economy;
mod fire;
mod fleets;
mod moves;
mod pieces;
mod plan;
mod state;

pub use economy::spendable;
pub use state::{Staff, StepTime, StepTimes};

use super::front::{FrontDraft, held_by_alliance};
use super::sea;
use super::treasury;
use super::{enemy_combat_hexes, legal};
use crate::{Level, Think};
use contact::{retreat, withdrawal};
use doctrine::Doctrine;
use fire::bombing;
use fleets::{GUARD_BOATS, escort};
use pieces::{army_order, movers};
use rules::strategic::upkeep::FRONT_LINE_HEXES;
use rules::strategic::{Ctx, HexAt, Order, Phase, PowerId};
use state::{FRONT_WORK, Item, RING_TARGETS};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use web_time::{Duration, Instant};

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
}
