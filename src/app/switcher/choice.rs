//! [`PodChoice`]: one pod a picker offers, with what `kubectl get pods` prints of it (and its
//! node, as `-o wide` does), and how much trouble it is in (`model::workload::choice::trouble`,
//! the rule that also picks a workload's pod to show), which orders the rows.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Pod;

use super::picker::PickerRow;
use crate::model::printer::age;
pub use crate::model::workload::choice::Trouble;
use crate::model::workload::choice::trouble;
use crate::model::{PodPrint, PodSummary};

/// One pod a picker offers, with what `kubectl get pods -A -o wide` prints of it
/// (`model::printer`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodChoice {
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub name: String,
    /// READY, STATUS and RESTARTS as the printer computes them.
    pub print: PodPrint,
    /// `metadata.creationTimestamp`, for AGE.
    pub created: Option<Timestamp>,
    /// `spec.nodeName` (NODE, shown for a workload's pods; `<none>` while unscheduled).
    pub node: Option<String>,
    /// How much trouble the pod is in: the rows are sorted by it, most first.
    pub trouble: Trouble,
}

impl PodChoice {
    /// The choice for `pod`, through its summary ([`PodChoice::from_summary`]).
    #[must_use]
    pub fn from_pod(pod: &Pod) -> PodChoice {
        PodChoice::from_summary(&PodSummary::from_pod(pod))
    }

    /// The choice for the pod `summary` describes (a workload's pods are held as summaries).
    #[must_use]
    pub fn from_summary(summary: &PodSummary) -> PodChoice {
        PodChoice {
            namespace: summary.namespace.clone(),
            name: summary.name.clone(),
            print: summary.print.clone(),
            created: summary.creation_timestamp,
            node: summary.node.clone(),
            trouble: trouble(summary),
        }
    }

    /// A choice known only by name (empty columns, no trouble; for tests).
    #[must_use]
    pub fn named(namespace: &str, name: &str) -> PodChoice {
        PodChoice {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            print: PodPrint::default(),
            created: None,
            node: None,
            trouble: Trouble::Running,
        }
    }

    /// The rows' order: most trouble first, then by namespace and name.
    #[must_use]
    pub fn order(a: &PodChoice, b: &PodChoice) -> std::cmp::Ordering {
        (a.trouble, &a.namespace, &a.name).cmp(&(b.trouble, &b.namespace, &b.name))
    }

    /// Whether this is the pod `namespace/name`.
    #[must_use]
    pub fn is(&self, namespace: &str, name: &str) -> bool {
        self.namespace == namespace && self.name == name
    }
}

/// Indices into [`PodChoice::COLUMNS`].
pub mod column {
    /// NAMESPACE.
    pub const NAMESPACE: usize = 0;
    /// NAME.
    pub const NAME: usize = 1;
    /// STATUS.
    pub const STATUS: usize = 3;
    /// RESTARTS (`5 (70s ago)`).
    pub const RESTARTS: usize = 4;
    /// AGE.
    pub const AGE: usize = 5;
    /// NODE.
    pub const NODE: usize = 6;
    /// `kubectl get pods`: NAME READY STATUS RESTARTS AGE.
    pub const IN_NAMESPACE: [usize; 5] = [1, 2, 3, 4, 5];
    /// `kubectl get pods -A`: NAMESPACE first.
    pub const ALL_NAMESPACES: [usize; 6] = [0, 1, 2, 3, 4, 5];
    /// A workload's pods: NODE last, as `-o wide` places it after the others.
    pub const WITH_NODE: [usize; 6] = [1, 2, 3, 4, 5, 6];
}

impl PickerRow for PodChoice {
    const COLUMNS: &'static [&'static str] = &[
        "NAMESPACE",
        "NAME",
        "READY",
        "STATUS",
        "RESTARTS",
        "AGE",
        "NODE",
    ];
    const KEEP: usize = column::NAME;
    // NAME is what the rows are read by: RESTARTS' `(70s ago)` goes first, then the namespace,
    // the age, the node, then STATUS (cut with `…`); NAME loses a cell only after all of them.
    const NARROW_FIRST: &'static [usize] = &[
        column::RESTARTS,
        column::NAMESPACE,
        column::AGE,
        column::NODE,
        column::STATUS,
    ];

    fn cells(&self, now: Timestamp) -> Vec<String> {
        vec![
            self.namespace.clone(),
            self.name.clone(),
            self.print.ready_text(),
            self.print.status.clone(),
            self.print.restarts_text(now),
            age(self.created, now),
            self.node.clone().unwrap_or_else(|| "<none>".to_owned()),
        ]
    }

    fn haystack(&self, columns: &[usize]) -> String {
        if columns.contains(&column::NAMESPACE) {
            format!("{}/{}", self.namespace, self.name)
        } else {
            self.name.clone()
        }
    }

    fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    fn has_key(&self, key: &str) -> bool {
        key.strip_prefix(self.namespace.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            == Some(self.name.as_str())
    }
}
