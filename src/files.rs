//! Reading the files a user names (rule files, the rule file a scenario extends, save files):
//! regular files only, up to a size limit. A device, a FIFO or a socket is refused before it is
//! opened (reading one could block for ever or never end), and a file past the limit is refused
//! with the limit named, so no path makes paradox wait or fill the memory.

use std::fs::{File, FileType, Metadata};
use std::io::Read;
use std::path::Path;

/// The largest rule file or scenario read: a hundred times the largest game in `rules/`.
pub const MAX_RULE_FILE: u64 = 16 << 20;
/// The largest save file read: a save holds the log of its match, which a long match makes long.
pub const MAX_SAVE_FILE: u64 = 64 << 20;
/// The largest shard of `paradox sim` or `compare` read by `paradox merge`: whole-number counts,
/// a few KiB for the shipped games (one histogram entry per distinct match length or margin).
pub const MAX_SHARD_FILE: u64 = 64 << 20;

/// Why a file was not read, in a sentence that does not repeat its path.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// The system could not look at or read it (no such file, no permission, ...).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// It is not a regular file: what it is, in words (see [`describe`]).
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// It is larger than `limit` bytes, the most read for `what` kind of file.
    #[error("it is larger than {}, the most paradox reads for {what}", size(*.limit))]
    TooLarge {
        /// The most bytes read.
        limit: u64,
        /// The kind of file, in words (`a rule file`).
        what: &'static str,
    },
}

/// Reads the regular file at `path`, of at most `limit` bytes; `what` names the kind of file in
/// the message. `Err` says why not.
pub fn read(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, Unreadable> {
    let too_large = || Unreadable::TooLarge { limit, what };
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    // The path may have changed between the two looks: the file opened is checked again.
    let meta = file.metadata()?;
    regular(&meta)?;
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// `Err` unless the file is a regular file (a symbolic link is judged by what it points to).
pub fn regular(meta: &Metadata) -> Result<(), Unreadable> {
    let kind = meta.file_type();
    if kind.is_file() { Ok(()) } else { Err(Unreadable::NotRegular(describe(kind))) }
}

/// What a file that is not a regular file is, in words.
pub fn describe(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    match () {
        _ if kind.is_dir() => "a folder",
        _ if kind.is_symlink() => "a symbolic link",
        _ if kind.is_file() => "a regular file",
        _ => "a special file",
    }
}

/// A number of bytes as people say it: `16 MiB`, `64 KiB`, `100 bytes`.
pub fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_within_the_limit_is_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("a.cards");
        std::fs::write(&path, b"0123456789").expect("written");
        let read = |limit| read(&path, limit, "a rule file").map_err(|e| e.to_string());
        assert_eq!(read(10), Ok(b"0123456789".to_vec()));
        assert_eq!(read(9), Err("it is larger than 9 bytes, the most paradox reads for a rule file".into()));
    }

    #[test]
    fn folders_and_devices_are_refused_before_reading() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let read = |path: &Path| read(path, 10, "a rule file").map_err(|e| e.to_string());
        assert_eq!(read(dir.path()), Err("it is a folder, not a regular file".into()));
        #[cfg(unix)]
        {
            assert_eq!(read(Path::new("/dev/zero")), Err("it is a device, not a regular file".into()));
            assert_eq!(read(Path::new("/dev/null")), Err("it is a device, not a regular file".into()));
        }
    }

    #[test]
    fn sizes_in_words() {
        assert_eq!(size(MAX_RULE_FILE), "16 MiB");
        assert_eq!(size(64 << 10), "64 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
