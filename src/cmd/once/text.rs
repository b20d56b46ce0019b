//! `--once -o text`: the diagnosis first, then the pod, its containers in kubelet order, its
//! conditions and its events, `kubectl describe`-like.

use std::fmt::Write as _;

use jiff::Timestamp;

use crate::model::deletion::{OwnerStatus, diagnose};
use crate::model::diagnosis::{Confidence, Finding, Severity};
use crate::model::duration::{format_go_duration, human_duration};
use crate::model::resources::{Amount, Pair, Resources, cpu_text, memory_text, percent};
use crate::model::signal::{exit_code_meaning, signal_name};
use crate::model::usage::{PodMetrics, window_text};
use crate::model::{
    Backoff, ContainerState, ContainerSummary, Countdown, EventSummary, PodSummary, Terminated,
};

fn ago(t: Option<Timestamp>, now: Timestamp) -> String {
    t.map_or_else(
        || "<unknown>".to_owned(),
        |t| human_duration(now.duration_since(t)),
    )
}

fn describe_terminated(t: &Terminated, now: Timestamp) -> String {
    let mut s = format!(
        "{} exit code {}",
        if t.reason.is_empty() {
            "Terminated"
        } else {
            &t.reason
        },
        t.exit_code
    );
    if let Some(sig) = signal_name(t.exit_code) {
        let _ = write!(s, " ({sig})");
    }
    if let Some(m) = exit_code_meaning(t.exit_code, &t.reason) {
        let _ = write!(s, ": {m}");
    }
    if t.finished_at.is_some() {
        let _ = write!(s, ", finished {} ago", ago(t.finished_at, now));
    }
    if let (Some(a), Some(b)) = (t.started_at, t.finished_at)
        && a.as_second() > 0
    {
        let _ = write!(s, " after running {}", human_duration(b.duration_since(a)));
    }
    if let Some(m) = t.message.as_deref().filter(|m| !m.is_empty()) {
        let _ = write!(s, "\n      message: {}", m.trim_end());
    }
    s
}

fn countdown_text(b: &Backoff, now: Timestamp) -> String {
    let approx = if matches!(b.source, crate::model::BackoffSource::Estimate) {
        "≈"
    } else {
        ""
    };
    let delay = format_go_duration(b.delay);
    match b.countdown(now) {
        Countdown::In(s) => format!(
            "next restart in {approx}{} (back-off {approx}{delay})",
            human_duration(jiff::SignedDuration::from_secs(
                i64::try_from(s).unwrap_or(i64::MAX)
            ))
        ),
        Countdown::Restarting => format!("restarting… (back-off {approx}{delay} elapsed)"),
        Countdown::Overdue => format!("restart overdue (back-off {approx}{delay} elapsed)"),
        Countdown::Unknown => format!("back-off {approx}{delay}, last exit time unknown"),
    }
}

/// `    Resources:  requests cpu 100m, memory 256Mi; limits memory 512Mi` and
/// `    Usage:      cpu 12m (12% of request, 2% of limit), memory 471Mi (92% of limit)` (window
/// and time), each when there is something to say (`docs/usage.md`).
#[allow(clippy::cast_precision_loss)] // percentages
fn usage_text(
    out: &mut String,
    pod: &PodSummary,
    c: &ContainerSummary,
    usage: Option<&PodMetrics>,
) {
    let r = Resources::of_container(pod, &c.name);
    let pair = |p: &Pair| {
        [("cpu", &p.cpu), ("memory", &p.memory)]
            .iter()
            .filter_map(|(k, a)| a.as_ref().map(|a| format!("{k} {}", a.text)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let parts: Vec<String> = [("requests", pair(&r.requests)), ("limits", pair(&r.limits))]
        .into_iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|(k, p)| format!("{k} {p}"))
        .collect();
    if !parts.is_empty() {
        let _ = writeln!(out, "    Resources:  {}", parts.join("; "));
    }
    let Some(s) = usage.and_then(|m| m.container(&c.name)) else {
        return;
    };
    let shares = |used: f64, req: &Option<Amount>, lim: &Option<Amount>, per: f64| {
        let of = |a: &Option<Amount>, word: &str| {
            a.as_ref()
                .and_then(|a| a.value)
                .and_then(|v| percent(used, v.as_f64() * per))
                .map(|p| format!("{p}% of {word}"))
        };
        let all: Vec<String> = [of(req, "request"), of(lim, "limit")]
            .into_iter()
            .flatten()
            .collect();
        if all.is_empty() {
            String::new()
        } else {
            format!(" ({})", all.join(", "))
        }
    };
    let _ = writeln!(
        out,
        "    Usage:      cpu {}{}, memory {}{}  (window {} at {})",
        cpu_text(s.cpu_millicores),
        shares(
            s.cpu_millicores as f64,
            &r.requests.cpu,
            &r.limits.cpu,
            1000.0
        ),
        memory_text(s.memory_bytes),
        shares(
            s.memory_bytes as f64,
            &r.requests.memory,
            &r.limits.memory,
            1.0
        ),
        window_text(s.window),
        s.at
    );
}

fn container_text(out: &mut String, c: &ContainerSummary, now: Timestamp) {
    let kind = format!("{:?}", c.kind).to_lowercase();
    let _ = writeln!(out, "  {kind:<9} {}  ({})", c.name, c.image);
    let state = match &c.state {
        ContainerState::Unknown => "no status yet".to_owned(),
        ContainerState::Waiting { reason, message } => match message {
            Some(m) if !m.is_empty() => format!("Waiting {reason}: {m}"),
            _ => format!("Waiting {reason}"),
        },
        ContainerState::Running { started_at } => {
            format!("Running, started {} ago", ago(*started_at, now))
        }
        ContainerState::Terminated(t) => describe_terminated(t, now),
    };
    let _ = writeln!(out, "    State:      {state}");
    let _ = writeln!(
        out,
        "    Ready: {}  Started: {}  Restarts: {}",
        c.ready,
        c.started.map_or("-".to_owned(), |s| s.to_string()),
        c.restart_count
    );
    if let Some(t) = &c.last_state {
        let _ = writeln!(out, "    Last State: {}", describe_terminated(t, now));
    }
    if let Some(b) = &c.backoff {
        let _ = writeln!(out, "    Back-off:   {}", countdown_text(b, now));
    }
    if let Some(limit) = &c.memory_limit {
        let _ = writeln!(out, "    Memory limit: {limit}");
    }
    for (label, p) in [
        ("Startup", &c.probes.startup),
        ("Liveness", &c.probes.liveness),
        ("Readiness", &c.probes.readiness),
    ] {
        if let Some(p) = p {
            let _ = writeln!(out, "    {label}:{:pad$}{p}", "", pad = 11 - label.len());
        }
    }
    super::spec::text(out, c);
}

/// The `Diagnosis:` section: each finding as `ERROR container db: <headline>` (`WARNING`,
/// `INFO`; `ERROR pod: …` for the pod as a whole; `likely:` before an inferred cause), its
/// evidence indented below, then `action: …`; `<none>` without findings. Ends with a blank line.
fn diagnosis_text(out: &mut String, diagnosis: &[Finding]) {
    let _ = writeln!(out, "Diagnosis:");
    if diagnosis.is_empty() {
        let _ = writeln!(out, "  <none>");
    }
    for f in diagnosis {
        let severity = match f.severity {
            Severity::Error => "ERROR",
            Severity::Warning => "WARNING",
            Severity::Info => "INFO",
        };
        let likely = match f.confidence {
            Confidence::Likely => "likely: ",
            Confidence::Certain => "",
        };
        match &f.container {
            Some(c) => {
                let _ = writeln!(out, "  {severity} container {c}: {likely}{}", f.headline);
            }
            None => {
                let _ = writeln!(out, "  {severity} pod: {likely}{}", f.headline);
            }
        }
        for e in &f.evidence {
            let _ = writeln!(out, "      {e}");
        }
        if let Some(action) = &f.action {
            let _ = writeln!(out, "    action: {action}");
        }
    }
    let _ = writeln!(out);
}

/// The `--once` text summary for `pod`, its `events` (already newest first) and its
/// `diagnosis` (most important first, printed first) at `now`.
#[must_use]
pub fn to_text(
    pod: &PodSummary,
    events: &[EventSummary],
    owner: &OwnerStatus,
    diagnosis: &[Finding],
    now: Timestamp,
) -> String {
    to_text_with_usage(pod, events, owner, diagnosis, None, now)
}

/// [`to_text`] with each container's resources and, from one PodMetrics read, its usage.
#[must_use]
pub fn to_text_with_usage(
    pod: &PodSummary,
    events: &[EventSummary],
    owner: &OwnerStatus,
    diagnosis: &[Finding],
    usage: Option<&PodMetrics>,
    now: Timestamp,
) -> String {
    let row = pod.row(now);
    let mut out = String::new();
    diagnosis_text(&mut out, diagnosis);
    let _ = writeln!(out, "Pod {}/{}", pod.namespace, pod.name);
    let _ = writeln!(
        out,
        "  STATUS {}   READY {}   RESTARTS {}   AGE {}",
        row.status, row.ready, row.restarts, row.age
    );
    let _ = writeln!(
        out,
        "  Phase {}   Node {}   IP {}   QoS {}",
        if pod.phase.is_empty() {
            "<none>"
        } else {
            &pod.phase
        },
        pod.node.as_deref().unwrap_or("<none>"),
        pod.pod_ip.as_deref().unwrap_or("<none>"),
        pod.qos_class.as_deref().unwrap_or("<none>"),
    );
    if let Some(d) = diagnose(pod, owner, now) {
        let _ = writeln!(out, "  Deletion: {}", d.headline);
        if let Some(hint) = d.hint {
            let _ = writeln!(out, "    {hint}");
        }
    }
    if !pod.reason.is_empty() || !pod.message.is_empty() {
        let _ = writeln!(out, "  Reason {}: {}", pod.reason, pod.message);
    }
    let _ = writeln!(out, "\nContainers (kubelet order):");
    for c in &pod.containers {
        container_text(&mut out, c, now);
        usage_text(&mut out, pod, c, usage);
    }
    let _ = writeln!(out, "\nConditions:");
    if pod.conditions.is_empty() {
        let _ = writeln!(out, "  <none>");
    }
    for c in &pod.conditions {
        let _ = writeln!(
            out,
            "  {:<26} {:<7} {} {} ({} ago)",
            c.type_,
            c.status,
            c.reason,
            c.message,
            ago(c.last_transition_time, now)
        );
    }
    let _ = writeln!(out, "\nEvents (newest first):");
    if events.is_empty() {
        let _ = writeln!(out, "  <none>");
    }
    for e in events {
        let _ = writeln!(
            out,
            "  {:<7} {:<16} {:<22} {}",
            e.type_,
            e.reason,
            e.age_text(now),
            e.message
        );
    }
    out
}
