//! Target sudoku (靶形数独, NOIP 2009 / Luogu P1074): a 9×9 sudoku whose completion maximises
//! `Σ weight(r, c) × digit(r, c)`, with ring weights 6 (outside) to 10 (centre).
//!
//! Read top to bottom: [`parse`] → [`encode`] / [`decode`] → [`check`] → [`render`].

mod check;
mod encode;
mod parse;
mod render;
mod svg;
#[cfg(test)]
mod testing;
pub mod veripb;

pub use check::{check, Violation};
pub use encode::{board, decode, encode, Encoding, SCORE_BASE};
pub use parse::parse;
pub use render::{render, render_line};

use crate::capability;
use crate::cnf::sum::Bound;
use crate::cnf::{ClauseSink, Model};
use crate::format::error::ParseError;
use crate::puzzle::Info;
use crate::puzzle::{Format, Hints, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};

/// Rows of cells; 0 is a blank, 1–9 a digit.
pub type Grid = [[u8; 9]; 9];

/// The ring weight of a cell, 0-based: 6 on the outer ring up to 10 in the centre.
pub fn weight(r: usize, c: usize) -> u32 {
    10 - (r.abs_diff(4).max(c.abs_diff(4))) as u32
}

/// The score by its definition, over all 81 cells (the encoder uses a smaller identity; this
/// is the independent reference the optimiser and the tests trust).
pub fn score(grid: &Grid) -> u32 {
    (0..9)
        .flat_map(|r| (0..9).map(move |c| (r, c)))
        .map(|(r, c)| weight(r, c) * grid[r][c] as u32)
        .sum()
}

/// Target sudoku for the driver: maximise the score, prove it optimal.
pub struct TargetSudoku;

impl Puzzle for TargetSudoku {
    const INFO: Info = Info {
        name: "target-sudoku",
        about: "NOIP 2009 / Luogu P1074: maximise the ring-weighted score",
        formats: &[Format::Judge, Format::Line],
        machine: Format::Line,
        answer_fields: &["score", "grid"],
        variables: "rRcC=D: cell (R, C) holds digit D; score>=N: the score is at least N (score = \
            2766 + sum of (digit - 1) over the corners, the ring around the centre box and the \
            centre)",
        extensions: &["in"],
        blocks_exactly: true,
        ..Info::DEFAULT
    };

    type Instance = Grid;
    type Answer = Grid;
    type Checked = u32;
    type Encoding = Encoding;

    fn parse(text: &str, _: &Settings) -> Result<Grid, ParseError> {
        parse(text)
    }

    fn encode<S: ClauseSink>(givens: &Grid, sink: &mut S) -> Encoding {
        encode(givens, sink)
    }

    fn decode(_: &Grid, enc: &Encoding, model: &Model) -> Grid {
        decode(enc, model)
    }

    fn check(givens: &Grid, grid: &Grid) -> Result<u32, String> {
        check(givens, grid)
            .map(|()| score(grid))
            .map_err(|v| v.to_string())
    }

    /// A grid in any input form, or `solve`'s own drawing (box rules and the score and verdict
    /// lines are passed over; lines keep their numbers for error positions).
    fn read_answer(_: &Grid, text: &str) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        let mut claimed = None;
        let cleaned: Vec<String> = text
            .lines()
            .map(|line| {
                let t = line.trim();
                if let Some(score) = t.strip_prefix("score ") {
                    claimed = Some(score.trim().to_string());
                    String::new()
                } else if t.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
                    line.replace('|', " ")
                } else if t.chars().all(|c| c == '-' || c == '+')
                    || t.starts_with(|c: char| c.is_ascii_alphabetic())
                {
                    String::new() // a box rule, or a verdict line
                } else {
                    line.to_string()
                }
            })
            .collect();
        Ok(Ok(ReadAnswer {
            answer: parse(&cleaned.join("\n"))?,
            complete: true,
            claimed,
        }))
    }

    fn render(_: &Grid, grid: &Grid, score: &u32, format: Format) -> String {
        match format {
            Format::Line => crate::genres::digits::render_line(grid.concat().into_iter(), true),
            _ => format!("{}score {score}\n", render(grid)),
        }
    }

    fn svg(givens: &Grid, answers: &[(&Grid, &u32)], caption: &str) -> String {
        svg::svg(
            givens,
            &answers.iter().map(|a| a.0).collect::<Vec<_>>(),
            caption,
        )
    }

    fn answer_json(_: &Grid, grid: &Grid, score: &u32) -> Map<String, Value> {
        let Value::Object(m) = json!({ "score": score, "grid": grid }) else {
            unreachable!()
        };
        m
    }

    fn block<S: ClauseSink>(_: &Grid, enc: &Encoding, sink: &mut S, grids: &[Grid]) {
        let flat: Vec<Vec<u8>> = grids.iter().map(|g| g.concat()).collect();
        enc.rules.digits.block(sink, &flat);
    }
}

impl capability::Scoring for TargetSudoku {
    type Score = u32;

    fn better_than<S: ClauseSink>(
        _: &Grid,
        enc: &Encoding,
        sink: &mut S,
        score: &u32,
        _: &[Value],
    ) -> Result<(), String> {
        // Exact: the totalizer counts the score itself.
        match enc.min_score(score + 1) {
            Bound::Trivial => {}
            Bound::Impossible => sink.add_clause(&[]),
            Bound::Lit(l) => sink.add_clause(&[l]),
        }
        Ok(())
    }

    fn reaches(score: &u32, bound: &str) -> Option<bool> {
        Some(*score >= bound.trim().parse::<u32>().ok()?)
    }

    fn objective<S: ClauseSink>(
        _: &Grid,
        enc: &Encoding,
        _: &mut S,
    ) -> Result<crate::cnf::objective::Objective, String> {
        // The score itself, weight × digit on every cell's digit literals: linear already.
        let mut terms = Vec::new();
        for (i, cell) in enc.rules.digits.cells().enumerate() {
            terms.extend(
                (1..=9u32)
                    .zip(cell)
                    .filter_map(|(d, l)| l.map(|l| (l, (weight(i / 9, i % 9) * d).into()))),
            );
        }
        Ok(crate::cnf::objective::Objective { terms, notes: vec!["objective: the score itself, the ring weight (6 at the edge to 10 in the centre) times the digit, summed over the cells".into()] })
    }

    fn min_score<S: ClauseSink>(
        _: &Grid,
        enc: &Encoding,
        sink: &mut S,
        bound: &str,
    ) -> Result<Vec<String>, String> {
        let s: u32 = bound
            .trim()
            .parse()
            .map_err(|_| format!("--min-score: {bound:?} is not a non-negative integer score"))?;
        match enc.min_score(s) {
            Bound::Trivial => {}
            Bound::Impossible => sink.add_clause(&[]),
            Bound::Lit(l) => sink.add_clause(&[l]),
        }
        Ok(vec![format!("only completions scoring at least {s}")])
    }
}

impl capability::Urls for TargetSudoku {
    const KINDS: &'static [&'static str] = &["sudoku"];

    /// A plain pzprjs sudoku (9×9): digits 1–9 are givens, `g`–`z` skip 1–20 cells.
    fn from_url(link: &crate::format::url::Link) -> Result<String, ParseError> {
        if (link.cols, link.rows) != (9, 9) {
            return Err(ParseError::new(
                1,
                link.body_at.max(1),
                format!(
                    "target sudoku is 9×9; this sudoku is {}×{}",
                    link.cols, link.rows
                ),
            ));
        }
        let cells = crate::format::url::decode_cells(link, '.', |ch| match ch {
            '1'..='9' => Ok(ch),
            '.' => Err(
                "'.' is a given whose digit is unknown: target sudoku needs every given's digit"
                    .into(),
            ),
            _ => Err(format!(
                "{ch:?} is no given of a 9×9 sudoku (1–9, g–z skip 1–20 cells)"
            )),
        })?;
        Ok(cells
            .chunks(9)
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect())
    }

    fn to_url(grid: &Grid) -> Result<String, String> {
        let cells = grid
            .iter()
            .flatten()
            .map(|&d| (d > 0).then(|| char::from(b'0' + d)));
        Ok(crate::format::url::link(
            "sudoku",
            9,
            9,
            &crate::format::url::encode_cells(cells),
        ))
    }
}

impl capability::Backbone for TargetSudoku {
    /// The digits the same in every completion scoring `found`'s (proved optimal) score, found
    /// from `found`'s by [`crate::search::backbone`]; givens count as decided.
    fn hints(
        givens: &Grid,
        found: &(Grid, u32),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Grid>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = encode(givens, &mut solver);
            match enc.min_score(found.1) {
                Bound::Trivial => {}
                Bound::Impossible => solver.add_clause(&[]),
                Bound::Lit(l) => solver.add_clause(&[l]),
            }
            (solver, enc)
        };
        let (mut solver, enc) = build();
        let spare = || build().0;
        let Some((partial, decided)) =
            enc.rules
                .digits
                .fixed(&mut *solver, &spare, solvers.team(), &found.0.concat())?
        else {
            return Ok(None);
        };
        let hint: Grid = std::array::from_fn(|r| std::array::from_fn(|c| partial[r * 9 + c]));
        Ok(Some(Hints {
            json: json!(hint),
            drawn: render::render(&hint),
            decided,
            of: 81,
            unit: "cells",
            partial: hint,
        }))
    }
}

impl capability::Marks for TargetSudoku {
    /// The grid read as `check` reads it, with the cells its first broken rule names.
    fn svg_broken(givens: &Grid, text: &str, caption: &str) -> String {
        let Ok(Ok(read)) = Self::read_answer(givens, text) else {
            return svg::svg(givens, &[], caption);
        };
        let cells = check(givens, &read.answer)
            .err()
            .map_or(Vec::new(), |v| v.cells(&read.answer));
        svg::broken(givens, &read.answer, &cells, caption)
    }
}

impl capability::Estimate for TargetSudoku {
    fn estimate(_: &Grid, _: u64) -> u64 {
        // The empty grid's formula, the largest there is: under 100,000 literals.
        100_000
    }
}
