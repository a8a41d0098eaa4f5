//! The layout docs/architecture.md describes: no module of either crate reaches, through
//! others, back to itself, and the driver's modules import only those before them in its list.
//! Read from the sources (`crate::` paths, comments skipped), test code included.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module's `crate::` references: a top-level module, or a genre's folder as
/// `genres::NAME`.
fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let Some(from) = module_of(root, &path) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for to in references(line) {
                    let to_genres = to == "genres" && from.starts_with("genres::");
                    if to != from && !to_genres {
                        edges.entry(from.clone()).or_default().insert(to);
                    }
                }
            }
        }
    }
    edges
}

fn module_of(root: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(root).unwrap();
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts.as_slice() {
        [one] if one == "lib" || one == "main" => None,
        [genres, name, ..] if genres == "genres" && name != "mod" => {
            Some(format!("genres::{name}"))
        }
        [first, ..] => Some(first.clone()),
        [] => None,
    }
}

/// The modules `crate::` paths in `line` name, `$crate::` in macros and `crate::{a, b}`
/// groups included.
fn references(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        let after = &rest[i + "crate::".len()..];
        rest = after;
        if before.is_some_and(|c| c == '_' || c.is_alphanumeric()) {
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    found.push(name);
                }
            }
            continue;
        }
        let name: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        if name == "genres" {
            let inner: String = after["genres::".len().min(after.len())..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if after.starts_with("genres::") && !inner.is_empty() {
                found.push(format!("genres::{inner}"));
                continue;
            }
        }
        found.push(name);
    }
    found
}

/// A cycle through `edges`, if there is one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut c = path[i..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

#[test]
fn the_compiler_has_no_module_cycle() {
    let edges = graph(Path::new("encodings/src"));
    // The graph is read, not empty: genres reach the core, and the core reaches the CNF.
    assert!(edges["genres::sudoku"].contains("puzzle"), "{edges:?}");
    assert!(edges["puzzle"].contains("cnf"), "{edges:?}");
    assert_eq!(cycle(&edges), None);
}

#[test]
fn the_driver_imports_only_modules_before_it() {
    const ORDER: &[&str] = &[
        "cleanup",
        "process",
        "input",
        "collection",
        "drat",
        "dimacs",
        "backends",
        "output",
        "runner",
        "formula",
        "certify",
        "cubes",
        "driver",
        "explain",
        "row",
        "registry",
        "shard",
        "run",
        "serve",
        "cli",
    ];
    let edges = graph(Path::new("src"));
    for (from, tos) in &edges {
        let at = ORDER.iter().position(|m| m == from);
        let at = at.unwrap_or_else(|| panic!("src/{from} is not in the list"));
        for to in tos {
            let before = ORDER[..at].contains(&to.as_str());
            assert!(before, "src/{from} imports {to}, which is not before it");
        }
    }
    assert_eq!(cycle(&edges), None);
}

#[test]
fn a_cycle_is_found() {
    let mut edges = BTreeMap::new();
    edges.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    edges.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    assert_eq!(cycle(&edges), None);
    edges.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(cycle(&edges).is_some());
    assert_eq!(
        references("use crate::genres::sudoku::Sudoku; $crate::x; my_crate::y; crate::cnf"),
        ["genres::sudoku", "x", "cnf"]
    );
    assert_eq!(
        references("use crate::{cnf::Lit, puzzle, self};"),
        ["cnf", "puzzle"]
    );
}
