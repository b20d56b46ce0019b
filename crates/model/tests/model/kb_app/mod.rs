//! The knowledge base's application table (`crates/model/src/diagnosis/kb/app.rs`): every row
//! compiles, every row is found for a real log line of the form its runtime prints (with the
//! values worth quoting in its named groups), the specific rows win over the general ones, and
//! lines of a healthy application match no row.

use podscope_model::diagnosis::kb::{self, On};

/// One log line, the row that must find it, and named groups it must capture with these values.
type Expect = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

mod corpus;
mod lines;

use lines::LINES;

/// Lines of a healthy application, or of one retrying politely, that no row may claim.
const INNOCENT: &[&str] = &[
    "INFO connected to db",
    "retrying connection",
    "INFO  [main] o.s.b.w.e.tomcat.TomcatWebServer : Tomcat started on port(s): 8080 (http)",
    "2024-05-02T10:01:02Z info Envoy proxy is ready",
    "listening on 0.0.0.0:8080",
    "Server listening on 127.0.0.1:15000",
    "GET /healthz 200 1.2ms",
    "level=info msg=\"connection pool warmed up\" size=10",
    "Killed 3 stale sessions",
    "readOnlyRootFilesystem is enabled; writing to /tmp emptyDir",
];

#[test]
fn every_app_row_compiles() {
    let invalid = kb::invalid_rows();
    assert!(invalid.is_empty(), "rows that do not compile: {invalid:#?}");
}

#[test]
fn every_line_finds_its_row_and_groups() {
    let mut failures = Vec::new();
    for (line, id, groups) in LINES {
        let Some(hit) = kb::find(On::Log, line) else {
            failures.push(format!("{id}: no row for {line:?}"));
            continue;
        };
        if hit.entry.id != *id {
            failures.push(format!("{id}: got {} for {line:?}", hit.entry.id));
            continue;
        }
        for (name, value) in *groups {
            let got = hit
                .groups
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str());
            if got != Some(*value) {
                failures.push(format!(
                    "{id}: group {name} = {got:?}, want {value:?} in {line:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_app_row_has_a_line() {
    let missing: Vec<&str> = kb::app::ENTRIES
        .iter()
        .chain(kb::app_network::ENTRIES)
        .map(|e| e.id)
        .filter(|id| !LINES.iter().any(|(_, want, _)| want == id))
        .collect();
    assert!(missing.is_empty(), "rows without a test line: {missing:?}");
}

#[test]
fn app_rows_are_prefixed_unique_and_read_logs() {
    let mut seen = std::collections::HashSet::new();
    for e in kb::app::ENTRIES.iter().chain(kb::app_network::ENTRIES) {
        assert!(e.id.starts_with("app-"), "{}: id prefix", e.id);
        assert!(seen.insert(e.id), "{}: duplicate id", e.id);
        assert!(e.on.contains(&On::Log), "{}: reads log lines", e.id);
        assert!(!e.meaning.is_empty() && !e.action.is_empty() && !e.source.is_empty());
    }
}

#[test]
fn placeholders_name_a_group_or_the_context() {
    const CONTEXT: &[&str] = &["container", "pod", "namespace", "node", "reason"];
    for e in kb::app::ENTRIES.iter().chain(kb::app_network::ENTRIES) {
        for text in [e.meaning, e.action] {
            let mut rest = text;
            while let Some(open) = rest.find('{') {
                let after = &rest[open + 1..];
                let close = after.find('}').expect("a closing brace");
                let key = &after[..close];
                rest = &after[close + 1..];
                // `{ "holdApplicationUntilProxyStarts": true }` is JSON, not a placeholder.
                if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                let in_pattern = e.pattern.contains(&format!("(?P<{key}>"));
                assert!(
                    in_pattern || CONTEXT.contains(&key),
                    "{}: placeholder {{{key}}} names no group",
                    e.id
                );
            }
        }
    }
}

#[test]
fn innocent_lines_match_no_row() {
    for line in INNOCENT {
        let hit = kb::find(On::Log, line);
        assert!(
            hit.is_none(),
            "{line:?} matched {:?}",
            hit.map(|h| h.entry.id)
        );
    }
}

#[test]
fn a_termination_message_of_an_error_exit_is_read() {
    let hit = kb::find(
        On::Terminated("Error"),
        "Error: connect ECONNREFUSED 10.96.12.7:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
    )
    .expect("a row");
    assert_eq!(hit.entry.id, "app-refused-node");
}

#[test]
fn the_decisive_line_of_a_java_trace_is_found_among_frames() {
    // The trace's last lines are frames; the row is found on the `Caused by:` line it quotes.
    let trace = [
        "org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'entityManagerFactory'",
        "\tat org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.initializeBean(AbstractAutowireCapableBeanFactory.java:1786)",
        "Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user \"orders\"",
        "\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:693)",
        "\t... 42 common frames omitted",
    ];
    let hits: Vec<&str> = trace
        .iter()
        .filter_map(|l| kb::find(On::Log, l))
        .map(|h| h.entry.id)
        .collect();
    assert_eq!(hits, ["app-auth-postgres"]);
}
