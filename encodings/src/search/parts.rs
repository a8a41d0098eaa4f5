//! A formula's independent parts, each solved by a solver of its own: a [`Solver`] in front of
//! several. A large board whose probing has decided most of it leaves thousands of small
//! regions that share no variable; one CDCL solver over all of them backjumps across unrelated
//! regions and restarts them all, so its time grows faster than the formula, while solving the
//! parts apart grows with their sum.
//!
//! Clauses are kept until the first call, which splits the variables into connected components
//! (two variables are connected when a clause holds both), packs the components into parts of
//! about [`PART_LITERALS`] literals, and gives each part a solver. A formula that fits one part
//! is one solver, with its variables numbered as given: small puzzles are solved as before.
//! Each call re-asks only the parts whose clauses or assumptions changed; a model is the union
//! of the parts' models.
//!
//! A clause added later that spans parts: the first one (an enumeration's blocking clause,
//! "not this answer") waits outside the parts, and a call whose models break it asks its parts
//! one by one for a model that satisfies their share, so "is there a second solution" is asked
//! region by region. A second one merges the parts of both into one new solver, and from then
//! on that part is searched as one.

use crate::cnf::{ClauseSink, Lit, Model};
use crate::solver::{NewSolver, SolveResult, Solver, SolverError, SolverStats};

/// Components are packed into parts of about this many literals: few enough solvers to set
/// up, none large enough to be slow for its size.
pub const PART_LITERALS: usize = 1 << 18;

/// A solver for a formula that may fall apart: [`Parts`] when `solvers` live in this process,
/// otherwise one of them (an external command would cost a process per part).
pub fn solver<'a>(solvers: &'a dyn NewSolver) -> Box<dyn Solver + 'a> {
    match solvers.in_process() {
        true => Box::new(crate::cnf::Limited::new(
            Parts::new(solvers),
            crate::cnf::MAX_LITERALS,
        )),
        false => solvers.new_solver(),
    }
}

struct Part {
    solver: Box<dyn Solver>,
    /// The global variable of each local one (index 0 unused).
    vars: Vec<u32>,
    /// Indices of its clauses in the store.
    clauses: Vec<usize>,
    /// The assumptions of its last call, and whether it answered SAT since its last clause.
    asked: Option<Vec<Lit>>,
    /// Its last model, by local variable.
    model: Vec<bool>,
}

pub struct Parts<'a> {
    solvers: &'a dyn NewSolver,
    num_vars: u32,
    /// Every clause given, flat: `lits[start[i]..start[i + 1]]`.
    lits: Vec<Lit>,
    start: Vec<usize>,
    /// After the first call: each variable's part and local literal (None: in no clause yet).
    place: Vec<Option<(u32, Lit)>>,
    parts: Vec<Option<Part>>,
    split: bool,
    /// The run's stop was raised while the first call was giving the parts their clauses: they
    /// are incomplete, and every call answers `Interrupted`.
    cut_short: bool,
    calls: u32,
    last: Option<Model>,
    core: Vec<Lit>,
    backend: &'static str,
    part_literals: usize,
    /// A clause across parts kept out of them: some part must satisfy its share.
    pending: Option<usize>,
}

impl<'a> Parts<'a> {
    pub fn new(solvers: &'a dyn NewSolver) -> Parts<'a> {
        Parts::with_part_literals(solvers, PART_LITERALS)
    }

    /// Parts of about `part_literals` literals (the tests make them small).
    pub fn with_part_literals(solvers: &'a dyn NewSolver, part_literals: usize) -> Parts<'a> {
        Parts {
            solvers,
            num_vars: 0,
            lits: Vec::new(),
            start: vec![0],
            place: vec![None],
            parts: Vec::new(),
            split: false,
            cut_short: false,
            calls: 0,
            last: None,
            core: Vec::new(),
            backend: "",
            part_literals,
            pending: None,
        }
    }

    fn clause(&self, i: usize) -> &[Lit] {
        &self.lits[self.start[i]..self.start[i + 1]]
    }

    /// The number of parts (after the first call).
    pub fn count(&self) -> usize {
        self.parts.iter().flatten().count()
    }

    /// How many clauses the parts hold (after the first call).
    pub fn placed_clauses(&self) -> usize {
        self.parts.iter().flatten().map(|p| p.clauses.len()).sum()
    }

    /// Whether the run's stop was raised, checked every so many clauses while the parts are
    /// given theirs: loading a large formula takes seconds, and a time limit must not wait.
    fn stopped_at(&mut self, clause: usize) -> bool {
        if clause.is_multiple_of(16_384) && self.solvers.stop().is_raised() {
            self.cut_short = true;
        }
        self.cut_short
    }

    /// Splits the clauses into parts, each with its own solver (cut short when the run stops).
    fn split(&mut self) {
        self.split = true;
        let n = self.num_vars as usize + 1;
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn find(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                parent[x as usize] = parent[parent[x as usize] as usize];
                x = parent[x as usize];
            }
            x
        }
        for i in 0..self.start.len() - 1 {
            let c = &self.lits[self.start[i]..self.start[i + 1]];
            if let Some(first) = c.first() {
                let a = find(&mut parent, first.var());
                for l in &c[1..] {
                    let b = find(&mut parent, l.var());
                    if a != b {
                        parent[b as usize] = a;
                    }
                }
            }
        }
        // A formula that fits one part stays one solver, its variables numbered as given, so
        // that it is solved exactly as without parts.
        if self.lits.len() + self.start.len() <= self.part_literals {
            let mut part = self.new_part();
            for v in 1..n as u32 {
                let at = part.solver.new_var();
                part.vars.push(v);
                self.place[v as usize] = Some((0, at));
            }
            self.parts.push(Some(part));
            for i in 0..self.start.len() - 1 {
                if self.stopped_at(i) {
                    return;
                }
                self.add_to(0, i);
            }
            return;
        }
        // Literals per component, then components packed in order into parts.
        let mut size = vec![0usize; n];
        for i in 0..self.start.len() - 1 {
            if let Some(first) = self.clause(i).first() {
                let root = find(&mut parent, first.var());
                size[root as usize] += self.clause(i).len().max(1);
            }
        }
        let mut part_of_root = vec![u32::MAX; n];
        let mut filled = 0usize;
        let mut open: Option<u32> = None;
        for v in 1..n as u32 {
            let root = find(&mut parent, v);
            if part_of_root[root as usize] != u32::MAX || size[root as usize] == 0 {
                continue;
            }
            let p = match open {
                Some(p) if filled + size[root as usize] <= self.part_literals => p,
                _ => {
                    filled = 0;
                    let part = self.new_part();
                    self.parts.push(Some(part));
                    (self.parts.len() - 1) as u32
                }
            };
            open = Some(p);
            filled += size[root as usize];
            part_of_root[root as usize] = p;
        }
        for i in 0..self.start.len() - 1 {
            if self.stopped_at(i) {
                return;
            }
            let p = match self.clause(i).first() {
                Some(first) => part_of_root[find(&mut parent, first.var()) as usize],
                None => self.empty_clause_part(),
            };
            self.add_to(p, i);
        }
    }

    fn new_part(&mut self) -> Part {
        let solver = self.solvers.new_solver();
        self.backend = solver.backend();
        Part {
            solver,
            vars: vec![0],
            clauses: Vec::new(),
            asked: None,
            model: Vec::new(),
        }
    }

    /// The part an empty clause goes to: any, it makes the formula unsatisfiable.
    fn empty_clause_part(&mut self) -> u32 {
        if self.parts.iter().all(Option::is_none) {
            let part = self.new_part();
            self.parts.push(Some(part));
        }
        self.parts.iter().position(Option::is_some).expect("a part") as u32
    }

    /// Gives clause `i` to part `p`, placing its unplaced variables there.
    fn add_to(&mut self, p: u32, i: usize) {
        let (from, to) = (self.start[i], self.start[i + 1]);
        let part = self.parts[p as usize].as_mut().expect("a live part");
        let mut local = Vec::with_capacity(to - from);
        for &l in &self.lits[from..to] {
            let v = l.var() as usize;
            let at = match self.place[v] {
                Some((q, at)) => {
                    debug_assert_eq!(q, p);
                    at
                }
                None => {
                    let at = part.solver.new_var();
                    part.vars.push(l.var());
                    self.place[v] = Some((p, at));
                    at
                }
            };
            local.push(if l.is_positive() { at } else { !at });
        }
        part.solver.add_clause(&local);
        part.clauses.push(i);
        part.asked = None;
    }

    /// One part holding the clauses of parts `ps` (at least two).
    fn merge(&mut self, ps: &[u32]) -> u32 {
        let mut clauses = Vec::new();
        for &p in ps {
            let part = self.parts[p as usize].take().expect("a live part");
            for &v in part.vars[1..].iter().filter(|&&v| v != 0) {
                self.place[v as usize] = None;
            }
            clauses.extend(part.clauses);
        }
        clauses.sort_unstable();
        let part = self.new_part();
        self.parts.push(Some(part));
        let p = (self.parts.len() - 1) as u32;
        for i in clauses {
            self.add_to(p, i);
        }
        p
    }
}

impl Parts<'_> {
    /// With every part satisfied under its assumptions: makes the pending clause `j` true too,
    /// by asking its parts in turn for a model that satisfies their share (the others keep
    /// theirs). Unsat when none can.
    fn satisfy(&mut self, j: usize) -> Result<SolveResult, SolverError> {
        let clause: Vec<Lit> = self.clause(j).to_vec();
        let mut share: Vec<(u32, Vec<Lit>)> = Vec::new();
        for l in clause {
            let (p, at) =
                self.place[l.var() as usize].expect("a pending clause's variables are placed");
            let local = if l.is_positive() { at } else { !at };
            match share.iter_mut().find(|(q, _)| *q == p) {
                Some((_, lits)) => lits.push(local),
                None => share.push((p, vec![local])),
            }
        }
        let holds = |part: &Part, l: Lit| part.model[l.var() as usize] == l.is_positive();
        if share.iter().any(|(p, lits)| {
            lits.iter()
                .any(|&l| holds(self.parts[*p as usize].as_ref().expect("a live part"), l))
        }) {
            return Ok(SolveResult::Sat);
        }
        for (p, lits) in share {
            let part = self.parts[p as usize].as_mut().expect("a live part");
            // Guarded, so that later calls may leave it false.
            let act = part.solver.new_var();
            part.vars.push(0);
            let mut guarded = lits;
            guarded.push(!act);
            part.solver.add_clause(&guarded);
            let mut asked = part.asked.clone().expect("answered SAT in this call");
            asked.push(act);
            part.asked = None;
            match part.solver.solve_with(&asked)? {
                SolveResult::Sat => {
                    let model = part.solver.model();
                    part.model = (0..part.vars.len() as u32)
                        .map(|l| l > 0 && model.value(Lit::positive(l)))
                        .collect();
                    asked.pop();
                    part.asked = Some(asked);
                    return Ok(SolveResult::Sat);
                }
                SolveResult::Unsat => {}
                SolveResult::Interrupted => return Ok(SolveResult::Interrupted),
            }
        }
        Ok(SolveResult::Unsat)
    }
}

impl ClauseSink for Parts<'_> {
    fn new_var(&mut self) -> Lit {
        self.num_vars += 1;
        self.place.push(None);
        Lit::positive(self.num_vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len());
        if !self.split || self.cut_short {
            return;
        }
        let i = self.start.len() - 2;
        let mut ps: Vec<u32> = lits
            .iter()
            .filter_map(|l| self.place[l.var() as usize].map(|(p, _)| p))
            .collect();
        ps.sort_unstable();
        ps.dedup();
        let placed = lits.iter().all(|l| self.place[l.var() as usize].is_some());
        // The first clause across parts (an enumeration's blocking clause) waits outside them:
        // the parts stay apart, and a call asks them one by one to satisfy their share.
        if ps.len() > 1 && placed && self.pending.is_none() {
            self.pending = Some(i);
            return;
        }
        let p = match ps.len() {
            0 if lits.is_empty() => self.empty_clause_part(),
            0 => {
                let part = self.new_part();
                self.parts.push(Some(part));
                (self.parts.len() - 1) as u32
            }
            1 => ps[0],
            _ => {
                // A second one: the parts of both become one.
                if let Some(j) = self.pending.take() {
                    ps.extend(
                        self.clause(j)
                            .iter()
                            .filter_map(|l| self.place[l.var() as usize].map(|(p, _)| p)),
                    );
                    ps.sort_unstable();
                    ps.dedup();
                    let p = if ps.len() > 1 { self.merge(&ps) } else { ps[0] };
                    self.add_to(p, j);
                    ps = vec![p];
                }
                if ps.len() > 1 {
                    self.merge(&ps)
                } else {
                    ps[0]
                }
            }
        };
        self.add_to(p, i);
    }
}

impl Solver for Parts<'_> {
    fn backend(&self) -> &'static str {
        self.backend
    }

    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<SolveResult, SolverError> {
        if !self.split {
            self.split();
        }
        if self.cut_short {
            return Ok(SolveResult::Interrupted);
        }
        self.calls += 1;
        self.last = None;
        self.core.clear();
        let mut asked: Vec<Vec<Lit>> = vec![Vec::new(); self.parts.len()];
        // An assumption on a variable in no clause: the model takes it as assumed.
        let mut free = Vec::new();
        for &a in assumptions {
            match self.place[a.var() as usize] {
                Some((p, at)) => asked[p as usize].push(if a.is_positive() { at } else { !at }),
                None => free.push(a),
            }
        }
        for (p, slot) in self.parts.iter_mut().enumerate() {
            let Some(part) = slot else { continue };
            if part.asked.as_ref() == Some(&asked[p]) {
                continue; // answered SAT under these assumptions, nothing added since
            }
            part.asked = None;
            match part.solver.solve_with(&asked[p])? {
                SolveResult::Sat => {
                    let model = part.solver.model();
                    part.model = (0..part.vars.len() as u32)
                        .map(|l| l > 0 && model.value(Lit::positive(l)))
                        .collect();
                    part.asked = Some(std::mem::take(&mut asked[p]));
                }
                SolveResult::Unsat => {
                    self.core = part
                        .solver
                        .failed_core()
                        .iter()
                        .map(|l| {
                            let g = Lit::positive(part.vars[l.var() as usize]);
                            if l.is_positive() {
                                g
                            } else {
                                !g
                            }
                        })
                        .collect();
                    return Ok(SolveResult::Unsat);
                }
                SolveResult::Interrupted => return Ok(SolveResult::Interrupted),
            }
        }
        if let Some(j) = self.pending {
            match self.satisfy(j)? {
                SolveResult::Sat => {}
                SolveResult::Unsat => {
                    self.core = assumptions.to_vec(); // all of them: always a core
                    return Ok(SolveResult::Unsat);
                }
                SolveResult::Interrupted => return Ok(SolveResult::Interrupted),
            }
        }
        let mut lits: Vec<Lit> = free;
        for part in self.parts.iter().flatten() {
            // Variable 0 marks a part's own guards.
            for (local, &v) in part
                .vars
                .iter()
                .enumerate()
                .skip(1)
                .filter(|&(_, &v)| v != 0)
            {
                let g = Lit::positive(v);
                lits.push(if part.model[local] { g } else { !g });
            }
        }
        self.last = Some(Model::from_lits(self.num_vars, lits));
        Ok(SolveResult::Sat)
    }

    fn model(&self) -> Model {
        self.last.clone().expect("a model after a SAT answer")
    }

    fn failed_core(&self) -> Vec<Lit> {
        self.core.clone()
    }

    fn stats(&self) -> SolverStats {
        let mut stats = SolverStats {
            calls: self.calls,
            vars: self.num_vars,
            clauses: (self.start.len() - 1) as u64,
            conflicts: Some(0),
            decisions: Some(0),
        };
        for part in self.parts.iter().flatten() {
            let s = part.solver.stats();
            stats.conflicts = stats.conflicts.zip(s.conflicts).map(|(a, b)| a + b);
            stats.decisions = stats.decisions.zip(s.decisions).map(|(a, b)| a + b);
        }
        stats
    }

    fn interruptible(&self) -> bool {
        self.parts
            .iter()
            .flatten()
            .all(|p| p.solver.interruptible())
    }
}
