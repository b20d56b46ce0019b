//! What a finding rests on, kept apart from what it guesses (`docs/diagnosis.md` "Facts apart
//! from guesses"): each [`Evidence`] is one observed fact with its kind, its source and its
//! time; a finding's [`Confidence`] says whether the cluster said the cause verbatim or podscope
//! inferred it; its [`Basis`] says how specific the evidence is, which decides the ranking.

use std::borrow::Borrow;
use std::ops::Deref;

use jiff::Timestamp;

/// The kind of fact a line of evidence is. Serialised kebab-case (`"event"`, `"log"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceKind {
    /// A status field: `state`, `lastState`, `restartCount`, a condition, `status.reason`.
    Field,
    /// An event: reason, message, count and last time.
    Event,
    /// A log line of one container's instance (`previous` or `current`).
    Log,
    /// A field of the pod's spec (command, probe, resources, securityContext, volumes).
    Spec,
    /// What one GET of another object answered (Secret, ConfigMap, PVC, Node, owner).
    Lookup,
    /// A sample of the metrics API.
    Metric,
    /// Something looked for and not there (no events, no logs): an absence is evidence too.
    Absence,
}

/// One fact a finding rests on.
///
/// JSON: `{"kind", "source", "text", "at"}` with `at` RFC 3339 or null. `text` is the line the
/// TUI and `--once` text print; it derefs to it, so `evidence.join("\n")` and `e.contains(…)`
/// read it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Evidence {
    /// What kind of fact.
    pub kind: EvidenceKind,
    /// Where it was read: `event Killing`, `log db (previous)`, `lastState.terminated`,
    /// `spec.containers[db].livenessProbe`, `GET Secret db-creds`.
    pub source: String,
    /// The line as shown.
    pub text: String,
    /// When the fact was observed or last seen, when known.
    pub at: Option<Timestamp>,
}

impl Evidence {
    /// A fact of `kind` from `source`.
    #[must_use]
    pub fn new(kind: EvidenceKind, source: impl Into<String>, text: impl Into<String>) -> Self {
        Evidence {
            kind,
            source: source.into(),
            text: text.into(),
            at: None,
        }
    }

    /// This fact, observed at `at`.
    #[must_use]
    pub fn at(mut self, at: Option<Timestamp>) -> Self {
        self.at = at;
        self
    }

    /// Reads the kind and source of a line written in the engine's evidence style
    /// (`event Killing (×6, last at 08:06:40): "…"`, `previous log, last line: "…"`,
    /// `lastState.terminated: …`, `command: …`, `no Unhealthy or Killing events …`): from the
    /// part before the first `:`, its first word and the words it contains (ASCII case ignored).
    #[must_use]
    pub fn classify(text: String) -> Self {
        let head = text.split(':').next().unwrap_or("").trim();
        let first = head.split_whitespace().next().unwrap_or("");
        let has = Words::of(head);
        let is = |w: &str| first.eq_ignore_ascii_case(w);
        let kind = if is("event") {
            EvidenceKind::Event
        } else if has.log && !has.logs {
            EvidenceKind::Log
        } else if is("no") || starts(head, "none ") || has.expired {
            EvidenceKind::Absence
        } else if starts(first, "metrics") {
            EvidenceKind::Metric
        } else if [
            "spec",
            "spec.",
            "command",
            "args",
            "resources",
            "env",
            "envfrom",
            "image",
        ]
        .iter()
        .any(|w| is(w))
            || starts(head, "spec")
            || has.spec_word
            || starts(head, "volume")
            || starts(head, "template")
        {
            EvidenceKind::Spec
        } else if ["secret", "configmap", "persistentvolumeclaim"]
            .iter()
            .any(|p| starts(first, p))
            || is("node")
            || is("owner")
        {
            EvidenceKind::Lookup
        } else {
            EvidenceKind::Field
        };
        let source = match kind {
            EvidenceKind::Event => head
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" "),
            _ => head[..head.char_indices().nth(60).map_or(head.len(), |(i, _)| i)].to_owned(),
        };
        Evidence {
            kind,
            source,
            text,
            at: None,
        }
    }
}

/// Whether `s` starts with the lowercase ASCII `prefix`, ASCII case ignored.
fn starts(s: &str, prefix: &str) -> bool {
    s.as_bytes()
        .get(..prefix.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// The words [`Evidence::classify`] looks for inside a line's head; pattern ids in this order.
const HEAD_WORDS: [&str; 8] = [
    "log",
    "logs ",
    "expired",
    "probe",
    "securitycontext",
    "nodeselector",
    "toleration",
    "affinity",
];

/// [`HEAD_WORDS`] in one ASCII-case-insensitive automaton: a head is scanned once (evidence
/// is classified for every line of every finding on each diagnosis).
static HEAD: std::sync::LazyLock<aho_corasick::AhoCorasick> = std::sync::LazyLock::new(|| {
    aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        // Heads are short (tens of bytes): a prefilter's set-up costs more than it skips.
        .prefilter(false)
        .build(HEAD_WORDS)
        .expect("literal word list always builds")
});

/// Which of [`HEAD_WORDS`] a head contains.
#[derive(Default)]
struct Words {
    log: bool,
    logs: bool,
    expired: bool,
    /// `probe`, `securitycontext`, `nodeselector`, `toleration` or `affinity`.
    spec_word: bool,
}

impl Words {
    fn of(head: &str) -> Words {
        let mut w = Words::default();
        for m in HEAD.find_overlapping_iter(head) {
            match m.pattern().as_usize() {
                0 => w.log = true,
                1 => w.logs = true,
                2 => w.expired = true,
                _ => w.spec_word = true,
            }
        }
        w
    }
}

impl From<String> for Evidence {
    fn from(text: String) -> Self {
        Evidence::classify(text)
    }
}

impl From<&str> for Evidence {
    fn from(text: &str) -> Self {
        Evidence::classify(text.to_owned())
    }
}

impl From<&String> for Evidence {
    fn from(text: &String) -> Self {
        Evidence::classify(text.clone())
    }
}

impl Deref for Evidence {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl Borrow<str> for Evidence {
    fn borrow(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// A finding's evidence, in the order it is shown. Accepts lines (`push("…")`) and typed
/// [`Evidence`] alike; reads as a slice of [`Evidence`].
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct EvidenceList(pub Vec<Evidence>);

impl EvidenceList {
    /// Appends one fact.
    pub fn push(&mut self, e: impl Into<Evidence>) {
        self.0.push(e.into());
    }

    /// Inserts one fact at `index` (clamped to the length).
    pub fn insert(&mut self, index: usize, e: impl Into<Evidence>) {
        let i = index.min(self.0.len());
        self.0.insert(i, e.into());
    }

    /// Appends facts.
    pub fn extend<I>(&mut self, items: I)
    where
        I: IntoIterator,
        I::Item: Into<Evidence>,
    {
        self.0.extend(items.into_iter().map(Into::into));
    }

    /// The facts, mutable (for sanitising and rewriting).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Evidence> {
        self.0.iter_mut()
    }

    /// Keeps the facts `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&Evidence) -> bool) {
        self.0.retain(keep);
    }
}

impl Deref for EvidenceList {
    type Target = [Evidence];
    fn deref(&self) -> &[Evidence] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a EvidenceList {
    type Item = &'a Evidence;
    type IntoIter = std::slice::Iter<'a, Evidence>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<E: Into<Evidence>> FromIterator<E> for EvidenceList {
    fn from_iter<I: IntoIterator<Item = E>>(iter: I) -> Self {
        EvidenceList(iter.into_iter().map(Into::into).collect())
    }
}

/// Whether the cluster said the cause verbatim or podscope inferred it. Serialised
/// `"certain"` / `"likely"`; a `likely` finding says so in words in the TUI and in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// The cause is stated by the cluster: a reason, an event or a message that names it.
    Certain,
    /// The cause is inferred from timing, codes or the absence of other evidence.
    Likely,
}

/// How specific a finding's evidence is: the first key of the ranking (`ranking.rs`).
/// Serialised kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// A message that names the cause (a knowledge-base row matched an event, a status message
    /// or a log line), or a rule that joins several facts into one cause.
    Specific,
    /// A reason or an exit code read as the kubelet reports it.
    Reason,
    /// A fallback: something is wrong, the raw message is quoted, nothing more specific is known.
    Generic,
}

impl PartialEq<str> for Evidence {
    fn eq(&self, other: &str) -> bool {
        self.text == other
    }
}

impl PartialEq<&str> for Evidence {
    fn eq(&self, other: &&str) -> bool {
        self.text == *other
    }
}

impl PartialEq<String> for Evidence {
    fn eq(&self, other: &String) -> bool {
        &self.text == other
    }
}
