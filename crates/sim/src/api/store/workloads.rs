//! Generic writes for the kinds without a kubelet (the apps/v1 and batch/v1 workloads and the
//! core objects; cluster-scoped ones under namespace `""`): create,
//! update, delete with finalizers, each committing one change as the pod writes do. The rules
//! are the API server's registry's (`docs/workloads-api.md`): `generateName`, server-owned
//! metadata, `metadata.generation` bumped by spec changes only.

use std::collections::BTreeSet;
use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use rand::Rng;
use serde_json::Value;
use tokio::sync::broadcast;

use super::history::{Change, ChangeType};
use super::{State, Store};
use crate::api::core::defaults as core_defaults;
use crate::api::object::{Object, Resource};
use crate::api::status::ApiError;
use crate::api::workloads::defaults;

/// The alphabet of `generateName` suffixes (`k8s.io/apimachinery/pkg/util/rand`): no vowels,
/// no look-alike digits.
const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
/// How many random characters `generateName` appends.
const NAME_SUFFIX_LEN: usize = 5;

/// How a DELETE treats the object's dependents (`DeleteOptions.propagationPolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagation {
    /// Removed now; the garbage collector deletes dependents whose owner is gone.
    #[default]
    Background,
    /// Treated as [`Propagation::Background`] by the simulator (`docs/workloads-api.md` §4).
    Foreground,
    /// The `orphan` finalizer is added: the object is kept with `deletionTimestamp` until the
    /// garbage collector has removed its `ownerReferences` from the dependents and the finalizer.
    Orphan,
}

impl Propagation {
    /// Parses `Background`, `Foreground` or `Orphan`. Errors: 400 for anything else.
    pub fn parse(s: &str) -> Result<Self, ApiError> {
        match s {
            "Background" => Ok(Propagation::Background),
            "Foreground" => Ok(Propagation::Foreground),
            "Orphan" => Ok(Propagation::Orphan),
            other => Err(ApiError::bad_request(format!(
                "DeleteOptions.propagationPolicy: Unsupported value: {other:?}: supported values: \"Foreground\", \"Background\", \"Orphan\""
            ))),
        }
    }
}

/// `generateName` + five random characters of [`NAME_ALPHABET`].
pub(crate) fn generated(prefix: &str) -> String {
    let mut rng = rand::rng();
    let suffix: String = (0..NAME_SUFFIX_LEN)
        .map(|_| char::from(NAME_ALPHABET[rng.random_range(0..NAME_ALPHABET.len())]))
        .collect();
    format!("{prefix}{suffix}")
}

/// A random version-4 UUID (a re-created object gets a new uid, as owners are told apart by it).
fn random_uid() -> String {
    let mut b: [u8; 16] = rand::random();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn spec_of(obj: &Object) -> Value {
    obj.to_json().get("spec").cloned().unwrap_or(Value::Null)
}

/// Whether `obj` is due for removal: deletion requested and no finalizer left (for a
/// Namespace also none in `spec.finalizers`).
fn finalized(obj: &Object) -> bool {
    let meta = obj.meta();
    meta.deletion_timestamp.is_some()
        && meta.finalizers.as_ref().is_none_or(Vec::is_empty)
        && !spec_finalized(obj)
}

/// Whether `obj` is a Namespace whose `spec.finalizers` still holds it (the namespace
/// controller empties them once the namespace's content is gone; `docs/core-api.md` §3).
fn spec_finalized(obj: &Object) -> bool {
    matches!(obj, Object::Namespace(n) if n
        .spec
        .as_ref()
        .and_then(|s| s.finalizers.as_ref())
        .is_some_and(|f| !f.is_empty()))
}

impl Store {
    /// The live changes for in-process consumers (the controllers): every committed change, in
    /// resourceVersion order. A separate channel from the HTTP watches', so
    /// [`Store::watchers`] still counts only client watches. A receiver that falls
    /// `CHANNEL_CAPACITY` changes behind gets `RecvError::Lagged` and should relist.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Change>> {
        self.inner.controllers.subscribe()
    }

    /// Creates an object. Pods go to [`Store::create_pod`] and events to [`Store::add_event`];
    /// for the other kinds: namespace defaults to `default` (a cluster-scoped kind's —
    /// Namespace, Node, PersistentVolume — is removed; they are stored under namespace `""`);
    /// an empty name with `metadata.generateName` becomes that prefix plus five random
    /// characters; the server sets `uid`, `creationTimestamp` (the store's clock),
    /// `generation: 1` (workloads only, [`Resource::has_generation`]) and `resourceVersion`,
    /// clears `deletionTimestamp`, and applies the API server's defaults and a Job's
    /// generated selector (`workloads::defaults`). Errors: 400 when there is no name,
    /// 409 AlreadyExists (`deployments.apps "web" already exists`).
    pub fn create_object(&self, mut obj: Object) -> Result<Object, ApiError> {
        match obj {
            Object::Pod(p) => return self.create_pod((*p).clone()).map(|p| Object::Pod(p.into())),
            Object::Event(e) => {
                return self
                    .add_event((*e).clone())
                    .map(|e| Object::Event(e.into()));
            }
            _ => {}
        }
        let res = obj.resource();
        let now = self.now();
        let meta = obj.meta_mut();
        let mut name = meta.name.clone().unwrap_or_default();
        if name.is_empty() {
            match meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
                Some(prefix) => name = generated(prefix),
                None => return Err(ApiError::bad_request("name or generateName is required")),
            }
        }
        meta.name = Some(name.clone());
        let ns = if res.namespaced() {
            let ns = meta
                .namespace
                .clone()
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| "default".to_string());
            meta.namespace = Some(ns.clone());
            ns
        } else {
            meta.namespace = None;
            String::new()
        };
        meta.uid = Some(random_uid());
        meta.creation_timestamp = Some(Time(now));
        meta.generation = res.has_generation().then_some(1);
        meta.deletion_timestamp = None;
        meta.deletion_grace_period_seconds = None;
        defaults::apply(&mut obj);
        defaults::on_create(&mut obj);
        core_defaults::apply(&mut obj);
        let mut st = self.lock();
        let key = (ns, name.clone());
        if st.workloads.get(&res).is_some_and(|m| m.contains_key(&key)) {
            return Err(ApiError::already_exists(&res.qualified(), &name));
        }
        if res == Resource::Services {
            let (ips, ports) = service_allocations(&st);
            core_defaults::allocate(&mut obj, &ips, &ports);
        }
        obj.meta_mut().resource_version = Some((st.rv + 1).to_string());
        st.workloads
            .entry(res)
            .or_default()
            .insert(key, obj.clone());
        self.commit(&mut st, ChangeType::Added, obj.clone(), None);
        Ok(obj)
    }

    /// Applies `f` to the stored object under the store's lock and writes the result: nothing
    /// is written (no resourceVersion, no event; the stored object is returned) when nothing
    /// changed; `metadata.generation` grows by one when `spec` changed (workloads only; status- or
    /// metadata-only writes keep it); name, namespace, uid, creationTimestamp and
    /// deletionTimestamp stay the server's. An object whose deletion was requested and whose
    /// last finalizer `f` removed is deleted (one DELETED change with that state).
    /// Errors: `f`'s (nothing written), 404 `deployments.apps "x" not found`.
    pub fn update_object(
        &self,
        resource: Resource,
        ns: &str,
        name: &str,
        f: impl FnOnce(&mut Object) -> Result<(), ApiError>,
    ) -> Result<Object, ApiError> {
        if resource == Resource::Pods {
            let pod = self.try_update_pod(ns, name, |p| {
                let mut obj = Object::Pod(Arc::new(p.clone()));
                f(&mut obj)?;
                if let Object::Pod(new) = obj {
                    *p = (*new).clone();
                }
                Ok(())
            });
            return pod.map(|p| Object::Pod(p.into()));
        }
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = stored(&st, resource, &key, name)?;
        let mut obj = old.clone();
        f(&mut obj)?;
        core_defaults::apply(&mut obj);
        core_defaults::keep_allocated(&mut obj, &old);
        if obj.resource() != resource {
            return Err(ApiError::bad_request(format!(
                "the object is a {}, not a {}",
                obj.resource().kind(),
                resource.kind()
            )));
        }
        let keep = old.meta().clone();
        let spec_changed = spec_of(&obj) != spec_of(&old);
        let meta = obj.meta_mut();
        meta.name = keep.name;
        meta.namespace = keep.namespace;
        meta.uid = keep.uid;
        meta.creation_timestamp = keep.creation_timestamp;
        meta.deletion_timestamp = keep.deletion_timestamp;
        meta.deletion_grace_period_seconds = keep.deletion_grace_period_seconds;
        meta.resource_version = keep.resource_version;
        meta.generation = keep.generation;
        if obj.to_json() == old.to_json() {
            return Ok(old);
        }
        if spec_changed && resource.has_generation() {
            let meta = obj.meta_mut();
            meta.generation = Some(meta.generation.unwrap_or(0) + 1);
        }
        obj.meta_mut().resource_version = Some((st.rv + 1).to_string());
        if finalized(&obj) {
            remove(&mut st, resource, &key);
            self.commit(&mut st, ChangeType::Deleted, obj.clone(), Some(old));
            return Ok(obj);
        }
        st.workloads
            .entry(resource)
            .or_default()
            .insert(key, obj.clone());
        self.commit(&mut st, ChangeType::Modified, obj.clone(), Some(old));
        Ok(obj)
    }

    /// Deletes a workload object with [`Propagation::Background`]: see
    /// [`Store::delete_object_with`].
    pub fn delete_object(
        &self,
        resource: Resource,
        ns: &str,
        name: &str,
    ) -> Result<Object, ApiError> {
        self.delete_object_with(resource, ns, name, Propagation::Background)
    }

    /// Deletes a workload object as the API server's registry does: removed at once (watchers
    /// get DELETED with the last state, a new resourceVersion) when `metadata.finalizers` is
    /// empty; otherwise kept with `deletionTimestamp` (now, unless already set) and
    /// `deletionGracePeriodSeconds: 0` until an update empties the finalizers. `Orphan` adds
    /// the `orphan` finalizer first. A Namespace with `spec.finalizers` is kept the same way,
    /// `status.phase: Terminating`, until they are emptied. Pods: use `delete_pod_gracefully` (the kubelet's
    /// termination). Returns the last or kept state. Errors: 404 `jobs.batch "x" not found`.
    pub fn delete_object_with(
        &self,
        resource: Resource,
        ns: &str,
        name: &str,
        propagation: Propagation,
    ) -> Result<Object, ApiError> {
        let now = self.now();
        let mut st = self.lock();
        let key = (ns.to_string(), name.to_string());
        let old = stored(&st, resource, &key, name)?;
        let mut obj = old.clone();
        let meta = obj.meta_mut();
        if propagation == Propagation::Orphan {
            let fins = meta.finalizers.get_or_insert_with(Vec::new);
            if !fins.iter().any(|f| f == "orphan") {
                fins.push("orphan".to_string());
            }
        }
        meta.resource_version = Some((st.rv + 1).to_string());
        let held = spec_finalized(&obj);
        let meta = obj.meta_mut();
        if meta.finalizers.as_ref().is_none_or(Vec::is_empty) && !held {
            remove(&mut st, resource, &key);
            self.commit(&mut st, ChangeType::Deleted, obj.clone(), Some(old));
            return Ok(obj);
        }
        if meta.deletion_timestamp.is_none() {
            meta.deletion_timestamp = Some(Time(now));
        }
        meta.deletion_grace_period_seconds = Some(0);
        if let Object::Namespace(n) = &mut obj {
            Arc::make_mut(n)
                .status
                .get_or_insert_with(Default::default)
                .phase = Some("Terminating".into());
        }
        if obj.to_json() == old.to_json() {
            return Ok(old);
        }
        st.workloads
            .entry(resource)
            .or_default()
            .insert(key, obj.clone());
        self.commit(&mut st, ChangeType::Modified, obj.clone(), Some(old));
        Ok(obj)
    }

    /// One stored object of any kind by namespace/name (namespace `""` for a cluster-scoped
    /// kind).
    pub fn object(&self, resource: Resource, ns: &str, name: &str) -> Option<Object> {
        let st = self.lock();
        let key = (ns.to_string(), name.to_string());
        match resource {
            Resource::Pods => st.pods.get(&key).cloned().map(Object::Pod),
            Resource::Events => st.events.get(&key).cloned().map(Object::Event),
            _ => st.workloads.get(&resource)?.get(&key).cloned(),
        }
    }
}

fn stored(
    st: &State,
    resource: Resource,
    key: &(String, String),
    name: &str,
) -> Result<Object, ApiError> {
    st.workloads
        .get(&resource)
        .and_then(|m| m.get(key))
        .cloned()
        .ok_or_else(|| ApiError::not_found(&resource.qualified(), name))
}

fn remove(st: &mut State, resource: Resource, key: &(String, String)) {
    if let Some(m) = st.workloads.get_mut(&resource) {
        m.remove(key);
    }
}

/// The cluster IPs and node ports the stored Services hold.
fn service_allocations(st: &State) -> (BTreeSet<String>, BTreeSet<i32>) {
    let mut ips = BTreeSet::new();
    let mut ports = BTreeSet::new();
    for obj in st
        .workloads
        .get(&Resource::Services)
        .into_iter()
        .flat_map(|m| m.values())
    {
        if let Object::Service(s) = obj
            && let Some(spec) = &s.spec
        {
            ips.extend(spec.cluster_ips.iter().flatten().cloned());
            ips.extend(spec.cluster_ip.clone());
            ports.extend(spec.ports.iter().flatten().filter_map(|p| p.node_port));
        }
    }
    (ips, ports)
}
