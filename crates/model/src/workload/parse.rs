//! Targets as people type them: `NAME`, `pod/NAME`, `deploy/web`, `sts/db`, … with kubectl's
//! spellings of each resource (its plural, singular, short name and `RESOURCE.GROUP` form), and
//! kubectl's errors for the rest (`docs/workloads.md` "Targets"; source: kubectl's resource
//! builder, `staging/src/k8s.io/cli-runtime/pkg/resource/builder.go`, and the short names the
//! API server's discovery lists).

use super::selector;
use super::{TargetRef, WorkloadKind, WorkloadRef};
use crate::sanitize::sanitize;

/// Resources kubectl knows that are not pods nor workloads podscope attaches to, so a
/// `svc/web` is told what podscope takes rather than that the server has no such type.
const OTHER_KNOWN: [&str; 16] = [
    "svc",
    "service",
    "services",
    "cm",
    "configmap",
    "configmaps",
    "secret",
    "secrets",
    "no",
    "node",
    "nodes",
    "ns",
    "namespace",
    "namespaces",
    "ing",
    "ingress",
];

impl WorkloadKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [WorkloadKind; 6] = [
        WorkloadKind::Deployment,
        WorkloadKind::ReplicaSet,
        WorkloadKind::StatefulSet,
        WorkloadKind::DaemonSet,
        WorkloadKind::Job,
        WorkloadKind::CronJob,
    ];

    /// The kind a resource word names (`deploy`, `deployments`, `deployment.apps`, …),
    /// case-insensitively as kubectl's REST mapper matches; `None` for any other word.
    #[must_use]
    pub fn from_resource(word: &str) -> Option<WorkloadKind> {
        let word = word.to_ascii_lowercase();
        WorkloadKind::ALL.into_iter().find(|k| {
            let (singular, plural, short, group) = k.names();
            [singular, plural, short].contains(&word.as_str())
                || word == format!("{singular}.{group}")
                || word == format!("{plural}.{group}")
        })
    }

    /// `(singular, plural, short name, API group)`, e.g. `("deployment", "deployments",
    /// "deploy", "apps")`. The CronJob's short name is `cj`.
    const fn names(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            WorkloadKind::Deployment => ("deployment", "deployments", "deploy", "apps"),
            WorkloadKind::ReplicaSet => ("replicaset", "replicasets", "rs", "apps"),
            WorkloadKind::StatefulSet => ("statefulset", "statefulsets", "sts", "apps"),
            WorkloadKind::DaemonSet => ("daemonset", "daemonsets", "ds", "apps"),
            WorkloadKind::Job => ("job", "jobs", "job", "batch"),
            WorkloadKind::CronJob => ("cronjob", "cronjobs", "cj", "batch"),
        }
    }

    /// The prefix podscope writes before the name (`deploy/web`, `cronjob/nightly`): kubectl's
    /// short name, but `cronjob` spelled out as the brief form people read.
    #[must_use]
    pub const fn short(self) -> &'static str {
        match self {
            WorkloadKind::CronJob => "cronjob",
            k => k.names().2,
        }
    }

    /// The lowercase singular, e.g. `deployment` (as in `deployment web selects app=web`).
    #[must_use]
    pub const fn singular(self) -> &'static str {
        self.names().0
    }

    /// `RESOURCE.GROUP` as the API server names it in errors, e.g. `deployments.apps`.
    #[must_use]
    pub fn group_resource(self) -> String {
        let (_, plural, _, group) = self.names();
        format!("{plural}.{group}")
    }

    /// The object's `kind`, e.g. `Deployment`.
    #[must_use]
    pub const fn kind(self) -> &'static str {
        match self {
            WorkloadKind::Deployment => "Deployment",
            WorkloadKind::ReplicaSet => "ReplicaSet",
            WorkloadKind::StatefulSet => "StatefulSet",
            WorkloadKind::DaemonSet => "DaemonSet",
            WorkloadKind::Job => "Job",
            WorkloadKind::CronJob => "CronJob",
        }
    }
}

impl WorkloadRef {
    /// `deploy/web`: how podscope names the workload in its header and messages.
    #[must_use]
    pub fn display(&self) -> String {
        format!("{}/{}", self.kind.short(), self.name)
    }

    /// kubectl's line for a GET that answered 404:
    /// `Error from server (NotFound): deployments.apps "web" not found` (the API server's
    /// `NewNotFound` message, `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go`).
    #[must_use]
    pub fn not_found(&self) -> String {
        format!(
            "Error from server (NotFound): {} \"{}\" not found",
            self.kind.group_resource(),
            sanitize(&self.name)
        )
    }
}

impl TargetRef {
    /// The target a positional argument names: `NAME` and `pod/NAME` (`pods/`, `po/`) are a
    /// pod; `KIND/NAME` with a workload spelling ([`WorkloadKind::from_resource`]) a workload.
    ///
    /// # Errors
    /// kubectl's wording: `error: the server doesn't have a resource type "deploymnet"` for an
    /// unknown kind; `error: arguments in resource/name form must have a single resource and
    /// name` for `deploy/` or `/web`; `error: arguments in resource/name form may not have more
    /// than one slash`. A known kind that is not a workload (`svc/web`) is told what to pass.
    pub fn parse(arg: &str) -> Result<TargetRef, String> {
        let Some((kind, name)) = arg.split_once('/') else {
            if arg.is_empty() {
                return Err("error: no pod named; pass a POD or KIND/NAME".to_owned());
            }
            return Ok(TargetRef::Pod(arg.to_owned()));
        };
        if name.contains('/') {
            return Err(
                "error: arguments in resource/name form may not have more than one slash"
                    .to_owned(),
            );
        }
        if kind.is_empty() || name.is_empty() {
            return Err(
                "error: arguments in resource/name form must have a single resource and name"
                    .to_owned(),
            );
        }
        let lower = kind.to_ascii_lowercase();
        if matches!(lower.as_str(), "pod" | "pods" | "po") {
            return Ok(TargetRef::Pod(name.to_owned()));
        }
        if let Some(kind) = WorkloadKind::from_resource(&lower) {
            return Ok(TargetRef::Workload(WorkloadRef {
                kind,
                name: name.to_owned(),
            }));
        }
        if OTHER_KNOWN.contains(&lower.as_str()) {
            return Err(format!(
                "error: podscope shows pods and the workloads that run them, not {:?}; pass \
                 POD, deploy/NAME, sts/NAME, ds/NAME, rs/NAME, job/NAME or cronjob/NAME",
                sanitize(kind)
            ));
        }
        Err(format!(
            "error: the server doesn't have a resource type {:?}",
            sanitize(kind).as_ref()
        ))
    }

    /// A `-l SELECTOR` target, checked against kubectl's label-selector grammar.
    ///
    /// # Errors
    /// The parser's message ([`selector::parse`]), e.g. `unable to parse requirement: found
    /// 'x' expected: '('`, prefixed with `error: `.
    pub fn selector(text: &str) -> Result<TargetRef, String> {
        let parsed = selector::parse(text).map_err(|e| format!("error: {e}"))?;
        if parsed.is_empty() {
            return Err(
                "error: an empty label selector selects every pod; pass one that \
                        names labels (-l app=web)"
                    .to_owned(),
            );
        }
        Ok(TargetRef::Selector(text.trim().to_owned()))
    }

    /// The target of `podscope [TARGET] [-l SELECTOR]`; `None` when neither is given (the
    /// picker's case).
    ///
    /// # Errors
    /// As [`TargetRef::parse`] and [`TargetRef::selector`].
    pub fn from_args(
        target: Option<&str>,
        selector: Option<&str>,
    ) -> Result<Option<TargetRef>, String> {
        match (target, selector) {
            (_, Some(s)) => TargetRef::selector(s).map(Some),
            (Some(t), None) => TargetRef::parse(t).map(Some),
            (None, None) => Ok(None),
        }
    }

    /// How podscope names the target: `pod/web-1`, `deploy/web`, `-l app=web`.
    #[must_use]
    pub fn display(&self) -> String {
        match self {
            TargetRef::Pod(name) => format!("pod/{name}"),
            TargetRef::Workload(w) => w.display(),
            TargetRef::Selector(s) => format!("-l {s}"),
        }
    }
}
