//! The live part against the simulator: the pod watch sees changes, deletion, re-creation with a
//! new UID and recovers from `410 Expired`; the events watch delivers the case's events.

use crate::common;
use std::time::Duration;

use k8s_openapi::api::core::v1::{Event, Pod};
use kube::Api;
use podscope::app::Msg;
use podscope::cluster::watch::{watch_events, watch_pod};
use tokio::sync::mpsc::{Receiver, channel};

const CASE: &str = "04-crashloop-oomkilled-jvm";

async fn next_matching(rx: &mut Receiver<Msg>, what: &str, f: impl Fn(&Msg) -> bool) -> Msg {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let msg = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
            .expect("channel open")
            .untagged();
        if f(&msg) {
            return msg;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pod_watch_follows_changes_deletion_recreation_and_expiry() {
    let dir = common::cluster::cases_dir().join(CASE);
    let (sim, exp, ns) = common::sim::start_case(CASE, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let (tx, mut rx) = channel(64);
    let api: Api<Pod> = Api::namespaced(target.client.clone(), &ns);
    let task = tokio::spawn(watch_pod(
        api,
        ns.clone(),
        exp.name.clone(),
        podscope::cluster::TargetTx::new(tx.clone(), podscope::app::generation::Generation::FIRST),
    ));

    // Initial list: the case's pod as kubectl prints it.
    let Msg::PodApplied(first) =
        next_matching(&mut rx, "initial pod", |m| matches!(m, Msg::PodApplied(_))).await
    else {
        unreachable!()
    };
    assert_eq!(first.print.status, exp.status);
    let uid = first.uid.clone();

    // The container restarts: the change arrives through the watch.
    sim.store()
        .update_pod(&ns, &exp.name, |pod| {
            let st = pod.status.as_mut().expect("status");
            let cs = &mut st.container_statuses.as_mut().expect("statuses")[0];
            cs.restart_count += 1;
            cs.state = Some(k8s_openapi::api::core::v1::ContainerState {
                running: Some(k8s_openapi::api::core::v1::ContainerStateRunning {
                    started_at: Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(
                        exp.now,
                    )),
                }),
                ..Default::default()
            });
        })
        .expect("pod updated");
    let Msg::PodApplied(changed) = next_matching(
        &mut rx,
        "modified pod",
        |m| matches!(m, Msg::PodApplied(p) if p.print.status == "Running"),
    )
    .await
    else {
        unreachable!()
    };
    assert_eq!(
        changed
            .containers
            .iter()
            .find(|c| c.name == changed.containers[0].name)
            .map(|c| c.restart_count),
        Some(6)
    );

    // History expires: the watcher gets 410, relists and carries on.
    sim.store().expire_history();
    sim.store()
        .update_pod(&ns, &exp.name, |pod| {
            pod.metadata
                .labels
                .get_or_insert_with(Default::default)
                .insert("touched".into(), "yes".into());
        })
        .expect("pod updated");
    next_matching(&mut rx, "pod after expiry", |m| {
        matches!(m, Msg::PodApplied(_))
    })
    .await;

    // Deleted: the last state arrives with the DELETED event.
    sim.store().delete_pod(&ns, &exp.name).expect("pod deleted");
    let Msg::PodDeleted(gone) =
        next_matching(&mut rx, "deletion", |m| matches!(m, Msg::PodDeleted(_))).await
    else {
        unreachable!()
    };
    assert_eq!(gone.uid, uid);

    // Re-created with a new UID: the watch reports the new instance.
    let mut pod: Pod =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("pod");
    pod.metadata.uid = Some("11111111-2222-3333-4444-555555555555".into());
    pod.metadata.resource_version = None;
    sim.store().create_pod(pod).expect("pod created");
    let Msg::PodApplied(again) = next_matching(&mut rx, "re-created pod", |m| {
        matches!(m, Msg::PodApplied(_))
    })
    .await
    else {
        unreachable!()
    };
    assert_eq!(again.uid, "11111111-2222-3333-4444-555555555555");

    task.abort();
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_watch_delivers_the_pods_events() {
    let dir = common::cluster::cases_dir().join(CASE);
    let (sim, exp, ns) = common::sim::start_case(CASE, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let raw: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("events.json")).expect("events.json"),
    )
    .expect("json");
    let pod: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pod.json")).expect("pod.json"))
            .expect("json");
    let uid = pod["metadata"]["uid"].as_str().expect("uid").to_owned();
    let want = raw["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|e| e["involvedObject"]["uid"] == uid.as_str())
        .count();
    let (tx, mut rx) = channel(64);
    let api: Api<Event> = Api::namespaced(target.client.clone(), &ns);
    let task = tokio::spawn(watch_events(
        api,
        ns.clone(),
        exp.name.clone(),
        uid,
        podscope::cluster::TargetTx::new(tx, podscope::app::generation::Generation::FIRST),
    ));
    let Msg::EventsReset(events) =
        next_matching(&mut rx, "events list", |m| matches!(m, Msg::EventsReset(_))).await
    else {
        unreachable!()
    };
    assert_eq!(events.len(), want);
    assert!(want > 0);
    task.abort();
    sim.shutdown().await;
}

/// The session carries out `Cmd::CheckOwner` for case 21: one GET of the Job the pod names,
/// which the simulator (storing no Jobs) answers 404, so the owner is reported gone; the same
/// owner is not asked for twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_asks_once_for_the_owner_of_a_pod_held_by_finalizers() {
    use podscope::app::{Cmd, State, update};
    use podscope::cluster::session::Session;
    use podscope::model::deletion::OwnerStatus;
    let case = "21-terminating-job-tracking-finalizer";
    let (sim, exp, ns) = common::sim::start_case(case, &[]).await;
    let target = common::sim::target(&sim, &ns, &exp.name).await;
    let (tx, mut rx) = channel(64);
    let mut state = State::new(
        &ns,
        &exp.name,
        exp.now,
        podscope::ui::theme::Theme::monochrome(),
    );
    let mut session = Session::start(target, tx);
    let mut asked = 0;
    while state.target.owner == OwnerStatus::Unknown {
        let msg = next_matching(&mut rx, "the owner's answer", |_| true).await;
        for cmd in update(&mut state, msg) {
            asked += usize::from(matches!(cmd, Cmd::CheckOwner { .. }));
            session.execute(&cmd);
        }
    }
    assert_eq!(state.target.owner, OwnerStatus::Gone);
    assert_eq!(asked, 1);
    session.execute(&Cmd::Quit);
    sim.shutdown().await;
}

/// `podscope helo -n prod`: the pod is not found, the namespace is asked about once, and the
/// simulator's 404 for `prod` marks it missing (while `default` exists).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_tells_a_missing_namespace_from_a_missing_pod() {
    use podscope::app::{State, update};
    use podscope::cluster::session::Session;
    let case = "21-terminating-job-tracking-finalizer";
    let (sim, exp, _) = common::sim::start_case(case, &[]).await;
    for (ns, missing) in [("prod", true), ("default", false)] {
        let target = common::sim::target(&sim, ns, "helo").await;
        let (tx, mut rx) = channel(64);
        let mut state = State::new(
            ns,
            "helo",
            exp.now,
            podscope::ui::theme::Theme::monochrome(),
        );
        let mut session = Session::start(target, tx);
        loop {
            let msg = next_matching(&mut rx, "the namespace's answer", |_| true).await;
            let answered = matches!(msg, podscope::app::Msg::NamespaceChecked { .. });
            for cmd in update(&mut state, msg) {
                session.execute(&cmd);
            }
            if answered {
                break;
            }
        }
        assert_eq!(state.target.namespace_missing, missing, "{ns}");
        session.execute(&podscope::app::Cmd::Quit);
    }
    sim.shutdown().await;
}
