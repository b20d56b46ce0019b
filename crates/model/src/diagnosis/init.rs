//! Init rules: which init container of how many blocks the pod. The kubelet runs init
//! containers one at a time in spec order; the next starts only when the previous exited 0, and
//! main containers wait (`waiting.reason PodInitializing`) until all have (native sidecars only
//! need to have started). Under `restartPolicy: Never` a failed init container fails the pod
//! for good. Checked against cases 08, 09, 10, 14, 18.

use super::{Finding, Inputs};
use crate::pod::{ContainerKind, ContainerState};

/// Adds the init sequence to the first finding about an init container or sidecar: its
/// position (`init container 1/2 clone-repo`), which ones after it never ran, that the app has
/// not started, and where its logs are.
pub fn findings(inp: &Inputs<'_>, out: &mut [Finding]) {
    let pod = inp.pod;
    let inits: Vec<_> = pod
        .containers
        .iter()
        .filter(|c| matches!(c.kind, ContainerKind::Init | ContainerKind::Sidecar))
        .collect();
    if inits.is_empty() {
        return;
    }
    let Some(f) = out.iter_mut().find(|f| {
        f.container
            .as_deref()
            .is_some_and(|n| inits.iter().any(|c| c.name == n))
    }) else {
        return;
    };
    let Some(pos) = inits
        .iter()
        .position(|c| Some(c.name.as_str()) == f.container.as_deref())
    else {
        return;
    };
    let c = inits[pos];
    let word = if c.kind == ContainerKind::Sidecar {
        "sidecar"
    } else {
        "init container"
    };
    let named = format!("{word} {}", c.name);
    let numbered = format!("{word} {}/{} {}", pos + 1, inits.len(), c.name);
    if let Some(rest) = f.headline.strip_prefix(&named) {
        f.headline = format!("{numbered}{rest}");
    }
    let mut steps = Vec::new();
    for (i, o) in inits.iter().enumerate() {
        let state = if i == pos
            && c.kind == ContainerKind::Sidecar
            && matches!(c.state, ContainerState::Running { .. })
        {
            "running, not started up".to_owned()
        } else if i == pos {
            "FAILING".to_owned()
        } else if i < pos {
            "done".to_owned()
        } else {
            match &o.state {
                ContainerState::Waiting { .. } | ContainerState::Unknown => {
                    "not started".to_owned()
                }
                ContainerState::Running { .. } => "running".to_owned(),
                ContainerState::Terminated(t) => format!("exited {}", t.exit_code),
            }
        };
        steps.push(format!("{}/{} {} {state}", i + 1, inits.len(), o.name));
    }
    f.evidence
        .push(format!("init sequence: {}", steps.join(", ")));
    let waiting_mains: Vec<&str> = pod
        .containers
        .iter()
        .filter(|m| {
            m.kind == ContainerKind::Main && !matches!(m.state, ContainerState::Running { .. })
        })
        .map(|m| m.name.as_str())
        .collect();
    if !waiting_mains.is_empty() {
        f.evidence.push(format!(
            "{} not started: main containers wait for every init container (waiting.reason PodInitializing)",
            waiting_mains.join(", ")
        ));
        f.evidence.push(format!(
            "its logs: kubectl logs {} -c {} (without -c kubectl picks {}, which has not started)",
            pod.name, c.name, waiting_mains[0]
        ));
    }
}
