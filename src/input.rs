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
    pub fn error(&self, e: encodings::format::error::ParseError) -> anyhow::Error {
        anyhow!("{}:{}", self.name, e)
    }
}

/// The largest input read (a puzzle, an answer, a solver's model): far beyond any real one
/// (a 1000×1000 Tatamibari is 1 MB, a model of a million variables about 8 MB), so that a
/// runaway pipe is an error, not the machine's memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// Up to `MAX_INPUT + 1` bytes, the buffer grown to no more than that (`read_to_end` would
/// double it past the limit: twice the memory for a runaway pipe).
fn read_capped(mut from: impl Read) -> std::io::Result<Vec<u8>> {
    let limit = MAX_INPUT as usize + 1;
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    while bytes.len() < limit {
        let n = match from.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n.min(limit - bytes.len()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if bytes.len() + n > bytes.capacity() {
            let grown = (bytes.capacity() * 2).max(bytes.len() + n).min(limit);
            bytes.reserve_exact(grown - bytes.len());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    Ok(bytes)
}

/// What a directory entry that is not a regular file is, as a message says it.
pub fn kind_of(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    match () {
        _ if t.is_dir() => "a folder",
        _ if t.is_fifo() => "a FIFO",
        _ if t.is_socket() => "a socket",
        _ if t.is_char_device() => "a character device",
        _ if t.is_block_device() => "a block device",
        _ if t.is_symlink() => "a symbolic link",
        _ => "not a regular file",
    }
}

/// Opens `path` (through links) for reading only if it is a regular file: a FIFO, a device or a
/// socket would make the read wait for a writer, or never end, and opening a device can itself
/// do something (a watchdog starts, a writer blocked on a FIFO is let go).
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    open_checked(path, true)?.map_err(|kind| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", kind_of(kind)),
        )
    })
}

/// The file at `path` if it is a regular file (reached through links only with `links`), else
/// what it is. The path is first taken with `O_PATH`, which opens nothing, and only the regular
/// file that names is then opened, through `/proc/self/fd`: a name swapped meanwhile changes
/// nothing. Without `/proc`, opened without waiting (`O_NONBLOCK`) and checked once open.
pub fn open_checked(
    path: &Path,
    links: bool,
) -> std::io::Result<Result<std::fs::File, std::fs::FileType>> {
    use std::os::unix::fs::OpenOptionsExt;
    let nofollow = if links { 0 } else { libc::O_NOFOLLOW };
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        let handle = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | nofollow)
            .open(path)?;
        let kind = handle.metadata()?.file_type();
        if !kind.is_file() {
            return Ok(Err(kind));
        }
        let by_handle = format!("/proc/self/fd/{}", handle.as_raw_fd());
        if Path::new(&by_handle).exists() {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&by_handle)?;
            let kind = file.metadata()?.file_type();
            return Ok(if kind.is_file() { Ok(file) } else { Err(kind) });
        }
    }
    if !links {
        // A link is refused by what it is, not by the open's error.
        let kind = std::fs::symlink_metadata(path)?.file_type();
        if !kind.is_file() {
            return Ok(Err(kind));
        }
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | nofollow)
        .open(path)?;
    let kind = file.metadata()?.file_type();
    Ok(if kind.is_file() { Ok(file) } else { Err(kind) })
}

/// [`read_input`] for the files `run` meets: regular files only, never a wait.
pub fn read_regular(path: &Path) -> Result<Input> {
    let name = path.display().to_string();
    let file = open_regular(path).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
    read_file(name, file)
}

pub fn read_input(path: &Path) -> Result<Input> {
    if path.as_os_str() == "-" {
        let bytes =
            read_capped(std::io::stdin().lock()).context("<stdin>: cannot read standard input")?;
        return decode("<stdin>".to_string(), bytes);
    }
    let name = path.display().to_string();
    if path.is_dir() {
        bail!("{name}: is a directory, expected a puzzle file");
    }
    // A named pipe stays readable here (`solve sudoku <(…)`): the one who named it writes it.
    let file = std::fs::File::open(path).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
    read_file(name, file)
}

fn read_file(name: String, file: std::fs::File) -> Result<Input> {
    // A regular file too large is refused by its size, unread.
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > MAX_INPUT)
    {
        return Err(too_large(&name));
    }
    let bytes = read_capped(file).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
    decode(name, bytes)
}

fn too_large(name: &str) -> anyhow::Error {
    anyhow!(
        "{name}: larger than {} MiB, the most puzzle-sat reads",
        MAX_INPUT >> 20
    )
}

fn decode(name: String, bytes: Vec<u8>) -> Result<Input> {
    if bytes.len() as u64 > MAX_INPUT {
        return Err(too_large(&name));
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
