//! Parsing the scheduler's `FitError` message (`pkg/scheduler/framework/types.go`,
//! `FitError.Error`):
//!
//! ```text
//! 0/N nodes are available: <prefilter message>. preemption: <post-filter message>.
//! 0/N nodes are available: C1 R1, C2 R2. preemption: 0/N nodes are available: C3 P1, C4 P2.
//! ```
//!
//! The per-node reasons are a histogram, `count reason`, sorted by text and joined with `", "`;
//! a reason can itself contain `", "` (the old `node(s) had taint {k: v}, that the pod didn't
//! tolerate`), so items are split only where `", "` is followed by a count. A PreFilter failure
//! (`pod has unbound immediate PersistentVolumeClaims`, `persistentvolumeclaim "x" not found`)
//! replaces the histogram. Pre-1.19 schedulers wrote `No nodes are available that match all of
//! the following predicates:: Insufficient cpu (3), MatchNodeSelector (2).`; an empty cluster
//! gives `no nodes available to schedule pods`.

/// The parsed message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FitError {
    /// `N` of `0/N nodes are available`; `None` in the old predicate format.
    pub total: Option<u32>,
    /// `(count, reason)` per node reason, largest count first (message order among equals).
    pub reasons: Vec<(u32, String)>,
    /// A pod-level reason without count (a PreFilter failure).
    pub prefilter: Option<String>,
    /// The text after `preemption: `, without the final period.
    pub preemption: Option<String>,
    /// The preemption part's own histogram, when it has one.
    pub preemption_reasons: Vec<(u32, String)>,
}

/// Splits `a, 3 b, 9 c` into items at `", "` followed by a digit, outside `{…}`.
fn split_items(body: &str) -> Vec<&str> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0
                && b.get(i + 1) == Some(&b' ')
                && b.get(i + 2).is_some_and(u8::is_ascii_digit) =>
            {
                out.push(body[start..i].trim());
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(body[start..].trim());
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

/// `3 Insufficient memory` → `(3, "Insufficient memory")`.
fn counted(item: &str) -> Option<(u32, String)> {
    let (n, rest) = item.split_once(' ')?;
    Some((n.parse().ok()?, rest.trim().to_owned()))
}

/// `0/12 nodes are available: BODY` → `(Some(12), BODY)`.
fn available(text: &str) -> Option<(Option<u32>, &str)> {
    const NEEDLE: &str = " nodes are available";
    let i = text.find(NEEDLE)?;
    let total = text[..i]
        .rsplit(' ')
        .next()
        .and_then(|f| f.split_once('/'))
        .and_then(|(_, n)| n.parse().ok());
    let body = text[i + NEEDLE.len()..].trim_start_matches(':').trim();
    Some((total, body))
}

fn histogram(body: &str) -> (Vec<(u32, String)>, Option<String>) {
    let mut reasons = Vec::new();
    let mut other = Vec::new();
    for item in split_items(body) {
        match counted(item) {
            Some(r) => reasons.push(r),
            None => other.push(item),
        }
    }
    reasons.sort_by_key(|r| std::cmp::Reverse(r.0));
    let other = (!other.is_empty()).then(|| other.join(", "));
    (reasons, other)
}

fn strip_period(s: &str) -> &str {
    let s = s.trim();
    s.strip_suffix('.').unwrap_or(s).trim()
}

/// Parses a `FailedScheduling` message or a `PodScheduled` condition message; `None` when it is
/// none of the scheduler's formats.
#[must_use]
pub fn parse(msg: &str) -> Option<FitError> {
    let msg = msg.trim();
    let lower = msg.to_ascii_lowercase();
    if lower.starts_with("no nodes available to schedule pods") {
        return Some(FitError {
            total: Some(0),
            prefilter: Some(strip_period(msg).to_owned()),
            ..FitError::default()
        });
    }
    if let Some(i) = msg.find("predicates:") {
        let body = strip_period(msg[i + "predicates:".len()..].trim_start_matches(':'));
        let mut reasons: Vec<(u32, String)> = body
            .split(", ")
            .filter_map(|item| {
                let (name, n) = item.trim().rsplit_once(" (")?;
                Some((n.trim_end_matches(')').parse().ok()?, name.to_owned()))
            })
            .collect();
        reasons.sort_by_key(|r| std::cmp::Reverse(r.0));
        return (!reasons.is_empty()).then_some(FitError {
            reasons,
            ..FitError::default()
        });
    }
    let (main, preemption) = match msg.split_once(" preemption: ") {
        Some((m, p)) => (m, Some(strip_period(p))),
        None => (msg, None),
    };
    let (total, body) = available(main)?;
    let (reasons, prefilter) = histogram(strip_period(body));
    let preemption_reasons = preemption
        .and_then(available)
        .map(|(_, b)| histogram(strip_period(b)).0)
        .unwrap_or_default();
    Some(FitError {
        total,
        reasons,
        prefilter,
        preemption: preemption.map(str::to_owned),
        preemption_reasons,
    })
}

/// What a node reason is about, for the headline and the hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// `node(s) didn't match Pod's node affinity/selector` (older: `… node selector`).
    NodeSelection,
    /// `Insufficient <resource>`.
    Insufficient,
    /// `Too many pods` (the node's pod limit).
    TooManyPods,
    /// `node(s) had untolerated taint {…}` / `node(s) had taint {…}, that the pod didn't tolerate`.
    Taint,
    /// `node(s) were unschedulable` (cordoned).
    Cordoned,
    /// `node(s) didn't match pod affinity rules`.
    PodAffinity,
    /// `node(s) didn't match pod anti-affinity rules`.
    PodAntiAffinity,
    /// `node(s) didn't satisfy existing pods anti-affinity rules`.
    ExistingAntiAffinity,
    /// `node(s) didn't match pod topology spread constraints`.
    TopologySpread,
    /// `node(s) had volume node affinity conflict`, `no available volume zone`.
    VolumeZone,
    /// `didn't find available persistent volumes to bind`, `exceed max volume count`, …
    Volume,
    /// `node(s) didn't have free ports for the requested pod ports`.
    Ports,
    /// Not ready, pressure, unreachable.
    NotReady,
    /// `node(s) didn't match the requested node name`.
    NodeName,
    /// Anything else.
    Other,
}

/// The kind of a reason text (any scheduler version's wording).
#[must_use]
pub fn why(reason: &str) -> Why {
    let r = reason.to_ascii_lowercase();
    let has = |s: &str| r.contains(s);
    if has("insufficient") {
        Why::Insufficient
    } else if has("too many pods") {
        Why::TooManyPods
    } else if has("existing pods anti-affinity") {
        Why::ExistingAntiAffinity
    } else if has("anti-affinity") {
        Why::PodAntiAffinity
    } else if has("pod affinity") {
        Why::PodAffinity
    } else if has("volume node affinity") || has("volume zone") {
        Why::VolumeZone
    } else if has("node affinity") || has("node selector") || has("nodeselector") {
        Why::NodeSelection
    } else if has("node.kubernetes.io/not-ready")
        || has("node.kubernetes.io/unreachable")
        || has("not ready")
        || has("pressure")
        || has("out of disk")
    {
        Why::NotReady
    } else if has("node.kubernetes.io/unschedulable") {
        Why::Cordoned
    } else if has("taint") || has("tolerate") {
        Why::Taint
    } else if has("unschedulable") {
        Why::Cordoned
    } else if has("topology spread") {
        Why::TopologySpread
    } else if has("volume") || has("pvc") || has("persistent") || has("storage") {
        Why::Volume
    } else if has("free ports") || has("hostport") {
        Why::Ports
    } else if has("node name") {
        Why::NodeName
    } else {
        Why::Other
    }
}

/// The resource of `Insufficient <resource>`.
#[must_use]
pub fn insufficient_resource(reason: &str) -> Option<&str> {
    let i = reason.find("Insufficient ")?;
    reason[i + "Insufficient ".len()..]
        .split_whitespace()
        .next()
}

/// Whether the preemption part says preemption cannot make room.
#[must_use]
pub fn preemption_futile(fe: &FitError) -> Option<bool> {
    let p = fe.preemption.as_deref()?;
    if fe.preemption_reasons.is_empty() {
        return Some(p.contains("not eligible"));
    }
    Some(fe.preemption_reasons.iter().all(|(_, r)| {
        r.contains("Preemption is not helpful") || r.contains("No preemption victims found")
    }))
}
