//! Running a solver in a worker thread under an optional deadline.
//!
//! varisat cannot be interrupted, so the solver lives in a worker thread that reports as it
//! goes; the calling thread handles each report until the worker says it is done or the
//! deadline passes, and then returns (an abandoned worker ends with the process).

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Instant;

/// What the worker sends: its reports, then `Done` when its search is complete.
pub enum Report<M> {
    Msg(M),
    Done,
}

/// Runs `work` in a new thread and passes each of its messages to `on`. Returns `true` when the
/// worker finished its search, `false` when the deadline passed first.
///
/// # Panics
/// When the worker dies without saying it is done (a bug): its silence must never be taken
/// for a finished search, since "finished" is what proofs are made of.
pub fn drive<M: Send + 'static>(
    deadline: Option<Instant>,
    work: impl FnOnce(&Sender<Report<M>>) + Send + 'static,
    mut on: impl FnMut(M),
) -> bool {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || work(&tx));
    loop {
        let report = match deadline {
            Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                Ok(r) => r,
                Err(RecvTimeoutError::Timeout) => return false,
                Err(RecvTimeoutError::Disconnected) => panic!("the solver thread stopped without finishing"),
            },
            None => rx.recv().expect("the solver thread stopped without finishing"),
        };
        match report {
            Report::Msg(m) => on(m),
            Report::Done => return true,
        }
    }
}
