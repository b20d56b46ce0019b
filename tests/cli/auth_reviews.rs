//! Access reviews against the simulator with a deny list: real kubectl (1.33 and 1.27, and
//! every other version installed) answers `auth can-i`, `auth can-i --list` and `auth whoami`
//! from `SimConfig::deny`; podscope's access check (`cluster::access`, what greys `e`/`d`/`f`)
//! reads the same answers; `podscope sim --deny create:pods/exec` refuses `kubectl exec` with
//! the API server's 403.

use crate::common;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::cluster::{kubectl_versions, run_bin};
use podscope::app::access::{Permission, Permissions};
use podscope::sim::{SimConfig, Simulator};
use tokio::io::{AsyncBufReadExt, BufReader};

/// The simulator (HTTPS, token) refusing `create pods/exec` and nothing else.
async fn start_denying_exec() -> Simulator {
    Simulator::start(SimConfig {
        deny: vec![("create".to_string(), "pods/exec".to_string())],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts")
}

/// The kubectl versions the proof names, plus any other installed one.
fn matrix() -> Vec<(String, std::path::PathBuf)> {
    let all = kubectl_versions();
    for wanted in ["1.27", "1.33"] {
        if !all.is_empty() && !all.iter().any(|(v, _)| v == wanted) {
            common::tools::skip(&format!("kubectl {wanted}"), "not installed");
        }
    }
    all
}

/// `kubectl auth can-i --list`'s table as rows of its four columns (Resources, Non-Resource
/// URLs, Resource Names, Verbs), header first; columns are separated by runs of spaces and the
/// verbs column is one `[…]`.
fn table(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let (head, verbs) = match line.find('[') {
                Some(i) if !line.starts_with("Resources") => {
                    let last = line.rfind(" [").map_or(i, |j| j + 1);
                    line.split_at(last)
                }
                _ => (line, ""),
            };
            let mut cols: Vec<String> = head
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned)
                .collect();
            if !verbs.is_empty() {
                cols.push(verbs.trim().to_owned());
            }
            cols
        })
        .collect()
}

async fn kubectl(bin: &Path, kc: &Path, cache: &Path, args: &[&str]) -> (bool, String, String) {
    run_bin(bin, kc, cache, args, &[]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_auth_answers_from_the_deny_list() {
    let versions = matrix();
    if versions.is_empty() {
        return;
    }
    let sim = start_denying_exec().await;
    let kc = sim.kubeconfig_path();
    for (version, bin) in versions {
        let cache = tempfile::tempdir().expect("cache dir");
        let cache = cache.path();
        // `pods/exec` is kubectl's TYPE/NAME: the pod named `exec` (`pkg/cmd/auth/cani.go`
        // splits at the slash into resource and name); a subresource is `--subresource`.
        let exec = ["auth", "can-i", "create", "pods", "--subresource=exec"];
        let (ok, out, err) = kubectl(&bin, kc, cache, &exec).await;
        assert_eq!((ok, out.as_str()), (false, "no\n"), "{version}: {err}");
        let named = ["auth", "can-i", "create", "pods/exec"];
        let (ok, out, err) = kubectl(&bin, kc, cache, &named).await;
        assert_eq!((ok, out.as_str()), (true, "yes\n"), "{version}: {err}");
        let (ok, out, err) = kubectl(&bin, kc, cache, &["auth", "can-i", "get", "pods"]).await;
        assert_eq!((ok, out.as_str()), (true, "yes\n"), "{version}: {err}");
        let get_exec = ["auth", "can-i", "get", "pods", "--subresource=exec"];
        let (ok, out, err) = kubectl(&bin, kc, cache, &get_exec).await;
        assert_eq!((ok, out.as_str()), (true, "yes\n"), "{version}: {err}");

        let (ok, out, err) = kubectl(&bin, kc, cache, &["auth", "can-i", "--list"]).await;
        assert!(ok, "{version}: can-i --list: {err}");
        let rows = table(&out);
        assert_eq!(
            rows[0],
            ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"],
            "{version}:\n{out}"
        );
        let row = |name: &str| {
            rows.iter()
                .find(|r| r.first().map(String::as_str) == Some(name))
                .unwrap_or_else(|| panic!("{version}: no {name} row in\n{out}"))
                .clone()
        };
        assert_eq!(
            row("pods/exec"),
            ["pods/exec", "[]", "[]", "[get]"],
            "{version}"
        );
        assert_eq!(
            row("pods"),
            [
                "pods",
                "[]",
                "[]",
                "[get list watch create update patch delete deletecollection]"
            ],
            "{version}"
        );
        assert_eq!(row("pods/portforward")[3], "[get create]", "{version}");
        assert_eq!(
            row("deployments.apps/scale")[3],
            "[get update patch]",
            "{version}"
        );
        // A non-resource row's first column is empty: the split leaves three.
        assert!(
            rows.iter().any(|r| r == &["[/healthz]", "[]", "[get]"]),
            "{version}: no /healthz row in\n{out}"
        );

        let (ok, out, err) = kubectl(&bin, kc, cache, &["auth", "whoami"]).await;
        assert!(ok, "{version}: whoami: {err}");
        let rows: Vec<Vec<&str>> = out
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows,
            [
                vec!["ATTRIBUTE", "VALUE"],
                vec!["Username", "podscope-sim"],
                vec!["Groups", "[system:authenticated]"]
            ],
            "{version}:\n{out}"
        );
    }
}

/// podscope's access check through the simulator: exec refused (no reason, as RBAC), debug
/// and port-forward allowed; a refused review itself leaves the keys unknown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_check_reads_the_refusal() {
    let sim = start_denying_exec().await;
    let client = podscope::test_support::sim_client(&sim)
        .await
        .expect("client");
    let got = podscope::cluster::access::check(client, "default").await;
    assert_eq!(
        got,
        Permissions {
            namespace: "default".into(),
            exec: Permission::Denied {
                reason: String::new()
            },
            debug: Permission::Allowed,
            forward: Permission::Allowed,
        }
    );

    let no_reviews = Simulator::start(SimConfig {
        deny: vec![("create".into(), "selfsubjectaccessreviews".into())],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let client = podscope::test_support::sim_client(&no_reviews)
        .await
        .expect("client");
    let got = podscope::cluster::access::check(client, "shop").await;
    assert_eq!(
        got,
        Permissions {
            namespace: "shop".into(),
            ..Permissions::default()
        }
    );
}

/// The session asks once at start when the check is on, and the answer reaches the channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_session_sends_the_answer_once() {
    let sim = start_denying_exec().await;
    let target = common::sim::target(&sim, "default", "web").await;
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let _session = podscope::cluster::Session::start(target, tx).with_access_check();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut answers = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, rx.recv()).await {
        if let podscope::app::Msg::AccessChecked(p) = msg {
            answers.push(p);
            break;
        }
    }
    assert_eq!(answers.len(), 1, "no AccessChecked within 20 s");
    assert!(matches!(answers[0].exec, Permission::Denied { .. }));
    assert_eq!(answers[0].forward, Permission::Allowed);
}

/// `podscope sim --deny create:pods/exec` (the binary): kubectl exec is refused with the API
/// server's 403 wording, exit 1; a wrong value is a clap error, exit 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_sim_deny_refuses_kubectl_exec() {
    let bad = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args(["sim", "--deny", "exec:pods"])
        .output()
        .await
        .expect("podscope runs");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "invalid value 'exec:pods' for '--deny <VERB:RESOURCE>': unknown verb \"exec\""
        ),
        "{err}"
    );

    let Some(kubectl) = common::cluster::kubectl() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let kc = dir.path().join("sim.kubeconfig");
    let mut sim = tokio::process::Command::new(env!("CARGO_BIN_EXE_podscope"))
        .args([
            "sim",
            "--scenario",
            "hello",
            "--deny",
            "create:pods/exec",
            "--kubeconfig-out",
        ])
        .arg(&kc)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("podscope sim starts");
    let mut lines = BufReader::new(sim.stdout.take().expect("stdout")).lines();
    let ready = tokio::time::timeout(Duration::from_secs(30), async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.starts_with("kubeconfig: ") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(ready, Ok(true), "podscope sim printed no kubeconfig line");
    let cache = dir.path().join("cache");
    let (ok, out, err) = run_bin(
        &kubectl,
        &kc,
        &cache,
        &["exec", "hello", "-c", "proxy", "--", "hostname"],
        &[],
    )
    .await;
    assert_eq!(
        (ok, out.as_str(), err.as_str()),
        (
            false,
            "",
            "Error from server (Forbidden): pods \"hello\" is forbidden: User \"podscope-sim\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\"\n"
        )
    );
    let (ok, out, _) = run_bin(
        &kubectl,
        &kc,
        &cache,
        &["auth", "can-i", "create", "pods", "--subresource=exec"],
        &[],
    )
    .await;
    assert_eq!((ok, out.as_str()), (false, "no\n"));
    let _ = sim.start_kill();
    let _ = sim.wait().await;
}

/// The real TUI in tmux against a simulator refusing `create pods/exec`: at attach the footer
/// dims `e` with `(forbidden)`; `e` then says why in the status line and the pod view stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_greys_a_refused_exec_at_attach() {
    if common::tmux::missing("the greyed-key TUI test") {
        return;
    }
    let sim = Simulator::start(SimConfig {
        scenarios: vec!["hello".into()],
        deny: vec![("create".to_string(), "pods/exec".to_string())],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    let session = format!("podscope-access-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} -n default hello -c proxy",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display(),
    );
    tokio::task::block_in_place(|| {
        common::tmux::new_session(&session, 120, 40, &cmd);
        let greyed = common::tmux::wait_for(&session, "e greyed", 30, |s| {
            s.contains("READY 2/2") && s.contains("e shell (forbidden)")
        });
        assert!(
            greyed.contains("d debug container  f port-forwards"),
            "{greyed}"
        );
        common::tmux::keys(&session, "e");
        let said = common::tmux::wait_for(&session, "the refusal in the status line", 10, |s| {
            s.contains("e: forbidden: cannot create resource \"pods/exec\" in API group \"\" in the namespace \"default\"")
        });
        assert!(said.contains("READY 2/2"), "{said}");
        common::tmux::end(&session);
    });
    sim.shutdown().await;
}
