//! Watch semantics against the simulator: kube-rs `watcher` sees `update_pod`, a stale RV gets the
//! 200 + ERROR 410 Expired event (raw HTTP), the kube watcher relists after 410, and
//! `kubectl get pod -w` prints the modified STATUS.

use crate::common;
use std::time::Duration;

use common::cluster::{case, kubectl, name_ns};
use common::sim::{client, raw_get, start_frozen, wait_watchers};
use common::wait::wait_until;
use futures::StreamExt;
use futures::stream::BoxStream;
use k8s_openapi::api::core::v1::{ContainerState, ContainerStateRunning, Pod};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::Api;
use kube::runtime::watcher::{self, Event};
use podscope::sim::{Simulator, load_fixture};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};

/// The simulator serving case 01 (clock frozen at its snapshot), and its pod's namespace and name.
async fn start_case01() -> (Simulator, String, String) {
    let dir = case("01-");
    let (name, ns) = name_ns(&dir);
    (start_frozen(&[dir]).await, ns, name)
}

/// A kube-rs watcher with `cfg` on pod `ns/name` of `sim` (a field selector on the name).
async fn watch_pod(
    sim: &Simulator,
    ns: &str,
    name: &str,
    cfg: watcher::Config,
) -> BoxStream<'static, Result<Event<Pod>, watcher::Error>> {
    let api: Api<Pod> = Api::namespaced(client(sim).await, ns);
    watcher::watcher(api, cfg.fields(&format!("metadata.name={name}"))).boxed()
}

/// Marks the first container Running (it was waiting in CrashLoopBackOff).
fn make_running(pod: &mut Pod) {
    let started = pod
        .metadata
        .creation_timestamp
        .clone()
        .map(|t| t.0)
        .expect("created");
    if let Some(cs) = pod
        .status
        .as_mut()
        .and_then(|s| s.container_statuses.as_mut())
    {
        cs[0].state = Some(ContainerState {
            running: Some(ContainerStateRunning {
                started_at: Some(Time(started)),
            }),
            ..ContainerState::default()
        });
    }
}

fn waiting_reason(pod: &Pod) -> Option<String> {
    pod.status.as_ref()?.container_statuses.as_ref()?[0]
        .state
        .as_ref()?
        .waiting
        .as_ref()?
        .reason
        .clone()
}

/// The watcher's next event (at most 10 s), which must not be an error.
async fn next_event<K, S>(stream: &mut S) -> Event<K>
where
    S: futures::Stream<Item = Result<Event<K>, watcher::Error>> + Unpin,
{
    tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("watcher yields within 10 s")
        .expect("stream continues")
        .expect("no watcher error")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_watcher_sees_update_pod() {
    let (sim, ns, name) = start_case01().await;
    let mut stream = watch_pod(&sim, &ns, &name, watcher::Config::default()).await;
    assert!(matches!(next_event(&mut stream).await, Event::Init));
    match next_event(&mut stream).await {
        Event::InitApply(p) => assert_eq!(waiting_reason(&p).as_deref(), Some("CrashLoopBackOff")),
        other => panic!("expected InitApply, got {other:?}"),
    }
    assert!(matches!(next_event(&mut stream).await, Event::InitDone));
    // The watcher opens its watch while the stream is polled for the next event: modify once
    // it is open, so the change arrives live (not replayed from the history).
    let store = sim.store();
    let (ns2, name2) = (ns.clone(), name.clone());
    tokio::spawn(async move {
        let open = wait_until(Duration::from_secs(20), || store.watchers() >= 1).await;
        assert!(open, "the kube watcher did not open its watch");
        store
            .update_pod(&ns2, &name2, make_running)
            .expect("pod exists");
    });
    match next_event(&mut stream).await {
        Event::Apply(p) => {
            assert_eq!(waiting_reason(&p), None);
            assert_eq!(
                p.metadata.resource_version,
                Some(sim.store().resource_version().to_string())
            );
        }
        other => panic!("expected Apply, got {other:?}"),
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_resource_version_gets_410_and_kube_watcher_relists() {
    let (sim, ns, name) = start_case01().await;
    let mut stream = watch_pod(&sim, &ns, &name, watcher::Config::default()).await;
    assert!(matches!(next_event(&mut stream).await, Event::Init));
    assert!(matches!(next_event(&mut stream).await, Event::InitApply(_)));
    assert!(matches!(next_event(&mut stream).await, Event::InitDone));
    // The watcher now holds the LIST's RV but has not opened its watch yet.
    let listed_rv = sim.store().resource_version();
    sim.store()
        .update_pod(&ns, &name, make_running)
        .expect("pod exists");
    sim.store().expire_history();
    let current = sim.store().resource_version();

    let raw = raw_get(
        &sim,
        &format!("/api/v1/namespaces/{ns}/pods?&watch=true&fieldSelector=metadata.name%3D{name}&resourceVersion={listed_rv}"),
    )
    .await;
    assert!(raw.starts_with("HTTP/1.1 200"), "status line: {raw}");
    let event: Value = raw
        .lines()
        .find(|l| l.starts_with('{'))
        .and_then(|l| serde_json::from_str(l).ok())
        .expect("one JSON event line");
    let want: Value = serde_json::json!({"type": "ERROR", "object": {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": format!("too old resource version: {listed_rv} ({current})"), "reason": "Expired", "code": 410}});
    assert_eq!(event, want);
    assert_eq!(
        raw.lines().filter(|l| l.starts_with('{')).count(),
        1,
        "only the ERROR event: {raw}"
    );

    // The kube watcher opens its watch at the listed RV, gets 410 and relists.
    let err = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("watcher yields")
        .expect("stream continues");
    assert!(
        format!("{err:?}").contains("410"),
        "expected a 410 watch error, got {err:?}"
    );
    assert!(matches!(next_event(&mut stream).await, Event::Init));
    match next_event(&mut stream).await {
        Event::InitApply(p) => assert_eq!(waiting_reason(&p), None, "relist shows the updated pod"),
        other => panic!("expected InitApply, got {other:?}"),
    }
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_bookmarks_and_timeout() {
    let (sim, ns, name) = start_case01().await;
    let rv = sim.store().resource_version();
    let raw = raw_get(
        &sim,
        &format!("/api/v1/namespaces/{ns}/pods?&watch=1&timeoutSeconds=4&fieldSelector=metadata.name%3D{name}&allowWatchBookmarks=true&resourceVersion={rv}"),
    )
    .await;
    let events: Vec<Value> = raw
        .lines()
        .filter(|l| l.starts_with('{'))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    // Bookmarks come once a minute, and once 2 s before the watch's deadline.
    assert_eq!(
        events.len(),
        1,
        "one bookmark 2 s before the 4 s deadline: {raw}"
    );
    for e in &events {
        assert_eq!(e["type"], "BOOKMARK");
        assert_eq!(e["object"]["kind"], "Pod");
        assert_eq!(e["object"]["apiVersion"], "v1");
        // The RV the server has reached: the watch's start or later (other objects — the
        // namespace controller's, the node's Lease — change meanwhile).
        let at: u64 = e["object"]["metadata"]["resourceVersion"]
            .as_str()
            .and_then(|v| v.parse().ok())
            .expect("bookmark resourceVersion");
        assert!(at >= rv, "bookmark at {at}, watch from {rv}");
    }
    let initial = raw_get(
        &sim,
        &format!("/api/v1/namespaces/{ns}/pods?watch=true&sendInitialEvents=true&timeoutSeconds=1"),
    )
    .await;
    assert!(
        initial.starts_with("HTTP/1.1 400"),
        "sendInitialEvents without bookmarks: {initial}"
    );
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_get_watch_shows_modified_status() {
    let Some(bin) = kubectl() else {
        return;
    };
    let (sim, ns, name) = start_case01().await;
    let cache = tempfile::tempdir().expect("tempdir");
    let mut child = tokio::process::Command::new(bin)
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .arg("--cache-dir")
        .arg(cache.path())
        .args(["get", "pod", &name, "-n", &ns, "-w"])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("kubectl starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = async || {
        tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("kubectl prints within 20 s")
            .expect("reads")
            .expect("a line")
    };
    let header = next().await;
    assert!(header.starts_with("NAME"), "header: {header}");
    let first = next().await;
    assert_eq!(
        first.split_whitespace().nth(2),
        Some("CrashLoopBackOff"),
        "row: {first}"
    );
    // kubectl lists, prints, then opens its watch (and skips the watch's initial ADDED): modify
    // once the watch is open.
    wait_watchers(&sim, 1).await;
    sim.store()
        .update_pod(&ns, &name, make_running)
        .expect("pod exists");
    let second = next().await;
    let cells: Vec<&str> = second.split_whitespace().collect();
    assert_eq!(cells.first(), Some(&name.as_str()), "row: {second}");
    assert_eq!(cells.get(1), Some(&"0/1"), "row: {second}");
    assert_eq!(cells.get(2), Some(&"Running"), "row: {second}");
    child.kill().await.expect("kill kubectl");
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streaming_list_watcher_gets_initial_events_and_end_bookmark() {
    let (sim, ns, name) = start_case01().await;
    let cfg = watcher::Config::default().streaming_lists();
    let mut stream = watch_pod(&sim, &ns, &name, cfg).await;
    assert!(matches!(next_event(&mut stream).await, Event::Init));
    match next_event(&mut stream).await {
        Event::InitApply(p) => assert_eq!(p.metadata.name.as_deref(), Some(name.as_str())),
        other => panic!("expected InitApply, got {other:?}"),
    }
    assert!(matches!(next_event(&mut stream).await, Event::InitDone));
    sim.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_watch_honours_involved_object_selector() {
    use k8s_openapi::api::core::v1::{Event as CoreEvent, ObjectReference};
    let (sim, ns, name) = start_case01().await;
    let api: Api<CoreEvent> = Api::namespaced(client(&sim).await, &ns);
    let uid = sim
        .store()
        .pod(&ns, &name)
        .and_then(|p| p.metadata.uid)
        .expect("uid");
    let selector = format!(
        "involvedObject.name={name},involvedObject.namespace={ns},involvedObject.uid={uid}"
    );
    let mut stream = watcher::watcher(api, watcher::Config::default().fields(&selector)).boxed();
    let mut initial = 0;
    loop {
        match next_event(&mut stream).await {
            watcher::Event::Init => {}
            watcher::Event::InitApply(_) => initial += 1,
            watcher::Event::InitDone => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    let fx = load_fixture(&case("01-")).expect("fixture");
    assert_eq!(
        initial,
        fx.events.len(),
        "every fixture event is about the pod"
    );
    let about = |obj: &str| CoreEvent {
        metadata: kube::api::ObjectMeta {
            name: Some(format!("{obj}.test")),
            namespace: Some(ns.clone()),
            ..Default::default()
        },
        involved_object: ObjectReference {
            kind: Some("Pod".into()),
            name: Some(obj.into()),
            namespace: Some(ns.clone()),
            uid: Some(uid.clone()),
            ..Default::default()
        },
        reason: Some("Killing".into()),
        ..Default::default()
    };
    sim.store().add_event(about("someone-else")).expect("added");
    sim.store().add_event(about(&name)).expect("added");
    match next_event(&mut stream).await {
        watcher::Event::Apply(e) => {
            assert_eq!(e.involved_object.name.as_deref(), Some(name.as_str()))
        }
        other => panic!("expected Apply of the pod's event, got {other:?}"),
    }
    sim.shutdown().await;
}
