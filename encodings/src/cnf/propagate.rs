//! Unit propagation alone on a formula in memory: what a puzzle's rules decide without any
//! search or guess, the measure of how easy a generated puzzle is (`generate` reports it).

use crate::cnf::{Cnf, Lit};

/// Each variable's value forced by unit propagation from no assignment (`None`: not forced),
/// indexed by variable (index 0 unused); `None` when propagation alone meets a conflict.
/// Two watched literals per clause, so the cost is about the formula's size. Takes the
/// formula, whose clauses it reorders in place, rather than a second copy of a large one.
pub fn units(cnf: Cnf) -> Option<Vec<Option<bool>>> {
    let n = cnf.num_vars as usize + 1;
    let mut value: Vec<Option<bool>> = vec![None; n];
    let index = |l: Lit| 2 * l.var() as usize + usize::from(!l.is_positive());
    // watches[index(l)]: clauses watching l, visited when l becomes false.
    let mut watches: Vec<Vec<usize>> = vec![Vec::new(); 2 * n];
    let mut clauses = cnf.clauses;
    let mut queue: Vec<Lit> = Vec::new();
    let val =
        |value: &[Option<bool>], l: Lit| value[l.var() as usize].map(|v| v == l.is_positive());
    for (ci, clause) in clauses.iter().enumerate() {
        match clause.len() {
            0 => return None,
            1 => queue.push(clause[0]),
            _ => {
                watches[index(clause[0])].push(ci);
                watches[index(clause[1])].push(ci);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let l = queue[head];
        head += 1;
        match val(&value, l) {
            Some(true) => continue,
            Some(false) => return None,
            None => value[l.var() as usize] = Some(l.is_positive()),
        }
        // Clauses watching ¬l lost that watch.
        let falsified = !l;
        let watching = std::mem::take(&mut watches[index(falsified)]);
        let mut keep = Vec::with_capacity(watching.len());
        for (k, &ci) in watching.iter().enumerate() {
            let c = &mut clauses[ci];
            if c[0] == falsified {
                c.swap(0, 1);
            }
            // c[1] is the falsified watch; c[0] the other.
            if val(&value, c[0]) == Some(true) {
                keep.push(ci);
                continue;
            }
            if let Some(j) = (2..c.len()).find(|&j| val(&value, c[j]) != Some(false)) {
                c.swap(1, j);
                watches[index(c[1])].push(ci);
                continue;
            }
            keep.push(ci);
            match val(&value, c[0]) {
                Some(false) => {
                    keep.extend_from_slice(&watching[k + 1..]);
                    watches[index(falsified)] = keep;
                    return None;
                }
                None => queue.push(c[0]),
                Some(true) => {}
            }
        }
        watches[index(falsified)] = keep;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::ClauseSink;

    /// Naive propagation: every clause scanned until nothing changes.
    fn naive(cnf: &Cnf) -> Option<Vec<Option<bool>>> {
        let mut value = vec![None; cnf.num_vars as usize + 1];
        loop {
            let mut changed = false;
            for c in &cnf.clauses {
                let open: Vec<Lit> = c
                    .iter()
                    .copied()
                    .filter(|l| value[l.var() as usize].is_none())
                    .collect();
                if c.iter()
                    .any(|l| value[l.var() as usize] == Some(l.is_positive()))
                {
                    continue;
                }
                match open[..] {
                    [] => return None,
                    [l] => {
                        value[l.var() as usize] = Some(l.is_positive());
                        changed = true;
                    }
                    _ => {}
                }
            }
            if !changed {
                return Some(value);
            }
        }
    }

    #[test]
    fn matches_naive_propagation_on_random_formulas() {
        let mut rng = crate::rng::Rng::new(5);
        for round in 0..2000 {
            let mut cnf = Cnf::new();
            let vars: Vec<Lit> = (0..2 + rng.below(10)).map(|_| cnf.new_var()).collect();
            for _ in 0..rng.below(25) {
                let len = 1 + rng.below(if round % 2 == 0 { 3 } else { 5 });
                let c: Vec<Lit> = (0..len)
                    .map(|_| {
                        let v = vars[rng.below(vars.len())];
                        if rng.below(2) == 0 {
                            v
                        } else {
                            !v
                        }
                    })
                    .collect();
                cnf.add_clause(&c);
            }
            assert_eq!(units(cnf.clone()), naive(&cnf), "{:?}", cnf.clauses);
        }
    }

    #[test]
    fn a_chain_propagates_and_a_clash_is_a_conflict() {
        let mut cnf = Cnf::new();
        let x: Vec<Lit> = (0..4).map(|_| cnf.new_var()).collect();
        cnf.add_clause(&[x[0]]);
        cnf.add_clause(&[!x[0], x[1]]);
        cnf.add_clause(&[!x[1], !x[2]]);
        let v = units(cnf.clone()).unwrap();
        assert_eq!(&v[1..], &[Some(true), Some(true), Some(false), None]);
        cnf.add_clause(&[x[2], !x[1]]);
        assert_eq!(units(cnf), None);
    }
}
