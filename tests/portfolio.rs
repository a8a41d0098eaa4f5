//! The default portfolio: its members race in threads, the first definite answer wins and the
//! others are stopped at once, a time limit stops all of them; `--threads 1` runs the first
//! member alone. One test in this file, so that no other search of this process is counted
//! among the workers it watches.

mod common;

use common::{data_dir, json_field, run};
use encodings::genres::kakkuro::{self as kk, Instance, Kakkuro};
use encodings::puzzle::{Ended, Goal};
use puzzle_sat::backends::Backend;
use puzzle_sat::runner::{self, Options, Progress};
use std::time::{Duration, Instant};

/// Waits up to `within` for every worker thread of this process to end: how many are left.
fn left_after(within: Duration) -> usize {
    let start = Instant::now();
    while runner::workers() > 0 && start.elapsed() < within {
        std::thread::sleep(Duration::from_millis(2));
    }
    runner::workers()
}

fn kakkuro(file: &std::path::Path) -> Instance {
    Instance {
        puzzle: kk::parse(&std::fs::read_to_string(file).unwrap()).unwrap(),
        fixed: None,
    }
}

#[test]
fn the_portfolio_races_and_leaves_nothing_running() {
    let portfolio = Backend::default();
    let members: Vec<&str> = portfolio.members().iter().map(|m| m.name()).collect();
    assert_eq!(
        members.len(),
        if cfg!(feature = "cadical") { 2 } else { 1 },
        "{members:?}"
    );
    assert_eq!(
        members[0],
        if cfg!(feature = "cadical") {
            "cadical"
        } else {
            "varisat"
        }
    );
    // A board both members prove in seconds (varisat 1.9 s, CaDiCaL 2.7 s here): whichever
    // answers, the other is stopped as soon as it has.
    let board = data_dir("kakkuro").join("bench-10x10-seed3.txt");
    let opts = Options {
        backend: portfolio.clone(),
        time_limit: None,
        progress: Progress::Never,
        cubes: None,
    };
    let out = runner::search::<Kakkuro>(kakkuro(&board), Goal::Best, 1, &opts).unwrap();
    assert_eq!(out.ended, Ended::Proved);
    assert!(
        members.contains(&out.stats.backend),
        "{}",
        out.stats.backend
    );
    assert_eq!(
        left_after(Duration::from_millis(300)),
        0,
        "a loser still ran 300 ms after the race was won"
    );
    // The same optimum as each member alone.
    for member in portfolio.members() {
        let alone = runner::search::<Kakkuro>(
            kakkuro(&board),
            Goal::Best,
            1,
            &Options {
                backend: member.clone(),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(
            alone.best().map(|b| b.1.score.clone()),
            out.best().map(|b| b.1.score.clone()),
            "{}",
            member.name()
        );
    }
    // A time limit stops every member inside its call.
    let dir = tempfile::tempdir().unwrap();
    let hard = dir.path().join("painting-10x10.txt");
    std::fs::write(&hard, common::HARD_KAKKURO).unwrap();
    let start = Instant::now();
    let out = runner::search::<Kakkuro>(
        kakkuro(&hard),
        Goal::Best,
        1,
        &Options {
            time_limit: Some(Duration::from_secs(1)),
            ..opts.clone()
        },
    )
    .unwrap();
    assert_eq!(
        out.ended,
        Ended::Stopped,
        "proved within a second: pick a harder board"
    );
    assert!(
        start.elapsed() < Duration::from_millis(1800),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        left_after(Duration::from_millis(300)),
        0,
        "a member still ran 300 ms after the time limit's grace"
    );
    // Through the binary: the race says who answered; one thread is the first member alone
    // (an optimisation's race starts with varisat), the same answer every time.
    let r = run(
        &["solve", "kakkuro", board.to_str().unwrap(), "--progress"],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    if members.len() > 1 {
        assert!(r.stderr.contains("answered first"), "{}", r.stderr);
    }
    let one = |_| {
        let r = run(
            &[
                "solve",
                "kakkuro",
                board.to_str().unwrap(),
                "--threads",
                "1",
                "--format",
                "json",
            ],
            None,
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(json_field(&r.stdout, "backend"), "\"varisat\"");
        json_field(&r.stdout, "contest")
    };
    let answers: Vec<String> = (0..2).map(one).collect();
    assert_eq!(answers[0], answers[1]);
}
