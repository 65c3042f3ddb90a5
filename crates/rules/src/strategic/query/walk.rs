//! The one bounded walk over hexes every reach of the Great War is asked through: a cheapest-first
//! walk from one hex with a step-cost closure (`None`: the step is closed) and a bound on the
//! total cost. Ties are settled in the order hexes were first reached and each hex keeps the step
//! it was first reached by at its cheapest, so with unit costs it is the breadth-first walk in
//! neighbour order (S-NAVAL-4 fleets, S-ARMY-15 retreats), and the same question always gets the
//! same path.

use crate::strategic::hexmap::HexAt;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// What a walk reached: each hex with the hex it was entered from and its cost, and the order the
/// hexes were settled in (cheapest first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    from: Option<HexAt>,
    parent: BTreeMap<HexAt, (HexAt, u32)>,
    order: Vec<HexAt>,
}

/// Walks from `from` while the total cost stays within `bound`; `step(a, b)` is the cost of the
/// step from `a` into its neighbour `b`, `None` where it is closed.
///
/// ```
/// use rules::strategic::query::walk;
/// use rules::strategic::testkit::hex;
///
/// // Unit steps, the column 3 closed: three steps reach round it no further than the bound.
/// let w = walk(hex(2, 2), 3, |_, to| (to.col != 3 && to.col >= 0 && to.row >= 0).then_some(1));
/// assert_eq!(w.cost(hex(2, 2)), Some(0));
/// assert_eq!(w.cost(hex(3, 2)), None);
/// assert!(w.ends().all(|(h, c)| c <= 3 && h.col != 3));
/// let path = w.path(hex(0, 2)).expect("two steps west");
/// assert_eq!((path.len(), path.last()), (2, Some(&hex(0, 2))));
/// ```
pub fn walk(from: HexAt, bound: u32, mut step: impl FnMut(HexAt, HexAt) -> Option<u32>) -> Walk {
    let mut parent: BTreeMap<HexAt, (HexAt, u32)> = BTreeMap::from([(from, (from, 0))]);
    let mut order = Vec::new();
    let mut seq: u64 = 0;
    let mut heap = BinaryHeap::from([Reverse((0u32, seq, from))]);
    while let Some(Reverse((cost, _, h))) = heap.pop() {
        if parent.get(&h).is_some_and(|(_, c)| *c < cost) {
            continue;
        }
        order.push(h);
        for n in h.neighbours() {
            let Some(c) = step(h, n) else { continue };
            let Some(total) = cost.checked_add(c).filter(|t| *t <= bound) else { continue };
            if parent.get(&n).is_some_and(|(_, known)| *known <= total) {
                continue;
            }
            parent.insert(n, (h, total));
            seq += 1;
            heap.push(Reverse((total, seq, n)));
        }
    }
    Walk { from: Some(from), parent, order }
}

impl Walk {
    /// A walk that reached nothing, not even a start (a piece not on the map).
    pub fn none() -> Walk {
        Walk::default()
    }

    /// A walk that stays on `from` (a fleet with nothing afloat).
    pub fn only(from: HexAt) -> Walk {
        Walk { from: Some(from), parent: BTreeMap::from([(from, (from, 0))]), order: vec![from] }
    }

    /// Where the walk started.
    pub fn start(&self) -> Option<HexAt> {
        self.from
    }

    /// The cheapest cost to `h`, if reached (0 for the start).
    pub fn cost(&self, h: HexAt) -> Option<u32> {
        self.parent.get(&h).map(|(_, c)| *c)
    }

    /// The hexes reached, the start left out, with their cost, in hex order.
    pub fn ends(&self) -> impl Iterator<Item = (HexAt, u32)> + '_ {
        self.parent.iter().filter(|(h, _)| Some(**h) != self.from).map(|(h, (_, c))| (*h, *c))
    }

    /// The hexes reached, the start first, in the order they were settled (cheapest first, ties
    /// in the order they were first reached).
    pub fn settled(&self) -> &[HexAt] {
        &self.order
    }

    /// The cheapest path to `to`, the start left out and `to` last; `None` when out of reach or
    /// the start itself.
    pub fn path(&self, to: HexAt) -> Option<Vec<HexAt>> {
        let from = self.from?;
        if to == from || !self.parent.contains_key(&to) {
            return None;
        }
        let mut path = vec![to];
        let mut at = to;
        while let Some((p, _)) = self.parent.get(&at) {
            if *p == from {
                break;
            }
            path.push(*p);
            at = *p;
        }
        path.reverse();
        Some(path)
    }
}
