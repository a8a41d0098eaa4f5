//! What only some genres have, one trait each. A genre implements the ones it has and its row
//! in [`crate::genres`] names them; the driver sees them through [`crate::genre::Genre`], which
//! answers "not for this genre" for the rest, and the command line refuses those by name
//! before any work.

use crate::cnf::{ClauseSink, Lit};
use crate::format::error::ParseError;
use crate::genre::{Genre, OwnDrats};
use crate::puzzle::{Ended, GenerateSpec, Goal, Hints, Made, Observer, Puzzle, Series};
use crate::solver::{NewSolver, SolverError};
use serde_json::{Map, Value};
use std::fmt;

/// A score to maximise: bound tightening, `--min-score`, OPB and WCNF objectives, optimality
/// certificates.
pub trait Scoring: Puzzle {
    /// Compared exactly (integers or exact fractions, never floating point).
    type Score: Ord + Clone + fmt::Display + Send + 'static + From<Self::Checked>;

    fn score(checked: &Self::Checked) -> Self::Score {
        Self::Score::from(checked.clone())
    }

    /// A score's approximate value, only for showing how far a proved upper bound is above the
    /// best found (never for comparing scores); `None` for genres whose searches prove no
    /// upper bounds.
    fn score_value(_score: &Self::Score) -> Option<f64> {
        None
    }

    /// `check`'s report on a valid answer; `completed` when the solver chose its open parts.
    fn describe_valid(
        _inst: &Self::Instance,
        _answer: &Self::Answer,
        checked: &Self::Checked,
        _completed: bool,
    ) -> String {
        format!("valid, score {}\n", Self::score(checked))
    }

    /// Fields about the instance in JSON output (e.g. Kakkuro's mode).
    fn instance_json(_inst: &Self::Instance) -> Map<String, Value> {
        Map::new()
    }

    /// `c` lines heading the DIMACS file.
    fn dimacs_comments(_inst: &Self::Instance, name: &str) -> Vec<String> {
        crate::genre::plain_comments(&Self::INFO, name)
    }

    /// Adds "the score is at least `bound`" (for `encode --min-score`) and returns comment
    /// lines saying so.
    fn min_score<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
        _bound: &str,
    ) -> Result<Vec<String>, String> {
        Err(format!("{} takes no --min-score", Self::INFO.name))
    }

    /// The score as a linear objective over [`Puzzle::encode`]'s literals, for OPB and WCNF
    /// files, adding to `sink` whatever it counts with (after the rules, so that the rules'
    /// variables keep their numbers). Its notes say how its value maps back to the score.
    fn objective<S: ClauseSink>(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _sink: &mut S,
    ) -> Result<crate::cnf::objective::Objective, String> {
        Err(format!("{} has no linear objective", Self::INFO.name))
    }

    /// Clauses that keep every answer scoring strictly more than `score`, for a certificate of
    /// optimality: they may keep some that do not (the certificate then blocks those one by
    /// one, each listed with its exact score) but must never cut one that does.
    fn better_than<S: ClauseSink>(
        inst: &Self::Instance,
        enc: &Self::Encoding,
        sink: &mut S,
        score: &Self::Score,
        lemmas: &[Value],
    ) -> Result<(), String>;

    /// Whether a valid answer's score reaches `bound` (as given to `--min-score`), compared
    /// exactly; `None` when `bound` is no score.
    fn reaches(_checked: &Self::Checked, _bound: &str) -> Option<bool> {
        None
    }
}

/// Facts an optimality certificate proves first, each on its own, so that
/// [`Scoring::better_than`] can be stated against them (Kakkuro: each red dot's largest factor,
/// which shrinks its bound many times over). Described in JSON for the claim.
pub trait Lemmas: Scoring {
    /// The lemmas of an instance, proved with solvers from `solvers`.
    fn lemmas(inst: &Self::Instance, solvers: &dyn NewSolver) -> Result<Vec<Value>, SolverError>;

    /// A lemma's clauses, or with `negated` the clauses saying it fails, whose refutation
    /// together with the rules proves it.
    fn lemma_clauses(
        inst: &Self::Instance,
        enc: &Self::Encoding,
        sink: &mut dyn ClauseSink,
        lemma: &Value,
        negated: bool,
    ) -> Result<(), String>;
}

/// puzz.link URLs in and out.
pub trait Urls: Puzzle {
    /// The pzprjs names of the URLs this genre reads; a URL given without a genre's name goes
    /// to the first genre in the registry that lists its kind.
    const KINDS: &'static [&'static str];

    /// The puzzle file for a URL already split ([`crate::format::url::split`]), whose kind is one
    /// of [`Self::KINDS`]; `Err` (the column in the URL) for a body that holds no such puzzle.
    fn from_url(link: &crate::format::url::Link) -> Result<String, ParseError>;

    /// The URL of a puzzle, or why it has none.
    fn to_url(inst: &Self::Instance) -> Result<String, String>;
}

/// `solve --hints`: what every answer has in common.
pub trait Backbone: Puzzle {
    /// What every answer (for a scoring genre, every answer with `found`'s score, which must be
    /// proved optimal) has in common, `found` being one of them. `None` when the run's stop
    /// flag ended the work first.
    fn hints(
        inst: &Self::Instance,
        found: &(Self::Answer, Self::Checked),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Self::Answer>>, SolverError>;
}

/// `explain` and `grade`: the rules as named instances over the facts a person sees
/// ([`crate::explain`]).
pub trait Explain: Puzzle {
    /// The rules, each instance begun with [`crate::explain::Rules::rule`] and named as a
    /// person would ("row 3 holds each digit once"), and the facts: variables of the rules
    /// that [`Puzzle::decode`] reads through the encoding returned with them, so that facts
    /// decided are an answer decided.
    fn named(inst: &Self::Instance) -> crate::explain::Named<Self::Encoding>;

    /// About how many literals [`Self::named`]'s rules hold (at least as many, within a small
    /// factor), counted without building them and no further than just past `limit`: `explain`
    /// refuses a puzzle past [`crate::genre::NAMED_LITERALS`] before building anything. `None`:
    /// about as many as the formula's [`crate::genre::Genre::estimate`].
    fn estimate_named(_inst: &Self::Instance, _limit: u64) -> Option<u64> {
        None
    }

    /// The board with what `known` establishes (the rest left open), as text.
    fn draw_known(
        inst: &Self::Instance,
        named: &crate::explain::Named<Self::Encoding>,
        known: &[Lit],
    ) -> String;

    /// One step's picture: the board as `known` leaves it, the cells of `rules` (the step's
    /// rules) tinted and `deduced` (the cells of its deductions) outlined, over `caption`.
    fn svg_step(
        inst: &Self::Instance,
        named: &crate::explain::Named<Self::Encoding>,
        known: &[Lit],
        rules: &[usize],
        deduced: &[usize],
        caption: &str,
    ) -> String;
}

/// Answers that leave parts to the solver (Kakkuro's bare contest string leaves the sides),
/// completed by `check` and certificates.
pub trait Complete: Puzzle {
    /// What [`Self::fix`] keeps, as a verdict names the restriction: "optimum S among {this}".
    const SCOPE: &'static str;
    /// `check`'s verdict when no completion is valid.
    const NONE: &'static str;

    /// The instance restricted to completions of the incomplete answer.
    fn fix(inst: &Self::Instance, answer: &Self::Answer) -> Self::Instance;

    /// Whether an answer (of the fixed instance) is a completion of the incomplete one.
    fn completes(fixed: &Self::Answer, answer: &Self::Answer) -> bool;
}

/// Pseudo-Boolean (VeriPB) certificates of claims without a score (no solution, unique, a
/// count), against the puzzle's own problem stated from the instance as the rules read, in
/// which the CNF encoding is derived by the proof instead of trusted. Without it those claims
/// state `final.cnf` as their problem (a second check of it).
pub trait PbClaims: Genre {
    /// The problem as an OPB file, from the instance and the answers a claim blocks (a unique
    /// or counted solution): the rules, "none of these answers", and for a scoring puzzle minus
    /// the score as the `min:` objective.
    fn problem(inst: &Self::Instance, blocked: &[Self::Answer]) -> String;

    /// The proof that [`Self::problem`] with these answers blocked is infeasible, from a DRAT
    /// proof that the certificate's `final.cnf` for the claim is unsatisfiable, its derived
    /// units first. Its conclusion is `BOUNDS INF INF` for a scoring puzzle (the problem has an
    /// objective), `UNSAT` otherwise.
    fn refutation(
        inst: &Self::Instance,
        blocked: &[Self::Answer],
        drat: &str,
    ) -> Result<String, String>;
}

/// VeriPB proofs of an optimum from the DRAT proof of `final.cnf` (with no lemmas, units or
/// blocked answers), against [`PbClaims::problem`].
pub trait PbOptimum: PbClaims {
    /// The proof that `best`, scoring `score`, is optimal.
    fn optimum_proof(
        inst: &Self::Instance,
        best: &Self::Answer,
        score: &Self::Score,
        drat: &str,
    ) -> Result<String, String>;

    /// The objective value a score has in the problem.
    fn objective_value(score: &Self::Score) -> String;
}

/// VeriPB proofs of an optimum from the DRAT refutation of a formula of the proof's own.
pub trait PbOwnOptimum: Genre {
    /// The formula, with the encoding to read its models: an answer it lets through, which
    /// must score no more than `best`, is listed and the formula built again.
    fn own_formula(
        inst: &Self::Instance,
        best: &Self::Answer,
        lemmas: &[Value],
        listed: &[Self::Answer],
    ) -> Result<(crate::cnf::Cnf, Self::Encoding), String>;

    /// The problem, the proof and the verdict line `veripb` must print.
    fn own_proof(
        inst: &Self::Instance,
        best: &Self::Answer,
        lemmas: &[Value],
        listed: &[Self::Answer],
        drats: &OwnDrats,
    ) -> Result<(String, String, String), String>;
}

/// A search of the genre's own instead of the generic one its task names.
pub trait Searches: Puzzle {
    /// Solves `inst` with solvers from `solvers`, reporting every answer to `out`.
    fn search(
        inst: &Self::Instance,
        goal: Goal,
        solvers: &dyn NewSolver,
        out: &mut dyn Observer<Self>,
    ) -> Result<Ended, SolverError>;
}

/// An encoder that first drops what it found impossible (Tatamibari's pruning and probing):
/// certificates state the plain rules and prove what was dropped.
pub trait Prunes: Puzzle {
    /// The rules as a certificate states them, with nothing pruned.
    fn plain_encode<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding;

    /// Unit clauses over [`Self::plain_encode`]'s variables, each following from the plain
    /// rules and the units before it by unit propagation alone (a RUP lemma): a certificate
    /// hands them to its proving solver and writes them as its proof's first lines.
    fn derived_units(inst: &Self::Instance, enc: &Self::Encoding) -> Vec<Lit>;
}

/// Global rules (connectivity) left out of a search's first formula and added as cuts when a
/// model breaks them: a solver then never reasons about a whole spanning tree, only about the
/// few clauses the search needed. [`Puzzle::encode`] keeps the whole rules, for files and
/// certificates.
pub trait Cuts: Puzzle {
    /// The rules without those [`Self::cuts`] stands for: the searches' formula.
    fn encode_lazy<S: ClauseSink>(inst: &Self::Instance, sink: &mut S) -> Self::Encoding;

    /// Clauses that `answer` (decoded from a model of [`Self::encode_lazy`]'s formula and the
    /// cuts so far) breaks and every valid answer keeps; none when the left-out rules hold.
    fn cuts(inst: &Self::Instance, enc: &Self::Encoding, answer: &Self::Answer) -> Vec<Vec<Lit>>;

    /// An answer made from `answer`, which broke cuts, where one is near (the searches then
    /// take it instead of asking again, once the validator accepts it); `None` by default.
    fn repair(
        _inst: &Self::Instance,
        _enc: &Self::Encoding,
        _answer: &Self::Answer,
    ) -> Option<Self::Answer> {
        None
    }

    /// How many literals [`Self::encode_lazy`]'s formula holds, where counting it is cheap
    /// whatever the board (it grows linearly): the searches are then refused by their own
    /// formula's size, not by the whole rules' spanning forests. `None`: judged by the whole
    /// rules' [`Estimate`].
    fn estimate_lazy(_inst: &Self::Instance) -> Option<u64> {
        None
    }
}

/// `check --format svg` of an answer that breaks a rule, the broken rule marked.
pub trait Marks: Puzzle {
    /// The answer (`text`, as `check` read it) as far as it can be drawn, with the cells the
    /// first broken rule names outlined, and no score.
    fn svg_broken(inst: &Self::Instance, text: &str, caption: &str) -> String;
}

/// A cheap size estimate, for genres whose files can ask for huge formulas.
pub trait Estimate: Puzzle {
    /// About how many literals the formula of `inst` holds, counted no further than just past
    /// `limit` and without building anything: the driver refuses an instance past
    /// [`crate::cnf::MAX_LITERALS`] before encoding it.
    fn estimate(inst: &Self::Instance, limit: u64) -> u64;
}

/// `generate`: random puzzles of this genre.
pub trait Generate: Puzzle {
    /// What [`Self::difficulty`] counts ("rectangles").
    const PARTS: &'static str;
    /// The board's rows and columns when `--size` is not given; `None`: it must be.
    const SIZE: Option<(usize, usize)> = None;
    /// Every puzzle it makes has one solution (checked with the solver), `--unique` or not.
    const UNIQUE: bool = false;

    /// A random puzzle file as `spec` asks (unique when asked, checked with solvers from
    /// `solvers`) with the answer it was made around, which the driver re-checks with the
    /// validator before printing the puzzle (a uniqueness check only rules out *other*
    /// answers); `None` when the run's stop flag ended the work first.
    fn generate(
        spec: &GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Made<Self::Answer>>, String>;

    /// Puzzles of one answer from the most clues to the fewest, each unique, for `generate
    /// --grade` ([`crate::graded`]); by default the one puzzle [`Self::generate`] makes unique.
    /// `None` when the run's stop flag ended the work first.
    fn series(
        spec: &GenerateSpec,
        solvers: &dyn NewSolver,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Series<Self::Answer>>, String> {
        let spec = GenerateSpec {
            unique: true,
            ..*spec
        };
        Ok(Self::generate(&spec, solvers, note)?.map(|made| Series {
            texts: vec![made.text],
            answer: made.answer,
        }))
    }

    /// How easy a puzzle is: how many parts of the answer unit propagation on the rules
    /// decides with no search, of how many; `None` where the genre has no such measure, or
    /// propagation alone finds the rules contradictory.
    fn difficulty(_inst: &Self::Instance) -> Option<(usize, usize)> {
        None
    }
}

/// Whether a type implements each capability, for the test [`crate::declare!`] writes: called
/// on a `&Probe<T>`, a method is found on `Probe<T>` when `T` implements the capability, else
/// (one more reference away) on `&Probe<T>`, which says no.
#[doc(hidden)]
pub mod probe {
    use std::marker::PhantomData;

    pub struct Probe<T>(PhantomData<T>);

    impl<T> Probe<T> {
        pub fn new() -> Probe<T> {
            Probe(PhantomData)
        }
    }

    impl<T> Default for Probe<T> {
        fn default() -> Probe<T> {
            Probe::new()
        }
    }

    macro_rules! probes {
        ($($cap:ident $yes:ident $no:ident $method:ident;)*) => {$(
            pub trait $yes {
                fn $method(&self) -> bool {
                    true
                }
            }
            impl<T: super::$cap> $yes for Probe<T> {}
            pub trait $no {
                fn $method(&self) -> bool {
                    false
                }
            }
            impl<T> $no for &Probe<T> {}
        )*};
    }

    probes! {
        Scoring HasScoring NoScoring scoring;
        Urls HasUrls NoUrls urls;
        Backbone HasBackbone NoBackbone backbone;
        Lemmas HasLemmas NoLemmas lemmas;
        Complete HasComplete NoComplete complete;
        PbClaims HasPbClaims NoPbClaims pb_claims;
        PbOptimum HasPbOptimum NoPbOptimum pb_optimum;
        PbOwnOptimum HasPbOwnOptimum NoPbOwnOptimum pb_own_optimum;
        Searches HasSearches NoSearches searches;
        Cuts HasCuts NoCuts cuts;
        Prunes HasPrunes NoPrunes prunes;
        Marks HasMarks NoMarks marks;
        Estimate HasEstimate NoEstimate estimate;
        Generate HasGenerate NoGenerate generate;
        Explain HasExplain NoExplain explain;
    }
}

/// `impl Genre` for each row of [`crate::genres`]: the capabilities named forwarded, the
/// rest left to the defaults. A scoring genre names `Scoring` first.
#[macro_export]
#[doc(hidden)]
macro_rules! declare {
    ($($genre:ty: $($cap:ident)*;)*) => {
        $( $crate::declare!(@genre $genre: $($cap)*); )*
        /// Each row names exactly the capabilities its type implements: one left out would
        /// silently fall back to "not for this genre".
        #[cfg(test)]
        #[test]
        fn rows_name_what_their_types_implement() {
            $( $crate::declare!(@probe $genre: $($cap)*); )*
        }
    };
    (@probe $genre:ty: $($cap:ident)*) => {{
        #[allow(unused_imports)]
        use $crate::capability::probe::*;
        let named: &[&str] = &[$(stringify!($cap)),*];
        let probe = &Probe::<$genre>::new();
        let has = [
            ("Scoring", probe.scoring()),
            ("Urls", probe.urls()),
            ("Backbone", probe.backbone()),
            ("Lemmas", probe.lemmas()),
            ("Complete", probe.complete()),
            ("PbClaims", probe.pb_claims()),
            ("PbOptimum", probe.pb_optimum()),
            ("PbOwnOptimum", probe.pb_own_optimum()),
            ("Searches", probe.searches()),
            ("Cuts", probe.cuts()),
            ("Prunes", probe.prunes()),
            ("Marks", probe.marks()),
            ("Estimate", probe.estimate()),
            ("Generate", probe.generate()),
            ("Explain", probe.explain()),
        ];
        for (cap, implemented) in has {
            assert_eq!(
                implemented,
                named.contains(&cap),
                "{}: implements {cap}: {implemented}; its row names it: {}",
                stringify!($genre),
                named.contains(&cap)
            );
        }
    }};
    (@genre $genre:ty: Scoring $($cap:ident)*) => {
        impl $crate::genre::Genre for $genre {
            type Score = <$genre as $crate::capability::Scoring>::Score;
            $crate::declare!(@items Scoring $($cap)*);
        }
    };
    (@genre $genre:ty: $($cap:ident)*) => {
        impl $crate::genre::Genre for $genre {
            type Score = $crate::puzzle::NoScore;
            fn score(_: &Self::Checked) -> $crate::puzzle::NoScore {
                $crate::puzzle::NoScore
            }
            $( $crate::declare!(@unscored $cap); )*
        }
    };
    (@unscored Scoring) => {
        compile_error!("a row names Scoring first: its score type comes before the rest");
    };
    (@unscored $cap:ident) => {
        $crate::declare!(@item $cap);
    };
    (@items $($cap:ident)*) => {
        $( $crate::declare!(@item $cap); )*
    };
    (@item Scoring) => {
        const TASK: $crate::puzzle::Task = $crate::puzzle::Task::Maximize;
        fn score(checked: &Self::Checked) -> Self::Score {
            <Self as $crate::capability::Scoring>::score(checked)
        }
        fn score_value(score: &Self::Score) -> Option<f64> {
            <Self as $crate::capability::Scoring>::score_value(score)
        }
        fn describe_valid(
            inst: &Self::Instance,
            answer: &Self::Answer,
            checked: &Self::Checked,
            completed: bool,
        ) -> String {
            <Self as $crate::capability::Scoring>::describe_valid(inst, answer, checked, completed)
        }
        fn instance_json(inst: &Self::Instance) -> serde_json::Map<String, serde_json::Value> {
            <Self as $crate::capability::Scoring>::instance_json(inst)
        }
        fn dimacs_comments(inst: &Self::Instance, name: &str) -> Vec<String> {
            <Self as $crate::capability::Scoring>::dimacs_comments(inst, name)
        }
        fn min_score<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
            bound: &str,
        ) -> Result<Vec<String>, String> {
            <Self as $crate::capability::Scoring>::min_score(inst, enc, sink, bound)
        }
        fn objective<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
        ) -> Result<$crate::cnf::objective::Objective, String> {
            <Self as $crate::capability::Scoring>::objective(inst, enc, sink)
        }
        fn better_than<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            sink: &mut S,
            score: &Self::Score,
            lemmas: &[serde_json::Value],
        ) -> Result<(), String> {
            <Self as $crate::capability::Scoring>::better_than(inst, enc, sink, score, lemmas)
        }
        fn reaches(checked: &Self::Checked, bound: &str) -> Option<bool> {
            <Self as $crate::capability::Scoring>::reaches(checked, bound)
        }
    };
    (@item Urls) => {
        const URL_KINDS: &'static [&'static str] = <Self as $crate::capability::Urls>::KINDS;
        fn from_url(link: &$crate::format::url::Link) -> Result<String, $crate::format::error::ParseError> {
            <Self as $crate::capability::Urls>::from_url(link)
        }
        fn to_url(inst: &Self::Instance) -> Result<String, String> {
            <Self as $crate::capability::Urls>::to_url(inst)
        }
    };
    (@item Explain) => {
        const EXPLAINS: bool = true;
        fn named(inst: &Self::Instance) -> Option<$crate::explain::Named<Self::Encoding>> {
            Some(<Self as $crate::capability::Explain>::named(inst))
        }
        fn estimate_named(inst: &Self::Instance, limit: u64) -> u64 {
            <Self as $crate::capability::Explain>::estimate_named(inst, limit)
                .unwrap_or_else(|| <Self as $crate::genre::Genre>::estimate(inst, limit))
        }
        fn draw_known(
            inst: &Self::Instance,
            named: &$crate::explain::Named<Self::Encoding>,
            known: &[$crate::cnf::Lit],
        ) -> String {
            <Self as $crate::capability::Explain>::draw_known(inst, named, known)
        }
        fn svg_step(
            inst: &Self::Instance,
            named: &$crate::explain::Named<Self::Encoding>,
            known: &[$crate::cnf::Lit],
            rules: &[usize],
            deduced: &[usize],
            caption: &str,
        ) -> String {
            <Self as $crate::capability::Explain>::svg_step(inst, named, known, rules, deduced, caption)
        }
    };
    (@item Backbone) => {
        const HINTS: bool = true;
        fn hints(
            inst: &Self::Instance,
            found: &(Self::Answer, Self::Checked),
            solvers: &dyn $crate::solver::NewSolver,
        ) -> Result<Option<$crate::puzzle::Hints<Self::Answer>>, $crate::solver::SolverError> {
            <Self as $crate::capability::Backbone>::hints(inst, found, solvers)
        }
    };
    (@item Lemmas) => {
        const LEMMAS: Option<$crate::genre::Lemmas<Self>> = Some($crate::genre::Lemmas {
            find: <Self as $crate::capability::Lemmas>::lemmas,
            clauses: <Self as $crate::capability::Lemmas>::lemma_clauses,
        });
    };
    (@item Complete) => {
        const COMPLETION: Option<$crate::genre::Completion<Self>> =
            Some($crate::genre::Completion {
                fix: <Self as $crate::capability::Complete>::fix,
                completes: <Self as $crate::capability::Complete>::completes,
                scope: <Self as $crate::capability::Complete>::SCOPE,
                none: <Self as $crate::capability::Complete>::NONE,
            });
    };
    (@item PbClaims) => {
        const PB_CLAIMS: Option<$crate::genre::OwnProblem<Self>> =
            Some($crate::genre::OwnProblem {
                problem: <Self as $crate::capability::PbClaims>::problem,
                refutation: <Self as $crate::capability::PbClaims>::refutation,
            });
    };
    (@item PbOptimum) => {
        const PB_OPTIMUM: Option<$crate::genre::Optimum<Self>> =
            Some($crate::genre::Optimum::FromFinal {
                proof: <Self as $crate::capability::PbOptimum>::optimum_proof,
                objective: <Self as $crate::capability::PbOptimum>::objective_value,
            });
    };
    (@item PbOwnOptimum) => {
        const PB_OPTIMUM: Option<$crate::genre::Optimum<Self>> =
            Some($crate::genre::Optimum::Own {
                formula: <Self as $crate::capability::PbOwnOptimum>::own_formula,
                proof: <Self as $crate::capability::PbOwnOptimum>::own_proof,
            });
    };
    (@item Searches) => {
        fn search(
            inst: &Self::Instance,
            goal: $crate::puzzle::Goal,
            solvers: &dyn $crate::solver::NewSolver,
            out: &mut dyn $crate::puzzle::Observer<Self>,
        ) -> Result<$crate::puzzle::Ended, $crate::solver::SolverError> {
            <Self as $crate::capability::Searches>::search(inst, goal, solvers, out)
        }
    };
    (@item Cuts) => {
        fn encode_search<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            sink: &mut S,
        ) -> Self::Encoding {
            <Self as $crate::capability::Cuts>::encode_lazy(inst, sink)
        }
        fn cuts(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            answer: &Self::Answer,
        ) -> Vec<Vec<$crate::cnf::Lit>> {
            <Self as $crate::capability::Cuts>::cuts(inst, enc, answer)
        }
        fn repair(
            inst: &Self::Instance,
            enc: &Self::Encoding,
            answer: &Self::Answer,
        ) -> Option<Self::Answer> {
            <Self as $crate::capability::Cuts>::repair(inst, enc, answer)
        }
        fn estimate_search(inst: &Self::Instance, limit: u64) -> u64 {
            <Self as $crate::capability::Cuts>::estimate_lazy(inst)
                .unwrap_or_else(|| <Self as $crate::genre::Genre>::estimate(inst, limit))
        }
    };
    (@item Prunes) => {
        fn plain_encode<S: $crate::cnf::ClauseSink>(
            inst: &Self::Instance,
            sink: &mut S,
        ) -> Self::Encoding {
            <Self as $crate::capability::Prunes>::plain_encode(inst, sink)
        }
        fn derived_units(inst: &Self::Instance, enc: &Self::Encoding) -> Vec<$crate::cnf::Lit> {
            <Self as $crate::capability::Prunes>::derived_units(inst, enc)
        }
    };
    (@item Marks) => {
        fn svg_broken(inst: &Self::Instance, text: &str, caption: &str) -> String {
            <Self as $crate::capability::Marks>::svg_broken(inst, text, caption)
        }
    };
    (@item Estimate) => {
        fn estimate(inst: &Self::Instance, limit: u64) -> u64 {
            <Self as $crate::capability::Estimate>::estimate(inst, limit)
        }
    };
    (@item Generate) => {
        const GENERATES: bool = true;
        const PARTS: &'static str = <Self as $crate::capability::Generate>::PARTS;
        const GENERATE_SIZE: Option<(usize, usize)> =
            <Self as $crate::capability::Generate>::SIZE;
        const GENERATES_UNIQUE: bool = <Self as $crate::capability::Generate>::UNIQUE;
        fn generate(
            spec: &$crate::puzzle::GenerateSpec,
            solvers: &dyn $crate::solver::NewSolver,
            note: &mut dyn FnMut(String),
        ) -> Result<Option<$crate::puzzle::Made<Self::Answer>>, String> {
            <Self as $crate::capability::Generate>::generate(spec, solvers, note)
        }
        fn series(
            spec: &$crate::puzzle::GenerateSpec,
            solvers: &dyn $crate::solver::NewSolver,
            note: &mut dyn FnMut(String),
        ) -> Result<Option<$crate::puzzle::Series<Self::Answer>>, String> {
            <Self as $crate::capability::Generate>::series(spec, solvers, note)
        }
        fn difficulty(inst: &Self::Instance) -> Option<(usize, usize)> {
            <Self as $crate::capability::Generate>::difficulty(inst)
        }
    };
}
