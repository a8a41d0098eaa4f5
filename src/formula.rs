//! The formula `encode` writes and `decode` rebuilds: the rules, a `--min-score` bound, and
//! for OPB and WCNF files the score as an objective. Shared by the driver and the cube jobs
//! (`encode --cubes`), which split the very same formula.

use crate::runner;
use anyhow::{anyhow, bail, Result};
use encodings::cnf::objective::Objective;
use encodings::cnf::{Cnf, Limited, MAX_LITERALS};
use encodings::genre::Genre;
use encodings::puzzle::{Puzzle, Task};

/// What `cnf` builds: the clauses, the puzzle's encoding, the comment lines and the
/// objective, if any.
pub type Encoded<P> = (Cnf, <P as Puzzle>::Encoding, Vec<String>, Option<Objective>);

/// The formula `encode` writes (and `decode` rebuilds: the encoder numbers variables the same
/// way every time), with its encoding, comment lines and, when asked for (`objective`, for a
/// scoring puzzle), the score as an objective: the rules first, then the bound, then what the
/// objective counts with.
pub fn cnf<P: Genre>(
    inst: &P::Instance,
    name: &str,
    min_score: Option<&str>,
    objective: bool,
) -> Result<Encoded<P>> {
    runner::fits::<P>(inst).map_err(|e| anyhow!("{name}: {e}"))?;
    let mut cnf = Limited::new(Cnf::new(), MAX_LITERALS);
    let enc = P::encode(inst, &mut cnf);
    let mut comments = P::dimacs_comments(inst, name);
    if let Some(s) = min_score {
        comments.extend(P::min_score(inst, &enc, &mut cnf, s).map_err(|e| anyhow!(e))?);
    }
    let objective = match objective && P::TASK == Task::Maximize {
        true => Some(P::objective(inst, &enc, &mut cnf).map_err(|e| anyhow!(e))?),
        false => None,
    };
    if let Some(e) = cnf.over() {
        bail!("{name}: {e}");
    }
    Ok((cnf.inner, enc, comments, objective))
}
