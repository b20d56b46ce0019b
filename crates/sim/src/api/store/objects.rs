//! The stored objects: pods (create, update, delete) and events (added or aggregated), listed
//! in namespace/name order.

use std::sync::Arc;

use k8s_openapi::api::core::v1::{Event, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::history::ChangeType;
use super::{State, Store};
use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;

impl Store {
    /// Creates a pod. Defaults: namespace `default`, `uid`, `creationTimestamp` = now.
    /// Sets `metadata.resourceVersion`. Errors: 409 AlreadyExists, 400 when the name is empty.
    pub fn create_pod(&self, mut pod: Pod) -> Result<Pod, ApiError> {
        let name = pod.metadata.name.clone().unwrap_or_default();
        if name.is_empty() {
            return Err(ApiError::bad_request("name or generateName is required"));
        }
        let ns = pod
            .metadata
            .namespace
            .get_or_insert_with(|| "default".to_string())
            .clone();
        if pod.metadata.uid.is_none() {
            pod.metadata.uid = Some(synthetic_uid(&ns, &name));
        }
        if pod.metadata.creation_timestamp.is_none() {
            pod.metadata.creation_timestamp = Some(Time(self.now()));
        }
        let mut st = self.lock();
        let key = (ns, name.clone());
        if st.pods.contains_key(&key) {
            return Err(ApiError::already_exists("pods", &name));
        }
        let rv = st.rv + 1;
        pod.metadata.resource_version = Some(rv.to_string());
        let pod = Arc::new(pod);
        st.pods.insert(key, pod.clone());
        self.commit(&mut st, ChangeType::Added, Object::Pod(pod.clone()), None);
        Ok((*pod).clone())
    }

    /// Applies `f` to the stored pod and records a MODIFIED change (new resourceVersion), even
    /// when nothing changed (a test or the demo forcing a watch event).
    /// Errors: 404 `pods "<name>" not found`.
    pub fn update_pod(
        &self,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Pod),
    ) -> Result<Pod, ApiError> {
        self.write_pod(ns, name, true, |p| {
            f(p);
            Ok(())
        })
    }

    /// Like [`Store::update_pod`], but `f` may refuse (its error is returned and nothing is
    /// written), and an update that changes nothing is not written (no new resourceVersion,
    /// no watch event; the stored object is returned), as the API server does.
    pub fn try_update_pod(
        &self,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Pod) -> Result<(), ApiError>,
    ) -> Result<Pod, ApiError> {
        self.write_pod(ns, name, false, f)
    }

    fn write_pod(
        &self,
        ns: &str,
        name: &str,
        always: bool,
        f: impl FnOnce(&mut Pod) -> Result<(), ApiError>,
    ) -> Result<Pod, ApiError> {
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = st
            .pods
            .get(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        let mut pod = (*old).clone();
        f(&mut pod)?;
        pod.metadata.namespace = Some(ns.to_string());
        pod.metadata.name = Some(name.to_string());
        pod.metadata.resource_version = old.metadata.resource_version.clone();
        if !always && pod == *old {
            return Ok(pod);
        }
        pod.metadata.resource_version = Some((st.rv + 1).to_string());
        let pod = Arc::new(pod);
        st.pods.insert(key, pod.clone());
        self.commit(
            &mut st,
            ChangeType::Modified,
            Object::Pod(pod.clone()),
            Some(Object::Pod(old)),
        );
        Ok((*pod).clone())
    }

    /// The end of a pod's deletion, as the API server's registry does it: removed
    /// ([`Store::delete_pod`]) when `metadata.finalizers` is empty; otherwise kept, marked
    /// `deletionTimestamp` (now, unless already set) and `deletionGracePeriodSeconds: 0`, until
    /// an update empties the finalizers (see [`Store::removable`]). Returns the pod's last or
    /// kept state. Errors: 404.
    pub fn finalize_pod(&self, ns: &str, name: &str) -> Result<Pod, ApiError> {
        let pod = self
            .pod(ns, name)
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        if pod.metadata.finalizers.as_ref().is_none_or(Vec::is_empty) {
            return self.delete_pod(ns, name);
        }
        let now = self.now();
        self.try_update_pod(ns, name, |p| {
            let meta = &mut p.metadata;
            if meta.deletion_timestamp.is_none() {
                meta.deletion_timestamp = Some(Time(now));
            }
            meta.deletion_grace_period_seconds = Some(0);
            Ok(())
        })
    }

    /// Whether `pod` is due for removal after an update: deletion requested, its grace period
    /// over (`deletionGracePeriodSeconds: 0`) and no finalizer left (the registry's
    /// `shouldDeleteDuringUpdate`).
    #[must_use]
    pub fn removable(pod: &Pod) -> bool {
        let meta = &pod.metadata;
        meta.deletion_timestamp.is_some()
            && meta.deletion_grace_period_seconds == Some(0)
            && meta.finalizers.as_ref().is_none_or(Vec::is_empty)
    }

    /// Removes a pod (and its logs); watchers get DELETED with the last state (new resourceVersion).
    /// Errors: 404.
    pub fn delete_pod(&self, ns: &str, name: &str) -> Result<Pod, ApiError> {
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = st
            .pods
            .remove(&key)
            .ok_or_else(|| ApiError::not_found("pods", name))?;
        st.logs.retain(|(n, p, _), _| !(n == ns && p == name));
        let mut last = (*old).clone();
        last.metadata.resource_version = Some((st.rv + 1).to_string());
        let last = Arc::new(last);
        self.commit(
            &mut st,
            ChangeType::Deleted,
            Object::Pod(last.clone()),
            Some(Object::Pod(old)),
        );
        Ok((*last).clone())
    }

    /// Adds an event, or replaces the event with the same namespace/name (MODIFIED, as repeated
    /// events are aggregated by bumping `count`/`lastTimestamp`). Namespace defaults to the
    /// involved object's, then `default`. Errors: 400 when the name is empty.
    pub fn add_event(&self, mut event: Event) -> Result<Event, ApiError> {
        let name = event.metadata.name.clone().unwrap_or_default();
        if name.is_empty() {
            return Err(ApiError::bad_request("name or generateName is required"));
        }
        let ns = event
            .metadata
            .namespace
            .clone()
            .or_else(|| event.involved_object.namespace.clone())
            .unwrap_or_else(|| "default".to_string());
        event.metadata.namespace = Some(ns.clone());
        if event.metadata.creation_timestamp.is_none() {
            event.metadata.creation_timestamp = Some(Time(self.now()));
        }
        if event.metadata.uid.is_none() {
            event.metadata.uid = Some(synthetic_uid(&ns, &name));
        }
        let mut st = self.lock();
        event.metadata.resource_version = Some((st.rv + 1).to_string());
        let event = Arc::new(event);
        let old = st.events.insert((ns, name), event.clone());
        let change_type = if old.is_some() {
            ChangeType::Modified
        } else {
            ChangeType::Added
        };
        self.commit(
            &mut st,
            change_type,
            Object::Event(event.clone()),
            old.map(Object::Event),
        );
        Ok((*event).clone())
    }

    /// Removes an event; watchers get DELETED with its last state (new resourceVersion), as
    /// when the namespace controller empties a namespace. Errors: 404 `events "x" not found`.
    pub fn delete_event(&self, ns: &str, name: &str) -> Result<Event, ApiError> {
        let mut st = self.lock();
        let old = st
            .events
            .remove(&(ns.to_string(), name.to_string()))
            .ok_or_else(|| ApiError::not_found("events", name))?;
        let mut last = (*old).clone();
        last.metadata.resource_version = Some((st.rv + 1).to_string());
        let last = Arc::new(last);
        self.commit(
            &mut st,
            ChangeType::Deleted,
            Object::Event(last.clone()),
            Some(Object::Event(old)),
        );
        Ok((*last).clone())
    }

    /// One pod by namespace/name.
    pub fn pod(&self, ns: &str, name: &str) -> Option<Pod> {
        self.lock()
            .pods
            .get(&(ns.to_string(), name.to_string()))
            .map(|p| (**p).clone())
    }

    /// All objects of `resource`, optionally in one namespace, ordered by namespace then name,
    /// with the resourceVersion of this snapshot.
    pub fn list(&self, resource: Resource, ns: Option<&str>) -> (Vec<Object>, u64) {
        let st = self.lock();
        (collect(&st, resource, ns), st.rv)
    }
}

pub(super) fn collect(st: &State, resource: Resource, ns: Option<&str>) -> Vec<Object> {
    let in_ns = |k: &(String, String)| ns.is_none_or(|n| k.0 == n);
    match resource {
        Resource::Pods => st
            .pods
            .iter()
            .filter(|(k, _)| in_ns(k))
            .map(|(_, p)| Object::Pod(p.clone()))
            .collect(),
        Resource::Events => st
            .events
            .iter()
            .filter(|(k, _)| in_ns(k))
            .map(|(_, e)| Object::Event(e.clone()))
            .collect(),
        _ => st
            .workloads
            .get(&resource)
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| in_ns(k))
                    .map(|(_, o)| o.clone())
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// A deterministic UUID-shaped uid derived from namespace/name (FNV-1a), for pods created without one.
fn synthetic_uid(ns: &str, name: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in ns.bytes().chain([b'/']).chain(name.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let l = h ^ 0x9e37_79b9_7f4a_7c15;
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xfff,
        l & 0xfff,
        (l >> 16) & 0xffff_ffff_ffff
    )
}
