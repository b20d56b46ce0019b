//! `--once -o json`'s `"timeline"` against the simulator for every case in assets/cases: each
//! moment the case's `pod.json` and `events.json` stamp (the previous instance's end, each
//! condition's last transition, each event's first time, the pod's creation) is an entry at that
//! time, in time order, all marked reconstructed (`docs/timeline.md`).

use crate::common;
use serde_json::Value;

fn has(timeline: &[Value], want: &Value) -> bool {
    let want = want.as_object().expect("object");
    timeline
        .iter()
        .any(|e| want.iter().all(|(k, v)| e.get(k) == Some(v)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_timeline_holds_every_moment_the_case_stamps() {
    let dirs = common::cluster::case_dirs();
    assert!(
        dirs.len() >= 20,
        "expected the case corpus, found {}",
        dirs.len()
    );
    let mut checked = 0;
    for dir in dirs {
        let case = common::cluster::case_name(&dir);
        let (sim, exp, ns) = common::sim::start_case(&case, &[]).await;
        let out = tokio::task::block_in_place(|| {
            common::sim::podscope_once(sim.kubeconfig_path(), &ns, &exp.name, exp.now)
        });
        assert!(
            out.status.success(),
            "{case}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        let timeline = doc["timeline"].as_array().expect("timeline array").clone();
        let read = |f: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(dir.join(f)).expect(f)).expect(f)
        };
        let (pod, events) = (read("pod.json"), read("events.json"));

        let times: Vec<&str> = timeline.iter().filter_map(|e| e["at"].as_str()).collect();
        assert_eq!(
            times.len(),
            timeline.len(),
            "{case}: every entry has a time"
        );
        let parsed: Vec<jiff::Timestamp> =
            times.iter().map(|t| t.parse().expect("RFC 3339")).collect();
        assert!(parsed.is_sorted(), "{case}: oldest first: {times:?}");
        assert!(
            timeline.iter().all(|e| e["reconstructed"] == true),
            "{case}: one GET reconstructs"
        );

        let mut want = vec![serde_json::json!({
            "kind": "phase", "to": "Pending", "container": null,
            "at": pod["metadata"]["creationTimestamp"],
        })];
        for c in pod["status"]["conditions"].as_array().into_iter().flatten() {
            if c["lastTransitionTime"].is_string() {
                want.push(serde_json::json!({
                    "kind": "condition", "container": null,
                    "to": format!("{}={}", c["type"].as_str().unwrap_or(""), c["status"].as_str().unwrap_or("")),
                    "at": c["lastTransitionTime"],
                }));
            }
        }
        for key in [
            "initContainerStatuses",
            "containerStatuses",
            "ephemeralContainerStatuses",
        ] {
            for s in pod["status"][key].as_array().into_iter().flatten() {
                let t = &s["lastState"]["terminated"];
                if t["finishedAt"].is_string() {
                    want.push(serde_json::json!({
                        "kind": "state", "container": s["name"], "to": "terminated",
                        "at": t["finishedAt"], "exitCode": t["exitCode"], "reason": t["reason"],
                    }));
                }
                if t["finishedAt"].is_string() && s["state"]["running"]["startedAt"].is_string() {
                    let n = s["restartCount"].as_i64().unwrap_or(0);
                    want.push(serde_json::json!({
                        "kind": "restart", "container": s["name"],
                        "at": s["state"]["running"]["startedAt"],
                        "from": (n - 1).to_string(), "to": n.to_string(),
                    }));
                }
            }
        }
        for e in events["items"].as_array().into_iter().flatten() {
            if e["firstTimestamp"].is_string() {
                want.push(serde_json::json!({
                    "kind": "event", "reason": e["reason"], "at": e["firstTimestamp"],
                }));
            }
        }
        for w in &want {
            assert!(has(&timeline, w), "{case}: no entry {w} in {timeline:#?}");
        }
        checked += want.len();
        sim.shutdown().await;
    }
    assert!(checked > 500, "only {checked} moments checked");
}
