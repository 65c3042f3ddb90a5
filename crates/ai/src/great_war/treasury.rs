//! The staff's treasury: what it researches (S-TURN-1), which divisions it upgrades (S-LAND-4)
//! and what it raises where (issue 12 purchases), by the state of the war and with the money the
//! coming Upkeeps leave (S-SUP-1, S-SUP-4). Each rule of thumb is a function with its reason; its
//! numbers are the level's `Spending`.

use super::front::Front;
use rules::strategic::economy::Recruit;
use rules::strategic::state::ForceKind;
use rules::strategic::tables::Model;
use rules::strategic::tech::{GAS_FROM_TURN, TANKS_FROM_TURN, Tech, UPGRADE_FROM_TURN};
use rules::strategic::upkeep::{INDEPENDENT_SURCHARGE_PERCENT, ceil_div};
use rules::strategic::{Ctx, HexAt, Order, PowerId};

/// How a level spends on the war beyond ammunition, gas and repairs: the house numbers of its
/// rules of thumb, each with its reason.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spending {
    /// Upkeeps after the coming one whose shortfall (upkeep above income) the treasury keeps in
    /// hand: troops left unpaid lose Morale (S-SUP-2), and a unit raised now costs upkeep every
    /// turn after. The Veteran looks one Upkeep ahead; the Marshal plans several.
    pub deficit_turns: u32,
    /// Dispersed divisions the treasury keeps the S-LOSS-1 price for (money and manpower: half a
    /// new division): a restored division is the cheapest division after a lost battle.
    pub restore_reserve: u32,
    /// Own hexes in contact from which gas is worth its research: cylinders stand with our troops
    /// and reach 3 hexes (S-CHEM-1), so they pay on a front that stays where it is.
    pub gas_contacts: usize,
    /// Own infantry divisions in contact from which the 1916 upgrade (S-LAND-4: 50, then 6 a
    /// division) is worth its research: the line's divisions are the ones that fight.
    pub upgrade_contacts: usize,
    /// Our combat units in contact against the enemy's, in percent, from which the staff is the
    /// attacker: a tank adds its Attack only in a turn it moves (S-LAND-9), so tanks pay only for
    /// an attacker.
    pub attack_percent: usize,
    /// Divisions in contact per heavy artillery division (and, when attacking, per tank
    /// battalion): with fewer, a recruit is a gun, since the guns prepare every attack (S-ART-2).
    pub divisions_per_gun: usize,
    /// Below this share (percent) of the divisions in contact the war is one of movement: a
    /// recruit is cavalry, which moves 25 hexes (S-LAND-8) to the open ground and cities.
    pub open_percent: usize,
    /// Cavalry a war of movement raises up to this share (percent) of the own divisions: cavalry
    /// holds a line at half infantry's Defense (15 against 30, S-LAND-8), so past a raiding and
    /// screening arm the front wants infantry (1914's armies had about one cavalry division in
    /// ten; the grand campaign's divisions in contact stay few on a map this large, so without
    /// the cap every recruit would be cavalry).
    pub cavalry_percent: usize,
    /// Units raised in one turn at most: the money of a turn is not spent on one place's troops.
    pub recruits: usize,
    /// Researches tanks and raises battalions (S-LAND-9).
    pub tanks: bool,
    /// Saves for the technology the war calls for before it opens, rather than spend the money on
    /// recruits and upgrades first ([`research_saving`]).
    pub save_for_research: bool,
}

impl Spending {
    pub(super) const VETERAN: Spending = Spending {
        deficit_turns: 1,
        restore_reserve: 0,
        gas_contacts: 3,
        upgrade_contacts: 4,
        attack_percent: 150,
        divisions_per_gun: 4,
        open_percent: 25,
        cavalry_percent: 20,
        recruits: 2,
        tanks: false,
        save_for_research: false,
    };

    pub(super) const MARSHAL: Spending = Spending {
        deficit_turns: 4,
        restore_reserve: 2,
        gas_contacts: 3,
        upgrade_contacts: 3,
        attack_percent: 150,
        divisions_per_gun: 3,
        open_percent: 33,
        cavalry_percent: 20,
        recruits: 4,
        tanks: true,
        save_for_research: true,
    };
}

/// The money upkeep of `p`'s units at the coming Upkeep, with the surcharges of corps and
/// independent units (S-SUP-1, S-SUP-4), as the engine will charge it.
pub fn upkeep(ctx: &Ctx, p: PowerId) -> i64 {
    ctx.upkeep_due(p)
}

/// The income of the provinces `p` holds (S-CITY-2).
pub fn income(ctx: &Ctx, p: PowerId) -> i64 {
    (0..ctx.map().provinces.len())
        .filter(|i| ctx.provinces[*i].occupier.is_none() && ctx.province_owner(*i) == Some(p))
        .map(|i| i64::from(ctx.map().provinces[i].gdp))
        .sum()
}

/// The shortfall (upkeep above income, S-SUP-1) of the Upkeeps after the coming one that the
/// level keeps in hand, so that troops are paid then too (S-SUP-2): repairs, restores and
/// fortifications leave it as well.
pub(super) fn kept_for_upkeep(ctx: &Ctx, p: PowerId, s: &Spending) -> i64 {
    let purse = Purse::of(ctx, p, s);
    purse.keep(0) - purse.reserve
}

/// S-SUP-1, S-SUP-4: what a unit that comes back (restored, S-LOSS-1) or is raised as an
/// independent unit adds to the coming Upkeep, with the independent surcharge.
pub(super) fn independent_upkeep(ctx: &Ctx, kind: ForceKind) -> i64 {
    with_independent_surcharge(unit_upkeep(ctx, kind))
}

/// S-SUP-4: an independent unit's upkeep with its +25 %, rounded up as the engine's total may be.
fn with_independent_surcharge(base: i64) -> i64 {
    ceil_div(base * (100 + INDEPENDENT_SURCHARGE_PERCENT), 100)
}

/// S-SUP-1: one unit's upkeep before surcharges.
fn unit_upkeep(ctx: &Ctx, kind: ForceKind) -> i64 {
    let e = &ctx.scenario().rules.economy;
    i64::from(match kind {
        ForceKind::Infantry { .. } | ForceKind::Cavalry { .. } => e.upkeep_division,
        ForceKind::Tank { .. } => e.upkeep_tank,
        ForceKind::Artillery { .. } => e.upkeep_artillery,
    })
}

/// The money the treasury may spend now on research, upgrades and recruits.
struct Purse {
    /// Treasury less the ammunition still to buy (S-SUP-3: two turns of fighting for every unit,
    /// as the staff's economy keeps) and what the income leaves unpaid of the coming Upkeep.
    left: i64,
    income: i64,
    upkeep: i64,
    /// Upkeeps after the coming one the level keeps the shortfall of (no more than the game has).
    turns: i64,
    /// Money kept for restoring dispersed divisions (S-LOSS-1).
    reserve: i64,
}

impl Purse {
    fn of(ctx: &Ctx, p: PowerId, s: &Spending) -> Purse {
        let e = &ctx.scenario().rules.economy;
        let stock = &ctx.powers[usize::from(p.0)];
        let units = ctx.forces.iter().filter(|f| f.power == p && f.present()).count() as i64;
        let ammo = (2 * i64::from(e.ammo_per_action) * units - stock.ammo).max(0)
            * i64::from(ctx.scenario().rules.ammunition.price);
        let (income, upkeep) = (income(ctx, p), upkeep(ctx, p));
        let last = ctx.scenario().start_turn + ctx.scenario().max_turns - 1;
        let turns = i64::from(last.saturating_sub(ctx.clock.turn).min(s.deficit_turns));
        let reserve = i64::from(s.restore_reserve) * i64::from(e.division / 2);
        // The income comes in only at the Upkeep (S-CITY-2): a purchase is paid from the
        // treasury now, and what the income does not cover of the upkeep is kept.
        let left = stock.money - ammo - (upkeep - income).max(0);
        Purse { left, income, upkeep, turns, reserve }
    }

    /// What the treasury keeps once units of `added` upkeep a turn are raised: the restoring
    /// reserve and the shortfall of the Upkeeps it looks ahead to.
    fn keep(&self, added: i64) -> i64 {
        self.reserve + (self.upkeep + added - self.income).max(0) * self.turns
    }

    /// What may be spent now, raising nothing.
    fn free(&self) -> i64 {
        self.left - self.keep(0)
    }
}

/// The war as the treasury reads it, from the power's side of the line.
struct War {
    /// Own hexes with combat units next to an enemy.
    contact_hexes: usize,
    /// Own combat units (infantry, cavalry, tanks) on those hexes, and the infantry among them.
    ours: usize,
    infantry: usize,
    /// Enemy combat units next to a hex we hold.
    theirs: usize,
    /// Own divisions (infantry, cavalry), heavy artillery divisions and tank battalions present.
    divisions: usize,
    /// Own cavalry divisions present.
    cavalry: usize,
    guns: usize,
    tanks: usize,
}

impl War {
    fn of(ctx: &Ctx, p: PowerId) -> War {
        let mut w =
            War { contact_hexes: 0, ours: 0, infantry: 0, theirs: 0, divisions: 0, cavalry: 0, guns: 0, tanks: 0 };
        let mut hexes = std::collections::BTreeSet::new();
        for f in ctx.forces.iter().filter(|f| f.present()) {
            if ctx.hostile(p, f.power) {
                let near = f.hex().is_some_and(|h| h.neighbours().iter().any(|n| ctx.holder(*n) == Some(p)));
                w.theirs += usize::from(f.kind.is_combatant() && near);
                continue;
            }
            if f.power != p {
                continue;
            }
            w.divisions += usize::from(f.kind.is_division());
            w.cavalry += usize::from(matches!(f.kind, ForceKind::Cavalry { .. }));
            w.guns += usize::from(f.kind.is_artillery());
            w.tanks += usize::from(matches!(f.kind, ForceKind::Tank { .. }));
            let Some(at) = f.hex().filter(|h| f.kind.is_combatant() && ctx.next_to_enemy(p, *h)) else { continue };
            hexes.insert(at);
            w.ours += 1;
            w.infantry += usize::from(matches!(f.kind, ForceKind::Infantry { .. }));
        }
        w.contact_hexes = hexes.len();
        w
    }

    /// More of ours than of theirs face each other on the line, by the level's margin.
    fn attacking(&self, s: &Spending) -> bool {
        self.ours > 0 && self.ours * 100 >= self.theirs * s.attack_percent
    }

    /// The front has fewer guns than one per `divisions_per_gun` divisions in contact.
    fn short_of_guns(&self, s: &Spending) -> bool {
        self.guns * s.divisions_per_gun < self.ours
    }

    /// The front has fewer tank battalions than one per `divisions_per_gun` divisions in contact.
    fn short_of_tanks(&self, s: &Spending) -> bool {
        self.tanks * s.divisions_per_gun < self.ours
    }

    /// Few divisions are in contact: a war of movement.
    fn open(&self, s: &Spending) -> bool {
        self.ours * 100 < self.divisions * s.open_percent
    }

    /// The cavalry is under the level's share of the divisions.
    fn short_of_cavalry(&self, s: &Spending) -> bool {
        self.cavalry * 100 < self.divisions * s.cavalry_percent
    }
}

/// The best gun type of the power's own (S-ART-1): the greatest Attack, then range.
fn own_gun(ctx: &Ctx, p: PowerId) -> Option<String> {
    let id = &ctx.scenario().powers[usize::from(p.0)].id;
    let guns = &ctx.scenario().units.guns;
    let best = guns.iter().filter(|g| &g.country == id).max_by_key(|g| (g.attack, g.range, std::cmp::Reverse(&g.name)));
    best.map(|g| g.name.clone())
}

/// The best tank type of the power's own (S-LAND-9): the greatest Attack.
fn own_tank(ctx: &Ctx, p: PowerId) -> Option<String> {
    let id = &ctx.scenario().powers[usize::from(p.0)].id;
    let tanks = &ctx.scenario().units.tanks;
    let best = tanks.iter().filter(|t| t.countries.contains(id)).max_by_key(|t| (t.attack, std::cmp::Reverse(&t.name)));
    best.map(|t| t.name.clone())
}

/// S-TURN-1, MD-S5: the technologies the war calls for by `turn` (each with its price and the
/// money for what it opens):
/// - gas (from turn 3) when the staff uses gas and the front is static (`gas_contacts` own hexes
///   in contact), with the shells for its guns and the cylinders it keeps (S-CHEM-1, S-CHEM-3);
/// - tanks (from turn 4) when it attacks ([`War::attacking`]), with a battalion's price;
/// - the 1916 infantry (from turn 5) when `upgrade_contacts` of its infantry divisions are in
///   contact, with the upgrade of that many (S-LAND-4).
fn called_for(ctx: &Ctx, p: PowerId, s: &Spending, gas: &GasStore, turn: u32) -> Vec<(Tech, i64, i64)> {
    let e = &ctx.scenario().rules.economy;
    let Some(buy) = ctx.scenario().rules.purchases.as_ref() else { return Vec::new() };
    let techs = ctx.powers[usize::from(p.0)].techs;
    let war = War::of(ctx, p);
    let mut out = Vec::new();
    let supplies = war.guns as i64 * i64::from(buy.gas_shell) + i64::from(gas.cylinders) * i64::from(buy.cylinder);
    if gas.used && !techs.gas && turn >= GAS_FROM_TURN && war.contact_hexes >= s.gas_contacts {
        out.push((Tech::Gas, i64::from(e.research_gas), supplies));
    }
    let tanks = s.tanks && !techs.tanks && turn >= TANKS_FROM_TURN && own_tank(ctx, p).is_some();
    if tanks && war.attacking(s) {
        out.push((Tech::Tanks, i64::from(e.research_tanks), i64::from(buy.tank.money)));
    }
    if !techs.infantry && turn >= UPGRADE_FROM_TURN && war.infantry >= s.upgrade_contacts {
        let upgrades = i64::from(e.upgrade) * s.upgrade_contacts as i64;
        out.push((Tech::Infantry, i64::from(e.research_infantry), upgrades));
    }
    out
}

/// Whether the staff uses gas (S-CHEM-1, S-CHEM-3) and the cylinders it keeps in store.
pub(super) struct GasStore {
    pub used: bool,
    pub cylinders: u32,
}

/// S-TURN-1, MD-S5: the technologies the war calls for now ([`called_for`]), each bought only
/// when the money left after it still buys what it opens.
pub(super) fn research(ctx: &Ctx, p: PowerId, s: &Spending, gas: &GasStore) -> Vec<Order> {
    let mut free = Purse::of(ctx, p, s).free();
    let mut out = Vec::new();
    for (tech, price, then) in called_for(ctx, p, s, gas, ctx.clock.turn) {
        if free >= price + then {
            out.push(Order::Research { tech });
            free -= price;
        }
    }
    out
}

/// S-TURN-1: what a level that saves for research (`save_for_research`) keeps from upgrades
/// and recruits: the price, and what it opens, of each technology the war calls for that the
/// next turn opens or that the treasury could not pay this turn, so that it is bought as soon
/// as it may be.
pub(super) fn research_saving(ctx: &Ctx, p: PowerId, s: &Spending, gas: &GasStore) -> i64 {
    if !s.save_for_research {
        return 0;
    }
    called_for(ctx, p, s, gas, ctx.clock.turn + 1).iter().map(|(_, price, then)| price + then).sum()
}

/// S-LAND-4, S-LAND-8: once the 1916 model is researched, the 1914 divisions in contact are
/// upgraded first, then the others nearest the enemy, while the money lasts. Cavalry takes only
/// gas masks from it, so it is upgraded only once an enemy has gas. Returns the orders and their
/// price.
pub(super) fn upgrades(ctx: &Ctx, p: PowerId, s: &Spending, saving: i64) -> (Vec<Order>, i64) {
    let stock = &ctx.powers[usize::from(p.0)];
    if !stock.techs.infantry || ctx.clock.turn < UPGRADE_FROM_TURN {
        return (Vec::new(), 0);
    }
    let price = i64::from(ctx.scenario().rules.economy.upgrade);
    let enemy_gas = (0..ctx.powers.len()).any(|i| {
        let q = PowerId(i as u8);
        ctx.hostile(p, q) && ctx.powers[i].techs.gas
    });
    let enemies = super::enemy_combat_hexes(ctx, p);
    let mut wanted: Vec<(bool, u32, rules::strategic::ForceId)> = ctx
        .forces
        .iter()
        .filter(|f| f.power == p && f.present())
        .filter(|f| match f.kind {
            ForceKind::Infantry { model: Model::M1914, .. } => true,
            ForceKind::Cavalry { model: Model::M1914, .. } => enemy_gas,
            _ => false,
        })
        .map(|f| {
            let at = f.hex();
            let contact = at.is_some_and(|h| ctx.next_to_enemy(p, h));
            (!contact, at.map_or(u32::MAX, |h| nearest(&enemies, h)), f.id)
        })
        .collect();
    wanted.sort_unstable();
    let mut free = Purse::of(ctx, p, s).free() - saving;
    let mut out = Vec::new();
    for (_, _, unit) in wanted {
        if free < price {
            break;
        }
        out.push(Order::Upgrade { unit });
        free -= price;
    }
    let spent = price * out.len() as i64;
    (out, spent)
}

/// Hexes from `h` to the nearest of `enemies` (`u32::MAX` without one).
fn nearest(enemies: &[HexAt], h: HexAt) -> u32 {
    enemies.iter().map(|e| e.distance(h)).min().unwrap_or(u32::MAX)
}

/// A recruit with what it costs: money, manpower (class `None`: any, class 2 first) and upkeep.
struct Levy {
    unit: Recruit,
    money: i64,
    men: u32,
    class: Option<u8>,
    upkeep: i64,
}

/// Issue 12 purchases: units raised at the free hexes of own cities nearest the enemy by land (a
/// city cut off by sea from the front comes last: its troops need a transport to reach it,
/// S-NAVAL-11), then as the crow flies (not in contact: a new unit cannot move in the turn it is
/// raised), while the money after the coming
/// Upkeeps and the level's reserve allows ([`Purse::keep`]), each what the front lacks most
/// ([`wanted`]). Returns the orders and the money they take from what the staff may still spend
/// this turn (price, upkeep, ammunition and the upkeep they add to the Upkeeps kept in hand).
pub(super) fn recruits(ctx: &Ctx, p: PowerId, s: &Spending, saving: i64, front: &Front) -> (Vec<Order>, i64) {
    let mut out = Vec::new();
    let Some(buy) = ctx.scenario().rules.purchases.as_ref() else { return (out, 0) };
    let e = &ctx.scenario().rules.economy;
    let purse = Purse::of(ctx, p, s);
    let mut war = War::of(ctx, p);
    let mut men = ctx.powers[usize::from(p.0)].manpower;
    let keep_men = s.restore_reserve * (e.division_manpower / 2);
    let enemies = super::enemy_combat_hexes(ctx, p);
    let mut cities: Vec<(u32, u32, HexAt)> = ctx
        .map()
        .cities
        .iter()
        .flat_map(|c| c.hexes.iter().copied())
        .filter(|h| ctx.own_city_hex(p, *h, false) && ctx.map().is_land(*h) && !ctx.next_to_enemy(p, *h))
        .map(|h| (front.enemy_steps(h), nearest(&enemies, h), h))
        .collect();
    cities.sort_unstable();
    cities.dedup();
    let ammo = 2 * i64::from(e.ammo_per_action) * i64::from(ctx.scenario().rules.ammunition.price);
    let (mut spent, mut added) = (0i64, 0i64);
    for (_, _, at) in cities.into_iter().take(s.recruits) {
        let chosen = wanted(ctx, p, s, &war).into_iter().find_map(|unit| {
            let levy = levy(ctx, buy, unit)?;
            let upkeep_now = with_independent_surcharge(levy.upkeep);
            let cost = levy.money + upkeep_now + ammo;
            let affordable = purse.left - saving - spent - cost >= purse.keep(added + levy.upkeep);
            let class = manpower(men, keep_men, levy.men, levy.class)?;
            affordable.then_some((levy, class, cost))
        });
        let Some((levy, class, cost)) = chosen else { break };
        men[usize::from(class - 1)] -= levy.men;
        spent += cost;
        added += levy.upkeep;
        match levy.unit {
            Recruit::Artillery(_) => war.guns += 1,
            Recruit::Tank(_) => war.tanks += 1,
            Recruit::Cavalry { .. } => {
                war.divisions += 1;
                war.cavalry += 1;
            }
            _ => war.divisions += 1,
        }
        out.push(Order::Recruit { unit: levy.unit, at });
    }
    (out, spent + purse.keep(added) - purse.keep(0))
}

/// What the front lacks, most wanted first (the others follow when it cannot be afforded): guns
/// when it has fewer than one per `divisions_per_gun` divisions in contact; tank battalions as
/// many when it attacks; cavalry in a war of movement ([`War::open`]) while it is under the
/// level's share of the divisions ([`War::short_of_cavalry`]); else infantry, which holds
/// the line best (Defense 30 against cavalry's 15, S-LAND-1, S-LAND-8).
fn wanted(ctx: &Ctx, p: PowerId, s: &Spending, war: &War) -> Vec<Recruit> {
    let techs = ctx.powers[usize::from(p.0)].techs;
    let mut out = Vec::new();
    let gun = own_gun(ctx, p);
    if war.short_of_guns(s)
        && let Some(g) = gun.clone()
    {
        out.push(Recruit::Artillery(g));
    }
    let tanks_open = s.tanks && techs.tanks && ctx.clock.turn >= TANKS_FROM_TURN;
    if tanks_open
        && war.attacking(s)
        && war.short_of_tanks(s)
        && let Some(t) = own_tank(ctx, p)
    {
        out.push(Recruit::Tank(t));
    }
    let infantry = |class| Recruit::Infantry { class, mountain: false, elite: false };
    let cavalry = [Recruit::Cavalry { class: 1 }, Recruit::Cavalry { class: 2 }];
    if war.open(s) && war.short_of_cavalry(s) {
        out.extend(cavalry.clone());
        out.extend([infantry(1), infantry(2)]);
    } else {
        out.extend([infantry(1), infantry(2)]);
        out.extend(cavalry);
    }
    if let Some(g) = gun.map(Recruit::Artillery)
        && !out.contains(&g)
    {
        out.push(g);
    }
    out
}

/// The price of a land recruit (issue 12, MD-S5), `None` if the power cannot raise it.
fn levy(ctx: &Ctx, buy: &rules::strategic::tables::Purchases, unit: Recruit) -> Option<Levy> {
    let e = &ctx.scenario().rules.economy;
    let division = |class| (i64::from(e.division), e.division_manpower, Some(class), i64::from(e.upkeep_division));
    let (money, men, class, upkeep) = match &unit {
        Recruit::Infantry { class, .. } => division(*class),
        Recruit::Cavalry { class } => {
            (i64::from(buy.cavalry.money), buy.cavalry.manpower, Some(*class), i64::from(e.upkeep_division))
        }
        Recruit::Artillery(_) => {
            (i64::from(buy.artillery.money), buy.artillery.manpower, None, i64::from(e.upkeep_artillery))
        }
        Recruit::Tank(_) => (i64::from(buy.tank.money), buy.tank.manpower, None, i64::from(e.upkeep_tank)),
        Recruit::Ship(_) | Recruit::Squadron(_) => return None,
    };
    Some(Levy { unit, money, men, class, upkeep })
}

/// The manpower class a recruit of `need` men draws on (`class` `None`: any, class 2 first, as
/// the engine takes it), leaving `keep` men in all for restoring (S-LOSS-1); `None` if short.
fn manpower(men: [u32; 2], keep: u32, need: u32, class: Option<u8>) -> Option<u8> {
    if men[0] + men[1] < need + keep {
        return None;
    }
    let enough = |c: u8| men[usize::from(c - 1)] >= need;
    match class {
        Some(c) => enough(c).then_some(c),
        None => [2, 1].into_iter().find(|c| enough(*c)),
    }
}

/// S-AIR-1, S-SUB-6: a reconnaissance squadron bought to hunt the U-boats the staff knows of
/// (its cut sea lanes, the flotillas its side detected: [`super::sea::known_boats`]) when none of
/// its squadrons covers them and it has ASW ships to send there: the type with the widest radius,
/// based at the city of an own unoccupied province whose radius covers most of the known boats'
/// hexes (then the nearest to them), while the money after the coming Upkeeps allows (price `purchases.squadron`).
/// Returns the order and its price.
pub(super) fn reconnaissance_squadron(ctx: &Ctx, p: PowerId, s: &Spending, saving: i64) -> (Vec<Order>, i64) {
    use super::sea::{coverage, known_boats};
    use rules::strategic::hexmap::flag;
    use rules::strategic::naval::ShipType;
    let Some(buy) = ctx.scenario().rules.purchases.as_ref() else { return (Vec::new(), 0) };
    let known = known_boats(ctx, p);
    let covered = |base: HexAt, radius: u32| known.iter().map(|k| coverage(k, base, radius)).sum::<f64>();
    let own = ctx.navy.squadrons.iter().filter(|q| q.power == p && q.recon && q.aircraft > 0);
    let asw = ctx.navy.fleets.iter().any(|f| f.power == p && ctx.navy.count(f.id, ShipType::Asw) > 0);
    if known.is_empty() || !asw || own.clone().any(|q| covered(q.base, q.radius) > 0.0) {
        return (Vec::new(), 0);
    }
    let price = i64::from(buy.squadron);
    if Purse::of(ctx, p, s).free() - saving < price {
        return (Vec::new(), 0);
    }
    let Some(kind) = ctx
        .scenario()
        .aviation
        .squadrons
        .iter()
        .filter(|t| t.recon)
        .max_by_key(|t| (t.radius, std::cmp::Reverse(&t.name)))
    else {
        return (Vec::new(), 0);
    };
    let near = |h: HexAt| known.iter().flat_map(|k| k.hexes.iter()).map(|k| k.distance(h)).min().unwrap_or(u32::MAX);
    let base = ctx
        .map()
        .cities
        .iter()
        .flat_map(|c| c.hexes.iter().copied())
        .filter(|h| {
            ctx.map().cell(*h).is_some_and(|c| c.has(flag::CITY))
                && ctx
                    .province_at(*h)
                    .is_some_and(|pi| ctx.province_owner(pi) == Some(p) && ctx.province_controller(pi) == Some(p))
        })
        .map(|h| (covered(h, kind.radius), h))
        .filter(|(c, _)| *c > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| near(b.1).cmp(&near(a.1))).then_with(|| b.1.cmp(&a.1)));
    let Some((_, at)) = base else { return (Vec::new(), 0) };
    let o = Order::Recruit { unit: Recruit::Squadron(kind.name.clone()), at };
    if super::legal(ctx, &o) { (vec![o], price) } else { (Vec::new(), 0) }
}
