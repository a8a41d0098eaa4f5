//! Files that hold many puzzles, as players and makers keep them: one puzz.link URL a line,
//! one sudoku a line (81 characters, as every sudoku collection writes them), or a puzzlekit
//! JSON file (`{"name": GENRE, "data": {KEY: {"problem": …, "solution": …}}}`). `solve` and
//! `run` take each puzzle in turn, with its own row, verdict and exit status.

use crate::input::Input;
use encodings::format::url;
use serde_json::Value;

/// One puzzle of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// How messages and rows name it: `FILE:LINE` or `FILE#KEY`.
    pub name: String,
    pub text: String,
    /// Its solution as the collection gives it, in a form `check` reads.
    pub expected: Option<String>,
    /// Why it cannot be read at all (a puzzlekit entry without a `problem` text).
    pub broken: Option<String>,
    /// What the collection says it is: a URL's kind (`mashu`), or the JSON's name lowercased
    /// (`masyu`), or `sudoku` for a one-line sudoku; [`Item::is`] compares it with a puzzle.
    pub says: Option<String>,
}

impl Item {
    /// Whether it says it is the puzzle `name`, whose URLs are of `kinds`; `None` when it says
    /// nothing.
    pub fn is(&self, name: &str, kinds: &[&str]) -> Option<bool> {
        self.says
            .as_deref()
            .map(|s| s == name || kinds.contains(&s))
    }
}

/// A one-line sudoku's length: a 9×9's 81 cells (shorter lines could be the rows of another
/// puzzle written without spaces, 16 wide).
const ONE_LINE: usize = 81;

/// The puzzles of `input`, when it is a collection: at least two lines that are each a URL or
/// each a one-line 9×9 sudoku (blank lines and lines starting with `#` passed over), or a
/// puzzlekit JSON file with at least one puzzle. `None` for a file of one puzzle.
pub fn items(input: &Input) -> Option<Vec<Item>> {
    let text = input.text.trim_start_matches('\u{feff}');
    if text.trim_start().starts_with('{') {
        return puzzlekit(input, text);
    }
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .peekable();
    // The first line decides the form, so that a large puzzle file is left at its first line.
    let &(_, first) = lines.peek()?;
    let is_url = |l: &str| url::pasted(l).is_some();
    let one_line = |l: &str| {
        l.chars().count() == ONE_LINE && l.chars().all(|c| c.is_ascii_digit() || c == '.')
    };
    let form: &dyn Fn(&str) -> bool = if is_url(first) {
        &is_url
    } else if one_line(first) {
        &one_line
    } else {
        return None;
    };
    let mut out = Vec::new();
    for (n, l) in lines {
        if !form(l) {
            return None;
        }
        let url = is_url(l);
        out.push(Item {
            name: format!("{}:{n}", input.name),
            text: if url {
                l.to_string()
            } else {
                l.to_string() + "\n"
            },
            expected: None,
            broken: None,
            says: if url {
                url::split(l).ok().map(|link| link.kind.to_string())
            } else {
                Some("sudoku".to_string())
            },
        });
    }
    (out.len() >= 2).then_some(out)
}

/// `input`'s puzzles when it is a collection of which some may be the puzzle `name` (whose
/// URLs are of `kinds`); `None` for one puzzle's file. A collection of none of them is refused
/// by its kinds (read as one puzzle, mashu URLs made a LITS board whose labels were the URLs,
/// with no solution), unless it is lines of 81 digits or dots: those may be another puzzle's
/// rows written without spaces.
pub fn for_puzzle(input: &Input, name: &str, kinds: &[&str]) -> Result<Option<Vec<Item>>, String> {
    let Some(items) = items(input) else {
        return Ok(None);
    };
    if items.iter().any(|i| i.is(name, kinds) != Some(false)) {
        return Ok(Some(items));
    }
    if items.iter().all(|i| i.says.as_deref() == Some("sudoku")) {
        return Ok(None);
    }
    let says: std::collections::BTreeSet<&str> =
        items.iter().filter_map(|i| i.says.as_deref()).collect();
    Err(format!(
        "{}: a collection of {} puzzles, not {name}",
        input.name,
        says.into_iter().collect::<Vec<_>>().join(", ")
    ))
}

/// puzzlekit's JSON: its `data`, in the file's order, each named by its key.
fn puzzlekit(input: &Input, text: &str) -> Option<Vec<Item>> {
    let Ok(Value::Object(root)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let Some(Value::Object(data)) = root.get("data") else {
        return None;
    };
    let says = root
        .get("name")
        .and_then(Value::as_str)
        .map(|n| n.to_lowercase().replace(' ', "-"));
    let mut out = Vec::new();
    for (key, entry) in data {
        // A key is a name in a table or a line of output: control characters escaped.
        let key: String = if key.chars().any(char::is_control) {
            key.escape_default().collect()
        } else {
            key.clone()
        };
        let problem = entry.get("problem").and_then(Value::as_str);
        let solution = entry.get("solution");
        let broken = match (problem, solution) {
            (None, _) => Some("its \"problem\" is no text".to_string()),
            (_, Some(s)) if !s.is_string() && !s.is_null() => {
                Some("its \"solution\" is no text".to_string())
            }
            _ => None,
        };
        out.push(Item {
            name: format!("{}#{key}", input.name),
            text: problem.map_or(String::new(), |p| p.trim_end().to_string() + "\n"),
            expected: solution
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim_end().to_string() + "\n"),
            broken,
            says: says.clone(),
        });
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> Input {
        Input {
            name: "f".into(),
            text: text.into(),
        }
    }

    #[test]
    fn collections_are_told_from_single_puzzles() {
        let urls =
            "https://puzz.link/p?slither/5/5/cbcbcddad\n\n# a comment\nmashu/6/6/1063000i3000\n";
        let got = items(&input(urls)).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name, "f:1");
        assert_eq!(got[1].name, "f:4");
        assert_eq!(got[0].says.as_deref(), Some("slither"));
        assert_eq!(got[1].is("masyu", &["mashu"]), Some(true));
        assert_eq!(got[1].is("slitherlink", &["slither"]), Some(false));
        let sudokus = format!("{}\n{}\n", ".".repeat(81), "0".repeat(81));
        let got = items(&input(&sudokus)).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].says.as_deref(), Some("sudoku"));
        // One puzzle alone, a puzzle file, a URL and a grid mixed: no collection.
        assert_eq!(items(&input(&".".repeat(81))), None);
        assert_eq!(items(&input("3 -\n- 2\n")), None);
        assert_eq!(
            items(&input("https://puzz.link/p?slither/5/5/cbcbcddad\n3 - 2\n")),
            None
        );
        let json = r#"{"name": "Masyu", "data": {"02_6x6": {"problem": "2 2\n- -\n- -", "solution": ""}, "x": {"problem": "1 2\nw b\n", "solution": "1 2\n- -"}}}"#;
        let got = items(&input(json)).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name, "f#02_6x6");
        assert_eq!(got[0].says.as_deref(), Some("masyu"));
        assert_eq!(got[0].expected, None);
        assert_eq!(got[1].expected.as_deref(), Some("1 2\n- -\n"));
        assert_eq!(items(&input("{not json")), None);
        // Rows of another puzzle written without spaces are no sudokus, 16 wide or 81.
        let rows = format!("{}\n{}\n", "w.b.".repeat(4), "....".repeat(4));
        assert_eq!(items(&input(&rows)), None);
        let rows = format!("{}\n{}\n", "wb.".repeat(27), "...".repeat(27));
        assert_eq!(items(&input(&rows)), None);
        // An entry without its text is an item that says why; no entries, no collection; a
        // key's control characters are escaped.
        let json = r#"{"data": {"a\nb": {"problem": 5}, "c": {"problem": "x", "solution": [1]}}}"#;
        let got = items(&input(json)).unwrap();
        assert_eq!(got[0].name, "f#a\\nb");
        assert_eq!(got[0].broken.as_deref(), Some("its \"problem\" is no text"));
        assert_eq!(
            got[1].broken.as_deref(),
            Some("its \"solution\" is no text")
        );
        assert_eq!(items(&input(r#"{"data": {}}"#)), None);
    }

    #[test]
    fn a_collection_of_another_kind_is_refused_but_rows_of_digits_are_a_board() {
        let urls = "mashu/6/6/1063000i3000\nmashu/6/6/1063000i3000\n";
        let said = for_puzzle(&input(urls), "lits", &["lits"]).unwrap_err();
        assert_eq!(said, "f: a collection of mashu puzzles, not lits");
        assert_eq!(
            for_puzzle(&input(urls), "masyu", &["mashu"])
                .unwrap()
                .unwrap()
                .len(),
            2
        );
        let json = r#"{"name": "Masyu", "data": {"a": {"problem": "1 1\n-"}}}"#;
        assert!(for_puzzle(&input(json), "lits", &["lits"]).is_err());
        let rows = format!("{}\n{}\n", ".".repeat(81), "1".repeat(81));
        assert_eq!(for_puzzle(&input(&rows), "masyu", &["mashu"]), Ok(None));
        assert_eq!(
            for_puzzle(&input(&rows), "sudoku", &[])
                .unwrap()
                .unwrap()
                .len(),
            2
        );
        assert_eq!(
            for_puzzle(&input("1 2\nw b\n"), "masyu", &["mashu"]),
            Ok(None)
        );
    }
}
