//! Places in a text as the protocol gives them (a line and a UTF-16 column) and as the rest of
//! paradox does (a byte offset), and documents named by `file:` URIs.

use crate::syntax::ast::Span;
use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the lines of a text start, to turn offsets into positions and back.
pub(super) struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text, moved back to a character boundary).
    pub(super) fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.starts[line]..offset].encode_utf16().count();
        Position::new(line as u32, column as u32)
    }

    pub(super) fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a position; a position past the end of its line is the line's end.
    pub(super) fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else { return self.text.len() };
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

/// A path without `.` and `..` parts (`examples/../rules/x.cards` is `rules/x.cards`), as far
/// as that can be told without the disk.
pub(super) fn normalized(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The file a `file:` URI names.
pub(super) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///C:/x` on Windows, `file:///x` elsewhere; a host before the path is not local.
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(path)?;
    let windows_drive = decoded.len() > 2 && decoded.as_bytes()[2] == b':';
    Some(PathBuf::from(if windows_drive { &decoded[1..] } else { &decoded }))
}

/// The `file:` URI of a path (made absolute against the current folder).
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
    let absolute = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
    let text = absolute.to_str()?.replace('\\', "/");
    let mut encoded = String::from("file://");
    if !text.starts_with('/') {
        encoded.push('/');
    }
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' | b':' => {
                encoded.push(byte as char)
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    Uri::from_str(&encoded).ok()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n\"é😀\" x\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), Position::new(1, 6));
        assert_eq!(lines.offset(Position::new(1, 6)), x);
        assert_eq!(lines.offset(Position::new(1, 99)), text.len() - 1);
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
        // Inside the emoji: moved back to its start.
        assert_eq!(lines.position(text.find('😀').unwrap() + 1), Position::new(1, 2));
    }

    #[test]
    fn paths_lose_their_dots() {
        assert_eq!(normalized(Path::new("/a/examples/../rules/./x.cards")), Path::new("/a/rules/x.cards"));
        assert_eq!(normalized(Path::new("../x")), Path::new("../x"));
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/a b/ü.cards");
        let uri = uri_of(path).expect("a uri");
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC.cards");
        assert_eq!(path_of(&uri), Some(path.to_path_buf()));
        assert_eq!(path_of(&Uri::from_str("untitled:1").unwrap()), None);
    }
}
