//! The text buffer the describe sections write into, as kubectl's `PrefixWriter`: each write
//! is indented two spaces per level, and cells are separated by `\t` for [`super::tabwriter`].

use std::borrow::Cow;

use jiff::Timestamp;

use crate::sanitize::{sanitize, sanitize_multiline};

/// The unaligned describe text: lines with `\t` between cells.
#[derive(Default)]
pub(crate) struct Out {
    buf: String,
}

impl Out {
    /// Writes `text` after `level` × two spaces (kubectl's `w.Write(LEVEL_n, …)`).
    pub(crate) fn w(&mut self, level: usize, text: &str) {
        for _ in 0..level {
            self.buf.push_str("  ");
        }
        self.buf.push_str(text);
    }

    /// `<indent>key:\tvalue\n`, the common one-field line.
    pub(crate) fn field(&mut self, level: usize, key: &str, value: &str) {
        self.w(level, &format!("{key}:\t{value}\n"));
    }

    /// The text so far, unaligned.
    pub(crate) fn into_text(self) -> String {
        self.buf
    }
}

/// A single-line value from the cluster, neutralised (`model::sanitize`).
pub(crate) fn clean(s: &str) -> Cow<'_, str> {
    sanitize(s)
}

/// An optional single-line value, empty when absent.
pub(crate) fn opt(s: &Option<String>) -> Cow<'_, str> {
    sanitize(s.as_deref().unwrap_or(""))
}

/// A value kubectl prints raw, so that its newlines start new lines (termination messages, the
/// pod's status message): neutralised except for `\n`.
pub(crate) fn multiline(s: &str) -> Cow<'_, str> {
    sanitize_multiline(s)
}

/// The lines of a value kubectl splits at `\n` (command, args, env values), each neutralised.
pub(crate) fn split_lines(s: &str) -> Vec<String> {
    s.split('\n').map(|l| sanitize(l).into_owned()).collect()
}

/// Go's `time.RFC1123Z` layout (`Mon, 02 Jan 2006 15:04:05 -0700`) in UTC. kubectl prints in
/// its local zone; run it with `TZ=UTC` to compare. An absent time prints Go's zero time.
pub(crate) fn rfc1123z(t: Option<Timestamp>) -> String {
    match t {
        Some(t) => t.strftime("%a, %d %b %Y %H:%M:%S %z").to_string(),
        None => "Mon, 01 Jan 0001 00:00:00 +0000".to_string(),
    }
}

/// kubectl's `printBool`: `True` / `False`.
pub(crate) fn go_bool_title(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Go's `%q` of a string: double-quoted with `"` and `\` escaped (and controls already
/// neutralised by the caller).
pub(crate) fn go_quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}
