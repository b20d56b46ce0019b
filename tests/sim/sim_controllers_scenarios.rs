//! The workload scenarios on the real simulator (store, kubelet model, controller driver), read
//! through the store: the stuck rollout reaches ProgressDeadlineExceeded with the old
//! ReplicaSet serving 3 and the new pod crash-looping; the StatefulSet's pods come in order and
//! a deleted one returns under its name; the Job ends BackoffLimitExceeded after 3 pods.

use crate::common;
use std::path::PathBuf;
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet, StatefulSet};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::{Object, Propagation, Resource, SimClock, SimConfig, Simulator, Store};

use common::sim::waiting_reason;
use common::wait::wait_until;

async fn start(scenario: &str, speed: f64) -> Simulator {
    let start = Timestamp::now() - SignedDuration::from_hours(2);
    Simulator::start(SimConfig {
        clock: SimClock::scaled(start, speed),
        scenarios: vec![PathBuf::from(scenario)],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

fn deployment(store: &Store, name: &str) -> Option<Deployment> {
    match store.object(Resource::Deployments, "default", name)? {
        Object::Deployment(d) => Some((*d).clone()),
        _ => None,
    }
}

fn replica_sets(store: &Store) -> Vec<ReplicaSet> {
    let mut v: Vec<ReplicaSet> = store
        .list(Resource::ReplicaSets, Some("default"))
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::ReplicaSet(r) => Some((*r).clone()),
            _ => None,
        })
        .collect();
    v.sort_by_key(|r| r.metadata.creation_timestamp.clone().map(|t| t.0));
    v
}

fn pods(store: &Store, prefix: &str) -> Vec<Pod> {
    store
        .list(Resource::Pods, Some("default"))
        .0
        .into_iter()
        .filter_map(|o| match o {
            Object::Pod(p) => Some((*p).clone()),
            _ => None,
        })
        .filter(|p| p.metadata.name.as_deref().unwrap_or("").starts_with(prefix))
        .collect()
}

fn progressing(d: &Deployment) -> Option<(String, String, String)> {
    let c = d
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_.as_deref() == Some("Progressing"))?;
    Some((
        c.status.clone().unwrap_or_default(),
        c.reason.clone().unwrap_or_default(),
        c.message.clone().unwrap_or_default(),
    ))
}

#[tokio::test]
async fn the_stuck_rollout_exceeds_its_progress_deadline() {
    let sim = start("rollout-stuck", 10.0).await;
    let store = sim.store();
    let timed_out = wait_until(Duration::from_secs(60), || {
        deployment(&store, "web")
            .and_then(|d| progressing(&d))
            .is_some_and(|c| c.1 == "ProgressDeadlineExceeded")
    })
    .await;
    let d = deployment(&store, "web").expect("web");
    assert!(timed_out, "no ProgressDeadlineExceeded: {:?}", d.status);
    let rss = replica_sets(&store);
    assert_eq!(rss.len(), 2, "old and new ReplicaSet");
    let (old, new) = (&rss[0], &rss[1]);
    let new_name = new.metadata.name.clone().expect("name");
    assert_eq!(
        progressing(&d).expect("condition"),
        (
            "False".to_string(),
            "ProgressDeadlineExceeded".to_string(),
            format!("ReplicaSet \"{new_name}\" has timed out progressing.")
        )
    );
    assert_eq!(old.spec.replicas, Some(3));
    assert_eq!(old.status.as_ref().and_then(|s| s.ready_replicas), Some(3));
    assert_eq!(new.spec.replicas, Some(1));
    let rev = |rs: &ReplicaSet| {
        rs.metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get("deployment.kubernetes.io/revision"))
            .cloned()
    };
    assert_eq!(
        (rev(old).as_deref(), rev(new).as_deref()),
        (Some("1"), Some("2"))
    );
    let new_pods = pods(&store, &format!("{new_name}-"));
    assert_eq!(new_pods.len(), 1);
    let crashing = wait_until(Duration::from_secs(30), || {
        pods(&store, &format!("{new_name}-"))
            .iter()
            .any(|p| waiting_reason(p, "hello").as_deref() == Some("CrashLoopBackOff"))
    })
    .await;
    assert!(crashing, "the new pod is not in CrashLoopBackOff");

    // Deleting the Deployment (background propagation) takes its ReplicaSets and pods along.
    store
        .delete_object(Resource::Deployments, "default", "web")
        .expect("deleted");
    let collected = wait_until(Duration::from_secs(60), || {
        replica_sets(&store).is_empty() && pods(&store, "web-").is_empty()
    })
    .await;
    assert!(
        collected,
        "ReplicaSets or pods left: {}",
        replica_sets(&store).len()
    );
}

#[tokio::test]
async fn statefulset_pods_are_ordered_and_come_back_under_their_names() {
    let sim = start("statefulset-db", 10.0).await;
    let store = sim.store();
    let names = |store: &Store| {
        let mut v: Vec<String> = pods(store, "db-")
            .into_iter()
            .filter_map(|p| p.metadata.name)
            .collect();
        v.sort();
        v
    };
    let ready = wait_until(Duration::from_secs(60), || {
        matches!(store.object(Resource::StatefulSets, "default", "db"), Some(Object::StatefulSet(s)) if s.status.as_ref().and_then(|s| s.ready_replicas) == Some(3))
    })
    .await;
    assert!(ready, "db never had 3 ready pods");
    assert_eq!(names(&store), ["db-0", "db-1", "db-2"]);
    let created: Vec<_> = ["db-0", "db-1", "db-2"]
        .iter()
        .map(|n| {
            store
                .pod("default", n)
                .and_then(|p| p.metadata.creation_timestamp)
                .expect("created")
                .0
        })
        .collect();
    assert!(
        created[0] < created[1] && created[1] < created[2],
        "{created:?}"
    );
    let old_uid = store.pod("default", "db-1").and_then(|p| p.metadata.uid);
    store.delete_pod("default", "db-1").expect("deleted");
    let back = wait_until(Duration::from_secs(60), || {
        store
            .pod("default", "db-1")
            .is_some_and(|p| p.metadata.uid != old_uid && common::sim::all_ready(&p))
    })
    .await;
    assert!(back, "db-1 did not come back");
    let Some(Object::StatefulSet(s)) = store.object(Resource::StatefulSets, "default", "db") else {
        panic!("db")
    };
    let s: &StatefulSet = &s;
    let st = s.status.clone().expect("status");
    assert_eq!((st.replicas, st.current_revision.is_some()), (3, true));

    // `--cascade=orphan`: the StatefulSet goes, its pods stay, owned by nothing.
    store
        .delete_object_with(Resource::StatefulSets, "default", "db", Propagation::Orphan)
        .expect("deleted");
    let orphaned = wait_until(Duration::from_secs(30), || {
        store
            .object(Resource::StatefulSets, "default", "db")
            .is_none()
            && pods(&store, "db-").iter().all(|p| {
                p.metadata
                    .owner_references
                    .as_ref()
                    .is_none_or(Vec::is_empty)
            })
    })
    .await;
    assert!(orphaned, "the StatefulSet or its ownerReferences remain");
    assert_eq!(names(&store), ["db-0", "db-1", "db-2"]);
}

#[tokio::test]
async fn the_job_ends_backoff_limit_exceeded() {
    let sim = start("job-backoff", 20.0).await;
    let store = sim.store();
    let job = |store: &Store| match store.object(Resource::Jobs, "default", "migrate") {
        Some(Object::Job(j)) => Some((*j).clone()),
        _ => None,
    };
    let failed = wait_until(Duration::from_secs(60), || {
        job(&store)
            .and_then(|j: Job| j.status)
            .and_then(|s| s.conditions)
            .is_some_and(|c| c.iter().any(|c| c.type_ == "Failed"))
    })
    .await;
    let j = job(&store).expect("job");
    assert!(failed, "the Job did not fail: {:?}", j.status);
    let st = j.status.expect("status");
    assert_eq!(
        (st.failed, st.active, st.succeeded),
        (Some(3), Some(0), Some(0))
    );
    let failed_cond = st
        .conditions
        .unwrap_or_default()
        .into_iter()
        .find(|c| c.type_ == "Failed")
        .expect("Failed");
    assert_eq!(failed_cond.reason.as_deref(), Some("BackoffLimitExceeded"));
    assert_eq!(
        failed_cond.message.as_deref(),
        Some("Job has reached the specified backoff limit")
    );
    let ps = pods(&store, "migrate-");
    assert_eq!(ps.len(), 3);
    assert!(
        ps.iter()
            .all(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Failed"))
    );
    assert!(
        ps.iter()
            .all(|p| p.metadata.finalizers.as_ref().is_none_or(Vec::is_empty))
    );
}
