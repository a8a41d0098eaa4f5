//! `serve` under clients that hold connections: idle ones that send nothing, and slow ones that
//! take nothing. Ordinary requests are still answered, and a server full of answers being sent
//! says 503 in a whole answer, not by resetting the connection.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A page folder `serve` accepts (it wants index.html and the wasm file), with a large file
/// that a client which reads nothing cannot be sent whole.
fn page(dir: &Path) {
    std::fs::write(dir.join("index.html"), "<p>the page</p>\n").unwrap();
    std::fs::write(dir.join("puzzle_sat_web_bg.wasm"), b"\0asm").unwrap();
    std::fs::File::create(dir.join("large.bin"))
        .unwrap()
        .set_len(256 << 20)
        .unwrap();
}

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, connections: usize) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puzzle-sat"))
        .args([
            "serve",
            "--port",
            "0",
            "--connections",
            &connections.to_string(),
            "--dir",
        ])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The address is the first line on stderr.
    let mut said = Vec::new();
    let mut byte = [0u8];
    let stderr = child.stderr.as_mut().unwrap();
    while stderr.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        said.push(byte[0]);
    }
    let said = String::from_utf8(said).unwrap();
    let port = said
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok());
    Server {
        child,
        port: port.unwrap_or_else(|| panic!("no address in {said:?}")),
    }
}

/// A whole GET of `path`: the answer's bytes, or the error that ended the read.
fn get(port: u16, path: &str) -> std::io::Result<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    finish(
        &mut s,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
    )
}

/// Sends `rest` of a request on `s` and reads the whole answer, or the error that ended it.
fn finish(s: &mut TcpStream, rest: &[u8]) -> std::io::Result<String> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    s.write_all(rest)?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer)?;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}

/// `n` clients that ask for the large file and read nothing of it.
fn slow_readers(port: u16, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
            s.write_all(b"GET /large.bin HTTP/1.1\r\n\r\n").unwrap();
            s
        })
        .collect()
}

/// `n` clients that connect and send nothing.
fn idle(port: u16, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect()
}

/// 200 idle connections, all closed and opened again every 1.5 s (past the second the system
/// keeps a silent connection from the server), against a server that holds 64: the idle ones
/// fill its places and push each other out, and every ordinary request is answered, each within
/// 5 s. (With a thread per connection and 64 places, 64 idle clients that reopened every 9.5 s
/// let none of 60 requests through in 30 s; taken as they connected, a request written a few
/// milliseconds after its connection, on a loaded machine, was now and then closed unanswered.)
#[test]
fn idle_connections_lock_nobody_out() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 64);
    let port = server.port;
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (ready, held) = std::sync::mpsc::channel();
    let holder = std::thread::spawn({
        let done = done.clone();
        move || {
            let (mut rounds, mut pushed_out) = (0, 0);
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let idle: Vec<TcpStream> = (0..200)
                    .filter_map(|_| TcpStream::connect(("127.0.0.1", port)).ok())
                    .collect();
                let _ = ready.send(idle.len());
                rounds += 1;
                std::thread::sleep(Duration::from_millis(1500));
                // Closed by the server: the connection was taken, and gave way to a newer one.
                pushed_out += idle
                    .iter()
                    .filter(|s| {
                        let mut s: &TcpStream = s;
                        s.set_nonblocking(true).unwrap();
                        !matches!(s.read(&mut [0u8]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
                    })
                    .count();
            }
            (rounds, pushed_out)
        }
    });
    assert_eq!(held.recv().unwrap(), 200, "the idle clients are connected");
    for k in 0..60 {
        let started = Instant::now();
        let answer = get(port, "/").unwrap_or_else(|e| panic!("request {k}: {e}"));
        assert!(
            answer.starts_with("HTTP/1.1 200 OK") && answer.ends_with("<p>the page</p>\n"),
            "request {k}: {answer:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "request {k} took {:?}",
            started.elapsed()
        );
        // The requests span several rounds of reopened connections.
        std::thread::sleep(Duration::from_millis(100));
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let (rounds, pushed_out) = holder.join().unwrap();
    assert!(rounds >= 3, "the idle clients reopened their connections");
    assert!(
        pushed_out >= 100,
        "the idle clients were taken and pushed each other out: {pushed_out}"
    );
}

/// A server whose every place holds an answer being sent (clients that asked for a large file
/// and read nothing) answers a newcomer 503, whole; once those answers have stalled for 5 s,
/// a newcomer takes one's place; and a client that connects and sends nothing gives way too.
#[test]
fn a_full_server_says_503() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 4);
    let slow = slow_readers(server.port, 4);
    let filled = Instant::now();
    std::thread::sleep(Duration::from_millis(500));
    for _ in 0..3 {
        let answer = get(server.port, "/").expect("a whole answer, not a reset");
        assert!(
            answer.starts_with("HTTP/1.1 503 Service Unavailable")
                && answer.ends_with("503 Service Unavailable\n"),
            "{answer:?}"
        );
    }
    // Answers their clients have taken nothing of for over 5 s give way to a newcomer. The 5 s
    // begin once the system stops taking pieces of each answer, a little after the clients
    // asked, so the newcomer asks again until let in.
    std::thread::sleep(Duration::from_millis(5000));
    loop {
        let answer = get(server.port, "/").unwrap();
        if answer.starts_with("HTTP/1.1 200 OK") {
            break;
        }
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
        assert!(
            filled.elapsed() < Duration::from_secs(15),
            "still 503 after {:?}",
            filled.elapsed()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(slow);
    // Idle clients in every place (the system hands them over after a second of silence): a
    // request takes the place of the longest waiting.
    let _idle = idle(server.port, 4);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(get(server.port, "/")
        .unwrap()
        .starts_with("HTTP/1.1 200 OK"));
}

/// Refusals wait beside the places, not in them: once the answers that filled every place have
/// ended, idle clients refused meanwhile (and more opened in time to replace them) do not keep
/// a newcomer out. (Counted as places, they kept every request at 503 for as long as idle
/// clients were opened.)
#[test]
fn refusals_do_not_hold_places() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 4);
    let slow = slow_readers(server.port, 4);
    std::thread::sleep(Duration::from_millis(300));
    // Idle clients reach the server after a second of silence.
    let mut held = idle(server.port, 4);
    std::thread::sleep(Duration::from_millis(1500));
    drop(slow);
    for _ in 0..3 {
        held.extend(idle(server.port, 4));
        std::thread::sleep(Duration::from_millis(1500));
        let answer = get(server.port, "/").unwrap();
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer:?}");
    }
}

/// The connection that has waited longest for its request gives way, however it trickles its
/// bytes: a client that sends a byte now and then cannot keep an older place than one that
/// connected after it and sent nothing yet (a browser's preconnection).
#[test]
fn a_trickling_client_gives_way_before_a_newer_idle_one() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 2);
    let mut trickler = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    trickler.write_all(b"G").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // Taken by the server after a second of silence.
    let mut idle = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    trickler.write_all(b"E").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(get(server.port, "/")
        .unwrap()
        .starts_with("HTTP/1.1 200 OK"));
    let closed = |s: &mut TcpStream| {
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        let mut byte = [0u8];
        // Closed: end of stream or a reset; open: the read times out.
        !matches!(s.read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut)
    };
    assert!(
        closed(&mut trickler),
        "the trickler, connected first, gave way"
    );
    assert!(
        !closed(&mut idle),
        "the newer idle connection kept its place"
    );
}

/// A share link holds its puzzle in the address: a request line of 300 KB is answered, one past
/// a megabyte gets a whole 431 (read to its end, not reset).
#[test]
fn long_share_links_are_served_and_longer_heads_refused_whole() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 8);
    let link = format!("/?p=tatamibari/300/300/{}", "g".repeat(300_000));
    assert!(get(server.port, &link)
        .unwrap()
        .starts_with("HTTP/1.1 200 OK"));
    let huge = format!("/?p={}", "g".repeat(1_100_000));
    let answer = get(server.port, &huge).expect("a whole answer, not a reset");
    assert!(
        answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large"),
        "{answer:.80}"
    );
}

/// Clients holding large unfinished heads up to the shared bound (64 MiB) do not make an
/// ordinary request 431: each head's first 16 KiB are its own. (With all of every head drawn
/// from the shared room, 65 clients left 8 bytes of it, and every request got 431.)
#[test]
fn large_heads_held_by_others_do_not_refuse_an_ordinary_request() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 512);
    // 64 heads of 1 MiB less 12 bytes, and one of 760: 8 bytes left of the shared 64 MiB.
    let big = format!("GET /?p={}", "a".repeat((1 << 20) - 20));
    let small = format!("GET /?p={}", "a".repeat(752));
    let _held: Vec<TcpStream> = (0..65)
        .map(|k| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            let _ = s.write_all(if k < 64 {
                big.as_bytes()
            } else {
                small.as_bytes()
            });
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    for _ in 0..3 {
        let answer = get(server.port, "/").unwrap();
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer:.80}");
    }
}

/// A request written some time after its connection is not closed unanswered by newer clients
/// that began theirs: the system hands over a connection with its request (Linux), so it is
/// never held empty. (Taken as it connected, it was the oldest empty place and the first to go.)
#[cfg(target_os = "linux")]
#[test]
fn a_request_written_late_is_not_pushed_out_by_newer_clients() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 8);
    let mut late = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let _newer: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            s.write_all(b"G").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let answer = finish(&mut late, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer:?}");
}

/// Idle clients the system held back for a second of silence rank by when they connected: a
/// request begun after they connected, and finished after they were handed over, keeps its
/// place while they push each other out. (Ranked by when they were handed over, they counted as
/// newer, and the request was the first to go.)
#[cfg(target_os = "linux")]
#[test]
fn a_half_written_request_outranks_idle_clients_that_connected_before_it() {
    let dir = tempfile::tempdir().unwrap();
    page(dir.path());
    let server = serve(dir.path(), 8);
    let _idle = idle(server.port, 20);
    std::thread::sleep(Duration::from_millis(300));
    let mut half = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    // The idle clients are handed over meanwhile, twenty for eight places.
    std::thread::sleep(Duration::from_millis(1500));
    let answer = finish(&mut half, b"Host: x\r\n\r\n");
    assert!(
        answer
            .as_ref()
            .is_ok_and(|a| a.starts_with("HTTP/1.1 200 OK")),
        "{answer:?}"
    );
}
