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

pub fn read_input(path: &Path) -> Result<Input> {
    let (name, bytes) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).context("<stdin>: cannot read standard input")?;
        ("<stdin>".to_string(), bytes)
    } else {
        let name = path.display().to_string();
        if path.is_dir() {
            bail!("{name}: is a directory, expected a puzzle file");
        }
        let bytes = std::fs::read(path).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        (name, bytes)
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let good = std::str::from_utf8(good).expect("valid up to here");
        let line = good.matches('\n').count() + 1;
        let col = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        anyhow!("{name}:{line}:{col}: not UTF-8 text")
    })?;
    Ok(Input { name, text })
}
