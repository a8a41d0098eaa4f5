//! Step-by-step explanations. A genre with [`crate::capability::Explain`] states its rules as
//! named instances ("row 3 holds each digit once", "the 6 at (2,5) covers six cells") over
//! facts a person sees (a cell's digit, a cell shaded); [`explain`] then goes from the givens
//! to the solution in steps, each deducing facts from as few rule instances as it finds, given
//! the facts earlier steps established.
//!
//! A step is found in one of three ways, cheapest first, and says which:
//! - one rule alone forces a fact: assuming the opposite propagates to a conflict within it;
//! - several rules force it by propagation: the rules a conflict from assuming the opposite
//!   used over all the rules, pared down one by one;
//! - only a search refutes the opposite: the solver's core over all the rules, pared down.
//!
//! Whichever way it was found, the rules of a step with more than one are then pared down by
//! the solver until removing any one of them lets the opposite of its first deduction hold
//! (`minimal`), so the step never names a rule it does not need. Every deduction is checked:
//! propagation (which a RUP checker repeats) or a solver's refutation.

pub mod propagate;

use crate::cnf::{ClauseSink, Cnf, Lit};
use crate::solver::{NewSolver, SolveResult, Solver, SolverError};
use propagate::{Propagator, Why};
use std::collections::HashSet;

/// The rules of a puzzle, clause by clause, each clause in the rule instance begun last with
/// [`Rules::rule`]. A clause added before any rule is a bug in the genre (it would force facts
/// no step could name), so it panics.
#[derive(Default)]
pub struct Rules {
    pub num_vars: u32,
    names: Vec<String>,
    /// The cells each rule is about, row-major, for pictures and JSON.
    cells: Vec<Vec<usize>>,
    /// Where each rule's clauses start in `clauses`.
    starts: Vec<usize>,
    clauses: Vec<Vec<Lit>>,
}

impl Rules {
    pub fn new() -> Rules {
        Rules::default()
    }

    /// Begins a rule instance: the clauses added from now on are its.
    pub fn rule(&mut self, name: impl Into<String>, cells: Vec<usize>) {
        self.names.push(name.into());
        self.cells.push(cells);
        self.starts.push(self.clauses.len());
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn name(&self, r: usize) -> &str {
        &self.names[r]
    }

    pub fn cells(&self, r: usize) -> &[usize] {
        &self.cells[r]
    }

    pub fn clauses_of(&self, r: usize) -> &[Vec<Lit>] {
        let end = self
            .starts
            .get(r + 1)
            .copied()
            .unwrap_or(self.clauses.len());
        &self.clauses[self.starts[r]..end]
    }

    /// How many literals the clauses hold (what [`crate::genre::NAMED_LITERALS`] bounds).
    pub fn literals(&self) -> u64 {
        self.clauses.iter().map(|c| c.len() as u64).sum()
    }

    /// Every clause, each with its rule.
    pub fn all(&self) -> impl Iterator<Item = (usize, &[Lit])> {
        (0..self.len()).flat_map(move |r| self.clauses_of(r).iter().map(move |c| (r, &c[..])))
    }
}

impl ClauseSink for Rules {
    fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        Lit::positive(self.num_vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        assert!(
            !self.names.is_empty(),
            "a clause outside any named rule: {lits:?}"
        );
        self.clauses.push(lits.to_vec());
    }
}

/// A fact a person sees: a variable of the rules, true when `subject` is `is` ("(2,5)" is
/// "7"; "(3,1)" is "shaded").
#[derive(Clone, Debug)]
pub struct Fact {
    pub lit: Lit,
    pub subject: String,
    pub is: String,
    /// What the subject is when the fact is false, where there is a word for it
    /// ("unshaded"); else "not" and [`Fact::is`].
    pub otherwise: Option<String>,
    /// The cells it is about, row-major.
    pub cells: Vec<usize>,
}

/// A genre's rules for [`explain`]: the rules, the facts, and those the givens establish.
pub struct Named<E> {
    pub rules: Rules,
    pub facts: Vec<Fact>,
    /// Facts true from the start (a sudoku's givens).
    pub known: Vec<Lit>,
    /// The genre's encoding of the same variables, to read a model back into an answer.
    pub encoding: E,
    /// The fact of each variable.
    of_var: std::collections::HashMap<u32, usize>,
    /// Whether a search step's other deductions skip the facts a model already showed
    /// unforced ([`Named::reusing_models`]).
    reuse_models: bool,
}

impl<E> Named<E> {
    pub fn new(rules: Rules, facts: Vec<Fact>, known: Vec<Lit>, encoding: E) -> Named<E> {
        let of_var = facts
            .iter()
            .enumerate()
            .map(|(k, f)| (f.lit.var(), k))
            .collect();
        Named {
            rules,
            facts,
            known,
            encoding,
            of_var,
            reuse_models: false,
        }
    }

    /// A search step's other deductions are found with fewer solver calls: a model of its
    /// rules, the known facts and one fact's opposite shows every fact false in it unforced,
    /// and those are not asked again. The deductions are the same; the solver's learned
    /// clauses, and so the cores and budgets of later calls, are not, so a genre's steps may
    /// differ from those without it. Off unless a genre asks (Nurikabe, whose search steps
    /// mention hundreds of island facts).
    pub fn reusing_models(mut self) -> Named<E> {
        self.reuse_models = true;
        self
    }

    /// The fact of `l`'s variable, and whether `l` says it holds.
    pub fn fact(&self, l: Lit) -> Option<(&Fact, bool)> {
        let f = &self.facts[*self.of_var.get(&l.var())?];
        Some((f, f.lit == l))
    }

    /// What `l` says, in words: "(2,5) is 7", "(2,5) is not 7".
    pub fn say(&self, l: Lit) -> String {
        match self.fact(l) {
            Some((f, true)) => format!("{} is {}", f.subject, f.is),
            Some((f, false)) => match &f.otherwise {
                Some(word) => format!("{} is {word}", f.subject),
                None => format!("{} is not {}", f.subject, f.is),
            },
            None => format!("variable {}", l.dimacs()),
        }
    }

    /// What `lits` say, shortly: what holds first, then what does not, a subject's values
    /// together ("(6,5) is 5; (1,3) is not 1, 5 or 9").
    pub fn say_all(&self, lits: &[Lit]) -> String {
        // (subject, value, whether it is said as holding): a fact false with a word of its
        // own ("unshaded") is said as holding.
        let said: Vec<(&str, &str, bool)> = lits
            .iter()
            .filter_map(|&l| self.fact(l))
            .map(|(f, yes)| match (&f.otherwise, yes) {
                (Some(word), false) => (&f.subject[..], &word[..], true),
                _ => (&f.subject[..], &f.is[..], yes),
            })
            .collect();
        let mut parts: Vec<String> = Vec::new();
        for holds in [true, false] {
            let mut subjects: Vec<(&str, Vec<&str>)> = Vec::new();
            for &(subject, value, _) in said.iter().filter(|s| s.2 == holds) {
                match subjects.iter_mut().find(|(s, _)| *s == subject) {
                    Some((_, values)) => values.push(value),
                    None => subjects.push((subject, vec![value])),
                }
            }
            for (subject, values) in subjects {
                let list = match values.split_last() {
                    Some((last, [])) => last.to_string(),
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => continue,
                };
                let verb = if holds { "is" } else { "is not" };
                parts.push(format!("{subject} {verb} {list}"));
            }
        }
        parts.join("; ")
    }
}

/// How a step was found (and so how hard it is for a person).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Way {
    /// One rule forces it by propagation.
    Single,
    /// Several rules force it by propagation (a chain of single consequences).
    Chain,
    /// Only a search refutes the opposite (a case split).
    Search,
}

impl Way {
    pub fn name(self) -> &'static str {
        match self {
            Way::Single => "single",
            Way::Chain => "chain",
            Way::Search => "search",
        }
    }
}

/// One step: the rules, and the earlier facts, that force its deductions.
#[derive(Clone, Debug)]
pub struct Step {
    pub rules: Vec<usize>,
    pub deduces: Vec<Lit>,
    /// The earlier facts the refutations of its deductions read: the rules and these force
    /// every deduction.
    pub uses: Vec<Lit>,
    pub way: Way,
    /// Proved minimal: without any one of its rules, the opposite of its first deduction
    /// holds with the known facts. False where a solver call gave up within its budget, so
    /// that a rule was kept without proof that it is needed.
    pub minimal: bool,
}

/// The implication a step claims, as a formula with no model (`explain --certify` writes it,
/// `verify` rebuilds it): its rules' clauses, in the order named, the facts it uses as unit
/// clauses, and one clause saying some deduction fails. The facts it mentions are named in
/// comments; an empty clause of a rule is written as two opposite units
/// ([`crate::cnf::NoEmpty`]), which stock checkers read.
pub fn step_formula<E>(named: &Named<E>, rules: &[usize], uses: &[Lit], deduces: &[Lit]) -> Cnf {
    let mut cnf = Cnf::new();
    cnf.num_vars = named.rules.num_vars;
    let mut facts: Vec<Lit> = uses
        .iter()
        .chain(deduces)
        .map(|l| Lit::positive(l.var()))
        .collect();
    facts.sort_unstable();
    facts.dedup();
    for &f in &facts {
        cnf.name_var(f, &|| named.say(f));
    }
    let mut sink = crate::cnf::NoEmpty(cnf);
    for &r in rules {
        for clause in named.rules.clauses_of(r) {
            sink.add_clause(clause);
        }
    }
    for &u in uses {
        sink.add_clause(&[u]);
    }
    let denied: Vec<Lit> = deduces.iter().map(|&d| !d).collect();
    sink.add_clause(&denied);
    sink.0
}

impl Step {
    /// The cells of its rules and those of its deductions, each once: what a picture marks.
    pub fn cells<E>(&self, named: &Named<E>) -> (Vec<usize>, Vec<usize>) {
        let once = |mut cells: Vec<usize>| {
            cells.sort_unstable();
            cells.dedup();
            cells
        };
        let rules = self
            .rules
            .iter()
            .flat_map(|&r| named.rules.cells(r).iter().copied())
            .collect();
        let deduced = self
            .deduces
            .iter()
            .filter_map(|&l| named.fact(l))
            .flat_map(|(f, _)| f.cells.iter().copied())
            .collect();
        (once(rules), once(deduced))
    }
}

/// Steps from the givens, and the facts left open when no step is left (none for a puzzle
/// with one solution).
pub struct Explanation {
    pub steps: Vec<Step>,
    pub open: Vec<Lit>,
    /// Stopped by `--steps` or the run's stop flag before the end.
    pub cut_short: bool,
}

/// Conflicts a paring call may take: one that shows the rules left do not force a fact finds
/// a model of everything else, which on a large board's connectivity can take minutes.
const PARING_BUDGET: u64 = 2_000;

/// Conflicts a search step may spend on each of its other deductions. One not refuted within
/// them is left to a later step (a step says only what it proved): on a board of large
/// Nurikabe islands most of a step's facts are not forced, and the solver took the whole
/// [`PARING_BUDGET`] on each to find a model of an island's size and connectivity or give up
/// (janko.at 10×10 447: 12 s, 9 of them on two steps' other deductions). Measured on 115
/// janko.at Nurikabe 10×10 and 40 Slitherlink and Masyu 10×10: the slowest boards 25 % faster,
/// the rest 5–10 % (docs/explain.md).
const OTHERS_BUDGET: u64 = 200;

/// How many of the smallest propagation refutations are pared down before one is chosen.
const PARED: usize = 6;

/// The steps from `named.known` to `target` (literals every solution has: a unique
/// solution's facts, or the backbone), at most `max_steps`.
pub fn explain<E>(
    named: &Named<E>,
    target: &[Lit],
    solvers: &dyn NewSolver,
    max_steps: Option<usize>,
) -> Result<Explanation, SolverError> {
    explain_while(named, target, solvers, max_steps, &|_| true)
}

/// [`explain`], cut short as soon as `go_on` says no to the steps so far (a grader that
/// only asks whether a puzzle stays under a level).
pub fn explain_while<E>(
    named: &Named<E>,
    target: &[Lit],
    solvers: &dyn NewSolver,
    max_steps: Option<usize>,
    go_on: &dyn Fn(&[Step]) -> bool,
) -> Result<Explanation, SolverError> {
    let rules = &named.rules;
    let mut known: Vec<Lit> = named.known.clone();
    let mut is_known: HashSet<u32> = known.iter().map(|l| l.var()).collect();
    // Stopped before the first step: building the propagators over a large board's rules
    // takes seconds each.
    let stopped = || {
        solvers.stop().is_raised().then(|| Explanation {
            steps: Vec::new(),
            open: target
                .iter()
                .copied()
                .filter(|l| !is_known.contains(&l.var()))
                .collect(),
            cut_short: true,
        })
    };
    if let Some(none) = stopped() {
        return Ok(none);
    }
    let mut singles = Groups::new(rules, (0..rules.len()).map(|r| vec![r]).collect());
    if let Some(none) = stopped() {
        return Ok(none);
    }
    // Built when the singles first run out.
    let mut pairs: Option<Groups> = None;
    let everything: Vec<usize> = (0..rules.len()).collect();
    let mut all = Propagator::new(rules, &everything);
    let mut selectors = Selectors::new(rules, solvers);
    let mut steps = Vec::new();
    loop {
        let open: Vec<Lit> = target
            .iter()
            .copied()
            .filter(|l| !is_known.contains(&l.var()))
            .collect();
        let cut_short = !open.is_empty()
            && (max_steps.is_some_and(|m| steps.len() >= m)
                || solvers.stop().is_raised()
                || !go_on(&steps));
        if open.is_empty() || cut_short {
            return Ok(Explanation {
                steps,
                open,
                cut_short,
            });
        }
        let stop = solvers.stop();
        let found = match singles.best(known.as_slice(), &open, stop) {
            Some((_, found)) => Ok(Some(single_step(found, singles.chosen_rules()))),
            None if stop.is_raised() => Err(SolverError("stopped".into())),
            None => {
                let pairs =
                    pairs.get_or_insert_with(|| Groups::new(rules, neighbours(rules, &singles)));
                match pairs.best(known.as_slice(), &open, stop) {
                    Some((_, mut found)) => {
                        let (l, why) = found.swap_remove(0);
                        finish(
                            rules,
                            named.reuse_models,
                            &mut selectors,
                            &known,
                            &open,
                            l,
                            why,
                            Way::Chain,
                        )
                        .map(Some)
                    }
                    None if stop.is_raised() => Err(SolverError("stopped".into())),
                    None => match chain(
                        rules,
                        named.reuse_models,
                        &mut all,
                        &mut selectors,
                        &known,
                        &open,
                    ) {
                        Ok(None) => {
                            search(rules, named.reuse_models, &mut selectors, &known, &open)
                        }
                        other => other,
                    },
                }
            }
        };
        let step = match found {
            Ok(Some(step)) => step,
            // Nothing forces what is left: the target was not the backbone.
            Ok(None) => {
                return Ok(Explanation {
                    steps,
                    open,
                    cut_short: false,
                })
            }
            Err(_) if solvers.stop().is_raised() => {
                return Ok(Explanation {
                    steps,
                    open,
                    cut_short: true,
                })
            }
            Err(e) => return Err(e),
        };
        singles.established(&step.deduces);
        if let Some(p) = pairs.as_mut() {
            p.established(&step.deduces);
        }
        for &l in &step.deduces {
            is_known.insert(l.var());
            known.push(l);
        }
        steps.push(step);
    }
}

/// A puzzle's grade from its steps: the rules its steps need beyond one each, so that a puzzle
/// of single steps grades 0 and each rule a step must combine adds one. Its Spearman rank
/// correlation with HoDoKu's score on 1000 rated sudokus is 0.94 (docs/explain.md).
pub fn grade_of(steps: &[Step]) -> usize {
    steps.iter().map(|s| s.rules.len() - 1).sum()
}

/// The five levels of `grade`, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Expert,
    Extreme,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    pub fn by_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    /// How many levels apart two are.
    pub fn distance(self, other: Level) -> usize {
        (self as usize).abs_diff(other as usize)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The level, by the grade, a case split making a puzzle at least `expert`. The bounds were
/// set on the HoDoKu-rated sudokus (benches/data/sudoku-graded).
pub fn level_of(steps: &[Step]) -> Level {
    let level = match grade_of(steps) {
        0 => Level::Easy,
        1..=12 => Level::Medium,
        13..=30 => Level::Hard,
        31..=60 => Level::Expert,
        _ => Level::Extreme,
    };
    let split = steps.iter().any(|s| s.way == Way::Search);
    if split {
        level.max(Level::Expert)
    } else {
        level
    }
}

/// A solver holding the named rules and the givens, its variables numbered as the rules'.
/// Cut short when the run's stop flag is raised (loading a large board's rules takes seconds):
/// every call of a stopped run's solver answers [`SolveResult::Interrupted`], so what it lacks
/// is never read as an answer.
pub fn holding<E>(named: &Named<E>, solvers: &dyn NewSolver) -> Box<dyn Solver> {
    let mut solver = solvers.new_solver();
    for v in 1..=named.rules.num_vars {
        assert_eq!(
            solver.new_var(),
            Lit::positive(v),
            "a fresh solver numbers from 1"
        );
    }
    for (k, (_, c)) in named.rules.all().enumerate() {
        if stopped_at(k, solvers.stop()) {
            return solver;
        }
        solver.add_clause(c);
    }
    named.known.iter().for_each(|&k| solver.add_clause(&[k]));
    solver
}

/// Whether the run's stop flag is raised, looked at every so many clauses of a loop that loads
/// them into a solver.
fn stopped_at(clause: usize, stop: &crate::solver::Stop) -> bool {
    clause.is_multiple_of(16_384) && stop.is_raised()
}

/// The model of the named rules in which `fixed` (an answer's literals) holds with the
/// givens: read off by propagation (the digits placed decide the digits ruled out), from
/// `solver` ([`holding`]) only where propagation leaves facts open, since the eager
/// connectivity of a large board takes a solver seconds even with every cell fixed. `None`
/// when the rules refuse it; an error naming the time limit when the solver was stopped.
pub fn answer_model<E>(
    named: &Named<E>,
    fixed: &[Lit],
    solver: &mut dyn Solver,
) -> Result<Option<crate::cnf::Model>, SolverError> {
    let everything: Vec<usize> = (0..named.rules.len()).collect();
    let mut reader = Propagator::new(&named.rules, &everything);
    let mut base = named.known.clone();
    base.extend(fixed);
    let read = reader.set_base(&base);
    let values: Option<Vec<Lit>> = named
        .facts
        .iter()
        .map(|f| reader.value(f.lit).map(|v| if v { f.lit } else { !f.lit }))
        .collect();
    match values.filter(|_| read) {
        Some(values) => Ok(Some(crate::cnf::Model::from_lits(
            named.rules.num_vars,
            values,
        ))),
        None => match solver.solve_with(fixed)? {
            SolveResult::Sat => Ok(Some(solver.model())),
            SolveResult::Unsat => Ok(None),
            SolveResult::Interrupted => {
                Err(SolverError(crate::format::verdict::TIME_LIMIT.to_string()))
            }
        },
    }
}

/// The facts the givens leave open, each as `model` has it: what the steps must reach when
/// `model` is the only solution.
pub fn open_facts<E>(named: &Named<E>, model: &crate::cnf::Model) -> Vec<Lit> {
    let given: HashSet<u32> = named.known.iter().map(|l| l.var()).collect();
    named
        .facts
        .iter()
        .filter(|f| !given.contains(&f.lit.var()))
        .map(|f| if model.value(f.lit) { f.lit } else { !f.lit })
        .collect()
}

fn single_step(found: Vec<(Lit, Why)>, rules: Vec<usize>) -> Step {
    let uses = union(found.iter().map(|(_, why)| &why.facts[..]));
    Step {
        rules,
        deduces: found.into_iter().map(|(l, _)| l).collect(),
        uses,
        way: Way::Single,
        minimal: true,
    }
}

/// The most clauses a rule may have to be paired: a rule over the whole board (connectivity)
/// shares a variable with every other, and a copy of it in each pair would take the memory of
/// the board times the rules. Its combinations are left to the chains.
const PAIRED_CLAUSES: usize = 5_000;

/// The most clauses all pairs may hold together. Each pair keeps a copy of its two rules and
/// tries every fact they mention, a propagation each; where many large rules share variables
/// (a rectangle genre's cells, each rule listing the hundreds of rectangles over it) every two
/// of them are a pair: a 10×10 Tatamibari with one `?` took 4 GB and 36 s, and 3 s with the
/// largest pairs left to the chains. Every 9×9 sudoku (at most about 180,000) and every
/// bundled Hitori (at most 333,500) and Heyawake (749,470) keep all their pairs.
const PAIRS_CLAUSES: usize = 800_000;

/// Every two rules that share a variable, both of at most [`PAIRED_CLAUSES`] clauses, the
/// largest pairs left out past [`PAIRS_CLAUSES`] in all.
fn neighbours(rules: &Rules, singles: &Groups) -> Vec<Vec<usize>> {
    let small: Vec<bool> = (0..rules.len())
        .map(|r| rules.clauses_of(r).len() <= PAIRED_CLAUSES)
        .collect();
    let mut pairs: HashSet<(usize, usize)> = HashSet::new();
    for members in singles.touches.values() {
        let members: Vec<usize> = members.iter().copied().filter(|&r| small[r]).collect();
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
    }
    let mut pairs: Vec<(usize, usize)> = pairs.into_iter().collect();
    pairs.sort_unstable();
    let size = |&(a, b): &(usize, usize)| rules.clauses_of(a).len() + rules.clauses_of(b).len();
    // Within the budget, the smallest pairs, in order.
    let mut sizes: Vec<usize> = pairs.iter().map(size).collect();
    sizes.sort_unstable();
    let mut total = 0;
    let most = sizes
        .iter()
        .take_while(|&&s| {
            total += s;
            total <= PAIRS_CLAUSES
        })
        .last()
        .copied()
        .unwrap_or(0);
    pairs
        .into_iter()
        .filter(|p| size(p) <= most)
        .map(|(a, b)| vec![a, b])
        .collect()
}

/// Small sets of rules (each rule alone, or two that share a variable), each with its own
/// propagator and what it last forced: a set is looked at again only when a fact on its
/// variables was established.
struct Groups {
    members: Vec<Vec<usize>>,
    props: Vec<Propagator>,
    dirty: Vec<bool>,
    /// The open facts each group forced when last looked at. Their reasons are found again
    /// for the group chosen only (its propagator still holds the same base): kept for every
    /// group, they took gigabytes where large rules force hundreds of facts each.
    cached: Vec<Vec<Lit>>,
    /// The groups that mention each variable.
    touches: std::collections::HashMap<u32, Vec<usize>>,
    chosen: usize,
}

impl Groups {
    fn new(rules: &Rules, members: Vec<Vec<usize>>) -> Groups {
        let props: Vec<Propagator> = members.iter().map(|m| Propagator::new(rules, m)).collect();
        let mut touches: std::collections::HashMap<u32, Vec<usize>> = Default::default();
        for (g, p) in props.iter().enumerate() {
            for &v in p.vars() {
                touches.entry(v).or_default().push(g);
            }
        }
        Groups {
            dirty: vec![true; members.len()],
            cached: vec![Vec::new(); members.len()],
            members,
            props,
            touches,
            chosen: 0,
        }
    }

    /// The group that forces the most open facts by propagation (the first, in the genre's
    /// order, of those that force as many), with what it forces: so that a house that rules a
    /// digit out of many cells says so once.
    /// `None` too when `stop` is raised (the groups not looked at yet stay to be looked at):
    /// one look over a large board's groups can take minutes.
    fn best(
        &mut self,
        known: &[Lit],
        open: &[Lit],
        stop: &crate::solver::Stop,
    ) -> Option<(usize, Vec<(Lit, Why)>)> {
        let open_set: HashSet<Lit> = open.iter().copied().collect();
        let mut best: Option<usize> = None;
        for g in 0..self.members.len() {
            if stop.is_raised() {
                return None;
            }
            if self.dirty[g] {
                self.dirty[g] = false;
                let p = &mut self.props[g];
                p.set_base(known);
                let mine: Vec<Lit> = open.iter().copied().filter(|&l| p.mentions(l)).collect();
                self.cached[g] = mine.into_iter().filter(|&l| p.forces(l)).collect();
            } else {
                self.cached[g].retain(|l| open_set.contains(l));
            }
            if !self.cached[g].is_empty()
                && best.is_none_or(|b| self.cached[g].len() > self.cached[b].len())
            {
                best = Some(g);
            }
        }
        let g = best?;
        self.chosen = g;
        let p = &mut self.props[g];
        let found = std::mem::take(&mut self.cached[g])
            .into_iter()
            .map(|l| (l, p.refute(l).expect("forced when last looked at")))
            .collect();
        Some((g, found))
    }

    /// The rules of the group [`Groups::best`] chose last.
    fn chosen_rules(&self) -> Vec<usize> {
        self.members[self.chosen].clone()
    }

    /// Marks the groups that mention `lits` to be looked at again.
    fn established(&mut self, lits: &[Lit]) {
        for l in lits {
            for &g in self.touches.get(&l.var()).into_iter().flatten() {
                self.dirty[g] = true;
            }
        }
        self.dirty[self.chosen] = true;
    }
}

/// The smallest set of rules found that forces an open fact by propagation.
fn chain(
    rules: &Rules,
    reuse: bool,
    all: &mut Propagator,
    selectors: &mut Selectors<'_>,
    known: &[Lit],
    open: &[Lit],
) -> Result<Option<Step>, SolverError> {
    let everything: Vec<usize> = (0..rules.len()).collect();
    all.only(&everything);
    all.set_base(known);
    let mut refuted: Vec<(Lit, Why)> = open
        .iter()
        .filter_map(|&l| all.refute(l).map(|why| (l, why)))
        .collect();
    if refuted.is_empty() {
        return Ok(None);
    }
    refuted.sort_by_key(|(_, why)| why.rules.len());
    let mut best: Option<(Lit, Why)> = None;
    for (l, why) in refuted.into_iter().take(PARED) {
        let pared = pare_by_propagation(all, known, l, why);
        if best
            .as_ref()
            .is_none_or(|(_, b)| pared.rules.len() < b.rules.len())
        {
            best = Some((l, pared));
        }
    }
    let (l, why) = best.expect("one was refuted");
    finish(rules, reuse, selectors, known, open, l, why, Way::Chain).map(Some)
}

/// Drops rules from `why` one at a time while propagation (over `all`, its rules switched
/// off in turn) still refutes `¬l`.
fn pare_by_propagation(all: &mut Propagator, known: &[Lit], l: Lit, mut why: Why) -> Why {
    let mut i = 0;
    while i < why.rules.len() && why.rules.len() > 1 {
        let mut fewer = why.rules.clone();
        fewer.remove(i);
        all.only(&fewer);
        all.set_base(known);
        match all.refute(l) {
            // The refutation may use even fewer.
            Some(w) => why = w,
            None => i += 1,
        }
    }
    why
}

/// A step for open facts that only a search refutes: the smallest core among the open facts'.
fn search(
    rules: &Rules,
    reuse: bool,
    selectors: &mut Selectors<'_>,
    known: &[Lit],
    open: &[Lit],
) -> Result<Option<Step>, SolverError> {
    let everything: Vec<usize> = (0..rules.len()).collect();
    let mut best: Option<(Lit, Why)> = None;
    // Each open fact within a budget first (a hard one should not hold up the rest); the
    // first without one if none was refuted in it.
    for &l in open {
        if let Some(Some(why)) =
            selectors.forces_within(&everything, known, l, Some(PARING_BUDGET))?
        {
            if best
                .as_ref()
                .is_none_or(|(_, b)| why.rules.len() < b.rules.len())
            {
                best = Some((l, why));
            }
        }
    }
    if best.is_none() {
        for &l in open {
            if let Some(why) = selectors.forces(&everything, known, l)? {
                best = Some((l, why));
                break;
            }
        }
    }
    let Some((l, why)) = best else {
        return Ok(None);
    };
    finish(rules, reuse, selectors, known, open, l, why, Way::Search).map(Some)
}

/// Pares `why` (which forces `l`) down with the solver until removing any rule breaks it, then
/// gathers the open facts the remaining rules force (a search step's each within
/// [`OTHERS_BUDGET`]). A chain pared below what propagation
/// refutes becomes a search step.
#[allow(clippy::too_many_arguments)]
fn finish(
    rules: &Rules,
    reuse: bool,
    selectors: &mut Selectors<'_>,
    known: &[Lit],
    open: &[Lit],
    l: Lit,
    why: Why,
    way: Way,
) -> Result<Step, SolverError> {
    let mut why = why;
    let mut minimal = true;
    let mut i = 0;
    while i < why.rules.len() && why.rules.len() > 1 {
        let mut fewer = why.rules.clone();
        fewer.remove(i);
        match selectors.forces_within(&fewer, known, l, Some(PARING_BUDGET))? {
            Some(Some(w)) => why = w,
            Some(None) => i += 1,
            // Kept, unproved either way.
            None => {
                minimal = false;
                i += 1;
            }
        }
    }
    let mut p = Propagator::new(rules, &why.rules);
    p.set_base(known);
    let by_propagation = p.refute(l);
    // One rule is read on its own, however it forces (connectivity may need more than
    // propagation within its clauses); several need a search where propagation fails.
    let way = match (&by_propagation, way) {
        _ if why.rules.len() == 1 => Way::Single,
        (Some(_), w) => w,
        (None, _) => Way::Search,
    };
    let mut uses = vec![match by_propagation {
        Some(w) => w.facts,
        None => why.facts.clone(),
    }];
    let mut deduces = vec![l];
    let others: Vec<Lit> = open
        .iter()
        .copied()
        .filter(|&o| o != l && p.mentions(o))
        .collect();
    // A model of the rules, the known facts and a fact's opposite shows every fact false in it
    // unforced too: those are not asked again (the same deductions, fewer solver calls).
    let mut unforced: HashSet<Lit> = HashSet::new();
    for other in others {
        if unforced.contains(&other) {
            continue;
        }
        let forced = match way {
            Way::Search => {
                let answer =
                    selectors.forces_within(&why.rules, known, other, Some(OTHERS_BUDGET))?;
                if let (true, Some(None)) = (reuse, &answer) {
                    let model = selectors.model();
                    unforced.extend(open.iter().copied().filter(|&o| !model.value(o)));
                }
                answer.flatten()
            }
            _ => p.refute(other),
        };
        if let Some(w) = forced {
            deduces.push(other);
            uses.push(w.facts);
        }
    }
    Ok(Step {
        rules: why.rules,
        deduces,
        uses: union(uses.iter().map(|u| &u[..])),
        way,
        minimal,
    })
}

/// The facts of several refutations, each once.
fn union<'a>(facts: impl Iterator<Item = &'a [Lit]>) -> Vec<Lit> {
    let mut all: Vec<Lit> = facts.flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// A solver holding every rule behind a selector, to ask whether some rules and facts force a
/// literal.
/// Built on its first question: most sudokus never ask one.
struct Selectors<'a> {
    rules: &'a Rules,
    solvers: &'a dyn NewSolver,
    solver: Option<Box<dyn Solver>>,
    selector: Vec<Lit>,
    rule_of: std::collections::HashMap<Lit, usize>,
}

impl<'a> Selectors<'a> {
    fn new(rules: &'a Rules, solvers: &'a dyn NewSolver) -> Selectors<'a> {
        Selectors {
            rules,
            solvers,
            solver: None,
            selector: Vec::new(),
            rule_of: Default::default(),
        }
    }

    fn solver(&mut self) -> &mut dyn Solver {
        if self.solver.is_none() {
            let mut solver = self.solvers.new_solver();
            for v in 1..=self.rules.num_vars {
                let got = solver.new_var();
                assert_eq!(got, Lit::positive(v), "a fresh solver numbers from 1");
            }
            self.selector = (0..self.rules.len()).map(|_| solver.new_var()).collect();
            // Cut short as [`holding`] is: a stopped run's calls answer `Interrupted`.
            for (k, (r, clause)) in self.rules.all().enumerate() {
                if stopped_at(k, self.solvers.stop()) {
                    break;
                }
                let mut c = clause.to_vec();
                c.push(!self.selector[r]);
                solver.add_clause(&c);
            }
            self.rule_of = self
                .selector
                .iter()
                .enumerate()
                .map(|(r, &s)| (s, r))
                .collect();
            self.solver = Some(solver);
        }
        &mut **self.solver.as_mut().expect("just built")
    }

    /// The model the last question found (when it was answered "not forced").
    fn model(&self) -> crate::cnf::Model {
        self.solver.as_ref().expect("asked before").model()
    }

    /// Whether `which` rules and the `known` facts force `l`: the rules and facts of the
    /// solver's core if so. A rule whose selector is not assumed is off: the solver is free to
    /// make its selector false.
    fn forces(
        &mut self,
        which: &[usize],
        known: &[Lit],
        l: Lit,
    ) -> Result<Option<Why>, SolverError> {
        match self.forces_within(which, known, l, None)? {
            Some(answer) => Ok(answer),
            None => unreachable!("a call without a budget answers"),
        }
    }

    /// [`Selectors::forces`] within about `budget` conflicts: `None` when the solver gave up.
    /// (A refutation is quick; what takes long is finding that the rules left do not force
    /// `l`, a model of a board's connectivity.)
    fn forces_within(
        &mut self,
        which: &[usize],
        known: &[Lit],
        l: Lit,
        budget: Option<u64>,
    ) -> Result<Option<Option<Why>>, SolverError> {
        self.solver();
        let mut assumptions: Vec<Lit> = which.iter().map(|&r| self.selector[r]).collect();
        assumptions.extend_from_slice(known);
        assumptions.push(!l);
        let solver = self.solver.as_mut().expect("built above");
        let result = match budget {
            None => solver.solve_with(&assumptions)?,
            Some(b) => match solver.solve_limited(&assumptions, b)? {
                Some(r) => r,
                None => return Ok(None),
            },
        };
        Ok(Some(match result {
            SolveResult::Sat => None,
            SolveResult::Interrupted => return Err(SolverError("stopped".into())),
            SolveResult::Unsat => {
                let core = solver.failed_core();
                let mut rules: Vec<usize> = core
                    .iter()
                    .filter_map(|s| self.rule_of.get(s).copied())
                    .collect();
                rules.sort_unstable();
                rules.dedup();
                let known_set: HashSet<Lit> = known.iter().copied().collect();
                let mut facts: Vec<Lit> =
                    core.into_iter().filter(|f| known_set.contains(f)).collect();
                facts.sort_unstable();
                Some(Why { rules, facts })
            }
        }))
    }
}
