//! The dealer's store of sealed seeds: the seed of a sealed deal that was saved, kept on the
//! machine that dealt it and out of the save file, so that the file alone tells nobody the
//! hands. A folder with one file per seed, named by the seed's commitment
//! ([`super::commitment`]) and holding the seed in decimal, readable by its owner alone.
//!
//! The folder is `$PARADOX_SEEDS` if set, else `paradox/seeds` in the user's data folder
//! (`$XDG_DATA_HOME`, `~/.local/share`, or `%LOCALAPPDATA%` on Windows).

use std::io::Write;
use std::path::{Path, PathBuf};

/// The variable that names the folder of seeds (tests point it at a temporary folder).
pub const VARIABLE: &str = "PARADOX_SEEDS";

/// The largest file of the store read: a seed in decimal and a line end, with room to spare.
const MAX_SEED_FILE: u64 = 64;

/// The folder of seeds for this user, from the environment; `None` when no variable names a
/// data folder.
pub fn folder() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(folder) = var(VARIABLE) {
        return Some(folder);
    }
    let data = var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".local").join("share")))
        .or_else(|| var("LOCALAPPDATA"))?;
    Some(data.join("paradox").join("seeds"))
}

/// Keeps `seed` in `folder`, under its commitment; `Err` says why it could not.
pub(super) fn keep(folder: &Path, seed: u64) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot keep the deal's seed in {}: {e}", folder.display());
    let file = folder.join(super::commitment(seed));
    if find_in(folder, &super::commitment(seed)) == Ok(seed) {
        return Ok(());
    }
    std::fs::create_dir_all(folder).map_err(cannot)?;
    // A temporary file is readable by its owner alone; renamed once written, never half there.
    let mut temporary = tempfile::NamedTempFile::new_in(folder).map_err(cannot)?;
    writeln!(temporary, "{seed}").and_then(|()| temporary.as_file().sync_all()).map_err(cannot)?;
    temporary.persist(&file).map_err(|e| cannot(e.error))?;
    Ok(())
}

/// The seed whose commitment is `commitment`, from `folder`; `Err` says why it is not there.
pub(super) fn find_in(folder: &Path, commitment: &str) -> Result<u64, Missing> {
    if commitment.len() != 64 || !commitment.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Missing::NotACommitment);
    }
    let file = folder.join(commitment.to_ascii_lowercase());
    let bytes = match crate::files::read(&file, MAX_SEED_FILE, "a kept seed") {
        Err(crate::files::Unreadable::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Missing::NotHere(folder.to_path_buf()));
        }
        Err(e) => return Err(Missing::Unreadable(file, e.to_string())),
        Ok(bytes) => bytes,
    };
    let seed = std::str::from_utf8(&bytes).ok().and_then(|t| t.trim().parse::<u64>().ok());
    match seed {
        Some(seed) if super::commitment(seed).eq_ignore_ascii_case(commitment) => Ok(seed),
        _ => Err(Missing::Unreadable(file, "it does not hold the seed of that commitment".into())),
    }
}

/// Why the seed of a sealed deal cannot be had.
#[derive(Debug, PartialEq)]
pub(super) enum Missing {
    /// There is no folder of seeds here (no variable names one).
    NoFolder,
    /// The save's commitment is not a SHA-256 in hex.
    NotACommitment,
    /// No seed of that commitment is kept in the folder.
    NotHere(PathBuf),
    /// The file of that commitment is there but does not give its seed (the file, why).
    Unreadable(PathBuf, String),
}

impl Missing {
    /// Why a save of a sealed deal cannot be resumed, in a sentence.
    pub(super) fn explain(&self, commitment: &str) -> String {
        match self {
            Missing::NoFolder => format!(
                "it is a sealed deal, and its seed is kept only on the machine that dealt it; here no folder of \
                 kept seeds is known: set {VARIABLE} to the folder that keeps it"
            ),
            Missing::NotACommitment => "its deal's commitment is not a SHA-256 in hex".into(),
            Missing::NotHere(folder) => format!(
                "it is a sealed deal, and its seed (SHA-256 {commitment}) is not kept in {}: a sealed deal's seed \
                 stays on the machine that dealt it, so that the save alone tells nobody the hands; load it there, \
                 or set {VARIABLE} to the folder that keeps that seed",
                folder.display()
            ),
            Missing::Unreadable(file, why) => format!("its deal's seed cannot be read from {}: {why}", file.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_seed_is_found_by_its_commitment_alone() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let folder = dir.path().join("seeds");
        assert_eq!(keep(&folder, 42), Ok(()));
        assert_eq!(keep(&folder, 42), Ok(()), "kept twice");
        assert_eq!(find_in(&folder, &super::super::commitment(42)), Ok(42));
        let other = super::super::commitment(43);
        assert_eq!(find_in(&folder, &other), Err(Missing::NotHere(folder.clone())));
        assert_eq!(find_in(&folder, "../../etc/passwd"), Err(Missing::NotACommitment));
        // A file of the store edited to hold another seed gives none.
        std::fs::write(folder.join(&other), "42\n").expect("written");
        assert!(matches!(find_in(&folder, &other), Err(Missing::Unreadable(..))));
    }
}
