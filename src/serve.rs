//! `serve`: the web page (web/dist, built by `web/build.sh`) on 127.0.0.1, for people who have
//! the CLI. Static files only: the page solves in the browser, so this serves the folder and
//! never runs a solver. Only files inside the folder are served (no `..`, no symlink out).

use anyhow::{anyhow, bail, Result};
use std::fs::File;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the built page may be, in order: `--dir`, a `web` folder beside the binary (an
/// unpacked release), and the source tree's `web/dist` (a binary built in `target/`).
fn find_page(dir: Option<&Path>) -> Result<PathBuf> {
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(d) = dir {
        tried.push(d.to_path_buf());
    } else {
        if let Some(exe_dir) = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            tried.push(exe_dir.join("web"));
            // target/release/puzzle-sat → the tree's web/dist.
            if let Some(root) = exe_dir.parent().and_then(Path::parent) {
                tried.push(root.join("web/dist"));
            }
        }
        tried.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist"));
    }
    for d in &tried {
        if d.join("index.html").is_file() && d.join("puzzle_sat_web_bg.wasm").is_file() {
            return d
                .canonicalize()
                .map_err(|e| anyhow!("{}: {e}", d.display()));
        }
    }
    let looked: Vec<String> = tried.iter().map(|d| d.display().to_string()).collect();
    bail!("no built web page (index.html and puzzle_sat_web_bg.wasm) in {}: build it with `bash web/build.sh`", looked.join(", "))
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// `%XX` escapes decoded; `None` for a malformed escape or bytes that are not UTF-8.
fn percent_decoded(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The file a request path names inside `root`, or `None` (outside it, or not a file).
fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
    let path = percent_decoded(url.split(['?', '#']).next().unwrap_or(""))?;
    let mut file = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part == ".." || part == "." || part.contains(['\\', '\0']) {
            return None;
        }
        file.push(part);
    }
    if path.ends_with('/') || path.is_empty() {
        file.push("index.html");
    }
    let real = file.canonicalize().ok()?;
    (real.starts_with(root) && real.is_file()).then_some(real)
}

/// The most bytes of a request's head (request line and headers) read: a browser's are a few
/// hundred, but the page's share links hold the puzzle in the address (a 300×300 board's tens
/// of kilobytes, a 1000×1000's up to a megabyte). Past it the connection is answered 431.
const MAX_HEAD: usize = 1 << 20;
/// The most bytes of request heads held at once past each one's first [`OWN_HEAD`], all
/// connections together: past it a head that grows beyond its own part is answered 431, so that
/// many clients sending large heads slowly cannot grow our memory past this either.
const HEADS: usize = 64 << 20;
/// The part of each head outside [`HEADS`]: an ordinary request, a few hundred bytes, is never
/// refused because others hold large heads.
const OWN_HEAD: usize = 16 << 10;
/// Connections held at once unless `--connections` says otherwise. An idle one costs a socket
/// and a small buffer, nothing more: all are served by one thread, in turn, as they are ready.
pub const CONNECTIONS: usize = 512;
/// A client that sends or takes nothing for this long is dropped.
const IDLE: Duration = Duration::from_secs(30);
/// The whole request head must come within this, however it trickles in; and the whole
/// answer must be taken within [`SEND`]: no client holds a connection for long.
const HEAD_TIME: Duration = Duration::from_secs(10);
const SEND: Duration = Duration::from_secs(120);
/// How long the system holds back a connection that has sent nothing (Linux, `TCP_DEFER_ACCEPT`):
/// one handed over silent connected about this long before, and is ranked by then.
#[cfg(target_os = "linux")]
const SILENCE: Duration = Duration::from_secs(1);
/// After its answer, a connection is read (and what comes thrown away) until the client closes
/// it, for at most this long: closed with unread bytes, a socket is reset, and the client may
/// lose the answer with it.
const LINGER: Duration = Duration::from_secs(2);
/// An answer whose client has taken nothing for this long may lose its place to a newcomer
/// when all are held: clients that ask and never read cannot lock others out either.
const STALLED: Duration = Duration::from_secs(5);
/// Bytes of a file sent at a time.
const CHUNK: usize = 32 << 10;

/// Serves the page until the process is stopped. With `port` 0 the system picks a free port;
/// the address is printed either way (a test reads it). A plain HTTP/1.1 server on std's
/// sockets, one request per connection, all connections on one thread (`poll`): a crate's
/// server would buffer a client's headers without a bound, and a thread per connection let 64
/// idle clients lock everyone else out. When `connections` are held, a new one takes the place
/// of the one waiting longest for its request (see [`Server::evict`]); only when none can give
/// way is the newcomer answered 503.
pub fn serve(port: u16, dir: Option<&Path>, connections: usize) -> Result<()> {
    let root = find_page(dir)?;
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    // A longer queue of connections not yet taken than std's 128 (the system caps it at its
    // `somaxconn`): past it the system drops a newcomer's SYN, and the client tries again only
    // a second later, so a burst of idle clients would delay ordinary ones by seconds.
    // SAFETY: a plain system call on a socket we own; on failure the queue stays as it was.
    unsafe { libc::listen(listener.as_raw_fd(), 4096) };
    // The system hands us a connection once its request has begun to come, or after a second of
    // silence ([`SILENCE`]). A connection we hold empty may give way to a newcomer (see
    // [`Server::evict`]); taken the moment it connected, a request whose client wrote a few
    // milliseconds late (a loaded machine) could be closed unanswered under a flood of idle
    // clients.
    #[cfg(target_os = "linux")]
    // SAFETY: a plain system call on a socket we own, reading one int; on failure connections
    // are taken as they connect, as elsewhere.
    let held_back = match unsafe {
        let seconds = SILENCE.as_secs() as libc::c_int;
        libc::setsockopt(
            listener.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_DEFER_ACCEPT,
            (&seconds as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    } {
        0 => SILENCE,
        _ => Duration::ZERO,
    };
    #[cfg(not(target_os = "linux"))]
    let held_back = Duration::ZERO;
    let port = listener.local_addr().map_or(port, |a| a.port());
    // Each held connection is a socket, and one being sent a file a descriptor more; refusals
    // may be as many again: three descriptors a place, so that neither `accept` nor a file's
    // `open` meets the limit (an `open` that did answered 404 for a file that is there).
    let connections = connections.min(open_files().saturating_sub(64) / 3).max(1);
    eprintln!(
        "puzzle-sat: serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)",
        root.display()
    );
    Server {
        root,
        listener,
        held: Vec::new(),
        most: connections,
        resting: None,
        held_back,
    }
    .run();
    Ok(())
}

/// Raises this process's soft limit on open files to its hard limit (at most 65,536) and
/// returns it: each connection is one.
fn open_files() -> usize {
    // SAFETY: plain system calls writing only into `limit`.
    unsafe {
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        let wanted = limit.rlim_max.min(65_536);
        if wanted > limit.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: wanted,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = wanted;
            }
        }
        limit.rlim_cur as usize
    }
}

struct Server {
    root: PathBuf,
    listener: TcpListener,
    held: Vec<Connection>,
    /// Connections held at once; refusals, answered 503, may take as many again.
    most: usize,
    /// Until when the listener is left alone after `accept` failed (out of descriptors): it
    /// stays readable, and polling it meanwhile would spin.
    resting: Option<Instant>,
    /// How long the system holds back a silent connection before handing it over (see
    /// [`SILENCE`]); zero where it does not.
    held_back: Duration,
}

struct Connection {
    stream: TcpStream,
    state: State,
    since: Instant,
    /// When a byte last came in or went out.
    active: Instant,
}

enum State {
    /// Reading the request head. A refused connection (the server full) is answered 503 once
    /// its head is in.
    Head { head: Vec<u8>, refused: bool },
    /// Writing `out[at..]`, then the rest of `file`.
    Send {
        out: Vec<u8>,
        at: usize,
        file: Option<File>,
    },
    /// Answered and shut for writing: reading until the client closes.
    Linger,
}

/// What one turn did with a connection.
enum Turn {
    Keep,
    Close,
}

impl Server {
    fn run(&mut self) {
        let mut polled: Vec<libc::pollfd> = Vec::new();
        loop {
            polled.clear();
            let now = Instant::now();
            let rests = self.resting.is_some_and(|until| now < until);
            polled.push(libc::pollfd {
                fd: self.listener.as_raw_fd(),
                events: if rests { 0 } else { libc::POLLIN },
                revents: 0,
            });
            for c in &self.held {
                let events = match c.state {
                    State::Send { .. } => libc::POLLOUT,
                    State::Head { .. } | State::Linger => libc::POLLIN,
                };
                polled.push(libc::pollfd {
                    fd: c.stream.as_raw_fd(),
                    events,
                    revents: 0,
                });
            }
            // A quarter second at most, so the time limits are kept without any traffic.
            // SAFETY: `polled` is a live array of as many pollfd as its length says.
            let n = unsafe {
                libc::poll(
                    polled.as_mut_ptr(),
                    polled.len() as libc::nfds_t,
                    if rests { 50 } else { 250 },
                )
            };
            if n < 0 {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            // Each ready connection in turn, then the timers; the listener last, so that a
            // place freed this turn is taken by the newcomer.
            let now = Instant::now();
            let mut room = self.room();
            let mut k = 0;
            self.held.retain_mut(|c| {
                k += 1;
                let ready = polled[k].revents != 0;
                let turn = if ready {
                    c.turn(&self.root, &mut room)
                } else {
                    Turn::Keep
                };
                matches!(turn, Turn::Keep) && !c.expired(now)
            });
            if polled[0].revents != 0 {
                self.accept();
            }
        }
    }

    fn accept(&mut self) {
        // A flood of connections is taken half the places at a time, with turns in between in
        // which those taken are read: a burst of newcomers would otherwise push out, before it
        // is read, a request that came among them.
        for _ in 0..(self.most / 2).max(1) {
            let stream = match self.listener.accept() {
                Ok((stream, _)) => stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                // A connection reset before it was taken: the next one.
                Err(e)
                    if e.kind() == std::io::ErrorKind::ConnectionAborted
                        || e.kind() == std::io::ErrorKind::Interrupted =>
                {
                    continue
                }
                // Out of descriptors: the listener rests a moment, or the loop would spin on it.
                Err(_) => {
                    self.resting = Some(Instant::now() + Duration::from_millis(100));
                    return;
                }
            };
            if stream.set_nonblocking(true).is_err() {
                continue;
            }
            // Places are counted without the refusals, which wait beside them: counted in, a
            // server whose answers all ended stayed full of refusals, and idle clients reopened
            // in time kept it refusing everyone with no place held.
            let refusals = self
                .held
                .iter()
                .filter(|c| matches!(c.state, State::Head { refused: true, .. }))
                .count();
            let refused = self.held.len() - refusals >= self.most && !self.evict(false);
            if refused && refusals >= self.most && !self.evict(true) {
                // Full of answers going out and of refusals being read: closed unanswered.
                continue;
            }
            let now = Instant::now();
            // A connection handed over with nothing to read was held back silent (or the
            // system's queue overflowed into SYN cookies, which are not held back): it is ranked
            // by when it connected, so that one that began its request after it is not pushed out
            // first, and its time limit counts from then.
            let silent = matches!(stream.peek(&mut [0u8]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
            let since = if silent {
                now.checked_sub(self.held_back).unwrap_or(now)
            } else {
                now
            };
            self.held.push(Connection {
                stream,
                state: State::Head {
                    head: Vec::new(),
                    refused,
                },
                since,
                active: now,
            });
        }
    }

    /// What is left of [`HEADS`].
    fn room(&self) -> usize {
        let held: usize = self
            .held
            .iter()
            .map(|c| {
                if let State::Head { head, .. } = &c.state {
                    head.len().saturating_sub(OWN_HEAD)
                } else {
                    0
                }
            })
            .sum();
        HEADS.saturating_sub(held)
    }

    /// Makes room by closing, first, a connection that is done but for lingering; else the one
    /// that has waited longest for its request (a client that connected and sent nothing, or
    /// trickles its request); else an answer that its client has taken nothing of for
    /// [`STALLED`], the longest stalled. With `refusals`, the oldest refusal still waiting for
    /// its request instead. A request that has come but is not read yet is read first, and that
    /// connection kept: closed with unread bytes, a socket is reset. `false` when none can go.
    fn evict(&mut self, refusals: bool) -> bool {
        // A few looks: each that finds a request come makes it an answer, and looks again.
        for _ in 0..8 {
            let now = Instant::now();
            let rank = |c: &Connection| match c.state {
                State::Head { refused, .. } if refused == refusals => Some((1, c.since)),
                _ if refusals => None,
                State::Linger => Some((0, c.active)),
                State::Send { .. } if now - c.active > STALLED => Some((2, c.active)),
                _ => None,
            };
            let Some((_, k)) = self
                .held
                .iter()
                .enumerate()
                .filter_map(|(k, c)| Some((rank(c)?, k)))
                .min()
            else {
                return false;
            };
            let mut room = self.room();
            let root = &self.root;
            let c = &mut self.held[k];
            if matches!(c.state, State::Head { .. }) {
                let before = c.active;
                if matches!(c.turn(root, &mut room), Turn::Keep) && c.active != before {
                    continue;
                }
            }
            self.held.swap_remove(k);
            return true;
        }
        false
    }
}

impl Connection {
    /// Whether a time limit ends it.
    fn expired(&self, now: Instant) -> bool {
        match self.state {
            State::Head { .. } => now - self.since > HEAD_TIME,
            State::Send { .. } => now - self.since > SEND || now - self.active > IDLE,
            State::Linger => now - self.active > LINGER,
        }
    }

    /// Does what the socket is ready for.
    fn turn(&mut self, root: &Path, room: &mut usize) -> Turn {
        match self.step(root, room) {
            Ok(turn) => turn,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::Interrupted =>
            {
                Turn::Keep
            }
            // A client that went away loses its answer; the server goes on.
            Err(_) => Turn::Close,
        }
    }

    fn step(&mut self, root: &Path, room: &mut usize) -> std::io::Result<Turn> {
        let mut buf = [0u8; 16 << 10];
        match &mut self.state {
            State::Head { head, refused } => {
                let n = self.stream.read(&mut buf)?;
                if n == 0 {
                    return Ok(Turn::Close);
                }
                self.active = Instant::now();
                // What of it falls past the head's own part draws on the shared room.
                let shared = (head.len() + n).saturating_sub(OWN_HEAD.max(head.len()));
                if head.len() + n > MAX_HEAD || shared > *room {
                    self.state = answer_with("431 Request Header Fields Too Large", true);
                    return Ok(Turn::Keep);
                }
                *room -= shared;
                let from = head.len();
                head.extend_from_slice(&buf[..n]);
                // Only what came may end the head: a long one is not scanned again each time.
                let done = complete(&head[from.saturating_sub(3)..]);
                if *refused && done {
                    self.state = answer_with("503 Service Unavailable", true);
                } else if done {
                    self.state = answer(head, root);
                }
                Ok(Turn::Keep)
            }
            State::Send { out, at, file } => {
                loop {
                    if *at == out.len() {
                        let n = match file {
                            Some(f) => {
                                out.resize(CHUNK, 0);
                                f.read(out)?
                            }
                            None => 0,
                        };
                        if n == 0 {
                            // All sent: the client's close is awaited, not forced.
                            self.stream.shutdown(std::net::Shutdown::Write)?;
                            self.state = State::Linger;
                            self.active = Instant::now();
                            return Ok(Turn::Keep);
                        }
                        out.truncate(n);
                        *at = 0;
                    }
                    let n = self.stream.write(&out[*at..])?;
                    *at += n;
                    self.active = Instant::now();
                }
            }
            State::Linger => match self.stream.read(&mut buf)? {
                0 => Ok(Turn::Close),
                _ => Ok(Turn::Keep),
            },
        }
    }
}

/// Whether `head` holds a whole request head (a blank line ends it; bare line feeds too).
fn complete(head: &[u8]) -> bool {
    head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n")
}

/// The answer to a whole request head: the file it names, or an error status.
fn answer(head: &[u8], root: &Path) -> State {
    let line = head
        .split(|&b| b == b'\r' || b == b'\n')
        .next()
        .unwrap_or(&[]);
    let line = String::from_utf8_lossy(line);
    let mut words = line.split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let with_body = method == "GET";
    if !with_body && method != "HEAD" {
        return answer_with("405 Method Not Allowed", true);
    }
    // Never a plain open: one thread serves everyone, and a FIFO put in the file's place after
    // `resolve` looked would hold it in `open` for good.
    let found = resolve(root, target).and_then(|f| {
        crate::input::open_regular(&f)
            .ok()
            .filter(|h| inside(h, root))
            .and_then(|h| Some((content_type(&f), h.metadata().ok()?.len(), h)))
    });
    match found {
        Some((kind, length, file)) => State::Send {
            out: header("200 OK", kind, length).into_bytes(),
            at: 0,
            file: with_body.then_some(file),
        },
        None => answer_with("404 Not Found", with_body),
    }
}

/// Whether the file opened is inside `root` still: `resolve` looked at the path, and a folder
/// on it swapped for a link meanwhile would lead the open elsewhere. Where there is no `/proc`
/// to ask, what `resolve` saw stands.
fn inside(file: &File, root: &Path) -> bool {
    match std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
        Ok(real) => real.starts_with(root),
        Err(_) => !Path::new("/proc/self/fd").exists(),
    }
}

/// An answer whose body is its status line (`with_body`).
fn answer_with(status: &str, with_body: bool) -> State {
    let mut out = header(status, "text/plain", status.len() as u64 + 1);
    if with_body {
        out += &format!("{status}\n");
    }
    State::Send {
        out: out.into_bytes(),
        at: 0,
        file: None,
    }
}

fn header(status: &str, content_type: &str, length: u64) -> String {
    format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("index.html"), "x").unwrap();
        std::fs::create_dir(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.js"), "y").unwrap();
        let outside = tempfile::NamedTempFile::new().unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/?p=https://puzz.link/p?x"),
            Some(root.join("index.html"))
        );
        assert_eq!(resolve(&root, "/sub/a.js"), Some(root.join("sub/a.js")));
        assert_eq!(resolve(&root, "/sub/%61.js"), Some(root.join("sub/a.js")));
        for bad in [
            "/../etc/passwd",
            "/sub/../../x",
            "/%2e%2e/x",
            "/sub/%2E%2E/%2e%2e/x",
            "/%2e%2e%2fx",
            "/link",
            "/sub",
            "/missing.js",
            "/sub\\..\\x",
            "/%5c..%5cx",
            "/a%00",
            "/%zz",
            "/%c3",
        ] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
    }
}
