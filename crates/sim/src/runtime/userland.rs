//! What an exec'd process can see inside a simulated container: its userland (which binaries
//! exist), its files, environment and the processes `ps` lists.
//!
//! The userland is the image's base in [`super::image`]'s table, except that the pod annotation
//! [`NO_SHELL_ANNOTATION`] (the container's name in a comma list, or `*`) makes it **none** (no
//! shell, no coreutils: every exec fails with the runtime's "executable file not found in
//! $PATH"). Debian has `sh` (dash) and `bash` but no `ps` (procps is not installed in slim
//! images); busybox has `ps` but no `/etc/os-release`; alpine is busybox plus os-release.
//!
//! Files: `/etc/hostname`, `/etc/hosts` (the kubelet-managed one), `/etc/resolv.conf`,
//! `/etc/os-release` (not in busybox), `/etc/nginx/nginx.conf` for nginx images, and every file an
//! init container writes with a `cat > FILE <<'EOF' … EOF` heredoc, seen through shared volumes
//! (the seed's `render-config` writing `/etc/nginx/conf.d/default.conf`); over them, what
//! processes wrote in the container instance's writable layer ([`super::fs`], `kubectl cp`).

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{Container, EnvVar, Pod, VolumeMount};

use super::fs::Layer;
use super::image::{App, SimImage};

/// Pod annotation naming containers (comma-separated, or `*`) whose image has no shell at all,
/// for fixtures whose image name does not say so (e.g. case 30's `alert-router`).
pub const NO_SHELL_ANNOTATION: &str = "sim.podscope.dev/no-shell";

/// Which tools an image ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Userland {
    /// Distroless/scratch: only the application binary.
    None,
    /// busybox: `sh` (ash) and applets.
    Busybox,
    /// alpine: busybox applets plus `/etc/os-release`.
    Alpine,
    /// Debian-based: `sh` (dash), `bash`, coreutils, no `ps`.
    Debian,
}

/// Everything an exec into one container of one pod can observe.
#[derive(Debug, Clone)]
pub struct ContainerView {
    /// `metadata.name`.
    pub pod: String,
    /// `spec.hostname`, else the pod name (the UTS namespace is shared by all containers).
    pub hostname: String,
    /// The container's name.
    pub container: String,
    /// The container's image.
    pub image: String,
    /// Its tools.
    pub userland: Userland,
    /// `env` output lines `NAME=value`, in order.
    pub env: Vec<(String, String)>,
    /// Absolute path → content, from the image and the pod spec.
    pub files: BTreeMap<String, String>,
    /// What processes wrote in this container instance ([`super::fs`]); it shadows `files`.
    pub layer: Layer,
    /// Command lines of processes already running in the container's PID namespace (PID 1 first;
    /// for an ephemeral container with `targetContainerName`, the target's processes come first).
    pub processes: Vec<String>,
}

fn userland(pod: &Pod, container: &str, image: &str) -> Userland {
    let listed = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(NO_SHELL_ANNOTATION))
        .is_some_and(|v| {
            v.split(',')
                .any(|c| c.trim() == container || c.trim() == "*")
        });
    if listed {
        Userland::None
    } else {
        SimImage::of(image).userland()
    }
}

/// The fields exec cares about, for regular, init and ephemeral containers alike.
struct Spec {
    name: String,
    image: String,
    argv: Vec<String>,
    env: Vec<EnvVar>,
    mounts: Vec<VolumeMount>,
    target: Option<String>,
}

/// The fields every kind of container shares (`Container`, `EphemeralContainer`), as one spec.
fn spec_of(
    name: &str,
    image: Option<&String>,
    argv: [Option<&Vec<String>>; 2],
    env: Option<&Vec<EnvVar>>,
    mounts: Option<&Vec<VolumeMount>>,
    target: Option<&String>,
) -> Spec {
    Spec {
        name: name.to_owned(),
        image: image.cloned().unwrap_or_default(),
        argv: argv.into_iter().flatten().flatten().cloned().collect(),
        env: env.cloned().unwrap_or_default(),
        mounts: mounts.cloned().unwrap_or_default(),
        target: target.cloned(),
    }
}

fn from_container(c: &Container) -> Spec {
    spec_of(
        &c.name,
        c.image.as_ref(),
        [c.command.as_ref(), c.args.as_ref()],
        c.env.as_ref(),
        c.volume_mounts.as_ref(),
        None,
    )
}

fn specs(pod: &Pod) -> Vec<Spec> {
    let Some(spec) = pod.spec.as_ref() else {
        return Vec::new();
    };
    let mut out: Vec<Spec> = spec
        .init_containers
        .iter()
        .flatten()
        .chain(spec.containers.iter())
        .map(from_container)
        .collect();
    out.extend(spec.ephemeral_containers.iter().flatten().map(|c| {
        spec_of(
            &c.name,
            c.image.as_ref(),
            [c.command.as_ref(), c.args.as_ref()],
            c.env.as_ref(),
            c.volume_mounts.as_ref(),
            c.target_container_name.as_ref(),
        )
    }));
    out
}

/// The command line `ps` shows for a container's PID 1.
fn pid1(s: &Spec) -> Vec<String> {
    let image = SimImage::of(&s.image);
    let base = image.name();
    if !s.argv.is_empty() {
        return vec![s.argv.join(" ")];
    }
    if image.app == App::Nginx {
        return vec![
            "nginx: master process nginx -g daemon off;".to_string(),
            "nginx: worker process".to_string(),
        ];
    }
    match base {
        "busybox" | "alpine" => vec!["sh".to_string()],
        _ => vec![format!("/{base}")],
    }
}

/// Files an init container's `sh -c` heredocs write, as (volume name, path inside that volume,
/// content).
fn heredoc_files(s: &Spec) -> Vec<(String, String, String)> {
    let Some(script) = s
        .argv
        .iter()
        .position(|a| a == "-c")
        .and_then(|i| s.argv.get(i + 1))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (path, body) in super::shell_syntax::heredoc_files(script) {
        let path = path.as_str();
        if let Some(m) = s
            .mounts
            .iter()
            .filter(|m| path.starts_with(&format!("{}/", m.mount_path.trim_end_matches('/'))))
            .max_by_key(|m| m.mount_path.len())
        {
            let inner = path[m.mount_path.trim_end_matches('/').len()..].to_string();
            out.push((m.name.clone(), inner, body));
        }
    }
    out
}

const NGINX_CONF: &str = "user  nginx;\nworker_processes  auto;\n\nerror_log  /var/log/nginx/error.log notice;\npid        /run/nginx.pid;\n\n\nevents {\n    worker_connections  1024;\n}\n\n\nhttp {\n    include       /etc/nginx/mime.types;\n    default_type  application/octet-stream;\n\n    access_log  /var/log/nginx/access.log;\n\n    sendfile        on;\n\n    keepalive_timeout  65;\n\n    include /etc/nginx/conf.d/*.conf;\n}\n";

const DEBIAN_OS_RELEASE: &str = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\nVERSION_CODENAME=bookworm\nID=debian\nHOME_URL=\"https://www.debian.org/\"\nSUPPORT_URL=\"https://www.debian.org/support\"\nBUG_REPORT_URL=\"https://bugs.debian.org/\"\n";

const ALPINE_OS_RELEASE: &str = "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.21.3\nPRETTY_NAME=\"Alpine Linux v3.21\"\nHOME_URL=\"https://alpinelinux.org/\"\nBUG_REPORT_URL=\"https://gitlab.alpinelinux.org/alpine/aports/-/issues\"\n";

impl ContainerView {
    /// The view of `container` (any kind) in `pod`; `None` when the pod has no such container.
    pub fn new(pod: &Pod, container: &str) -> Option<ContainerView> {
        let all = specs(pod);
        let me = all.iter().find(|s| s.name == container)?;
        let name = pod.metadata.name.clone().unwrap_or_default();
        let ns = pod
            .metadata
            .namespace
            .clone()
            .unwrap_or_else(|| "default".into());
        let hostname = pod
            .spec
            .as_ref()
            .and_then(|s| s.hostname.clone())
            .unwrap_or_else(|| name.clone());
        let userland = userland(pod, container, &me.image);
        let mut env = vec![
            (
                "PATH".to_string(),
                "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".to_string(),
            ),
            ("HOSTNAME".to_string(), hostname.clone()),
        ];
        env.extend(
            me.env
                .iter()
                .filter_map(|e| e.value.clone().map(|v| (e.name.clone(), v))),
        );
        env.push(("HOME".to_string(), "/root".to_string()));

        let mut files = BTreeMap::new();
        files.insert("/etc/hostname".to_string(), format!("{hostname}\n"));
        let ip = pod.status.as_ref().and_then(|s| s.pod_ip.clone());
        let mut hosts = "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n".to_string();
        if let Some(ip) = ip {
            hosts.push_str(&format!("{ip}\t{hostname}\n"));
        }
        files.insert("/etc/hosts".to_string(), hosts);
        files.insert(
            "/etc/resolv.conf".to_string(),
            format!("search {ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n"),
        );
        match userland {
            Userland::Debian => {
                files.insert("/etc/os-release".to_string(), DEBIAN_OS_RELEASE.to_string());
            }
            Userland::Alpine => {
                files.insert("/etc/os-release".to_string(), ALPINE_OS_RELEASE.to_string());
            }
            Userland::Busybox | Userland::None => {}
        }
        if SimImage::of(&me.image).app == App::Nginx {
            files.insert("/etc/nginx/nginx.conf".to_string(), NGINX_CONF.to_string());
        }
        for writer in &all {
            for (volume, inner, body) in heredoc_files(writer) {
                for m in me.mounts.iter().filter(|m| m.name == volume) {
                    let path = format!("{}{inner}", m.mount_path.trim_end_matches('/'));
                    files.insert(path, body.clone());
                }
            }
        }
        let mut processes = Vec::new();
        if let Some(target) = me
            .target
            .as_ref()
            .and_then(|t| all.iter().find(|s| &s.name == t))
        {
            processes.extend(pid1(target));
        }
        processes.extend(pid1(me));
        Some(ContainerView {
            pod: name,
            hostname,
            container: container.to_string(),
            image: me.image.clone(),
            userland,
            env,
            files,
            layer: Layer::default(),
            processes,
        })
    }

    /// The same view with `layer` as what processes wrote.
    #[must_use]
    pub fn with_layer(mut self, layer: Layer) -> Self {
        self.layer = layer;
        self
    }

    /// The content of the regular file at `path` (the layer first, then the image's files).
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        let path = super::fs::normalize(path);
        self.layer
            .files
            .get(&path)
            .cloned()
            .or_else(|| self.files.get(&path).map(|t| t.clone().into_bytes()))
    }

    /// Every regular file, the layer's over the image's, in path order.
    pub fn all_files(&self) -> BTreeMap<String, Vec<u8>> {
        let mut all: BTreeMap<String, Vec<u8>> = self
            .files
            .iter()
            .map(|(k, v)| (k.clone(), v.clone().into_bytes()))
            .collect();
        all.extend(self.layer.files.clone());
        all
    }

    /// The top-level directories of the userland (what `ls /` prints).
    fn root_dirs(&self) -> &'static [&'static str] {
        match self.userland {
            Userland::Busybox | Userland::Alpine => &[
                "bin", "dev", "etc", "home", "lib", "lib64", "proc", "root", "sys", "tmp", "usr",
                "var",
            ],
            _ => &[
                "bin", "boot", "dev", "etc", "home", "lib", "lib64", "media", "mnt", "opt", "proc",
                "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var",
            ],
        }
    }

    /// Whether `path` is a directory: `/`, a top-level directory of the userland, one the layer
    /// created, or one holding a known file.
    pub fn is_dir(&self, path: &str) -> bool {
        if self.userland == Userland::None {
            return false;
        }
        let dir = super::fs::normalize(path);
        let below = format!("{dir}/");
        dir.is_empty()
            || self.root_dirs().contains(&&dir[1..])
            || self.layer.dirs.contains(&dir)
            || self
                .files
                .keys()
                .chain(self.layer.files.keys())
                .any(|f| f.starts_with(&below))
    }

    /// Entries of a directory: the first path component below `path`, sorted and deduplicated.
    pub fn list_dir(&self, path: &str) -> Vec<String> {
        let dir = super::fs::normalize(path);
        let prefix = format!("{dir}/");
        let mut out: BTreeSet<String> = BTreeSet::new();
        if dir.is_empty() {
            out.extend(self.root_dirs().iter().map(|s| (*s).to_string()));
        }
        out.extend(
            self.files
                .keys()
                .chain(self.layer.files.keys())
                .chain(self.layer.dirs.iter())
                .filter_map(|f| f.strip_prefix(&prefix))
                .filter_map(|rest| rest.split('/').next())
                .filter(|name| !name.is_empty())
                .map(str::to_string),
        );
        out.into_iter().collect()
    }
}
