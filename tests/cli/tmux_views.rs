//! The YAML and describe views on a real terminal (tmux), attached to the simulator's `hello`
//! pod: `y` shows the object (`apiVersion: v1`, `kind: Pod`), `/readinessProbe` + Enter scrolls
//! to it, Esc returns to the pod view; `D` shows `kubectl describe pod`'s sections from
//! `Name:` to `Events:`.

use crate::common;
use common::sim::{scenario, wait_pod};
use common::tmux::{Session, keys, missing, new_session, wait_for};
use podscope::sim::{SimConfig, Simulator};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn y_and_d_show_the_pod_as_yaml_and_as_describe() {
    if missing("the YAML and describe views in tmux") {
        return;
    }
    let sim = Simulator::start(SimConfig {
        scenarios: vec![scenario("hello.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 60, |p| p.status.is_some()).await;
    let session = format!("podscope-views-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} hello",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display()
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        wait_for(&session, "the pod view", 30, |s| {
            s.contains("render-config")
        });

        keys(&session, "y");
        let yaml = wait_for(&session, "the YAML view", 10, |s| {
            s.contains(" YAML  default/hello  resourceVersion ")
        });
        let rows: Vec<&str> = yaml.lines().collect();
        assert_eq!(rows[1].trim_end(), "apiVersion: v1", "{yaml}");
        assert_eq!(rows[2].trim_end(), "kind: Pod", "{yaml}");

        keys(&session, "/");
        keys(&session, "readinessProbe");
        keys(&session, "Enter");
        let found = wait_for(&session, "the search's match", 10, |s| {
            s.lines()
                .nth(1)
                .is_some_and(|l| l.trim() == "readinessProbe:")
        });
        assert!(
            found
                .lines()
                .next()
                .is_some_and(|t| t.contains("\"readinessProbe\" 1/")),
            "{found}"
        );

        keys(&session, "Escape");
        wait_for(&session, "the pod view again", 10, |s| {
            !s.contains(" YAML  default/hello") && s.contains("render-config")
        });

        keys(&session, "D");
        let describe = wait_for(&session, "the describe view", 10, |s| {
            s.contains(" describe  default/hello")
        });
        let rows: Vec<&str> = describe.lines().collect();
        assert!(
            rows[1].starts_with("Name:") && rows[1].contains("hello"),
            "{describe}"
        );
        keys(&session, "G");
        wait_for(&session, "the end of describe", 10, |s| {
            s.lines().any(|l| l.starts_with("Events:"))
        });
    });
}
