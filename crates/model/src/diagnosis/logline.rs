//! Choosing the decisive log line by meaning (`docs/diagnosis.md` "Choosing the decisive log
//! line"): the first line of an instance that is at error level *and* carries a reason (refused,
//! denied, not found, in use, timeout, read-only …), never a stack frame, a goroutine header or
//! the last line of a trace; repeated lines count once.

use std::borrow::Cow;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use super::kb::{self, Hit, On};

/// The last lines of one container's log, as read once per restart (`tailLines`, bounded bytes).
/// Built with [`LogTail::new`], which scores each line and looks the best ones up in the
/// knowledge base once ([`score`]): a tail is read once and diagnosed on every tick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogTail {
    /// The container's `restartCount` when the tail was read (a new restart makes it stale).
    pub restart_count: i32,
    /// The lines, oldest first, sanitised, or the server's refusal (e.g. `previous terminated
    /// container "app" in pod "web" not found`). A tail is replaced, not edited: [`LogTail::scores`]
    /// scores afresh lines that no longer match the ones it was built with.
    pub lines: Result<Vec<String>, String>,
    /// `score` of each line of `lines` (empty for a refusal).
    scores: Vec<u8>,
    /// The first of `candidates` the knowledge base explains, and its hit.
    log_hit: Option<(usize, Hit)>,
}

/// The first of [`candidates`] (3 plain lines from the end) the knowledge base explains.
fn first_hit(lines: &[String], scores: &[u8]) -> Option<(usize, Hit)> {
    candidates(lines, scores, 3)
        .into_iter()
        .find_map(|i| kb::find(On::Log, lines[i].trim()).map(|h| (i, h)))
}

impl LogTail {
    /// A tail of `lines` (oldest first, sanitised) or the server's refusal, read when the
    /// container's `restartCount` was `restart_count`; each line is scored here, once, rather
    /// than on every diagnosis (`cargo bench --bench diagnosis`).
    #[must_use]
    pub fn new(restart_count: i32, lines: Result<Vec<String>, String>) -> Self {
        let scores: Vec<u8> = lines
            .as_ref()
            .map(|l| l.iter().map(|l| score(l)).collect())
            .unwrap_or_default();
        let log_hit = lines.as_ref().ok().and_then(|l| first_hit(l, &scores));
        LogTail {
            restart_count,
            lines,
            scores,
            log_hit,
        }
    }

    /// The line the knowledge base explains, tried best-scoring first ([`candidates`] with 3
    /// plain lines from the end), and its hit: found when the tail was built, or looked up now
    /// if `lines` was changed since.
    #[must_use]
    pub fn log_hit(&self) -> Option<(usize, Hit)> {
        match (&self.lines, self.scores()) {
            (Ok(_), Cow::Borrowed(_)) => self.log_hit.clone(),
            (Ok(lines), Cow::Owned(scores)) => first_hit(lines, &scores),
            (Err(_), _) => None,
        }
    }

    /// [`score`] of each line of `lines`: the ones computed when the tail was built, or
    /// computed now if `lines` was changed since.
    #[must_use]
    pub fn scores(&self) -> Cow<'_, [u8]> {
        match &self.lines {
            Ok(lines) if lines.len() == self.scores.len() => Cow::Borrowed(&self.scores),
            Ok(lines) => Cow::Owned(lines.iter().map(|l| score(l)).collect()),
            Err(_) => Cow::Borrowed(&[]),
        }
    }
}

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

/// The index of the decisive line of `lines` (oldest first), whose scores are `scores`
/// (`scores[i]` is `score(&lines[i])`): the first line with the best score — but the last
/// `Caused by:` of a chain, the deepest cause — `None` when no line scores (a clean log, or
/// only frames).
#[must_use]
pub fn decisive(scores: &[u8]) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (i, &s) in scores.iter().enumerate() {
        if s > 0 && best.is_none_or(|(b, _)| s > b || (s == 4 && b == 4)) {
            best = Some((s, i));
        }
    }
    best.map(|(_, i)| i)
}

/// Lines worth handing to the knowledge base, best first: every scoring line once (repeats
/// dropped), then at most `extra` plain lines from the end (a runtime's `exec /app: exec
/// format error` has no level word but is the instance's only line). `scores[i]` is
/// `score(&lines[i])` (both the same length).
#[must_use]
pub fn candidates(lines: &[String], scores: &[u8], extra: usize) -> Vec<usize> {
    let mut scored: Vec<(u8, usize)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for (i, (line, &s)) in lines.iter().zip(scores).enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A Node.js program's last words (the knowledge base's `app-refused-node` sample): the
    /// tail keeps each line's score and the line the knowledge base explains, and scores
    /// afresh a tail whose lines were edited after it was built.
    #[test]
    fn a_tail_is_scored_when_built_and_afresh_when_edited() {
        let lines: Vec<String> = [
            "listening for jobs",
            "Error: connect ECONNREFUSED 10.96.12.7:5432",
            "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
        ]
        .map(str::to_owned)
        .to_vec();
        let mut tail = LogTail::new(2, Ok(lines.clone()));
        let want: Vec<u8> = lines.iter().map(|l| score(l)).collect();
        // "Error" is a level word and ECONNREFUSED holds the reason "refused": 3; the stack
        // frame scores nothing.
        assert_eq!(want, [0, 3, 0]);
        assert!(matches!(tail.scores(), Cow::Borrowed(s) if s == want.as_slice()));
        let (i, hit) = tail.log_hit().expect("the knowledge base explains line 2");
        assert_eq!((i, hit.entry.id), (1, "app-refused-node"));

        if let Ok(l) = tail.lines.as_mut() {
            l.push("panic: open /etc/app/config.yaml: permission denied".to_owned());
        }
        assert!(matches!(tail.scores(), Cow::Owned(s) if s == [0, 3, 0, 3]));
        // The first of the best lines is the decisive one.
        assert_eq!(decisive(&tail.scores()), Some(1));

        let refused = LogTail::new(2, Err("previous terminated container not found".to_owned()));
        assert!(refused.scores().is_empty() && refused.log_hit().is_none());
    }
}
