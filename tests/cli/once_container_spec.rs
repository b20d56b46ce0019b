//! The container spec through the simulator: the shared pod (env from ConfigMap `cfg` and
//! Secret `db`, envFrom, four mounts and the api-access volume the ServiceAccount admission
//! adds, a securityContext merged with the pod's) created with kubectl beside its ConfigMap
//! and Secret; `podscope --once -o json`'s `containers[].spec` is compared with what `kubectl
//! get pod -o json` says of the spec, and neither `--once` (JSON, text) nor the TUI on a real
//! terminal (tmux) ever shows the Secret's value. Skips without kubectl (and tmux for the TUI).

use crate::common;
use crate::container_spec_support;
use std::process::Command;

use common::cluster::run;
use common::sim::{all_ready, start_dynamic_for_kubectl, wait_pod};
use container_spec_support::{OBJECTS_YAML, POD_YAML, SECRET_BASE64, SECRET_VALUE};
use podscope::sim::Simulator;
use serde_json::{Value, json};

/// `podscope -n default api --once [-o FORMAT]` at the simulator's `now`.
fn once(sim: &Simulator, format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_podscope"))
        .arg("--kubeconfig")
        .arg(sim.kubeconfig_path())
        .args(["-n", "default", "api", "--once", "-o", format, "--now"])
        .arg(sim.store().now().to_string())
        .env_remove("KUBECONFIG")
        .output()
        .expect("podscope runs");
    assert!(
        out.status.success(),
        "podscope --once -o {format}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// What `containers[].spec.env[]` must say of one `kubectl get pod -o json` env entry.
fn want_env(e: &Value) -> Value {
    let name = e["name"].clone();
    let from = &e["valueFrom"];
    let optional = |r: &Value| r["optional"].as_bool().unwrap_or(false);
    if let Some(r) = from.get("configMapKeyRef") {
        json!({"name": name, "from": {"kind": "ConfigMap", "name": r["name"], "key": r["key"], "optional": optional(r)}})
    } else if let Some(r) = from.get("secretKeyRef") {
        json!({"name": name, "from": {"kind": "Secret", "name": r["name"], "key": r["key"], "optional": optional(r)}})
    } else if let Some(r) = from.get("fieldRef") {
        json!({"name": name, "from": {"kind": "field", "fieldPath": r["fieldPath"]}})
    } else if let Some(r) = from.get("resourceFieldRef") {
        json!({"name": name, "from": {"kind": "resource", "resource": r["resource"], "divisor": r["divisor"]}})
    } else {
        json!({"name": name, "value": e["value"].as_str().unwrap_or("")})
    }
}

/// What `containers[].spec.mounts[]` must say of one volumeMount, given the pod's volumes.
fn want_mount(m: &Value, volumes: &[Value]) -> Value {
    let volume = volumes
        .iter()
        .find(|v| v["name"] == m["name"])
        .expect("the mount's volume is in spec.volumes");
    let (type_, body) = volume
        .as_object()
        .and_then(|o| o.iter().find(|(k, _)| *k != "name"))
        .expect("a volume source");
    let name = match type_.as_str() {
        "configMap" => body["name"].clone(),
        "secret" => body["secretName"].clone(),
        "hostPath" => body["path"].clone(),
        "persistentVolumeClaim" => body["claimName"].clone(),
        _ => Value::Null,
    };
    let mut source = json!({"type": type_});
    if !name.is_null() {
        source["name"] = name;
    }
    let mut want = json!({
        "path": m["mountPath"],
        "volume": m["name"],
        "source": source,
        "readOnly": m["readOnly"].as_bool().unwrap_or(false),
    });
    if let Some(p) = m.get("subPath") {
        want["subPath"] = p.clone();
    }
    want
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_json_agrees_with_kubectl_and_never_shows_the_secret() {
    let Some((sim, cache)) = start_dynamic_for_kubectl(5.0).await else {
        return;
    };
    let dir = cache.path();
    for (file, text) in [("objects.yaml", OBJECTS_YAML), ("pod.yaml", POD_YAML)] {
        let path = dir.join(file);
        std::fs::write(&path, text).expect("write manifest");
        let (ok, _, err) = run(&sim, dir, &["apply", "-f", &path.to_string_lossy()]).await;
        assert!(ok, "kubectl apply {file}: {err}");
    }
    // The Secret is in the cluster, its value readable by kubectl.
    let (ok, data, _) = run(
        &sim,
        dir,
        &["get", "secret", "db", "-o", "jsonpath={.data.password}"],
    )
    .await;
    assert!(ok);
    assert_eq!(data.trim(), SECRET_BASE64);
    wait_pod(&sim.store(), "api", 30, all_ready).await;

    let (ok, out, err) = run(&sim, dir, &["get", "pod", "api", "-o", "json"]).await;
    assert!(ok, "{err}");
    let kubectl: Value = serde_json::from_str(&out).expect("kubectl prints JSON");
    let c = &kubectl["spec"]["containers"][0];
    let volumes = kubectl["spec"]["volumes"].as_array().expect("volumes");

    let json_out = tokio::task::block_in_place(|| once(&sim, "json"));
    let doc: Value = serde_json::from_str(&json_out).expect("--once prints JSON");
    let spec = &doc["containers"][0]["spec"];
    assert_eq!(doc["containers"][0]["name"], "api");
    assert_eq!(spec["command"], c["command"]);
    assert_eq!(spec["args"], c["args"]);
    let env: Vec<Value> = c["env"]
        .as_array()
        .expect("env")
        .iter()
        .map(want_env)
        .collect();
    assert_eq!(spec["env"], Value::Array(env));
    assert_eq!(
        spec["envFrom"],
        json!([
            {"kind": "ConfigMap", "name": c["envFrom"][0]["configMapRef"]["name"], "prefix": c["envFrom"][0]["prefix"], "optional": false},
            {"kind": "Secret", "name": c["envFrom"][1]["secretRef"]["name"], "optional": false},
        ])
    );
    let mounts: Vec<Value> = c["volumeMounts"]
        .as_array()
        .expect("volumeMounts")
        .iter()
        .map(|m| want_mount(m, volumes))
        .collect();
    // The four of the manifest and the api-access volume's mount added at create time.
    assert_eq!(mounts.len(), 5, "{mounts:?}");
    assert_eq!(spec["mounts"], Value::Array(mounts));
    let sc = &c["securityContext"];
    let pod_sc = &kubectl["spec"]["securityContext"];
    assert_eq!(
        spec["securityContext"],
        json!({
            "runAsUser": pod_sc["runAsUser"],
            "runAsNonRoot": pod_sc["runAsNonRoot"],
            "readOnlyRootFilesystem": sc["readOnlyRootFilesystem"],
            "allowPrivilegeEscalation": sc["allowPrivilegeEscalation"],
            "capabilities": sc["capabilities"],
        })
    );

    let text_out = tokio::task::block_in_place(|| once(&sim, "text"));
    for line in [
        "    Command:    /app/server --port=8080 --config=/etc/cfg/app.conf",
        "    Env:        PORT=8080",
        "                DB_PASSWORD ← Secret db key password",
        "    Env From:   ConfigMap cfg prefix CFG_",
        "                Secret db",
        "    Mounts:     /etc/cfg ← configMap cfg (ro)",
        "    Security:   runAsUser 1000 (pod), runAsNonRoot true (pod), readOnlyRootFilesystem true, allowPrivilegeEscalation false, capabilities add NET_BIND_SERVICE, capabilities drop ALL",
    ] {
        assert!(
            text_out.lines().any(|l| l == line),
            "missing `{line}` in\n{text_out}"
        );
    }
    for out in [&json_out, &text_out] {
        assert!(
            !out.contains(SECRET_VALUE) && !out.contains(SECRET_BASE64),
            "{out}"
        );
    }

    tokio::task::block_in_place(|| tui_never_shows_the_secret(&sim));
}

/// The TUI on a 200×60 tmux terminal shows the env with the Secret's name and key, never its
/// value.
fn tui_never_shows_the_secret(sim: &Simulator) {
    use common::tmux::{end, missing, new_session, wait_for};
    if missing("the container spec in the TUI") {
        return;
    }
    let session = format!("podscope-container-spec-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} -n default api",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display()
    );
    /// Ends the session when dropped, also when an assertion fails.
    struct Session(String);
    impl Drop for Session {
        fn drop(&mut self) {
            end(&self.0);
        }
    }
    new_session(&session, 200, 60, &cmd);
    let _guard = Session(session.clone());
    let screen = wait_for(&session, "the env list", 20, |s| {
        s.contains("DB_PASSWORD ← Secret db key password")
    });
    assert!(
        screen.contains("Env From   ConfigMap cfg prefix CFG_"),
        "{screen}"
    );
    assert!(
        !screen.contains(SECRET_VALUE) && !screen.contains(SECRET_BASE64),
        "{screen}"
    );
}
