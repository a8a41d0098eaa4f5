//! Unit propagation over a chosen few of the rules, remembering why each literal was implied,
//! so that a refutation names the rules and the facts it used. The explanation's cheap test:
//! "these rules and these facts force `l`" holds when assuming `¬l` propagates to a conflict,
//! which is also exactly what a RUP checker confirms.

use super::Rules;
use crate::cnf::Lit;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Variables are small integers: a multiplicative hash is as good as SipHash here and much
/// faster (a propagator is looked up once per fact per call).
#[derive(Default)]
struct VarHasher(u64);

impl Hasher for VarHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type VarMap = HashMap<u32, u32, BuildHasherDefault<VarHasher>>;

/// A literal over the local variables: `2·v` true, `2·v + 1` false.
type Local = u32;

const FACT: u32 = u32::MAX;
const ASSUMED: u32 = u32::MAX - 1;

/// Clauses longer than this count their false literals ([`Propagator::falses`]).
const LONG: usize = 4;

/// The bit of [`Propagator::falses`] saying the clause was scanned since its count last
/// changed: the count is raised when a literal is set false, but the clause is visited later,
/// once for each such literal, from the trail, so when the last literals of a long clause are
/// set false before the first of those visits, each visit would scan the whole clause again
/// (an at-least-one over a one-room LITS board's 400,000 placements: 150 s on 150×150).
const SCANNED: u32 = 1 << 31;

/// What a refutation used: rule indices (sorted, each once) and the known facts it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub rules: Vec<usize>,
    pub facts: Vec<Lit>,
}

/// The clauses of some rules, ready to propagate from a base of known facts.
pub struct Propagator {
    /// Global variable of each local one.
    globals: Vec<u32>,
    index: VarMap,
    /// Every clause's literals, one after another; clause `c` is `lits[starts[c]..starts[c + 1]]`
    /// (one allocation, not one a clause: the pairs of rules hold millions of them).
    lits: Vec<Local>,
    starts: Vec<u32>,
    /// The rule of each clause.
    rule: Vec<usize>,
    /// Clauses holding each local literal.
    occurs: Lists,
    /// The long clauses ([`LONG`]) holding each local literal.
    long_occurs: Lists,
    /// Per long clause, how many of its literals are false: only a clause with at most one
    /// left can be unit or in conflict, so the others are not scanned (a rule's at-least-one
    /// over hundreds of candidates would be scanned for each of them set false). A short
    /// clause is scanned as cheaply as it is counted. [`SCANNED`] marks a count the clause was
    /// scanned at ([`Propagator::propagate`]); a change of the count clears it.
    falses: Vec<u32>,
    /// Per local variable: 0 open, 1 true, -1 false.
    value: Vec<i8>,
    reason: Vec<u32>,
    trail: Vec<Local>,
    /// Trail length after the base facts' propagation.
    base: usize,
    /// The base facts contradict these rules (with why).
    base_conflict: Option<Why>,
    /// Rules switched off ([`Propagator::only`]), by rule index; empty: all on.
    off: Vec<bool>,
    /// Marks for [`Propagator::trace`], current when equal to `epoch`.
    seen: Vec<u32>,
    done: Vec<u32>,
    epoch: u32,
}

fn neg(l: Local) -> Local {
    l ^ 1
}

/// A list of clauses per local literal, all in one allocation (a list each cost more than the
/// clauses of a small rule: the pairs of rules are many).
#[derive(Default)]
struct Lists {
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The clauses of `starts`/`lits` that `keep` accepts, listed under each of their
    /// literals, in order.
    fn new(literals: usize, starts: &[u32], lits: &[Local], keep: impl Fn(usize) -> bool) -> Lists {
        let clauses = (0..starts.len() - 1).filter(|&c| keep(c));
        let mut count = vec![0u32; literals + 1];
        for c in clauses.clone() {
            for &l in &lits[starts[c] as usize..starts[c + 1] as usize] {
                count[l as usize + 1] += 1;
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut next = count.clone();
        let mut items = vec![0; count[literals] as usize];
        for c in clauses {
            for &l in &lits[starts[c] as usize..starts[c + 1] as usize] {
                items[next[l as usize] as usize] = c as u32;
                next[l as usize] += 1;
            }
        }
        Lists {
            starts: count,
            items,
        }
    }

    fn of(&self, l: Local) -> std::ops::Range<usize> {
        self.starts[l as usize] as usize..self.starts[l as usize + 1] as usize
    }
}

impl Propagator {
    /// The clauses of `which` rules of `rules`.
    pub fn new(rules: &Rules, which: &[usize]) -> Propagator {
        let mut p = Propagator {
            globals: Vec::new(),
            index: VarMap::default(),
            lits: Vec::new(),
            starts: vec![0],
            rule: Vec::new(),
            occurs: Lists::default(),
            long_occurs: Lists::default(),
            falses: Vec::new(),
            value: Vec::new(),
            reason: Vec::new(),
            trail: Vec::new(),
            base: 0,
            base_conflict: None,
            off: Vec::new(),
            seen: Vec::new(),
            done: Vec::new(),
            epoch: 0,
        };
        for &r in which {
            for clause in rules.clauses_of(r) {
                for &l in clause {
                    let local = p.local(l);
                    p.lits.push(local);
                }
                p.starts.push(p.lits.len() as u32);
                p.rule.push(r);
            }
        }
        p.seen = vec![0; p.globals.len()];
        let literals = 2 * p.globals.len();
        p.occurs = Lists::new(literals, &p.starts, &p.lits, |_| true);
        let starts = &p.starts;
        p.long_occurs = Lists::new(literals, starts, &p.lits, |c| {
            (starts[c + 1] - starts[c]) as usize > LONG
        });
        let clauses = p.starts.len() - 1;
        p.done = vec![0; clauses];
        p.falses = vec![0; clauses];
        p
    }

    /// Keeps only `which` of its rules on (until the next call), so that one propagator over
    /// all the rules tries subsets without being rebuilt. Takes effect at the next
    /// [`Propagator::set_base`].
    pub fn only(&mut self, which: &[usize]) {
        let most = self.rule.iter().copied().max().map_or(0, |m| m + 1);
        self.off = vec![true; most];
        for &r in which.iter().filter(|&&r| r < most) {
            self.off[r] = false;
        }
    }

    /// Where clause `c`'s literals are in `lits`.
    fn clause(&self, c: u32) -> std::ops::Range<usize> {
        self.starts[c as usize] as usize..self.starts[c as usize + 1] as usize
    }

    fn local(&mut self, l: Lit) -> Local {
        let var = l.var();
        let v = match self.index.get(&var) {
            Some(&v) => v,
            None => {
                let v = self.globals.len() as u32;
                self.globals.push(var);
                self.index.insert(var, v);
                self.value.push(0);
                self.reason.push(0);
                v
            }
        };
        2 * v + u32::from(!l.is_positive())
    }

    fn find(&self, l: Lit) -> Option<Local> {
        self.index
            .get(&l.var())
            .map(|&v| 2 * v + u32::from(!l.is_positive()))
    }

    fn global(&self, l: Local) -> Lit {
        let lit = Lit::positive(self.globals[(l / 2) as usize]);
        if l & 1 == 1 {
            !lit
        } else {
            lit
        }
    }

    fn val(&self, l: Local) -> i8 {
        let v = self.value[(l / 2) as usize];
        if l & 1 == 1 {
            -v
        } else {
            v
        }
    }

    /// `l`'s value after the base facts' propagation (`None`: open, or not on these rules).
    pub fn value(&self, l: Lit) -> Option<bool> {
        match self.val(self.find(l)?) {
            0 => None,
            v => Some(v > 0),
        }
    }

    /// Whether the variable of `l` occurs in these rules.
    pub fn mentions(&self, l: Lit) -> bool {
        self.index.contains_key(&l.var())
    }

    /// The global variables these rules mention.
    pub fn vars(&self) -> &[u32] {
        &self.globals
    }

    fn assign(&mut self, l: Local, reason: u32) {
        self.value[(l / 2) as usize] = if l & 1 == 1 { -1 } else { 1 };
        self.reason[(l / 2) as usize] = reason;
        self.trail.push(l);
        for k in self.long_occurs.of(neg(l)) {
            let f = &mut self.falses[self.long_occurs.items[k] as usize];
            *f = (*f & !SCANNED) + 1;
        }
    }

    fn undo_to(&mut self, len: usize) {
        for l in self.trail.drain(len..) {
            self.value[(l / 2) as usize] = 0;
            for k in self.long_occurs.of(neg(l)) {
                let f = &mut self.falses[self.long_occurs.items[k] as usize];
                *f = (*f & !SCANNED) - 1;
            }
        }
    }

    /// Propagates from `from` on the trail; the conflicting clause, if any.
    fn propagate(&mut self, mut head: usize) -> Option<u32> {
        while head < self.trail.len() {
            let falsified = neg(self.trail[head]);
            head += 1;
            for k in self.occurs.of(falsified) {
                let ci = self.occurs.items[k];
                let clause = self.clause(ci);
                let len = clause.len();
                if self.off.get(self.rule[ci as usize]) == Some(&true) {
                    continue;
                }
                if len > LONG {
                    // Two literals or more not false, or scanned at this count already (and
                    // found satisfied, or unit and its last literal set true since).
                    let falses = self.falses[ci as usize];
                    if falses & SCANNED != 0 || (falses as usize) + 1 < len {
                        continue;
                    }
                    self.falses[ci as usize] |= SCANNED;
                }
                let mut open = None;
                let mut open_count = 0;
                let mut satisfied = false;
                for &l in &self.lits[clause] {
                    match self.val(l) {
                        1 => {
                            satisfied = true;
                            break;
                        }
                        0 => {
                            open_count += 1;
                            open = Some(l);
                        }
                        _ => {}
                    }
                }
                if satisfied || open_count > 1 {
                    continue;
                }
                match open {
                    None => return Some(ci),
                    Some(l) => self.assign(l, ci),
                }
            }
        }
        None
    }

    /// The rules and facts behind a conflict in clause `ci` (and, if given, behind the value
    /// of `also`).
    fn trace(&mut self, ci: Option<u32>, also: Option<Local>) -> Why {
        self.epoch += 1;
        let epoch = self.epoch;
        let mut rules = Vec::new();
        let mut facts = Vec::new();
        let mut stack: Vec<u32> = Vec::new();
        let mut vars: Vec<usize> = also.map(|l| (l / 2) as usize).into_iter().collect();
        if let Some(ci) = ci {
            stack.push(ci);
        }
        loop {
            while let Some(v) = vars.pop() {
                if std::mem::replace(&mut self.seen[v], epoch) == epoch {
                    continue;
                }
                match self.reason[v] {
                    FACT => {
                        let l = 2 * v as u32 + u32::from(self.value[v] < 0);
                        facts.push(self.global(l));
                    }
                    ASSUMED => {}
                    c => stack.push(c),
                }
            }
            let Some(c) = stack.pop() else { break };
            if std::mem::replace(&mut self.done[c as usize], epoch) == epoch {
                continue;
            }
            rules.push(self.rule[c as usize]);
            vars.extend(self.lits[self.clause(c)].iter().map(|&l| (l / 2) as usize));
        }
        rules.sort_unstable();
        rules.dedup();
        facts.sort_unstable();
        Why { rules, facts }
    }

    /// Clears every value, then sets `known` (those on these rules' variables) and propagates.
    /// Returns false when the facts contradict the rules by propagation.
    pub fn set_base(&mut self, known: &[Lit]) -> bool {
        self.undo_to(0);
        self.base_conflict = None;
        for &k in known {
            let Some(l) = self.find(k) else { continue };
            match self.val(l) {
                1 => {}
                -1 => {
                    self.base_conflict = Some(self.trace(None, Some(l)));
                    break;
                }
                _ => self.assign(l, FACT),
            }
        }
        if self.base_conflict.is_none() {
            if let Some(ci) = self.propagate(0) {
                self.base_conflict = Some(self.trace(Some(ci), None));
            }
        }
        self.base = self.trail.len();
        self.base_conflict.is_none()
    }

    /// Whether the base facts and these rules force `l` by propagation: assuming `¬l` meets a
    /// conflict. `None` if not (or `l`'s variable is not theirs).
    pub fn refute(&mut self, l: Lit) -> Option<Why> {
        if let Some(why) = &self.base_conflict {
            return Some(why.clone());
        }
        let x = self.find(l)?;
        match self.val(x) {
            // Already implied: why it is.
            1 => return Some(self.trace(None, Some(x))),
            -1 => return None,
            _ => {}
        }
        self.assign(neg(x), ASSUMED);
        let conflict = self.propagate(self.base);
        let why = conflict.map(|ci| self.trace(Some(ci), None));
        self.undo_to(self.base);
        why
    }

    /// [`Propagator::refute`] without the reasons: only whether it is forced.
    pub fn forces(&mut self, l: Lit) -> bool {
        if self.base_conflict.is_some() {
            return true;
        }
        let Some(x) = self.find(l) else { return false };
        match self.val(x) {
            1 => return true,
            -1 => return false,
            _ => {}
        }
        self.assign(neg(x), ASSUMED);
        let conflict = self.propagate(self.base).is_some();
        self.undo_to(self.base);
        conflict
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;

    #[test]
    fn a_refutation_names_only_the_rules_and_facts_it_used() {
        let mut rules = Rules::new();
        let x: Vec<Lit> = (0..5).map(|_| rules.new_var()).collect();
        rules.rule("x0 implies x1", vec![]);
        rules.add_clause(&[!x[0], x[1]]);
        rules.rule("x1 implies x2", vec![]);
        rules.add_clause(&[!x[1], x[2]]);
        rules.rule("x3 implies x4", vec![]);
        rules.add_clause(&[!x[3], x[4]]);
        let mut p = Propagator::new(&rules, &[0, 1, 2]);
        assert!(p.set_base(&[x[0], x[3]]));
        let why = p.refute(x[2]).unwrap();
        assert_eq!(why.rules, vec![0, 1]);
        assert_eq!(why.facts, vec![x[0]]);
        assert_eq!(p.refute(!x[2]), None);
        // Without the middle rule nothing follows.
        let mut q = Propagator::new(&rules, &[0, 2]);
        assert!(q.set_base(&[x[0], x[3]]));
        assert_eq!(q.refute(x[2]), None);
        assert_eq!(q.refute(x[4]).unwrap().rules, vec![2]);
    }
}
