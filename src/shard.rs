//! `run --shard K/N` and `run --merge`: one run split over processes or machines and joined
//! again.
//!
//! Every shard finds the same puzzles in the same order (the walk is sorted) and takes every
//! N-th of them, starting at the K-th: hard puzzles, which come in runs of similar files, are
//! spread over the shards. A shard writes its rows as `--format json` does, each with its place
//! in the whole run, and ends with one line that says what it was a share of. The merge takes
//! nothing on trust: every shard of the same run exactly once, each complete, each with exactly
//! its share of the rows, or it refuses and says which is wrong.

use anyhow::{anyhow, bail, Result};
use serde_json::{json, Map, Value};
use std::path::PathBuf;

/// What a run found besides the puzzles, which every shard repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    pub skipped: usize,
    pub special: usize,
}

/// The flags that change a row (time limit, solver, `--puzzle`), which every shard of one run
/// must share: shards run with other settings are another run.
pub type Settings = String;

/// `K/N`, with 1 ≤ K ≤ N.
pub fn parse(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: a shard is K/N, K from 1 to N (e.g. 3/8)");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n || n > MAX_SHARDS {
        return Err(match n > MAX_SHARDS {
            true => format!("`{s}`: at most {MAX_SHARDS} shards"),
            false => bad(),
        });
    }
    Ok((k, n))
}

/// More shards than this is a typo, not a cluster.
const MAX_SHARDS: usize = 1 << 20;

/// The places in the whole run that shard `k` of `n` takes.
pub fn share(total: usize, (k, n): (usize, usize)) -> impl Iterator<Item = usize> {
    (k - 1..total).step_by(n)
}

/// Inside a Slurm array task (SLURM_ARRAY_TASK_ID, _MIN and _COUNT set; _STEP where the array
/// has one): the task's shard. `None` outside one.
pub fn from_slurm() -> Result<Option<(usize, usize)>> {
    from_env(|name| std::env::var(name).ok())
}

fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<Option<(usize, usize)>> {
    let Some(id) = var("SLURM_ARRAY_TASK_ID") else {
        return Ok(None);
    };
    let number = |name: &str, default: Option<usize>| -> Result<usize> {
        match (var(name), default) {
            (Some(v), _) => v.trim().parse().map_err(|_| {
                anyhow!("{name}={v}: not a number (a Slurm array task's variables give run its shard)")
            }),
            (None, Some(d)) => Ok(d),
            (None, None) => bail!(
                "SLURM_ARRAY_TASK_ID is set but {name} is not: cannot tell this task's shard (give --shard K/N)"
            ),
        }
    };
    let id = number("SLURM_ARRAY_TASK_ID", None).map_err(|_| {
        anyhow!("SLURM_ARRAY_TASK_ID={id}: not a number (a Slurm array task's variables give run its shard)")
    })?;
    let (min, count) = (
        number("SLURM_ARRAY_TASK_MIN", None)?,
        number("SLURM_ARRAY_TASK_COUNT", None)?,
    );
    let step = number("SLURM_ARRAY_TASK_STEP", Some(1))?.max(1);
    // An array of evenly spaced tasks ends where its count says; a list (`--array=1,3,10`) does
    // not, and its tasks' places cannot be told from these variables.
    let max = number("SLURM_ARRAY_TASK_MAX", None)?;
    if count == 0
        || count > MAX_SHARDS
        || min.checked_add((count - 1).saturating_mul(step)) != Some(max)
    {
        bail!(
            "Slurm array tasks {min} to {max} by {step}, {count} of them: not an evenly spaced array of at most {MAX_SHARDS} tasks, so this task's shard cannot be told (give --shard K/N)"
        );
    }
    let place = id
        .checked_sub(min)
        .filter(|d| d % step == 0)
        .map(|d| d / step + 1)
        .filter(|&k| k <= count)
        .ok_or_else(|| {
            anyhow!(
                "Slurm array task {id} is not one of {count} tasks from {min} by {step}: cannot tell its shard (give --shard K/N)"
            )
        })?;
    Ok(Some((place, count)))
}

/// Settings as a message shows them.
fn shown(settings: &str) -> &str {
    if settings.is_empty() {
        "none"
    } else {
        settings
    }
}

/// A fingerprint of the whole run's puzzle list (FNV-1a over the names in order): shards of
/// different runs, or of the same paths over different files, are not merged.
fn fingerprint(names: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for name in names {
        for b in name.bytes().chain([b'\n']) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// A shard's output: its rows (in the order of the whole run) as JSON lines, each with its
/// place, then the line that closes the shard.
pub fn write(
    (k, n): (usize, usize),
    names: &[String],
    rows: Vec<Map<String, Value>>,
    summary: Summary,
    settings: &Settings,
) -> String {
    let mut out = String::new();
    let count = rows.len();
    for (row, place) in rows.into_iter().zip(share(names.len(), (k, n))) {
        let mut row = row;
        row.insert("shard".into(), json!(format!("{k}/{n}")));
        row.insert("place".into(), json!(place));
        out += &Value::Object(row).to_string();
        out.push('\n');
    }
    let end = json!({
        "shard": format!("{k}/{n}"),
        "end": true,
        "puzzles": names.len(),
        "rows": count,
        "skipped": summary.skipped,
        "special": summary.special,
        "fingerprint": fingerprint(names),
        "settings": settings,
    });
    out += &end.to_string();
    out.push('\n');
    out
}

/// What closes a shard.
struct End {
    shard: (usize, usize),
    puzzles: usize,
    summary: Summary,
    fingerprint: String,
    settings: Settings,
}

/// The rows of every shard in `paths` (a file may hold several shards, each whole: GNU
/// parallel's output of many), in the whole run's order, with the run's summary; an error
/// naming the file and line when they do not make one run.
pub fn read(paths: &[PathBuf]) -> Result<(Vec<Map<String, Value>>, Summary)> {
    let mut ends: Vec<(String, End)> = Vec::new();
    let mut rows: Vec<(usize, Map<String, Value>)> = Vec::new();
    for path in paths {
        let input = crate::input::read_regular(path)?;
        let name = input.name.clone();
        // The rows of the shard being read: place and shard as each row says.
        let mut places: Vec<(usize, (usize, usize))> = Vec::new();
        let mut shards_here = 0;
        let mut last = 0;
        for (n, line) in input.text.lines().enumerate() {
            let at = format!("{name}:{}", n + 1);
            last = n + 1;
            if line.trim().is_empty() {
                continue;
            }
            let Ok(Value::Object(mut obj)) = serde_json::from_str::<Value>(line) else {
                bail!("{at}: not a line of `run --shard` (a JSON object)");
            };
            let shard = obj
                .remove("shard")
                .and_then(|v| v.as_str().map(parse))
                .ok_or_else(|| anyhow!("{at}: no \"shard\": not a line of `run --shard`"))?
                .map_err(|e| anyhow!("{at}: {e}"))?;
            if let Some(&(_, first)) = places.first() {
                if first != shard {
                    bail!(
                        "{at}: shard {}/{} begins before shard {}/{} has ended: a shard cut short",
                        shard.0,
                        shard.1,
                        first.0,
                        first.1
                    );
                }
            }
            if obj.get("end") != Some(&Value::Bool(true)) {
                let place = obj
                    .remove("place")
                    .and_then(|v| v.as_u64())
                    .and_then(|v| usize::try_from(v).ok())
                    .ok_or_else(|| anyhow!("{at}: a row without its \"place\""))?;
                places.push((place, shard));
                rows.push((place, obj));
                continue;
            }
            let field = |key: &str| -> Result<usize> {
                obj.get(key)
                    .and_then(Value::as_u64)
                    .and_then(|v| usize::try_from(v).ok())
                    .ok_or_else(|| anyhow!("{at}: the shard's last line has no \"{key}\""))
            };
            let text = |key: &str| -> Result<String> {
                obj.get(key)
                    .and_then(Value::as_str)
                    .map(String::from)
                    .ok_or_else(|| anyhow!("{at}: the shard's last line has no \"{key}\""))
            };
            let end = End {
                shard,
                puzzles: field("puzzles")?,
                summary: Summary {
                    skipped: field("skipped")?,
                    special: field("special")?,
                },
                fingerprint: text("fingerprint")?,
                settings: text("settings")?,
            };
            if field("rows")? != places.len() {
                bail!(
                    "{at}: the shard says it has {} rows, but {} are above it",
                    field("rows")?,
                    places.len()
                );
            }
            // Its share's size first, by arithmetic: a forged count of puzzles is not counted out.
            let size = end
                .puzzles
                .saturating_sub(end.shard.0 - 1)
                .div_ceil(end.shard.1);
            if size != places.len() {
                bail!(
                    "{at}: shard {}/{} of {} puzzles holds {} rows where its share is {size}",
                    end.shard.0,
                    end.shard.1,
                    end.puzzles,
                    places.len()
                );
            }
            let want: Vec<usize> = share(end.puzzles, end.shard).collect();
            let mut got: Vec<usize> = places.iter().map(|p| p.0).collect();
            got.sort_unstable();
            if got != want {
                let missing = want.iter().find(|p| !got.contains(p));
                bail!(
                    "{at}: shard {}/{} of {} puzzles holds {} rows where its share is {}{}",
                    end.shard.0,
                    end.shard.1,
                    end.puzzles,
                    got.len(),
                    want.len(),
                    match missing {
                        Some(p) => format!(" (place {p} is missing)"),
                        None => " (a place twice, or one not its own)".into(),
                    }
                );
            }
            places.clear();
            shards_here += 1;
            ends.push((name.clone(), end));
        }
        if shards_here == 0 && places.is_empty() {
            bail!("{name}: empty: not the output of `run --shard`");
        }
        if !places.is_empty() {
            bail!("{name}:{last}: the shard ends before its last line: it did not finish (or the file was cut)");
        }
    }
    let Some((first_name, first)) = ends.first() else {
        bail!("run --merge needs the shards' files");
    };
    let n = first.shard.1;
    let mut seen = vec![None; n];
    for (name, end) in &ends {
        if end.settings != first.settings {
            bail!(
                "{name} and {first_name} are shards of runs with other settings ({} and {})",
                shown(&end.settings),
                shown(&first.settings)
            );
        }
        if end.shard.1 != n
            || end.puzzles != first.puzzles
            || end.fingerprint != first.fingerprint
            || end.summary != first.summary
        {
            bail!(
                "{name} and {first_name} are shards of different runs (shard {}/{} of {} puzzles, list {}; shard {}/{} of {}, list {})",
                end.shard.0,
                end.shard.1,
                end.puzzles,
                end.fingerprint,
                first.shard.0,
                n,
                first.puzzles,
                first.fingerprint
            );
        }
        if let Some(other) = seen[end.shard.0 - 1].replace(name) {
            bail!("{name} and {other} are both shard {}/{n}", end.shard.0);
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| seen[k - 1].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        let listed = match missing.len() {
            1..=8 => missing.join(", "),
            n => format!("{}, … ({n} in all)", missing[..4].join(", ")),
        };
        bail!(
            "shard{} {listed} of the run {} missing: a merge joins every shard",
            if missing.len() == 1 { "" } else { "s" },
            if missing.len() == 1 { "is" } else { "are" }
        );
    }
    rows.sort_by_key(|r| r.0);
    // The rows' names, in the run's order, are the list the shards were cut from: a row moved,
    // renamed or swapped with another changes the fingerprint.
    let names: Vec<String> = rows
        .iter()
        .map(|(_, row)| {
            row.get("file")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        })
        .collect();
    if fingerprint(&names) != first.fingerprint {
        let at = rows
            .iter()
            .find(|(_, row)| row.get("file").and_then(Value::as_str).is_none())
            .map_or(String::new(), |(p, _)| {
                format!(" (the row at place {p} names no file)")
            });
        bail!(
            "the shards' rows do not name the puzzles of the run they say they are of, in its order{at}: a row was moved, renamed or swapped"
        );
    }
    Ok((rows.into_iter().map(|r| r.1).collect(), first.summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_take_every_place_once() {
        for total in 0..40 {
            for n in 1..9 {
                let mut all: Vec<usize> = (1..=n).flat_map(|k| share(total, (k, n))).collect();
                all.sort_unstable();
                assert_eq!(all, (0..total).collect::<Vec<_>>(), "{total} in {n}");
                // Even: no shard holds more than one place more than another.
                let sizes: Vec<usize> = (1..=n).map(|k| share(total, (k, n)).count()).collect();
                assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
            }
        }
    }

    #[test]
    fn a_slurm_array_task_finds_its_shard() {
        fn env<'a>(vars: &'a [(&str, &str)]) -> impl Fn(&str) -> Option<String> + 'a {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        }
        assert_eq!(from_env(env(&[])).unwrap(), None);
        let task = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(from_env(env(&task)).unwrap(), Some((3, 4)));
        // --array=0-6:2 is tasks 0, 2, 4, 6: task 4 is the third of four.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "6"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        assert_eq!(from_env(env(&stepped)).unwrap(), Some((3, 4)));
        for bad in [
            &[("SLURM_ARRAY_TASK_ID", "7")][..],
            &[
                ("SLURM_ARRAY_TASK_ID", "9"),
                ("SLURM_ARRAY_TASK_MIN", "5"),
                ("SLURM_ARRAY_TASK_MAX", "8"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            // --array=1,3,10: a list, whose second task is not the third.
            &[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "10"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ],
            &[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "99999999"),
                ("SLURM_ARRAY_TASK_COUNT", "99999999"),
            ],
            &[
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ],
            &[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_MIN", "5"),
                ("SLURM_ARRAY_TASK_MAX", "8"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
            &[
                ("SLURM_ARRAY_TASK_ID", "5"),
                ("SLURM_ARRAY_TASK_MIN", "6"),
                ("SLURM_ARRAY_TASK_MAX", "9"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ],
        ] {
            assert!(from_env(env(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shards_are_read_as_k_of_n() {
        assert_eq!(parse("3/8"), Ok((3, 8)));
        assert_eq!(parse("1/1"), Ok((1, 1)));
        for bad in ["0/4", "5/4", "4", "a/b", "-1/4", "1/0", "", "2/99999999"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
