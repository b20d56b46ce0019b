//! Unit tests of the workload writes: generation rules, generateName, 404/409 wording, the
//! live changes and deletion with finalizers.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec, DeploymentStatus};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::{ChangeType, Propagation, Store};
use crate::SimClock;
use crate::api::object::{Object, Resource};

fn store() -> Store {
    let t: jiff::Timestamp = "2025-01-01T00:00:00Z".parse().expect("time");
    Store::new(SimClock::Frozen(t))
}

fn deployment(name: &str, replicas: i32) -> Object {
    Object::Deployment(Arc::new(Deployment {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..ObjectMeta::default()
        },
        spec: DeploymentSpec {
            replicas: Some(replicas),
            ..DeploymentSpec::default()
        },
        status: None,
    }))
}

fn deploy_of(o: &Object) -> &Deployment {
    match o {
        Object::Deployment(d) => d,
        other => panic!("not a deployment: {other:?}"),
    }
}

#[test]
fn create_sets_server_metadata_and_refuses_duplicates() {
    let s = store();
    let d = s.create_object(deployment("web", 1)).expect("created");
    let m = d.meta();
    assert_eq!(m.namespace.as_deref(), Some("default"));
    assert_eq!(m.generation, Some(1));
    assert_eq!(m.resource_version.as_deref(), Some("1"));
    assert_eq!(
        m.creation_timestamp.as_ref().map(|t| t.0.to_string()),
        Some("2025-01-01T00:00:00Z".to_string())
    );
    assert_eq!(m.uid.as_deref().map(str::len), Some(36));
    let err = s.create_object(deployment("web", 1)).expect_err("exists");
    assert_eq!(err.code, 409);
    assert_eq!(err.reason, "AlreadyExists");
    assert_eq!(err.message, r#"deployments.apps "web" already exists"#);
    let (all, rv) = s.list(Resource::Deployments, Some("default"));
    assert_eq!((all.len(), rv), (1, 1));
    assert!(s.object(Resource::Deployments, "default", "web").is_some());
    assert!(s.object(Resource::Deployments, "other", "web").is_none());
}

#[test]
fn generate_name_appends_five_characters_of_the_alphabet() {
    let s = store();
    let job = Object::Job(Arc::new(Job {
        metadata: ObjectMeta {
            generate_name: Some("pi-".into()),
            namespace: Some("batch".into()),
            ..ObjectMeta::default()
        },
        ..Job::default()
    }));
    let made = s.create_object(job).expect("created");
    let name = made.name();
    let suffix = name.strip_prefix("pi-").expect("prefix kept");
    assert_eq!(suffix.len(), 5);
    assert!(
        suffix
            .bytes()
            .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b)),
        "{name}"
    );
    assert_eq!(made.namespace(), "batch");
    let none = Object::Job(Arc::new(Job::default()));
    assert_eq!(s.create_object(none).expect_err("no name").code, 400);
}

#[test]
fn generation_grows_with_spec_changes_only() {
    let s = store();
    s.create_object(deployment("web", 1)).expect("created");
    let scaled = s
        .update_object(Resource::Deployments, "default", "web", |o| {
            if let Object::Deployment(d) = o {
                Arc::make_mut(d).spec.replicas = Some(3);
            }
            Ok(())
        })
        .expect("scaled");
    assert_eq!(scaled.meta().generation, Some(2));
    assert_eq!(scaled.meta().resource_version.as_deref(), Some("2"));
    let status = s
        .update_object(Resource::Deployments, "default", "web", |o| {
            if let Object::Deployment(d) = o {
                Arc::make_mut(d).status = Some(DeploymentStatus {
                    observed_generation: Some(2),
                    ..DeploymentStatus::default()
                });
            }
            o.meta_mut()
                .labels
                .get_or_insert_default()
                .insert("app".into(), "web".into());
            Ok(())
        })
        .expect("status");
    assert_eq!(status.meta().generation, Some(2));
    assert_eq!(
        deploy_of(&status)
            .status
            .as_ref()
            .and_then(|s| s.observed_generation),
        Some(2)
    );
    // Server-owned metadata stays the server's; an unchanged object is not written.
    let same = s
        .update_object(Resource::Deployments, "default", "web", |o| {
            o.meta_mut().generation = Some(40);
            o.meta_mut().uid = Some("forged".into());
            Ok(())
        })
        .expect("no-op");
    assert_eq!(same.meta().resource_version.as_deref(), Some("3"));
    assert_eq!(same.meta().generation, Some(2));
    assert_eq!(s.resource_version(), 3);
}

#[test]
fn missing_objects_are_404_with_the_group_qualified_plural() {
    let s = store();
    let err = s
        .update_object(Resource::ReplicaSets, "default", "x", |_| Ok(()))
        .expect_err("absent");
    assert_eq!((err.code, err.reason), (404, "NotFound"));
    assert_eq!(err.message, r#"replicasets.apps "x" not found"#);
    let err = s
        .delete_object(Resource::CronJobs, "default", "x")
        .expect_err("absent");
    assert_eq!(err.message, r#"cronjobs.batch "x" not found"#);
}

#[test]
fn subscribers_see_added_modified_deleted() {
    let s = store();
    let mut rx = s.subscribe();
    assert_eq!(
        s.watchers(),
        0,
        "in-process subscribers are not client watches"
    );
    s.create_object(deployment("web", 1)).expect("created");
    s.update_object(Resource::Deployments, "default", "web", |o| {
        o.meta_mut()
            .annotations
            .get_or_insert_default()
            .insert("a".into(), "b".into());
        Ok(())
    })
    .expect("updated");
    let last = s
        .delete_object(Resource::Deployments, "default", "web")
        .expect("deleted");
    assert_eq!(last.meta().resource_version.as_deref(), Some("3"));
    let kinds: Vec<(ChangeType, u64)> = (0..3)
        .map(|_| rx.try_recv().expect("change"))
        .map(|c| (c.change_type, c.rv))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (ChangeType::Added, 1),
            (ChangeType::Modified, 2),
            (ChangeType::Deleted, 3)
        ]
    );
    assert!(s.object(Resource::Deployments, "default", "web").is_none());
}

#[test]
fn finalizers_hold_a_deleted_object_until_emptied() {
    let s = store();
    let mut d = deployment("web", 1);
    d.meta_mut().finalizers = Some(vec!["example.com/hold".into()]);
    s.create_object(d).expect("created");
    let kept = s
        .delete_object(Resource::Deployments, "default", "web")
        .expect("marked");
    assert!(kept.meta().deletion_timestamp.is_some());
    assert_eq!(kept.meta().deletion_grace_period_seconds, Some(0));
    assert!(s.object(Resource::Deployments, "default", "web").is_some());
    let mut rx = s.subscribe();
    let gone = s
        .update_object(Resource::Deployments, "default", "web", |o| {
            o.meta_mut().finalizers = None;
            Ok(())
        })
        .expect("finalized");
    assert!(gone.meta().finalizers.is_none());
    assert!(s.object(Resource::Deployments, "default", "web").is_none());
    assert_eq!(
        rx.try_recv().expect("change").change_type,
        ChangeType::Deleted
    );
}

#[test]
fn orphan_propagation_adds_the_orphan_finalizer() {
    let s = store();
    s.create_object(deployment("web", 1)).expect("created");
    let kept = s
        .delete_object_with(Resource::Deployments, "default", "web", Propagation::Orphan)
        .expect("marked");
    assert_eq!(kept.meta().finalizers, Some(vec!["orphan".to_string()]));
    assert!(kept.meta().deletion_timestamp.is_some());
    assert!(Propagation::parse("Sideways").is_err());
}
