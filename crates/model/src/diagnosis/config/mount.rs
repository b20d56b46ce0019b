//! Volumes the kubelet cannot mount: the pod stays `ContainerCreating` (or `Init:0/N`).
//!
//! Before it starts any container the kubelet waits until every volume of the pod is attached
//! and mounted (`pkg/kubelet/volumemanager/volume_manager.go` `WaitForAttachAndMount`). Each failed
//! attempt is a pod-level `FailedMount` event naming the volume,
//! `MountVolume.SetUp failed for volume "v" : configmap "x" not found` (`secret "x"`, older
//! `secrets "x"`, an item key: `references non-existent secret key: K`), or `FailedAttachVolume`
//! (`AttachVolume.Attach failed …`, `Multi-Attach error for volume …`); when the wait times
//! out, `Unable to attach or mount volumes: unmounted volumes=[v], unattached volumes=[…]: timed
//! out waiting for the condition`. The reconciler retries with an exponential back-off (about
//! 2 min at most) and the containers start by themselves once the volumes are mounted.

use k8s_openapi::api::core::v1::Volume;

use super::parse::{self, Kind};
use super::refs;
use super::related::lookup_line;
use super::volumes::{objects_of, source_text};
use super::{event_span_line, related};
use crate::diagnosis::{Finding, Inputs, Severity};
use crate::event::EventSummary;
use crate::pod::{ContainerState, ContainerSummary, PodSummary};

fn waiting_to_start(c: &ContainerSummary) -> bool {
    match &c.state {
        ContainerState::Waiting { reason, .. } => {
            matches!(
                reason.as_str(),
                "ContainerCreating" | "PodInitializing" | ""
            )
        }
        ContainerState::Unknown => true,
        _ => false,
    }
}

/// No container of the pod has started yet: volumes are mounted before any does.
fn never_started(pod: &PodSummary) -> bool {
    pod.containers.iter().all(|c| {
        c.restart_count == 0
            && c.last_state.is_none()
            && matches!(
                c.state,
                ContainerState::Waiting { .. } | ContainerState::Unknown
            )
    })
}

fn is_mount_event(pod: &PodSummary, e: &EventSummary) -> bool {
    matches!(
        e.reason.as_str(),
        "FailedMount" | "FailedAttachVolume" | "FailedMapVolume"
    ) && e.field_path.is_empty()
        && match (e.last_timestamp, pod.creation_timestamp) {
            (Some(t), Some(created)) => t >= created,
            _ => true,
        }
}

/// One failure naming its volume.
struct Failure<'a> {
    volume: String,
    error: String,
    event: &'a EventSummary,
}

fn specific(e: &EventSummary) -> Option<Failure<'_>> {
    let m = &e.message;
    if m.contains("unmounted volumes=") {
        return None;
    }
    let volume = parse::between(m, "for volume \"", "\"")?;
    let marker = format!("for volume \"{volume}\"");
    let at = m.find(&marker).map_or(0, |i| i + marker.len());
    let mut error = m[at..].trim_start_matches([' ', ':']).trim().to_owned();
    if m.starts_with("Multi-Attach error") {
        error = format!("Multi-Attach error: {error}");
    }
    Some(Failure {
        volume: volume.to_owned(),
        error,
        event: e,
    })
}

/// Findings about volumes that cannot be mounted, once per pod (from the first container still
/// waiting to start); the finding's container is the first one that mounts the volume.
pub(super) fn findings(inp: &Inputs<'_>, c: &ContainerSummary, out: &mut Vec<Finding>) {
    let pod = inp.pod;
    if !never_started(pod)
        || pod
            .containers
            .iter()
            .find(|x| waiting_to_start(x))
            .map(|x| &x.name)
            != Some(&c.name)
    {
        return;
    }
    let events: Vec<&EventSummary> = inp
        .events
        .iter()
        .filter(|e| is_mount_event(pod, e))
        .collect();
    if events.is_empty() {
        return;
    }
    let summary = events
        .iter()
        .copied()
        .find(|e| e.message.contains("unmounted volumes="));
    let unmounted = summary
        .map(|e| parse::bracket_list(&e.message, "unmounted volumes=["))
        .unwrap_or_default();
    let failures: Vec<Failure<'_>> = events.iter().filter_map(|e| specific(e)).collect();
    let primary = failures
        .iter()
        .find(|f| unmounted.is_empty() || unmounted.contains(&f.volume))
        .or(failures.first());
    let f = match primary {
        Some(p) => one_volume(inp, p, summary),
        None => match summary {
            Some(s) => timed_out(inp, s, &unmounted),
            None => return,
        },
    };
    out.push(f);
}

fn volume<'a>(pod: &'a PodSummary, name: &str) -> Option<&'a Volume> {
    pod.spec.volumes.iter().flatten().find(|v| v.name == name)
}

fn one_volume(inp: &Inputs<'_>, p: &Failure<'_>, summary: Option<&EventSummary>) -> Finding {
    let pod = inp.pod;
    let now = inp.now;
    let ns = &pod.namespace;
    let spec_volume = volume(pod, &p.volume);
    let claims: Vec<&Volume> = pod
        .spec
        .volumes
        .iter()
        .flatten()
        .filter(|v| v.persistent_volume_claim.is_some() || v.ephemeral.is_some())
        .collect();
    // For a claim, the kubelet names the PersistentVolume (`pvc-<uid>`), not the pod's volume.
    let by_pv = spec_volume.is_none() && !claims.is_empty();
    let named = match (spec_volume, claims.first()) {
        (None, Some(c)) => c.name.clone(),
        _ => p.volume.clone(),
    };
    let (mounts, _) = refs::mounted_by(&pod.spec, &named);
    let source = match spec_volume {
        Some(v) => source_text(v),
        None if by_pv => format!(
            "PersistentVolume {} behind the pod's claim{} {}",
            p.volume,
            if claims.len() == 1 { "" } else { "s" },
            claims
                .iter()
                .map(|v| source_text(v))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => "not a volume of the pod spec".to_owned(),
    };
    let mut evidence = vec![event_span_line(p.event, now)];
    if let Some(s) = summary {
        evidence.push(event_span_line(s, now));
    }
    let vol = &p.volume;
    let missing = parse::not_found(&p.error).into_iter().next();
    let item_key = parse::missing_item_key(&p.error);
    let mut f = if let Some((kind, name)) = missing {
        let rule = match kind {
            Kind::Secret => "missing-secret",
            Kind::ConfigMap => "missing-configmap",
            Kind::Pvc => "missing-pvc",
        };
        let title = kind.title();
        let found = refs::references(&pod.spec, kind, &name);
        evidence.push(format!("the pod spec refers to {title} {name}:"));
        evidence.extend(found.iter().map(|r| format!("  {}", r.line)));
        let object = kind.object(&name);
        evidence.extend(lookup_line(inp, &object));
        let create = refs::create_command(kind, &name, ns, &found);
        let mut f = Finding::new(
            rule,
            Severity::Error,
            None,
            format!(
                "volume {vol} cannot be mounted: {title} {name} does not exist in namespace {ns}; no container of the pod can start until it does"
            ),
        )
        .action(format!(
            "create it: {create}; the kubelet retries the mount and starts the containers by itself"
        ));
        f.checks.push(object);
        f
    } else if let Some((kind, key)) = item_key {
        let target = spec_volume
            .map(objects_of)
            .unwrap_or_default()
            .into_iter()
            .find(|(k, _)| kind.is_none_or(|want| *k == want));
        let (kind, name) = target.unwrap_or((kind.unwrap_or(Kind::ConfigMap), String::new()));
        let title = kind.title();
        let rule = if kind == Kind::Secret {
            "missing-secret-key"
        } else {
            "missing-configmap-key"
        };
        evidence.push(format!("volume {vol} ← {source}, {mounts}"));
        let object = kind.object(&name);
        if let Some(line) = lookup_line(inp, &object) {
            let verdict = match related::has_key(inp, &object, &key) {
                Some(true) => format!("; key {key} is there now"),
                Some(false) => format!("; key {key} is not among them"),
                None => String::new(),
            };
            evidence.push(format!("{line}{verdict}"));
        }
        let mut f = Finding::new(
            rule,
            Severity::Error,
            None,
            format!(
                "volume {vol} cannot be mounted: {title} {name} has no key {key}, which the volume's items list; no container can start"
            ),
        )
        .action(format!(
            "add the key to {title} {name} (kubectl edit {} {name} -n {ns}) or remove it from the volume's items (or mark the source optional: true)",
            title.to_ascii_lowercase()
        ));
        f.checks.push(object);
        f
    } else {
        evidence.push(format!("volume {vol} ← {source}, {mounts}"));
        let mut f = Finding::new(
            "volume-mount-failed",
            Severity::Error,
            None,
            format!(
                "volume {vol} ({source}) cannot be {}: {}; no container of the pod can start",
                if p.event.reason == "FailedAttachVolume" {
                    "attached"
                } else {
                    "mounted"
                },
                p.error
            ),
        )
        .action(mount_hint(&p.event.message, pod));
        let sources: Vec<(Kind, String)> = match spec_volume {
            Some(v) => objects_of(v),
            None => claims.iter().flat_map(|v| objects_of(v)).collect(),
        };
        for (kind, name) in sources {
            let r = kind.object(&name);
            evidence.extend(lookup_line(inp, &r));
            f.checks.push(r);
        }
        f
    };
    evidence.push(
        "the kubelet retries the mount with a back-off (at most about 2 min apart) and starts the containers once every volume is mounted"
            .to_owned(),
    );
    f.evidence = evidence.into_iter().collect();
    f
}

fn mount_hint(error: &str, pod: &PodSummary) -> String {
    let e = error.to_ascii_lowercase();
    let node = pod.node.as_deref().unwrap_or("<node>");
    if e.contains("multi-attach") {
        "the volume is still attached to another node (a ReadWriteOnce volume used by an old pod there): wait for that pod to stop or delete it; kubectl get volumeattachment shows where it is attached".to_owned()
    } else if e.contains("not found in the list of registered csi drivers") {
        format!(
            "the CSI driver is not running on node {node}: kubectl get csinode {node} -o yaml, and check the driver's DaemonSet pods on that node"
        )
    } else if e.contains("exit status 32") || e.contains("mount failed") || e.contains("mount.nfs")
    {
        format!(
            "mount(8) failed on node {node}: check from that node that the storage server and export answer (the error above is the mount command's)"
        )
    } else if e.contains("failed to sync") && e.contains("cache") {
        "the kubelet timed out reading the object from the API server: check the node's connection to the API server; it usually clears by itself".to_owned()
    } else {
        format!(
            "read the kubelet's message above; kubectl describe pod {} -n {} and, for a PVC, kubectl describe pvc show the storage side",
            pod.name, pod.namespace
        )
    }
}

fn timed_out(inp: &Inputs<'_>, summary: &EventSummary, unmounted: &[String]) -> Finding {
    let pod = inp.pod;
    let list = if unmounted.is_empty() {
        "some volumes".to_owned()
    } else {
        unmounted.join(", ")
    };
    let mut f = Finding::new(
        "volume-mount-failed",
        Severity::Error,
        None,
        format!(
            "volumes {list} are not mounted: the kubelet timed out waiting for them; no container of the pod can start"
        ),
    )
    .with(event_span_line(summary, inp.now));
    for name in unmounted {
        if let Some(v) = volume(pod, name) {
            let (mounts, _) = refs::mounted_by(&pod.spec, name);
            f.evidence
                .push(format!("volume {name} ← {}, {mounts}", source_text(v)));
            for (kind, obj) in objects_of(v) {
                let r = kind.object(&obj);
                f.evidence.extend(lookup_line(inp, &r));
                f.checks.push(r);
            }
        }
    }
    f.evidence.push(
        "no event says why a volume failed (they may have expired); the storage side knows more"
            .to_owned(),
    );
    f.action(format!(
        "kubectl describe pod {0} -n {1} for newer mount errors; for a PVC, kubectl describe pvc <claim> -n {1} (is it Bound?), and check the storage driver's pods on node {2}",
        pod.name,
        pod.namespace,
        pod.node.as_deref().unwrap_or("<node>")
    ))
}
