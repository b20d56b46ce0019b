//! Choosing the decisive log line by meaning (`docs/diagnosis.md` "Choosing the decisive log
//! line"): the first line of an instance that is at error level *and* carries a reason (refused,
//! denied, not found, in use, timeout, read-only …), never a stack frame, a goroutine header or
//! the last line of a trace; repeated lines count once.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

/// Words that give a line a reason, the strongest signal.
const REASONS: [&str; 24] = [
    "refused",
    "denied",
    "forbidden",
    "unauthorized",
    "in use",
    "not found",
    "no such",
    "timeout",
    "timed out",
    "permission",
    "read-only",
    "certificate",
    "x509",
    "unknown host",
    "no route",
    "cannot",
    "can't",
    "unable",
    "invalid",
    "missing",
    "out of memory",
    "no space",
    "unreachable",
    "failed to",
];

/// Words that put a line at error level.
const LEVEL: [&str; 9] = [
    "error",
    "fatal",
    "panic",
    "exception",
    "fail",
    "critical",
    "severe",
    "err]",
    "caused by",
];

/// The two word lists in one ASCII-case-insensitive automaton, built on first use (pattern ids
/// below `REASONS.len()` are reasons, the rest levels): a line is scanned once, until it has
/// shown a word of each list, instead of lowercased and searched once per word (the scorer runs
/// over every line of both instances on each diagnosis; `cargo bench --bench diagnosis`).
static WORDS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(REASONS.iter().chain(LEVEL.iter()))
        .expect("literal word lists always build")
});

/// Whether `line` holds (a reason word, a level word).
fn words(line: &str) -> (bool, bool) {
    let (mut reason, mut level) = (false, false);
    for m in WORDS.find_overlapping_iter(line) {
        if m.pattern().as_usize() < REASONS.len() {
            reason = true;
        } else {
            level = true;
        }
        if reason && level {
            break;
        }
    }
    (reason, level)
}

/// Whether `line` is part of a stack trace or dump rather than a statement: Java/Python/JS
/// frames, Go goroutine headers and frames, `... N more`.
#[must_use]
pub fn is_frame(line: &str) -> bool {
    let t = line.trim_start();
    let indented = line.len() != t.len();
    t.starts_with("at ") && indented
        || t.starts_with("... ") && t.ends_with(" more")
        || t.starts_with("goroutine ") && t.ends_with(':')
        || t.starts_with("File \"") && t.contains(", line ")
        || t.starts_with("Traceback (most recent call last)")
        || indented && (t.contains(".go:") || t.contains(".rs:") || t.contains(".py\", line"))
        || t.starts_with("created by ")
        || (t.starts_with('/') && t.contains(".go:"))
        || (t.contains("(0x") && t.ends_with(')') && !t.contains(' '))
}

/// A line's score: 0 for a frame or a line without error level or reason; otherwise higher for
/// a reason word and for error level, so "error + reason" beats either alone; a Java `Caused
/// by:` line with a reason beats both (the chain's root cause is what went wrong).
#[must_use]
pub fn score(line: &str) -> u8 {
    if is_frame(line) || line.trim().is_empty() {
        return 0;
    }
    let (reason, level) = words(line);
    if line.trim_start().starts_with("Caused by:") {
        return if reason { 4 } else { 1 };
    }
    match (level, reason) {
        (true, true) => 3,
        (false, true) => 2,
        (true, false) => 1,
        (false, false) => 0,
    }
}

/// The index of the decisive line of `lines` (oldest first): the first line with the best
/// score — but the last `Caused by:` of a chain, the deepest cause — `None` when no line scores
/// (a clean log, or only frames).
#[must_use]
pub fn decisive(lines: &[String]) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        let s = score(line);
        if s > 0 && best.is_none_or(|(b, _)| s > b || (s == 4 && b == 4)) {
            best = Some((s, i));
        }
    }
    best.map(|(_, i)| i)
}

/// Lines worth handing to the knowledge base, best first: every scoring line once (repeats
/// dropped), then at most `extra` plain lines from the end (a runtime's `exec /app: exec
/// format error` has no level word but is the instance's only line).
#[must_use]
pub fn candidates(lines: &[String], extra: usize) -> Vec<usize> {
    let mut scored: Vec<(u8, usize)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let s = score(line);
        let key = line.trim();
        if s > 0 && !seen.contains(&key) {
            seen.push(key);
            scored.push((s, i));
        }
        if seen.len() > 64 {
            break;
        }
    }
    // Best first; among `Caused by:` lines (score 4) the deepest, last, first.
    scored.sort_by_key(|&(s, i)| {
        let order = if s == 4 { usize::MAX - i } else { i };
        (std::cmp::Reverse(s), order)
    });
    let mut out: Vec<usize> = scored.into_iter().map(|(_, i)| i).collect();
    for i in (0..lines.len()).rev().take(extra) {
        if !out.contains(&i) && !is_frame(&lines[i]) {
            out.push(i);
        }
    }
    out
}
