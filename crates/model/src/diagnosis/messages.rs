//! The knowledge base applied (`kb`): every message the pod carries — each container's waiting
//! and terminated messages, the Warning events of the pod and its containers, the pod's status
//! and conditions, and the decisive lines of every container's current and previous log — is
//! matched against the tables, and what matched joins the findings the rules made:
//!
//! - a generic finding ([`Basis::Generic`]: "the runtime's message says why") about the same
//!   container, or the pod, is **replaced** by the row's meaning, its evidence kept;
//! - a finding that reads a reason or an exit code about the same container is **given its
//!   cause**: the row's meaning joins the headline, the matched line the evidence, and the
//!   row's action replaces an action that only said "read the logs";
//! - a match with no finding about its container becomes a finding of its own, when the
//!   container is failing or the pod is (a log line in a healthy container is history, not a
//!   cause).
//!
//! Each match is evidence the cluster stated, so the finding it makes is `certain`.

use super::evidence::{Basis, Confidence, Evidence, EvidenceKind};
use super::facts::{first_chars as head, role};
use super::matching::{Matched, failing, matches, pod_unwell};
use super::{Finding, Inputs, Severity};

/// Rules whose action only says "look at the logs" or "the message says why": a row's action
/// replaces it.
const VAGUE_ACTION: [&str; 10] = [
    "init-running",
    "go-panic",
    "app-exit",
    "admission-rejected",
    "stopped-by-kubelet",
    "readiness-failing",
    "liveness-failing",
    "killed-by-signal",
    "start-error",
    "not-executable",
];

/// The placeholders every row may use.
fn context<'a>(
    inp: &'a Inputs<'_>,
    container: Option<&'a str>,
    reason: &'a str,
) -> [(&'static str, &'a str); 5] {
    [
        ("container", container.unwrap_or("")),
        ("pod", inp.pod.name.as_str()),
        ("namespace", inp.pod.namespace.as_str()),
        ("node", inp.pod.node.as_deref().unwrap_or("<none>")),
        ("reason", reason),
    ]
}

/// The finding a match makes on its own.
fn finding(inp: &Inputs<'_>, m: &Matched) -> Finding {
    let ctx = context(inp, m.container.as_deref(), "");
    let meaning = m.hit.meaning(&ctx);
    let who = m
        .container
        .as_deref()
        .and_then(|n| inp.pod.container(n))
        .map(role);
    let headline = match who {
        Some(r) if !meaning.contains(r.as_str()) => format!("{r}: {meaning}"),
        _ => meaning,
    };
    let mut f = Finding::new(
        m.hit.entry.id,
        m.hit.entry.severity,
        m.container.as_deref(),
        headline,
    )
    .action(m.hit.action(&ctx))
    .confidence(Confidence::Certain)
    .basis(Basis::Specific);
    f.evidence.push(m.evidence.clone());
    f.evidence.push(Evidence::new(
        EvidenceKind::Field,
        "knowledge base",
        format!(
            "matched {}: \"{}\" ({})",
            m.hit.entry.id, m.hit.matched, m.hit.entry.source
        ),
    ));
    f.fix = Some(m.hit.entry.fix);
    super::context::complete(inp, &mut f, &m.hit.groups);
    f
}

/// Rows that only summarise (a catch-all of their table, or a message that reports a wait and
/// points elsewhere for the reason): they never replace a rule's finding, which already says at
/// least as much; they add their evidence.
fn is_summary(id: &str) -> bool {
    id.ends_with("-generic")
        || matches!(
            id,
            "volume-wait-timeout"
                | "runtime-oci-failed"
                | "cni-setup-failed"
                | "volume-mount-failed"
                | "app-refused"
                | "app-timeout"
        )
}

/// The finding a match is about: one that already quotes the matched text, else (for a log
/// line, or a container's own message) one about the same container.
fn target(problems: &[Finding], m: &Matched) -> Option<usize> {
    let key = head(m.message.trim(), 60);
    problems
        .iter()
        .position(|f| {
            contains(&f.headline, key) || f.evidence.iter().any(|e| contains(&e.text, key))
        })
        .or_else(|| {
            m.container.as_ref()?;
            problems.iter().position(|f| f.container == m.container)
        })
}

/// Whether `needle` occurs in `hay`. The texts here are tens to hundreds of bytes and each
/// needle is looked for once per finding: jumping between occurrences of its first byte costs
/// less than preparing a searcher (`str::contains`, `memmem::Finder::new`) for every pair
/// (`docs/diagnosis.md` "Cost").
fn contains(hay: &str, needle: &str) -> bool {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let Some(last) = hay.len().checked_sub(needle.len()) else {
        return false;
    };
    memchr::memchr_iter(first, &hay[..=last]).any(|i| &hay[i + 1..i + needle.len()] == rest)
}

/// Joins the matches into `problems` (`docs/diagnosis.md` "The knowledge base").
pub fn apply(inp: &Inputs<'_>, problems: &mut Vec<Finding>) {
    for m in matches(inp) {
        match target(problems, &m) {
            Some(i) if problems[i].rule == m.hit.entry.id => {}
            Some(i) if is_summary(m.hit.entry.id) => {
                let f = &mut problems[i];
                if !f.evidence.iter().any(|e| e.text == m.evidence.text) {
                    f.evidence.push(m.evidence.clone());
                }
            }
            Some(i) if problems[i].basis == Basis::Generic => {
                let old = std::mem::replace(&mut problems[i], finding(inp, &m));
                let new = &mut problems[i];
                if matches!(old.severity, Severity::Error) {
                    new.severity = Severity::Error;
                }
                if new.container.is_none() {
                    new.container = old.container;
                }
                for e in old.evidence.iter() {
                    if !new.evidence.iter().any(|n| n.text == e.text) {
                        new.evidence.push(e.clone());
                    }
                }
                new.checks = old.checks;
            }
            Some(i) if problems[i].basis == Basis::Reason => enrich(inp, &mut problems[i], &m),
            Some(_) => {}
            None => {
                let relevant = match m.container.as_deref().and_then(|n| inp.pod.container(n)) {
                    Some(c) => failing(inp, c) || pod_unwell(inp),
                    None => pod_unwell(inp),
                };
                if relevant {
                    problems.push(finding(inp, &m));
                }
            }
        }
    }
}

/// Gives a reason-level finding its cause from a match about the same container (once).
fn enrich(inp: &Inputs<'_>, f: &mut Finding, m: &Matched) {
    if f.evidence.iter().any(|e| e.source == "knowledge base") {
        return;
    }
    let ctx = context(inp, m.container.as_deref(), "");
    let meaning = m.hit.meaning(&ctx);
    let meaning = first_clause(&meaning);
    if !contains(&f.headline, meaning) {
        f.headline = format!("{}: {meaning}", f.headline.trim_end_matches('.'));
    }
    if !f.evidence.iter().any(|e| e.text == m.evidence.text) {
        f.evidence.insert(0, m.evidence.clone());
    }
    f.evidence.push(Evidence::new(
        EvidenceKind::Field,
        "knowledge base",
        format!(
            "matched {}: \"{}\" ({})",
            m.hit.entry.id, m.hit.matched, m.hit.entry.source
        ),
    ));
    if VAGUE_ACTION.contains(&f.rule) || f.action.is_none() {
        f.action = Some(m.hit.action(&ctx));
    }
    f.basis = Basis::Specific;
    f.fix = Some(m.hit.entry.fix);
    // A cluster message (an event, a status) can make it worse; a log line cannot: a running
    // container's log does not make its readiness failure an outage.
    if m.hit.entry.severity < f.severity && m.evidence.kind != EvidenceKind::Log {
        f.severity = m.hit.entry.severity;
    }
    super::context::complete(inp, f, &m.hit.groups);
}

/// The first clause of a meaning (up to `: `, ` — ` or `; `), for a headline that already says
/// what happened and gains only the cause.
fn first_clause(meaning: &str) -> &str {
    // One pass over the bytes that can end a clause (`:`, `;` and the first byte of `—`), not
    // one search per separator.
    let b = meaning.as_bytes();
    let end = memchr::memchr3_iter(b':', b';', 0xE2, b).find_map(|i| match b[i] {
        b':' | b';' => (b.get(i + 1) == Some(&b' ')).then_some(i),
        _ => (i > 0 && b[i - 1] == b' ' && b[i..].starts_with("— ".as_bytes())).then(|| i - 1),
    });
    &meaning[..end.unwrap_or(b.len())]
}

#[cfg(test)]
mod tests {
    use super::{contains, first_clause, head};
    // `head` is `facts::first_chars`, tested here where it was written.

    #[test]
    fn first_clause_ends_at_the_first_separator_followed_by_a_space() {
        // Meanings of the knowledge base's rows (kb/kubelet.rs, kb/app.rs).
        for (meaning, clause) in [
            (
                "the image does not exist: check the tag",
                "the image does not exist",
            ),
            ("OOM killed — the limit is too low", "OOM killed"),
            ("a; b: c", "a"),
            ("port 8080: refused", "port 8080"),
            ("http://x:80 is down; retry", "http://x:80 is down"),
            ("no separator at all", "no separator at all"),
            ("ends with a colon:", "ends with a colon:"),
            (
                "an em dash—without spaces — then one",
                "an em dash—without spaces",
            ),
            ("", ""),
        ] {
            assert_eq!(first_clause(meaning), clause, "{meaning:?}");
        }
    }

    #[test]
    fn contains_agrees_with_str_contains() {
        let hays = [
            "",
            "Back-off restarting failed container app in pod web-0",
            "Readiness probe failed: HTTP probe failed with statuscode: 503",
            "aaab",
            "µs – ünïcode ✓",
        ];
        for hay in hays {
            for needle in hays
                .iter()
                .chain(&["a", "ab", "aab", "probe failed", "503", "✓", "ü"])
            {
                for n in [needle.to_string(), head(needle, 7).to_owned()] {
                    assert_eq!(contains(hay, &n), hay.contains(n.as_str()), "{hay:?} {n:?}");
                }
            }
        }
    }

    #[test]
    fn head_counts_characters_not_bytes() {
        assert_eq!(head("ünïcode", 3), "ünï");
        assert_eq!(head("short", 60), "short");
    }
}
