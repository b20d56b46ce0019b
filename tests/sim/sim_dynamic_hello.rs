//! The seed's hello pod with real kubectl: `kubectl describe pod hello` (container states, probe
//! lines, conditions, event order init → sidecar → main) and `kubectl delete pod hello` with
//! followed logs (preStop sleep 5 s, SIGTERM to hello, then SIGQUIT to the proxy sidecar, all
//! within the 30 s grace period). Oracle: seeds/000_a32e298467e0f8f8.txt.

use crate::common;
use common::cluster::{run, run_file, spawn};
use common::seed;
use common::sim::{all_ready, scenario, start_dynamic_for_kubectl, wait_log_followers, wait_pod};
use jiff::Timestamp;

fn events(text: &str) -> Vec<(String, String, String)> {
    let mut rows = Vec::new();
    let mut on = false;
    for line in text.lines() {
        if line.starts_with("Events:") {
            on = true;
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if !on || f.len() < 5 || f[0] == "Type" || f[0].starts_with("--") {
            continue;
        }
        let msg = f[4..].join(" ");
        // kubectl ≥1.33 prefixes the message with the fieldPath.
        let msg = match msg.split_once("}: ") {
            Some((fp, rest)) if fp.starts_with("spec.") => rest.to_string(),
            _ => msg,
        };
        rows.push((f[1].to_string(), f[3].to_string(), msg));
    }
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn describe_then_delete_hello_as_the_seed_shows() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(10.0).await else {
        return;
    };
    let store = sim.store();
    let path = scenario("hello.yaml");
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &path).await;
    assert!(ok, "apply: {err}");
    wait_pod(&store, "hello", 20, all_ready).await;

    let (ok, text, err) = run(&sim, cache.path(), &["describe", "pod", "hello"]).await;
    assert!(ok, "describe: {err}");
    assert!(
        text.contains("Node:             k8s-node-2/192.168.10.21"),
        "{text}"
    );
    assert!(text.contains("Status:           Running"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["QoS", "Class:", "BestEffort"]),
        "{text}"
    );
    let got = seed::blocks(&text);
    for (container, lines) in seed::blocks(seed::DESCRIBE) {
        let have = got.get(&container).cloned().unwrap_or_default();
        for (k, v) in lines {
            let found = have
                .iter()
                .find(|(hk, _)| *hk == k)
                .map(|(_, hv)| hv.clone());
            match k.as_str() {
                // Digests are per build; kubectl < 1.33 prints the port without its name.
                "Image ID" => assert!(found.is_some(), "{container}: no Image ID"),
                "Port" => assert!(
                    found.as_deref().and_then(|f| f.split(' ').next()) == v.split(' ').next(),
                    "{container} Port: {found:?} vs {v}"
                ),
                _ => assert_eq!(found.as_deref(), Some(v.as_str()), "{container} {k}"),
            }
        }
    }
    let want: Vec<(String, String, String)> = seed::EVENTS
        .iter()
        .map(|(_, r, _, f, m)| (r.to_string(), f.to_string(), m.to_string()))
        .collect();
    assert_eq!(events(&text), want, "{text}");

    // Follow both containers' logs, then delete.
    let hello_log = spawn(&sim, cache.path(), &["logs", "hello", "-f", "--timestamps"]);
    let proxy_log = spawn(
        &sim,
        cache.path(),
        &["logs", "hello", "-c", "proxy", "-f", "--timestamps"],
    );
    wait_log_followers(&sim, 2).await;
    let (ok, out, err) = run(&sim, cache.path(), &["delete", "pod", "hello"]).await;
    assert!(ok, "delete: {err}");
    assert!(out.starts_with("pod \"hello\" deleted"), "{out}");
    assert!(
        store.pod("default", "hello").is_none(),
        "kubectl delete waits for removal"
    );

    // The follow streams end by themselves when their container instances stop.
    let ended = |child: tokio::process::Child| async move {
        tokio::time::timeout(std::time::Duration::from_secs(10), child.wait_with_output())
            .await
            .expect("logs -f ends when the container stops")
            .expect("kubectl logs output")
    };
    let hello = ended(hello_log).await;
    let proxy = ended(proxy_log).await;
    let stamp = |s: &str| -> (Timestamp, String) {
        let (t, rest) = s.split_once(' ').expect("timestamped line");
        (t.parse().expect("timestamp"), rest.to_string())
    };
    let hello: Vec<(Timestamp, String)> = String::from_utf8_lossy(&hello.stdout)
        .lines()
        .map(stamp)
        .collect();
    let proxy: Vec<(Timestamp, String)> = String::from_utf8_lossy(&proxy.stdout)
        .lines()
        .map(stamp)
        .collect();
    let find = |lines: &[(Timestamp, String)], needle: &str| {
        lines
            .iter()
            .find(|(_, l)| l.ends_with(needle))
            .map(|(t, _)| *t)
            .unwrap_or_else(|| panic!("no line ending {needle:?} in {lines:?}"))
    };
    let sigterm = find(&hello, "signal received, shutting down");
    let bye = find(&hello, "bye");
    let sigquit = find(
        &proxy,
        "[notice] 1#1: signal 3 (SIGQUIT) received, shutting down",
    );
    let exit = find(&proxy, "[notice] 1#1: exit");
    // The DELETED object carries deletionTimestamp = delete time + 30 s.
    let deleted_at = store
        .list(podscope::sim::Resource::Events, Some("default"))
        .0
        .iter()
        .filter_map(|o| match o {
            podscope::sim::Object::Event(e) if e.reason.as_deref() == Some("Killing") => {
                e.first_timestamp.as_ref().map(|t| t.0)
            }
            _ => None,
        })
        .min()
        .expect("a Killing event at the delete");
    let secs = |a: Timestamp, b: Timestamp| b.duration_since(a).as_secs_f64();
    let pre_stop = secs(deleted_at, sigterm);
    assert!(
        (4.9..=6.0).contains(&pre_stop),
        "SIGTERM {pre_stop} s after the delete"
    );
    assert!(
        bye >= sigterm && sigquit > bye,
        "sidecar after hello: {hello:?} {proxy:?}"
    );
    assert!((0.3..=1.5).contains(&secs(bye, sigquit)), "sidecar delay");
    assert!(
        exit >= sigquit && secs(deleted_at, exit) < 30.0,
        "within the grace period"
    );
    sim.shutdown().await;
}
