//! Every kubectl 1.27 … 1.33 beside `kubectl` against the simulator's exec streams, each on its
//! default transport (SPDY up to 1.29, WebSocket v5 from 1.30; `docs/protocols.md` §3.3, §3.5):
//! - `exec -it hello -c proxy -- stty size` in a 120×40 tmux pane prints `40 120`;
//! - exec of a missing binary and into a container that is not running fail with a real
//!   cluster's words (containerd's `…: unknown`; the kubelet's refusal before the upgrade);
//! - `kubectl cp` into the proxy container and out of it, contents compared.
//!
//! Skips, with a printed reason, when no versioned kubectl (or tmux, for the first) is installed.

use crate::common;
use crate::stream_support;
use std::path::Path;

use common::cluster::kubectl_versions;
use common::tmux;
use podscope::sim::Simulator;
use regex::Regex;

/// `kubectl --kubeconfig K --cache-dir C ARGS` of `bin`; (exit code, stdout, stderr).
async fn kubectl(
    bin: &Path,
    sim: &Simulator,
    cache: &Path,
    args: &[&str],
) -> (i32, String, String) {
    let (kc, cache) = (stream_support::kubeconfig(sim), cache.display().to_string());
    let argv = [&["--kubeconfig", &kc, "--cache-dir", &cache][..], args].concat();
    stream_support::run(bin, &argv, None).await
}

/// The minor version of `1.NN`.
fn minor(version: &str) -> u32 {
    version
        .trim_start_matches("1.")
        .parse()
        .expect("a 1.NN version")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_sees_the_terminal_size_in_stty() {
    let versions = kubectl_versions();
    if versions.is_empty() || tmux::missing("the stty size check") {
        return;
    }
    let sim = stream_support::start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in &versions {
        // tmux turns `.` in session names into `_`.
        let session = format!("podscope-stty-{}-{}", std::process::id(), minor(version));
        let cmd = format!(
            "{} --kubeconfig {} --cache-dir {} exec -it hello -c proxy -- stty size; echo \"exit=$?\"; read done",
            bin.display(),
            stream_support::kubeconfig(&sim),
            tmp.path().join(version).display()
        );
        tmux::new_session(&session, 120, 40, &cmd);
        let screen = tmux::wait_for(&session, "kubectl's exit", 30, |s| s.contains("exit="));
        let _ = tmux::tmux(&["kill-session", "-t", &session]);
        let lines: Vec<&str> = screen.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(lines, ["40 120", "exit=0"], "kubectl {version}:\n{screen}");
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_words_exec_failures_as_a_real_cluster() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let sim = stream_support::start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = r#"error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "nope": executable file not found in \$PATH: unknown\n$"#;
    for (version, bin) in &versions {
        let cache = tmp.path().join(version);
        // WebSocket v5 goes through the apiserver's stream translator, which wraps what the
        // kubelet said in one more InternalError; SPDY reaches the kubelet through a proxy.
        let ws = minor(version) >= 30;
        let prefix = if ws {
            "error: Internal error occurred: Internal error occurred: "
        } else {
            "error: Internal error occurred: "
        };
        let want = Regex::new(&format!("^{prefix}{runtime}")).expect("regex");
        let (code, out, err) = kubectl(
            bin,
            &sim,
            &cache,
            &["exec", "hello", "-c", "proxy", "--", "nope"],
        )
        .await;
        assert_eq!((code, out.as_str()), (1, ""), "kubectl {version}: {err}");
        assert!(want.is_match(&err), "kubectl {version}: {err}");

        let args = ["exec", "hello", "-c", "render-config", "--", "true"];
        let (code, out, err) = kubectl(bin, &sim, &cache, &args).await;
        let refusal = r#"unable to upgrade connection: container not found ("render-config")"#;
        let want = if ws {
            format!("error: Internal error occurred: {refusal}\n")
        } else {
            format!("error: {refusal}\n")
        };
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (1, "", want.as_str()),
            "kubectl {version}"
        );
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_copies_into_and_out_of_the_proxy_container() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let sim = stream_support::start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let conf = {
        let (code, out, err) = kubectl(
            &versions[0].1,
            &sim,
            &tmp.path().join("cache"),
            &[
                "exec",
                "hello",
                "-c",
                "proxy",
                "--",
                "cat",
                "/etc/nginx/nginx.conf",
            ],
        )
        .await;
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("user  nginx;\n"), "{out}");
        out
    };
    for (version, bin) in &versions {
        let cache = tmp.path().join(version);
        let local = tmp.path().join(format!("file-{version}"));
        let content = format!("copied by kubectl {version}\nñ\ttab\u{0}nul\n");
        std::fs::write(&local, &content).expect("local file");
        let remote = format!("default/hello:/tmp/file-{version}");
        let local_arg = local.display().to_string();
        let (code, out, err) = kubectl(
            bin,
            &sim,
            &cache,
            &["cp", &local_arg, &remote, "-c", "proxy"],
        )
        .await;
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, "", ""),
            "kubectl {version} cp in"
        );

        let path = format!("/tmp/file-{version}");
        let (code, out, err) = kubectl(
            bin,
            &sim,
            &cache,
            &["exec", "hello", "-c", "proxy", "--", "cat", &path],
        )
        .await;
        assert_eq!(
            (code, out.as_str()),
            (0, content.as_str()),
            "kubectl {version}: {err}"
        );
        let (_, listing, _) = kubectl(
            bin,
            &sim,
            &cache,
            &["exec", "hello", "-c", "proxy", "--", "ls", "/tmp"],
        )
        .await;
        assert!(
            listing.lines().any(|l| l == format!("file-{version}")),
            "{listing}"
        );

        // Out again, and the image's nginx.conf; GNU tar's notice goes to kubectl's stdout.
        for (from, want) in [
            (path.as_str(), content.as_str()),
            ("/etc/nginx/nginx.conf", conf.as_str()),
        ] {
            let back = tmp.path().join(format!("back-{version}"));
            let back_arg = back.display().to_string();
            let from = format!("hello:{from}");
            let (code, out, err) =
                kubectl(bin, &sim, &cache, &["cp", &from, &back_arg, "-c", "proxy"]).await;
            // kubectl stops at the archive's end, maybe before it copied the notice.
            let notice = "tar: Removing leading `/' from member names\n";
            assert_eq!((code, err.as_str()), (0, ""), "kubectl {version} cp {from}");
            assert!(
                out.is_empty() || out == notice,
                "kubectl {version} cp {from}: {out}"
            );
            let copied = std::fs::read_to_string(&back).expect("copied out");
            assert_eq!(copied, want, "kubectl {version} cp {from}");
        }
    }
    sim.shutdown().await;
}
