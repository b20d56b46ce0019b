//! The resources the simulator stores, with the names the API server gives them: plural,
//! kind, group, version, scope (see `docs/workloads-api.md` and `docs/core-api.md`).

/// Which resource a request or a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    /// `pods` (core/v1 Pod).
    Pods,
    /// `events` (core/v1 Event).
    Events,
    /// `deployments` (apps/v1 Deployment).
    Deployments,
    /// `replicasets` (apps/v1 ReplicaSet).
    ReplicaSets,
    /// `statefulsets` (apps/v1 StatefulSet).
    StatefulSets,
    /// `daemonsets` (apps/v1 DaemonSet).
    DaemonSets,
    /// `jobs` (batch/v1 Job).
    Jobs,
    /// `cronjobs` (batch/v1 CronJob).
    CronJobs,
    /// `namespaces` (core/v1 Namespace, cluster-scoped).
    Namespaces,
    /// `nodes` (core/v1 Node, cluster-scoped).
    Nodes,
    /// `configmaps` (core/v1 ConfigMap).
    ConfigMaps,
    /// `secrets` (core/v1 Secret).
    Secrets,
    /// `services` (core/v1 Service).
    Services,
    /// `endpoints` (core/v1 Endpoints; kubectl up to 1.32 reads them for `describe service`).
    Endpoints,
    /// `endpointslices` (discovery.k8s.io/v1 EndpointSlice).
    EndpointSlices,
    /// `serviceaccounts` (core/v1 ServiceAccount).
    ServiceAccounts,
    /// `persistentvolumeclaims` (core/v1 PersistentVolumeClaim).
    PersistentVolumeClaims,
    /// `persistentvolumes` (core/v1 PersistentVolume, cluster-scoped).
    PersistentVolumes,
    /// `leases` (coordination.k8s.io/v1 Lease; a node's heartbeat in `kube-node-lease`).
    Leases,
}

impl Resource {
    /// The workload kinds of the `apps` and `batch` groups, in discovery order.
    pub const WORKLOADS: [Resource; 6] = [
        Resource::Deployments,
        Resource::ReplicaSets,
        Resource::StatefulSets,
        Resource::DaemonSets,
        Resource::Jobs,
        Resource::CronJobs,
    ];

    /// Every stored resource, in discovery order: the core group's (alphabetical, as
    /// `/api/v1` lists them), then `apps`, `batch`, `coordination.k8s.io`, `discovery.k8s.io`.
    pub const ALL: [Resource; 19] = [
        Resource::ConfigMaps,
        Resource::Endpoints,
        Resource::Events,
        Resource::Namespaces,
        Resource::Nodes,
        Resource::PersistentVolumeClaims,
        Resource::PersistentVolumes,
        Resource::Pods,
        Resource::Secrets,
        Resource::ServiceAccounts,
        Resource::Services,
        Resource::DaemonSets,
        Resource::Deployments,
        Resource::ReplicaSets,
        Resource::StatefulSets,
        Resource::CronJobs,
        Resource::Jobs,
        Resource::Leases,
        Resource::EndpointSlices,
    ];

    /// The plural resource name as it appears in URLs (`pods`, `deployments`, `cronjobs`).
    pub fn plural(self) -> &'static str {
        match self {
            Resource::Pods => "pods",
            Resource::Events => "events",
            Resource::Deployments => "deployments",
            Resource::ReplicaSets => "replicasets",
            Resource::StatefulSets => "statefulsets",
            Resource::DaemonSets => "daemonsets",
            Resource::Jobs => "jobs",
            Resource::CronJobs => "cronjobs",
            Resource::Namespaces => "namespaces",
            Resource::Nodes => "nodes",
            Resource::ConfigMaps => "configmaps",
            Resource::Secrets => "secrets",
            Resource::Services => "services",
            Resource::Endpoints => "endpoints",
            Resource::EndpointSlices => "endpointslices",
            Resource::ServiceAccounts => "serviceaccounts",
            Resource::PersistentVolumeClaims => "persistentvolumeclaims",
            Resource::PersistentVolumes => "persistentvolumes",
            Resource::Leases => "leases",
        }
    }

    /// The singular name discovery lists (`deployment`, `cronjob`): the kind in lower case.
    pub fn singular(self) -> &'static str {
        match self {
            Resource::Pods => "pod",
            Resource::Events => "event",
            Resource::Deployments => "deployment",
            Resource::ReplicaSets => "replicaset",
            Resource::StatefulSets => "statefulset",
            Resource::DaemonSets => "daemonset",
            Resource::Jobs => "job",
            Resource::CronJobs => "cronjob",
            Resource::Namespaces => "namespace",
            Resource::Nodes => "node",
            Resource::ConfigMaps => "configmap",
            Resource::Secrets => "secret",
            Resource::Services => "service",
            Resource::Endpoints => "endpoints",
            Resource::EndpointSlices => "endpointslice",
            Resource::ServiceAccounts => "serviceaccount",
            Resource::PersistentVolumeClaims => "persistentvolumeclaim",
            Resource::PersistentVolumes => "persistentvolume",
            Resource::Leases => "lease",
        }
    }

    /// The `kind` of a single object (`Pod`, `Event`, `Deployment`, `CronJob`).
    pub fn kind(self) -> &'static str {
        match self {
            Resource::Pods => "Pod",
            Resource::Events => "Event",
            Resource::Deployments => "Deployment",
            Resource::ReplicaSets => "ReplicaSet",
            Resource::StatefulSets => "StatefulSet",
            Resource::DaemonSets => "DaemonSet",
            Resource::Jobs => "Job",
            Resource::CronJobs => "CronJob",
            Resource::Namespaces => "Namespace",
            Resource::Nodes => "Node",
            Resource::ConfigMaps => "ConfigMap",
            Resource::Secrets => "Secret",
            Resource::Services => "Service",
            Resource::Endpoints => "Endpoints",
            Resource::EndpointSlices => "EndpointSlice",
            Resource::ServiceAccounts => "ServiceAccount",
            Resource::PersistentVolumeClaims => "PersistentVolumeClaim",
            Resource::PersistentVolumes => "PersistentVolume",
            Resource::Leases => "Lease",
        }
    }

    /// The API group: `""` (core), `"apps"`, `"batch"`, `"discovery.k8s.io"` or
    /// `"coordination.k8s.io"`.
    pub fn group(self) -> &'static str {
        match self {
            Resource::Deployments
            | Resource::ReplicaSets
            | Resource::StatefulSets
            | Resource::DaemonSets => "apps",
            Resource::Jobs | Resource::CronJobs => "batch",
            Resource::EndpointSlices => "discovery.k8s.io",
            Resource::Leases => "coordination.k8s.io",
            _ => "",
        }
    }

    /// The `apiVersion` objects carry: `"v1"` for the core group, else `"<group>/v1"`
    /// (`apps/v1`, `discovery.k8s.io/v1`); every stored resource is served at version v1.
    pub fn api_version(self) -> &'static str {
        match self.group() {
            "apps" => "apps/v1",
            "batch" => "batch/v1",
            "discovery.k8s.io" => "discovery.k8s.io/v1",
            "coordination.k8s.io" => "coordination.k8s.io/v1",
            _ => "v1",
        }
    }

    /// Whether objects live in a namespace: every stored resource does but Namespaces, Nodes
    /// and PersistentVolumes (stored under namespace `""`).
    pub fn namespaced(self) -> bool {
        !matches!(
            self,
            Resource::Namespaces | Resource::Nodes | Resource::PersistentVolumes
        )
    }

    /// Whether the API server keeps `metadata.generation` for the kind (set to 1 on create,
    /// bumped by spec changes): the workloads do; the core objects here do not (their
    /// registry strategies never set it).
    pub fn has_generation(self) -> bool {
        Resource::WORKLOADS.contains(&self)
    }

    /// The group-qualified plural the API server's messages use: `pods`, `deployments.apps`,
    /// `jobs.batch`, `endpointslices.discovery.k8s.io` (as in `deployments.apps "web" not
    /// found`).
    pub fn qualified(self) -> String {
        match self.group() {
            "" => self.plural().to_string(),
            g => format!("{}.{g}", self.plural()),
        }
    }

    /// Discovery's `shortNames` (`po`, `ev`, `deploy`, `rs`, `sts`, `ds`, `cj`, `ns`, `no`,
    /// `cm`, `svc`, `ep`, `sa`, `pvc`, `pv`; jobs, secrets, endpointslices and leases have
    /// none).
    pub fn short_names(self) -> &'static [&'static str] {
        match self {
            Resource::Pods => &["po"],
            Resource::Events => &["ev"],
            Resource::Deployments => &["deploy"],
            Resource::ReplicaSets => &["rs"],
            Resource::StatefulSets => &["sts"],
            Resource::DaemonSets => &["ds"],
            Resource::CronJobs => &["cj"],
            Resource::Namespaces => &["ns"],
            Resource::Nodes => &["no"],
            Resource::ConfigMaps => &["cm"],
            Resource::Services => &["svc"],
            Resource::Endpoints => &["ep"],
            Resource::ServiceAccounts => &["sa"],
            Resource::PersistentVolumeClaims => &["pvc"],
            Resource::PersistentVolumes => &["pv"],
            Resource::Jobs | Resource::Secrets | Resource::EndpointSlices | Resource::Leases => &[],
        }
    }

    /// Whether the resource has a `scale` subresource (deployments, replicasets,
    /// statefulsets).
    pub fn has_scale(self) -> bool {
        matches!(
            self,
            Resource::Deployments | Resource::ReplicaSets | Resource::StatefulSets
        )
    }

    /// The resource of a URL's group and plural (`""` and `configmaps` for `/api/v1/…`,
    /// `apps` and `deployments` for `/apis/apps/v1/…`), if stored.
    pub fn from_group_plural(group: &str, plural: &str) -> Option<Resource> {
        Resource::ALL
            .into_iter()
            .find(|r| r.group() == group && r.plural() == plural)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_api_server_gives_them() {
        assert_eq!(Resource::ReplicaSets.qualified(), "replicasets.apps");
        assert_eq!(Resource::CronJobs.qualified(), "cronjobs.batch");
        assert_eq!(Resource::Pods.qualified(), "pods");
        assert_eq!(Resource::Jobs.api_version(), "batch/v1");
        assert_eq!(Resource::DaemonSets.api_version(), "apps/v1");
        assert_eq!(Resource::Events.api_version(), "v1");
        assert_eq!(
            Resource::from_group_plural("batch", "jobs"),
            Some(Resource::Jobs)
        );
        assert_eq!(Resource::from_group_plural("apps", "jobs"), None);
    }

    #[test]
    fn core_kinds_and_scopes() {
        assert_eq!(
            Resource::EndpointSlices.qualified(),
            "endpointslices.discovery.k8s.io"
        );
        assert_eq!(Resource::Leases.qualified(), "leases.coordination.k8s.io");
        assert_eq!(Resource::Leases.api_version(), "coordination.k8s.io/v1");
        assert_eq!(
            Resource::EndpointSlices.api_version(),
            "discovery.k8s.io/v1"
        );
        assert_eq!(Resource::Secrets.api_version(), "v1");
        for r in [
            Resource::Namespaces,
            Resource::Nodes,
            Resource::PersistentVolumes,
        ] {
            assert!(!r.namespaced(), "{r:?}");
        }
        assert!(Resource::PersistentVolumeClaims.namespaced());
        assert_eq!(Resource::Namespaces.short_names(), ["ns"]);
        assert_eq!(Resource::Nodes.short_names(), ["no"]);
        assert!(Resource::Secrets.short_names().is_empty());
        assert!(Resource::EndpointSlices.short_names().is_empty());
        assert_eq!(
            Resource::from_group_plural("", "configmaps"),
            Some(Resource::ConfigMaps)
        );
        assert_eq!(
            Resource::from_group_plural("coordination.k8s.io", "leases"),
            Some(Resource::Leases)
        );
        assert_eq!(Resource::from_group_plural("", "leases"), None);
        // ALL holds every variant once.
        let mut all = Resource::ALL.to_vec();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), Resource::ALL.len());
        for r in Resource::ALL {
            assert_eq!(Resource::from_group_plural(r.group(), r.plural()), Some(r));
        }
    }
}
