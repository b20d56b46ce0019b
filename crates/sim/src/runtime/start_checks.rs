//! What happens instead of a program's normal start when the container cannot run as its spec
//! asks — the runtime starts the process (the kubelet reports `Started`), and the process dies
//! at once with what the real one prints:
//!
//! - **another architecture** ([`super::image::Arch`]): the image's binaries are `arm64` and
//!   the node is `amd64`. runc has created and started the container (the exec fifo is
//!   opened by `runc start`), then its `execve` of the entrypoint fails with `ENOEXEC`; the
//!   error cannot reach the parent any more, so runc's init prints it on the container's
//!   stderr and exits 1 (`libcontainer/standard_init_linux.go`, `init_linux.go`): the log has
//!   `exec /usr/local/bin/invoicer: exec format error`, the instance ends `Error`, exit 1 —
//!   containerd + runc's behaviour. (A missing executable is caught before the start, by
//!   `exec.LookPath` at create time: `StartError`, exit 128, `RunContainerError` — not this.)
//! - **a read-only root** (`securityContext.readOnlyRootFilesystem: true`) for nginx: the
//!   entrypoint scripts note they cannot modify `default.conf`, then nginx cannot create its
//!   temp directory and exits 1 — `[emerg] mkdir() "/var/cache/nginx/client_temp" failed (30:
//!   Read-only file system)`, in the error log's and stderr's forms — unless a writable volume
//!   (`emptyDir`, a claim, `hostPath`, not `readOnly`; ConfigMap, Secret, downward API and
//!   projected volumes are always read-only) is mounted there; next it needs `/run` for
//!   `nginx.pid`.
//! - **a port another container of the pod holds** (containers of a pod share one network
//!   namespace): the hello app logs `listen: listen tcp :8080: bind: address already in use`
//!   and exits 1, a `SIM_*` or other server logs `listen tcp :8080: bind: address already in
//!   use`, nginx retries `bind()` five times half a second apart (`(98: Address already in
//!   use)`), then `still could not bind()` and exits 1.

use jiff::SignedDuration;
use k8s_openapi::api::core::v1::{Container, PodSpec};

use super::image::{App, NODE_ARCH, SimImage};
use super::programs::{LogLine, MIN_RUN, Plan, Program, exit, line};

/// The plan replacing `program`'s start for container `c` of a pod with `pod` spec, or `None`
/// when it starts normally; `held` are the ports the pod's other running containers bound.
pub(crate) fn start_failure(
    pod: &PodSpec,
    c: &Container,
    program: &Program,
    held: &[u16],
) -> Option<Plan> {
    let image = SimImage::of(c.image.as_deref().unwrap_or(""));
    if image.arch != NODE_ARCH {
        let path = match c.command.iter().flatten().next() {
            Some(p) if p.starts_with('/') => p.clone(),
            Some(p) if matches!(p.as_str(), "sh" | "bash" | "ash") => format!("/bin/{p}"),
            Some(p) => format!("/usr/local/bin/{p}"),
            None => image.entrypoint(),
        };
        return Some(fail(vec![line(
            SignedDuration::ZERO,
            format!("exec {path}: exec format error"),
            false,
        )]));
    }
    if image.app == App::Nginx
        && c.security_context
            .as_ref()
            .and_then(|s| s.read_only_root_filesystem)
            == Some(true)
        && let Some(plan) = nginx_read_only(pod, c)
    {
        return Some(plan);
    }
    let port = program.binds().into_iter().find(|p| held.contains(p))?;
    Some(match program {
        Program::Nginx(_) => nginx_bind(port),
        Program::Hello { .. } => fail(vec![line(
            SignedDuration::ZERO,
            format!("listen: listen tcp :{port}: bind: address already in use"),
            true,
        )]),
        _ => fail(vec![line(
            SignedDuration::ZERO,
            format!("listen tcp :{port}: bind: address already in use"),
            true,
        )]),
    })
}

/// Logs, then exit 1 after [`MIN_RUN`].
fn fail(logs: Vec<LogLine>) -> Plan {
    Plan {
        logs,
        exit: exit(MIN_RUN, 1),
        looping: None,
    }
}

/// Whether `path` is on a writable volume mount of `c` (the longest mount prefix decides).
fn writable(pod: &PodSpec, c: &Container, path: &str) -> bool {
    let mount = c
        .volume_mounts
        .iter()
        .flatten()
        .filter(|m| {
            let p = m.mount_path.trim_end_matches('/');
            path == p || path.starts_with(&format!("{p}/"))
        })
        .max_by_key(|m| m.mount_path.len());
    let Some(m) = mount else { return false };
    if m.read_only == Some(true) {
        return false;
    }
    pod.volumes
        .iter()
        .flatten()
        .find(|v| v.name == m.name)
        .is_some_and(|v| {
            v.empty_dir.is_some()
                || v.persistent_volume_claim.is_some()
                || v.host_path.is_some()
                || v.ephemeral.is_some()
        })
}

/// nginx under a read-only root (see the module docs); `None` when its paths are writable.
fn nginx_read_only(pod: &PodSpec, c: &Container) -> Option<Plan> {
    let failure = if !writable(pod, c, "/var/cache/nginx/client_temp") {
        "mkdir() \"/var/cache/nginx/client_temp\" failed (30: Read-only file system)"
    } else if !writable(pod, c, "/run/nginx.pid") {
        "open() \"/run/nginx.pid\" failed (30: Read-only file system)"
    } else {
        return None;
    };
    let at = SignedDuration::ZERO;
    let mut logs: Vec<LogLine> = [
        "/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration",
        "/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/",
        "/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh",
    ]
    .into_iter()
    .map(|l| line(at, l, false))
    .collect();
    if !writable(pod, c, "/etc/nginx/conf.d/default.conf") {
        logs.push(line(at, "10-listen-on-ipv6-by-default.sh: info: can not modify /etc/nginx/conf.d/default.conf (read-only file system?)", false));
    }
    logs.extend(
        [
            "/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh",
            "/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh",
            "/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh",
            "/docker-entrypoint.sh: Configuration complete; ready for start up",
        ]
        .into_iter()
        .map(|l| line(at, l, false)),
    );
    logs.push(line(at, format!("[emerg] 1#1: {failure}"), true));
    logs.push(line(at, format!("nginx: [emerg] {failure}"), false));
    Some(fail(logs))
}

/// nginx whose listen port is taken: five `bind()` attempts 500 ms apart, then exit 1.
fn nginx_bind(port: u16) -> Plan {
    let mut logs = Vec::new();
    let msg = format!("bind() to 0.0.0.0:{port} failed (98: Address already in use)");
    for n in 0..5 {
        let at = SignedDuration::from_millis(500 * n);
        logs.push(line(at, format!("[emerg] 1#1: {msg}"), true));
        logs.push(line(at, format!("nginx: [emerg] {msg}"), false));
    }
    let end = SignedDuration::from_millis(2500);
    logs.push(line(end, "[emerg] 1#1: still could not bind()", true));
    logs.push(line(end, "nginx: [emerg] still could not bind()", false));
    Plan {
        logs,
        exit: exit(end, 1),
        looping: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(yaml: &str) -> PodSpec {
        serde_yaml_ng::from_str(yaml).expect("pod spec")
    }

    fn texts(p: &Plan) -> Vec<&str> {
        p.logs.iter().map(|l| l.text.as_str()).collect()
    }

    #[test]
    fn an_arm64_image_cannot_exec_on_amd64() {
        let spec = pod("containers: [{name: a, image: registry.example/invoicer:2.3.0-arm64}]");
        let c = &spec.containers[0];
        let p = start_failure(&spec, c, &Program::for_container(c), &[]).expect("fails");
        assert_eq!(
            texts(&p),
            ["exec /usr/local/bin/invoicer: exec format error"]
        );
        assert_eq!(p.exit.map(|e| (e.code, e.reason)), Some((1, "Error")));
    }

    #[test]
    fn nginx_needs_writable_cache_and_run() {
        let ro = "containers: [{name: web, image: 'nginx:1.29', securityContext: {readOnlyRootFilesystem: true}, volumeMounts: [{name: tmp, mountPath: /tmp}]}]\nvolumes: [{name: tmp, emptyDir: {}}]";
        let spec = pod(ro);
        let c = &spec.containers[0];
        let p = start_failure(&spec, c, &Program::for_container(c), &[]).expect("fails");
        assert_eq!(
            texts(&p).last().copied(),
            Some(
                "nginx: [emerg] mkdir() \"/var/cache/nginx/client_temp\" failed (30: Read-only file system)"
            )
        );
        let fixed = ro.replace(
            "mountPath: /tmp}",
            "mountPath: /var/cache/nginx}, {name: tmp, mountPath: /run}",
        );
        let spec = pod(&fixed);
        let c = &spec.containers[0];
        assert_eq!(
            start_failure(&spec, c, &Program::for_container(c), &[]),
            None
        );
    }

    #[test]
    fn a_held_port_cannot_be_bound() {
        let spec = pod("containers: [{name: a, image: 'ghcr.io/example/hello:1.0'}]");
        let c = &spec.containers[0];
        let prog = Program::for_container(c);
        assert_eq!(start_failure(&spec, c, &prog, &[9090]), None);
        let p = start_failure(&spec, c, &prog, &[8080]).expect("taken");
        assert_eq!(
            texts(&p),
            ["listen: listen tcp :8080: bind: address already in use"]
        );
    }
}
