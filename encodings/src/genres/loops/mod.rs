//! What the loop genres share (Slitherlink, Masyu): an answer is the set of edges one closed
//! loop takes on a grid of nodes (Slitherlink's cell corners, Masyu's cell centres); one
//! variable per edge; the loop rule itself (stated whole, or as degrees plus cuts in the
//! search); reading a model back, blocking answers, the backbone (`--hints`), the drawn text
//! form and reading it back (with puzzlekit's forms), the picture and the validator's loop
//! walk. A genre adds its clues' rules: see [`Loop`]. The rules for `explain` are in
//! [`named`].

pub mod named;

use crate::capability;
use crate::cnf::connect::{edges, loop_cuts, loop_degrees, one_loop, Graph};
use crate::cnf::{ClauseSink, Lit, Model};
use crate::format::error::{quoted, ParseError};
use crate::format::grid;
use crate::format::svg::{self, Font, Stroke, Svg};
use crate::format::url;
use crate::genres::shade::{forest_literals, Cells};
use crate::puzzle::{Format, Hints, Info, Puzzle, ReadAnswer, Settings};
use crate::solver::{NewSolver, SolverError};
use serde_json::{json, Map, Value};

mod repair;

/// An answer: for each edge of [`Net::edges`], `Some(true)` on the loop; `None` only in hints,
/// for an edge that differs between answers.
pub type Lines = Vec<Option<bool>>;

/// The four ways out of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// puzzlekit's letter for it (north, south, west, east).
    fn letter(self) -> char {
        match self {
            Dir::Up => 'n',
            Dir::Down => 's',
            Dir::Left => 'w',
            Dir::Right => 'e',
        }
    }
}

/// The grid of `rows × cols` nodes a loop runs on, and its edges in [`edges`]' order.
#[derive(Clone, Debug)]
pub struct Net {
    pub rows: usize,
    pub cols: usize,
    pub graph: Graph,
    pub edges: Vec<(usize, usize)>,
    right: Vec<Option<usize>>,
    down: Vec<Option<usize>>,
}

impl Net {
    pub fn new(rows: usize, cols: usize) -> Net {
        let graph = Graph::grid(rows, cols);
        let edges = edges(&graph);
        let (mut right, mut down) = (vec![None; rows * cols], vec![None; rows * cols]);
        for (k, &(u, v)) in edges.iter().enumerate() {
            if v == u + 1 && u / cols == v / cols {
                right[u] = Some(k);
            } else {
                down[u] = Some(k);
            }
        }
        Net {
            rows,
            cols,
            graph,
            edges,
            right,
            down,
        }
    }

    /// The edge from node `v` in direction `d`, if the grid has one.
    pub fn toward(&self, v: usize, d: Dir) -> Option<usize> {
        let (r, c) = (v / self.cols, v % self.cols);
        match d {
            Dir::Right => self.right[v],
            Dir::Down => self.down[v],
            Dir::Left => (c > 0).then(|| self.right[v - 1]).flatten(),
            Dir::Up => (r > 0).then(|| self.down[v - self.cols]).flatten(),
        }
    }

    /// The node one step from `v` in direction `d`.
    pub fn step(&self, v: usize, d: Dir) -> Option<usize> {
        self.toward(v, d).map(|k| {
            let (a, b) = self.edges[k];
            if a == v {
                b
            } else {
                a
            }
        })
    }

    /// Node `v` as "row R column C" (1-based), or as a corner of cells.
    fn node_name(&self, v: usize, corners: bool) -> String {
        let (r, c) = (v / self.cols, v % self.cols);
        if corners {
            format!("the corner at row {} column {} of corners", r + 1, c + 1)
        } else {
            format!("row {} column {}", r + 1, c + 1)
        }
    }
}

/// The variables: `lines.lits[k]` true when edge k is on the loop, and `on[v]` when node v is.
pub struct Encoding {
    pub net: Net,
    pub lines: Cells,
    pub on: Vec<Lit>,
}

impl Encoding {
    /// Edge k's literal.
    pub fn lit(&self, k: usize) -> Lit {
        self.lines.lits[k]
    }

    /// The literal of the edge from `v` toward `d`, `None` off the grid (never on the loop).
    pub fn toward(&self, v: usize, d: Dir) -> Option<Lit> {
        self.net.toward(v, d).map(|k| self.lit(k))
    }
}

/// A broken rule: what it says, and the cells and edges it names for the picture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Broken {
    pub says: String,
    pub cells: Vec<usize>,
    pub edges: Vec<usize>,
}

/// A loop genre's own part: its clues' rules, its validator, its file and URL forms. [`Looped`]
/// makes it a puzzle.
pub trait Loop: Sized + Send + Sync + 'static {
    const INFO: Info;
    /// The pzprjs names of the URLs it reads.
    const KINDS: &'static [&'static str];
    /// Whether the loop runs along the cells' sides through their corners (Slitherlink) rather
    /// than through their centres (Masyu).
    const ON_CORNERS: bool;

    type Board: Clone + Send + Sync + 'static;

    fn parse(text: &str) -> Result<Self::Board, ParseError>;

    /// The board's cells: rows and columns.
    fn size(board: &Self::Board) -> (usize, usize);

    /// Cell i's clue as written in files and drawings (one character).
    fn clue(board: &Self::Board, i: usize) -> Option<char>;

    /// The clues' rules over `enc`'s edges (the loop's own rules are stated already).
    fn encode<S: ClauseSink>(board: &Self::Board, sink: &mut S, enc: &Encoding);

    /// The clues' rules for `explain`, each a named instance (begun with
    /// [`crate::explain::Rules::rule`]) over `enc`'s edges, auxiliaries its own; a rule's places
    /// as [`named`] counts them.
    fn clue_rules(board: &Self::Board, rules: &mut crate::explain::Rules, enc: &Encoding);

    /// The independent validator of the clues' rules, on chosen edges whose every node has
    /// two or none (the loop's own rules are checked around it).
    fn check(board: &Self::Board, net: &Net, chosen: &[bool]) -> Result<(), Broken>;

    fn from_url(link: &url::Link) -> Result<String, ParseError>;

    fn to_url(board: &Self::Board) -> Result<String, String>;
}

/// A loop genre as a puzzle: see [`Loop`].
pub struct Looped<G>(std::marker::PhantomData<G>);

fn net_of<G: Loop>(board: &G::Board) -> Net {
    let (rows, cols) = G::size(board);
    if G::ON_CORNERS {
        Net::new(rows + 1, cols + 1)
    } else {
        Net::new(rows, cols)
    }
}

fn encode_with<G: Loop, S: ClauseSink>(board: &G::Board, sink: &mut S, lazy: bool) -> Encoding {
    let net = net_of::<G>(board);
    let lits = net
        .edges
        .iter()
        .map(|&(u, v)| {
            let name = |w: usize| format!("r{}c{}", w / net.cols + 1, w % net.cols + 1);
            sink.new_named_var(&|| format!("line {}-{}", name(u), name(v)))
        })
        .collect();
    let lines = Cells { lits };
    let on = if lazy {
        let on = loop_degrees(sink, &net.graph, &lines.lits);
        sink.add_clause(&lines.lits);
        on
    } else {
        one_loop(sink, &net.graph, &lines.lits)
    };
    let enc = Encoding { net, lines, on };
    G::encode(board, sink, &enc);
    enc
}

/// The validator: every edge decided, two edges or none at each node, the clues' rules, one
/// loop (walked along its edges, sharing nothing with the encoders).
fn check_any<G: Loop>(board: &G::Board, lines: &Lines) -> Result<(), Broken> {
    let net = net_of::<G>(board);
    if let Some(k) = lines.iter().position(Option::is_none) {
        return Err(Broken {
            says: "an edge is neither on the loop nor off it".into(),
            edges: vec![k],
            ..Broken::default()
        });
    }
    let chosen: Vec<bool> = lines.iter().map(|l| *l == Some(true)).collect();
    let mut at = vec![Vec::new(); net.graph.len()];
    for (k, &(u, v)) in net.edges.iter().enumerate().filter(|(k, _)| chosen[*k]) {
        at[u].push(k);
        at[v].push(k);
    }
    if let Some(v) = at.iter().position(|a| a.len() == 1 || a.len() > 2) {
        let says = if at[v].len() == 1 {
            "the line ends at"
        } else {
            "the line branches at"
        };
        return Err(Broken {
            says: format!("{says} {}", net.node_name(v, G::ON_CORNERS)),
            edges: at[v].clone(),
            ..Broken::default()
        });
    }
    let total = chosen.iter().filter(|&&c| c).count();
    if total == 0 {
        return Err(Broken {
            says: "there is no loop".into(),
            ..Broken::default()
        });
    }
    G::check(board, &net, &chosen)?;
    // Walk the loop from its first edge; it must take every chosen edge.
    let first = chosen.iter().position(|&c| c).expect("an edge");
    let (start, mut node) = net.edges[first];
    let (mut came, mut walked) = (first, vec![first]);
    while node != start {
        let next = at[node]
            .iter()
            .copied()
            .find(|&k| k != came)
            .expect("two edges");
        let (a, b) = net.edges[next];
        node = if a == node { b } else { a };
        came = next;
        walked.push(next);
    }
    if walked.len() < total {
        let mut other = chosen.clone();
        walked.iter().for_each(|&k| other[k] = false);
        let smaller = if walked.len() * 2 <= total {
            walked
        } else {
            (0..chosen.len()).filter(|&k| other[k]).collect()
        };
        return Err(Broken {
            says: format!(
                "the line is more than one loop: one of {} edges is apart from the rest",
                smaller.len()
            ),
            edges: smaller,
            ..Broken::default()
        });
    }
    Ok(())
}

/// The drawing's character for node v and for face f (the square between four nodes).
fn node_char<G: Loop>(board: &G::Board, v: usize) -> char {
    if G::ON_CORNERS {
        '+'
    } else {
        G::clue(board, v).unwrap_or('.')
    }
}

fn face_char<G: Loop>(board: &G::Board, net: &Net, r: usize, c: usize) -> char {
    if G::ON_CORNERS {
        G::clue(board, r * (net.cols - 1) + c).unwrap_or(' ')
    } else {
        ' '
    }
}

/// The text form: nodes (`+` for corners, a pearl or `.` for a cell), `-` and `|` for the
/// loop's edges, blank for edges off it, `?` for undecided ones (hints), clues in the faces.
/// Lines carry no trailing blanks.
pub fn render<G: Loop>(board: &G::Board, lines: &Lines) -> String {
    let net = net_of::<G>(board);
    let mut out = String::new();
    for y in 0..2 * net.rows - 1 {
        let mut line = String::new();
        for x in 0..2 * net.cols - 1 {
            let (r, c) = (y / 2, x / 2);
            let v = r * net.cols + c;
            let edge = |d: Dir, drawn: char| match net.toward(v, d).map(|k| lines[k]) {
                Some(Some(true)) => drawn,
                Some(None) => '?',
                _ => ' ',
            };
            line.push(match (y % 2, x % 2) {
                (0, 0) => node_char::<G>(board, v),
                (0, _) => edge(Dir::Right, '-'),
                (_, 0) => edge(Dir::Down, '|'),
                _ => face_char::<G>(board, &net, r, c),
            });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Reads an answer: the drawing [`render`] writes (trailing blanks may be missing; verdict
/// lines after it are passed over), or puzzlekit's forms: Slitherlink's cells inside (`x`) or
/// outside (`-`) the loop, Masyu's directions out of each cell (`ns`, `se`, …, `-`), both
/// after an optional size line.
pub fn read<G: Loop>(board: &G::Board, text: &str) -> Result<Lines, ParseError> {
    let net = net_of::<G>(board);
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (lines, filled) = crate::genres::digits::answer_lines(text);
    let Some(&(first, line)) = filled.first() else {
        return Err(ParseError::new(1, 1, "no answer: expected the loop drawn"));
    };
    let (rows, cols) = G::size(board);
    let words: Vec<&str> = line.split_whitespace().collect();
    let sized = words == [rows.to_string(), cols.to_string()];
    let drawn = !sized
        && if G::ON_CORNERS {
            line.trim_start().starts_with('+')
        } else {
            !(words.len() == cols && words.iter().all(|w| direction(w).is_some()))
        };
    if drawn {
        return read_drawing::<G>(board, &net, &lines, first);
    }
    let body = lines[first + usize::from(sized)..].join("\n");
    let at = first + usize::from(sized);
    let shift = |e: ParseError| ParseError::new(e.line + at, e.col, e.message);
    if G::ON_CORNERS {
        let inside = grid::read_rows(&body, cols > 1, |_, w| match w {
            "x" | "X" | "#" => Ok(true),
            "-" | "." => Ok(false),
            w => Err(format!(
                "unexpected {}: expected x (inside the loop) or - (outside)",
                quoted(w)
            )),
        })
        .map_err(shift)?;
        same_size(inside.rows, inside.cols, rows, cols)?;
        let cell = |r: Option<usize>, c: Option<usize>| match (r, c) {
            (Some(r), Some(c)) if r < rows && c < cols => inside.cells[r * cols + c],
            _ => false,
        };
        // Each edge between the two cells beside it (off the board: outside).
        Ok((0..net.edges.len())
            .map(|k| {
                let u = net.edges[k].0;
                let (r, c) = (u / net.cols, u % net.cols);
                let (a, b) = if net.right[u] == Some(k) {
                    (cell(r.checked_sub(1), Some(c)), cell(Some(r), Some(c)))
                } else {
                    (cell(Some(r), c.checked_sub(1)), cell(Some(r), Some(c)))
                };
                Some(a != b)
            })
            .collect())
    } else {
        let dirs = grid::read_rows(&body, false, |_, w| {
            direction(w).ok_or_else(|| {
                format!(
                    "unexpected {}: expected the loop's two directions out of the cell (ns, ew, \
                     ne, nw, se, sw) or - for none",
                    quoted(w)
                )
            })
        })
        .map_err(shift)?;
        same_size(dirs.rows, dirs.cols, rows, cols)?;
        let mut lines = vec![Some(false); net.edges.len()];
        for (v, out) in dirs.cells.iter().enumerate() {
            for &d in out {
                let Some(k) = net.toward(v, d) else {
                    return Err(ParseError::new(
                        at + v / cols + 1,
                        1,
                        format!(
                            "row {} column {}: the loop leaves the board",
                            v / cols + 1,
                            v % cols + 1
                        ),
                    ));
                };
                lines[k] = Some(true);
            }
        }
        // Each edge is named from both ends: an edge one end names and the other does not is
        // a line that stops.
        for (k, &(u, v)) in net.edges.iter().enumerate() {
            let named = |w: usize| dirs.cells[w].iter().any(|&d| net.toward(w, d) == Some(k));
            if named(u) != named(v) {
                return Err(ParseError::new(
                    at + u / cols + 1,
                    1,
                    format!(
                        "row {} column {} and row {} column {} disagree about the line between \
                         them",
                        u / cols + 1,
                        u % cols + 1,
                        v / cols + 1,
                        v % cols + 1
                    ),
                ));
            }
        }
        Ok(lines)
    }
}

fn same_size(
    rows: usize,
    cols: usize,
    want_rows: usize,
    want_cols: usize,
) -> Result<(), ParseError> {
    if (rows, cols) != (want_rows, want_cols) {
        return Err(ParseError::new(
            1,
            1,
            format!(
                "the answer is {rows} rows of {cols}; the puzzle is {want_rows} rows of {want_cols}"
            ),
        ));
    }
    Ok(())
}

/// A puzzlekit Masyu word: the directions the loop leaves a cell by (two letters of n, s, e,
/// w, in either order), or none (`-`).
fn direction(w: &str) -> Option<Vec<Dir>> {
    if w == "-" {
        return Some(Vec::new());
    }
    let dirs: Vec<Dir> = w
        .chars()
        .map(|ch| Dir::ALL.into_iter().find(|d| d.letter() == ch))
        .collect::<Option<_>>()?;
    (dirs.len() == 2 && dirs[0] != dirs[1]).then_some(dirs)
}

fn read_drawing<G: Loop>(
    board: &G::Board,
    net: &Net,
    lines: &[&str],
    first: usize,
) -> Result<Lines, ParseError> {
    let (tall, wide) = (2 * net.rows - 1, 2 * net.cols - 1);
    if lines.len() < first + tall {
        return Err(ParseError::new(
            lines.len().max(1),
            1,
            format!(
                "the drawing has {} lines; a loop on this board is drawn in {tall}",
                lines.len() - first
            ),
        ));
    }
    // Verdict lines after the drawing were passed over already: anything else there is more
    // drawing than the board has.
    if let Some(extra) = (first + tall..lines.len()).find(|&i| !lines[i].trim().is_empty()) {
        return Err(ParseError::new(
            extra + 1,
            1,
            format!("a loop on this board is drawn in {tall} lines; this is one more"),
        ));
    }
    let mut out = vec![Some(false); net.edges.len()];
    for (y, line) in lines[first..first + tall].iter().enumerate() {
        let chars: Vec<char> = line.trim_end().chars().collect();
        let at = |x: usize| ParseError::new(first + y + 1, x + 1, String::new());
        if chars.len() > wide {
            let mut e = at(wide);
            e.message = format!(
                "{} characters; a loop on this board is drawn {wide} wide",
                chars.len()
            );
            return Err(e);
        }
        for x in 0..wide {
            let ch = chars.get(x).copied().unwrap_or(' ');
            let v = (y / 2) * net.cols + x / 2;
            let (want, on, what): (char, char, Option<Dir>) = match (y % 2, x % 2) {
                (0, 0) => (node_char::<G>(board, v), '\0', None),
                (0, _) => (' ', '-', Some(Dir::Right)),
                (_, 0) => (' ', '|', Some(Dir::Down)),
                _ => (face_char::<G>(board, net, y / 2, x / 2), '\0', None),
            };
            match what {
                Some(d) => {
                    let k = net.toward(v, d).expect("inside the drawing");
                    if ch == on {
                        out[k] = Some(true);
                    } else if ch != ' ' && ch != 'x' && ch != '·' {
                        let mut e = at(x);
                        e.message = format!(
                            "unexpected {}: expected {on} (the loop) or a blank",
                            quoted(&ch.to_string())
                        );
                        return Err(e);
                    }
                }
                // Where a face or node holds nothing, a dot is as good as a blank.
                None if ch == want || (want == ' ' && ch == '.') || (want == '.' && ch == ' ') => {}
                None if x >= chars.len() => {
                    let mut e = at(chars.len());
                    e.message = format!(
                        "the line stops before column {}, where the drawing has {}",
                        x + 1,
                        quoted(&want.to_string())
                    );
                    return Err(e);
                }
                None => {
                    let mut e = at(x);
                    e.message = format!(
                        "unexpected {}: the drawing has {} here",
                        quoted(&ch.to_string()),
                        quoted(&want.to_string())
                    );
                    return Err(e);
                }
            }
        }
    }
    Ok(out)
}

const CELL: f64 = svg::MAX_CELL;
const EDGE: f64 = 6.0;
const LOOP: Stroke = Stroke::solid("#06c", 4.0);
const UNDECIDED: Stroke = Stroke::solid("#ccc", 4.0);
const DIFFERS: Stroke = Stroke::solid("#d00", 4.0);

/// One board: the cell grid faint, clues (Slitherlink's numbers, Masyu's pearls), the loop's
/// edges, undecided edges (hints) light grey, and `marked` edges red.
fn panel<G: Loop>(board: &G::Board, lines: Option<&Lines>, marked: &[bool], cell: f64) -> Svg {
    let (rows, cols) = G::size(board);
    let net = net_of::<G>(board);
    let mut s = Svg::new(
        cols as f64 * cell + 2.0 * EDGE,
        rows as f64 * cell + 2.0 * EDGE,
    );
    let faint = Stroke {
        dash: G::ON_CORNERS.then_some("2 4"),
        ..Stroke::solid("#bbb", 1.0)
    };
    s.grid_lines(EDGE, EDGE, rows, cols, cell, |_, _, _| Some(faint));
    let offset = if G::ON_CORNERS { 0.0 } else { cell / 2.0 };
    let point = |v: usize| {
        (
            EDGE + offset + (v % net.cols) as f64 * cell,
            EDGE + offset + (v / net.cols) as f64 * cell,
        )
    };
    s.open_group("clue");
    for i in 0..rows * cols {
        let Some(clue) = G::clue(board, i) else {
            continue;
        };
        let (x, y) = (
            EDGE + ((i % cols) as f64 + 0.5) * cell,
            EDGE + ((i / cols) as f64 + 0.5) * cell,
        );
        match (G::ON_CORNERS, clue) {
            (false, 'b') => s.circle(x, y, cell * 0.36, "#000"),
            (false, 'w') => {
                s.circle(x, y, cell * 0.36, "#000");
                s.circle(x, y, cell * 0.36 - 2.0, "#fff");
            }
            _ => s.text(x, y, &clue.to_string(), Font::centred(cell * 0.6)),
        }
    }
    s.close_group();
    if let Some(lines) = lines {
        s.open_group("loop");
        for (k, &(u, v)) in net.edges.iter().enumerate() {
            let stroke = match lines[k] {
                _ if marked.get(k) == Some(&true) => DIFFERS,
                Some(true) => LOOP,
                None => UNDECIDED,
                Some(false) => continue,
            };
            let ((x1, y1), (x2, y2)) = (point(u), point(v));
            s.line(x1, y1, x2, y2, stroke);
        }
        s.close_group();
    }
    if G::ON_CORNERS {
        s.open_group("corner");
        for v in 0..net.graph.len() {
            let (x, y) = point(v);
            s.circle(x, y, 2.0, "#000");
        }
        s.close_group();
    }
    s
}

impl<G: Loop> Puzzle for Looped<G> {
    const INFO: Info = G::INFO;

    type Instance = G::Board;
    type Answer = Lines;
    type Checked = ();
    type Encoding = Encoding;

    fn parse(text: &str, _: &Settings) -> Result<G::Board, ParseError> {
        G::parse(text)
    }

    fn encode<S: ClauseSink>(board: &G::Board, sink: &mut S) -> Encoding {
        encode_with::<G, S>(board, sink, false)
    }

    fn decode(_: &G::Board, enc: &Encoding, model: &Model) -> Lines {
        enc.lines.decode(model)
    }

    fn check(board: &G::Board, answer: &Lines) -> Result<(), String> {
        check_any::<G>(board, answer).map_err(|b| b.says)
    }

    fn read_answer(
        board: &G::Board,
        text: &str,
    ) -> Result<Result<ReadAnswer<Self>, String>, ParseError> {
        Ok(Ok(ReadAnswer {
            answer: read::<G>(board, text)?,
            complete: true,
            claimed: None,
        }))
    }

    fn block<S: ClauseSink>(_: &G::Board, enc: &Encoding, sink: &mut S, answers: &[Lines]) {
        enc.lines.block(sink, answers);
    }

    fn render(board: &G::Board, answer: &Lines, _: &(), _: Format) -> String {
        render::<G>(board, answer)
    }

    fn svg(board: &G::Board, answers: &[(&Lines, &())], caption: &str) -> String {
        let (rows, cols) = G::size(board);
        let answers: Vec<&Lines> = answers.iter().map(|a| a.0).collect();
        let cell = svg::cell_size(rows, cols, answers.len().min(2)).min(CELL);
        let differ = |a: &&Lines, b: &&Lines| a.iter().zip(b.iter()).map(|(x, y)| x != y).collect();
        svg::compose(
            &svg::panels(&answers, differ, |answer, marked| {
                panel::<G>(board, answer.copied(), marked, cell)
            }),
            caption,
        )
    }

    fn answer_json(board: &G::Board, answer: &Lines, _: &()) -> Map<String, Value> {
        let drawn: Vec<String> = render::<G>(board, answer)
            .lines()
            .map(String::from)
            .collect();
        Map::from_iter([("loop".to_string(), json!(drawn))])
    }
}

impl<G: Loop> capability::Urls for Looped<G> {
    const KINDS: &'static [&'static str] = G::KINDS;

    /// The genre's code, on boards no larger than a file may be.
    fn from_url(link: &url::Link) -> Result<String, ParseError> {
        grid::fits_url(link)?;
        G::from_url(link)
    }

    fn to_url(board: &G::Board) -> Result<String, String> {
        G::to_url(board)
    }
}

/// The cuts' clauses: each node's "on the loop", then the edges (the subdivided graph's
/// vertices).
fn cuts_of(enc: &Encoding, chosen: &[bool]) -> Vec<Vec<Lit>> {
    let active: Vec<Lit> = enc.on.iter().chain(&enc.lines.lits).copied().collect();
    loop_cuts(&enc.net.graph, chosen)
        .iter()
        .map(|cut| cut.clause(&active))
        .collect()
}

impl<G: Loop> capability::Cuts for Looped<G> {
    fn encode_lazy<S: ClauseSink>(board: &G::Board, sink: &mut S) -> Encoding {
        encode_with::<G, S>(board, sink, true)
    }

    fn cuts(_: &G::Board, enc: &Encoding, answer: &Lines) -> Vec<Vec<Lit>> {
        let chosen: Vec<bool> = answer.iter().map(|l| *l == Some(true)).collect();
        cuts_of(enc, &chosen)
    }

    /// The loops made one ([`repair`]), if the validator accepts it.
    fn repair(board: &G::Board, enc: &Encoding, answer: &Lines) -> Option<Lines> {
        let chosen: Vec<bool> = answer.iter().map(|l| *l == Some(true)).collect();
        repaired::<G>(board, &enc.net, &chosen)
    }

    /// Degrees and clues: a few clauses an edge, node and clue, counted in a moment at any size.
    fn estimate_lazy(board: &G::Board) -> Option<u64> {
        let mut count = crate::cnf::SizeCounter::default();
        encode_with::<G, _>(board, &mut count, true);
        Some(count.literals)
    }
}

/// The loop rule as cuts, and a model of several loops made one where the validator agrees
/// ([`repair`]): an answer the backbone reads without another call.
struct Repaired<'a, G: Loop> {
    board: &'a G::Board,
    enc: &'a Encoding,
    /// The last model's edges.
    chosen: Vec<bool>,
}

impl<G: Loop> crate::search::Lazy for Repaired<'_, G> {
    fn cuts(&mut self, model: &Model) -> Vec<Vec<Lit>> {
        self.chosen = self
            .enc
            .lines
            .lits
            .iter()
            .map(|&l| model.value(l))
            .collect();
        cuts_of(self.enc, &self.chosen)
    }

    fn answer(&mut self, model: &Model) -> Option<Model> {
        let lines = repaired::<G>(self.board, &self.enc.net, &self.chosen)?;
        let lits = self.enc.lines.lits.iter().zip(&lines);
        Some(Model::from_lits(
            model.num_vars(),
            lits.map(|(&l, &x)| if x == Some(true) { l } else { !l }),
        ))
    }
}

/// Edges of several loops made one ([`repair::one_loop`]), if the validator accepts it.
fn repaired<G: Loop>(board: &G::Board, net: &Net, chosen: &[bool]) -> Option<Lines> {
    let lines: Lines = repair::one_loop(net, chosen)?
        .into_iter()
        .map(Some)
        .collect();
    check_any::<G>(board, &lines).ok()?;
    Some(lines)
}

impl<G: Loop> capability::Backbone for Looped<G> {
    /// The edges alike in every answer, `found` being one: on the searches' formula, with the
    /// cuts.
    fn hints(
        board: &G::Board,
        found: &(Lines, ()),
        solvers: &dyn NewSolver,
    ) -> Result<Option<Hints<Lines>>, SolverError> {
        let build = || {
            let mut solver = solvers.new_solver();
            let enc = encode_with::<G, _>(board, &mut crate::search::Sink(&mut *solver), true);
            (solver, enc)
        };
        let (mut solver, enc) = build();
        let cuts = Repaired::<G> {
            board,
            enc: &enc,
            chosen: Vec::new(),
        };
        let Some((partial, decided)) =
            enc.lines
                .fixed(&mut *solver, &|| build().0, solvers.team(), &found.0, cuts)?
        else {
            return Ok(None);
        };
        let drawn = render::<G>(board, &partial);
        Ok(Some(Hints {
            json: json!(drawn.lines().collect::<Vec<_>>()),
            drawn,
            decided,
            of: partial.len(),
            unit: "edges",
            partial,
        }))
    }
}

impl<G: Loop> capability::Marks for Looped<G> {
    /// The answer as far as it reads, the first broken rule's cells outlined and edges red.
    fn svg_broken(board: &G::Board, text: &str, caption: &str) -> String {
        let (rows, cols) = G::size(board);
        let answer = read::<G>(board, text).ok();
        let broken = answer
            .as_ref()
            .and_then(|a| check_any::<G>(board, a).err())
            .unwrap_or_default();
        let mut marked = vec![false; net_of::<G>(board).edges.len()];
        broken.edges.iter().for_each(|&k| marked[k] = true);
        let cell = svg::cell_size(rows, cols, 1).min(CELL);
        let mut s = panel::<G>(board, answer.as_ref(), &marked, cell);
        svg::mark_broken(&mut s, EDGE, EDGE, cols, cell, &broken.cells);
        svg::compose(&[s], caption)
    }
}

impl<G: Loop> capability::Estimate for Looped<G> {
    /// The spanning forest's cheap bound over the nodes, then the formula counted exactly.
    fn estimate(board: &G::Board, limit: u64) -> u64 {
        let forest = 2 * forest_literals(net_of::<G>(board).graph.len());
        if forest > limit {
            return forest;
        }
        let mut count = crate::cnf::SizeCounter::default();
        <Self as Puzzle>::encode(board, &mut count);
        count.literals
    }
}
