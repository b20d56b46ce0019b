//! Real kubectl against the simulator's SPDY/3.1 server (`docs/protocols.md` §3.3, §4.1–§4.2),
//! with the seed's hello pod run by the dynamic simulator:
//! - every kubectl 1.27–1.33 installed beside `kubectl`: `port-forward pod/hello :8081 :9999`
//!   (SPDY natively up to 1.30, tunnelled in WebSocket from 1.31): a GET through the first port
//!   answers `hello from hello` (nginx → the app), a connection to the second makes kubectl
//!   print `an error occurred forwarding L -> 9999: ` and the kubelet's refused text;
//! - kubectl 1.27 and 1.28 (exec over SPDY only) and 1.29+ with
//!   `KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false`: `exec … -- hostname` prints `hello` in the proxy
//!   container and fails with the runtime's `executable file not found` in the distroless hello
//!   app; 1.27/1.28 also `sh -c 'exit 3'` (exit status 3, `command terminated with exit code 3`)
//!   and `exec -i … -- cat` with stdin.
//!
//! Skips, with a printed reason, when no versioned kubectl is installed.

use crate::common;
use crate::stream_support;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::cluster::kubectl_versions;
use common::sim::{all_ready, scenario, start_dynamic, wait_pod};
use podscope::sim::{Simulator, create_scenario, parse_scenario, scenario_text};
use stream_support::{body, get};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, Lines};

/// A dynamic simulator (10× time) with the seed's hello pod Running and ready.
async fn hello_sim() -> Simulator {
    let sim = start_dynamic(10.0).await;
    let text = scenario_text(&scenario("hello.yaml")).expect("hello scenario");
    let pods = parse_scenario("hello", &text).expect("parses");
    create_scenario(&sim.store(), pods).expect("created");
    wait_pod(&sim.store(), "hello", 30, all_ready).await;
    sim
}

/// kubectl `bin` with the simulator's kubeconfig, a private cache dir, `args` and `envs`;
/// killed when dropped.
fn kubectl(
    bin: &Path,
    sim: &Simulator,
    cache: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .envs(envs.iter().copied())
        .env_remove("KUBECONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

/// Runs kubectl to its end (60 s at most) with `stdin`; (exit code, stdout, stderr).
async fn run(mut cmd: tokio::process::Command, stdin: &str) -> (i32, String, String) {
    let mut child = cmd.spawn().expect("kubectl starts");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).await.expect("stdin");
    drop(input);
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("kubectl finishes within 60 s")
        .expect("kubectl runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The next line of `lines` that `pred` accepts (30 s at most); panics with what was seen.
async fn line_where<R: AsyncRead + Unpin>(
    lines: &mut Lines<BufReader<R>>,
    what: &str,
    pred: impl Fn(&str) -> bool,
) -> String {
    let mut seen = Vec::new();
    let found = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(l)) = lines.next_line().await {
            if pred(&l) {
                return Some(l);
            }
            seen.push(l);
        }
        None
    })
    .await;
    match found {
        Ok(Some(l)) => l,
        _ => panic!("no {what} line; saw {seen:?}"),
    }
}

/// The local port of kubectl's `Forwarding from 127.0.0.1:L -> remote` line.
fn local_port(line: &str, remote: u16) -> u16 {
    line.strip_prefix("Forwarding from 127.0.0.1:")
        .and_then(|r| r.strip_suffix(&format!(" -> {remote}")))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_port_forwards_over_spdy() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let sim = hello_sim().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in &versions {
        let cache = tmp.path().join(format!("cache-{version}"));
        let args = ["port-forward", "pod/hello", ":8081", ":9999"];
        let mut child = kubectl(bin, &sim, &cache, &args, &[])
            .spawn()
            .expect("kubectl starts");
        let mut out = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut err = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let is = |remote: u16| {
            move |l: &str| {
                l.starts_with("Forwarding from 127.0.0.1:") && l.ends_with(&format!(" -> {remote}"))
            }
        };
        let hello = local_port(
            &line_where(&mut out, "Forwarding 8081", is(8081)).await,
            8081,
        );
        let closed = local_port(
            &line_where(&mut out, "Forwarding 9999", is(9999)).await,
            9999,
        );

        let resp = get(([127, 0, 0, 1], hello).into(), "/").await;
        assert!(resp.starts_with("HTTP/1.1 200 OK\r\n"), "{version}: {resp}");
        assert_eq!(body(&resp), "hello from hello\n", "{version}");

        assert_eq!(
            get(([127, 0, 0, 1], closed).into(), "/").await,
            "",
            "{version}"
        );
        let want = format!("an error occurred forwarding {closed} -> 9999: ");
        let e = line_where(&mut err, "forwarding error", |l| l.contains(&want)).await;
        for part in [
            "error forwarding port 9999 to pod ",
            "failed to connect to localhost:9999 inside namespace",
            "IPv4: dial tcp4 127.0.0.1:9999: connect: connection refused",
        ] {
            assert!(e.contains(part), "{version}: {e}");
        }
        child.kill().await.expect("kubectl stopped");
        eprintln!("kubectl {version}: port-forward to :8081 and the refused :9999 as expected");
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_execs_over_spdy() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let sim = hello_sim().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in &versions {
        let minor: u32 = version.trim_start_matches("1.").parse().expect("minor");
        let cache = tmp.path().join(format!("cache-{version}"));
        // 1.29 defaults to SPDY too; 1.30+ would use WebSocket v5 unless told otherwise.
        let envs: &[(&str, &str)] = if minor >= 29 {
            &[("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "false")]
        } else {
            &[]
        };
        let exec = |args: &[&str], stdin: &'static str| {
            let mut all = vec!["exec"];
            all.extend_from_slice(args);
            run(kubectl(bin, &sim, &cache, &all, envs), stdin)
        };

        let (code, out, err) = exec(&["hello", "-c", "proxy", "--", "hostname"], "").await;
        assert_eq!(
            (code, out.as_str()),
            (0, "hello\n"),
            "{version} proxy: {err}"
        );

        let (code, _, err) = exec(&["hello", "-c", "hello", "--", "hostname"], "").await;
        assert_ne!(code, 0, "{version}: the distroless app has no hostname");
        assert!(
            err.contains("exec: \"hostname\": executable file not found in $PATH"),
            "{version} hello: {err}"
        );
        if minor >= 29 {
            eprintln!("kubectl {version}: exec over SPDY (forced) as expected");
            continue;
        }

        let (code, out, err) =
            exec(&["hello", "-c", "proxy", "--", "sh", "-c", "exit 3"], "").await;
        assert_eq!((code, out.as_str()), (3, ""), "{version}: {err}");
        assert_eq!(err, "command terminated with exit code 3\n", "{version}");

        let (code, out, err) =
            exec(&["-i", "hello", "-c", "proxy", "--", "cat"], "abc\ndef\n").await;
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, "abc\ndef\n", ""),
            "{version}"
        );
        eprintln!("kubectl {version}: exec over SPDY as expected");
    }
    sim.shutdown().await;
}
