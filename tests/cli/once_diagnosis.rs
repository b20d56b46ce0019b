//! The diagnosis fed and published, against the simulator: `--once -o json` carries a
//! `"diagnosis"` list of `{rule, severity, container, headline, evidence, hint}` for every case,
//! `-o text` starts with `Diagnosis:`, the previous log tail of a restarted container is read
//! (in `--once` and through the TUI's `Session` and `update`), objects are looked up with one
//! GET that tolerates 404 and 403, and neither an ESC nor a bidirectional override from a
//! termination message reaches the output.

use crate::common;
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use jiff::Timestamp;
use podscope::app::{Cmd, Msg, State, update};
use podscope::cluster::Session;
use podscope::cluster::evidence::look_up;
use podscope::model::diagnosis::{Lookup, ObjectRef};
use podscope::sim::{SimClock, SimConfig, Simulator};

const OOM: &str = "04-crashloop-oomkilled-jvm";

/// `podscope -n NS POD --once -o FORMAT --now NOW` with `kubeconfig`.
fn once(kubeconfig: &Path, ns: &str, pod: &str, now: Timestamp, format: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["-n", ns, pod, "--once", "-o", format, "--now"])
        .arg(now.to_string())
        .env_remove("KUBECONFIG")
        .output()
        .expect("podscope runs")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "podscope --once failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 on stdout")
}

/// The last `n` lines of the case's `logs-previous.txt`.
fn previous_log_tail(case: &str, n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(
        common::cluster::cases_dir()
            .join(case)
            .join("logs-previous.txt"),
    )
    .expect("logs-previous.txt");
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[lines.len().saturating_sub(n)..].to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_has_a_diagnosis_list_for_every_case() {
    for dir in common::cluster::case_dirs() {
        let case = common::cluster::case_name(&dir);
        let (sim, exp, ns) = common::sim::start_case(&case, &[]).await;
        let out = tokio::task::block_in_place(|| {
            common::sim::podscope_once(sim.kubeconfig_path(), &ns, &exp.name, exp.now)
        });
        sim.shutdown().await;
        let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let list = doc["diagnosis"]
            .as_array()
            .unwrap_or_else(|| panic!("{case}: no diagnosis array in {doc}"));
        for f in list {
            let obj = f.as_object().expect("a finding is an object");
            let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "action",
                    "basis",
                    "confidence",
                    "container",
                    "evidence",
                    "headline",
                    "rule",
                    "severity"
                ],
                "{case}: {f}"
            );
            assert!(
                ["error", "warning", "info"].contains(&f["severity"].as_str().unwrap_or("")),
                "{case}: {f}"
            );
            assert!(
                ["certain", "likely"].contains(&f["confidence"].as_str().unwrap_or("")),
                "{case}: {f}"
            );
            for e in f["evidence"].as_array().expect("evidence is an array") {
                assert!(
                    [
                        "field", "event", "log", "spec", "lookup", "metric", "absence"
                    ]
                    .contains(&e["kind"].as_str().unwrap_or("")),
                    "{case}: {e}"
                );
                assert!(
                    e["source"].is_string() && e["text"].is_string(),
                    "{case}: {e}"
                );
            }
            assert!(
                f["headline"].is_string() && f["rule"].is_string(),
                "{case}: {f}"
            );
        }
        // The rest of the document is as it was.
        for key in ["pod", "containers", "conditions", "events"] {
            assert!(doc.get(key).is_some(), "{case}: {key}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_text_starts_with_the_diagnosis() {
    let (sim, exp, ns) = common::sim::start_case(OOM, &[]).await;
    let out = tokio::task::block_in_place(|| {
        once(sim.kubeconfig_path(), &ns, &exp.name, exp.now, "text")
    });
    sim.shutdown().await;
    let text = stdout(&out);
    assert!(text.starts_with("Diagnosis:\n"), "{text}");
    let pod_at = text
        .find("\nPod data/coord-2\n")
        .expect("the pod section follows");
    for line in text[..pod_at].lines().skip(1) {
        assert!(
            line.is_empty() || line.starts_with("  "),
            "diagnosis lines are indented: {line:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_the_previous_tail_of_restarted_containers() {
    let (sim, exp, ns) = common::sim::start_case(OOM, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let snap = podscope::cluster::one_shot::read_snapshot(&target)
        .await
        .expect("snapshot");
    let tail = snap
        .log_tails
        .previous
        .get("coord")
        .expect("coord's tail read");
    assert_eq!(tail.restart_count, 5);
    assert_eq!(tail.lines, Ok(previous_log_tail(OOM, 20)));
    assert_eq!(
        snap.log_tails.previous.len(),
        1,
        "only restarted containers"
    );
    assert!(snap.log_tails.current.is_empty());
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_answer_absent_and_forbidden_as_answers() {
    let (sim, exp, ns) = common::sim::start_case(OOM, &[("get", "secrets")]).await;
    let client = common::sim::client(&sim).await;
    let secret = look_up(client.clone(), &ns, &ObjectRef::Secret("db-creds".into())).await;
    match secret {
        Lookup::Forbidden(reason) => assert!(
            reason.contains(r#"secrets "db-creds" is forbidden"#)
                && reason.contains(&format!(r#"in the namespace "{ns}""#)),
            "{reason}"
        ),
        other => panic!("expected Forbidden, got {other:?}"),
    }
    for object in [
        ObjectRef::ConfigMap("app-config".into()),
        ObjectRef::PersistentVolumeClaim("data-coord-2".into()),
        ObjectRef::Node("node-a".into()),
    ] {
        assert_eq!(
            look_up(client.clone(), &ns, &object).await,
            Lookup::Absent,
            "{object:?}"
        );
    }
    // The 404 is the API server's Status, naming the object.
    let raw = common::sim::raw_get(&sim, &format!("/api/v1/namespaces/{ns}/configmaps/x")).await;
    assert!(raw.starts_with("HTTP/1.1 404"), "{raw}");
    assert!(
        raw.contains(r#""reason":"NotFound""#) && raw.contains(r#"configmaps \"x\" not found"#),
        "{raw}"
    );
    // A refusal of secrets does not fail `--once`.
    let out = tokio::task::block_in_place(|| {
        common::sim::podscope_once(sim.kubeconfig_path(), &ns, &exp.name, exp.now)
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    sim.shutdown().await;
}

/// Applies every message of the session to `state` (executing the commands `update` returns)
/// until `done(state)`; at most 20 s.
async fn pump_until(
    state: &mut State,
    rx: &mut tokio::sync::mpsc::Receiver<Msg>,
    session: &mut Session,
    seen: &mut Vec<Cmd>,
    done: impl Fn(&State) -> bool,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while !done(state) {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .expect("condition reached in 20 s")
            .expect("channel open");
        for cmd in update(state, msg) {
            session.execute(&cmd);
            seen.push(cmd);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_reads_the_previous_tail_once_through_its_session() {
    let (sim, exp, ns) = common::sim::start_case(OOM, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let mut state = State::new(
        &ns,
        &exp.name,
        exp.now,
        podscope::ui::theme::Theme::monochrome(),
    );
    let mut session = Session::start(target, tx);
    let mut seen = Vec::new();
    pump_until(&mut state, &mut rx, &mut session, &mut seen, |s| {
        s.target.log_tails.previous.contains_key("coord")
    })
    .await;
    let tail = &state.target.log_tails.previous["coord"];
    assert_eq!(tail.restart_count, 5);
    assert_eq!(tail.lines, Ok(previous_log_tail(OOM, 20)));
    let reads: Vec<&Cmd> = seen
        .iter()
        .filter(|c| matches!(c, Cmd::ReadLogTail { .. }))
        .collect();
    assert_eq!(
        reads,
        [&Cmd::ReadLogTail {
            container: "coord".into(),
            previous: true,
            restart_count: 5
        }]
    );
    // A lookup through the session comes back as an answer too.
    let object = ObjectRef::Secret("db-creds".into());
    state.target.evidence.lookups.insert(object.clone());
    session.execute(&Cmd::Lookup(object.clone()));
    pump_until(&mut state, &mut rx, &mut session, &mut seen, |s| {
        s.target.related.contains_key(&object)
    })
    .await;
    assert_eq!(state.target.related[&object], Lookup::Absent);
    session.execute(&Cmd::Quit);
    sim.shutdown().await;
}

/// Every bidirectional embedding, override and isolate, and ESC.
const RAW: [char; 10] = [
    '\u{1b}', '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}',
    '\u{2068}', '\u{2069}',
];

fn strings_in(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings_in(x, out)),
        serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings_in(x, out);
        }),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_escape_or_bidi_override_reaches_once_output() {
    // Case 04 with a termination message and a last log line carrying an RLO and escapes.
    let src = common::cluster::cases_dir().join(OOM);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut pod: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src.join("pod.json")).expect("pod.json"))
            .expect("JSON");
    let evil = "heap \u{202e}731 edoc tixe\u{202c} \u{1b}[2J\u{1b}]0;pwned\u{7} \u{2067}x\u{2069}";
    pod["status"]["containerStatuses"][0]["lastState"]["terminated"]["message"] = evil.into();
    std::fs::write(dir.path().join("pod.json"), pod.to_string()).expect("write");
    for f in ["events.json", "expected.md"] {
        std::fs::copy(src.join(f), dir.path().join(f)).expect("copy");
    }
    let log = std::fs::read_to_string(src.join("logs-previous.txt")).expect("log");
    std::fs::write(
        dir.path().join("logs-previous.txt"),
        format!("{log}FATAL {evil}\n"),
    )
    .expect("write");
    let now = common::cases::expected(OOM).now;
    let sim = Simulator::start(SimConfig {
        fixtures: vec![dir.path().to_path_buf()],
        clock: SimClock::Frozen(now),
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let (text, json) = tokio::task::block_in_place(|| {
        (
            stdout(&once(sim.kubeconfig_path(), "data", "coord-2", now, "text")),
            stdout(&once(sim.kubeconfig_path(), "data", "coord-2", now, "json")),
        )
    });
    sim.shutdown().await;
    for c in RAW {
        assert!(!text.contains(c), "text has a raw {c:?}:\n{text}");
        assert!(!json.contains(c), "JSON has a raw {c:?}");
    }
    // Neutralised, not dropped: the message is there with its stand-ins.
    assert!(
        text.contains("heap \u{fffd}731 edoc tixe\u{fffd} ␛[2J␛]0;pwned␇ \u{fffd}x\u{fffd}"),
        "{text}"
    );
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let mut strings = Vec::new();
    strings_in(&doc, &mut strings);
    for s in &strings {
        assert!(
            !s.chars().any(|c| RAW.contains(&c)),
            "decoded JSON string {s:?}"
        );
    }
    assert_eq!(
        doc["containers"][0]["lastState"]["terminated"]["message"],
        "heap \u{fffd}731 edoc tixe\u{fffd} ␛[2J␛]0;pwned␇ \u{fffd}x\u{fffd}"
    );
}
