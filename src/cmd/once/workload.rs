//! `--once` for a workload or selector target (`podscope deploy/web --once`): the workload line,
//! its pods one line each, then the chosen pod's usual snapshot; in JSON a `"workload"` object
//! beside the pod's document (`docs/workloads.md` "--once").

use std::fmt::Write as _;
use std::process::ExitCode;

use jiff::Timestamp;
use serde_json::{Value, json};

use super::super::cli::OutputFormat;
use super::super::setup_error;
use super::{to_json, to_text};
use crate::cluster::one_shot::{confirm, read_snapshot};
use crate::cluster::workload::{ResolveError, Resolved, resolve};
use crate::cluster::{ConnectOptions, connect};
use crate::model::diagnosis::rollout::workload_findings;
use crate::model::workload::choice::{choose, sort_by_trouble};
use crate::model::workload::diff::changes_text;
use crate::model::workload::header::{no_pods, selector_line, workload_line};
use crate::model::workload::{TargetRef, WorkloadPod};

fn revision(resolved: &Resolved, p: &WorkloadPod) -> String {
    p.revision_text(resolved.summary.as_ref())
}

/// What is said when nothing matches: `deployment web selects app=web; no pods match`.
fn empty_message(resolved: &Resolved) -> String {
    match &resolved.summary {
        Some(s) => no_pods(s),
        None => format!("-l {} selects no pods", resolved.selector),
    }
}

/// The header line: the workload's, or the selector's count.
fn header(resolved: &Resolved) -> String {
    match &resolved.summary {
        Some(s) => workload_line(s),
        None => match &resolved.workload {
            Some(w) => format!(
                "{}  {}",
                w.display(),
                selector_line(&resolved.selector, &resolved.pods)
            ),
            None => selector_line(&resolved.selector, &resolved.pods),
        },
    }
}

/// The pods in the choice order: the chosen one first, then the others most trouble first
/// ([`sort_by_trouble`]: live before deleting, most trouble, newest, name).
fn choice_order(resolved: &Resolved, chosen: Option<usize>) -> Vec<&WorkloadPod> {
    let first = chosen.and_then(|i| resolved.pods.get(i));
    let mut rest: Vec<WorkloadPod> = resolved
        .pods
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != chosen)
        .map(|(_, p)| p.clone())
        .collect();
    sort_by_trouble(&mut rest);
    let by_name = |name: &str| resolved.pods.iter().find(|p| p.pod.name == name);
    first
        .into_iter()
        .chain(rest.iter().filter_map(|p| by_name(&p.pod.name)))
        .collect()
}

/// The `"workload"` object: `{"kind","name","namespace","selector","replicas","ready",
/// "updated","available","conditions","changes","pods":[{"name","status","ready","restarts",
/// "age","node","revision"}],"chosen","refused","message"}`; `pods` in the choice order, the
/// chosen pod first ([`choice_order`]).
#[must_use]
pub fn workload_json(
    resolved: &Resolved,
    chosen: Option<usize>,
    namespace: &str,
    now: Timestamp,
) -> Value {
    let s = resolved.summary.as_ref();
    let pods: Vec<Value> = choice_order(resolved, chosen)
        .into_iter()
        .map(|p| {
            let row = p.pod.row(now);
            json!({
                "name": row.name, "status": row.status, "ready": row.ready,
                "restarts": row.restarts, "age": row.age, "node": p.pod.node,
                "revision": revision(resolved, p),
            })
        })
        .collect();
    json!({
        "kind": s.map(|s| s.kind.kind()).or(resolved.workload.as_ref().map(|w| w.kind.kind())),
        "name": s.map(|s| s.name.clone()).or(resolved.workload.as_ref().map(|w| w.name.clone())),
        "namespace": namespace,
        "selector": resolved.selector,
        "replicas": s.and_then(|s| s.replicas),
        "ready": s.map(|s| s.ready),
        "updated": s.map(|s| s.updated),
        "available": s.map(|s| s.available),
        "conditions": s.map(|s| s.conditions.clone()).unwrap_or_default(),
        "changes": s.map(|s| s.changes.clone()).unwrap_or_default(),
        "pods": pods,
        "chosen": chosen.and_then(|i| resolved.pods.get(i)).map(|p| p.pod.name.clone()),
        "refused": resolved.refused,
        "message": resolved.pods.is_empty().then(|| empty_message(resolved)),
    })
}

/// The text block before the pod's snapshot: the header, the rollout's changes, what RBAC
/// refused, the pods (kubectl's columns plus NODE and REVISION, `*` marks the one shown).
#[must_use]
pub fn workload_text(resolved: &Resolved, chosen: Option<usize>, now: Timestamp) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Workload: {}", header(resolved));
    if let Some(s) = &resolved.summary
        && !s.changes.is_empty()
    {
        let _ = writeln!(out, "  Changes: {}", changes_text(&s.changes));
    }
    if let Some(r) = &resolved.refused {
        let _ = writeln!(out, "  {r}");
    }
    if resolved.pods.is_empty() {
        let _ = writeln!(out, "  {}", empty_message(resolved));
        return out;
    }
    let mut rows = vec![[
        "NAME".to_owned(),
        "READY".to_owned(),
        "STATUS".to_owned(),
        "RESTARTS".to_owned(),
        "AGE".to_owned(),
        "NODE".to_owned(),
        "REVISION".to_owned(),
    ]];
    for p in &resolved.pods {
        let row = p.pod.row(now);
        rows.push([
            row.name,
            row.ready,
            row.status,
            row.restarts,
            row.age,
            p.pod.node.clone().unwrap_or_else(|| "<none>".to_owned()),
            revision(resolved, p),
        ]);
    }
    let widths: Vec<usize> = (0..7)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for (n, r) in rows.iter().enumerate() {
        let mark = if n > 0 && chosen == Some(n - 1) {
            "* "
        } else {
            "  "
        };
        let mut line = mark.to_owned();
        for (i, cell) in r.iter().enumerate() {
            let _ = write!(line, "{cell:<w$}   ", w = widths[i]);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push('\n');
    out
}

/// `--once` for `target` (a workload or a selector): resolve, choose the pod in most trouble,
/// read its snapshot with the workload for the rollout findings, print. A target that does not
/// exist prints kubectl's NotFound line and exits 1; refusals and other failures exit 2; a
/// workload without pods prints that and exits 0.
pub async fn print_target(
    opts: &ConnectOptions,
    target: &TargetRef,
    format: OutputFormat,
    now: Option<Timestamp>,
) -> ExitCode {
    #[allow(clippy::disallowed_methods)] // the one clock read of --once
    let now = now.unwrap_or_else(Timestamp::now);
    let mut conn = match connect(opts, "").await {
        Ok(t) => t,
        Err(e) => return setup_error(&e.to_string()),
    };
    let resolved = match resolve(&conn.client, &conn.namespace, target).await {
        Ok(r) => r,
        Err(ResolveError::NotFound(line)) => {
            eprintln!("{line}");
            return ExitCode::FAILURE;
        }
        Err(e) => return setup_error(&e.to_string()),
    };
    let chosen = choose(&resolved.pods, resolved.summary.as_ref());
    let ns = conn.namespace.clone();
    let Some(pod) = chosen.and_then(|i| resolved.pods.get(i)) else {
        // No pod to diagnose: what the workload itself says (scaled to 0).
        let findings = resolved
            .summary
            .as_ref()
            .map(workload_findings)
            .unwrap_or_default();
        let out = match format {
            OutputFormat::Json => {
                let doc = json!({"diagnosis": findings, "pod": null, "workload": workload_json(&resolved, None, &ns, now)});
                serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
            }
            OutputFormat::Text | OutputFormat::Yaml => {
                let mut text = workload_text(&resolved, None, now);
                for hint in findings.iter().filter_map(|f| f.action.as_ref()) {
                    let _ = writeln!(text, "  hint: {hint}");
                }
                text
            }
        };
        print!("{out}");
        return ExitCode::SUCCESS;
    };
    conn.pod = pod.pod.name.clone();
    if format == OutputFormat::Yaml {
        // The chosen pod's object, as for a pod named on the command line.
        return super::yaml::print(&conn).await;
    }
    let mut snap = match read_snapshot(&conn).await {
        Ok(s) => s,
        // The pod went away between the list and the GET, or another failure.
        Err(e) => return setup_error(&e.to_string()),
    };
    snap.workload = resolved.summary.clone();
    let diagnosis = confirm(&conn, &mut snap, now).await;
    let out = match format {
        OutputFormat::Json => {
            let mut doc = to_json(&snap.pod, &snap.events, &snap.owner, &diagnosis, now);
            if let Some(map) = doc.as_object_mut() {
                map.insert(
                    "workload".to_owned(),
                    workload_json(&resolved, chosen, &ns, now),
                );
            }
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        OutputFormat::Text | OutputFormat::Yaml => {
            workload_text(&resolved, chosen, now)
                + &to_text(&snap.pod, &snap.events, &snap.owner, &diagnosis, now)
        }
    };
    print!("{out}");
    ExitCode::SUCCESS
}
