//! Helpers shared by the integration tests: a unique temporary folder per test, the real `kifu`
//! binary run in it, CSV read back as rows, equality assertions that show a readable diff, and
//! the way to the shared corpus, the files in a folder and the first game record of a file.
//!
//! Modelled on ripgrep's `tests/util.rs` (`Dir`, `TestCommand`) and `eqnice!`.

#![allow(dead_code)] // each test binary uses a different part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A temporary folder that disappears with the test.
pub struct Dir {
    root: tempfile::TempDir,
}

impl Dir {
    /// A fresh folder whose name mentions the test.
    pub fn new(test: &str) -> Dir {
        let root = tempfile::Builder::new()
            .prefix(&format!("kifu-cli-{test}-"))
            .tempdir()
            .expect("a temporary folder");
        Dir { root }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// `self.path().join(rel)`.
    pub fn join(&self, rel: &str) -> PathBuf {
        self.root.path().join(rel)
    }

    /// Writes a file (creating its folders).
    pub fn create(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Reads a file as text.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.join(rel)).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"))
    }

    /// The names in a folder, sorted.
    pub fn list(&self, rel: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.join(rel))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A FIFO at `rel`: reading it waits for a writer that never comes, which holds a run in
    /// place until it is interrupted.
    #[cfg(unix)]
    pub fn fifo(&self, rel: &str) -> PathBuf {
        let path = self.join(rel);
        assert!(run(Command::new("mkfifo").arg(&path)).status.success(), "mkfifo {rel}");
        path
    }

    /// A `kifu` command run in this folder.
    pub fn kifu<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kifu"));
        cmd.current_dir(self.path()).args(args).stdin(Stdio::null());
        cmd
    }
}

/// Runs a command and returns its output, whatever the exit status.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the kifu binary runs")
}

/// Runs a command that must exit with `code`; returns standard output.
pub fn run_expect(cmd: &mut Command, code: i32) -> String {
    let out = run(cmd);
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit status of {cmd:?}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Runs a command that must succeed; returns standard output.
pub fn run_ok(cmd: &mut Command) -> String {
    run_expect(cmd, 0)
}

/// Starts `cmd`, waits until `ready()` holds (failing with "the run never {started}" after 30
/// seconds) and a moment more, then sends it Ctrl-C (SIGINT). Asserts the run exits with 130
/// and says it was interrupted; returns its standard error.
#[cfg(unix)]
pub fn interrupt_when(cmd: &mut Command, started: &str, ready: impl Fn() -> bool) -> String {
    use std::time::{Duration, Instant};
    let child = cmd.stderr(Stdio::piped()).spawn().expect("the kifu binary starts");
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed().as_secs() < 30, "the run never {started}");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(kill.is_ok_and(|status| status.success()), "kill -INT");
    let out = child.wait_with_output().expect("the run ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    stderr
}

/// Parses CSV text into rows of cells (header included).
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    reader.records().map(|r| r.expect("valid CSV").iter().map(str::to_owned).collect()).collect()
}

/// The values of one column (by header name), header excluded.
pub fn column(text: &str, name: &str) -> Vec<String> {
    let rows = csv_rows(text);
    let header = rows.first().expect("a header");
    let i = header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    rows[1..].iter().map(|r| r[i].clone()).collect()
}

/// Asserts two texts are equal, showing the first differing line with context.
#[track_caller]
pub fn assert_same_text(what: &str, expected: &str, got: &str) {
    if expected == got {
        return;
    }
    let e: Vec<&str> = expected.lines().collect();
    let g: Vec<&str> = got.lines().collect();
    let first = e.iter().zip(&g).position(|(a, b)| a != b).unwrap_or(e.len().min(g.len()));
    let from = first.saturating_sub(2);
    let mut report =
        format!("{what} differ at line {} ({} vs {} lines)\n", first + 1, e.len(), g.len());
    for i in from..(first + 3) {
        if let Some(l) = e.get(i) {
            report.push_str(&format!("  expected {:>5}: {l}\n", i + 1));
        }
        if let Some(l) = g.get(i) {
            report.push_str(&format!("  got      {:>5}: {l}\n", i + 1));
        }
    }
    panic!("{report}");
}

/// The first value of property `id` in SGF text (an identifier not run into capitals before
/// it), unescaped the simple way (`\x` → `x`); `None` when absent or unclosed. Read from the
/// text itself, apart from kifu's reader, to check what the reader decodes.
pub fn sgf_property(text: &str, id: &str) -> Option<String> {
    let start = text.match_indices(&format!("{id}[")).find_map(|(at, _)| {
        let before = text[..at].chars().next_back();
        (!before.is_some_and(|c| c.is_ascii_uppercase())).then_some(at + id.len() + 1)
    })?;
    let mut value = String::new();
    let mut chars = text[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            ']' => return Some(value),
            '\\' => value.extend(chars.next()),
            c => value.push(c),
        }
    }
    None
}

/// A zip archive holding `members` (name, bytes), each compressed with `method`.
pub fn zip_archive(members: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
    use std::io::Write;
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in members {
        writer.start_file(*name, options).expect("a zip member");
        writer.write_all(bytes).expect("zip data");
    }
    writer.finish().expect("a zip").into_inner()
}

/// A short legal 9x9 game: Black and White play, then both pass.
pub fn small_game(black: &str, white: &str, result: &str) -> String {
    format!(
        "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7]RU[Chinese]PB[{black}]PW[{white}]RE[{result}]\n\
         ;B[ee];W[cc];B[gc];W[cg];B[ge];W[eg];B[gg];W[ce];B[];W[])\n"
    )
}

/// The shared corpus of real games (read-only, never in the repository): `KIFU_SHARED_CORPUS`,
/// else `../shared/corpus` or `../../shared/corpus` from the package root (the latter from a
/// worktree); a candidate counts when it holds the corpus's `README.md`. `None` when absent.
pub fn shared_corpus() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("KIFU_SHARED_CORPUS")
        .map(PathBuf::from)
        .into_iter()
        .chain([manifest.join("../shared/corpus"), manifest.join("../../shared/corpus")])
        .find(|p| p.join("README.md").is_file())
}

/// [`shared_corpus`], saying on standard error that the test is skipped when it is absent.
pub fn shared_corpus_or_skip() -> Option<PathBuf> {
    let found = shared_corpus();
    if found.is_none() {
        eprintln!("skipped: the shared corpus is absent (set KIFU_SHARED_CORPUS to run this test)");
    }
    found
}

/// Every file below `root` (following links to folders), sorted; folders that cannot be read
/// are passed over.
pub fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The `.sgf` files below `root` (the extension in any case), sorted.
pub fn sgf_files(root: &Path) -> Vec<PathBuf> {
    let mut files = files_under(root);
    files.retain(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")));
    files
}

/// The first game of the file at `path`, read with the default options.
pub fn first_record(path: &Path) -> kifu::record::GameRecord {
    let options = kifu::record::ReadOptions::default();
    kifu::record::sources([path], &options)
        .flat_map(|s| kifu::record::split_source(s, &options).games)
        .map(|g| g.read(&options))
        .next()
        .expect("the record")
}
