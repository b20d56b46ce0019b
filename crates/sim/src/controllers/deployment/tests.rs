use jiff::SignedDuration;
use k8s_openapi::api::apps::v1::{
    Deployment, DeploymentSpec, DeploymentStrategy, RollingUpdateDeployment,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{DESIRED_REPLICAS, MAX_REPLICAS, REVISION, REVISION_HISTORY};
use crate::controllers::Workload;
use crate::controllers::hash::POD_TEMPLATE_HASH;
use crate::controllers::testing::{Fake, t0, template};

pub(super) fn deploy(replicas: i32, image: &str) -> Deployment {
    Deployment {
        metadata: ObjectMeta {
            name: Some("web".into()),
            ..ObjectMeta::default()
        },
        spec: DeploymentSpec {
            replicas: Some(replicas),
            progress_deadline_seconds: Some(60),
            selector: LabelSelector {
                match_labels: Some([("app".to_string(), "web".to_string())].into()),
                ..LabelSelector::default()
            },
            template: template("web", image),
            ..DeploymentSpec::default()
        },
        status: None,
    }
}

/// Changes the stored Deployment's spec as `kubectl apply`/`set image` would (generation + 1).
pub(super) fn edit(f: &mut Fake, change: impl FnOnce(&mut DeploymentSpec)) {
    let d = &mut f.snap.deployments[0];
    change(&mut d.spec);
    d.metadata.generation = Some(d.metadata.generation.unwrap_or(1) + 1);
}

pub(super) fn set_image(f: &mut Fake, image: &str) {
    edit(f, |s| {
        s.template.spec.as_mut().expect("spec").containers[0].image = Some(image.into())
    });
}

/// `(name, spec.replicas, revision)` of each ReplicaSet, oldest first.
pub(super) fn replica_sets(f: &Fake) -> Vec<(String, i32, String)> {
    f.snap
        .replica_sets
        .iter()
        .map(|rs| {
            let rev = rs
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get(REVISION))
                .cloned()
                .unwrap_or_default();
            (
                rs.metadata.name.clone().unwrap_or_default(),
                rs.spec.replicas.unwrap_or(0),
                rev,
            )
        })
        .collect()
}

pub(super) fn condition(f: &Fake, type_: &str) -> (String, String, String) {
    let c = f.snap.deployments[0]
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .and_then(|c| c.iter().find(|c| c.type_.as_deref() == Some(type_)))
        .cloned()
        .expect("condition");
    (
        c.status.unwrap_or_default(),
        c.reason.unwrap_or_default(),
        c.message.unwrap_or_default(),
    )
}

#[test]
fn a_new_deployment_gets_a_hashed_replica_set_and_completes() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(3, "hello:1.0")));
    f.settle();
    let rs = &f.snap.replica_sets[0];
    let name = rs.metadata.name.clone().expect("name");
    let hash = name.strip_prefix("web-").expect("web-<hash>");
    assert!((8..=10).contains(&hash.len()), "{name}");
    let ann = rs.metadata.annotations.clone().expect("annotations");
    assert_eq!(
        (
            ann[REVISION].as_str(),
            ann[DESIRED_REPLICAS].as_str(),
            ann[MAX_REPLICAS].as_str()
        ),
        ("1", "3", "4")
    );
    for labels in [
        rs.metadata.labels.clone(),
        rs.spec.selector.match_labels.clone(),
        rs.spec
            .template
            .as_ref()
            .and_then(|t| t.metadata.clone())
            .and_then(|m| m.labels),
    ] {
        assert_eq!(
            labels
                .expect("labels")
                .get(POD_TEMPLATE_HASH)
                .map(String::as_str),
            Some(hash)
        );
    }
    let owner = &rs.metadata.owner_references.as_ref().expect("owned")[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str(), owner.controller),
        ("Deployment", "web", Some(true))
    );
    assert_eq!(f.pod_names(&format!("{name}-")).len(), 3);
    assert!(f.event_texts().contains(&format!(
        "ScalingReplicaSet: Scaled up replica set {name} from 0 to 3"
    )));
    let st = f.snap.deployments[0].status.clone().expect("status");
    assert_eq!(
        (
            st.replicas,
            st.updated_replicas,
            st.ready_replicas,
            st.available_replicas,
            st.unavailable_replicas,
            st.observed_generation
        ),
        (Some(3), Some(3), Some(3), Some(3), Some(0), Some(1))
    );
    assert_eq!(
        condition(&f, "Available"),
        (
            "True".into(),
            "MinimumReplicasAvailable".into(),
            "Deployment has minimum availability.".into()
        )
    );
    assert_eq!(
        condition(&f, "Progressing"),
        (
            "True".into(),
            "NewReplicaSetAvailable".into(),
            format!("ReplicaSet \"{name}\" has successfully progressed.")
        )
    );
    assert_eq!(
        f.snap.deployments[0]
            .metadata
            .annotations
            .as_ref()
            .map(|a| a[REVISION].clone()),
        Some("1".into())
    );
}

#[test]
fn rolling_update_surges_one_and_waits_for_availability() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(3, "hello:1.0")));
    f.settle();
    let old = f.snap.replica_sets[0].metadata.name.clone().expect("name");
    set_image(&mut f, "hello:2.0");
    // Pass by pass: the new ReplicaSet is created with 1 (maxSurge 25 % of 3 rounds up to 1,
    // maxUnavailable rounds down to 0), old ones shrink only as new pods become available.
    f.settle();
    let rss = replica_sets(&f);
    assert_eq!(rss.len(), 2);
    assert_eq!((rss[0].0.as_str(), rss[0].1), (old.as_str(), 0));
    assert_eq!((rss[1].1, rss[1].2.as_str()), (3, "2"));
    let new = rss[1].0.clone();
    let scaling: Vec<String> = f
        .event_texts()
        .into_iter()
        .filter(|e| e.starts_with("ScalingReplicaSet"))
        .skip(1)
        .collect();
    assert_eq!(
        scaling,
        [
            format!("ScalingReplicaSet: Scaled up replica set {new} from 0 to 1"),
            format!("ScalingReplicaSet: Scaled down replica set {old} from 3 to 2"),
            format!("ScalingReplicaSet: Scaled up replica set {new} from 1 to 2"),
            format!("ScalingReplicaSet: Scaled down replica set {old} from 2 to 1"),
            format!("ScalingReplicaSet: Scaled up replica set {new} from 2 to 3"),
            format!("ScalingReplicaSet: Scaled down replica set {old} from 1 to 0"),
        ]
    );
    assert_eq!(f.pod_names("web-").len(), 3);
    assert_eq!(condition(&f, "Progressing").1, "NewReplicaSetAvailable");
}

#[test]
fn max_unavailable_one_and_no_surge_scales_the_old_down_first() {
    let mut f = Fake::new(t0());
    let mut d = deploy(4, "hello:1.0");
    d.spec.strategy = Some(DeploymentStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(RollingUpdateDeployment {
            max_surge: Some(IntOrString::Int(0)),
            max_unavailable: Some(IntOrString::Int(1)),
        }),
    });
    f.add(Workload::Deployment(d));
    f.settle();
    set_image(&mut f, "hello:bad");
    f.settle();
    // A new pod never becomes available: the old ReplicaSet gives up exactly one pod.
    let rss = replica_sets(&f);
    assert_eq!((rss[0].1, rss[1].1), (3, 1));
    assert_eq!(condition(&f, "Available").1, "MinimumReplicasAvailable");
}

#[test]
fn a_bad_revision_is_stuck_then_exceeds_its_progress_deadline() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(3, "hello:1.0")));
    f.settle();
    set_image(&mut f, "hello:bad");
    let wake = f.settle();
    let rss = replica_sets(&f);
    assert_eq!(
        (rss[0].1, rss[1].1),
        (3, 1),
        "old keeps 3, new has 1 surge pod"
    );
    let new = rss[1].0.clone();
    assert_eq!(condition(&f, "Progressing").0, "True");
    let due = wake.expect("a wake-up at the deadline");
    assert!(
        due > t0().checked_add(SignedDuration::from_secs(59)).expect("t"),
        "{due}"
    );
    f.advance(61);
    f.settle();
    assert_eq!(
        condition(&f, "Progressing"),
        (
            "False".into(),
            "ProgressDeadlineExceeded".into(),
            format!("ReplicaSet \"{new}\" has timed out progressing.")
        )
    );
    let st = f.snap.deployments[0].status.clone().expect("status");
    assert_eq!(
        (
            st.replicas,
            st.updated_replicas,
            st.available_replicas,
            st.unavailable_replicas
        ),
        (Some(4), Some(1), Some(3), Some(0))
    );
}

#[test]
fn rollback_reuses_the_old_replica_set_with_the_next_revision() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(3, "hello:1.0")));
    f.settle();
    let first = f.snap.replica_sets[0].metadata.name.clone().expect("name");
    set_image(&mut f, "hello:bad");
    f.settle();
    // `kubectl rollout undo`: the first ReplicaSet's template, minus pod-template-hash.
    let mut t = f.snap.replica_sets[0]
        .spec
        .template
        .clone()
        .expect("template");
    t.metadata
        .as_mut()
        .and_then(|m| m.labels.as_mut())
        .map(|l| l.remove(POD_TEMPLATE_HASH));
    edit(&mut f, |s| s.template = t);
    f.settle();
    let rss = replica_sets(&f);
    assert_eq!(rss.len(), 2);
    assert_eq!(rss[0], (first.clone(), 3, "3".to_string()));
    assert_eq!(rss[1].1, 0);
    let ann = f.snap.replica_sets[0]
        .metadata
        .annotations
        .clone()
        .expect("ann");
    assert_eq!(ann.get(REVISION_HISTORY).map(String::as_str), Some("1"));
    assert_eq!(
        f.snap.deployments[0]
            .metadata
            .annotations
            .as_ref()
            .map(|a| a[REVISION].clone()),
        Some("3".into())
    );
    assert_eq!(condition(&f, "Progressing").1, "NewReplicaSetAvailable");
}

#[test]
fn recreate_stops_every_old_pod_before_starting_new_ones() {
    let mut f = Fake::new(t0());
    let mut d = deploy(2, "hello:1.0");
    d.spec.strategy = Some(DeploymentStrategy {
        type_: Some("Recreate".into()),
        rolling_update: None,
    });
    f.add(Workload::Deployment(d));
    f.settle();
    set_image(&mut f, "hello:2.0");
    f.pass();
    assert_eq!(
        replica_sets(&f).len(),
        1,
        "no new ReplicaSet while old pods run"
    );
    assert_eq!(replica_sets(&f)[0].1, 0);
    f.settle();
    let rss = replica_sets(&f);
    assert_eq!((rss[0].1, rss[1].1), (0, 2));
}
