//! The choice rule: trouble levels on built pods, the rollout preference, ties, deleting pods,
//! and the glyph row.

use crate::workload_support;
use podscope_model::workload::choice::{Trouble, choose, sort_by_trouble, trouble};
use podscope_model::workload::header::glyphs;
use podscope_model::workload::summary::from_deployment;
use serde_json::json;
use workload_support::{deployment, pod, replica_set, running, terminated, waiting};

#[test]
fn each_level_is_read_from_the_pod() {
    let level = |phase: &str, state, ready| trouble(&pod("p", "h", 1, phase, state, ready).pod);
    assert_eq!(
        level("Running", waiting("CrashLoopBackOff"), false),
        Trouble::Waiting
    );
    assert_eq!(
        level("Pending", waiting("ImagePullBackOff"), false),
        Trouble::Waiting
    );
    assert_eq!(level("Running", terminated(1), false), Trouble::Failed);
    assert_eq!(level("Failed", terminated(0), false), Trouble::Failed);
    assert_eq!(
        level("Pending", waiting("ContainerCreating"), false),
        Trouble::Pending
    );
    assert_eq!(level("Running", running(), false), Trouble::NotReady);
    assert_eq!(level("Running", running(), true), Trouble::Running);
    assert_eq!(level("Succeeded", terminated(0), false), Trouble::Running);
    assert!(Trouble::Waiting < Trouble::Failed && Trouble::NotReady < Trouble::Running);
}

#[test]
fn most_trouble_wins_then_newest_then_name() {
    let pods = vec![
        pod("web-a", "7d9f8", 1, "Running", running(), true),
        pod("web-b", "7d9f8", 2, "Running", running(), false),
        pod(
            "web-c",
            "7d9f8",
            3,
            "Pending",
            waiting("ContainerCreating"),
            false,
        ),
        pod("web-d", "7d9f8", 4, "Running", running(), true),
    ];
    assert_eq!(choose(&pods, None), Some(2));
    let healthy = vec![
        pod("web-a", "7d9f8", 1, "Running", running(), true),
        pod("web-d", "7d9f8", 4, "Running", running(), true),
        pod("web-b", "7d9f8", 4, "Running", running(), true),
    ];
    assert_eq!(choose(&healthy, None), Some(2), "newest, then by name");
    assert_eq!(choose(&[], None), None);
}

#[test]
fn a_rollout_prefers_the_new_replica_sets_pods_and_deleting_pods_rank_last() {
    let sets = [
        replica_set("7d9f8", 2, "1.0", "8080", 2, 0),
        replica_set("6c8f9", 3, "1.1", "abc", 2, 0),
    ];
    let summary = from_deployment(&deployment(json!({})), &sets);
    // Equal trouble (both pending): the new ReplicaSet's pod, although older.
    let pods = vec![
        pod(
            "web-old",
            "7d9f8",
            5,
            "Pending",
            waiting("ContainerCreating"),
            false,
        ),
        pod(
            "web-new",
            "6c8f9",
            1,
            "Pending",
            waiting("ContainerCreating"),
            false,
        ),
    ];
    assert_eq!(choose(&pods, None), Some(0), "without the rollout: newest");
    assert_eq!(choose(&pods, Some(&summary)), Some(1));
    // The crash-looping new pod wins over healthy old ones.
    let pods = vec![
        pod("web-old-1", "7d9f8", 1, "Running", running(), true),
        pod(
            "web-new-1",
            "6c8f9",
            3,
            "Running",
            waiting("CrashLoopBackOff"),
            false,
        ),
        pod("web-old-2", "7d9f8", 2, "Running", running(), true),
    ];
    assert_eq!(choose(&pods, Some(&summary)), Some(1));
    // A pod going away ranks after live ones, however bad it looks.
    let mut leaving = pod(
        "web-gone",
        "6c8f9",
        6,
        "Running",
        waiting("CrashLoopBackOff"),
        false,
    );
    leaving.pod.deletion_timestamp = Some("2024-06-03T07:30:00Z".parse().expect("time"));
    let pods = vec![
        leaving,
        pod("web-ok", "6c8f9", 1, "Running", running(), true),
    ];
    assert_eq!(choose(&pods, Some(&summary)), Some(1));
    let g = glyphs(&pods);
    assert_eq!((g[0].deleting, g[0].symbol()), (true, '○'));
    assert_eq!((g[1].trouble, g[1].symbol()), (Trouble::Running, '●'));
}

#[test]
fn sort_by_trouble_puts_the_worst_first() {
    let mut pods = vec![
        pod("a", "h", 1, "Running", running(), true),
        pod("b", "h", 1, "Running", terminated(2), false),
        pod("c", "h", 1, "Running", waiting("ErrImagePull"), false),
        pod("d", "h", 1, "Running", running(), false),
    ];
    sort_by_trouble(&mut pods);
    let names: Vec<_> = pods.iter().map(|p| p.pod.name.as_str()).collect();
    assert_eq!(names, ["c", "b", "d", "a"]);
    assert_eq!(pods[0].hash.as_deref(), Some("h"));
}
