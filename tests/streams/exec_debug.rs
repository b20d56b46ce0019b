//! `podscope debug` and the ephemeralcontainers subresource against the simulator, with real
//! `kubectl debug` as the referee; plus the pure command set.

use crate::stream_support;
use k8s_openapi::api::core::v1::Pod;
use podscope::sim::runtime::{ContainerView, run_to_end};
use stream_support::{Kubectl, kubeconfig, podscope, run};

fn argv(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_string()).collect()
}

fn ephemeral_exit(pod: &Pod, prefix: &str) -> Option<i32> {
    pod.status
        .as_ref()?
        .ephemeral_container_statuses
        .as_ref()?
        .iter()
        .find(|s| s.name.starts_with(prefix))?
        .state
        .as_ref()?
        .terminated
        .as_ref()
        .map(|t| t.exit_code)
}

/// A busybox debugger targeting the distroless hello container sees its process, runs the
/// piped commands, and its exit ends the ephemeral container with that code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn podscope_debug_attaches_to_an_ephemeral_busybox() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let (code, out, err) = run(
        podscope(),
        &[
            "debug",
            "--kubeconfig",
            &kc,
            "hello",
            "--target",
            "hello",
            "--profile",
            "restricted",
        ],
        Some("hostname\nps\nexit 4\n"),
    )
    .await;
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("Defaulting debug container name to debugger-"),
        "{err}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "hello");
    assert_eq!(lines[1], "PID   USER     TIME  COMMAND");
    assert!(lines[2].ends_with(" /hello"), "{out}");
    let pod = sim.store().pod("default", "hello").expect("pod");
    let spec = pod
        .spec
        .as_ref()
        .and_then(|s| s.ephemeral_containers.clone())
        .expect("ephemeral");
    assert_eq!(spec[0].target_container_name.as_deref(), Some("hello"));
    assert_eq!(spec[0].image.as_deref(), Some("busybox:1.37"));
    let sc = spec[0]
        .security_context
        .clone()
        .expect("restricted profile");
    assert_eq!(sc.run_as_non_root, Some(true));
    assert_eq!(ephemeral_exit(&pod, "debugger-"), Some(4));

    let Some(kubectl) = Kubectl::or_skip() else {
        return;
    };
    let (code, out, err) = kubectl
        .run(
            &sim,
            &[
                "debug",
                "-i",
                "hello",
                "--image=busybox:1.37",
                "--target=hello",
                "--profile=general",
                "--",
                "sh",
            ],
            Some("hostname\nexit 0\n"),
        )
        .await;
    // kubectl prints its notices on stdout when stdin is not a terminal.
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Defaulting debug container name to debugger-"),
        "{out}"
    );
    assert!(out.ends_with("\nhello\n"), "{out}");
    let pod = sim.store().pod("default", "hello").expect("pod");
    assert_eq!(
        pod.spec
            .and_then(|s| s.ephemeral_containers)
            .map(|l| l.len()),
        Some(2)
    );
}

#[test]
fn command_set_reads_the_pod() {
    let pod = podscope::sim::load_fixture(&stream_support::hello_dir())
        .expect("fixture")
        .pod;
    let proxy = ContainerView::new(&pod, "proxy").expect("proxy");
    let (out, _, code) =
        run_to_end(&proxy, &argv(&["ls", "/etc/nginx/conf.d"]), b"").expect("runs");
    assert_eq!((out, code), (b"default.conf\n".to_vec(), 0));
    let (out, _, _) = run_to_end(&proxy, &argv(&["cat", "/etc/hostname"]), b"").expect("runs");
    assert_eq!(out, b"hello\n");
    // ps is not installed in Debian-based nginx.
    let (_, err, code) = run_to_end(&proxy, &argv(&["sh", "-c", "ps"]), b"").expect("runs");
    assert_eq!(
        (String::from_utf8_lossy(&err).as_ref(), code),
        ("sh: 1: ps: not found\n", 127)
    );
    let (out, _, code) = run_to_end(
        &proxy,
        &argv(&["sh"]),
        b"echo $HOSTNAME\nfalse || echo fallback\nexit 7\n",
    )
    .expect("runs");
    assert_eq!((out, code), (b"hello\nfallback\n".to_vec(), 7));
    let init = ContainerView::new(&pod, "render-config").expect("init");
    let (_, err, _) = run_to_end(&init, &argv(&["cat", "/etc/os-release"]), b"").expect("runs");
    assert_eq!(
        err,
        b"cat: can't open '/etc/os-release': No such file or directory\n"
    );
    let hello = ContainerView::new(&pod, "hello").expect("hello");
    let nf = run_to_end(&hello, &argv(&["ls"]), b"").expect_err("distroless");
    assert_eq!(nf.executable, "ls");
}
