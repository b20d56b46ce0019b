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
use super::facts::{EVENT_TTL, role};
use super::kb::{self, Hit, On};
use super::{Finding, Inputs, LogTail, Severity, logline};
use crate::model::event::EventSummary;
use crate::model::pod::{ContainerKind, ContainerState, ContainerSummary};

/// One message the knowledge base matched, with where it was read.
#[derive(Debug, Clone)]
pub struct Matched {
    /// The container it is about, `None` for the pod.
    pub container: Option<String>,
    /// The row and its groups.
    pub hit: Hit,
    /// The fact it was read from, as evidence.
    pub evidence: Evidence,
    /// The text that was matched (the message or the log line), to tell which finding already
    /// quotes it.
    pub message: String,
}

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

/// Whether container `c` is failing now: waiting with an error, restarted, terminated with a
/// non-zero code, running but not ready, or an init container still running.
fn failing(inp: &Inputs<'_>, c: &ContainerSummary) -> bool {
    match &c.state {
        ContainerState::Waiting { reason, .. } => {
            !(reason.is_empty() || reason == "ContainerCreating" || reason == "PodInitializing")
                || c.restart_count > 0
        }
        ContainerState::Terminated(t) => t.exit_code != 0 || t.reason == "OOMKilled",
        ContainerState::Running { started_at } => {
            let young = started_at.is_some_and(|s| inp.now.duration_since(s).as_secs() < 600);
            !c.ready && c.kind != ContainerKind::Ephemeral
                || (c.restart_count > 0 && young)
                || c.kind == ContainerKind::Init
        }
        ContainerState::Unknown => false,
    }
}

/// Whether the pod as a whole is not well: not Ready, pending, failed, or being deleted.
fn pod_unwell(inp: &Inputs<'_>) -> bool {
    let p = inp.pod;
    p.deletion_timestamp.is_some()
        || matches!(p.phase.as_str(), "Pending" | "Failed" | "Unknown")
        || p.conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status != "True")
}

/// The event as evidence, typed.
fn event_evidence(e: &EventSummary, inp: &Inputs<'_>) -> Evidence {
    Evidence::new(
        EvidenceKind::Event,
        format!("event {}", e.reason),
        super::facts::event_line(e, inp.now),
    )
    .at(e.last_timestamp.or(e.first_timestamp))
}

/// Whether an event is recent enough to speak for the pod now: within the events' lifetime and
/// not older than the container's current instance when that runs.
fn current(inp: &Inputs<'_>, e: &EventSummary, c: Option<&ContainerSummary>) -> bool {
    let Some(t) = e.last_timestamp.or(e.first_timestamp) else {
        return true;
    };
    if inp.now.duration_since(t) > EVENT_TTL * 24 {
        return false;
    }
    match c.map(|c| &c.state) {
        Some(ContainerState::Running {
            started_at: Some(s),
        }) => t >= *s || !c.is_some_and(|c| c.ready),
        _ => true,
    }
}

/// Matches one log tail: the best-scoring lines first, then the last few lines.
fn log_hits(name: &str, instance: &str, tail: &LogTail, out: &mut Vec<Matched>) {
    let Ok(lines) = &tail.lines else {
        return;
    };
    for i in logline::candidates(lines, 3) {
        let line = lines[i].trim();
        if let Some(hit) = kb::find(On::Log, line) {
            let text = format!(
                "log {name} ({instance}), line {} of the last {}: \"{line}\"",
                i + 1,
                lines.len(),
            );
            let source = format!("log {name} ({instance})");
            out.push(Matched {
                container: Some(name.to_owned()),
                hit,
                evidence: Evidence::new(EvidenceKind::Log, source, text),
                message: line.to_owned(),
            });
            return;
        }
    }
}

/// Looks `text` up as a fact of kind `fact`, and records what matched.
fn look(
    out: &mut Vec<Matched>,
    container: Option<&str>,
    fact: On<'_>,
    text: &str,
    evidence: impl FnOnce() -> Evidence,
) {
    if text.is_empty() {
        return;
    }
    if let Some(hit) = kb::find(fact, text) {
        out.push(Matched {
            container: container.map(str::to_owned),
            hit,
            evidence: evidence(),
            message: text.to_owned(),
        });
    }
}

/// Every match of the pod's messages, in the order the kubelet meets them: the pod's status
/// and conditions, its own events, then each container's state, events and logs.
#[must_use]
pub fn matches(inp: &Inputs<'_>) -> Vec<Matched> {
    let mut out = Vec::new();
    let pod = inp.pod;
    look(
        &mut out,
        None,
        On::Status(&pod.reason),
        &pod.message,
        || {
            let text = format!("status.reason {}: \"{}\"", pod.reason, pod.message);
            Evidence::new(EvidenceKind::Field, "status.message", text)
        },
    );
    let odd = pod
        .conditions
        .iter()
        .filter(|c| c.status != "True" || c.type_ == "DisruptionTarget");
    for cond in odd {
        let text = if cond.message.is_empty() {
            &cond.reason
        } else {
            &cond.message
        };
        look(&mut out, None, On::Status(&cond.reason), text, || {
            let line = format!(
                "condition {}={} reason {}: \"{}\"",
                cond.type_, cond.status, cond.reason, cond.message
            );
            let source = format!("condition {}", cond.type_);
            Evidence::new(EvidenceKind::Field, source, line).at(cond.last_transition_time)
        });
    }
    if pod_unwell(inp) {
        let warnings = inp.pod_events().filter(|e| e.type_ == "Warning");
        for e in warnings.filter(|e| current(inp, e, None)) {
            look(&mut out, None, On::Event(&e.reason), &e.message, || {
                event_evidence(e, inp)
            });
        }
    }
    for c in &pod.containers {
        container_matches(inp, c, &mut out);
    }
    dedupe(out)
}

/// The matches of one container: its state's messages, its Warning events, its logs.
fn container_matches(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Matched>) {
    let name = Some(c.name.as_str());
    match &c.state {
        ContainerState::Waiting {
            reason,
            message: Some(m),
        } => look(out, name, On::Waiting(reason), m, || {
            let text = format!("waiting.reason {reason}: \"{m}\"");
            Evidence::new(EvidenceKind::Field, "state.waiting", text)
        }),
        ContainerState::Terminated(t) => {
            let m = t.message.as_deref().unwrap_or("");
            look(out, name, On::Terminated(&t.reason), m, || {
                let text = format!(
                    "state.terminated {} exit {}: \"{m}\"",
                    t.reason, t.exit_code
                );
                Evidence::new(EvidenceKind::Field, "state.terminated", text).at(t.finished_at)
            });
        }
        _ => {}
    }
    if let Some(t) = &c.last_state {
        let m = t.message.as_deref().unwrap_or("");
        look(out, name, On::Terminated(&t.reason), m, || {
            let text = format!(
                "lastState.terminated {} exit {}: \"{m}\"",
                t.reason, t.exit_code
            );
            Evidence::new(EvidenceKind::Field, "lastState.terminated", text).at(t.finished_at)
        });
    }
    if failing(inp, c) || pod_unwell(inp) {
        let warnings = inp.events_of(&c.name).filter(|e| e.type_ == "Warning");
        for e in warnings.filter(|e| current(inp, e, Some(c))) {
            look(out, name, On::Event(&e.reason), &e.message, || {
                event_evidence(e, inp)
            });
        }
    }
    if failing(inp, c) {
        if let Some(tail) = inp.logs.previous.get(&c.name) {
            log_hits(&c.name, "previous", tail, out);
        }
        if let Some(tail) = inp.logs.current.get(&c.name) {
            log_hits(&c.name, "current", tail, out);
        }
    }
}

/// One match per (container, row): the first, which is the most specific fact.
fn dedupe(all: Vec<Matched>) -> Vec<Matched> {
    let mut out: Vec<Matched> = Vec::with_capacity(all.len());
    for m in all {
        if !out
            .iter()
            .any(|o| o.container == m.container && o.hit.entry.id == m.hit.entry.id)
        {
            out.push(m);
        }
    }
    out
}

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
    let key: String = m.message.trim().chars().take(60).collect();
    problems
        .iter()
        .position(|f| f.headline.contains(&key) || f.evidence.iter().any(|e| e.text.contains(&key)))
        .or_else(|| {
            m.container.as_ref()?;
            problems.iter().position(|f| f.container == m.container)
        })
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
    let meaning = first_clause(&m.hit.meaning(&ctx));
    if !f.headline.contains(&meaning) {
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
fn first_clause(meaning: &str) -> String {
    let end = [": ", " — ", "; "]
        .iter()
        .filter_map(|sep| meaning.find(sep))
        .min()
        .unwrap_or(meaning.len());
    meaning[..end].to_owned()
}
