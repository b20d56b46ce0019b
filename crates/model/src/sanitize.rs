//! Neutralising control and escape sequences in text from the cluster before it reaches a terminal.
//!
//! Names, reasons, messages and logs come from the cluster (ultimately from whoever wrote the pod
//! spec or the container's output). A raw `ESC` could clear the screen (`ESC [ 2 J`), retitle the
//! window (`ESC ] 0 ;`) or write the clipboard (OSC 52). Every control character is therefore
//! replaced by a visible stand-in, so no sequence can act and the user still sees that it was there.
//!
//! The Unicode bidirectional embeddings, overrides and isolates (U+202A–U+202E LRE RLE PDF LRO
//! RLO, U+2066–U+2069 LRI RLI FSI PDI) are neutralised too: they are not controls to a terminal,
//! but a RIGHT-TO-LEFT OVERRIDE in a message reverses how the rest of the line reads ("Trojan
//! Source"), so `exit 1 \u{202E}0 tixe` would read as something it is not. Each becomes `�`
//! (U+FFFD).

use std::borrow::Cow;

/// What to do with one character; `None` keeps it.
fn replacement(c: char, keep_newline: bool) -> Option<char> {
    match c {
        '\n' if keep_newline => None,
        '\t' => Some(' '),
        // C0 controls → Unicode Control Pictures (U+2400 ␀ … U+241F ␟).
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + u32::from(c)),
        // DEL → ␡.
        '\u{7f}' => Some('\u{2421}'),
        // C1 controls (8-bit CSI U+009B, OSC U+009D, …) → U+FFFD.
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        // Bidirectional embeddings/overrides and isolates → U+FFFD.
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// Whether [`sanitize`] replaces `c` (a C0 or C1 control, DEL, TAB, or a bidirectional
/// embedding, override or isolate): a fast check for callers that keep some sequences (colour)
/// and must not skip text that needs work.
#[must_use]
pub fn is_neutralised(c: char) -> bool {
    replacement(c, false).is_some()
}

/// The byte offset of the first character [`replacement`] changes, if any.
///
/// Scans bytes, not characters: every character it can replace is ASCII below 0x20, DEL, or
/// starts with the UTF-8 lead byte 0xC2 (U+0080–U+009F) or 0xE2 (U+202A–U+2069), so only those
/// bytes need a closer look. Logs and findings pass through here on every line.
fn first_needing_work(s: &str, keep_newline: bool) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut from = 0;
    loop {
        // Whole 32-byte blocks without a candidate are skipped: the test has no branch per
        // byte, so the compiler checks a block with a few vector instructions.
        while let Some(block) = bytes.get(from..from + BLOCK) {
            if block.iter().fold(false, |any, &b| any | candidate(b)) {
                break;
            }
            from += BLOCK;
        }
        // The candidate is in this block (or the short rest): look no further byte by byte, so
        // text full of harmless `—` and `…` (lead byte 0xE2) goes back to whole blocks.
        let end = bytes.len().min(from + BLOCK);
        let Some(offset) = bytes[from..end].iter().position(|&b| candidate(b)) else {
            if end == bytes.len() {
                return None;
            }
            from = end;
            continue;
        };
        let at = from + offset;
        let c = s[at..].chars().next()?;
        if replacement(c, keep_newline).is_some() {
            return Some(at);
        }
        // A candidate's continuation bytes (0x80–0xBF) are never candidates.
        from = at + 1;
    }
}

/// Bytes [`first_needing_work`] skips at a time when none is a [`candidate`].
const BLOCK: usize = 32;

/// Whether byte `b` may begin a character [`replacement`] changes: below 0x20, 0x7F, or the
/// UTF-8 lead byte 0xC2 or 0xE2 (no false negatives; `|` rather than `||`, so no branch).
fn candidate(b: u8) -> bool {
    (b < 0x20) | (b == 0x7f) | (b == 0xc2) | (b == 0xe2)
}

fn sanitize_with(s: &str, keep_newline: bool) -> Cow<'_, str> {
    let Some(mut at) = first_needing_work(s, keep_newline) else {
        return Cow::Borrowed(s);
    };
    // Clean runs are copied whole; only the characters that change are looked at one by one.
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    loop {
        out.push_str(&rest[..at]);
        let Some(c) = rest[at..].chars().next() else {
            break;
        };
        // A CR ending a line (`\r\n`) is part of the line break in multi-line text.
        let crlf = keep_newline && c == '\r' && rest[at + 1..].starts_with('\n');
        if !crlf {
            out.push(replacement(c, keep_newline).unwrap_or(c));
        }
        rest = &rest[at + c.len_utf8()..];
        match first_needing_work(rest, keep_newline) {
            Some(next) => at = next,
            None => {
                out.push_str(rest);
                break;
            }
        }
    }
    Cow::Owned(out)
}

/// Makes a single-line field (name, reason, event message, waiting message) safe to draw.
///
/// Every C0 control (U+0000–U+001F, incl. ESC, CR, LF, BEL, BS) becomes its Unicode Control Picture
/// (U+2400 + code, e.g. ESC → `␛`, LF → `␊`), DEL becomes `␡` (U+2421), C1 controls
/// (U+0080–U+009F) become `�` (U+FFFD), the bidirectional controls U+202A–U+202E and
/// U+2066–U+2069 become `�` (U+FFFD), and TAB becomes a space. Returns the input borrowed when
/// nothing changes.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    sanitize_with(s, false)
}

/// Like [`sanitize`] but for multi-line text (logs, termination messages): `\n` is kept, and a CR
/// directly before `\n` is dropped as part of a CRLF line break; any other CR is shown as `␍`.
pub fn sanitize_multiline(s: &str) -> Cow<'_, str> {
    sanitize_with(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        for s in [
            "",
            "metrics-db-6c9f7d8b4-q7w2n",
            "back-off 5m0s restarting",
            "µs – ünïcode ✓",
        ] {
            assert!(matches!(sanitize(s), Cow::Borrowed(b) if b == s), "{s:?}");
        }
        assert!(matches!(
            sanitize_multiline("a\nb\n"),
            Cow::Borrowed("a\nb\n")
        ));
    }

    #[test]
    fn escape_sequences_cannot_act() {
        let cases = [
            ("\u{1b}[2J", "␛[2J"),                                  // CSI erase display
            ("\u{1b}]0;pwned\u{7}", "␛]0;pwned␇"), // OSC window title, BEL-terminated
            ("\u{1b}]52;c;ZXZpbA==\u{1b}\\", "␛]52;c;ZXZpbA==␛\\"), // OSC 52 clipboard write, ST-terminated
            ("\u{9b}2J", "\u{fffd}2J"),                             // 8-bit CSI
            ("\u{9d}0;t\u{9c}", "\u{fffd}0;t\u{fffd}"),             // 8-bit OSC … ST
            ("a\rb", "a␍b"),
            ("a\nb", "a␊b"),
            ("x\u{8}y", "x␈y"),
            ("del\u{7f}", "del␡"),
            ("nul\u{0}", "nul␀"),
            ("a\tb", "a b"),
        ];
        for (input, want) in cases {
            let got = sanitize(input);
            assert_eq!(got, want, "{input:?}");
            assert!(
                !got.chars().any(|c| c.is_control()),
                "{got:?} still has a control"
            );
        }
    }

    #[test]
    fn multiline_keeps_newlines_only() {
        assert_eq!(sanitize_multiline("l1\nl2\u{1b}[31m\n"), "l1\nl2␛[31m\n");
        assert_eq!(sanitize_multiline("l1\r\nl2\r\n"), "l1\nl2\n");
        assert_eq!(sanitize_multiline("50%\r60%\n"), "50%␍60%\n");
        assert_eq!(sanitize_multiline("a\tb\u{7}"), "a b␇");
        assert_eq!(sanitize_multiline("end\r"), "end␍");
    }

    #[test]
    fn bidirectional_overrides_cannot_reorder() {
        let all = [
            '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}',
        ];
        for c in all {
            let input = format!("exit 1 {c}0 tixe");
            assert_eq!(sanitize(&input), "exit 1 \u{fffd}0 tixe", "{c:?}");
            assert_eq!(
                sanitize_multiline(&format!("l1\n{input}\n")),
                "l1\nexit 1 \u{fffd}0 tixe\n",
                "{c:?}"
            );
            assert!(is_neutralised(c), "{c:?}");
        }
        // Joiners in emoji sequences are text, not overrides.
        assert!(matches!(sanitize("👩\u{200d}💻"), Cow::Borrowed(_)));
        assert_eq!(
            sanitize("\u{1b}[31m\u{202e}evil"),
            "␛[31m\u{fffd}evil",
            "ESC and RLO together"
        );
    }

    #[test]
    fn the_byte_scan_looks_past_harmless_multibyte_text() {
        // ≈ (E2 89 88), – (E2 80 93), © (C2 A9) share lead bytes with replaced characters.
        for text in ["≈ 60s – © 2025 ×6 ␊", "ü ß 日本語 👩\u{200d}💻"] {
            assert!(matches!(sanitize(text), Cow::Borrowed(_)), "{text}");
            assert_eq!(sanitize(&format!("{text}\u{1b}")), format!("{text}␛"));
            assert_eq!(
                sanitize(&format!("{text}\u{9b}x")),
                format!("{text}\u{fffd}x")
            );
            assert_eq!(
                sanitize(&format!("{text}\u{2067}")),
                format!("{text}\u{fffd}")
            );
        }
    }

    #[test]
    fn the_block_scan_finds_a_control_at_every_offset() {
        for at in [0, 1, 31, 32, 33, 63, 64, 65, 100] {
            let mut text = "a".repeat(130);
            text.replace_range(at..=at, "\u{1b}");
            let out = sanitize(&text);
            assert_eq!(out.chars().position(|c| c == '␛'), Some(at), "ESC at {at}");
            let bidi = format!("{}\u{202e}{}", "b".repeat(at), "c".repeat(40));
            assert!(sanitize(&bidi).contains('\u{fffd}'), "RLO at {at}");
        }
    }

    #[test]
    fn harmless_lead_bytes_do_not_hide_a_later_control() {
        // Diagnosis lines are full of `—`, `…` and `←` (lead byte 0xE2) that need no work.
        for dashes in [0, 1, 5, 20] {
            for gap in [0, 7, 31, 32, 45] {
                let text = format!(
                    "{}{}\u{1b}[2J{}",
                    "x — …".repeat(dashes),
                    "a".repeat(gap),
                    "← z"
                );
                let want = text.replace('\u{1b}', "␛");
                assert_eq!(sanitize(&text), want, "{dashes} dashes, gap {gap}");
            }
            let clean = "x — … ← ü".repeat(dashes);
            assert!(matches!(sanitize(&clean), Cow::Borrowed(_)), "{dashes}");
        }
    }

    #[test]
    fn the_block_check_agrees_with_the_byte_check_for_every_byte() {
        for b in 0..=255u8 {
            let want = b < 0x20 || b == 0x7f || b == 0xc2 || b == 0xe2;
            assert_eq!(super::candidate(b), want, "{b:#x}");
            for at in [0, 1, 15, 31] {
                for fill in [b'a', 0xff, 0x80, 0x21] {
                    let mut block = [fill; super::BLOCK];
                    block[at] = b;
                    let any = block
                        .iter()
                        .fold(false, |any, &x| any | super::candidate(x));
                    assert_eq!(any, want, "{b:#x} at {at} among {fill:#x}");
                }
            }
        }
    }
}
