//! What the members of a race share while each computes the same backbone
//! ([`crate::search::backbone_cut`]): the believed literals a model broke, and those a refutation
//! proved. Every member holds the same rules over the same variables (the same encoder on the
//! same puzzle), so what one of them drops or proves is dropped or proved for all, and the
//! members split the refutations instead of each doing all of them: a literal one member is
//! refuting, or has failed to refute within the conflicts the other would give it, is left to
//! the first. A member that joins with other candidates than the first (another encoding) keeps
//! to itself.

use crate::cnf::Lit;
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};

/// The board the members of one race post to.
#[derive(Default)]
pub struct Team {
    board: Mutex<Board>,
}

#[derive(Default)]
struct Board {
    /// The candidates of the first member to join.
    candidates: Option<Vec<Lit>>,
    joined: usize,
    dropped: Vec<Lit>,
    proved: Vec<Lit>,
    /// The literals a member is refuting now.
    busy: HashSet<Lit>,
    /// The most conflicts a refutation of each literal was given and ran past.
    tried: HashMap<Lit, u64>,
}

/// A member's place on the team: its turn (the order it joined) and how much of the board it
/// has read.
pub struct Seat<'a> {
    team: &'a Team,
    turn: usize,
    dropped: usize,
    proved: usize,
}

/// What the other members posted since a seat last read the board (its own posts included).
pub struct News {
    pub dropped: Vec<Lit>,
    pub proved: Vec<Lit>,
}

impl Team {
    pub fn new() -> Team {
        Team::default()
    }

    fn board(&self) -> MutexGuard<'_, Board> {
        // A member that panicked left the board whole: each post is one push.
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A seat for a member whose search starts from `candidates`; `None` when an earlier
    /// member started from others.
    pub fn join(&self, candidates: &[Lit]) -> Option<Seat<'_>> {
        let mut board = self.board();
        match &board.candidates {
            Some(c) if c != candidates => return None,
            Some(_) => {}
            None => board.candidates = Some(candidates.to_vec()),
        }
        board.joined += 1;
        Some(Seat {
            team: self,
            turn: board.joined - 1,
            dropped: 0,
            proved: 0,
        })
    }

    /// How many literals were posted as dropped and as proved.
    pub fn posted(&self) -> (usize, usize) {
        let board = self.board();
        (board.dropped.len(), board.proved.len())
    }
}

impl Seat<'_> {
    /// The order this member joined in: members take the believed literals in different
    /// orders, so that they refute different ones.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Believed literals a model (one without cuts) made false.
    pub fn dropped(&self, lits: &[Lit]) {
        self.team.board().dropped.extend_from_slice(lits);
    }

    /// Literals refuted on their own: true in every model.
    pub fn proved(&self, lits: &[Lit]) {
        self.team.board().proved.extend_from_slice(lits);
    }

    /// The first literal of `order` that no member is refuting now and none has tried within
    /// `budget` conflicts or more, marked as this member's until [`Seat::release`].
    pub fn take(&self, order: impl IntoIterator<Item = Lit>, budget: u64) -> Option<Lit> {
        let mut board = self.team.board();
        let l = order
            .into_iter()
            .find(|l| !board.busy.contains(l) && board.tried.get(l).is_none_or(|&t| t < budget))?;
        board.busy.insert(l);
        Some(l)
    }

    /// `l` is no longer being refuted; `ran_past`: the budget it was given and ran past.
    pub fn release(&self, l: Lit, ran_past: Option<u64>) {
        let mut board = self.team.board();
        board.busy.remove(&l);
        if let Some(budget) = ran_past {
            let t = board.tried.entry(l).or_insert(0);
            *t = (*t).max(budget);
        }
    }

    /// What was posted since this seat last asked.
    pub fn news(&mut self) -> News {
        let board = self.team.board();
        let news = News {
            dropped: board.dropped[self.dropped..].to_vec(),
            proved: board.proved[self.proved..].to_vec(),
        };
        self.dropped = board.dropped.len();
        self.proved = board.proved.len();
        news
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_read_each_others_posts_and_another_encoding_keeps_to_itself() {
        let [a, b, c] = [1, 2, 3].map(Lit::positive);
        let team = Team::new();
        let mut first = team.join(&[a, b]).unwrap();
        let mut second = team.join(&[a, b]).unwrap();
        assert_eq!((first.turn(), second.turn()), (0, 1));
        assert!(
            team.join(&[a, c]).is_none(),
            "other candidates, another encoding"
        );
        first.dropped(&[b]);
        second.proved(&[a]);
        let news = first.news();
        assert_eq!((news.dropped, news.proved), (vec![b], vec![a]));
        assert!(first.news().proved.is_empty(), "read once");
        assert_eq!(second.news().dropped, vec![b]);
        assert_eq!(team.posted(), (1, 1));
    }

    #[test]
    fn a_literal_is_refuted_by_one_member_at_a_time_and_once_a_budget() {
        let [a, b] = [1, 2].map(Lit::positive);
        let team = Team::new();
        let first = team.join(&[a, b]).unwrap();
        let second = team.join(&[a, b]).unwrap();
        assert_eq!(first.take([a, b], 100), Some(a));
        assert_eq!(second.take([a, b], 100), Some(b), "a is busy");
        assert_eq!(second.take([a], 100), None);
        first.release(a, Some(100));
        assert_eq!(second.take([a], 100), None, "tried within 100");
        assert_eq!(second.take([a], 200), Some(a));
        second.release(a, None);
        second.release(b, Some(50));
        assert_eq!(first.take([b], 100), Some(b), "tried within 50 only");
    }
}
