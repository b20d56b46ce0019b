use k8s_openapi::api::apps::v1::{ReplicaSet, ReplicaSetSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::controllers::testing::{Fake, t0, template};
use crate::controllers::{Workload, pods::NAME_ALPHABET};

fn rs(name: &str, replicas: i32, image: &str, min_ready: Option<i32>) -> Workload {
    Workload::ReplicaSet(ReplicaSet {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..ObjectMeta::default()
        },
        spec: ReplicaSetSpec {
            replicas: Some(replicas),
            min_ready_seconds: min_ready,
            template: Some(template("web", image)),
            ..ReplicaSetSpec::default()
        },
        status: None,
    })
}

#[test]
fn creates_named_owned_pods_and_reports_them() {
    let mut f = Fake::new(t0());
    f.add(rs("web-abc", 3, "hello:1.0", None));
    f.settle();
    let pods = f.pod_names("web-abc-");
    assert_eq!(pods.len(), 3);
    for p in &f.snap.pods {
        let name = p.metadata.name.clone().expect("name");
        let suffix = name.strip_prefix("web-abc-").expect("prefix");
        assert_eq!(suffix.len(), 5);
        assert!(suffix.bytes().all(|b| NAME_ALPHABET.contains(&b)), "{name}");
        assert_eq!(p.metadata.generate_name.as_deref(), Some("web-abc-"));
        let owner = &p.metadata.owner_references.as_ref().expect("owned")[0];
        assert_eq!(
            (
                owner.api_version.as_str(),
                owner.kind.as_str(),
                owner.name.as_str()
            ),
            ("apps/v1", "ReplicaSet", "web-abc")
        );
        assert_eq!(
            (owner.controller, owner.block_owner_deletion),
            (Some(true), Some(true))
        );
        assert_eq!(
            p.metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("app"))
                .map(String::as_str),
            Some("web")
        );
    }
    let created: Vec<String> = f
        .event_texts()
        .into_iter()
        .filter(|e| e.starts_with("SuccessfulCreate: Created pod: web-abc-"))
        .collect();
    assert_eq!(created.len(), 3);
    let st = f.snap.replica_sets[0].status.clone().expect("status");
    assert_eq!(
        (
            st.replicas,
            st.fully_labeled_replicas,
            st.ready_replicas,
            st.available_replicas,
            st.observed_generation
        ),
        (3, Some(3), Some(3), Some(3), Some(1))
    );
}

#[test]
fn a_deleted_pod_is_replaced_by_another_name() {
    let mut f = Fake::new(t0());
    f.add(rs("web-abc", 2, "hello:1.0", None));
    f.settle();
    let before = f.pod_names("web-abc-");
    f.remove_pod(&before[0]);
    f.settle();
    let after = f.pod_names("web-abc-");
    assert_eq!(after.len(), 2);
    assert!(after.contains(&before[1]));
    assert!(!after.contains(&before[0]));
}

#[test]
fn surplus_goes_not_ready_first() {
    let mut f = Fake::new(t0());
    f.add(rs("web-abc", 2, "hello:1.0", None));
    f.settle();
    let healthy = f.pod_names("web-abc-");
    // A not-ready pod of the same template, owned by the ReplicaSet (as if it had made it).
    let mut extra = f.snap.pods[0].clone();
    extra.metadata.name = Some("web-abc-zzzzz".into());
    extra.metadata.uid = Some("uid-extra".into());
    extra.status = Some(crate::controllers::testing::kubelet_status(
        &{
            let mut p = extra.clone();
            p.spec.as_mut().expect("spec").containers[0].image = Some("hello:bad".into());
            p
        },
        t0(),
    ));
    f.snap.pods.push(extra);
    f.settle();
    assert_eq!(f.pod_names("web-abc-"), healthy);
    assert!(
        f.event_texts()
            .contains(&"SuccessfulDelete: Deleted pod: web-abc-zzzzz".to_string())
    );
}

#[test]
fn min_ready_seconds_delays_availability_and_asks_for_a_wakeup() {
    let mut f = Fake::new(t0());
    f.add(rs("web-abc", 1, "hello:1.0", Some(10)));
    let wake = f.settle();
    let st = f.snap.replica_sets[0].status.clone().expect("status");
    assert_eq!(
        (st.ready_replicas, st.available_replicas),
        (Some(1), Some(0))
    );
    assert_eq!(
        wake,
        Some(
            t0().checked_add(jiff::SignedDuration::from_secs(10))
                .expect("t")
        )
    );
    f.advance(10);
    f.settle();
    assert_eq!(
        f.snap.replica_sets[0]
            .status
            .as_ref()
            .and_then(|s| s.available_replicas),
        Some(1)
    );
}

#[test]
fn pods_of_others_are_not_adopted() {
    let mut f = Fake::new(t0());
    let mut stray = k8s_openapi::api::core::v1::Pod::default();
    stray.metadata.name = Some("web-stray".into());
    stray.metadata.labels = Some([("app".to_string(), "web".to_string())].into());
    f.snap.pods.push(stray);
    f.add(rs("web-abc", 1, "hello:1.0", None));
    f.settle();
    assert_eq!(f.pod_names("web-abc-").len(), 1);
    assert!(
        f.snap
            .pods
            .iter()
            .any(|p| p.metadata.name.as_deref() == Some("web-stray")
                && p.metadata.owner_references.is_none())
    );
}

/// `kubectl label pod web-abc-… app=quarantine --overwrite`: the ReplicaSet releases the pod
/// (no ownerReference left), stops counting it and creates a replacement, as `ClaimPods` does.
#[test]
fn a_relabelled_pod_is_released_and_replaced() {
    let mut f = Fake::new(t0());
    let Workload::ReplicaSet(mut set) = rs("web-abc", 2, "hello:1.0", None) else {
        unreachable!("a ReplicaSet")
    };
    set.spec.selector.match_labels = Some([("app".to_owned(), "web".to_owned())].into());
    f.add(Workload::ReplicaSet(set));
    f.settle();
    let before = f.pod_names("web-abc-");
    assert_eq!(before.len(), 2);
    let quarantined = before[0].clone();
    let pod = f
        .snap
        .pods
        .iter_mut()
        .find(|p| p.metadata.name.as_deref() == Some(quarantined.as_str()))
        .expect("pod");
    pod.metadata
        .labels
        .get_or_insert_default()
        .insert("app".into(), "quarantine".into());
    f.settle();
    let after = f.pod_names("web-abc-");
    assert_eq!(after.len(), 3, "{after:?}");
    for p in &f.snap.pods {
        let owners = p.metadata.owner_references.clone().unwrap_or_default();
        if p.metadata.name.as_deref() == Some(quarantined.as_str()) {
            assert!(owners.is_empty(), "released: {owners:?}");
        } else {
            assert_eq!(owners.len(), 1);
            assert_eq!(owners[0].name, "web-abc");
        }
    }
    let st = f.snap.replica_sets[0].status.clone().expect("status");
    assert_eq!((st.replicas, st.fully_labeled_replicas), (2, Some(2)));
    assert_eq!(
        f.event_texts()
            .iter()
            .filter(|e| e.contains("Created pod"))
            .count(),
        3
    );
}
