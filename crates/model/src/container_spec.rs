//! `ContainerSpec`: what a container runs with, as `kubectl get pod -o yaml` would tell —
//! command and args, env, envFrom, volume mounts with their volumes' sources and the
//! securityContext essentials — sanitised and bounded, for the container detail and `--once`.
//!
//! Built from the pod spec by [`ContainerSpec::of`] / [`ContainerSpec::of_ephemeral`]
//! (`container_spec_build.rs`). The rules (`docs/container-spec.md`): an env var's `valueFrom`
//! is shown as the object and key it reads, **never a value** — podscope never reads Secrets,
//! and a literal `value` beside a `valueFrom` (which the API rejects) is dropped; every string
//! from the cluster is passed through [`super::sanitize::sanitize`] and cut after
//! [`MAX_VALUE_CHARS`] characters with [`CLIP_MARKER`]; each list keeps its first [`MAX_ITEMS`]
//! entries and counts the rest.

use serde::Serialize;

/// Characters kept of one value (an env value, an argument, a path) before [`CLIP_MARKER`].
pub const MAX_VALUE_CHARS: usize = 200;
/// Marker appended to a value cut at [`MAX_VALUE_CHARS`].
pub const CLIP_MARKER: &str = "…";
/// Entries kept of each list (`env`, `envFrom`, `volumeMounts`); the rest are only counted.
pub const MAX_ITEMS: usize = 50;

/// The spec of one container (`spec.containers[]`, `initContainers[]` or
/// `ephemeralContainers[]`) joined with what the pod spec says of it (its volumes, the pod's
/// `securityContext`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerSpec {
    /// `command`: replaces the image's ENTRYPOINT when non-empty.
    pub command: Vec<String>,
    /// `args`: replaces the image's CMD when non-empty.
    pub args: Vec<String>,
    /// `env[]` in spec order (at most [`MAX_ITEMS`]).
    pub env: Vec<Env>,
    /// `env[]` entries past [`MAX_ITEMS`], not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub env_omitted: usize,
    /// `envFrom[]` in spec order (at most [`MAX_ITEMS`]).
    pub env_from: Vec<EnvFrom>,
    /// `envFrom[]` entries past [`MAX_ITEMS`], not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub env_from_omitted: usize,
    /// `volumeMounts[]` in spec order, each with its volume's source (at most [`MAX_ITEMS`]).
    pub mounts: Vec<Mount>,
    /// `volumeMounts[]` entries past [`MAX_ITEMS`], not kept.
    #[serde(skip_serializing_if = "is_zero")]
    pub mounts_omitted: usize,
    /// The securityContext essentials, the container's over the pod's.
    pub security_context: Security,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl ContainerSpec {
    /// The process the runtime starts, in words: `command` then `args`; without `command` the
    /// image's ENTRYPOINT (`<image ENTRYPOINT> args…`); with neither, `image default`
    /// (the image's ENTRYPOINT and CMD). Source: the "Define a command and arguments for a
    /// container" rules of the Kubernetes documentation (`docs/container-spec.md` §1).
    #[must_use]
    pub fn command_line(&self) -> String {
        match (self.command.is_empty(), self.args.is_empty()) {
            (true, true) => "image default".to_owned(),
            (true, false) => format!("<image ENTRYPOINT> {}", self.args.join(" ")),
            _ => self
                .command
                .iter()
                .chain(&self.args)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// One `env[]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Env {
    /// `name`.
    pub name: String,
    /// Its literal value or where it is read from.
    #[serde(flatten)]
    pub value: EnvValue,
}

impl Env {
    /// `NAME=value`, or `NAME ← Secret db key password` for a `valueFrom`.
    #[must_use]
    pub fn text(&self) -> String {
        match &self.value {
            EnvValue::Value(v) => format!("{}={v}", self.name),
            EnvValue::From(from) => format!("{} ← {}", self.name, from.text()),
        }
    }
}

/// An env var's value: JSON `{"value": "…"}` or `{"from": {"kind": …}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EnvValue {
    /// `value`: a literal (empty when absent).
    Value(String),
    /// `valueFrom`.
    From(EnvSource),
}

/// `valueFrom`: the object and key a value is read from — never the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind")]
pub enum EnvSource {
    /// `configMapKeyRef`.
    ConfigMap {
        /// The ConfigMap's `name`.
        name: String,
        /// `key`.
        key: String,
        /// `optional`: a missing ConfigMap or key leaves the variable unset.
        optional: bool,
    },
    /// `secretKeyRef`.
    Secret {
        /// The Secret's `name`.
        name: String,
        /// `key`.
        key: String,
        /// `optional`.
        optional: bool,
    },
    /// `fieldRef`: a field of the pod (downward API).
    #[serde(rename = "field", rename_all = "camelCase")]
    Field {
        /// `fieldPath`, e.g. `metadata.name`, `status.podIP`.
        field_path: String,
    },
    /// `resourceFieldRef`: a request or limit of a container.
    #[serde(rename = "resource", rename_all = "camelCase")]
    Resource {
        /// `resource`, e.g. `limits.memory`.
        resource: String,
        /// `containerName`, when another container's is read.
        #[serde(skip_serializing_if = "Option::is_none")]
        container_name: Option<String>,
        /// `divisor`, e.g. `1Mi`.
        #[serde(skip_serializing_if = "Option::is_none")]
        divisor: Option<String>,
    },
    /// A `valueFrom` of a kind podscope does not know (or an empty one).
    #[serde(rename = "unknown")]
    Unknown,
}

impl EnvSource {
    /// `ConfigMap cfg key PORT optional`, `Secret db key password`, `field metadata.name`,
    /// `resource limits.memory`, `unknown valueFrom`.
    #[must_use]
    pub fn text(&self) -> String {
        let opt = |o: bool| if o { " optional" } else { "" };
        match self {
            EnvSource::ConfigMap {
                name,
                key,
                optional,
            } => format!("ConfigMap {name} key {key}{}", opt(*optional)),
            EnvSource::Secret {
                name,
                key,
                optional,
            } => format!("Secret {name} key {key}{}", opt(*optional)),
            EnvSource::Field { field_path } => format!("field {field_path}"),
            EnvSource::Resource {
                resource,
                container_name,
                divisor,
            } => {
                let mut s = format!("resource {resource}");
                if let Some(c) = container_name {
                    s.push_str(&format!(" of {c}"));
                }
                if let Some(d) = divisor {
                    s.push_str(&format!(" divisor {d}"));
                }
                s
            }
            EnvSource::Unknown => "unknown valueFrom".to_owned(),
        }
    }
}

/// One `envFrom[]` entry: every key of a ConfigMap or Secret as a variable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnvFrom {
    /// `ConfigMap` (`configMapRef`) or `Secret` (`secretRef`).
    pub kind: String,
    /// The object's `name`.
    pub name: String,
    /// `prefix` prepended to each key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// `optional`.
    pub optional: bool,
}

impl EnvFrom {
    /// `ConfigMap cfg`, `Secret s prefix DB_ optional`.
    #[must_use]
    pub fn text(&self) -> String {
        let mut s = format!("{} {}", self.kind, self.name);
        if let Some(p) = &self.prefix {
            s.push_str(&format!(" prefix {p}"));
        }
        if self.optional {
            s.push_str(" optional");
        }
        s
    }
}

/// One `volumeMounts[]` entry with the source of the volume it mounts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mount {
    /// `mountPath`.
    pub path: String,
    /// `name`: the volume in `spec.volumes`.
    pub volume: String,
    /// The volume's source; `None` when `spec.volumes` has no volume of that name.
    pub source: Option<VolumeSource>,
    /// `readOnly`.
    pub read_only: bool,
    /// `subPath` (or `subPathExpr`, prefixed `expr `).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub_path: Option<String>,
}

impl Mount {
    /// `/data ← pvc data-0 (ro)`, `/etc/cfg ← configMap cfg subPath app.conf`.
    #[must_use]
    pub fn text(&self) -> String {
        format!("{} ← {}", self.path, self.source_text())
    }

    /// What follows the `←`: the source, the subPath and `(ro)`.
    #[must_use]
    pub fn source_text(&self) -> String {
        let mut s = match &self.source {
            Some(src) => src.text(&self.volume),
            None => format!("volume {} (not in spec.volumes)", self.volume),
        };
        if let Some(p) = &self.sub_path {
            s.push_str(&format!(" subPath {p}"));
        }
        if self.read_only {
            s.push_str(" (ro)");
        }
        s
    }
}

/// A volume's source: its field name in `spec.volumes[]` (`persistentVolumeClaim`,
/// `configMap`, `secret`, `emptyDir`, `hostPath`, `projected`, `downwardAPI`, `nfs`, `csi`, …)
/// and the object or path it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VolumeSource {
    /// The source field's name as the API spells it.
    #[serde(rename = "type")]
    pub type_: String,
    /// `claimName`, the ConfigMap's `name`, `secretName`, the `hostPath` path, the CSI
    /// `driver`, `emptyDir.medium`; `None` for the sources that name nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl VolumeSource {
    /// `pvc data-0`, `configMap cfg`, `secret s`, `hostPath /var/log`; sources that name no
    /// object show the volume's name: `emptyDir cache`, `projected kube-api-access-x`.
    #[must_use]
    pub fn text(&self, volume: &str) -> String {
        let label = match self.type_.as_str() {
            "persistentVolumeClaim" => "pvc",
            other => other,
        };
        match (&self.name, self.type_.as_str()) {
            (Some(m), "emptyDir") => format!("emptyDir {volume} ({m})"),
            (Some(n), _) => format!("{label} {n}"),
            (None, _) => format!("{label} {volume}"),
        }
    }
}

/// A setting of the merged securityContext and whether it came from the pod's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting<T> {
    /// The value in force.
    pub value: T,
    /// Set in `spec.securityContext` and not overridden by the container's.
    pub from_pod: bool,
}

impl<T: Serialize> Serialize for Setting<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

/// The securityContext essentials in force for the container: `runAsUser` and `runAsNonRoot`
/// from the container's `securityContext`, else the pod's (`PodSecurityContext`); the others
/// exist only on the container. Unset fields are `None` (the runtime's default applies).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Security {
    /// `runAsUser`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_as_user: Option<Setting<i64>>,
    /// `runAsNonRoot`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_as_non_root: Option<Setting<bool>>,
    /// `readOnlyRootFilesystem`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_only_root_filesystem: Option<bool>,
    /// `privileged`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub privileged: Option<bool>,
    /// `allowPrivilegeEscalation`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow_privilege_escalation: Option<bool>,
    /// `capabilities.add` and `capabilities.drop`.
    #[serde(skip_serializing_if = "Capabilities::is_empty")]
    pub capabilities: Capabilities,
}

/// `capabilities`: the Linux capabilities added to and dropped from the runtime's default set.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Capabilities {
    /// `add`, e.g. `NET_ADMIN`.
    pub add: Vec<String>,
    /// `drop`, e.g. `ALL`.
    pub drop: Vec<String>,
}

impl Capabilities {
    /// Neither added nor dropped.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.add.is_empty() && self.drop.is_empty()
    }
}

impl Security {
    /// Whether nothing is set.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Security::default()
    }

    /// The settings as `field value` words, the API's field names, in a fixed order:
    /// `runAsUser 1000 (pod)`, `runAsNonRoot true`, `readOnlyRootFilesystem true`,
    /// `privileged true`, `allowPrivilegeEscalation false`, `capabilities add NET_ADMIN`,
    /// `capabilities drop ALL`. `(pod)` marks a value inherited from the pod's securityContext.
    #[must_use]
    pub fn words(&self) -> Vec<String> {
        let pod = |p: bool| if p { " (pod)" } else { "" };
        let mut out = Vec::new();
        if let Some(s) = self.run_as_user {
            out.push(format!("runAsUser {}{}", s.value, pod(s.from_pod)));
        }
        if let Some(s) = self.run_as_non_root {
            out.push(format!("runAsNonRoot {}{}", s.value, pod(s.from_pod)));
        }
        for (name, v) in [
            ("readOnlyRootFilesystem", self.read_only_root_filesystem),
            ("privileged", self.privileged),
            ("allowPrivilegeEscalation", self.allow_privilege_escalation),
        ] {
            if let Some(v) = v {
                out.push(format!("{name} {v}"));
            }
        }
        if !self.capabilities.add.is_empty() {
            out.push(format!(
                "capabilities add {}",
                self.capabilities.add.join(",")
            ));
        }
        if !self.capabilities.drop.is_empty() {
            out.push(format!(
                "capabilities drop {}",
                self.capabilities.drop.join(",")
            ));
        }
        out
    }
}
