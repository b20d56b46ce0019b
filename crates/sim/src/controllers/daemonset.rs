//! The DaemonSet controller (`pkg/controller/daemon/daemon_controller.go`, `update.go`,
//! `util/daemonset_util.go`): one pod per node. The simulator has one node
//! ([`Snapshot::node`]), so each DaemonSet runs one pod.
//!
//! - The pod: `<ds>-<5 chars>` from the template, labels `controller-revision-hash: <hash>`
//!   ([`template_hash`]) and `pod-template-generation: <generation>`, a required node affinity
//!   `metadata.name In [<node>]` (`matchFields`, as the controller pins daemon pods), the
//!   daemon tolerations (`not-ready`/`unreachable` NoExecute, `disk-pressure`,
//!   `memory-pressure`, `pid-pressure`, `unschedulable` NoSchedule); Event `SuccessfulCreate`
//!   `Created pod: <name>`.
//! - A `Failed` pod is deleted (and replaced next pass); more than one pod: the surplus is
//!   deleted (`SuccessfulDelete` `Deleted pod: <name>`); `RollingUpdate` (default): a pod of an
//!   older template hash is deleted and replaced; `OnDelete`: only when someone deletes it.
//! - `status`: `desiredNumberScheduled` 1, `currentNumberScheduled`, `numberReady`,
//!   `updatedNumberScheduled`, `numberAvailable`/`numberUnavailable` (`minReadySeconds`),
//!   `numberMisscheduled` 0, `observedGeneration`.

use std::collections::BTreeMap;

use jiff::Timestamp;
use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetStatus};
use k8s_openapi::api::core::v1::{
    Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod,
    Toleration,
};

use super::events::event;
use super::hash::template_hash;
use super::pods::{self, is_active};
use super::statefulset::REVISION_LABEL;
use super::{Action, Kind, Outcome, Snapshot, Workload, ids, owner_reference};

const COMPONENT: &str = "daemonset-controller";

/// Reconciles every DaemonSet of `snap` (see the module docs).
pub fn reconcile(snap: &Snapshot, now: Timestamp) -> Outcome {
    let mut out = Outcome::default();
    for ds in &snap.daemon_sets {
        if ds.metadata.deletion_timestamp.is_none() {
            reconcile_one(snap, ds, now, &mut out);
        }
    }
    out
}

fn reconcile_one(snap: &Snapshot, ds: &DaemonSet, now: Timestamp, out: &mut Outcome) {
    let (ns, name, uid) = ids(&ds.metadata);
    let spec = &ds.spec;
    let hash = template_hash(&spec.template, None);
    let owned = snap.pods_of(&uid);
    let delete = |p: &Pod, out: &mut Outcome| {
        let (pns, pname, puid) = ids(&p.metadata);
        out.actions.push(Action::DeletePod {
            namespace: pns,
            name: pname.clone(),
            uid: puid,
        });
        out.actions.push(event(
            Kind::DaemonSet,
            &ds.metadata,
            "Normal",
            "SuccessfulDelete",
            format!("Deleted pod: {pname}"),
            COMPONENT,
            now,
        ));
    };
    let mut active: Vec<&Pod> = owned.iter().copied().filter(|p| is_active(p)).collect();
    for p in owned
        .iter()
        .filter(|p| pods::phase(p) == "Failed" && !pods::is_terminating(p))
    {
        delete(p, out);
    }
    let rolling = spec
        .update_strategy
        .as_ref()
        .and_then(|s| s.type_.as_deref())
        .unwrap_or("RollingUpdate")
        == "RollingUpdate";
    let terminating = owned.iter().any(|p| pods::is_terminating(p));
    if active.is_empty() && !terminating {
        let pod_name = format!("{name}-{}", pods::random_suffix());
        let pod = new_pod(ds, &ns, &pod_name, &hash, &snap.node);
        out.actions.push(Action::CreatePod(Box::new(pod)));
        out.actions.push(event(
            Kind::DaemonSet,
            &ds.metadata,
            "Normal",
            "SuccessfulCreate",
            format!("Created pod: {pod_name}"),
            COMPONENT,
            now,
        ));
    } else if active.len() > 1 {
        pods::sort_for_deletion(&mut active);
        for p in &active[..active.len() - 1] {
            delete(p, out);
        }
    } else if rolling
        && let Some(p) = active.first()
        && p.metadata
            .labels
            .as_ref()
            .and_then(|l| l.get(REVISION_LABEL))
            != Some(&hash)
    {
        delete(p, out);
    }
    let min_ready = spec.min_ready_seconds.unwrap_or(0);
    let mut available = 0;
    for p in &active {
        match pods::available_at(p, min_ready) {
            Some(t) if t <= now => available += 1,
            Some(t) => out.wake_at(t),
            None => {}
        }
    }
    let old = ds.status.clone().unwrap_or_default();
    let scheduled = active.len() as i32;
    let st = DaemonSetStatus {
        desired_number_scheduled: 1,
        current_number_scheduled: scheduled,
        number_ready: active.iter().filter(|p| pods::is_ready(p)).count() as i32,
        updated_number_scheduled: Some(
            active
                .iter()
                .filter(|p| {
                    p.metadata
                        .labels
                        .as_ref()
                        .and_then(|l| l.get(REVISION_LABEL))
                        == Some(&hash)
                })
                .count() as i32,
        ),
        number_available: Some(available),
        number_unavailable: Some((1 - available).max(0)),
        number_misscheduled: 0,
        observed_generation: ds.metadata.generation,
        collision_count: old.collision_count,
        conditions: old.conditions,
    };
    if ds.status.as_ref() != Some(&st) {
        let mut new = ds.clone();
        new.status = Some(st);
        out.actions
            .push(Action::Status(Box::new(Workload::DaemonSet(new))));
    }
}

fn new_pod(ds: &DaemonSet, ns: &str, name: &str, hash: &str, node: &str) -> Pod {
    let template = Some(&ds.spec)
        .map(|s| s.template.clone())
        .unwrap_or_default();
    let mut pod = pods::from_template(
        &template,
        ns,
        name,
        Some(format!("{}-", ds.metadata.name.clone().unwrap_or_default())),
        owner_reference(Kind::DaemonSet, &ds.metadata),
    );
    let labels = pod.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert(REVISION_LABEL.into(), hash.to_string());
    labels.insert(
        "pod-template-generation".into(),
        ds.metadata.generation.unwrap_or(1).to_string(),
    );
    let spec = pod.spec.get_or_insert_with(Default::default);
    spec.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_fields: Some(vec![NodeSelectorRequirement {
                        key: "metadata.name".into(),
                        operator: "In".into(),
                        values: Some(vec![node.to_string()]),
                    }]),
                    match_expressions: None,
                }],
            }),
            preferred_during_scheduling_ignored_during_execution: None,
        }),
        ..spec.affinity.clone().unwrap_or_default()
    });
    let tolerations = spec.tolerations.get_or_insert_with(Vec::new);
    let wanted = [
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    for (key, effect) in wanted {
        if !tolerations
            .iter()
            .any(|t| t.key.as_deref() == Some(key) && t.effect.as_deref() == Some(effect))
        {
            tolerations.push(Toleration {
                key: Some(key.into()),
                operator: Some("Exists".into()),
                effect: Some(effect.into()),
                ..Toleration::default()
            });
        }
    }
    pod
}
