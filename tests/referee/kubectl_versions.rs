//! Every kubectl from 1.27 to 1.33 (the `kubectl.1.NN` binaries installed beside `kubectl`)
//! against one simulator: discovery, `get` (the server-side table with case 04's expected.md
//! columns), `describe` (events listed by field selector), `logs --previous` (the case's log),
//! `apply -f` (validated against the simulator's OpenAPI document, no `--validate=false`) and,
//! `exec` (1.27 and 1.28 over SPDY/3.1, the only transport they have; from 1.29 on over WebSocket,
//! 1.29 and 1.30 with `KUBECTL_REMOTE_COMMAND_WEBSOCKETS=true`; `kubectl_spdy` covers SPDY for
//! every version).
//! Skips, with a printed reason, when no versioned kubectl is installed.

use crate::common;
use crate::stream_support;
use common::cluster::{kubectl_versions, run_bin};
use podscope::sim::{SimClock, SimConfig, Simulator};

const CASE: &str = "04-crashloop-oomkilled-jvm";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kubectl_from_1_27_to_1_33_reads_writes_and_execs() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let dir = common::cluster::cases_dir().join(CASE);
    let exp = common::cases::expected(CASE);
    let ns = common::cluster::namespace(&dir);
    let sim = Simulator::start(SimConfig {
        fixtures: vec![dir.clone(), stream_support::hello_dir()],
        clock: SimClock::Frozen(exp.now),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let previous = std::fs::read_to_string(dir.join("logs-previous.txt")).expect("log");
    let tmp = tempfile::tempdir().expect("tempdir");
    let kc = sim.kubeconfig_path();
    for (version, bin) in &versions {
        let cache = tmp.path().join(format!("cache-{version}"));
        let run = |args: Vec<&str>, envs: Vec<(&'static str, &'static str)>| {
            let (bin, cache) = (bin.clone(), cache.clone());
            let args: Vec<String> = args.into_iter().map(str::to_owned).collect();
            async move {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                run_bin(&bin, kc, &cache, &args, &envs).await
            }
        };

        let (ok, out, err) = run(
            vec!["get", "pod", &exp.name, "-n", &ns, "--no-headers"],
            vec![],
        )
        .await;
        assert!(ok, "{version} get: {err}");
        let cols: Vec<&str> = out.split_whitespace().collect();
        assert_eq!(cols[0], exp.name, "{version}: {out}");
        assert_eq!(cols[1], exp.ready, "{version} READY: {out}");
        assert_eq!(cols[2], exp.status, "{version} STATUS: {out}");
        assert!(
            out.contains(&exp.restarts),
            "{version} RESTARTS {}: {out}",
            exp.restarts
        );

        let (ok, out, err) = run(vec!["describe", "pod", &exp.name, "-n", &ns], vec![]).await;
        assert!(ok, "{version} describe: {err}");
        for want in [
            "Reason:       CrashLoopBackOff",
            "Reason:       OOMKilled",
            "Exit Code:    137",
            "Back-off restarting failed container coord",
        ] {
            assert!(
                out.contains(want),
                "{version} describe lacks {want:?}:\n{out}"
            );
        }

        let (ok, out, err) = run(
            vec!["logs", &exp.name, "-n", &ns, "-c", "coord", "--previous"],
            vec![],
        )
        .await;
        assert!(ok, "{version} logs --previous: {err}");
        assert_eq!(out, previous, "{version} logs --previous");

        let name = format!("web-{}", version.replace('.', "-"));
        let file = tmp.path().join(format!("{name}.yaml"));
        std::fs::write(&file, common::cluster::pod_manifest(&name)).expect("manifest");
        let file = file.to_string_lossy().into_owned();
        let (ok, out, err) = run(vec!["apply", "-f", &file, "-n", "default"], vec![]).await;
        assert!(ok, "{version} apply: {err}");
        assert_eq!(
            out.trim(),
            format!("pod/{name} created"),
            "{version} apply: {err}"
        );

        let minor: u32 = version.trim_start_matches("1.").parse().expect("minor");
        let ws = if minor < 29 {
            vec![]
        } else {
            vec![("KUBECTL_REMOTE_COMMAND_WEBSOCKETS", "true")]
        };
        let (ok, out, err) = run(
            vec![
                "exec", "hello", "-n", "default", "-c", "proxy", "--", "hostname",
            ],
            ws,
        )
        .await;
        assert!(ok, "{version} exec: {err}");
        assert_eq!(out, "hello\n", "{version} exec hostname");
    }
    sim.shutdown().await;
}
