//! Who of a player's seats gives an order: its leader (a `player` seat) or one of its generals,
//! each holding what its leader assigns (a Great War power's armies and fleets, a campaign
//! side's armies, a battle side's formations). The three kinds say what an order needs
//! ([`Needs`], over their own kind of holding); the judgement is this one.

use super::Refusal;
use crate::seats::Role;

/// What an order needs of the seat that gives it, over `H`, what a general may hold.
pub(super) enum Needs<H> {
    /// The leader's alone (the kind says which orders: the economy, directives, a battle's
    /// command).
    Leader,
    /// Whoever holds every one of these: a general holding them all, else the leader where no
    /// general holds any. None named (a piece no general may hold): the leader's.
    All(Vec<H>),
    /// The command of something these share (a campaign's battle): a general holding any one
    /// of them, else the leader where no general holds any.
    Any(Vec<H>),
    /// Each seat of the player (ending its part: `Served::is_pass`).
    Anyone,
}

impl<H> Needs<H> {
    /// Whether `role`, a seat of the player, may give the order; `generals` are the player's
    /// general seats and `holds` says whether a general's seat holds a piece.
    pub(super) fn judge(
        self,
        role: &Role,
        generals: &[&Role],
        holds: impl Fn(&Role, &H) -> bool,
    ) -> Result<(), Refusal> {
        let general = matches!(role, Role::General { .. });
        let not_assigned = || Err(Refusal::new("not_assigned", "server.err.not_assigned"));
        match self {
            Needs::Anyone => Ok(()),
            Needs::Leader if general => Err(Refusal::new("leaders_order", "server.err.leaders_order")),
            Needs::Leader => Ok(()),
            Needs::All(hs) if general => {
                if !hs.is_empty() && hs.iter().all(|h| holds(role, h)) {
                    Ok(())
                } else {
                    not_assigned()
                }
            }
            Needs::Any(hs) if general => {
                if hs.iter().any(|h| holds(role, h)) {
                    Ok(())
                } else {
                    not_assigned()
                }
            }
            Needs::All(hs) | Needs::Any(hs) => {
                if hs.iter().any(|h| generals.iter().any(|g| holds(g, h))) {
                    Err(Refusal::new("generals_piece", "server.err.generals_piece"))
                } else {
                    Ok(())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn general(holds: &[u32]) -> Role {
        Role::General { player: "red".to_string(), formations: holds.to_vec(), fleets: Vec::new() }
    }

    fn holds(role: &Role, h: &u32) -> bool {
        matches!(role, Role::General { formations, .. } if formations.contains(h))
    }

    fn code(r: Result<(), Refusal>) -> &'static str {
        r.err().map_or("ok", |r| r.code)
    }

    #[test]
    fn a_general_gives_what_it_holds_and_the_leader_the_rest() {
        let leader = Role::Player { player: "red".to_string() };
        let (one, two) = (general(&[1]), general(&[2]));
        let generals = [&one, &two];
        let judge = |n: Needs<u32>, r: &Role| code(n.judge(r, &generals, holds));
        assert_eq!(judge(Needs::All(vec![1]), &one), "ok");
        assert_eq!(judge(Needs::All(vec![1, 2]), &one), "not_assigned", "all of them, not one");
        assert_eq!(judge(Needs::All(vec![]), &one), "not_assigned", "a piece no general holds");
        assert_eq!(judge(Needs::All(vec![]), &leader), "ok");
        assert_eq!(judge(Needs::All(vec![3]), &leader), "ok");
        assert_eq!(judge(Needs::All(vec![3, 2]), &leader), "generals_piece");
        assert_eq!(judge(Needs::Any(vec![3, 2]), &two), "ok", "the command of what one holds");
        assert_eq!(judge(Needs::Any(vec![3]), &two), "not_assigned");
        assert_eq!(judge(Needs::Leader, &one), "leaders_order");
        assert_eq!(judge(Needs::Leader, &leader), "ok");
        assert_eq!(judge(Needs::Anyone, &one), "ok");
    }
}
