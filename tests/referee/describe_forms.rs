//! The describe sections' less common forms (`tests/describe_support/forms.yaml`: host ports,
//! every env form, envFrom with a prefix, resources, subPath mounts, each volume type, readiness
//! gates, long and multi-line annotations, seccomp, exec/tcp/grpc probes, tolerations with
//! tolerationSeconds, topology spread, quantities in non-canonical forms) applied to the
//! simulator: our text equals every
//! `kubectl describe pod` 1.27 … 1.33 beside `kubectl` line for line (ages masked), and the
//! lines kubectl's rules give are asserted one by one.

use crate::common;
use crate::describe_support;
use std::path::Path;

use common::cluster::{kubectl_versions, run_file};
use common::sim::{client, start_dynamic_for_kubectl};
use describe_support::{compare, describe_pair, read};
use podscope::model::EventSummary;
use podscope::model::describe::{Layout, describe_pod};

fn forms() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/describe_support/forms.yaml")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uncommon_forms_match_every_kubectl_line_for_line() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(10.0).await else {
        return;
    };
    let (ok, _, err) = run_file(&sim, cache.path(), "apply", &forms()).await;
    assert!(ok, "apply: {err}");
    let client = client(&sim).await;
    // Wait for the scheduler's verdict on `forms` (its claim does not exist) and for
    // `unschedulable` to have a status.
    let store = sim.store();
    common::sim::wait_pod(&store, "forms", 30, |p| {
        p.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|c| c.iter().any(|c| c.type_ == "PodScheduled"))
    })
    .await;
    common::sim::wait_pod(&store, "unschedulable", 30, |p| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()).is_some()
    })
    .await;
    let mut failures = Vec::new();
    common::sim::wait_pod(&store, "quantities", 30, |p| {
        p.status.as_ref().and_then(|s| s.phase.as_deref()).is_some()
    })
    .await;
    for name in ["forms", "unschedulable", "quantities"] {
        for (v, bin) in kubectl_versions() {
            let Some(minor) = v.strip_prefix("1.").and_then(|m| m.parse().ok()) else {
                continue;
            };
            let layout = Layout {
                kubectl_minor: minor,
            };
            let (ours, theirs) = describe_pair(
                &client,
                &bin,
                layout,
                sim.kubeconfig_path(),
                cache.path(),
                "default",
                name,
            )
            .await;
            if let Err(e) = compare(&ours, &theirs) {
                failures.push(format!("{name} (kubectl {v}): {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    // The lines themselves, as kubectl's describe.go writes them.
    let (pod, events) = read(&client, "default", "forms").await;
    let events: Vec<EventSummary> = events.iter().map(EventSummary::from_event).collect();
    let text = describe_pod(&pod, &events, jiff::Timestamp::now());
    let lines: Vec<&str> = text.lines().collect();
    let has = |want: &str| assert!(lines.contains(&want), "no line {want:?} in\n{text}");
    has("Node:             <none>");
    has("IP:               ");
    has("IPs:              <none>");
    has("SeccompProfile:   RuntimeDefault");
    has(
        "                    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...",
    );
    has("                  example.com/multi-line:");
    has("                    second line");
    has("    Ports:           8080/TCP, 9090/UDP");
    has("    Host Ports:      30080/TCP, 0/UDP");
    has("      --banner=one");
    has("      two");
    has(
        "    Liveness:   exec [cat /tmp/healthy] delay=5s timeout=1s period=10s #success=1 #failure=3",
    );
    has("    Readiness:  tcp-socket :8080 delay=0s timeout=1s period=10s #success=1 #failure=3");
    has(
        "    Startup:    grpc <pod>:9090 health delay=0s timeout=1s period=10s #success=1 #failure=3",
    );
    has("      forms-config  ConfigMap with prefix 'CFG_'  Optional: true");
    has("      MULTI:         line one");
    has("                     line two");
    has("      MEM_LIMIT_MI:  64 (limits.memory)");
    has("      CPU_LIMIT:     node allocatable (limits.cpu)");
    has("      CPU_REQUEST:   250 (requests.cpu)");
    has(
        "      PASSWORD:      <set to the key 'password' in secret 'forms-secret'>  Optional: true",
    );
    has("      /scratch from scratch (rw,path=\"app\")");
    has("  example.com/feature-ready   <none> ");
    has("    SizeLimit:  1Gi");
    has("    HostPathType:  Directory");
    has("    TokenExpirationSeconds:  7200");
    has("      limits.memory -> mem");
    has("QoS Class:                    Burstable");
    has("                              example.com/flaky:NoExecute op=Exists for 60s");
    has(
        "Topology Spread Constraints:  kubernetes.io/hostname:ScheduleAnyway when max skew 1 is exceeded for selector app=forms",
    );

    // Quantities as `Quantity.String()` prints them, whatever the manifest wrote.
    let (pod, _) = read(&client, "default", "quantities").await;
    let text = describe_pod(&pod, &[], jiff::Timestamp::now());
    let runs: Vec<&str> = text.lines().collect();
    for want in [
        "      cpu:                500m",
        "      ephemeral-storage:  1536Mi",
        "      memory:             1Gi",
        "      cpu:                1",
        "      ephemeral-storage:  1200k",
        "      memory:             1e6",
        "    SizeLimit:  2Gi",
    ] {
        assert!(runs.contains(&want), "no line {want:?} in\n{text}");
    }
}
