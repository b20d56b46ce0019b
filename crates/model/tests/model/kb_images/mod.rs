//! The knowledge base's loader, registry and runtime tables (`crates/model/src/diagnosis/kb/`): every
//! row compiles, every row is found for a real message of the component that says it (with the
//! values worth quoting in its named groups), the specific rows win over the general ones, and
//! the corpus cases 40–52 (and the older image and start cases) meet the row their mechanism
//! names, read from their own pod.json / events.json / logs.

use podscope_model::diagnosis::kb::{self, On, loader, registry, runtime};

/// `(where the text is read, text, row id, named groups that must be captured with these values)`.
type Case = (
    On<'static>,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

const FAILED: On<'static> = On::Event("Failed");
const PULL: On<'static> = On::Waiting("ErrImagePull");

mod corpus;
mod loader_samples;
mod registry_samples;
mod runtime_samples;

/// Every sample message of the three tables.
fn messages() -> impl Iterator<Item = &'static Case> {
    [
        loader_samples::MESSAGES,
        registry_samples::MESSAGES,
        runtime_samples::MESSAGES,
    ]
    .into_iter()
    .flatten()
}

fn groups_of(hit: &kb::Hit) -> String {
    hit.groups
        .iter()
        .map(|(k, v)| format!("{k}={v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn check(on: On<'_>, text: &str, id: &str, groups: &[(&str, &str)]) {
    let hit = kb::find(on, text).unwrap_or_else(|| panic!("no row for {on:?} {text:?}, want {id}"));
    assert_eq!(
        hit.entry.id,
        id,
        "{on:?} {text:?} (groups: {})",
        groups_of(&hit)
    );
    for (name, value) in groups {
        let got = hit
            .groups
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str());
        assert_eq!(
            got,
            Some(*value),
            "{id}: group {name} of {text:?} (groups: {})",
            groups_of(&hit)
        );
    }
}

#[test]
fn every_row_compiles() {
    assert!(kb::invalid_rows().is_empty(), "{:?}", kb::invalid_rows());
}

#[test]
fn every_message_meets_its_row_with_its_values() {
    for (on, text, id, groups) in messages() {
        check(*on, text, id, groups);
    }
}

#[test]
fn every_row_of_the_three_tables_is_exercised() {
    let tested: Vec<&str> = messages().map(|(_, _, id, _)| *id).collect();
    for table in [loader::ENTRIES, registry::ENTRIES, runtime::ENTRIES] {
        for e in table {
            assert!(
                tested.contains(&e.id),
                "row {} has no message in crates/model/tests/model/kb_images/*_samples.rs",
                e.id
            );
        }
    }
}

#[test]
fn ids_are_unique_and_carry_their_table() {
    let mut seen = std::collections::BTreeSet::new();
    for (prefix, table) in [
        ("loader-", loader::ENTRIES),
        ("registry-", registry::ENTRIES),
        ("runtime-", runtime::ENTRIES),
    ] {
        for e in table {
            assert!(e.id.starts_with(prefix), "{} in the {prefix} table", e.id);
            assert!(seen.insert(e.id), "duplicate id {}", e.id);
            assert!(!e.on.is_empty() && !e.source.is_empty(), "{}", e.id);
        }
    }
}

#[test]
fn placeholders_in_meanings_and_actions_are_always_filled() {
    // A meaning or action may only name groups its pattern always captures, or the caller's
    // context; an optional group left unmatched would print `{name}` literally.
    let context = ["container", "pod", "namespace", "node", "reason"];
    for (on, text, id, _) in messages() {
        let hit = kb::find(*on, text).expect("found");
        assert_eq!(hit.entry.id, *id);
        let ctx: Vec<(&str, &str)> = context.iter().map(|c| (*c, "X")).collect();
        for filled in [hit.meaning(&ctx), hit.action(&ctx)] {
            let open = filled.find('{');
            let unfilled = open.and_then(|i| {
                filled[i + 1..]
                    .find('}')
                    .map(|j| &filled[i + 1..i + 1 + j])
                    .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            });
            assert!(
                unfilled.is_none(),
                "{id}: unfilled {{{}}} in {filled:?}",
                unfilled.unwrap_or("")
            );
        }
    }
}

#[test]
fn the_specific_rows_win() {
    // The platform miss carries code NotFound and ends in "not found": not a missing tag.
    check(
        PULL,
        r#"rpc error: code = NotFound desc = failed to pull and unpack image "registry.example/payments/ledger:4.1.0": no match for platform in manifest: not found"#,
        "registry-platform-mismatch",
        &[],
    );
    // A token request that times out is the network, not credentials.
    check(
        PULL,
        r#"failed to authorize: failed to fetch anonymous token: Get "https://auth.registry.example/token": dial tcp 10.9.9.9:443: i/o timeout"#,
        "registry-network-timeout",
        &[("addr", "10.9.9.9:443")],
    );
    // The kubelet's create timeout is not a pull timeout.
    check(
        FAILED,
        "Error: context deadline exceeded",
        "runtime-request-timeout",
        &[],
    );
    // The shim is missing, not the pod's command.
    check(
        FAILED,
        r#"Error: failed to create containerd task: failed to create shim task: failed to start shim: exec: "containerd-shim-runc-v2": executable file not found in $PATH: unknown"#,
        "runtime-shim-missing",
        &[],
    );
    // A Go program's own subprocess failure is the application's business, not the entrypoint's.
    let app = kb::find(On::Log, "fork/exec /usr/bin/helper: exec format error");
    assert!(
        app.as_ref()
            .is_none_or(|h| !h.entry.id.starts_with("loader-")),
        "{:?}",
        app.map(|h| h.entry.id)
    );
    // An OCI error whose cause has a row is read by that row, not the generic one.
    check(
        On::Terminated("StartError"),
        r#"failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "/app/run": stat /app/run: no such file or directory: unknown"#,
        "loader-entrypoint-missing",
        &[("path", "/app/run")],
    );
}

#[test]
fn healthy_pull_and_start_messages_match_no_row_of_these_tables() {
    let quiet: &[(On<'static>, &str)] = &[
        (
            On::Event("Pulling"),
            r#"Pulling image "registry.example/app:1""#,
        ),
        (
            On::Event("Pulled"),
            r#"Successfully pulled image "registry.example/app:1" in 2.481s (2.481s including waiting). Image size: 48213760 bytes."#,
        ),
        (On::Event("Failed"), "Error: ErrImagePull"),
        (On::Event("Failed"), "Error: ImagePullBackOff"),
        (
            On::Waiting("ImagePullBackOff"),
            r#"Back-off pulling image "registry.example/app:1""#,
        ),
        (On::Event("Created"), "Created container: web"),
        (On::Log, "starting server on :8080"),
    ];
    for (on, text) in quiet {
        if let Some(hit) = kb::find(*on, text) {
            let id = hit.entry.id;
            assert!(
                !(id.starts_with("loader-")
                    || id.starts_with("registry-")
                    || id.starts_with("runtime-")),
                "{text:?} matched {id}"
            );
        }
    }
}
