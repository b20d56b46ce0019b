//! Helpers for tests that run against the simulator and kubectl: case folders (their pod's
//! name and namespace, their files), the kubectl binary, running kubectl (to completion or in
//! the background).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use podscope::sim::Simulator;

/// `assets/cases` in this repository.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join("cases")
}

/// Every case folder, sorted by name.
pub fn case_dirs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("assets/cases exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("pod.json").exists())
        .collect();
    v.sort();
    v
}

/// The case folder whose name starts with `prefix` (e.g. `01-`).
pub fn case(prefix: &str) -> PathBuf {
    case_dirs()
        .into_iter()
        .find(|d| case_name(d).starts_with(prefix))
        .expect("case folder exists")
}

/// The folder name of a case (`04-crashloop-oomkilled-jvm`).
pub fn case_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_owned()
}

/// `metadata.namespace` of a case's pod.json.
pub fn namespace(dir: &Path) -> String {
    let pod: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("json");
    pod["metadata"]["namespace"]
        .as_str()
        .unwrap_or("default")
        .to_owned()
}

/// `(metadata.name, metadata.namespace)` of a case's pod.
pub fn name_ns(dir: &Path) -> (String, String) {
    let fx = podscope::sim::load_fixture(dir).expect("fixture");
    (
        fx.pod.metadata.name.clone().expect("name"),
        fx.pod.metadata.namespace.clone().expect("namespace"),
    )
}

/// The lines of the case file `file` (e.g. `logs-previous.txt`).
pub fn file_lines(dir: &Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .expect("log file")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The kubectl binary on PATH, or `None` after [`super::tools::skip`] (the caller skips its
/// kubectl part; with `PODSCOPE_REQUIRE_TOOLS=1` the test fails instead).
pub fn kubectl() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("kubectl"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        super::tools::skip("the kubectl comparison", "kubectl is not on PATH");
    }
    found
}

/// The versioned kubectl binaries (`kubectl.1.27` … `kubectl.1.33`) installed beside the file
/// `kubectl` on PATH resolves to, as `(version, path)` sorted by minor version; empty (after
/// [`super::tools::skip`]) when there are none.
pub fn kubectl_versions() -> Vec<(String, PathBuf)> {
    let Some(dir) = kubectl()
        .and_then(|k| std::fs::canonicalize(k).ok())
        .and_then(|k| k.parent().map(Path::to_path_buf))
    else {
        return Vec::new();
    };
    let mut found: Vec<(u32, String, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let version = name.strip_prefix("kubectl.")?.to_owned();
            let minor = version.strip_prefix("1.")?.parse().ok()?;
            Some((minor, version, e.path()))
        })
        .collect();
    found.sort();
    if found.is_empty() {
        let reason = format!("no kubectl.1.NN binaries beside {}", dir.display());
        super::tools::skip("the kubectl version matrix", &reason);
    }
    found.into_iter().map(|(_, v, p)| (v, p)).collect()
}

/// Runs the kubectl binary `bin` with `kubeconfig`, a private cache dir, `args` and `envs` (at
/// most 60 s); returns (exit success, stdout, stderr).
pub async fn run_bin(
    bin: &Path,
    kubeconfig: &Path,
    cache: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (bool, String, String) {
    let mut cmd = command_of(bin, kubeconfig, cache, args);
    cmd.envs(envs.iter().copied());
    let out = tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("kubectl finishes within 60 s")
        .expect("kubectl runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// kubectl with `kubeconfig`, a private cache dir and `args` (KUBECONFIG unset, killed when
/// dropped).
fn command(kubeconfig: &Path, cache: &Path, args: &[&str]) -> tokio::process::Command {
    command_of(
        &kubectl().expect("kubectl on PATH"),
        kubeconfig,
        cache,
        args,
    )
}

/// [`command`] for the kubectl binary `bin`.
fn command_of(
    bin: &Path,
    kubeconfig: &Path,
    cache: &Path,
    args: &[&str],
) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--kubeconfig")
        .arg(kubeconfig)
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .env_remove("KUBECONFIG")
        .kill_on_drop(true);
    cmd
}

/// Runs kubectl with `kubeconfig` (at most 60 s); returns (exit success, stdout, stderr).
pub async fn run_with(kubeconfig: &Path, cache: &Path, args: &[&str]) -> (bool, String, String) {
    run_bin(
        &kubectl().expect("kubectl on PATH"),
        kubeconfig,
        cache,
        args,
        &[],
    )
    .await
}

/// Runs kubectl against `sim` (its kubeconfig); returns (exit success, stdout, stderr).
pub async fn run(sim: &Simulator, cache: &Path, args: &[&str]) -> (bool, String, String) {
    run_with(sim.kubeconfig_path(), cache, args).await
}

/// Runs `kubectl VERB -f FILE` against `sim` (see [`run`]).
pub async fn run_file(
    sim: &Simulator,
    cache: &Path,
    verb: &str,
    file: &Path,
) -> (bool, String, String) {
    run(sim, cache, &[verb, "-f", &file.to_string_lossy()]).await
}

/// Starts kubectl against `sim` in the background with stdout and stderr captured.
pub fn spawn(sim: &Simulator, cache: &Path, args: &[&str]) -> tokio::process::Child {
    command(sim.kubeconfig_path(), cache, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl starts")
}

/// Stops a background kubectl (if still running) and returns its stdout.
pub async fn finish(mut child: tokio::process::Child) -> String {
    let _ = child.start_kill();
    let out = child.wait_with_output().await.expect("kubectl output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A small Pod manifest named `name` (nginx with a port and a readiness probe) for `kubectl
/// create -f` / `apply -f`: enough nesting that validation against the OpenAPI schemas matters.
pub fn pod_manifest(name: &str) -> String {
    format!(
        "apiVersion: v1
kind: Pod
metadata:
  name: {name}
spec:
  containers:
  - name: web
    image: nginx:1.27
    ports:
    - containerPort: 80
    readinessProbe:
      httpGet: {{path: /, port: 80}}
      periodSeconds: 5
"
    )
}
