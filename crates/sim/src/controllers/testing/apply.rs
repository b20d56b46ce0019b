//! How the in-memory cluster applies an action (as the store would, deletes at once unless a
//! finalizer holds).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;

use super::{Fake, kubelet_status};
use crate::controllers::{Action, Kind, Workload};

impl Fake {
    /// Applies one action as the store would (deletes are immediate unless a finalizer holds).
    pub fn apply(&mut self, a: Action) {
        match a {
            Action::CreatePod(mut pod) => {
                if self
                    .snap
                    .pods
                    .iter()
                    .any(|p| p.metadata.name == pod.metadata.name)
                {
                    return;
                }
                pod.metadata.uid = Some(self.uid());
                pod.metadata.creation_timestamp = Some(Time(self.now));
                pod.status = Some(kubelet_status(&pod, self.now));
                self.snap.pods.push(*pod);
            }
            Action::DeletePod { name, uid, .. } => {
                let now = self.now;
                for p in self
                    .snap
                    .pods
                    .iter_mut()
                    .filter(|p| p.metadata.uid.as_deref() == Some(uid.as_str()))
                {
                    p.metadata.deletion_timestamp = Some(Time(now));
                }
                self.snap.pods.retain(|p| {
                    p.metadata.name.as_deref() != Some(name.as_str())
                        || p.metadata
                            .finalizers
                            .as_ref()
                            .is_some_and(|f| !f.is_empty())
                });
            }
            Action::RemovePodFinalizer { uid, finalizer, .. } => {
                for p in self
                    .snap
                    .pods
                    .iter_mut()
                    .filter(|p| p.metadata.uid.as_deref() == Some(uid.as_str()))
                {
                    if let Some(f) = p.metadata.finalizers.as_mut() {
                        f.retain(|x| *x != finalizer);
                    }
                }
                self.snap.pods.retain(|p| {
                    p.metadata.deletion_timestamp.is_none()
                        || p.metadata
                            .finalizers
                            .as_ref()
                            .is_some_and(|f| !f.is_empty())
                });
            }
            Action::RemoveFinalizer {
                kind,
                name,
                finalizer,
                ..
            } => {
                if let Some(m) = self.meta_mut(kind, &name)
                    && let Some(f) = m.finalizers.as_mut()
                {
                    f.retain(|x| *x != finalizer);
                }
            }
            Action::ReleaseDependent {
                kind: None,
                name,
                owner_uid,
                ..
            } => {
                for p in self
                    .snap
                    .pods
                    .iter_mut()
                    .filter(|p| p.metadata.name.as_deref() == Some(name.as_str()))
                {
                    if let Some(r) = p.metadata.owner_references.as_mut() {
                        r.retain(|r| r.uid != owner_uid);
                    }
                }
            }
            Action::ReleaseDependent {
                kind: Some(kind),
                name,
                owner_uid,
                ..
            } => {
                if let Some(r) = self
                    .meta_mut(kind, &name)
                    .and_then(|m| m.owner_references.as_mut())
                {
                    r.retain(|r| r.uid != owner_uid);
                }
            }
            Action::Create(w) => {
                if self
                    .snap
                    .replica_sets
                    .iter()
                    .any(|o| Some(&o.metadata.name) == Some(&w.meta().name))
                    && w.kind() == Kind::ReplicaSet
                {
                    return;
                }
                self.add(*w)
            }
            Action::ScaleReplicaSet {
                name,
                replicas,
                annotations,
                ..
            } => {
                if let Some(rs) = self
                    .snap
                    .replica_sets
                    .iter_mut()
                    .find(|o| o.metadata.name.as_deref() == Some(name.as_str()))
                {
                    if rs.spec.replicas != Some(replicas) {
                        rs.spec.replicas = Some(replicas);
                        rs.metadata.generation = Some(rs.metadata.generation.unwrap_or(1) + 1);
                    }
                    rs.metadata
                        .annotations
                        .get_or_insert_with(Default::default)
                        .extend(annotations);
                }
            }
            Action::Annotate {
                kind,
                name,
                annotations,
                ..
            } => {
                if let Some(m) = self.meta_mut(kind, &name) {
                    m.annotations
                        .get_or_insert_with(Default::default)
                        .extend(annotations);
                }
            }
            Action::Status(w) => {
                let name = w.meta().name.clone();
                match *w {
                    Workload::ReplicaSet(o) => {
                        if let Some(x) = self
                            .snap
                            .replica_sets
                            .iter_mut()
                            .find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                    Workload::Deployment(o) => {
                        if let Some(x) = self
                            .snap
                            .deployments
                            .iter_mut()
                            .find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                    Workload::StatefulSet(o) => {
                        if let Some(x) = self
                            .snap
                            .stateful_sets
                            .iter_mut()
                            .find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                    Workload::DaemonSet(o) => {
                        if let Some(x) = self
                            .snap
                            .daemon_sets
                            .iter_mut()
                            .find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                    Workload::Job(o) => {
                        if let Some(x) = self.snap.jobs.iter_mut().find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                    Workload::CronJob(o) => {
                        if let Some(x) = self
                            .snap
                            .cron_jobs
                            .iter_mut()
                            .find(|x| x.metadata.name == name)
                        {
                            x.status = o.status
                        }
                    }
                }
            }
            Action::Delete { kind, name, .. } => self.delete(kind, &name),
            Action::Event(e) => self.events.push(*e),
        }
    }
}
