//! The pending-deletion diagnosis (`model::deletion`) on case 21 (a Job pod held by the
//! job-tracking finalizer after its Job was deleted) and on variations of it.

use crate::common;
use jiff::Timestamp;
use podscope::model::deletion::{OwnerStatus, diagnose, owner_check_needed};

const CASE: &str = "21-terminating-job-tracking-finalizer";

fn now() -> Timestamp {
    common::cases::expected(CASE).now
}

#[test]
fn case_21_names_the_finalizer_the_owner_and_the_fix() {
    let pod = common::cases::pod(CASE);
    assert_eq!(pod.finalizers, ["batch.kubernetes.io/job-tracking"]);
    let owner = owner_check_needed(&pod).expect("a finalizer and an owner: worth a GET");
    assert_eq!(
        (
            owner.api_version.as_str(),
            owner.kind.as_str(),
            owner.name.as_str()
        ),
        ("batch/v1", "Job", "cron-sync-28194180")
    );
    assert_eq!(owner.uid, "0dc854c7-70c1-568c-9f22-6e2630868e20");

    // deletionTimestamp 2023-08-09T03:10:00Z, snapshot 2023-08-11T06:10:00Z.
    let gone = diagnose(&pod, &OwnerStatus::Gone, now()).expect("deletion pending");
    assert_eq!(
        gone.headline,
        "deleted 2d3h ago, held by finalizer batch.kubernetes.io/job-tracking; \
         owner Job cron-sync-28194180 is gone: nothing will remove it"
    );
    assert_eq!(
        gone.hint.as_deref(),
        Some(
            "to release it: kubectl patch pod cron-sync-28194180-hgdzc -n reports --type=json \
             -p '[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]'"
        )
    );

    let exists = diagnose(&pod, &OwnerStatus::Exists, now()).expect("deletion pending");
    assert!(
        exists
            .headline
            .ends_with("; owner Job cron-sync-28194180 exists and should remove it"),
        "{exists:?}"
    );
    assert_eq!(exists.hint, None, "a live owner may still be working on it");

    let unknown = diagnose(&pod, &OwnerStatus::Unknown, now()).expect("deletion pending");
    assert!(unknown.headline.ends_with("; owner Job cron-sync-28194180"));
    let failed = OwnerStatus::Failed("forbidden".to_owned());
    let failed = diagnose(&pod, &failed, now()).expect("deletion pending");
    assert!(
        failed.headline.ends_with("(cannot check: forbidden)"),
        "{failed:?}"
    );
}

#[test]
fn grace_period_and_missing_kubelet_confirmation() {
    let mut pod = common::cases::pod(CASE);
    pod.finalizers.clear();
    assert!(
        owner_check_needed(&pod).is_none(),
        "no finalizer: nothing to ask the owner"
    );
    let deleted = pod.deletion_timestamp.expect("deletionTimestamp");
    let before = deleted - jiff::SignedDuration::from_secs(20);
    let grace = diagnose(&pod, &OwnerStatus::Unknown, before).expect("deletion pending");
    assert_eq!(
        grace.headline,
        "terminating: grace period ends in 20s (then SIGKILL)"
    );
    let stuck = diagnose(&pod, &OwnerStatus::Unknown, now()).expect("deletion pending");
    assert_eq!(
        stuck.headline,
        "deleted 2d3h ago, still present: the kubelet on node-l2 has not confirmed the stop \
         (node unreachable?)"
    );
    pod.deletion_timestamp = None;
    assert_eq!(diagnose(&pod, &OwnerStatus::Gone, now()), None);
}
