//! The timeline of the seed's `crash` pod (`seeds/000`, the `kubectl get pod crash -w` table):
//! the kubelet model runs it for 60 virtual seconds, and every pod status it writes goes
//! through `timeline::observe` into a `History`, as the TUI does with its watch. The restarts
//! land where the seed's table shows them (RESTARTS 1 at AGE 5s, 2 at 20s, 3 at 43s) and the
//! waits between an exit and the next start are the back-off: 10 s, then 20 s. The seed's
//! `hello` pod: render-config completes, proxy starts and passes its startup gate, then hello
//! starts, then the pod is Ready; deleted, hello stops after its 5 s preStop, then proxy.

use crate::common;
use crate::kubelet_crashloop::CRASH_POD;
use crate::kubelet_seed_hello::HELLO_POD;
use common::kubelet::*;
use podscope::model::PodSummary;
use podscope::model::timeline::{Entry, History, Kind, observe};
use podscope::sim::kubelet::Change;

/// Seconds after `t0` of `at`.
fn after_t0(at: jiff::Timestamp) -> i64 {
    at.duration_since(t0()).as_secs()
}

#[test]
fn the_crash_pods_restarts_and_back_off_gaps_are_on_the_timeline() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(CRASH_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(60.0), &mut tl);
    let entries = history_of(&tl);
    // Seen, not read back; about the pod or its one container.
    let about = |e: &Entry| matches!(e.container.as_deref(), None | Some("hello"));
    assert!(entries.iter().all(|e| !e.reconstructed && about(e)));

    // RESTARTS 1, 2, 3. The seed shows them at AGE 5s, 20s and 43s: its first restart comes at
    // once, the next two after the back-off plus "a few seconds until the kubelet gets to the
    // pod again" (its sync). The model restarts when the back-off ends, so its second and third
    // restarts come those seconds earlier (13 s and 33 s here; the seed's waits are 14 s
    // and 23 s from exit to start, the model's 10 s and 20 s, checked below).
    let restarts: Vec<(String, i64)> = entries
        .iter()
        .filter(|e| e.kind == Kind::Restart)
        .map(|e| (e.to.clone().unwrap_or_default(), after_t0(e.at)))
        .collect();
    let counts: Vec<&str> = restarts.iter().map(|(to, _)| to.as_str()).collect();
    assert_eq!(counts, ["1", "2", "3"], "{restarts:?}");
    let times: Vec<i64> = restarts.iter().map(|(_, at)| *at).collect();
    assert!(
        (times[0] - 5).abs() <= 2,
        "restart 1 at {}s, the seed shows 5s",
        times[0]
    );
    // Never later than the seed's: the model lacks only the sync delay, which adds up.
    assert!(times[1] <= 20 && times[2] <= 43, "restarts at {times:?}s");

    // Each exit (terminated, Error, exit 1) and the start after it: the first restart comes at
    // the next sync, the next two after the back-off of 10 s and 20 s.
    let mut gaps = Vec::new();
    let mut exited: Option<jiff::Timestamp> = None;
    for e in &entries {
        if e.kind != Kind::State {
            continue;
        }
        match e.to.as_deref() {
            Some("terminated") => {
                assert_eq!((e.reason.as_deref(), e.exit_code), (Some("Error"), Some(1)));
                exited = Some(e.at);
            }
            Some("running") => {
                if let Some(x) = exited.take() {
                    gaps.push(e.at.duration_since(x).as_secs());
                }
            }
            _ => {}
        }
    }
    assert_eq!(&gaps[..3], &[1, 10, 20], "exit-to-start gaps {gaps:?}");
    // Between them the container waits in CrashLoopBackOff, and each run flips ready.
    assert!(entries.iter().any(|e| e.kind == Kind::State
        && e.to.as_deref() == Some("waiting")
        && e.reason.as_deref() == Some("CrashLoopBackOff")));
    assert!(
        entries
            .iter()
            .filter(|e| e.kind == Kind::Ready && e.to.as_deref() == Some("true"))
            .count()
            >= 3
    );
}

/// The watch's history of `tl` (every pod status the kubelet model wrote, in order).
fn history_of(tl: &Timeline) -> Vec<Entry> {
    let mut history = History::default();
    let mut last: Option<PodSummary> = None;
    for (at, change) in tl {
        let Change::Pod(pod) = change else { continue };
        let now = PodSummary::from_pod(pod);
        if let Some(before) = &last {
            history.record(observe(before, &now, *at));
        }
        last = Some(now);
    }
    history.entries().cloned().collect()
}

/// The first entry about `container` (`None`: the pod) of `kind` changing to `to`, with
/// `reason` when given.
fn first<'a>(
    entries: &'a [Entry],
    container: Option<&str>,
    kind: Kind,
    to: &str,
    reason: Option<&str>,
) -> &'a Entry {
    entries
        .iter()
        .find(|e| {
            e.container.as_deref() == container
                && e.kind == kind
                && e.to.as_deref() == Some(to)
                && (reason.is_none() || e.reason.as_deref() == reason)
        })
        .unwrap_or_else(|| panic!("no {kind:?} → {to} of {container:?} in {entries:#?}"))
}

#[test]
fn the_hello_pods_start_order_and_termination_order_are_on_the_timeline() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(HELLO_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(40.0), &mut tl);
    let deleted_at = t0() + secs(40.0);
    for c in k.delete("default", "hello", None, deleted_at) {
        tl.push((deleted_at, c));
    }
    run_until(&mut k, deleted_at + secs(60.0), &mut tl);
    let h = history_of(&tl);

    // Start: the init container completes, the sidecar starts and passes its startupProbe,
    // only then the main container starts; the pod is Ready once hello is.
    let rendered = first(
        &h,
        Some("render-config"),
        Kind::State,
        "terminated",
        Some("Completed"),
    );
    assert_eq!(rendered.exit_code, Some(0));
    let proxy_runs = first(&h, Some("proxy"), Kind::State, "running", None);
    let proxy_started = first(&h, Some("proxy"), Kind::Ready, "true", Some("started"));
    let hello_runs = first(&h, Some("hello"), Kind::State, "running", None);
    let hello_ready = first(&h, Some("hello"), Kind::Ready, "true", None);
    let pod_ready = first(&h, None, Kind::Condition, "Ready=True", None);
    let order = [
        rendered,
        proxy_runs,
        proxy_started,
        hello_runs,
        hello_ready,
        pod_ready,
    ];
    assert!(
        order.windows(2).all(|w| w[0].at <= w[1].at),
        "start order: {:#?}",
        order
            .iter()
            .map(|e| (e.at, &e.container, e.kind, &e.to))
            .collect::<Vec<_>>()
    );
    assert!(
        proxy_started.at < hello_runs.at,
        "hello waits for the sidecar's startup gate"
    );

    // Delete: hello's preStop sleeps 5 s, then SIGTERM ends it; proxy is stopped after it.
    let hello_stops = first(&h, Some("hello"), Kind::State, "terminated", None);
    let proxy_stops = first(&h, Some("proxy"), Kind::State, "terminated", None);
    assert!(
        hello_stops.at >= deleted_at + secs(5.0),
        "preStop first: {hello_stops:?}"
    );
    assert!(
        proxy_stops.at >= hello_stops.at,
        "the sidecar last: {proxy_stops:?}"
    );
    assert!(
        proxy_stops.at < deleted_at + secs(30.0),
        "within terminationGracePeriodSeconds"
    );
}
