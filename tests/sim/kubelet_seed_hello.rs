//! The seed article's `hello` pod (init render-config → native sidecar proxy gated by its
//! startupProbe → main hello): `kubectl get pod hello -w` rows, event order, conditions, logs,
//! and the delete timeline. Oracles: seeds/000_a32e298467e0f8f8.txt.

use crate::common;
use common::kubelet::*;
use podscope::sim::kubelet::{Change, EventWording};

/// hello-pod.yaml, verbatim from the seed.
pub(crate) const HELLO_POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: hello
  labels:
    app.kubernetes.io/name: hello
  annotations:
    kubectl.kubernetes.io/default-container: hello
spec:
  terminationGracePeriodSeconds: 30
  initContainers:
  - name: render-config
    image: busybox:1.37
    command:
    - sh
    - -c
    - |
      cat > /etc/nginx/conf.d/default.conf <<'EOF'
      server {
        listen 8081;
        location = /nginx-health { return 200 "ok\n"; }
        location / {
          proxy_pass http://127.0.0.1:8080;
          proxy_set_header Host $host;
          proxy_set_header X-Forwarded-For $remote_addr;
        }
      }
      EOF
    volumeMounts:
    - name: nginx-conf
      mountPath: /etc/nginx/conf.d
  - name: proxy
    image: nginx:1.29
    restartPolicy: Always          # это и делает init-контейнер sidecar-ом
    ports:
    - name: proxy
      containerPort: 8081
    volumeMounts:
    - name: nginx-conf
      mountPath: /etc/nginx/conf.d
      readOnly: true
    startupProbe:
      httpGet: {path: /nginx-health, port: proxy}
      periodSeconds: 1
      failureThreshold: 10
    readinessProbe:
      httpGet: {path: /nginx-health, port: proxy}
      periodSeconds: 10
  containers:
  - name: hello
    image: ghcr.io/example/hello:1.0
    ports:
    - name: http
      containerPort: 8080
    startupProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 2
      failureThreshold: 15         # до 30 секунд на старт
    livenessProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 10
      timeoutSeconds: 2
      failureThreshold: 3
    readinessProbe:
      httpGet: {path: /readyz, port: http}
      periodSeconds: 5
      timeoutSeconds: 2
      failureThreshold: 2
    lifecycle:
      preStop:
        sleep:
          seconds: 5
  volumes:
  - name: nginx-conf
    emptyDir: {}
"#;

#[test]
fn watch_rows_match_the_seed() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(HELLO_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(60.0), &mut tl);
    let got = rows(&tl);
    assert_eq!(dedup(row_cells(&got)), dedup(seed_rows(SEED_HELLO_WATCH)));
    // Same pace as the seed: 2/2 Running within the seed's 9 s (±2 s), then no more rows.
    let last = got.last().expect("rows");
    assert_eq!(
        (last.ready.as_str(), last.status.as_str()),
        ("2/2", "Running")
    );
    let took = last.at.duration_since(t0()).as_secs();
    assert!((7..=11).contains(&took), "2/2 after {took}s");
}

#[test]
fn events_follow_init_sidecar_main_order_with_1_36_texts() {
    let mut k = kubelet().with_event_wording(EventWording::V1_36);
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(HELLO_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(60.0), &mut tl);
    let got: Vec<(String, String)> = events(&tl)
        .into_iter()
        .map(|(_, _, reason, fp, msg, _)| {
            let shown = if fp.is_empty() {
                msg
            } else {
                format!("{fp}: {msg}")
            };
            (reason, shown)
        })
        .collect();
    // The seed's kubectl (Kubernetes 1.36) printed the fieldPath before the message.
    let want: Vec<(String, String)> = common::seed::EVENTS
        .iter()
        .map(|(_, r, fp, _, m)| {
            let shown = if fp.is_empty() {
                (*m).to_string()
            } else {
                format!("{fp}: {m}")
            };
            (r.to_string(), shown)
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn final_status_matches_the_seed_describe() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(HELLO_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(60.0), &mut tl);
    let pod = last_pod(&tl);
    let st = pod.status.expect("status");
    assert_eq!(st.phase.as_deref(), Some("Running"));
    assert_eq!(st.qos_class.as_deref(), Some("BestEffort"));
    assert_eq!(st.host_ip.as_deref(), Some("192.168.10.21"));
    assert_eq!(
        pod.spec.and_then(|s| s.node_name).as_deref(),
        Some("k8s-node-2")
    );
    // Conditions in the seed's order, all True.
    let conds: Vec<(String, String)> = st
        .conditions
        .unwrap_or_default()
        .into_iter()
        .map(|c| (c.type_, c.status))
        .collect();
    let want = [
        "PodReadyToStartContainers",
        "Initialized",
        "Ready",
        "ContainersReady",
        "PodScheduled",
    ];
    assert_eq!(
        conds,
        want.iter()
            .map(|t| (t.to_string(), "True".to_string()))
            .collect::<Vec<_>>()
    );
    // render-config: Terminated Completed 0; proxy Running Ready; hello Running Ready.
    let inits = st.init_container_statuses.unwrap_or_default();
    let rc = inits[0]
        .state
        .as_ref()
        .and_then(|s| s.terminated.clone())
        .expect("terminated");
    assert_eq!((rc.reason.as_deref(), rc.exit_code), (Some("Completed"), 0));
    assert!(inits[1].ready && inits[1].state.as_ref().is_some_and(|s| s.running.is_some()));
    let hello = &st.container_statuses.unwrap_or_default()[0];
    assert!(hello.ready && hello.restart_count == 0);
    // hello's log: `2026/10/25 23:14:44 hello 1.0 listening on [::]:8080` shape.
    let lines = logs(&tl, "hello", 0);
    assert_eq!(lines.len(), 1);
    let (at, line) = &lines[0];
    assert_eq!(
        line,
        &format!(
            "{} hello 1.0 listening on [::]:8080",
            at.strftime("%Y/%m/%d %H:%M:%S")
        )
    );
}

#[test]
fn delete_runs_prestop_then_sigterm_then_sidecar_then_removed() {
    let mut k = kubelet();
    let mut tl = Timeline::new();
    admit(&mut k, pod_from_yaml(HELLO_POD), t0(), &mut tl);
    run_until(&mut k, t0() + secs(40.0), &mut tl);
    let deleted_at = t0() + secs(40.0);
    let start = tl.len();
    for c in k.delete("default", "hello", None, deleted_at) {
        tl.push((deleted_at, c));
    }
    run_until(&mut k, deleted_at + secs(60.0), &mut tl);
    let after_delete: Timeline = tl[start..].to_vec();

    // The first update carries deletionTimestamp = delete + 30 s and prints Terminating.
    let first = rows(&after_delete);
    assert_eq!(first[0].status, "Terminating");
    let dt = after_delete
        .iter()
        .find_map(|(_, c)| match c {
            Change::Pod(p) => p.metadata.deletion_timestamp.clone(),
            _ => None,
        })
        .expect("deletionTimestamp");
    assert_eq!(dt.0, deleted_at + secs(30.0));

    // hello: SIGTERM after the 5 s preStop sleep (seed: 02:23:04.6 → 02:23:09.73), then bye.
    let hello = logs(&after_delete, "hello", 0);
    let texts: Vec<&str> = hello.iter().map(|(_, l)| &l[20..]).collect();
    assert_eq!(texts, vec!["signal received, shutting down", "bye"]);
    let sigterm_at = hello[0].0;
    assert_eq!(sigterm_at.duration_since(deleted_at), secs(5.0));
    let bye_at = hello[1].0;

    // proxy: SIGQUIT only after hello exited (seed: ≈0.46 s later), within the grace period.
    let proxy = logs(&after_delete, "proxy", 0);
    let texts: Vec<&str> = proxy.iter().map(|(_, l)| &l[20..]).collect();
    assert_eq!(
        texts,
        vec![
            "[notice] 1#1: signal 3 (SIGQUIT) received, shutting down",
            "[notice] 1#1: exit"
        ]
    );
    let sigquit_at = proxy[0].0;
    assert!(sigquit_at > bye_at);
    assert!(sigquit_at.duration_since(bye_at) <= secs(1.0));

    // Killing events: hello at the delete, proxy after hello's exit.
    let killing: Vec<(jiff::Timestamp, String)> = events(&after_delete)
        .into_iter()
        .filter(|e| e.2 == "Killing")
        .map(|e| (e.0, e.4))
        .collect();
    assert_eq!(
        killing,
        vec![
            (deleted_at, "Stopping container hello".to_string()),
            (sigquit_at, "Stopping container proxy".to_string()),
        ]
    );

    // Removed after the sidecar stopped, well within the 30 s grace period (seed: kubectl delete
    // returned after ≈8 s); the last status before removal is terminal.
    let removed_at = after_delete
        .iter()
        .find_map(|(at, c)| matches!(c, Change::Removed { .. }).then_some(*at))
        .expect("removed");
    assert!(removed_at > proxy[1].0 && removed_at < deleted_at + secs(30.0));
    let final_pod = last_pod(&after_delete);
    let st = final_pod.status.expect("status");
    assert_eq!(st.phase.as_deref(), Some("Succeeded"));
    assert_eq!(k.next_wakeup(), None);
    assert!(k.pod("default", "hello").is_none());
}
