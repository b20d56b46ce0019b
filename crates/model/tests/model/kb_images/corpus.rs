//! The corpus cases 40–52 (and the older image and start cases) meet the row their mechanism
//! names, read from their own pod.json / events.json / logs.

use std::path::Path;

use podscope_model::diagnosis::kb::{self, On};

fn case_dir(id: &str) -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("assets/cases")
        .join(id)
}

fn json(id: &str, file: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(case_dir(id).join(file))
        .unwrap_or_else(|e| panic!("{id}/{file}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{id}/{file}: {e}"))
}

/// Every fact of a case as `(on, text)`: container waiting/terminated messages (init and main),
/// event messages, the pod's status message, log lines.
fn facts(id: &str) -> Vec<(On<'static>, String)> {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    let mut out = Vec::new();
    let pod = json(id, "pod.json");
    for key in ["initContainerStatuses", "containerStatuses"] {
        for c in pod["status"][key].as_array().into_iter().flatten() {
            for state in [&c["state"], &c["lastState"]] {
                if let Some(w) = state.get("waiting")
                    && let Some(m) = w["message"].as_str()
                {
                    out.push((
                        On::Waiting(leak(w["reason"].as_str().unwrap_or(""))),
                        m.to_owned(),
                    ));
                }
                if let Some(t) = state.get("terminated")
                    && let Some(m) = t["message"].as_str()
                {
                    out.push((
                        On::Terminated(leak(t["reason"].as_str().unwrap_or(""))),
                        m.to_owned(),
                    ));
                }
            }
        }
    }
    if let Some(m) = pod["status"]["message"].as_str() {
        out.push((
            On::Status(leak(pod["status"]["reason"].as_str().unwrap_or(""))),
            m.to_owned(),
        ));
    }
    for e in json(id, "events.json")["items"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let (Some(r), Some(m)) = (e["reason"].as_str(), e["message"].as_str()) {
            out.push((On::Event(leak(r)), m.to_owned()));
        }
    }
    let mut logs: Vec<std::path::PathBuf> = ["logs-previous.txt", "logs-current.txt"]
        .iter()
        .map(|f| case_dir(id).join(f))
        .collect();
    if let Ok(dir) = std::fs::read_dir(case_dir(id).join("logs")) {
        logs.extend(dir.flatten().map(|e| e.path()));
    }
    for path in logs {
        if let Ok(text) = std::fs::read_to_string(&path) {
            out.extend(text.lines().map(|l| (On::Log, l.to_owned())));
        }
    }
    out
}

/// `(case, row id its mechanism names, a group value the row must quote)`.
const CORPUS: &[(&str, &str, (&str, &str))] = &[
    (
        "40-imagepull-unauthorized-pull-secret-missing",
        "registry-unauthorized",
        (
            "image",
            "harbor.registry.example/billing/invoice-api:2.14.0",
        ),
    ),
    (
        "41-imagepull-rate-limit-toomanyrequests",
        "registry-rate-limit",
        ("image", "redis:6.2.1-alpine"),
    ),
    (
        "42-imagepull-x509-unknown-authority",
        "registry-tls-unknown-authority",
        ("host", "registry.example:5443"),
    ),
    (
        "43-imagepull-dns-cluster-service-name",
        "registry-dns-no-such-host",
        ("resolver", "127.0.0.53"),
    ),
    (
        "44-imagepull-no-match-for-platform",
        "registry-platform-mismatch",
        ("image", "registry.example/payments/ledger:4.1.0"),
    ),
    (
        "45-imagepull-blob-host-io-timeout",
        "registry-network-timeout",
        ("addr", "198.51.100.37:443"),
    ),
    (
        "46-crashloop-exec-format-error-arch",
        "loader-exec-format",
        ("path", "/manager"),
    ),
    (
        "47-crashloop-entrypoint-crlf-no-such-file",
        "loader-interpreter-missing",
        ("path", "/docker-entrypoint.sh"),
    ),
    (
        "48-crashloop-starterror-entrypoint-permission-denied",
        "loader-permission-denied",
        ("path", "/opt/bridge/run.sh"),
    ),
    (
        "49-createcontainerconfigerror-runasnonroot-root-image",
        "runtime-run-as-non-root-root-image",
        ("name", "store"),
    ),
    (
        "50-createcontainererror-failed-to-reserve-name",
        "runtime-name-reserved",
        ("holder", ""),
    ),
    (
        "51-createcontainererror-seccomp-profile-missing",
        "runtime-seccomp-profile-missing",
        ("profile", "/var/lib/kubelet/seccomp/localhost/system-probe"),
    ),
    (
        "52-runcontainererror-subpath-file-onto-directory",
        "runtime-mount-not-a-directory",
        ("target", "/etc/nginx/conf.d"),
    ),
    (
        "03-runcontainererror-starterror-exit128",
        "runtime-exec-not-found",
        ("cmd", "edge-agnet"),
    ),
    (
        "13-imagepullbackoff-tag-not-found",
        "registry-not-found",
        ("ref", "registry.example/drain/leader:v1.0-rc9"),
    ),
    (
        "14-init-imagepullbackoff-restartpolicy-never",
        "registry-access-denied",
        ("image", ""),
    ),
];

#[test]
fn each_case_meets_the_row_of_its_mechanism() {
    for (case, id, (group, value)) in CORPUS {
        let hits: Vec<kb::Hit> = facts(case)
            .iter()
            .filter_map(|(on, text)| kb::find(*on, text))
            .collect();
        let mine = hits.iter().find(|h| h.entry.id == *id).unwrap_or_else(|| {
            panic!(
                "{case}: no fact meets {id}; rows met: {:?}",
                hits.iter().map(|h| h.entry.id).collect::<Vec<_>>()
            )
        });
        let got = mine
            .groups
            .iter()
            .find(|(n, _)| n == group)
            .map(|(_, v)| v.as_str());
        if value.is_empty() {
            assert!(
                got.is_some_and(|v| !v.is_empty()),
                "{case}: {id} quotes no {group}"
            );
        } else {
            assert_eq!(got, Some(*value), "{case}: {id} group {group}");
        }
        // No other row of these tables contradicts the mechanism on the same case.
        for h in &hits {
            let other = h.entry.id;
            let mine_table = id.split('-').next();
            if other != *id
                && (other.starts_with("loader-")
                    || other.starts_with("registry-")
                    || other.starts_with("runtime-"))
            {
                assert!(
                    other.split('-').next() == mine_table && related(id, other),
                    "{case}: {other} also met besides {id}"
                );
            }
        }
    }
}

/// Rows that may legitimately meet the same case beside its mechanism's row.
fn related(id: &str, other: &str) -> bool {
    matches!(
        (id, other),
        ("runtime-name-reserved", "runtime-request-timeout")
    )
}
