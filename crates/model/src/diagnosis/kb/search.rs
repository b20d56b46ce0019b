//! Searching the tables: for each table in order, one pass of a [`RegexSet`] of its rows over a
//! text, then the captures of the first row that matched and reads that kind of fact.
//!
//! Patterns are compiled **ASCII-only** (`docs/diagnosis-kb.md` "Matching"): case-insensitive
//! for ASCII letters, `\w`, `\d`, `\s` and `\b` in their ASCII sense, over the text's bytes. The
//! messages the rows read (kubelet, runtime, CNI, CSI, registries, the loader, application
//! errors) are English ASCII; what a Unicode compile adds is the case folding and classes of all
//! of Unicode, which made building the set ~100 ms and tens of MiB of every process that
//! diagnoses, for no row that needs them. The newline marker `␊` (a message's line break as
//! `sanitize` shows it) is a line end in patterns and texts alike, so `[^\s␊]` and `.` stop there.
//!
//! The sets are built on first use ([`warm`] builds them ahead, on a thread of the caller's); each
//! row's own regex (for its captures) only when that row first matches.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasher as _;
use std::sync::{LazyLock, Mutex, OnceLock};

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

use super::{Entry, Hit, On, TABLES, entries};

/// The longest text [`find`] reads, in bytes: a longer message is searched in its first 16 KiB
/// (every known message puts its cause well before that), so a 1 MB message costs no more.
pub const MAX_SCAN: usize = 16 * 1024;

/// The line-break marker of sanitized text.
const MARK: char = '␊';

/// One row and its own regex, compiled when the row first matches.
struct Row {
    entry: &'static Entry,
    re: OnceLock<Option<Regex>>,
}

/// One table's rows and, built when a fact of a kind the table reads is first looked up, its
/// set (the set's pattern `i` is the table's row `i`).
struct Table {
    rows: Vec<Row>,
    set: OnceLock<Option<RegexSet>>,
}

/// Every table, in search order. One set per table rather than one for all, each built only
/// when needed: building a set needs several times its final size while it parses and
/// compiles, that peak stays resident in the allocator of the thread that built it, and a pod
/// whose facts no row of a table reads never pays for that table (`docs/architecture.md`
/// "Memory").
static TABLE_SETS: LazyLock<Vec<Table>> = LazyLock::new(|| {
    TABLES
        .iter()
        .map(|table| Table {
            rows: table
                .iter()
                .map(|entry| Row {
                    entry,
                    re: OnceLock::new(),
                })
                .collect(),
            set: OnceLock::new(),
        })
        .collect()
});

impl Table {
    /// Whether any row reads facts of kind `fact`.
    fn reads(&self, fact: On<'_>) -> bool {
        self.rows
            .iter()
            .any(|r| r.entry.on.iter().any(|on| accepts(*on, fact)))
    }

    /// Whether a row reads every fact of some kind: log lines, or messages of any reason.
    fn general(&self) -> bool {
        self.rows.iter().any(|r| {
            r.entry.on.iter().any(|on| match on {
                On::Log => true,
                On::Event(reason)
                | On::Waiting(reason)
                | On::Terminated(reason)
                | On::Status(reason) => reason.is_empty(),
            })
        })
    }

    /// The set, built on first use; `None` if a pattern does not compile (then the rows are
    /// tried one by one, and the test `kb_rows_compile` fails).
    fn set(&self) -> Option<&RegexSet> {
        self.set
            .get_or_init(|| {
                RegexSetBuilder::new(self.rows.iter().map(|r| ascii_pattern(r.entry.pattern)))
                    .case_insensitive(true)
                    .unicode(false)
                    .size_limit(4 << 20)
                    .build()
                    .ok()
            })
            .as_ref()
    }
}

/// `pattern` with the line-break marker written as the line break it stands for.
fn ascii_pattern(pattern: &str) -> Cow<'_, str> {
    if pattern.contains(MARK) {
        Cow::Owned(pattern.replace(MARK, r"\n"))
    } else {
        Cow::Borrowed(pattern)
    }
}

/// The row regex of `pattern`, as the set compiles it.
fn build(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(&ascii_pattern(pattern))
        .case_insensitive(true)
        .unicode(false)
        .size_limit(1 << 20)
        .build()
}

impl Row {
    fn regex(&self) -> Option<&Regex> {
        self.re
            .get_or_init(|| build(self.entry.pattern).ok())
            .as_ref()
    }
}

/// Builds ahead the sets the first [`find`] of nearly any pod needs, so it does not wait for
/// them: called on a thread of its own at start-up by the commands that diagnose, while they
/// connect. Those are the tables with a row that reads every fact of a kind (a log line, or a
/// message whatever its reason); a table whose rows read only given reasons (the registry's
/// `ErrImagePull`, the scheduler's `FailedScheduling`) is built when such a fact first
/// appears, a few milliseconds then, and never on a pod that has none (the seed's crash pod
/// needs neither: docs/architecture.md "Memory").
pub fn warm() {
    for table in TABLE_SETS.iter().filter(|t| t.general()) {
        table.set();
    }
}

/// Rows whose pattern does not compile, as `id: error` (empty when all compile).
#[must_use]
pub fn invalid_rows() -> Vec<String> {
    entries()
        .filter_map(|e| build(e.pattern).err().map(|err| format!("{}: {err}", e.id)))
        .collect()
}

/// Whether `on` (a row's) accepts a fact of kind `fact`.
fn accepts(on: On<'_>, fact: On<'_>) -> bool {
    match (on, fact) {
        (On::Event(a), On::Event(b))
        | (On::Waiting(a), On::Waiting(b))
        | (On::Terminated(a), On::Terminated(b))
        | (On::Status(a), On::Status(b)) => a.is_empty() || a == b,
        (On::Log, On::Log) => true,
        _ => false,
    }
}

/// The first row, in table order, that reads facts of kind `fact` and whose pattern matches
/// `text` (its first [`MAX_SCAN`] bytes), with its named groups and the matched span — quoted
/// as the text has them (line breaks as `␊`).
///
/// Remembered: the diagnosis runs on every pod, event and clock update with mostly the same
/// texts, so each `(fact, text)` is searched once and its answer kept (at most [`MEMO_CAP`]
/// answers, forgotten all at once when full; keyed by a 64-bit hash of the fact and the text).
#[must_use]
pub fn find(fact: On<'_>, text: &str) -> Option<Hit> {
    // foldhash, seeded with a constant: the key is computed on every diagnosis for every
    // message, and SipHash (std's default) cost more than the look-up it saves (`docs/diagnosis.md`
    // "Cost"). A slice hashes its length too.
    let key = KEY_HASH.hash_one((fact, &text.as_bytes()[..text.len().min(MAX_SCAN)]));
    if let Some(hit) = memo().get(&key) {
        return hit.clone();
    }
    let hit = search(fact, text);
    let mut m = memo();
    if m.len() >= MEMO_CAP {
        m.clear();
    }
    m.insert(key, hit.clone());
    hit
}

/// The memo, locked (a panic while it was held left nothing half-written: take it as it is).
fn memo() -> std::sync::MutexGuard<'static, Memo> {
    MEMO.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How many answers [`find`] keeps.
pub const MEMO_CAP: usize = 4096;

/// [`find`]'s remembered answers.
static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(Mutex::default);

/// Answers by key; the keys are already hashes, hashed again by the cheap hasher.
type Memo = HashMap<u64, Option<Hit>, foldhash::fast::FixedState>;

/// The hasher of the memo's keys (fixed seed: the same text gets the same key in every run).
const KEY_HASH: foldhash::fast::FixedState = foldhash::fast::FixedState::with_seed(0x706f_6473);

/// [`find`] without the memo.
fn search(fact: On<'_>, text: &str) -> Option<Hit> {
    let mut end = text.len().min(MAX_SCAN);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let text = &text[..end];
    let marked = text.contains(MARK);
    let unmarked;
    let hay: &str = if marked {
        unmarked = text.replace(MARK, "\n");
        &unmarked
    } else {
        text
    };
    let span = |start, end| span(hay, start, end, marked);
    let hit = |row: &Row| -> Option<Hit> {
        if !row.entry.on.iter().any(|on| accepts(*on, fact)) {
            return None;
        }
        let re = row.regex()?;
        let caps = re.captures(hay.as_bytes())?;
        let groups = re
            .capture_names()
            .flatten()
            .filter_map(|n| {
                caps.name(n)
                    .map(|m| (n_static(row.entry, n), span(m.start(), m.end())))
            })
            .collect();
        let matched = caps
            .get(0)
            .map_or_else(String::new, |m| span(m.start(), m.end()));
        Some(Hit {
            entry: row.entry,
            groups,
            matched,
        })
    };
    TABLE_SETS
        .iter()
        .filter(|table| table.reads(fact))
        .find_map(|table| match table.set() {
            Some(set) => set
                .matches(hay.as_bytes())
                .iter()
                .find_map(|i| table.rows.get(i).and_then(hit)),
            None => table.rows.iter().find_map(hit),
        })
}

/// `hay[start..end]` widened to whole characters (a byte match may start or end inside one),
/// line breaks marked again when the text had them marked.
fn span(hay: &str, mut start: usize, mut end: usize, marked: bool) -> String {
    while !hay.is_char_boundary(start) {
        start -= 1;
    }
    while !hay.is_char_boundary(end) {
        end += 1;
    }
    let s = &hay[start..end];
    if marked {
        s.replace('\n', "␊")
    } else {
        s.to_owned()
    }
}

/// The group name as a `&'static str` borrowed from the row's pattern (names are substrings of
/// it), so a [`Hit`] does not allocate names.
fn n_static(entry: &'static Entry, name: &str) -> &'static str {
    let key = format!("?P<{name}>");
    let alt = format!("?<{name}>");
    entry
        .pattern
        .find(&key)
        .map(|i| &entry.pattern[i + 3..i + 3 + name.len()])
        .or_else(|| {
            entry
                .pattern
                .find(&alt)
                .map(|i| &entry.pattern[i + 2..i + 2 + name.len()])
        })
        .unwrap_or("group")
}
