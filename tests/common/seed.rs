//! The seed's captured `kubectl describe pod hello` (the article's hello pod: an init
//! container, a native sidecar gated by a startupProbe, the main container with three probes),
//! shared by the tests that check kubectl, our describe text and the kubelet model against it.

use std::collections::BTreeMap;

/// The seed's `kubectl describe pod hello` container and condition sections (verbatim, as the
/// article's author shortened them).
pub const DESCRIBE: &str = "Init Containers:
  render-config:
    Image:          busybox:1.37
    State:          Terminated
      Reason:       Completed
      Exit Code:    0
    Ready:          True
    Restart Count:  0
  proxy:
    Image:          nginx:1.29
    Port:           8081/TCP (proxy)
    State:          Running
    Ready:          True
    Restart Count:  0
    Readiness:      http-get http://:proxy/nginx-health delay=0s timeout=1s period=10s #success=1 #failure=3
    Startup:        http-get http://:proxy/nginx-health delay=0s timeout=1s period=1s #success=1 #failure=10
Containers:
  hello:
    Image:          ghcr.io/example/hello:1.0
    Image ID:       ghcr.io/example/hello@sha256:a5066cd40ef37b9b889ddfbe9c1860b3afe231b96b975000e0edca3fdd6f4a4a
    Port:           8080/TCP (http)
    State:          Running
    Ready:          True
    Restart Count:  0
    Liveness:       http-get http://:http/healthz delay=0s timeout=2s period=10s #success=1 #failure=3
    Readiness:      http-get http://:http/readyz delay=0s timeout=2s period=5s #success=1 #failure=2
    Startup:        http-get http://:http/healthz delay=0s timeout=1s period=2s #success=1 #failure=15
Conditions:
  Type                        Status
  PodReadyToStartContainers   True
  Initialized                 True
  Ready                       True
  ContainersReady             True
  PodScheduled                True
";

/// The seed's Events table in order: (type, reason, the fieldPath the kubelet names, from,
/// message). The seed's kubectl printed `fieldPath: message`; older ones print the message alone.
pub const EVENTS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "Normal",
        "Scheduled",
        "",
        "default-scheduler",
        "Successfully assigned default/hello to k8s-node-2",
    ),
    (
        "Normal",
        "Pulled",
        "spec.initContainers{render-config}",
        "kubelet",
        "Container image \"busybox:1.37\" already present on machine and can be accessed by the pod",
    ),
    (
        "Normal",
        "Created",
        "spec.initContainers{render-config}",
        "kubelet",
        "Container created",
    ),
    (
        "Normal",
        "Started",
        "spec.initContainers{render-config}",
        "kubelet",
        "Container started",
    ),
    (
        "Normal",
        "Pulled",
        "spec.initContainers{proxy}",
        "kubelet",
        "Container image \"nginx:1.29\" already present on machine and can be accessed by the pod",
    ),
    (
        "Normal",
        "Created",
        "spec.initContainers{proxy}",
        "kubelet",
        "Container created",
    ),
    (
        "Normal",
        "Started",
        "spec.initContainers{proxy}",
        "kubelet",
        "Container started",
    ),
    (
        "Normal",
        "Pulled",
        "spec.containers{hello}",
        "kubelet",
        "Container image \"ghcr.io/example/hello:1.0\" already present on machine and can be accessed by the pod",
    ),
    (
        "Normal",
        "Created",
        "spec.containers{hello}",
        "kubelet",
        "Container created",
    ),
    (
        "Normal",
        "Started",
        "spec.containers{hello}",
        "kubelet",
        "Container started",
    ),
];

/// `block → [(key, value)]`: each container's `Key:  value` lines (indent 4 and 6) under its
/// name, and the `Conditions` rows under `Conditions`.
pub fn blocks(text: &str) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut in_containers = false;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent == 0 {
            in_containers = matches!(line, "Init Containers:" | "Containers:");
            current = (line == "Conditions:").then(|| "Conditions".to_string());
            continue;
        }
        if in_containers && indent == 2 && line.trim_end().ends_with(':') {
            current = Some(line.trim().trim_end_matches(':').to_string());
            continue;
        }
        let Some(c) = current.clone() else { continue };
        if c == "Conditions" {
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() == 2 && f[0] != "Type" {
                out.entry(c).or_default().push((f[0].into(), f[1].into()));
            }
        } else if let Some((k, v)) = line.trim().split_once(':')
            && (indent == 4 || indent == 6)
        {
            out.entry(c)
                .or_default()
                .push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}
