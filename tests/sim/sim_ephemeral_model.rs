//! The pure kubelet model on a virtual clock: an ephemeral container starts while an init
//! container still runs, runs its command once and stays terminated; a new image kills and
//! restarts a container of a `restartPolicy: Never` pod (`docs/simulator-kubelet.md` §2, §4).

use crate::common;
use common::kubelet::*;
use k8s_openapi::api::core::v1::{ContainerStatus, EphemeralContainer, Pod};

const POD: &str = "
apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 2
  initContainers:
  - name: wait
    image: busybox:1.37
    command: [sh, -c, 'sleep 30']
  containers:
  - name: app
    image: busybox:1.36
    command: [sh, -c, 'echo v1; sleep infinity']
";

fn ephemeral(pod: &Pod, name: &str) -> ContainerStatus {
    pod.status
        .as_ref()
        .and_then(|s| s.ephemeral_container_statuses.as_ref())
        .and_then(|l| l.iter().find(|s| s.name == name))
        .cloned()
        .unwrap_or_else(|| panic!("no status for {name}"))
}

fn about<'a>(
    evs: &'a [(jiff::Timestamp, String, String, String, String, i32)],
    field_path: &str,
) -> Vec<(f64, &'a str, &'a str)> {
    evs.iter()
        .filter(|e| e.3 == field_path)
        .map(|e| {
            let t = (e.0 - t0()).total(jiff::Unit::Second).unwrap_or(-1.0);
            (t, e.2.as_str(), e.4.as_str())
        })
        .collect()
}

#[test]
fn an_ephemeral_container_runs_once_even_during_init() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(2.0), &mut tl);
    let mut pod = last_pod(&tl);
    pod.spec.as_mut().expect("spec").ephemeral_containers = Some(vec![EphemeralContainer {
        name: "dbg".into(),
        image: Some("busybox:1.37".into()),
        command: Some(vec!["sh".into(), "-c".into(), "echo hi".into()]),
        target_container_name: Some("app".into()),
        stdin: Some(true),
        ..Default::default()
    }]);
    let at = t0() + secs(2.0);
    for c in k.update(pod, at) {
        tl.push((at, c));
    }
    run_until(&mut k, t0() + secs(10.0), &mut tl);
    let pod = last_pod(&tl);
    assert_eq!(
        pod.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Pending")
    );
    let st = ephemeral(&pod, "dbg");
    let term = st
        .state
        .as_ref()
        .and_then(|s| s.terminated.clone())
        .expect("terminated");
    assert_eq!(
        (term.exit_code, term.reason.as_deref()),
        (0, Some("Completed"))
    );
    assert_eq!((st.restart_count, st.ready, st.started), (0, false, None));
    assert_eq!(st.last_state, Some(Default::default()));
    let init = pod
        .status
        .as_ref()
        .and_then(|s| s.init_container_statuses.as_ref())
        .expect("init")[0]
        .clone();
    assert_eq!(
        st.image_id, init.image_id,
        "the same image, the same imageID"
    );
    assert_eq!(
        logs(&tl, "dbg", 0)
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>(),
        ["hi"]
    );
    let evs = events(&tl);
    assert_eq!(
        about(&evs, "spec.ephemeralContainers{dbg}"),
        [
            (
                2.0,
                "Pulled",
                "Container image \"busybox:1.37\" already present on machine"
            ),
            (3.0, "Created", "Created container: dbg"),
            (3.0, "Started", "Started container dbg"),
        ]
    );
}

#[test]
fn a_new_image_kills_and_restarts_the_container() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    let yaml = POD.replace("'sleep 30'", "'true'");
    admit(&mut k, pod_from_yaml(&yaml), t0(), &mut tl);
    run_until(&mut k, t0() + secs(5.0), &mut tl);
    let mut pod = last_pod(&tl);
    assert_eq!(
        pod.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Running")
    );
    pod.spec.as_mut().expect("spec").containers[0].image = Some("busybox:1.37".into());
    let at = t0() + secs(5.0);
    for c in k.update(pod, at) {
        tl.push((at, c));
    }
    run_until(&mut k, t0() + secs(12.0), &mut tl);
    let pod = last_pod(&tl);
    let st = pod
        .status
        .as_ref()
        .and_then(|s| s.container_statuses.as_ref())
        .expect("statuses")[0]
        .clone();
    assert_eq!((st.image.as_str(), st.restart_count), ("busybox:1.37", 1));
    assert!(
        st.state.as_ref().is_some_and(|s| s.running.is_some()),
        "{st:?}"
    );
    let last = st
        .last_state
        .and_then(|s| s.terminated)
        .expect("lastState.terminated");
    // `sh` as PID 1 ignores SIGTERM: the SIGKILL after the 2 s grace period ends it.
    assert_eq!(
        (last.exit_code, last.reason.as_deref()),
        (137, Some("Error"))
    );
    assert_eq!(
        pod.status.as_ref().and_then(|s| s.phase.as_deref()),
        Some("Running")
    );
    let evs = events(&tl);
    let app = about(&evs, "spec.containers{app}");
    assert_eq!(
        app[app.len() - 4..],
        [
            (
                5.0,
                "Killing",
                "Container app definition changed, will be restarted"
            ),
            (
                8.0,
                "Pulled",
                "Container image \"busybox:1.37\" already present on machine"
            ),
            (9.0, "Created", "Created container: app"),
            (9.0, "Started", "Started container app"),
        ]
    );
    assert_eq!(
        logs(&tl, "app", 1)
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>(),
        ["v1"]
    );
}
