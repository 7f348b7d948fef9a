//! Failure messages of a readable size: a long value (a whole trace, a program's output) is
//! shown by its start.

/// The start of a long text, for a failure message: at most 2,000 bytes, cut at a character
/// boundary, and how much was left out.
pub fn short(text: &str) -> String {
    const SHOWN: usize = 2000;
    if text.len() <= SHOWN {
        return text.to_string();
    }
    let mut end = SHOWN;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} more bytes)", &text[..end], text.len() - end)
}
