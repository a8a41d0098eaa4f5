//! SAT solver backends behind the `encodings::solver::Solver` trait, and the choice among
//! them that `--solver` / `--solver-cmd` make.

#[cfg(feature = "cadical")]
pub mod cadical;
pub mod command;
pub mod varisat;

use encodings::solver::{NewSolver, Solver, Stop};

/// A backend as chosen on the command line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Backend {
    /// varisat, embedded (the default: pure Rust).
    #[default]
    Varisat,
    /// CaDiCaL, embedded (vendored C++): interruptible, and much faster on large boards.
    #[cfg(feature = "cadical")]
    Cadical,
    /// Any external solver reading DIMACS, run once per call.
    Command(String),
}

/// The built-in backends `--solver` takes: name and one line about each.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("varisat", "embedded CDCL solver in pure Rust (the default); not interruptible inside a call"),
    #[cfg(feature = "cadical")]
    ("cadical", "embedded CaDiCaL 1.9.5 (C++, the `cadical` cargo feature, on by default); interruptible"),
];

impl Backend {
    /// A built-in backend by its `--solver` name.
    pub fn by_name(name: &str) -> Option<Backend> {
        match name {
            "varisat" => Some(Backend::Varisat),
            #[cfg(feature = "cadical")]
            "cadical" => Some(Backend::Cadical),
            _ => None,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Backend::Varisat => "varisat",
            #[cfg(feature = "cadical")]
            Backend::Cadical => "cadical",
            Backend::Command(_) => "command",
        }
    }

    /// Whether raising the stop flag ends a running call (so a time limit need not abandon
    /// the solver thread).
    pub fn interruptible(&self) -> bool {
        !matches!(self, Backend::Varisat)
    }

    /// Checks what can be checked before any work (an external command's syntax).
    pub fn validate(&self) -> Result<(), String> {
        match self {
            Backend::Command(cmd) => command::Command::new(cmd, Stop::new()).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// Makes the solvers of one run, all sharing `stop`.
    pub fn solvers(&self, stop: Stop) -> Solvers {
        Solvers { backend: self.clone(), stop }
    }
}

/// [`NewSolver`] for one run of one backend.
pub struct Solvers {
    backend: Backend,
    stop: Stop,
}

impl NewSolver for Solvers {
    fn new_solver(&self) -> Box<dyn Solver> {
        match &self.backend {
            Backend::Varisat => Box::new(varisat::Varisat::new(self.stop.clone())),
            #[cfg(feature = "cadical")]
            Backend::Cadical => Box::new(cadical::Cadical::new(self.stop.clone())),
            Backend::Command(cmd) => Box::new(command::Command::new(cmd, self.stop.clone()).expect("checked by Backend::validate")),
        }
    }

    fn stop(&self) -> &Stop {
        &self.stop
    }
}
