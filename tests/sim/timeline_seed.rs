//! The timeline of the seed's `crash` pod (`seeds/000`, the `kubectl get pod crash -w` table):
//! the kubelet model runs it for 60 virtual seconds, and every pod status it writes goes
//! through `timeline::observe` into a `History`, as the TUI does with its watch. The restarts
//! land where the seed's table shows them (RESTARTS 1 at AGE 5s, 2 at 20s, 3 at 43s) and the
//! waits between an exit and the next start are the back-off: 10 s, then 20 s.

use crate::common;
use crate::kubelet_crashloop::CRASH_POD;
use common::kubelet::*;
use podscope::model::PodSummary;
use podscope::model::timeline::{History, Kind, observe};
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
    let mut history = History::default();
    let mut last: Option<PodSummary> = None;
    for (at, change) in &tl {
        let Change::Pod(pod) = change else { continue };
        let now = PodSummary::from_pod(pod);
        if let Some(before) = &last {
            history.record(observe(before, &now, *at));
        }
        last = Some(now);
    }
    let entries: Vec<_> = history.entries().collect();
    assert!(
        entries
            .iter()
            .all(|e| !e.reconstructed && e.container.as_deref() != Some("x"))
    );

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
