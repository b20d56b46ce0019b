//! Unit tests of the generic writes for the core kinds: cluster-scoped objects are stored
//! under namespace `""`, namespaced ones default to `default`, no `metadata.generation`.

use std::sync::Arc;

use k8s_openapi::api::core::v1::{ConfigMap, Namespace, PersistentVolume};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use super::{ChangeType, Store};
use crate::SimClock;
use crate::api::object::{Object, Resource};

fn store() -> Store {
    let t: jiff::Timestamp = "2025-01-01T00:00:00Z".parse().expect("time");
    Store::new(SimClock::Frozen(t))
}

fn meta(name: &str, ns: Option<&str>) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.into()),
        namespace: ns.map(Into::into),
        ..ObjectMeta::default()
    }
}

#[test]
fn cluster_scoped_objects_have_no_namespace() {
    let s = store();
    let ns = Object::Namespace(Arc::new(Namespace {
        metadata: meta("team", Some("default")),
        ..Namespace::default()
    }));
    let created = s.create_object(ns).expect("create");
    assert_eq!(created.meta().namespace, None);
    assert_eq!(created.meta().generation, None);
    assert!(s.object(Resource::Namespaces, "", "team").is_some());
    let (all, _) = s.list(Resource::Namespaces, None);
    assert_eq!(all.len(), 1);
    let again = Object::Namespace(Arc::new(Namespace {
        metadata: meta("team", None),
        ..Namespace::default()
    }));
    let err = s.create_object(again).expect_err("exists");
    assert_eq!(err.message, "namespaces \"team\" already exists");

    let pv = Object::PersistentVolume(Arc::new(PersistentVolume {
        metadata: meta("pv1", None),
        ..PersistentVolume::default()
    }));
    s.create_object(pv).expect("pv");
    let updated = s
        .update_object(Resource::PersistentVolumes, "", "pv1", |o| {
            o.meta_mut().labels = Some([("a".to_string(), "b".to_string())].into());
            Ok(())
        })
        .expect("update");
    assert_eq!(updated.labels().get("a").map(String::as_str), Some("b"));
    assert_eq!(updated.meta().namespace, None);
    let mut rx = s.subscribe();
    let gone = s
        .delete_object(Resource::PersistentVolumes, "", "pv1")
        .expect("delete");
    assert_eq!(gone.name(), "pv1");
    assert!(s.object(Resource::PersistentVolumes, "", "pv1").is_none());
    let change = rx.try_recv().expect("change");
    assert_eq!(change.change_type, ChangeType::Deleted);
    let err = s
        .delete_object(Resource::PersistentVolumes, "", "pv1")
        .expect_err("404");
    assert_eq!(err.message, "persistentvolumes \"pv1\" not found");
}

#[test]
fn namespaced_core_objects_default_to_default() {
    let s = store();
    let cm = Object::ConfigMap(Arc::new(ConfigMap {
        metadata: meta("cfg", None),
        data: Some([("a".to_string(), "b".to_string())].into()),
        ..ConfigMap::default()
    }));
    let created = s.create_object(cm).expect("create");
    assert_eq!(created.namespace(), "default");
    assert_eq!(created.meta().generation, None);
    let (list, _) = s.list(Resource::ConfigMaps, Some("default"));
    assert_eq!(list.len(), 1);
    let (other, _) = s.list(Resource::ConfigMaps, Some("kube-system"));
    assert!(other.is_empty());
}
