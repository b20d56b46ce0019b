//! StatefulSet, DaemonSet and orphaning.

use k8s_openapi::api::apps::v1::{DaemonSet, DaemonSetSpec, StatefulSet, StatefulSetSpec};

use super::meta;
use crate::controllers::testing::{Fake, t0, template};
use crate::controllers::{Kind, Workload};

fn sts(replicas: i32, parallel: bool) -> Workload {
    Workload::StatefulSet(StatefulSet {
        metadata: meta("db"),
        spec: StatefulSetSpec {
            replicas: Some(replicas),
            service_name: Some("db".into()),
            pod_management_policy: parallel.then(|| "Parallel".into()),
            template: template("db", "hello:1.0"),
            ..StatefulSetSpec::default()
        },
        status: None,
    })
}

fn label<'a>(f: &'a Fake, pod: &str, key: &str) -> Option<&'a str> {
    f.snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some(pod))?
        .metadata
        .labels
        .as_ref()?
        .get(key)
        .map(String::as_str)
}

#[test]
fn statefulset_pods_come_in_order_with_stable_names() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.pass();
    assert_eq!(f.pod_names("db-"), ["db-0"], "one at a time (OrderedReady)");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1", "db-2"]);
    assert_eq!(
        label(&f, "db-1", "statefulset.kubernetes.io/pod-name"),
        Some("db-1")
    );
    assert_eq!(label(&f, "db-1", "apps.kubernetes.io/pod-index"), Some("1"));
    let rev = label(&f, "db-2", "controller-revision-hash")
        .expect("revision")
        .to_string();
    assert!(rev.starts_with("db-"), "{rev}");
    let pod = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-2"))
        .expect("db-2");
    let spec = pod.spec.as_ref().expect("spec");
    assert_eq!(
        (spec.hostname.as_deref(), spec.subdomain.as_deref()),
        (Some("db-2"), Some("db"))
    );
    assert!(
        f.event_texts().contains(
            &"SuccessfulCreate: create Pod db-0 in StatefulSet db successful".to_string()
        )
    );
    let st = f.snap.stateful_sets[0].status.clone().expect("status");
    assert_eq!(
        (
            st.replicas,
            st.ready_replicas,
            st.available_replicas,
            st.current_replicas,
            st.updated_replicas
        ),
        (3, Some(3), Some(3), Some(3), Some(3))
    );
    assert_eq!(
        (
            st.current_revision.as_deref(),
            st.update_revision.as_deref()
        ),
        (Some(rev.as_str()), Some(rev.as_str()))
    );
}

#[test]
fn a_deleted_statefulset_pod_comes_back_under_its_name() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.settle();
    let old_uid = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-1"))
        .and_then(|p| p.metadata.uid.clone());
    f.remove_pod("db-1");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1", "db-2"]);
    let new_uid = f
        .snap
        .pods
        .iter()
        .find(|p| p.metadata.name.as_deref() == Some("db-1"))
        .and_then(|p| p.metadata.uid.clone());
    assert_ne!(old_uid, new_uid);
}

#[test]
fn statefulset_scales_down_from_the_highest_ordinal_and_parallel_creates_all() {
    let mut f = Fake::new(t0());
    f.add(sts(3, false));
    f.settle();
    f.snap.stateful_sets[0].spec.replicas = Some(1);
    f.pass();
    assert_eq!(f.pod_names("db-"), ["db-0", "db-1"]);
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
    let mut g = Fake::new(t0());
    g.add(sts(3, true));
    g.pass();
    assert_eq!(g.pod_names("db-"), ["db-0", "db-1", "db-2"]);
}

#[test]
fn statefulset_waits_for_a_ready_pod_before_the_next() {
    let mut f = Fake::new(t0());
    let Workload::StatefulSet(mut s) = sts(2, false) else {
        unreachable!()
    };
    s.spec.template = template("db", "hello:bad");
    f.add(Workload::StatefulSet(s));
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
}

#[test]
fn daemonset_runs_one_pod_pinned_to_the_node() {
    let mut f = Fake::new(t0());
    f.add(Workload::DaemonSet(DaemonSet {
        metadata: meta("agent"),
        spec: DaemonSetSpec {
            template: template("agent", "hello:1.0"),
            ..DaemonSetSpec::default()
        },
        status: None,
    }));
    f.settle();
    let pods = f.pod_names("agent-");
    assert_eq!(pods.len(), 1);
    let pod = &f.snap.pods[0];
    let terms = pod
        .spec
        .as_ref()
        .and_then(|s| s.affinity.as_ref())
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .expect("affinity");
    let field = &terms.node_selector_terms[0]
        .match_fields
        .as_ref()
        .expect("fields")[0];
    assert_eq!(
        (field.key.as_str(), field.values.clone()),
        ("metadata.name", Some(vec!["sim-node-1".to_string()]))
    );
    let st = f.snap.daemon_sets[0].status.clone().expect("status");
    assert_eq!(
        (
            st.desired_number_scheduled,
            st.current_number_scheduled,
            st.number_ready,
            st.updated_number_scheduled,
            st.number_available
        ),
        (1, 1, 1, Some(1), Some(1))
    );
    f.remove_pod(&pods[0]);
    f.settle();
    assert_eq!(f.pod_names("agent-").len(), 1);
    assert_ne!(f.pod_names("agent-"), pods);
}

#[test]
fn orphan_deletion_keeps_the_dependents_unowned() {
    let mut f = Fake::new(t0());
    f.add(sts(1, false));
    f.settle();
    let s = &mut f.snap.stateful_sets[0];
    s.metadata.deletion_timestamp =
        Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(t0()));
    s.metadata.finalizers = Some(vec!["orphan".into()]);
    f.pass();
    assert_eq!(f.snap.stateful_sets[0].metadata.finalizers, Some(vec![]));
    f.delete(Kind::StatefulSet, "db");
    f.settle();
    assert_eq!(f.pod_names("db-"), ["db-0"]);
    assert_eq!(f.snap.pods[0].metadata.owner_references, Some(vec![]));
}
