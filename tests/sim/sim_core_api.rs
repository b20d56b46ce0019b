//! Real kubectl (1.33 and 1.27) against the simulator's core objects: namespaces created,
//! listed and deleted with their content, ConfigMaps and Secrets (`stringData`/literals
//! stored base64 in `data`), a Service with an allocated ClusterIP, the Tables' headers, and
//! `api-resources` listing the kinds with their short names (`docs/core-api.md`).

use crate::common;
use crate::workloads_support;
use std::time::Duration;

use common::cluster::{kubectl, kubectl_versions, run, run_bin};
use common::wait::wait_until;
use podscope::sim::Resource;
use workloads_support::{ok, start, table, write};

const SERVICE: &str = "apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: team
spec:
  selector: {app: web}
  ports:
  - name: http
    port: 80
    targetPort: 8080
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_creates_lists_and_deletes_namespaces_and_their_objects() {
    if kubectl().is_none() {
        return;
    }
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tmp.path().join("cache");

    let (_, rows) = table(&ok(&sim, &cache, &["get", "ns"]).await);
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        ["default", "kube-node-lease", "kube-public", "kube-system"]
    );
    assert!(rows.iter().all(|r| r[1] == "Active"), "{rows:?}");

    let out = ok(&sim, &cache, &["create", "namespace", "team"]).await;
    assert_eq!(out.trim(), "namespace/team created");
    let (header, rows) = table(&ok(&sim, &cache, &["get", "ns", "team"]).await);
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["NAME", "STATUS", "AGE"]
    );
    assert_eq!(rows[0][..2], ["team".to_string(), "Active".to_string()]);

    let out = ok(
        &sim,
        &cache,
        &[
            "create",
            "configmap",
            "x",
            "--from-literal=a=b",
            "-n",
            "team",
        ],
    )
    .await;
    assert_eq!(out.trim(), "configmap/x created");
    let out = ok(
        &sim,
        &cache,
        &[
            "create",
            "secret",
            "generic",
            "s",
            "--from-literal=k=v",
            "-n",
            "team",
        ],
    )
    .await;
    assert_eq!(out.trim(), "secret/s created");
    let data = ok(
        &sim,
        &cache,
        &[
            "get",
            "secret",
            "s",
            "-n",
            "team",
            "-o",
            "jsonpath={.data.k}",
        ],
    )
    .await;
    assert_eq!(data, "dg==");

    let file = write(tmp.path(), "svc.yaml", SERVICE);
    let out = ok(&sim, &cache, &["apply", "-f", &file]).await;
    assert_eq!(out.trim(), "service/web created");
    let ip = ok(
        &sim,
        &cache,
        &[
            "get",
            "svc",
            "web",
            "-n",
            "team",
            "-o",
            "jsonpath={.spec.clusterIP}",
        ],
    )
    .await;
    assert!(ip.starts_with("10.96.") && ip != "10.96.0.1", "{ip}");
    let (header, rows) = table(&ok(&sim, &cache, &["get", "svc", "-n", "team"]).await);
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        [
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE"
        ]
    );
    assert_eq!(
        rows[0][..5],
        ["web", "ClusterIP", ip.as_str(), "<none>", "80/TCP"].map(String::from)
    );

    // A second apply patches (a strategic merge patch kubectl computes from the OpenAPI
    // schema); an unknown field is refused by the server, which kubectl leaves validation to.
    let changed = write(
        tmp.path(),
        "svc2.yaml",
        &SERVICE.replace("port: 80", "port: 81"),
    );
    let out = ok(&sim, &cache, &["apply", "-f", &changed]).await;
    assert_eq!(out.trim(), "service/web configured");
    let bad = write(
        tmp.path(),
        "bad.yaml",
        &SERVICE.replace("selector:", "selectorr:"),
    );
    let (ok_, _, err) = run(&sim, &cache, &["apply", "-f", &bad]).await;
    assert!(!ok_);
    assert!(err.contains("unknown field \"spec.selectorr\""), "{err}");
    let ports = ok(
        &sim,
        &cache,
        &[
            "get",
            "svc",
            "web",
            "-n",
            "team",
            "-o",
            "jsonpath={.spec.ports[*].port}",
        ],
    )
    .await;
    assert_eq!(ports, "81");

    // Every namespace gets its `default` ServiceAccount and `kube-root-ca.crt` ConfigMap.
    let store = sim.store();
    assert!(
        wait_until(Duration::from_secs(10), || store
            .object(Resource::ServiceAccounts, "team", "default")
            .is_some())
        .await
    );

    // Deleting the namespace deletes what is in it, then the namespace.
    let out = ok(&sim, &cache, &["delete", "namespace", "team"]).await;
    assert_eq!(out.trim(), "namespace \"team\" deleted");
    let gone = wait_until(Duration::from_secs(10), || {
        store.object(Resource::Namespaces, "", "team").is_none()
    })
    .await;
    assert!(gone, "namespace team still there");
    for r in [Resource::ConfigMaps, Resource::Secrets, Resource::Services] {
        assert!(store.list(r, Some("team")).0.is_empty(), "{r:?} left");
    }
    let (ok_, _, err) = run(&sim, &cache, &["create", "configmap", "y", "-n", "team"]).await;
    assert!(!ok_);
    assert!(err.contains("namespaces \"team\" not found"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_core_kind_prints_its_table_and_is_listed_by_api_resources() {
    let versions = kubectl_versions();
    if versions.is_empty() {
        return;
    }
    let sim = start().await;
    let tmp = tempfile::tempdir().expect("tempdir");
    for (version, bin) in versions.iter().filter(|(v, _)| v == "1.33" || v == "1.27") {
        let cache = tmp.path().join(version);
        let kc = sim.kubeconfig_path();
        let (success, out, err) = run_bin(bin, kc, &cache, &["api-resources"], &[]).await;
        assert!(success, "{version}: {err}");
        for (name, short) in [
            ("namespaces", "ns"),
            ("nodes", "no"),
            ("configmaps", "cm"),
            ("services", "svc"),
            ("endpoints", "ep"),
            ("serviceaccounts", "sa"),
            ("persistentvolumeclaims", "pvc"),
            ("persistentvolumes", "pv"),
        ] {
            assert!(
                out.lines().any(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    w.first() == Some(&name) && w.get(1) == Some(&short)
                }),
                "{version}: {name} {short} missing in\n{out}"
            );
        }
        for name in ["secrets", "endpointslices", "leases", "events"] {
            assert!(
                out.lines().any(|l| l.starts_with(&format!("{name} "))),
                "{version}: {name} missing"
            );
        }
        for (kind, cols) in [
            ("cm", vec!["NAME", "DATA", "AGE"]),
            ("sa", vec!["NAME", "SECRETS", "AGE"]),
            (
                "endpointslices",
                vec!["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"],
            ),
            ("ep", vec!["NAME", "ENDPOINTS", "AGE"]),
        ] {
            let (success, out, err) = run_bin(bin, kc, &cache, &["get", kind, "-A"], &[]).await;
            assert!(success, "{version} get {kind}: {err}");
            let (header, _) = table(&out);
            let mut want = vec!["NAMESPACE"];
            want.extend(cols);
            assert_eq!(
                header.split_whitespace().collect::<Vec<_>>(),
                want,
                "{version} {kind}"
            );
        }
        // The API server's own Service, Endpoints and EndpointSlice.
        let (_, out, _) = run_bin(bin, kc, &cache, &["get", "svc", "kubernetes"], &[]).await;
        let (_, rows) = table(&out);
        assert_eq!(
            rows[0][..5],
            ["kubernetes", "ClusterIP", "10.96.0.1", "<none>", "443/TCP"].map(String::from)
        );
    }
}
