//! What a finding rests on, kept apart from what it guesses (`docs/diagnosis.md` "Facts apart
//! from guesses"): each [`Evidence`] is one observed fact with its kind, its source and its
//! time; a finding's [`Confidence`] says whether the cluster said the cause verbatim or podscope
//! inferred it; its [`Basis`] says how specific the evidence is, which decides the ranking.

use std::borrow::{Borrow, Cow};
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
    /// `spec.containers[db].livenessProbe`, `GET Secret db-creds`. Borrowed when the engine
    /// names it with a constant (most sources are), so a fact costs no allocation for it.
    pub source: Cow<'static, str>,
    /// The line as shown.
    pub text: String,
    /// When the fact was observed or last seen, when known.
    pub at: Option<Timestamp>,
}

impl Evidence {
    /// A fact of `kind` from `source`.
    #[must_use]
    pub fn new(
        kind: EvidenceKind,
        source: impl Into<Cow<'static, str>>,
        text: impl Into<String>,
    ) -> Self {
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
            EvidenceKind::Event => {
                let mut words = head.split_whitespace();
                match (words.next(), words.next()) {
                    (Some(a), Some(b)) => format!("{a} {b}"),
                    (a, _) => a.unwrap_or("").to_owned(),
                }
            }
            _ => super::facts::first_chars(head, 60).to_owned(),
        };
        Evidence {
            kind,
            source: source.into(),
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

/// Which words [`Evidence::classify`] found inside a line's head (ASCII case ignored).
#[derive(Default)]
struct Words {
    /// `log`.
    log: bool,
    /// `logs ` (with its space: "logs " reads as "the logs of", not as a log line).
    logs: bool,
    /// `expired`.
    expired: bool,
    /// `probe`, `securitycontext`, `nodeselector`, `toleration` or `affinity`.
    spec_word: bool,
}

impl Words {
    /// One pass over the head, dispatching on each byte's lowercase letter: heads are tens of
    /// bytes, where an automaton's per-search set-up costs more than the scan (`docs/diagnosis.md`
    /// "Cost").
    fn of(head: &str) -> Words {
        let b = head.as_bytes();
        let at = |i: usize, w: &str| {
            b.get(i..i + w.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(w.as_bytes()))
        };
        let mut w = Words::default();
        for (i, c) in b.iter().enumerate() {
            match c.to_ascii_lowercase() {
                b'l' if at(i, "log") => {
                    w.log = true;
                    w.logs |= at(i, "logs ");
                }
                b'e' if at(i, "expired") => w.expired = true,
                b'p' if at(i, "probe") => w.spec_word = true,
                b's' if at(i, "securitycontext") => w.spec_word = true,
                b'n' if at(i, "nodeselector") => w.spec_word = true,
                b't' if at(i, "toleration") => w.spec_word = true,
                b'a' if at(i, "affinity") => w.spec_word = true,
                _ => {}
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
    /// Appends one fact; a line indented by two spaces continues the fact above it (see
    /// [`Line`]).
    pub fn push(&mut self, e: impl Line) {
        let e = e.evidence(self.0.last());
        self.0.push(e);
    }

    /// Inserts one fact at `index` (clamped to the length).
    pub fn insert(&mut self, index: usize, e: impl Line) {
        let i = index.min(self.0.len());
        let e = e.evidence(i.checked_sub(1).and_then(|a| self.0.get(a)));
        self.0.insert(i, e);
    }

    /// Appends facts.
    pub fn extend<I>(&mut self, items: I)
    where
        I: IntoIterator,
        I::Item: Line,
    {
        for e in items {
            self.push(e);
        }
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

/// A line of evidence as a rule writes it: a built [`Evidence`], or text in the engine's style,
/// classified by [`Evidence::classify`]. Text indented by two spaces (`"  goroutine 1
/// [running]:"` under `previous log, last 5 lines:`, a node reason under `0/3 nodes are
/// available:`) is a continuation: it takes the kind, source and time of the fact above it.
pub trait Line {
    /// This line as a fact, `above` being the fact it would follow.
    fn evidence(self, above: Option<&Evidence>) -> Evidence;
}

impl Line for Evidence {
    fn evidence(self, _above: Option<&Evidence>) -> Evidence {
        self
    }
}

impl Line for String {
    fn evidence(self, above: Option<&Evidence>) -> Evidence {
        match above {
            Some(a) if self.starts_with("  ") => Evidence {
                kind: a.kind,
                source: a.source.clone(),
                text: self,
                at: a.at,
            },
            _ => Evidence::classify(self),
        }
    }
}

impl Line for &str {
    fn evidence(self, above: Option<&Evidence>) -> Evidence {
        self.to_owned().evidence(above)
    }
}

impl Line for &String {
    fn evidence(self, above: Option<&Evidence>) -> Evidence {
        self.clone().evidence(above)
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

impl<E: Line> FromIterator<E> for EvidenceList {
    fn from_iter<I: IntoIterator<Item = E>>(iter: I) -> Self {
        let mut list = EvidenceList::default();
        list.extend(iter);
        list
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
