//! `kubectl create` of the workloads and core kinds with kubectl 1.27 (JSON bodies) and 1.32
//! and 1.33 (client-go's typed clients send `application/vnd.kubernetes.protobuf`, and do not
//! retry as JSON on a 415; `docs/core-api.md` §6): `create deployment` (its pods run under the
//! controllers), `create job`, `create cronjob`, `create service clusterip`, `create
//! serviceaccount` and `create configmap` (no empty `generateName` stored), each read back
//! with `kubectl get -o json`. Also a strategic merge patch of a Lease and an EndpointSlice
//! follows their schemas (`ownerReferences` merged by `uid`). Skips without kubectl.

use crate::common;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::cluster::{kubectl_versions, run_bin};
use common::sim::{start_dynamic, start_dynamic_for_kubectl};
use podscope::sim::{Resource, Simulator};
use serde_json::Value;

/// The kubectl binaries of the versions the test drives that are installed.
fn chosen() -> Vec<(String, PathBuf)> {
    kubectl_versions()
        .into_iter()
        .filter(|(v, _)| matches!(v.as_str(), "1.27" | "1.32" | "1.33"))
        .collect()
}

async fn kubectl(sim: &Simulator, bin: &Path, cache: &Path, args: &[&str]) -> String {
    let (ok, out, err) = run_bin(bin, sim.kubeconfig_path(), cache, args, &[]).await;
    assert!(ok, "{} {args:?}: {err}", bin.display());
    out
}

async fn get_json(sim: &Simulator, bin: &Path, cache: &Path, what: &[&str]) -> Value {
    let args: Vec<&str> = ["get"]
        .iter()
        .chain(what)
        .chain(&["-o", "json"])
        .copied()
        .collect();
    serde_json::from_str(&kubectl(sim, bin, cache, &args).await).expect("kubectl prints JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_creates_workloads_and_core_kinds_in_json_and_protobuf() {
    let versions = chosen();
    if versions.is_empty() {
        return;
    }
    let sim = start_dynamic(20.0).await;
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in &versions {
        let cache = tmp.path().join(format!("cache-{version}"));
        let tag = version.replace('.', "");
        let (web, job, cj) = (
            format!("web-{tag}"),
            format!("job-{tag}"),
            format!("cj-{tag}"),
        );
        let (svc, sa, cm) = (
            format!("svc-{tag}"),
            format!("sa-{tag}"),
            format!("cm-{tag}"),
        );
        let image = "--image=ghcr.io/example/hello:1.0";

        let out = kubectl(
            &sim,
            bin,
            &cache,
            &["create", "deployment", &web, image, "--replicas=2"],
        )
        .await;
        assert_eq!(
            out.trim(),
            format!("deployment.apps/{web} created"),
            "{version}"
        );
        let d = get_json(&sim, bin, &cache, &["deployment", &web]).await;
        assert_eq!(d["spec"]["replicas"], 2, "{version}: {d}");
        assert_eq!(
            d["spec"]["selector"]["matchLabels"]["app"],
            web.as_str(),
            "{version}"
        );
        let c = &d["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c["name"], "hello", "{version}: {d}");
        assert_eq!(c["image"], "ghcr.io/example/hello:1.0", "{version}");
        assert_eq!(
            d["spec"]["strategy"]["type"], "RollingUpdate",
            "{version}: {d}"
        );
        assert!(
            d["metadata"].get("generateName").is_none(),
            "{version}: {d}"
        );

        let out = kubectl(&sim, bin, &cache, &["create", "job", &job, image]).await;
        assert_eq!(out.trim(), format!("job.batch/{job} created"), "{version}");
        let j = get_json(&sim, bin, &cache, &["job", &job]).await;
        let pod_spec = &j["spec"]["template"]["spec"];
        assert_eq!(pod_spec["restartPolicy"], "Never", "{version}: {j}");
        assert_eq!(
            pod_spec["containers"][0]["image"],
            "ghcr.io/example/hello:1.0"
        );

        let schedule = "--schedule=*/1 * * * *";
        let out = kubectl(
            &sim,
            bin,
            &cache,
            &["create", "cronjob", &cj, image, schedule],
        )
        .await;
        assert_eq!(
            out.trim(),
            format!("cronjob.batch/{cj} created"),
            "{version}"
        );
        let c = get_json(&sim, bin, &cache, &["cronjob", &cj]).await;
        assert_eq!(c["spec"]["schedule"], "*/1 * * * *", "{version}: {c}");
        let tpl = &c["spec"]["jobTemplate"]["spec"]["template"]["spec"];
        assert_eq!(tpl["restartPolicy"], "OnFailure", "{version}: {c}");
        assert_eq!(tpl["containers"][0]["image"], "ghcr.io/example/hello:1.0");

        let out = kubectl(
            &sim,
            bin,
            &cache,
            &["create", "service", "clusterip", &svc, "--tcp=80:8080"],
        )
        .await;
        assert_eq!(out.trim(), format!("service/{svc} created"), "{version}");
        let s = get_json(&sim, bin, &cache, &["service", &svc]).await;
        assert_eq!(s["spec"]["type"], "ClusterIP", "{version}: {s}");
        assert_eq!(s["spec"]["ports"][0]["port"], 80, "{version}: {s}");
        assert_eq!(s["spec"]["ports"][0]["targetPort"], 8080, "{version}: {s}");
        assert_eq!(s["spec"]["ports"][0]["name"], "80-8080", "{version}: {s}");
        assert_eq!(s["spec"]["selector"]["app"], svc.as_str(), "{version}: {s}");

        let out = kubectl(&sim, bin, &cache, &["create", "serviceaccount", &sa]).await;
        assert_eq!(
            out.trim(),
            format!("serviceaccount/{sa} created"),
            "{version}"
        );
        let a = get_json(&sim, bin, &cache, &["serviceaccount", &sa]).await;
        assert_eq!(a["metadata"]["name"], sa.as_str(), "{version}: {a}");

        let out = kubectl(
            &sim,
            bin,
            &cache,
            &["create", "configmap", &cm, "--from-literal=a=1"],
        )
        .await;
        assert_eq!(out.trim(), format!("configmap/{cm} created"), "{version}");
        let m = get_json(&sim, bin, &cache, &["configmap", &cm]).await;
        assert_eq!(m["data"]["a"], "1", "{version}: {m}");
        assert!(
            m["metadata"].get("generateName").is_none(),
            "{version}: {m}"
        );
    }
    // The controllers run every Deployment's two pods.
    let (_, bin) = &versions[versions.len() - 1];
    let cache = tmp.path().join("cache-wait");
    let store = sim.store();
    for (version, _) in &versions {
        let web = format!("web-{}", version.replace('.', ""));
        let ready = common::wait::wait_until(Duration::from_secs(60), || {
            store
                .object(Resource::Deployments, "default", &web)
                .is_some_and(|d| d.to_json()["status"]["readyReplicas"] == 2)
        })
        .await;
        let d = get_json(&sim, bin, &cache, &["deployment", &web]).await;
        assert!(ready, "{web} not ready: {d}");
        assert_eq!(d["status"]["readyReplicas"], 2, "{d}");
        let pods = get_json(&sim, bin, &cache, &["pods", "-l", &format!("app={web}")]).await;
        let items = pods["items"].as_array().expect("items");
        assert_eq!(items.len(), 2, "{pods}");
        assert!(
            items.iter().all(|p| p["status"]["phase"] == "Running"),
            "{pods}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn strategic_merge_patches_of_leases_and_endpointslices_merge_owner_references() {
    let Some((sim, dir)) = start_dynamic_for_kubectl(1.0).await else {
        return;
    };
    let run = |args: Vec<String>| {
        let sim = &sim;
        let dir = dir.path().to_path_buf();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (ok, out, err) = common::cluster::run(sim, &dir, &args).await;
            assert!(ok, "kubectl {args:?}: {err}");
            out
        }
    };
    let owner = |uid: &str| {
        format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","name":"o-{uid}","uid":"{uid}"}}"#)
    };
    let manifests = [
        (
            "lease",
            format!(
                r#"{{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{{"name":"l","namespace":"default","ownerReferences":[{}]}},"spec":{{"holderIdentity":"a"}}}}"#,
                owner("u1")
            ),
        ),
        (
            "endpointslice",
            format!(
                r#"{{"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{{"name":"l","namespace":"default","ownerReferences":[{}]}},"addressType":"IPv4","endpoints":[]}}"#,
                owner("u1")
            ),
        ),
    ];
    for (kind, manifest) in manifests {
        let path = dir.path().join(format!("{kind}.json"));
        std::fs::write(&path, &manifest).expect("write manifest");
        run(vec![
            "create".into(),
            "-f".into(),
            path.to_string_lossy().into_owned(),
        ])
        .await;
        let patch = format!(r#"{{"metadata":{{"ownerReferences":[{}]}}}}"#, owner("u2"));
        run(vec![
            "patch".into(),
            kind.into(),
            "l".into(),
            "--type=strategic".into(),
            "-p".into(),
            patch,
        ])
        .await;
        let out = run(vec![
            "get".into(),
            kind.into(),
            "l".into(),
            "-o".into(),
            "json".into(),
        ])
        .await;
        let v: Value = serde_json::from_str(&out).expect("JSON");
        let mut uids: Vec<&str> = v["metadata"]["ownerReferences"]
            .as_array()
            .expect("ownerReferences")
            .iter()
            .filter_map(|o| o["uid"].as_str())
            .collect();
        uids.sort_unstable();
        assert_eq!(uids, ["u1", "u2"], "{kind}: {v}");
    }
}
