//! `generate --grade`: a puzzle at the level asked, for any genre that both generates and
//! explains. Each try makes a series of puzzles around one answer, from the most clues to the
//! fewest ([`Genre::series`]), and grades them with `grade`'s own measure
//! ([`crate::explain::level_of`]): the last puzzle first (the hardest as a rule), then, when it
//! is above the level, a binary search for the last puzzle at or below it, so that the puzzle
//! printed has as few clues as the series allows at that level. Grading stops as soon as the
//! steps pass the level asked, which is all the search needs to know. A try that misses makes
//! way for a new one from another seed, up to the tries allowed or the run's time limit.

use crate::explain::{self, Level};
use crate::genre::Genre;
use crate::puzzle::{answer_lits, GenerateSpec, Made, Series, Settings};
use crate::rng::Rng;
use crate::solver::NewSolver;
use web_time::Instant;

/// A puzzle graded: its grade and level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grade {
    pub number: usize,
    pub level: Level,
    /// The steps stopped once past the cap: the puzzle is at least this hard.
    pub at_least: bool,
}

/// The grade of `text`, a puzzle whose one solution is `answer`, by `grade`'s steps, the
/// steps stopped once their level passes `cap` (a level only rises as steps are added); `None`
/// when the run's stop flag cut the steps short.
pub fn grade<G: Genre>(
    text: &str,
    answer: &G::Answer,
    cap: Level,
    solvers: &dyn NewSolver,
) -> Result<Option<Grade>, String> {
    let inst = G::parse(text, &Settings::default())
        .map_err(|e| format!("internal error: a generated puzzle does not read back: {e}"))?;
    crate::genre::fits_named::<G>(&inst).map_err(|e| e.to_string())?;
    let named = G::named(&inst)
        .ok_or_else(|| format!("{} puzzles are not explained, so not graded", G::INFO.name))?;
    let fixed = answer_lits::<G>(&inst, &named.encoding, named.rules.num_vars, answer);
    let mut solver = explain::holding(&named, solvers);
    if solvers.stop().is_raised() {
        return Ok(None);
    }
    let model = match explain::answer_model(&named, &fixed, &mut *solver) {
        Ok(Some(model)) => model,
        Ok(None) => {
            return Err(format!(
                "internal error: the named rules of {} refuse a generated puzzle's answer",
                G::INFO.name
            ))
        }
        Err(_) if solvers.stop().is_raised() => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let target = explain::open_facts(&named, &model);
    let under = |steps: &[explain::Step]| explain::level_of(steps) <= cap;
    let steps = explain::explain_while(&named, &target, solvers, None, &under)
        .map_err(|e| e.to_string())?;
    if steps.cut_short && solvers.stop().is_raised() {
        return Ok(None);
    }
    // Steps that stop short of the answer mean some fact is not forced: a second solution.
    if !steps.open.is_empty() && !steps.cut_short {
        return Err(format!(
            "internal error: a generated {} puzzle has more than one solution",
            G::INFO.name
        ));
    }
    Ok(Some(Grade {
        number: explain::grade_of(&steps.steps),
        level: explain::level_of(&steps.steps),
        at_least: steps.cut_short,
    }))
}

/// What one try found: the puzzle of its series nearest the level (at it when one is), with
/// its grade; `None` when the stop flag was raised.
fn pick<G: Genre>(
    series: &Series<G::Answer>,
    level: Level,
    solvers: &dyn NewSolver,
) -> Result<Option<(usize, Grade)>, String> {
    let mut graded: Vec<Option<Grade>> = vec![None; series.texts.len()];
    let mut grade_at = |k: usize| -> Result<Option<Grade>, String> {
        if graded[k].is_none() {
            graded[k] = grade::<G>(&series.texts[k], &series.answer, level, solvers)?;
        }
        Ok(graded[k])
    };
    let Some(last) = series.texts.len().checked_sub(1) else {
        return Err(format!(
            "internal error: an empty series of {} puzzles",
            G::INFO.name
        ));
    };
    let Some(hardest) = grade_at(last)? else {
        return Ok(None);
    };
    if hardest.level <= level {
        return Ok(Some((last, hardest)));
    }
    // The last puzzle at or below the level, supposing the levels rise along the series (as
    // they do, mostly, clues being taken away): `above` is above it, `below` not (or is the
    // start, not graded yet).
    let (mut below, mut above) = (0, last);
    while above - below > 1 {
        let mid = (below + above) / 2;
        let Some(g) = grade_at(mid)? else {
            return Ok(None);
        };
        if g.level <= level {
            below = mid;
        } else {
            above = mid;
        }
    }
    let Some(low) = grade_at(below)? else {
        return Ok(None);
    };
    let high = graded[above].expect("graded in the search");
    Ok(Some(
        if low.level.distance(level) <= high.level.distance(level) {
            (below, low)
        } else {
            (above, high)
        },
    ))
}

/// A puzzle at `level`, or after `tries` tries (or the stop flag) the nearest one found with
/// a remark saying so. Try k builds its series from the k-th seed of a generator seeded with
/// `spec.seed`, the first from `spec.seed` itself. `None` when stopped before any puzzle was
/// graded.
pub fn generate<G: Genre>(
    spec: &GenerateSpec,
    level: Level,
    tries: usize,
    solvers: &dyn NewSolver,
    note: &mut dyn FnMut(String),
) -> Result<Option<Made<G::Answer>>, String> {
    if !G::EXPLAINS {
        return Err(format!(
            "{} puzzles are not explained, so not graded",
            G::INFO.name
        ));
    }
    let start = Instant::now();
    let mut seeds = Rng::new(spec.seed);
    let mut nearest: Option<(Made<G::Answer>, Grade)> = None;
    let mut made = 0;
    for k in 0..tries {
        let seed = if k == 0 { spec.seed } else { seeds.next_u64() };
        let spec = GenerateSpec {
            seed,
            unique: true,
            ..*spec
        };
        let Some(series) = G::series(&spec, solvers, note)? else {
            break;
        };
        let Some((at, grade)) = pick::<G>(&series, level, solvers)? else {
            break;
        };
        made += 1;
        note(format!(
            "[{:8.3}s] try {}: {}{} (grade {}), {} of its series of {}",
            start.elapsed().as_secs_f64(),
            k + 1,
            if grade.at_least { "at least " } else { "" },
            grade.level,
            grade.number,
            at + 1,
            series.texts.len()
        ));
        let found = Made {
            text: series.texts[at].clone(),
            answer: series.answer,
            remark: None,
        };
        if grade.level == level {
            return Ok(Some(found));
        }
        if nearest
            .as_ref()
            .is_none_or(|(_, g)| grade.level.distance(level) < g.level.distance(level))
        {
            nearest = Some((found, grade));
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let tried = format!("{made} {}", if made == 1 { "try" } else { "tries" });
    let why = if solvers.stop().is_raised() {
        format!("the time limit passed after {tried} ({seconds:.1} s)")
    } else {
        format!("{tried} ({seconds:.1} s)")
    };
    Ok(nearest.map(|(near, _)| Made {
        remark: Some(format!(
            "no {level} puzzle found: {why}; this is the nearest"
        )),
        ..near
    }))
}
