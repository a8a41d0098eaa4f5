//! `serve`: the web page (web/dist, built by `web/build.sh`) on 127.0.0.1, for people who have
//! the CLI. Static files only: the page solves in the browser, so this serves the folder and
//! never runs a solver. Only files inside the folder are served (no `..`, no symlink out).

use anyhow::{anyhow, bail, Result};
use std::path::{Path, PathBuf};

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

/// The file a request path names inside `root`, or `None` (outside it, or not a file).
fn resolve(root: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let mut file = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part == ".." || part == "." || part.contains('\\') || part.contains('%') {
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

/// Serves the page until the process is stopped. With `port` 0 the system picks a free port;
/// the address is printed either way (a test reads it).
pub fn serve(port: u16, dir: Option<&Path>) -> Result<()> {
    let root = find_page(dir)?;
    let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|e| anyhow!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let port = server.server_addr().to_ip().map_or(port, |a| a.port());
    eprintln!("puzzle-sat: serving {} at http://127.0.0.1:{port}/ (Ctrl-C stops)", root.display());
    for request in server.incoming_requests() {
        let head = matches!(request.method(), tiny_http::Method::Head);
        let response = if !head && !matches!(request.method(), tiny_http::Method::Get) {
            tiny_http::Response::from_string("only GET and HEAD").with_status_code(405).boxed()
        } else {
            match resolve(&root, request.url()).and_then(|f| std::fs::File::open(&f).ok().map(|h| (f, h))) {
                Some((file, handle)) => {
                    let header = tiny_http::Header::from_bytes("Content-Type", content_type(&file)).expect("ASCII header");
                    tiny_http::Response::from_file(handle).with_header(header).boxed()
                }
                None => tiny_http::Response::from_string("not found").with_status_code(404).boxed(),
            }
        };
        // A client that went away loses its answer; the server goes on.
        let _ = request.respond(response);
    }
    Ok(())
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
        for bad in ["/../etc/passwd", "/sub/../../x", "/%2e%2e/x", "/link", "/sub", "/missing.js", "/sub\\..\\x"] {
            assert_eq!(resolve(&root, bad), None, "{bad}");
        }
    }
}
