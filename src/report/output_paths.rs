//! Where `kifu clean` writes each game: a relative path inside the output folder, made from the
//! source's name, that can never point outside it, and that no two sources share.
//!
//! Source names come from the command line, from folder walks and from archive members, and
//! archive member names are whatever the archive says: `../../x.sgf`, `/etc/x.sgf`,
//! `C:\games\x.sgf`, names with control characters. [`relative_path`] turns a name into path
//! components that are safe on every common file system:
//! - the part of the path that was given on the command line above the input itself is left
//!   out (`../shared/corpus/aeb-pro/x.sgf` from the input `../shared/corpus` is written as
//!   `corpus/aeb-pro/x.sgf`); an archive becomes a folder of its members
//!   (`games.zip!2019/a.sgf` → `games.zip/2019/a.sgf`); standard input is `stdin.sgf`;
//! - `/` and `\` both separate components; empty components, `.` and `..` are dropped, and so
//!   are a drive (`C:`) and a root; what is left is therefore always below the output folder;
//! - control characters and `<>:"|?*` become `_`; trailing dots and spaces are removed; names
//!   Windows reserves (`CON`, `NUL`, `COM1`...) get a leading `_`; a component longer than 120
//!   bytes is shortened;
//! - the file name ends in `.sgf`, so that kifu finds the files again when given the folder.
//!
//! [`OutputNames`] then makes the paths unique, in input order: the first source to want a path
//! gets it, later ones get `name-2.sgf`, `name-3.sgf`... Names are compared without case, so the
//! result is the same on case-insensitive file systems, and a name never collides with a folder.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Longest component written, in bytes (file systems allow 255; leave room for suffixes).
const MAX_COMPONENT: usize = 120;

/// The components of the path a source is written to (see the module documentation), the last
/// one a file name ending in `.sgf`. `inputs` are the paths given on the command line.
pub fn relative_path(source: &str, inputs: &[PathBuf]) -> Vec<String> {
    if source == "-" {
        return vec!["stdin.sgf".to_string()];
    }
    let mut name = source;
    let mut kept_base = String::new();
    for input in inputs {
        let given = input.display().to_string();
        let Some(rest) = source.strip_prefix(given.as_str()) else { continue };
        let boundary =
            rest.is_empty() || rest.starts_with(['/', '\\', '!']) || given.ends_with(['/', '\\']);
        if boundary && !given.is_empty() {
            kept_base = Path::new(&given)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name = rest;
            break;
        }
    }
    let mut components: Vec<String> = clean_component(&kept_base, false).into_iter().collect();
    for (i, segment) in name.split('!').enumerate() {
        // A drive can only open the name or an archive member's name.
        let parts = segment.split(['/', '\\']).enumerate();
        components.extend(
            parts.filter_map(|(j, part)| clean_component(part, j == 0 || (i == 0 && j == 1))),
        );
    }
    match components.last_mut() {
        Some(last) => {
            if !has_sgf_extension(last) {
                last.push_str(".sgf");
            }
        }
        None => components.push("game.sgf".to_string()),
    }
    components
}

/// A component made safe, or `None` when nothing is left of it.
fn clean_component(part: &str, may_be_drive: bool) -> Option<String> {
    let mut part = part;
    if may_be_drive
        && part.len() >= 2
        && part.as_bytes()[1] == b':'
        && part.as_bytes()[0].is_ascii_alphabetic()
    {
        part = &part[2..];
    }
    if part.is_empty() || part == "." || part == ".." {
        return None;
    }
    let mut clean: String = part
        .chars()
        .map(|c| if c.is_control() || "<>:\"|?*".contains(c) { '_' } else { c })
        .collect();
    while clean.ends_with(['.', ' ']) {
        clean.pop();
    }
    if clean.is_empty() || clean.chars().all(|c| c == '.') {
        return None;
    }
    if clean.len() > MAX_COMPONENT {
        let mut cut = MAX_COMPONENT;
        while !clean.is_char_boundary(cut) {
            cut -= 1;
        }
        let extension = if has_sgf_extension(&clean) {
            clean[clean.len() - 4..].to_string()
        } else {
            String::new()
        };
        clean.truncate(cut - extension.len().min(cut));
        clean.push_str(&extension);
    }
    let stem = clean.split('.').next().unwrap_or("").to_ascii_uppercase();
    let reserved = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.as_bytes()[3].is_ascii_digit());
    if reserved {
        clean.insert(0, '_');
    }
    Some(clean)
}

fn has_sgf_extension(name: &str) -> bool {
    name.len() >= 4
        && name.is_char_boundary(name.len() - 4)
        && name[name.len() - 4..].eq_ignore_ascii_case(".sgf")
}

/// What a path inside the output folder is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    File,
    Folder,
}

/// The paths given out so far, so that no two files share one (see the module documentation).
#[derive(Debug, Default)]
pub struct OutputNames {
    /// Lower-cased path given out (no trailing `/`) → what it is.
    taken: HashMap<String, Use>,
    /// Lower-cased folder path wanted → the folder path given for it (the first spelling, or a
    /// renamed folder when a file had the name first).
    folders: HashMap<String, String>,
}

impl OutputNames {
    /// An empty set.
    pub fn new() -> OutputNames {
        OutputNames::default()
    }

    /// A unique path for `components` (folders, then a file name), relative to the output
    /// folder, with `/` between components.
    pub fn assign(&mut self, components: &[String]) -> String {
        let Some((file, folders)) = components.split_last() else {
            return self.assign(&["game.sgf".to_string()]);
        };
        let mut path = String::new();
        let mut wanted = String::new();
        for folder in folders {
            wanted.push_str(&folder.to_lowercase());
            wanted.push('/');
            if let Some(given) = self.folders.get(&wanted) {
                path = given.clone();
                continue;
            }
            let mut candidate = format!("{path}{folder}");
            let mut n = 1;
            while self.taken.get(&candidate.to_lowercase()) == Some(&Use::File) {
                n += 1;
                candidate = format!("{path}{folder}-{n}");
            }
            self.taken.insert(candidate.to_lowercase(), Use::Folder);
            candidate.push('/');
            self.folders.insert(wanted.clone(), candidate.clone());
            path = candidate;
        }
        let (stem, extension) = if has_sgf_extension(file) {
            file.split_at(file.len() - 4)
        } else {
            (file.as_str(), "")
        };
        let mut candidate = format!("{path}{file}");
        let mut n = 1;
        while self.taken.contains_key(&candidate.to_lowercase()) {
            n += 1;
            candidate = format!("{path}{stem}-{n}{extension}");
        }
        self.taken.insert(candidate.to_lowercase(), Use::File);
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(source: &str, inputs: &[&str]) -> String {
        let inputs: Vec<PathBuf> = inputs.iter().map(PathBuf::from).collect();
        relative_path(source, &inputs).join("/")
    }

    #[test]
    fn sources_keep_the_input_folder_and_what_lies_below_it() {
        assert_eq!(
            path("../shared/corpus/aeb-pro/x.sgf", &["../shared/corpus"]),
            "corpus/aeb-pro/x.sgf"
        );
        assert_eq!(
            path("../shared/corpus/aeb-pro/x.sgf", &["../shared/corpus/"]),
            "corpus/aeb-pro/x.sgf"
        );
        assert_eq!(
            path("/data/games.zip!2019/a.sgf", &["/data/games.zip"]),
            "games.zip/2019/a.sgf"
        );
        assert_eq!(path("game.SGF", &["game.SGF"]), "game.SGF");
        assert_eq!(path("./a/b.sgf", &["."]), "a/b.sgf");
        assert_eq!(path("-", &["-"]), "stdin.sgf");
        assert_eq!(path("notes.txt", &["notes.txt"]), "notes.txt.sgf");
    }

    #[test]
    fn hostile_member_names_stay_inside_the_folder() {
        let zip = &["evil.zip"];
        assert_eq!(path("evil.zip!../../x.sgf", zip), "evil.zip/x.sgf");
        assert_eq!(path("evil.zip!/etc/passwd.sgf", zip), "evil.zip/etc/passwd.sgf");
        assert_eq!(path("evil.zip!..\\..\\win.sgf", zip), "evil.zip/win.sgf");
        assert_eq!(path("evil.zip!C:\\games\\x.sgf", zip), "evil.zip/games/x.sgf");
        assert_eq!(path("evil.zip!a/\u{7}bell\u{1b}.sgf", zip), "evil.zip/a/_bell_.sgf");
        assert_eq!(path("evil.zip!a/<x>|y?.sgf", zip), "evil.zip/a/_x__y_.sgf");
        assert_eq!(path("evil.zip!CON.sgf", zip), "evil.zip/_CON.sgf");
        assert_eq!(path("evil.zip!dots.../x. .sgf", zip), "evil.zip/dots/x. .sgf");
        assert_eq!(path("evil.zip!..", zip), "evil.zip.sgf");
        assert_eq!(path("/../..", &[]), "game.sgf");
        let long = format!("evil.zip!{}.sgf", "é".repeat(200));
        let p = path(&long, zip);
        assert!(p.ends_with(".sgf") && p.len() < 140, "{p}");
        for bad in ["../../x.sgf", "/abs.sgf", "C:/x.sgf", "a/../../b.sgf"] {
            let parts = relative_path(bad, &[]);
            assert!(parts.iter().all(|c| c != ".." && c != "." && !c.contains(['/', '\\', ':'])));
        }
    }

    #[test]
    fn collisions_get_numbered_suffixes_in_input_order() {
        let mut names = OutputNames::new();
        let c = |s: &str| s.split('/').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(names.assign(&c("a/x.sgf")), "a/x.sgf");
        assert_eq!(names.assign(&c("a/x.sgf")), "a/x-2.sgf");
        // Case aside, as on a case-insensitive file system; the folder keeps its first spelling.
        assert_eq!(names.assign(&c("A/X.SGF")), "a/X-3.SGF");
        assert_eq!(names.assign(&c("a/y.sgf")), "a/y.sgf");
        // A folder cannot take a file's name, and a file cannot take a folder's.
        assert_eq!(names.assign(&c("b.sgf")), "b.sgf");
        assert_eq!(names.assign(&c("b.sgf/z.sgf")), "b.sgf-2/z.sgf");
        assert_eq!(names.assign(&c("b.sgf/w.sgf")), "b.sgf-2/w.sgf");
        assert_eq!(names.assign(&c("a.sgf")), "a.sgf");
        assert_eq!(names.assign(&c("c/d.sgf")), "c/d.sgf");
        assert_eq!(names.assign(&c("c.sgf")), "c.sgf");
    }
}
