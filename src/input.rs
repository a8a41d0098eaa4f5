//! Reading a puzzle file (or stdin for `-`) into text, with errors that name the file.

use anyhow::{anyhow, bail, Context, Result};
use std::io::Read;
use std::path::Path;

pub struct Input {
    /// How messages name the input: the path as given, or `<stdin>`.
    pub name: String,
    pub text: String,
}

impl Input {
    /// Prefixes a position error with the file name: `FILE:LINE:COL: message`.
    pub fn error(&self, e: encodings::error::ParseError) -> anyhow::Error {
        anyhow!("{}:{}", self.name, e)
    }
}

/// The largest input read (a puzzle, an answer, a solver's model): far beyond any real one
/// (a 1000×1000 Tatamibari is 1 MB, a model of a million variables about 8 MB), so that a
/// runaway pipe is an error, not the machine's memory.
pub const MAX_INPUT: u64 = 64 << 20;

pub fn read_input(path: &Path) -> Result<Input> {
    let (name, bytes) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().take(MAX_INPUT + 1).read_to_end(&mut bytes).context("<stdin>: cannot read standard input")?;
        ("<stdin>".to_string(), bytes)
    } else {
        let name = path.display().to_string();
        if path.is_dir() {
            bail!("{name}: is a directory, expected a puzzle file");
        }
        let file = std::fs::File::open(path).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        let mut bytes = Vec::new();
        file.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        (name, bytes)
    };
    if bytes.len() as u64 > MAX_INPUT {
        bail!("{name}: larger than {} MiB, the most puzzle-sat reads", MAX_INPUT >> 20);
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let good = std::str::from_utf8(good).expect("valid up to here");
        let line = good.matches('\n').count() + 1;
        let col = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        anyhow!("{name}:{line}:{col}: not UTF-8 text")
    })?;
    Ok(Input { name, text })
}
