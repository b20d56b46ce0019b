//! The diagnosis engine: why the pod is broken and what to do next, from the evidence.
//!
//! Pure: [`diagnose`] takes the pod (status and spec), its events, the tails of its containers'
//! logs, what is known of the objects the pod refers to and the time, and returns
//! [`Finding`]s, most important first. No IO, no clock. The rules are written from what the
//! kubelet, scheduler and container runtime do and say (`docs/diagnosis.md`), one family per
//! file: [`exit`] (exit codes and signals), [`probes`], [`images`], [`config`], [`init`],
//! [`scheduling`], [`pod_level`] (eviction, node lost, deletion), [`outcome`] (completed pods,
//! Jobs, the healthy summary) and [`advice`] (probe mistakes that are not failures yet).
//!
//! Every string a finding carries goes through [`crate::sanitize`] once, in
//! [`Finding::clean`], so text from the cluster never reaches a terminal raw.

pub mod advice;
pub mod case_logs;
pub mod cause;
pub mod config;
pub mod consistency;
pub mod context;
pub mod evidence;
pub mod exit;
pub mod facts;
pub mod images;
pub mod index;
pub mod init;
pub mod kb;
pub mod kill;
pub mod logline;
pub mod matching;
pub mod memory;
pub mod memory_usage;
pub mod messages;
mod node;
pub mod outcome;
pub mod pod_level;
pub mod probes;
pub mod ranking;
pub mod rollout;
pub mod scheduling;
pub mod stalled;
pub mod waiting;
pub mod words;

pub use logline::LogTail;

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::deletion::OwnerStatus;
use super::event::EventSummary;
use super::pod::PodSummary;
use super::sanitize::sanitize;
pub use evidence::{Basis, Confidence, Evidence, EvidenceKind, EvidenceList};

/// How bad a finding is. Serialised as `"error"`, `"warning"`, `"info"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The pod or a container does not work and will not recover by itself as it is.
    Error,
    /// Something is wrong or about to be (not ready, restarting, a risky setting).
    Warning,
    /// A fact worth knowing, nothing to fix (completed, healthy, expected stop).
    Info,
}

/// Another object a finding rests on, to be confirmed with one GET
/// (`docs/diagnosis.md` "Confirming with other objects").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ObjectRef {
    /// A Secret in the pod's namespace.
    Secret(String),
    /// A ConfigMap in the pod's namespace.
    ConfigMap(String),
    /// A PersistentVolumeClaim in the pod's namespace.
    PersistentVolumeClaim(String),
    /// A Node (cluster-scoped).
    Node(String),
}

impl ObjectRef {
    /// `secret "db-creds"`-style text, kubectl's resource singular and the name.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            ObjectRef::Secret(n) => format!("Secret {n}"),
            ObjectRef::ConfigMap(n) => format!("ConfigMap {n}"),
            ObjectRef::PersistentVolumeClaim(n) => format!("PersistentVolumeClaim {n}"),
            ObjectRef::Node(n) => format!("Node {n}"),
        }
    }
}

/// What one GET of an [`ObjectRef`] said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// The object exists. `keys`: a Secret's or ConfigMap's data keys (never values);
    /// `phase`: a PVC's `status.phase`; `conditions`: a Node's conditions that are not fine,
    /// as `Type=Status (reason)` (`Ready=False (KubeletNotReady)`, `MemoryPressure=True`).
    Found {
        /// Data keys (Secret, ConfigMap), sorted.
        keys: Vec<String>,
        /// `status.phase` (PVC).
        phase: Option<String>,
        /// Node conditions that are not in their healthy state.
        conditions: Vec<String>,
    },
    /// 404: the object does not exist.
    Absent,
    /// 403: RBAC did not let podscope look; the text is the server's reason.
    Forbidden(String),
    /// Any other failure (transport, 5xx), in one line.
    Failed(String),
}

/// Log tails by container name: `previous` (the dead instance, `?previous=true`) and `current`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogTails {
    /// Tails of the previous instance, by container name.
    pub previous: BTreeMap<String, LogTail>,
    /// Tails of the current instance, by container name.
    pub current: BTreeMap<String, LogTail>,
}

/// Answers about other objects, by reference.
pub type Related = BTreeMap<ObjectRef, Lookup>;

/// Everything [`diagnose`] looks at.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// The pod.
    pub pod: &'a PodSummary,
    /// Its events, newest first ([`crate::event::sort_newest_first`]).
    pub events: &'a [EventSummary],
    /// Log tails read so far.
    pub logs: &'a LogTails,
    /// Answers about objects the findings rest on.
    pub related: &'a Related,
    /// Whether the owner of a pod held by finalizers exists.
    pub owner: &'a OwnerStatus,
    /// The time the diagnosis is for.
    pub now: Timestamp,
    /// The workload the pod belongs to, when the caller attached to one ([`rollout`] reads it);
    /// `None` for a pod on its own.
    pub workload: Option<&'a crate::workload::WorkloadSummary>,
    /// The pod's node as its watch last saw it (`docs/nodes.md`); `None` when not watched.
    pub node: Option<&'a crate::node::NodeSummary>,
    /// The metrics API's samples of the pod's containers since attach (`docs/usage.md`);
    /// `None` when not read.
    pub usage: Option<&'a crate::usage::UsageHistory>,
    /// The events grouped by container, built by [`diagnose`] (`None`: rules scan `events`).
    index: Option<&'a index::EventIndex<'a>>,
}

impl<'a> Inputs<'a> {
    /// The inputs of one diagnosis: `events` newest first, `now` the time it is for.
    #[must_use]
    pub fn new(
        pod: &'a PodSummary,
        events: &'a [EventSummary],
        logs: &'a LogTails,
        related: &'a Related,
        owner: &'a OwnerStatus,
        now: Timestamp,
    ) -> Self {
        Inputs {
            pod,
            events,
            logs,
            related,
            owner,
            now,
            workload: None,
            node: None,
            usage: None,
            index: None,
        }
    }

    /// These inputs with the pod's workload (for the rollout findings).
    #[must_use]
    pub fn with_workload(self, workload: Option<&'a crate::workload::WorkloadSummary>) -> Self {
        Inputs { workload, ..self }
    }

    /// These inputs with the containers' usage samples (`memory-near-limit`, the OOM finding's
    /// last sample read them).
    #[must_use]
    pub fn with_usage(self, usage: Option<&'a crate::usage::UsageHistory>) -> Self {
        Inputs { usage, ..self }
    }

    /// These inputs with the pod's node (the `node-not-ready` finding reads it).
    #[must_use]
    pub fn with_node(self, node: Option<&'a crate::node::NodeSummary>) -> Self {
        Inputs { node, ..self }
    }
}

/// One finding: the cause, the facts it rests on, and the one next step.
///
/// JSON shape (`--once -o json`, `"diagnosis"`): `{"rule", "severity", "confidence", "basis",
/// "container", "headline", "evidence": [{"kind", "source", "text", "at"}], "action"}`
/// (`docs/diagnosis.md` "Facts apart from guesses").
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    /// The rule that made it, a stable kebab-case id (`liveness-kill`, `oom-killed`,
    /// `image-not-found`, a knowledge-base row's id such as `loader-exec-format`; listed in
    /// `docs/diagnosis.md` and `docs/diagnosis-kb.md`).
    pub rule: &'static str,
    /// How bad it is.
    pub severity: Severity,
    /// Whether the cluster said the cause verbatim (`certain`) or it is inferred (`likely`).
    pub confidence: Confidence,
    /// How specific the evidence is (the ranking's first key).
    pub basis: Basis,
    /// The container it is about, `None` for the pod as a whole.
    pub container: Option<String>,
    /// One sentence naming the cause, the culprit and the decisive values.
    pub headline: String,
    /// The facts it rests on, each with its kind, source and time.
    pub evidence: EvidenceList,
    /// The one recommended next step, concrete, when there is one.
    pub action: Option<String>,
    /// Who can fix it, when a knowledge-base row or a rule knows (not serialised; the
    /// consistency pass reads it).
    #[serde(skip)]
    pub fix: Option<kb::Fix>,
    /// Objects this finding rests on that one GET could confirm (not serialised).
    #[serde(skip)]
    pub checks: Vec<ObjectRef>,
}

impl Finding {
    /// A finding with no evidence, action or checks yet; its confidence and basis are the
    /// rule's defaults ([`ranking::defaults`]).
    #[must_use]
    pub fn new(
        rule: &'static str,
        severity: Severity,
        container: Option<&str>,
        headline: impl Into<String>,
    ) -> Finding {
        let (confidence, basis) = ranking::defaults(rule);
        Finding {
            rule,
            severity,
            confidence,
            basis,
            container: container.map(str::to_owned),
            headline: headline.into(),
            evidence: EvidenceList::default(),
            action: None,
            fix: None,
            checks: Vec::new(),
        }
    }

    /// Adds one fact of evidence.
    #[must_use]
    pub fn with(mut self, evidence: impl evidence::Line) -> Finding {
        self.evidence.push(evidence);
        self
    }

    /// Sets the action.
    #[must_use]
    pub fn action(mut self, action: impl Into<String>) -> Finding {
        self.action = Some(action.into());
        self
    }

    /// Sets the confidence.
    #[must_use]
    pub fn confidence(mut self, confidence: Confidence) -> Finding {
        self.confidence = confidence;
        self
    }

    /// Sets the basis.
    #[must_use]
    pub fn basis(mut self, basis: Basis) -> Finding {
        self.basis = basis;
        self
    }

    /// Sanitises every string (single-line: newlines become `␊`) and bounds each to
    /// [`facts::MAX_TEXT`] bytes with a `… [N bytes more]` marker.
    fn clean(mut self) -> Finding {
        let fix = |s: &mut String| {
            let bounded = facts::bounded(s);
            if let std::borrow::Cow::Owned(c) = sanitize(&bounded) {
                *s = c;
            } else if bounded.len() != s.len() {
                *s = bounded.into_owned();
            }
        };
        fix(&mut self.headline);
        self.evidence.iter_mut().for_each(|e| {
            fix(&mut e.text);
            // A borrowed source is one of the engine's constants; only a built one may carry
            // cluster text.
            if let std::borrow::Cow::Owned(s) = &mut e.source {
                fix(s);
            }
        });
        if let Some(h) = self.action.as_mut() {
            fix(h);
        }
        if let Some(c) = self.container.as_mut() {
            fix(c);
        }
        self
    }
}

/// Diagnoses the pod: its problems first (errors, then warnings, each family in the order the
/// kubelet meets them: pod level, scheduling, init, sidecars, main, ephemeral), then, when
/// nothing is wrong, one `info` finding saying so (or what the pod completed), then advice
/// (probe mistakes) last. Never panics; findings are sanitised.
#[must_use]
pub fn diagnose(inp: &Inputs<'_>) -> Vec<Finding> {
    let events = index::EventIndex::new(inp.events);
    let inp = &Inputs {
        index: Some(&events),
        ..*inp
    };
    let mut problems: Vec<Finding> = Vec::new();
    // First among equals: what the rollout says explains the pod's own finding.
    rollout::findings(inp, &mut problems);
    let explained = pod_level::findings(inp, &mut problems);
    node::findings(inp, &mut problems);
    scheduling::findings(inp, &mut problems);
    if !explained {
        for (index, c) in inp.pod.containers.iter().enumerate() {
            let before = problems.len();
            images::findings(inp, c, &mut problems);
            config::findings(inp, c, &mut problems);
            if problems.len() == before {
                exit::findings(inp, index, c, &mut problems);
            }
            if problems.len() == before {
                probes::findings(inp, c, &mut problems);
            }
            if problems.len() == before {
                waiting::findings(inp, c, &mut problems);
            }
        }
        init::findings(inp, &mut problems);
        stalled::findings(inp, &mut problems);
        problems.extend(
            inp.pod
                .containers
                .iter()
                .filter_map(|c| memory_usage::near_limit(inp, c)),
        );
        if problems.is_empty() {
            waiting::sandbox(inp, &mut problems);
        }
        if problems.is_empty() {
            waiting::warning_events(inp, &mut problems);
        }
    }
    messages::apply(inp, &mut problems);
    for f in &mut problems {
        context::throttling(inp, f);
        context::platform(inp, f);
        context::identity(inp, f);
        context::node_affinity(inp, f);
    }
    ranking::rank(inp, &mut problems);
    let mut out = problems;
    if !out
        .iter()
        .any(|f| matches!(f.severity, Severity::Error | Severity::Warning))
    {
        out.extend(outcome::summary(inp));
    }
    advice::findings(inp, &mut out);
    let out: Vec<Finding> = out.into_iter().map(Finding::clean).collect();
    consistency::enforce(inp, out)
}

/// The objects the findings rest on that have no answer in `related` yet, each once, in
/// finding order: what the caller should GET next.
#[must_use]
pub fn wanted_lookups(findings: &[Finding], related: &Related) -> Vec<ObjectRef> {
    let mut out: Vec<ObjectRef> = Vec::new();
    for r in findings.iter().flat_map(|f| &f.checks) {
        if !related.contains_key(r) && !out.contains(r) {
            out.push(r.clone());
        }
    }
    out
}
