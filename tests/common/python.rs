//! Running the third-party Python clients (the official `kubernetes` client, `lightkube`,
//! `kr8s`; pinned in `tests/python/requirements.txt`) against the simulator. Each script under
//! `tests/python/` reads `KUBECONFIG`, does one client's calls and prints one JSON object of
//! what the client saw; the Rust test asserts on it, so the expected values live in the test.
//!
//! The interpreter: `PODSCOPE_PYTHON`, else `target/pyenv/bin/python` (what `.ci/run` creates:
//! `python3 -m venv target/pyenv && target/pyenv/bin/pip install -r tests/python/requirements.txt`).
//! Without one the test is skipped on a laptop and fails in CI ([`super::tools::skip`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The Python interpreter with the clients installed, or `None` (after [`super::tools::skip`]).
pub fn python() -> Option<PathBuf> {
    let candidate = std::env::var_os("PODSCOPE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/pyenv/bin/python"));
    let has_clients = Command::new(&candidate)
        .args(["-c", "import kubernetes, lightkube, kr8s"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_clients {
        Some(candidate)
    } else {
        super::tools::skip(
            "the third-party Python clients",
            &format!(
                "{} cannot import kubernetes, lightkube and kr8s (python3 -m venv target/pyenv && \
                 target/pyenv/bin/pip install -r tests/python/requirements.txt)",
                candidate.display()
            ),
        );
        None
    }
}

/// Runs `tests/python/<script>` with `args` against the cluster of `kubeconfig` and returns the
/// JSON object it printed. Blocking: call it from `spawn_blocking` in async tests.
///
/// # Panics
/// When the script exits non-zero (its stderr is in the message) or prints no JSON.
pub fn run(python: &Path, script: &str, kubeconfig: &Path, args: &[&str]) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let out = Command::new(python)
        .arg(&path)
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{script} {args:?} failed ({}):\n{stderr}\n{stdout}",
        out.status
    );
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{script} printed no JSON ({e}):\n{stdout}\n{stderr}"))
}

/// [`run`] on a blocking thread, for async tests.
pub async fn run_async(python: PathBuf, script: &str, kubeconfig: PathBuf, args: &[&str]) -> Value {
    let script = script.to_string();
    let args: Vec<String> = args.iter().map(|a| (*a).to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&python, &script, &kubeconfig, &args)
    })
    .await
    .expect("python task")
}
