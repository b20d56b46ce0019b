//! The arrows of `docs/architecture.md`, checked against the tree. Between crates: the crate
//! graph `cargo metadata` resolves (§1's "must never reach" column: the pure crate reaches no
//! async runtime, the simulator no client). Inside the application crate, what the graph cannot
//! say: every `crate::…` path under `src/` (in `use` lines and inline, comments excluded) names a
//! part, and none may be an arrow §2's "never" table forbids. Both tables are read from the
//! document itself, so the two cannot drift apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `from → {never to}` from the table headed `| from | never to |`.
fn never_table(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut table = BTreeMap::new();
    let mut lines = doc
        .lines()
        .skip_while(|l| !l.starts_with("| from | never to |"));
    lines.next();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [from, to] = cells[..] else {
            panic!("a row of the never table has two cells: {line}");
        };
        let to = to.split(',').map(|s| s.trim().to_owned()).collect();
        table.insert(from.to_owned(), to);
    }
    table
}

/// The parts of the application crate named in §1's table (`src/<part>/` or `src/<part>.rs`),
/// as the document spells them; `model` and `sim` are crates of their own.
fn documented_parts(doc: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(r"`src/([a-z_]+)(/|\.rs)`").expect("regex");
    re.captures_iter(doc).map(|c| c[1].to_owned()).collect()
}

/// The source without comments: everything from `//` to the end of a line goes.
fn code_of(source: &str) -> String {
    source
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first path segments after every `crate::` in `code`: `crate::ui::theme` gives `ui`,
/// `crate::{model::PodSummary, app::Msg}` gives `model` and `app`.
fn crate_targets(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut item = String::new();
            for ch in group.chars() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        push_head(&mut out, &item);
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    item.push(ch);
                }
            }
            push_head(&mut out, &item);
        } else {
            push_head(&mut out, rest);
        }
    }
    out
}

fn push_head(out: &mut BTreeSet<String>, path: &str) {
    let head: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !head.is_empty() && head != "self" {
        out.insert(head);
    }
}

/// The part a file under `src/` belongs to: its first path component (`src/app/x.rs` → `app`,
/// `src/logging.rs` → `logging`); `lib.rs` and `main.rs` belong to none.
fn part_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let part = first.strip_suffix(".rs").unwrap_or(first);
    (part != "lib" && part != "main").then(|| part.to_owned())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `(file, from, to)` for each forbidden arrow.
fn violations(
    never: &BTreeMap<String, BTreeSet<String>>,
    files: &[(String, String, String)],
) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for (file, part, source) in files {
        let Some(forbidden) = never.get(part) else {
            continue;
        };
        for target in crate_targets(&code_of(source)) {
            if forbidden.contains(&target) {
                found.push((file.clone(), part.clone(), target));
            }
        }
    }
    found
}

fn doc() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md"))
        .expect("docs/architecture.md")
}

fn tree() -> Vec<(String, String, String)> {
    let src = Path::new(ROOT).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let part = part_of(&src, &p)?;
            let source = std::fs::read_to_string(&p).expect("read source");
            let rel = p.strip_prefix(ROOT).unwrap_or(&p).display().to_string();
            Some((rel, part, source))
        })
        .collect()
}

#[test]
fn no_forbidden_arrow_in_the_tree() {
    let never = never_table(&doc());
    assert!(
        never.contains_key("ui") && never.contains_key("app") && never.contains_key("cluster"),
        "the never table was read: {never:?}"
    );
    let found = violations(&never, &tree());
    assert!(
        found.is_empty(),
        "arrows docs/architecture.md §2 forbids:\n{}",
        found
            .iter()
            .map(|(f, a, b)| format!("  {f}: {a} → {b}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn every_part_of_the_tree_is_documented() {
    let documented = documented_parts(&doc());
    let parts: BTreeSet<String> = tree().into_iter().map(|(_, part, _)| part).collect();
    let missing: Vec<&String> = parts.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "top-level parts of src/ that docs/architecture.md §1 does not name: {missing:?}"
    );
}

#[test]
fn the_checker_sees_use_lines_groups_and_inline_paths() {
    let never = never_table(&doc());
    let files = vec![
        (
            "src/ui/x.rs".to_owned(),
            "ui".to_owned(),
            "use crate::{model::pod, cluster::Session};\n// use crate::sim::Sim;\n".to_owned(),
        ),
        (
            "src/app/y.rs".to_owned(),
            "app".to_owned(),
            "fn f() { crate::ui::help::max_scroll(3); crate::model::x(); }".to_owned(),
        ),
        (
            "src/cluster/z.rs".to_owned(),
            "cluster".to_owned(),
            "use crate::{\n    app::Msg,\n    cmd::{EXIT, other},\n};".to_owned(),
        ),
    ];
    let found: Vec<(String, String)> = violations(&never, &files)
        .into_iter()
        .map(|(_, a, b)| (a, b))
        .collect();
    assert_eq!(
        found,
        [
            ("ui".to_owned(), "cluster".to_owned()),
            ("app".to_owned(), "ui".to_owned()),
            ("cluster".to_owned(), "cmd".to_owned()),
        ]
    );
}

/// Comments point at `docs/…` in the repository: none cites an issue number or a file that a
/// clone does not have (docs/architecture.md, "Knowledge lives in the repository").
#[test]
fn no_comment_cites_an_issue_or_a_file_outside_the_repository() {
    let re =
        regex::Regex::new(r"(?i)\bissue #?\d|notes/protocols|shared/|style\.md").expect("regex");
    let mut found = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
        let mut paths = Vec::new();
        rust_files(&Path::new(ROOT).join(dir), &mut paths);
        for p in paths {
            let source = std::fs::read_to_string(&p).expect("read source");
            for (n, line) in source.lines().enumerate() {
                let comment = line.find("//").map(|i| &line[i..]);
                if comment.is_some_and(|c| re.is_match(c)) {
                    found.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// `crate → [crates it must never reach]` from §1's crate table (`| \`name\` | folder |
/// depends on | must never reach |`); backticks are dropped, prose after a space is ignored
/// (`kube (the client library)` names `kube`).
fn never_reach_table(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut table = BTreeMap::new();
    let mut lines = doc
        .lines()
        .skip_while(|l| !l.starts_with("| crate | folder | depends on | must never reach"));
    lines.next();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, _, _, never] = cells[..] else {
            panic!("a row of the crate table has four cells: {line}");
        };
        let never: BTreeSet<String> = never
            .split(',')
            .filter_map(|item| item.split_whitespace().next())
            .map(|w| w.trim_matches('`').to_owned())
            .filter(|w| !w.is_empty() && w != "—" && w != "any")
            .collect();
        table.insert(name.trim_matches('`').to_owned(), never);
    }
    table
}

/// The host's target triple, from `rustc -vV`.
fn host_triple() -> String {
    let out = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

/// The crates each workspace crate reaches through normal (non-dev, non-build) dependencies on
/// this host, from `cargo metadata`'s resolved graph (offline: the lock file and the crates the
/// build already fetched).
fn reached_crates() -> BTreeMap<String, BTreeSet<String>> {
    let host = host_triple();
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--filter-platform",
            &host,
        ])
        .current_dir(ROOT)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let name_of = |id: &str| -> String {
        meta["packages"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["id"] == id))
            .and_then(|p| p["name"].as_str())
            .unwrap_or(id)
            .to_owned()
    };
    let nodes = meta["resolve"]["nodes"].as_array().expect("resolve.nodes");
    let normal_deps = |id: &str| -> Vec<String> {
        nodes
            .iter()
            .find(|n| n["id"] == id)
            .and_then(|n| n["deps"].as_array())
            .into_iter()
            .flatten()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .is_some_and(|ks| ks.iter().any(|k| k["kind"].is_null()))
            })
            .filter_map(|d| d["pkg"].as_str().map(str::to_owned))
            .collect()
    };
    let mut reached = BTreeMap::new();
    for member in meta["workspace_members"]
        .as_array()
        .expect("workspace_members")
    {
        let start = member.as_str().expect("member id");
        let mut seen = BTreeSet::new();
        let mut todo = normal_deps(start);
        while let Some(id) = todo.pop() {
            if seen.insert(id.clone()) {
                todo.extend(normal_deps(&id));
            }
        }
        reached.insert(name_of(start), seen.iter().map(|id| name_of(id)).collect());
    }
    reached
}

#[test]
fn the_crate_graph_keeps_the_pure_crate_pure_and_the_simulator_apart() {
    let never = never_reach_table(&doc());
    assert!(
        never
            .get("podscope-model")
            .is_some_and(|n| n.contains("tokio"))
            && never
                .get("podscope-sim")
                .is_some_and(|n| n.contains("kube")),
        "the crate table was read: {never:?}"
    );
    let reached = reached_crates();
    assert_eq!(
        reached.keys().cloned().collect::<BTreeSet<_>>(),
        ["podscope", "podscope-model", "podscope-sim"]
            .map(str::to_owned)
            .into(),
        "the workspace's crates"
    );
    assert!(
        reached["podscope"].contains("podscope-sim")
            && reached["podscope-sim"].contains("podscope-model")
    );
    let mut found = Vec::new();
    for (krate, forbidden) in &never {
        let Some(reach) = reached.get(krate) else {
            panic!("{krate} of docs/architecture.md §1 is not a workspace crate");
        };
        for bad in forbidden.intersection(reach) {
            found.push(format!("  {krate} reaches {bad}"));
        }
    }
    assert!(
        found.is_empty(),
        "crate arrows §1 forbids:\n{}",
        found.join("\n")
    );
}
