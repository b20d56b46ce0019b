//! Probe rules for a running container: readiness failing (not ready, out of Service endpoints,
//! never restarted for it), a liveness probe failing before it kills, a native sidecar whose
//! startupProbe never passes and so holds back everything after it, and probes that *errored*
//! (the runtime could not run them) rather than *failed* (the app answered badly).
//!
//! The kubelet records a failed probe as a Warning `Unhealthy` event `<Kind> probe failed: …`
//! and one it could not run as `<Kind> probe errored: …` (`pkg/kubelet/prober/prober.go`); a
//! readiness failure only sets `ready: false`, a liveness or startup failure past
//! `failureThreshold` kills the container. Checked against cases 19 and 20.

use jiff::{SignedDuration, Timestamp};

use super::facts::{self, clock, event_line, probe_handler, probe_timing, role};
use super::{Finding, Inputs, Severity};
use crate::event::EventSummary;
use crate::pod::{ContainerKind, ContainerState, ContainerSummary};

/// What a log line says when the program listens on loopback only (`127.0.0.1`,
/// `localhost:`), as SIMD substring finders built once (every line of both instances is
/// searched on each diagnosis).
static LOOPBACK: std::sync::LazyLock<[memchr::memmem::Finder<'static>; 2]> =
    std::sync::LazyLock::new(|| {
        [
            memchr::memmem::Finder::new("127.0.0.1"),
            memchr::memmem::Finder::new("localhost:"),
        ]
    });

/// The newest `Unhealthy` event about `c` for probe kind `kind` (`Readiness`, `Liveness`,
/// `Startup`).
fn unhealthy<'a>(
    inp: &Inputs<'a>,
    c: &'a ContainerSummary,
    kind: &str,
) -> Option<&'a EventSummary> {
    inp.events_of(&c.name)
        .find(|e| e.reason == "Unhealthy" && e.message.starts_with(kind))
}

/// What a probe failure message says about where the fault is.
fn reading(message: &str) -> &'static str {
    if message.contains("probe errored") {
        "the probe errored: the runtime could not run it (a node or runtime problem, not the app's answer)"
    } else if message.contains("connection refused") {
        "connection refused: nothing listens on that port at the pod's IP (an app listening on 127.0.0.1 only is refused too)"
    } else if message.contains("statuscode: 5") {
        "the app answers with a server error: it says it is not ready; its own logs say why"
    } else if message.contains("statuscode: 4") {
        "the app answers with a client error: the probe's path or port is probably wrong"
    } else if message.contains("deadline exceeded")
        || message.contains("Timeout")
        || message.contains("timed out")
    {
        "no answer within timeoutSeconds: the app is too slow or blocked"
    } else if message.contains("no route to host") || message.contains("i/o timeout") {
        "the pod's IP is not reachable from the node: a network problem"
    } else {
        "the check did not succeed"
    }
}

/// Findings about `c`'s probes while it runs.
pub fn findings(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Finding>) {
    let ContainerState::Running { started_at } = &c.state else {
        return;
    };
    if c.kind == ContainerKind::Sidecar && c.started == Some(false) {
        out.push(sidecar_not_started(inp, c));
        return;
    }
    if !c.ready && c.kind != ContainerKind::Ephemeral && inp.pod.deletion_timestamp.is_none() {
        out.extend(not_ready(inp, c, *started_at));
        return;
    }
    if let Some(e) = unhealthy(inp, c, "Liveness")
        && e.last_timestamp
            .is_some_and(|t| inp.now.duration_since(t) < SignedDuration::from_mins(2))
    {
        out.push(
            Finding::new(
                "liveness-failing",
                Severity::Warning,
                Some(&c.name),
                format!("{}'s liveness probe is failing: the kubelet kills it once failures reach failureThreshold", role(c)),
            )
            .with(event_line(e, inp.now))
            .with(reading(&e.message)),
        );
    }
}

fn not_ready(
    inp: &Inputs<'_>,
    c: &ContainerSummary,
    started_at: Option<Timestamp>,
) -> Option<Finding> {
    let spec = facts::spec_of(inp.pod, &c.name);
    let readiness = spec.and_then(|s| s.readiness_probe.as_ref());
    let event = unhealthy(inp, c, "Readiness");
    if readiness.is_none() && event.is_none() {
        return None;
    }
    let others_ready: Vec<&str> = inp
        .pod
        .containers
        .iter()
        .filter(|o| o.name != c.name && o.kind == ContainerKind::Main && o.ready)
        .map(|o| o.name.as_str())
        .collect();
    let answer = event.map(|e| {
        e.message
            .split_once(": ")
            .map_or(e.message.as_str(), |(_, rest)| rest)
            .to_owned()
    });
    let mut headline = format!("{} is running but not ready", role(c));
    match &answer {
        Some(a) => headline.push_str(&format!(": its readiness probe fails ({a})")),
        None => headline.push_str(": its readiness probe has not passed"),
    }
    headline.push_str("; the pod gets no Service traffic");
    if !others_ready.is_empty() {
        headline.push_str(&format!(
            " although {} {} ready",
            others_ready.join(", "),
            if others_ready.len() == 1 { "is" } else { "are" }
        ));
    }
    let mut f = Finding::new(
        "readiness-failing",
        Severity::Warning,
        Some(&c.name),
        headline,
    );
    if let Some(e) = event {
        f.evidence.push(event_line(e, inp.now));
        f.evidence.push(reading(&e.message).to_owned());
    } else {
        f.evidence
            .extend(facts::expired_note(started_at, inp.now, false));
    }
    if let Some(p) = readiness {
        let (delay, period, timeout, threshold) = probe_timing(p);
        f.evidence.push(format!(
            "readinessProbe: {} initialDelaySeconds {delay} periodSeconds {period} timeoutSeconds {timeout} failureThreshold {threshold}",
            probe_handler(p)
        ));
    }
    f.evidence.push(format!(
        "running since {}, restartCount {}: a failing readiness probe never restarts a container, it only keeps the pod out of its Services' endpoints",
        facts::clock_opt(started_at, inp.now),
        c.restart_count
    ));
    if let (Some(l), Some(r), Some(start)) = (
        spec.and_then(|s| s.liveness_probe.as_ref()),
        readiness,
        started_at,
    ) && probe_handler(l) == probe_handler(r)
    {
        let (delay, period, _, threshold) = probe_timing(l);
        // The failureThreshold-th failure comes (threshold − 1) periods after the first probe
        // at initialDelaySeconds, give or take one period.
        let earliest = start + SignedDuration::from_secs(delay + (threshold - 1) * period);
        let latest = start + SignedDuration::from_secs(delay + threshold * period);
        if latest > inp.now {
            f.evidence.push(format!(
                "the livenessProbe checks the same endpoint from {delay}s and kills after {threshold} failures {period}s apart: unless it starts answering, the kubelet kills it between {} and {} (in {})",
                clock(earliest, inp.now),
                clock(latest, inp.now),
                facts::took(earliest.duration_since(inp.now).max(SignedDuration::ZERO))
            ));
        }
    }
    let logs_listen = facts::previous_tail(inp, &c.name, 50)
        .into_iter()
        .flatten()
        .chain(
            inp.logs
                .current
                .get(&c.name)
                .and_then(|t| t.lines.as_ref().ok())
                .into_iter()
                .flatten(),
        )
        .find(|l| LOOPBACK.iter().any(|f| f.find(l.as_bytes()).is_some()));
    if let Some(l) = logs_listen {
        f.evidence.push(format!(
            "log: \"{}\" — listening on loopback only refuses the kubelet's probes",
            l.trim()
        ));
    }
    f.action = Some(match answer.as_deref() {
        Some(a) if a.contains("connection refused") => format!(
            "check that {} listens on 0.0.0.0 (not 127.0.0.1) on the probed port, and that the probe's port is the one it listens on: kubectl logs {} -c {}",
            c.name, inp.pod.name, c.name
        ),
        _ => format!(
            "read why {} says it is not ready: kubectl logs {} -c {}",
            c.name, inp.pod.name, c.name
        ),
    });
    Some(f)
}

/// A native sidecar (init container with `restartPolicy: Always`) runs but its startupProbe
/// has not passed: the kubelet starts nothing after it until `started` is true (KEP-753).
fn sidecar_not_started(inp: &Inputs<'_>, c: &ContainerSummary) -> Finding {
    let waiting: Vec<&str> = inp
        .pod
        .containers
        .iter()
        .skip_while(|o| o.name != c.name)
        .skip(1)
        .filter(|o| {
            o.kind != ContainerKind::Ephemeral && matches!(o.state, ContainerState::Waiting { .. })
        })
        .map(|o| o.name.as_str())
        .collect();
    let mut f = Finding::new(
        "sidecar-startup-blocking",
        Severity::Warning,
        Some(&c.name),
        format!(
            "sidecar {} runs but its startupProbe has not passed, so {} wait{}",
            c.name,
            if waiting.is_empty() {
                "the containers after it".to_owned()
            } else {
                waiting.join(", ")
            },
            if waiting.len() == 1 { "s" } else { "" }
        ),
    );
    if let Some(e) = unhealthy(inp, c, "Startup") {
        f.evidence.push(event_line(e, inp.now));
        f.evidence.push(reading(&e.message).to_owned());
    }
    if let Some(p) = facts::spec_of(inp.pod, &c.name).and_then(|s| s.startup_probe.as_ref()) {
        let (delay, period, _, threshold) = probe_timing(p);
        f.evidence.push(format!(
            "startupProbe: {} initialDelaySeconds {delay} periodSeconds {period} failureThreshold {threshold}",
            probe_handler(p)
        ));
    }
    f.evidence.push(
        "containers after a native sidecar start only once its startup probe passes".to_owned(),
    );
    f.action = Some(format!(
        "read the sidecar's logs: kubectl logs {} -c {}",
        inp.pod.name, c.name
    ));
    f
}
