//! Shared helpers of the rules: finding a container's events and spec, quoting evidence with its
//! source and time, quantities, and the note that old events have expired.

use std::borrow::Cow;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Container, Probe};

use super::Inputs;
use crate::duration::human_duration;
use crate::event::EventSummary;
use crate::pod::{ContainerKind, ContainerSummary, PodSummary};

/// The longest text a finding keeps in one string, in bytes (a 100 KB event message is cut
/// here with a `… [N bytes more]` marker).
pub const MAX_TEXT: usize = 4096;

/// How long the API server keeps events by default (`--event-ttl`, 1 h).
pub const EVENT_TTL: SignedDuration = SignedDuration::from_hours(1);

/// `s` cut to [`MAX_TEXT`] bytes at a character boundary, with the marker; borrowed when short.
#[must_use]
pub fn bounded(s: &str) -> Cow<'_, str> {
    if s.len() <= MAX_TEXT {
        return Cow::Borrowed(s);
    }
    let mut end = MAX_TEXT;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}… [{} bytes more]", &s[..end], s.len() - end))
}

/// A wall-clock time for evidence, UTC: `08:07:08` within a day of `now`, else
/// `2020-07-14 08:07:08`.
#[must_use]
pub fn clock(t: Timestamp, now: Timestamp) -> String {
    if now.duration_since(t).abs() < SignedDuration::from_hours(24) {
        // UTC has no offset to look up: the time of day is the Unix second modulo a day.
        let s = t.as_second().rem_euclid(86_400);
        let mut out = String::with_capacity(8);
        for (i, part) in [s / 3600, s / 60 % 60, s % 60].into_iter().enumerate() {
            if i > 0 {
                out.push(':');
            }
            // Each part is 0..=59 (hours 0..=23): two decimal digits.
            for digit in [part / 10, part % 10] {
                out.push(char::from_digit(u32::try_from(digit).unwrap_or(0), 10).unwrap_or('0'));
            }
        }
        out
    } else {
        let dt = t.to_zoned(jiff::tz::TimeZone::UTC);
        dt.strftime("%Y-%m-%d %H:%M:%S").to_string()
    }
}

/// `clock` of an optional time, `<unknown time>` when absent.
#[must_use]
pub fn clock_opt(t: Option<Timestamp>, now: Timestamp) -> String {
    t.map_or_else(|| "<unknown time>".to_owned(), |t| clock(t, now))
}

/// The container an event's `involvedObject.fieldPath` names: `spec.containers{db}`,
/// `spec.initContainers{db}` and `spec.ephemeralContainers{db}` → `db`; `None` otherwise.
#[must_use]
pub fn container_of(field_path: &str) -> Option<&str> {
    let inner = field_path.strip_suffix('}')?;
    // `{` is ASCII, so the byte after it starts a character.
    let open = inner.bytes().rposition(|b| b == b'{')?;
    inner.get(open + 1..)
}

/// One event as evidence: `event Killing (×6, last at 08:06:40): "Container db failed …"`.
#[must_use]
pub fn event_line(e: &EventSummary, now: Timestamp) -> String {
    let when = match (e.count, e.last_timestamp) {
        (n, Some(t)) if n > 1 => format!(" (×{n}, last at {})", clock(t, now)),
        (_, Some(t)) => format!(" at {}", clock(t, now)),
        (n, None) if n > 1 => format!(" (×{n})"),
        _ => String::new(),
    };
    format!("event {}{when}: \"{}\"", e.reason, e.message)
}

/// The spec of init or main container `name` (ephemeral containers have another type).
#[must_use]
pub fn spec_of<'a>(pod: &'a PodSummary, name: &str) -> Option<&'a Container> {
    pod.spec
        .init_containers
        .iter()
        .flatten()
        .chain(pod.spec.containers.iter())
        .find(|c| c.name == name)
}

/// `"init container fetch-config"`, `"sidecar log-shipper"`, `"container db"`,
/// `"ephemeral container debugger"`: how a headline names `c`.
#[must_use]
pub fn role(c: &ContainerSummary) -> String {
    match c.kind {
        ContainerKind::Init => format!("init container {}", c.name),
        ContainerKind::Sidecar => format!("sidecar {}", c.name),
        ContainerKind::Main => format!("container {}", c.name),
        ContainerKind::Ephemeral => format!("ephemeral container {}", c.name),
    }
}

/// Whether container `c` of `pod` terminated and will not be restarted, with no earlier
/// instance (no `lastState`): a main or init container under `restartPolicy: Never`, or any in a
/// pod whose phase is `Failed` or `Succeeded`. Its dead instance is the current one, so its
/// current log (`kubectl logs` without `--previous`) is what it said last. Under
/// `restartPolicy: Always` a terminated container is about to restart, and its current log
/// would race the restart.
#[must_use]
pub fn ended_without_restart(pod: &crate::PodSummary, c: &crate::ContainerSummary) -> bool {
    let for_good = matches!(pod.phase.as_str(), "Failed" | "Succeeded")
        || (pod.restart_policy == "Never" && c.kind != crate::ContainerKind::Sidecar);
    for_good && c.last_state.is_none() && matches!(c.state, crate::ContainerState::Terminated(_))
}

/// The log tail of container `name`'s dead instance and what to call it: its previous
/// instance's (`previous log`), else — for a container that terminated and never restarted (a
/// Job's pod, `restartPolicy: Never`), whose dead instance is the current one — the current
/// tail (`log`).
fn dead_tail<'a>(inp: &Inputs<'a>, name: &str) -> Option<(&'a super::LogTail, &'static str)> {
    if let Some(t) = inp.logs.previous.get(name) {
        return Some((t, "previous log"));
    }
    let ended = inp
        .pod
        .containers
        .iter()
        .any(|c| c.name == name && ended_without_restart(inp.pod, c));
    if !ended {
        return None;
    }
    inp.logs.current.get(name).map(|t| (t, "log"))
}

/// The last `n` lines of container `name`'s dead instance's log tail, if one was read: the
/// previous instance's, or the current one of a container that ended without restarting.
#[must_use]
pub fn previous_tail<'a>(inp: &Inputs<'a>, name: &str, n: usize) -> Option<&'a [String]> {
    previous_scored(inp, name, n).map(|(lines, _)| lines)
}

/// [`previous_tail`] with each line's `logline::score` (the same length).
#[must_use]
pub fn previous_scored<'a>(
    inp: &Inputs<'a>,
    name: &str,
    n: usize,
) -> Option<(&'a [String], std::borrow::Cow<'a, [u8]>)> {
    use std::borrow::Cow;
    let tail = dead_tail(inp, name)?.0;
    let lines = tail.lines.as_ref().ok()?;
    let non_empty = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |i| i + 1);
    let range = non_empty.saturating_sub(n)..non_empty;
    let scores = match tail.scores() {
        Cow::Borrowed(s) => Cow::Borrowed(&s[range.clone()]),
        Cow::Owned(s) => Cow::Owned(s[range.clone()].to_vec()),
    };
    Some((&lines[range], scores))
}

/// Evidence lines quoting the dead instance's log's last `n` lines (`previous log, last line:
/// "…"`; `log, last line: "…"` for a container that ended without restarting).
#[must_use]
pub fn previous_log_evidence(inp: &Inputs<'_>, name: &str, n: usize) -> Vec<String> {
    let Some((t, label)) = dead_tail(inp, name) else {
        return Vec::new();
    };
    match &t.lines {
        Ok(_) => {
            let tail = previous_tail(inp, name, n).unwrap_or(&[]);
            match tail {
                [] => vec![format!("{label}: empty (the process wrote nothing)")],
                [one] => vec![format!("{label}, last line: \"{}\"", one.trim_end())],
                many => {
                    let mut v = vec![format!("{label}, last {} lines:", many.len())];
                    v.extend(many.iter().map(|l| format!("  {}", l.trim_end())));
                    v
                }
            }
        }
        Err(why) => vec![format!("{label} not available: {why}")],
    }
}

/// The note that the events which would explain something from `since` have expired: when
/// `since` is more than [`EVENT_TTL`] ago and `have_events` is false.
#[must_use]
pub fn expired_note(since: Option<Timestamp>, now: Timestamp, have_events: bool) -> Option<String> {
    let since = since?;
    (!have_events && now.duration_since(since) > EVENT_TTL).then(|| {
        format!(
            "no events about it: it began {} ago and the API server keeps events about 1 h",
            human_duration(now.duration_since(since))
        )
    })
}

/// A Kubernetes quantity (`512Mi`, `1G`, `100m`, `1.5Gi`, `2e3`) as a number of base units
/// (bytes, cores). `None` when malformed.
#[must_use]
pub fn quantity(q: &str) -> Option<f64> {
    let q = q.trim();
    let split = q
        .find(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E')
        .unwrap_or(q.len());
    let (num, suffix) = q.split_at(split);
    let n: f64 = num.parse().ok()?;
    let factor = match suffix {
        "" => 1.0,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        _ => return None,
    };
    Some(n * factor)
}

/// Bytes in the unit kubectl would pick for memory (`768Mi`, `1.8Gi`, `34260Ki`-sized → `33.5Mi`).
#[must_use]
pub fn bytes_text(b: f64) -> String {
    const MI: f64 = 1024.0 * 1024.0;
    if b >= 1024.0 * MI {
        trim_float(b / (1024.0 * MI), "Gi")
    } else if b >= MI {
        trim_float(b / MI, "Mi")
    } else {
        trim_float(b / 1024.0, "Ki")
    }
}

fn trim_float(v: f64, unit: &str) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s);
    format!("{s}{unit}")
}

/// A container's `resources.requests[name]` / `resources.limits[name]` as written.
#[must_use]
pub fn resource<'a>(c: &'a Container, limits: bool, name: &str) -> Option<&'a str> {
    let r = c.resources.as_ref()?;
    let map = if limits {
        r.limits.as_ref()
    } else {
        r.requests.as_ref()
    }?;
    map.get(name).map(|q| q.0.as_str())
}

/// Probe parameters with the API server's defaults: `(initialDelaySeconds, periodSeconds,
/// timeoutSeconds, failureThreshold)` = `(0, 10, 1, 3)` when absent.
#[must_use]
pub fn probe_timing(p: &Probe) -> (i64, i64, i64, i64) {
    (
        i64::from(p.initial_delay_seconds.unwrap_or(0)),
        i64::from(p.period_seconds.unwrap_or(10).max(1)),
        i64::from(p.timeout_seconds.unwrap_or(1).max(1)),
        i64::from(p.failure_threshold.unwrap_or(3).max(1)),
    )
}

/// The probe's handler in one phrase: `exec [sh -c …]`, `http-get :4040/ready`,
/// `tcp-socket :5432`, `grpc :9000`.
#[must_use]
pub fn probe_handler(p: &Probe) -> String {
    let port = |p: &k8s_openapi::apimachinery::pkg::util::intstr::IntOrString| match p {
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(n) => n.to_string(),
        k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::String(s) => s.clone(),
    };
    if let Some(e) = &p.exec {
        format!("exec [{}]", e.command.as_deref().unwrap_or(&[]).join(" "))
    } else if let Some(h) = &p.http_get {
        format!(
            "http-get {}:{}{}",
            h.host.as_deref().unwrap_or(""),
            port(&h.port),
            h.path.as_deref().unwrap_or("/")
        )
    } else if let Some(t) = &p.tcp_socket {
        format!(
            "tcp-socket {}:{}",
            t.host.as_deref().unwrap_or(""),
            port(&t.port)
        )
    } else if let Some(g) = &p.grpc {
        format!("grpc :{}", g.port)
    } else {
        "unknown handler".to_owned()
    }
}

/// `how long` as kubectl prints durations (`58s`, `4m57s`).
#[must_use]
pub fn took(d: SignedDuration) -> String {
    human_duration(d)
}

/// The first `chars` characters of `s` (all of it when shorter): a bound on quoted text and on
/// the keys it is looked up by. A string of at most `chars` bytes is returned without a scan.
#[must_use]
pub fn first_chars(s: &str, chars: usize) -> &str {
    if s.len() <= chars {
        return s;
    }
    &s[..s.char_indices().nth(chars).map_or(s.len(), |(i, _)| i)]
}
