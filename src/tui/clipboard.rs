//! The clipboard through the terminal (OSC 52, `ESC ] 52 ; c ; <base64> BEL`): the terminal
//! podscope draws in sets its clipboard, over SSH too and inside tmux with `set-clipboard on`;
//! no system clipboard library and no display server are needed. What is copied is already
//! sanitised, and base64 carries it, so nothing in it can act on the terminal.

use std::io::Write;

use base64::Engine as _;

/// The OSC 52 sequence that puts `text` on the clipboard (`c`) selection.
#[must_use]
pub fn osc52(text: &str) -> String {
    let payload = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    format!("\u{1b}]52;c;{payload}\u{7}")
}

/// Writes [`osc52`] of `text` to `out` and flushes. Errors: the terminal's write error.
pub fn copy(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(osc52(text).as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_carries_the_text_in_base64() {
        // RFC 4648 test vector: "foobar" is "Zm9vYmFy".
        assert_eq!(osc52("foobar"), "\u{1b}]52;c;Zm9vYmFy\u{7}");
        let s = osc52("TIME ~ pod\n\u{2192} ü");
        let inner = &s[7..s.len() - 1];
        let back = base64::engine::general_purpose::STANDARD
            .decode(inner)
            .expect("base64");
        assert_eq!(back, "TIME ~ pod\n\u{2192} ü".as_bytes());
        assert!(
            !inner.bytes().any(|b| b < 0x20),
            "no control byte inside the sequence"
        );
    }
}
