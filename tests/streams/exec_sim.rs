//! exec/attach against the in-process simulator: podscope's client (kube-rs, WebSocket v5),
//! the `podscope exec` binary, and real kubectl (1.30+) as the referee.

use crate::stream_support;
use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use podscope::cluster::exec::{ExecError, run_shell_with_io};
use regex::Regex;
use stream_support::{Buf, Kubectl, client, exec, podscope_exec};
use tokio::sync::mpsc;

/// Seed 000: "hostname в любом контейнере пода возвращает имя пода" — in every container with
/// a userland (the distroless hello container has no `hostname` binary).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostname_prints_the_pod_name_in_every_container() {
    let sim = stream_support::start().await;
    let c = client(&sim).await;
    let cases = [
        ("demo", "echo-svc-6b7d9c5f4-498nm", "echo"),
        ("demo", "echo-svc-6b7d9c5f4-498nm", "mesh-proxy"),
        ("default", "hello", "proxy"),
        ("workflow", "flow-engine-79bddd6df4-ft5jx", "engine"),
    ];
    for (ns, pod, container) in cases {
        let api: Api<Pod> = Api::namespaced(c.clone(), ns);
        let (code, out, err) = exec(&api, pod, container, &["hostname"], None)
            .await
            .expect("exec");
        assert_eq!(
            (code, out.as_str(), err.as_str()),
            (0, format!("{pod}\n").as_str(), ""),
            "{container}"
        );
    }
    let api: Api<Pod> = Api::namespaced(c, "default");
    let e = exec(&api, "hello", "hello", &["hostname"], None)
        .await
        .expect_err("distroless");
    assert!(matches!(e, ExecError::ExecutableNotFound { .. }), "{e:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_codes_stdin_and_nginx_config() {
    let sim = stream_support::start().await;
    let api: Api<Pod> = Api::namespaced(client(&sim).await, "default");
    let r = exec(
        &api,
        "hello",
        "proxy",
        &["sh", "-c", "echo out; echo err >&2; exit 3"],
        None,
    )
    .await
    .expect("exec");
    assert_eq!(r, (3, "out\n".into(), "err\n".into()));
    let r = exec(&api, "hello", "proxy", &["cat"], Some("abc\n"))
        .await
        .expect("exec");
    assert_eq!(r, (0, "abc\n".into(), String::new()));
    // The init container's heredoc is what the proxy serves (seed: `nginx -T`).
    let (code, out, err) = exec(&api, "hello", "proxy", &["nginx", "-T"], None)
        .await
        .expect("exec");
    assert_eq!(code, 0);
    assert!(err.contains("test is successful"), "{err}");
    assert!(
        out.contains(
            "# configuration file /etc/nginx/conf.d/default.conf:\nserver {\n  listen 8081;"
        ),
        "{out}"
    );
    assert!(out.contains("proxy_pass http://127.0.0.1:8080;"), "{out}");
    // Pipelines: `| head -3` gives the first three lines of what `cat` alone prints.
    let (_, whole, _) = exec(
        &api,
        "hello",
        "proxy",
        &["cat", "/etc/nginx/conf.d/default.conf"],
        None,
    )
    .await
    .expect("exec");
    assert!(whole.starts_with("server {\n  listen 8081;\n"), "{whole}");
    let first3: String = whole.split_inclusive('\n').take(3).collect();
    let script = "cat /etc/nginx/conf.d/default.conf | head -3";
    let r = exec(&api, "hello", "proxy", &["sh", "-c", script], None)
        .await
        .expect("exec");
    assert_eq!(r, (0, first3, String::new()));
    let script = "cat /etc/nginx/conf.d/default.conf | grep listen | wc -l";
    let r = exec(&api, "hello", "proxy", &["sh", "-c", script], None)
        .await
        .expect("exec");
    assert_eq!(r, (0, "1\n".into(), String::new()));
}

/// Seed 000 and case 30: no shell in a distroless image → the runtime's text, twice prefixed
/// by the apiserver (v5), and the no-shell variant for the TUI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn distroless_sh_fails_with_the_runtime_message_and_no_shell() {
    let sim = stream_support::start().await;
    let c = client(&sim).await;
    let want = Regex::new(r#"^Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in \$PATH: unknown$"#).expect("regex");
    for (ns, pod, container) in [
        ("default", "hello", "hello"),
        ("observability", "alert-router-0", "alert-router"),
    ] {
        let api: Api<Pod> = Api::namespaced(c.clone(), ns);
        match exec(&api, pod, container, &["sh"], None).await {
            Err(ExecError::ExecutableNotFound { message }) => {
                assert!(want.is_match(&message), "{message}")
            }
            other => panic!("expected ExecutableNotFound, got {other:?}"),
        }
        let (_tx, rx) = mpsc::channel(1);
        match run_shell_with_io(&api, pod, container, &["bash", "sh"], rx, Buf::default()).await {
            Err(ExecError::NoShell { tried, message }) => {
                assert_eq!(tried, ["bash", "sh"]);
                assert!(
                    message.contains(r#"exec: "sh": executable file not found in $PATH"#),
                    "{message}"
                );
            }
            other => panic!("expected NoShell, got {other:?}"),
        }
    }
    // nginx (Debian) has bash; with a tty the keystrokes are echoed and `\r` ends a line.
    let api: Api<Pod> = Api::namespaced(c, "default");
    let (tx, rx) = mpsc::channel(4);
    tx.send(b"hostname\rexit 5\r".to_vec()).await.expect("send");
    let out = Buf::default();
    let outcome = run_shell_with_io(&api, "hello", "proxy", &["bash", "sh"], rx, out.clone())
        .await
        .expect("shell");
    assert_eq!((outcome.shell.as_str(), outcome.exit_code), ("bash", 5));
    assert!(
        out.text().contains("hostname\r\nhello\r\n"),
        "{:?}",
        out.text()
    );
}

/// The API server's refusal `(reason, message)` of `true` in `container` of `pod`; panics when
/// the exec is not refused that way.
async fn api_refusal(api: &Api<Pod>, pod: &str, container: &str) -> (String, String) {
    match exec(api, pod, container, &["true"], None).await {
        Err(ExecError::Api { reason, message }) => (reason, message),
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apiserver_refusals() {
    let sim = stream_support::start().await;
    let api: Api<Pod> = Api::namespaced(client(&sim).await, "default");
    assert_eq!(
        api_refusal(&api, "hello", "nope").await,
        (
            "BadRequest".into(),
            "container nope is not valid for pod hello".into()
        )
    );
    assert_eq!(
        api_refusal(&api, "missing", "x").await,
        ("NotFound".into(), "pods \"missing\" not found".into())
    );
    // render-config is a completed init container: the kubelet finds no running container.
    match exec(&api, "hello", "render-config", &["true"], None).await {
        Err(ExecError::Failed(m)) => assert_eq!(
            m,
            "Internal error occurred: unable to upgrade connection: container not found (\"render-config\")"
        ),
        other => panic!("{other:?}"),
    }
}

/// `podscope exec` and kubectl agree on exit codes and messages (kubectl's output is the
/// reference, protocols.md §3.2/A.5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_exec_and_kubectl_exit_code_3() {
    let sim = stream_support::start().await;
    let exit_3 = ["hello", "-c", "proxy", "--", "sh", "-c", "echo hi; exit 3"];
    let (code, out, err) = podscope_exec(&sim, &exit_3, None).await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (3, "hi\n", "command terminated with exit code 3\n")
    );
    let cat = ["-i", "hello", "-c", "proxy", "--", "cat"];
    let (code, out, _) = podscope_exec(&sim, &cat, Some("abc\n")).await;
    assert_eq!((code, out.as_str()), (0, "abc\n"));
    let (code, _, err) = podscope_exec(&sim, &["hello", "--", "sh"], None).await;
    assert_eq!(code, 1);
    assert!(err.starts_with("error: Internal error occurred: Internal error occurred: error executing command in container:"), "{err}");

    let Some(kubectl) = Kubectl::or_skip() else {
        return;
    };
    let (code, out, err) = kubectl
        .run(&sim, &[&["exec"][..], &exit_3].concat(), None)
        .await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (3, "hi\n", "command terminated with exit code 3\n")
    );
    let (code, _, kerr) = kubectl
        .run(&sim, &["exec", "hello", "--", "sh"], None)
        .await;
    let seed = Regex::new(r#"^error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "sh": executable file not found in \$PATH: unknown\n$"#).expect("regex");
    assert_eq!(code, 1);
    assert!(seed.is_match(&kerr), "{kerr}");
    let (code, out, err) = kubectl
        .run(&sim, &[&["exec"][..], &cat].concat(), Some("abc\n"))
        .await;
    assert_eq!((code, out.as_str()), (0, "abc\n"), "{err}");
}

/// Exec into a container that is not running (render-config, a completed init container): the
/// apiserver's stream translator reports the kubelet's refusal in one InternalError, so kubectl
/// prints the `Internal error occurred: ` prefix once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_exec_into_a_stopped_container_says_internal_error_once() {
    let sim = stream_support::start().await;
    let Some(kubectl) = Kubectl::or_skip() else {
        return;
    };
    let (code, out, err) = kubectl
        .run(
            &sim,
            &["exec", "hello", "-c", "render-config", "--", "true"],
            None,
        )
        .await;
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "",
            "error: Internal error occurred: unable to upgrade connection: container not found (\"render-config\")\n"
        )
    );
}
