//! The defaults of `Genre` and `Scoring`, on a puzzle that implements only what they require:
//! the generic searches (enumerate, and bound tightening with `better_than`), `describe_valid`,
//! `dimacs_comments` and `estimate`, cross-checked against brute force. No built-in puzzle
//! keeps the default enumeration, so this is where it is tested.

use encodings::capability::Scoring;
use encodings::cnf::amo::at_most_one;
use encodings::cnf::sum::{encode_sum, Bound, SumOutputs, Use};
use encodings::cnf::{ClauseSink, Cnf, Lit, Model, SizeCounter};
use encodings::format::error::ParseError;
use encodings::genre::Genre;
use encodings::puzzle::{Ended, Format, Goal, Info, Puzzle, ReadAnswer, Settings};
use puzzle_sat::runner::{search, Options, Progress};
use serde_json::{json, Map, Value};

/// Choose items `0..n` so that no listed pair is chosen whole (an independent set); `MAX`:
/// choose as many as possible, else list every choice. Its file: `n` then pairs `a-b`.
struct Pairs<const MAX: bool>;

#[derive(Clone, Debug)]
struct Graph {
    n: usize,
    pairs: Vec<(usize, usize)>,
}

impl<const MAX: bool> Puzzle for Pairs<MAX> {
    const INFO: Info = Info {
        name: "pairs",
        about: "independent sets",
        machine: Format::Text,
        answer_fields: &["chosen"],
        variables: "item I is chosen",
        ..Info::DEFAULT
    };
    type Instance = Graph;
    type Answer = Vec<bool>;
    type Checked = usize;
    type Encoding = (Vec<Lit>, SumOutputs);

    fn parse(text: &str, _: &Settings) -> Result<Graph, ParseError> {
        let mut words = text.split_whitespace();
        let n = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or(ParseError::new(1, 1, "expected n"))?;
        let pairs = words
            .map(|w| {
                w.split_once('-')
                    .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                    .ok_or(ParseError::new(1, 1, "expected a-b"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Graph { n, pairs })
    }

    fn encode<S: ClauseSink>(g: &Graph, sink: &mut S) -> Self::Encoding {
        let x: Vec<Lit> = (0..g.n).map(|_| sink.new_var()).collect();
        for &(a, b) in &g.pairs {
            at_most_one(sink, &[x[a], x[b]]);
        }
        let count = encode_sum(
            sink,
            &x.iter().map(|&l| vec![(l, 1)]).collect::<Vec<_>>(),
            None,
            Use::AtLeast,
        );
        (x, count)
    }

    fn decode(_: &Graph, enc: &Self::Encoding, model: &Model) -> Vec<bool> {
        enc.0.iter().map(|&l| model.value(l)).collect()
    }

    fn check(g: &Graph, a: &Vec<bool>) -> Result<usize, String> {
        match g.pairs.iter().find(|&&(i, j)| a[i] && a[j]) {
            Some((i, j)) => Err(format!("{i} and {j} both chosen")),
            None => Ok(a.iter().filter(|&&b| b).count()),
        }
    }

    fn read_answer(_: &Graph, text: &str) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        Ok(Ok(ReadAnswer {
            answer: text.trim().chars().map(|c| c == '1').collect(),
            complete: true,
            claimed: None,
        }))
    }

    fn render(_: &Graph, a: &Vec<bool>, _: &usize, _: Format) -> String {
        a.iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect::<String>()
            + "\n"
    }

    fn svg(_: &Graph, _: &[(&Vec<bool>, &usize)], caption: &str) -> String {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>{caption}</text></svg>")
    }

    fn answer_json(_: &Graph, a: &Vec<bool>, _: &usize) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("chosen".into(), json!(a));
        m
    }

    fn block<S: ClauseSink>(_: &Graph, enc: &Self::Encoding, sink: &mut S, answers: &[Vec<bool>]) {
        for a in answers {
            sink.add_clause(
                &enc.0
                    .iter()
                    .zip(a)
                    .map(|(&l, &v)| if v { !l } else { l })
                    .collect::<Vec<_>>(),
            );
        }
    }
}

impl Scoring for Pairs<true> {
    type Score = usize;

    fn better_than<S: ClauseSink>(
        _: &Graph,
        enc: &Self::Encoding,
        sink: &mut S,
        &score: &usize,
        _: &[Value],
    ) -> Result<(), String> {
        match enc.1.at_least(score as u64 + 1) {
            Bound::Trivial => {}
            Bound::Impossible => sink.add_clause(&[]),
            Bound::Lit(l) => sink.add_clause(&[l]),
        }
        Ok(())
    }
}

encodings::declare! {
    Pairs<false>: ;
    Pairs<true>: Scoring;
}

/// Every independent set's size, by listing all subsets.
fn brute_force(g: &Graph) -> Vec<usize> {
    (0u32..1 << g.n)
        .filter(|&s| {
            g.pairs
                .iter()
                .all(|&(a, b)| s >> a & 1 == 0 || s >> b & 1 == 0)
        })
        .map(|s| s.count_ones() as usize)
        .collect()
}

fn random_graph(seed: &mut u64) -> Graph {
    let mut next = |m: usize| {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as usize % m
    };
    let n = 1 + next(9);
    let pairs = (0..next(2 * n + 1))
        .map(|_| (next(n), next(n)))
        .filter(|(a, b)| a != b)
        .collect();
    Graph { n, pairs }
}

#[test]
fn the_default_searches_agree_with_brute_force() {
    let opts = Options {
        progress: Progress::Never,
        ..Default::default()
    };
    let mut seed = 7;
    for _ in 0..60 {
        let g = random_graph(&mut seed);
        let sizes = brute_force(&g);
        // Enumeration: every set, each valid and different, then the refutation.
        let all =
            search::<Pairs<false>>(g.clone(), Goal::Enumerate { max: 1000 }, 1000, &opts).unwrap();
        assert_eq!(
            (all.count as usize, all.ended),
            (sizes.len(), Ended::Proved),
            "{g:?}"
        );
        let mut seen: Vec<&Vec<bool>> = all.answers.iter().map(|(a, _)| a).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), sizes.len(), "{g:?}");
        // Stopped at a limit below the count: `Limit`, not a proof.
        if sizes.len() > 2 {
            let two =
                search::<Pairs<false>>(g.clone(), Goal::Enumerate { max: 2 }, 2, &opts).unwrap();
            assert_eq!((two.count, two.ended), (2, Ended::Limit), "{g:?}");
        }
        // Maximisation: the largest set, proved.
        let best = search::<Pairs<true>>(g.clone(), Goal::Best, 1, &opts).unwrap();
        assert_eq!(best.ended, Ended::Proved, "{g:?}");
        assert_eq!(
            best.best().map(|(_, c)| *c),
            sizes.iter().max().copied(),
            "{g:?}"
        );
    }
}

#[test]
fn the_default_reports_and_estimate() {
    let g = Pairs::<true>::parse("4 0-1 1-2", &Settings::default()).unwrap();
    let answer = vec![true, false, true, true];
    let checked = Pairs::<true>::check(&g, &answer).unwrap();
    assert_eq!(
        <Pairs<true> as Genre>::describe_valid(&g, &answer, &checked, false),
        "valid, score 3\n"
    );
    assert_eq!(
        <Pairs<true> as Genre>::dimacs_comments(&g, "g.txt"),
        ["puzzle-sat pairs g.txt", "variables: item I is chosen"]
    );
    let mut cnf = Cnf::new();
    Pairs::<true>::encode(&g, &mut cnf);
    let literals: usize = cnf.clauses.iter().map(Vec::len).sum();
    assert_eq!(
        <Pairs<true> as Genre>::estimate(&g, u64::MAX),
        literals as u64
    );
    let mut counter = SizeCounter::default();
    Pairs::<false>::encode(&g, &mut counter);
    assert_eq!(counter.literals, literals as u64);
}
