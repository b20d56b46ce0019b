//! The knowledge base: what the messages of the kubelet, the scheduler, the container runtimes,
//! CNI plugins, CSI drivers, registries, the Linux loader and well-known application errors mean,
//! as data (`docs/diagnosis-kb.md`).
//!
//! One table per source ([`loader`], [`runtime`], [`kubelet`], [`registry`], [`cni`],
//! [`volumes`], [`scheduler`], [`app`]); each row an [`Entry`]: where the text is read ([`On`]),
//! a case-insensitive regular expression over it, the meaning in one sentence, the one action,
//! who can fix it ([`Fix`]) and the source the row was written from. Adding knowledge is adding
//! a row and a corpus case that needs it, not a code path. [`find`] returns the first row, in
//! table order, whose `on` and pattern match a fact; rows are ordered specific first.
//!
//! Placeholders in `meaning` and `action`: `{name}` for a named group of the pattern, and
//! `{container}`, `{pod}`, `{namespace}`, `{node}`, `{reason}` filled by the caller.

pub mod app;
pub mod app_network;
pub mod cni;
pub mod kubelet;
pub mod loader;
pub mod registry;
pub mod runtime;
pub mod scheduler;
pub mod volumes;

mod search;

pub use search::{MAX_SCAN, find, invalid_rows, warm};

use super::Severity;

/// Where the text an [`Entry`] reads comes from. The `&str` is a reason to match exactly
/// (`"FailedMount"`), or `""` in a row for any reason. Rows hold `On<'static>`; a fact looked
/// up with [`find`] borrows its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum On<'a> {
    /// An event's message, by event `reason`.
    Event(&'a str),
    /// A container's `state.waiting.message`, by `waiting.reason`.
    Waiting(&'a str),
    /// A container's `state`/`lastState.terminated.message` (the runtime's or the termination
    /// message), by `terminated.reason`.
    Terminated(&'a str),
    /// The pod's `status.message`, by `status.reason`, or a condition's `message`, by its
    /// `reason`.
    Status(&'a str),
    /// One line of a container's log (current or previous instance).
    Log,
}

/// Who can fix what an [`Entry`] means: it decides which advice is allowed beside it
/// (`consistency.rs`: no "no restart needed" for a spec change, no "fix the app" for a node
/// problem).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fix {
    /// The pod's spec (or its owner's template) must change: command, image, securityContext,
    /// volumes, resources, affinity.
    Spec,
    /// The image must be rebuilt or another one chosen (architecture, missing binary).
    Image,
    /// The registry, or the credentials to it (pull secret, rate limit, certificate).
    Registry,
    /// A node-side component: the runtime, the CNI plugin, a CSI driver, the kubelet, the disk.
    Node,
    /// A cluster-wide setting or add-on: admission, quota, the scheduler, a controller.
    Cluster,
    /// An object the pod refers to must be created or changed (ConfigMap, Secret, PVC, Service).
    Object,
    /// The application's configuration or code, or a dependency it talks to.
    App,
    /// Nothing to fix in the pod: the condition is transient and the kubelet or a controller
    /// retries by itself.
    Retry,
}

/// One row of the knowledge base.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// A stable kebab-case id, prefixed by its table (`loader-exec-format`, `cni-no-ip`): the
    /// `rule` of the finding it makes.
    pub id: &'static str,
    /// Where the text is read; any of them matches.
    pub on: &'static [On<'static>],
    /// A regular expression (case-insensitive) over the text; named groups fill placeholders.
    pub pattern: &'static str,
    /// The meaning in one sentence, with placeholders.
    pub meaning: &'static str,
    /// The one recommended action, with placeholders.
    pub action: &'static str,
    /// Who can fix it.
    pub fix: Fix,
    /// How bad it is when it matches.
    pub severity: Severity,
    /// What the row was written from: a source file of the component that says the text, its
    /// documentation, or a public report (`docs/diagnosis-kb.md` lists them).
    pub source: &'static str,
}

/// Every table, in the order they are searched: the most specific layer first (the loader's
/// errno under the runtime's wrapping, the runtime's under the kubelet's).
pub const TABLES: [&[Entry]; 9] = [
    loader::ENTRIES,
    registry::ENTRIES,
    cni::ENTRIES,
    volumes::ENTRIES,
    runtime::ENTRIES,
    kubelet::ENTRIES,
    scheduler::ENTRIES,
    app::ENTRIES,
    app_network::ENTRIES,
];

/// Every row of every table, in search order.
pub fn entries() -> impl Iterator<Item = &'static Entry> {
    TABLES.iter().flat_map(|t| t.iter())
}

/// What matched: the row and the values of its named groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// The row.
    pub entry: &'static Entry,
    /// Named groups that matched, `(name, value)`.
    pub groups: Vec<(&'static str, String)>,
    /// The matched span of the text, for quoting.
    pub matched: String,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for Entry {}

/// Fills `{name}` placeholders of `template` from `groups`, then from `context`; an unknown
/// placeholder is left as it is written.
#[must_use]
pub fn fill(template: &str, groups: &[(&str, String)], context: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let key = &after[..close];
        let value = groups
            .iter()
            .find(|(n, _)| *n == key)
            .map(|(_, v)| v.as_str())
            .or_else(|| context.iter().find(|(n, _)| *n == key).map(|(_, v)| *v));
        match value {
            Some(v) => out.push_str(v),
            None => {
                out.push('{');
                out.push_str(key);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

impl Hit {
    /// The row's meaning with its placeholders filled.
    #[must_use]
    pub fn meaning(&self, context: &[(&str, &str)]) -> String {
        fill(self.entry.meaning, &self.groups, context)
    }

    /// The row's action with its placeholders filled.
    #[must_use]
    pub fn action(&self, context: &[(&str, &str)]) -> String {
        fill(self.entry.action, &self.groups, context)
    }
}
