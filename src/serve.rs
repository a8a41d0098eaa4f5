//! `serve`: the web page (web/dist, built by `web/build.sh`) on 127.0.0.1, for people who have
//! the CLI. Static files only: the page solves in the browser, so this serves the folder and
//! never runs a solver. Only files inside the folder are served (no `..`, no symlink out).

use anyhow::{anyhow, bail, Result};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::fs::File;
use std::time::{Duration, Instant};

/// Where the built page may be, in order: `--dir`, a `web` folder beside the binary (an
/// unpacked release), and the source tree's `web/dist` (a binary built in `target/`).
fn find_page(dir: Option<&Path>) -> Result<PathBuf> {
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(d) = dir {
        tried.push(d.to_path_buf());
    } else {
        if let Some(exe_dir) = std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)) {
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
            return d.canonicalize().map_err(|e| anyhow!("{}: {e}", d.display()));
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
/// hundred; past it the connection is closed, so no client can grow the server's memory.
const MAX_HEAD: usize = 16 << 10;
/// Connections served at once, each on its own thread (a slow reader holds up only itself).
const MAX_CONNECTIONS: usize = 64;
/// A client that sends or reads nothing for this long is dropped.
const IDLE: Duration = Duration::from_secs(30);
/// The whole request head must come within this, however it trickles in; and the whole
/// answer must be taken within [`SEND`]: no client holds a connection for long.
const HEAD_TIME: Duration = Duration::from_secs(10);
const SEND: Duration = Duration::from_secs(120);

/// Serves the page until the process is stopped. With `port` 0 the system picks a free port;
/// the address is printed either way (a test reads it). A plain HTTP/1.1 server on std's
/// sockets, one request per connection: a crate's server would buffer a client's headers
/// without a bound, and this one reads at most [`MAX_HEAD`] bytes of them.
pub fn serve(port: u16, dir: Option<&Path>) -> Result<()> {
    let root = Arc::new(find_page(dir)?);
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = listener.local_addr().map_or(port, |a| a.port());
    eprintln!("puzzle-sat: serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)", root.display());
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            // Too many at once: told so (a few bytes, which a new socket's buffer takes
            // without waiting), and closed.
            let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
            let _ = respond(&mut stream, "503 Service Unavailable", "text/plain", None, true);
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let (root, open) = (root.clone(), open.clone());
        std::thread::spawn(move || {
            // A client that went away loses its answer; the server goes on.
            let _ = answer(stream, &root);
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// Whether `head` holds a whole request head (a blank line ends it; bare line feeds too).
fn complete(head: &[u8]) -> bool {
    head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n")
}

/// Reads one request's head and answers it with the file it names, or an error status.
fn answer(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    let started = Instant::now();
    stream.set_write_timeout(Some(IDLE))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    while !complete(&head) {
        let left = HEAD_TIME.checked_sub(started.elapsed()).filter(|t| !t.is_zero());
        let Some(left) = left else { return Ok(()) };
        stream.set_read_timeout(Some(left.min(IDLE)))?;
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
        if head.len() > MAX_HEAD {
            return respond(&mut stream, "431 Request Header Fields Too Large", "text/plain", None, true);
        }
    }
    let line = head.split(|&b| b == b'\r' || b == b'\n').next().unwrap_or(&[]);
    let line = String::from_utf8_lossy(line);
    let mut words = line.split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let with_body = method == "GET";
    if !with_body && method != "HEAD" {
        return respond(&mut stream, "405 Method Not Allowed", "text/plain", None, true);
    }
    match resolve(root, target).and_then(|f| File::open(&f).ok().map(|h| (f, h))) {
        Some((file, handle)) => respond(&mut stream, "200 OK", content_type(&file), Some(handle), with_body),
        None => respond(&mut stream, "404 Not Found", "text/plain", None, with_body),
    }
}

/// Writes the status line, the headers and (`with_body`) the file, in pieces: a file is never
/// held whole in memory, and a client that takes it slower than [`SEND`] is dropped. Without a
/// file, the status itself is the body.
fn respond(stream: &mut TcpStream, status: &str, content_type: &str, file: Option<File>, with_body: bool) -> std::io::Result<()> {
    let started = Instant::now();
    let length = match &file {
        Some(f) => f.metadata()?.len(),
        None => status.len() as u64 + 1,
    };
    let head = format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n");
    stream.write_all(head.as_bytes())?;
    if !with_body {
        return stream.flush();
    }
    let Some(mut file) = file else {
        stream.write_all(format!("{status}\n").as_bytes())?;
        return stream.flush();
    };
    let mut buf = vec![0u8; 64 << 10];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return stream.flush();
        }
        if started.elapsed() > SEND {
            return Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client took too long"));
        }
        stream.write_all(&buf[..n])?;
    }
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
        assert_eq!(resolve(&root, "/?p=https://puzz.link/p?x"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/sub/a.js"), Some(root.join("sub/a.js")));
        assert_eq!(resolve(&root, "/sub/%61.js"), Some(root.join("sub/a.js")));
        for bad in ["/../etc/passwd", "/sub/../../x", "/%2e%2e/x", "/sub/%2E%2E/%2e%2e/x", "/%2e%2e%2fx", "/link", "/sub", "/missing.js", "/sub\\..\\x", "/%5c..%5cx", "/a%00", "/%zz", "/%c3"] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
    }
}
