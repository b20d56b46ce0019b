//! Containers that run without progress (`docs/diagnosis.md` "Reading the whole pod"): an init
//! container still running long after start holds back every container after it — the kubelet
//! starts the next one only when it exits 0 (`pkg/kubelet/kuberuntime/kuberuntime_manager.go`
//! `computeInitContainerActions`) and has no deadline for it — so the pod sits in `Init:N/M`
//! with no event and no restart. Its cause is in what it prints now: the current log's decisive
//! line is quoted, and the knowledge base explains it when it can (`messages.rs`). Checked
//! against `87-init-waits-forever-dns`.

use jiff::SignedDuration;

use super::evidence::{Evidence, EvidenceKind};
use super::facts::{clock, took};
use super::{Finding, Inputs, Severity, logline};
use crate::pod::{ContainerKind, ContainerState};

/// How long an init container may run before it is called stalled: init steps (migrations,
/// waiting for a dependency, fetching config) usually take seconds; two minutes without
/// finishing is worth saying, with what it prints.
pub const STALLED_AFTER: SignedDuration = SignedDuration::from_secs(120);

/// One warning for the first init container (not a native sidecar) that has run longer than
/// [`STALLED_AFTER`].
pub fn findings(inp: &Inputs<'_>, out: &mut Vec<Finding>) {
    let pod = inp.pod;
    let inits = pod
        .containers
        .iter()
        .filter(|c| c.kind == ContainerKind::Init);
    for (i, c) in inits.enumerate() {
        let ContainerState::Running {
            started_at: Some(started),
        } = &c.state
        else {
            continue;
        };
        let ran = inp.now.duration_since(*started);
        if ran < STALLED_AFTER {
            continue;
        }
        let total = pod
            .containers
            .iter()
            .filter(|c| c.kind == ContainerKind::Init)
            .count();
        let waiting: Vec<&str> = pod
            .containers
            .iter()
            .filter(|o| matches!(o.kind, ContainerKind::Main | ContainerKind::Sidecar))
            .map(|o| o.name.as_str())
            .collect();
        let mut f = Finding::new(
            "init-running",
            Severity::Warning,
            Some(&c.name),
            format!(
                "init container {}/{total} {} has been running for {} without finishing: {} wait for it (the kubelet starts them only when it exits 0, and gives it no deadline)",
                i + 1,
                c.name,
                took(ran),
                if waiting.is_empty() {
                    "the containers after it".to_owned()
                } else {
                    waiting.join(", ")
                }
            ),
        )
        .with(format!(
            "state.running since {}, restartCount {}",
            clock(*started, inp.now),
            c.restart_count
        ));
        if let Some((Ok(lines), scores)) = inp
            .logs
            .current
            .get(&c.name)
            .map(|t| (&t.lines, t.scores()))
        {
            let decisive = logline::decisive(&scores);
            // Errors with a reason, printed while it runs: it is failing, not slow.
            if decisive.is_some_and(|i| scores[i] >= 2)
                || lines
                    .iter()
                    .any(|l| super::kb::find(super::kb::On::Log, l).is_some())
            {
                f.severity = Severity::Error;
            }
            let quoted = decisive.or_else(|| lines.iter().rposition(|l| !l.trim().is_empty()));
            if let Some(i) = quoted {
                let repeats = lines.iter().filter(|l| l.trim() == lines[i].trim()).count();
                let times = if repeats > 1 {
                    format!(" (×{repeats} in the last {} lines)", lines.len())
                } else {
                    String::new()
                };
                f.evidence.push(Evidence::new(
                    EvidenceKind::Log,
                    format!("log {} (current)", c.name),
                    format!(
                        "log {} (current), line {} of the last {}{times}: \"{}\"",
                        c.name,
                        i + 1,
                        lines.len(),
                        lines[i].trim()
                    ),
                ));
            }
        }
        f.action = Some(format!(
            "find what it waits for in its log: kubectl logs {} -n {} -c {} -f",
            pod.name, pod.namespace, c.name
        ));
        out.push(f);
        return;
    }
}
