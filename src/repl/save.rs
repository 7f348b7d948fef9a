//! Save files: what a match is made from (the rule files' SHA-256, the parameters, who plays
//! which seat, the deal) and the moves the people made, replayed on loading. A save holds no
//! hand and no state of the random generator: the computer's moves are made again from the
//! seed, and a sealed deal's seed is not in the file but in the dealer's store
//! ([`super::seeds`]), the file naming it by its commitment. Saving writes a temporary file next
//! to the target and renames it, so a save is never half written.

use crate::diagnostic::{Code, Problem};
use crate::engine::{Action, Position};
use crate::files;
use crate::game::SeatId;
use crate::load::Hashed;
use crate::report::{Findings, Source, Style, render_problems};
use crate::syntax::ast::Span;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The save format's version; a file of another version is refused. Version 3 holds the moves
/// and the deal instead of the position.
pub(super) const VERSION: u32 = 3;

/// What a match is made from, besides its deal and moves: a save must match it to be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The rule file (or scenario) first, then the rule file a scenario extends.
    pub sources: Vec<Hashed>,
    /// The `--set` arguments.
    pub sets: Vec<String>,
    /// The `--variant` chosen, if any.
    pub variant: Option<String>,
}

/// How a saved match was dealt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Deal {
    /// A sealed deal: the commitment to its seed (SHA-256 in hex); the seed is in the store of
    /// the machine that dealt it.
    Sealed(String),
    /// A practice deal (`--seed N`): its seed, public anyway.
    Practice(u64),
}

/// One saved match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SaveFile {
    pub version: u32,
    #[serde(flatten)]
    pub origin: Provenance,
    /// The human players.
    pub humans: Vec<usize>,
    /// The computer players, as `--bots` names them.
    pub bots: String,
    pub deal: Deal,
    /// The people's decisions from the start, in order: the seat and the number of the option
    /// taken among those the rules gave it (the computer's are made again on loading). A secret
    /// choice of a round not yet revealed is left out.
    pub moves: Vec<(SeatId, Action)>,
    /// The private tokens of the links to the match, when it is served (`paradox serve`): each
    /// human player's in order, then the spectators'. Kept so that a match resumed keeps its links.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<String>,
    /// [`check`] of the rest of the file and of the position its moves lead to.
    pub check: String,
}

impl SaveFile {
    /// The bytes [`check`] reads: the file without its check, as JSON.
    pub(super) fn body(&self) -> Vec<u8> {
        serde_json::to_vec(&SaveFile { check: String::new(), ..self.clone() }).unwrap_or_default()
    }
}

/// The check of a save: the SHA-256, keyed by the deal's seed, of the rest of the file and of
/// the position its moves lead to. Nobody without the seed can make one, so a sealed deal's save
/// cannot be edited (another seat taken, a move changed) and still load; and a save that
/// replays to another position (saved by a paradox that plays differently) is refused.
pub(super) fn check(seed: u64, body: &[u8], position: &Position) -> String {
    use sha2::{Digest, Sha256};
    let key = seed.to_string();
    let position = serde_json::to_vec(position).unwrap_or_default();
    let inner = Sha256::new().chain_update(&key).chain_update(body).chain_update(&position).finalize();
    Sha256::new().chain_update(&key).chain_update(inner).finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes `save` to `path` atomically; `Err` says why not.
///
/// A save replaces only a regular file that may be written: a folder, a device, a FIFO or a
/// read-only file is refused. A symbolic link is followed: the file it points to is replaced and
/// the link stays. The file replaced keeps its permissions; a new file is readable by its owner
/// alone. The text goes to a temporary file beside the target, renamed over it once complete,
/// so a save that fails leaves the file it would have replaced as it was.
pub(super) fn write(path: &Path, save: &SaveFile) -> Result<(), String> {
    let (target, permissions) = destination(path)?;
    let text = serde_json::to_string_pretty(save).map_err(|e| e.to_string())?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!("there is no folder {}", dir.display()));
    }
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(why)?;
    file.write_all(text.as_bytes()).and_then(|()| file.write_all(b"\n")).map_err(why)?;
    if let Some(permissions) = permissions {
        file.as_file().set_permissions(permissions).map_err(why)?;
    }
    file.as_file().sync_all().map_err(why)?;
    file.persist(&target).map_err(|e| why(e.error))?;
    Ok(())
}

/// What went wrong, in the system's words but without the temporary file's random name.
fn why(e: std::io::Error) -> String {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    }
}

/// The file a save to `path` replaces (the path itself, or what a symbolic link there points
/// to) and its permissions, or none when there is no file there yet; `Err` when a save may not
/// go there.
fn destination(path: &Path) -> Result<(PathBuf, Option<std::fs::Permissions>), String> {
    let meta = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((path.to_path_buf(), None)),
        Err(e) => return Err(why(e)),
        Ok(meta) => meta,
    };
    let (target, meta) = if meta.file_type().is_symlink() {
        let Ok(target) = std::fs::canonicalize(path) else {
            return Err("it is a symbolic link to a file that does not exist; name a file".into());
        };
        let meta = std::fs::metadata(&target).map_err(why)?;
        (target, meta)
    } else {
        (path.to_path_buf(), meta)
    };
    if meta.is_dir() {
        return Err("it is a folder; name a file in it".into());
    }
    files::regular(&meta).map_err(|e| format!("{e}; a save replaces only a regular file"))?;
    if meta.permissions().readonly() {
        return Err("it is read-only; make it writable, or name another file".into());
    }
    Ok((target, Some(meta.permissions())))
}

/// Whether the file at `path` holds a paradox save, of any version, loadable or not (a JSON
/// object with a `version` and the `sources` it was made from): what `save` replaces without
/// asking.
pub(super) fn is_save(path: &Path) -> bool {
    let Ok(bytes) = files::read(path, files::MAX_SAVE_FILE, "a save file") else { return false };
    let fields = serde_json::from_slice::<std::collections::HashMap<String, serde::de::IgnoredAny>>(&bytes);
    fields.is_ok_and(|f| ["version", "sources"].iter().all(|k| f.contains_key(*k)))
}

/// Reads a save file made from `origin`, with the bytes its check reads ([`SaveFile::body`]);
/// `Err` is the diagnostic to show.
pub(super) fn read(
    path: &Path,
    origin: &Provenance,
    style: Style,
    width: usize,
) -> Result<(SaveFile, Vec<u8>), String> {
    let name = path.display().to_string();
    let refuse = |why: String| format!("error: cannot load {name}: {why}\n");
    let bytes = files::read(path, files::MAX_SAVE_FILE, "a save file").map_err(|e| refuse(e.to_string()))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let json = |e: serde_json::Error, what: &str| {
        let source = Source { name: name.clone(), text: text.clone() };
        let problem = Problem::new(Code::Syntax, format!("{name} is not a save file"), at(&text, &e), e.to_string())
            .help(format!("{what}; save files are written by the `save` command"));
        render_problems(&[Findings { source, problems: vec![problem] }], style, width)
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| json(e, "the file is not JSON"))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == VERSION as u64 => {}
        Some(v) => return Err(refuse(format!("it is a version {v} save file; this paradox reads version {VERSION}"))),
        None => return Err(refuse("it has no save-file version".into())),
    }
    let raw = serde_json::from_str::<SaveFile>(&text).map_err(|e| json(e, "the JSON does not hold a saved match"))?;
    // Read again with every string escaped: a name holding control characters never reaches a
    // terminal raw (`crate::printable`).
    let mut value = value;
    crate::printable::escape_json(&mut value);
    let save: SaveFile = serde_json::from_value(value).map_err(|e| refuse(e.to_string()))?;
    if (&save.origin.sets, &save.origin.variant) != (&origin.sets, &origin.variant) {
        return Err(refuse(format!("it was saved with other parameters ({})", parameters(&save.origin))));
    }
    let hashes = |o: &Provenance| o.sources.iter().map(|h| h.sha256.clone()).collect::<Vec<_>>();
    if hashes(&save.origin) != hashes(origin) {
        let files: Vec<&str> = save.origin.sources.iter().map(|h| h.file.as_str()).collect();
        return Err(refuse(format!("it was saved from a different rule file ({})", files.join(", "))));
    }
    if save.moves.len() as u64 > crate::engine::MAX_DECISION_COUNT {
        return Err(refuse(format!(
            "its {} moves are more than a match reaches (at most {})",
            save.moves.len(),
            crate::engine::MAX_DECISION_COUNT
        )));
    }
    Ok((save, raw.body()))
}

/// What the save at `path` was made from, with its human players and bots, read before its
/// game is loaded (`paradox serve --resume`); loading it checks the rest.
pub fn made_from(path: &Path) -> Result<(Provenance, Vec<usize>, String), String> {
    let bytes = files::read(path, files::MAX_SAVE_FILE, "a save file").map_err(|e| e.to_string())?;
    let save: SaveFile =
        serde_json::from_slice(&bytes).map_err(|e| format!("{} is not a save file: {e}", path.display()))?;
    Ok((save.origin, save.humans, save.bots))
}

/// `--set` and `--variant` as typed.
pub(super) fn parameters(origin: &Provenance) -> String {
    let mut words: Vec<String> = origin.sets.iter().map(|s| format!("--set {s}")).collect();
    words.extend(origin.variant.iter().map(|v| format!("--variant {v}")));
    if words.is_empty() { "no --set or --variant".into() } else { words.join(" ") }
}

/// The place in `text` a JSON error points at (its line and column).
fn at(text: &str, e: &serde_json::Error) -> Span {
    let line_start: usize = text.split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum();
    let mut start = (line_start + e.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..].chars().next().map_or(start, |c| start + c.len_utf8());
    Span::new(start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_save() -> SaveFile {
        let origin = Provenance { sources: Vec::new(), sets: Vec::new(), variant: None };
        let (humans, bots, deal) = (vec![0], "random".into(), Deal::Practice(1));
        SaveFile {
            version: VERSION,
            origin,
            humans,
            bots,
            deal,
            moves: vec![(0, 1)],
            links: Vec::new(),
            check: String::new(),
        }
    }

    #[test]
    fn a_folder_is_named_as_one() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for path in [dir.path(), Path::new("."), Path::new("/")] {
            let error = write(path, &a_save()).expect_err("a folder is not a save file");
            assert_eq!(error, "it is a folder; name a file in it", "{}", path.display());
        }
    }

    #[test]
    fn other_failures_give_the_systems_words() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let long = dir.path().join(format!("{}.json", "a".repeat(300)));
        let error = write(&long, &a_save()).expect_err("the name is too long");
        assert!(error.contains("too long") && error.contains("os error"), "{error}");
        let saved = dir.path().join("match.json");
        assert_eq!(write(&saved, &a_save()), Ok(()));
        assert!(std::fs::read_to_string(&saved).is_ok_and(|t| t.contains("\"moves\"")));
    }
}
