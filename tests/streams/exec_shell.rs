//! The interactive shell against the in-process simulator: the configured shell (`--shell`) is
//! the one executed, a missing one is the no-shell case; resize messages reach the shell
//! (`stty size`).

use crate::stream_support;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::Api;
use podscope::cluster::exec::{ExecError, ExecRequest, pump, run_shell_with_io, start};
use stream_support::wait::wait_until;
use stream_support::{Buf, client, exec};
use tokio::sync::mpsc;

/// A configured shell (`--shell /bin/sh`) is what runs, even where bash exists: `$0` is the
/// command as given and the prompt is dash's; a configured shell missing from the image is
/// the no-shell case (the TUI offers the debug container), naming only that shell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_configured_shell_is_the_one_executed() {
    let sim = stream_support::start().await;
    let api: Api<Pod> = Api::namespaced(client(&sim).await, "default");
    let (tx, rx) = mpsc::channel(4);
    tx.send(b"echo $0\rexit 2\r".to_vec()).await.expect("send");
    let out = Buf::default();
    let outcome = run_shell_with_io(&api, "hello", "proxy", &["/bin/sh"], rx, out.clone())
        .await
        .expect("shell");
    assert_eq!((outcome.shell.as_str(), outcome.exit_code), ("/bin/sh", 2));
    let text = out.text();
    assert!(
        text.starts_with("# echo $0\r\n/bin/sh\r\n# exit 2"),
        "{text:?}"
    );
    let (_tx, rx) = mpsc::channel(1);
    let result = run_shell_with_io(&api, "hello", "proxy", &["zsh"], rx, Buf::default()).await;
    match &result {
        Err(ExecError::NoShell { tried, message }) => {
            assert_eq!(tried, &["zsh"]);
            assert!(
                message.contains(r#"exec: "zsh": executable file not found in $PATH"#),
                "{message}"
            );
        }
        other => panic!("expected NoShell, got {other:?}"),
    }
    assert_eq!(
        podscope::cluster::shell::shell_end(result),
        podscope::app::msg::ShellEnd::NoShell {
            tried: vec!["zsh".into()]
        }
    );
}

/// Resize over the wire: a tty shell's `stty size` prints `0 0` before any resize (a fresh pty),
/// then `ROWS COLS` of the last resize message kube-rs sent on channel 4; without a tty stty
/// fails as on a pipe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stty_size_reports_the_last_resize() {
    use kube::api::TerminalSize;
    let sim = stream_support::start().await;
    let api: Api<Pod> = Api::namespaced(client(&sim).await, "default");
    let req = ExecRequest {
        container: Some("proxy".into()),
        command: vec!["sh".into()],
        stdin: true,
        tty: true,
    };
    let p = start(&api, "hello", &req).await.expect("starts");
    let (keys, keys_rx) = mpsc::channel(16);
    let (sizes, sizes_rx) = mpsc::channel(4);
    let out = Buf::default();
    let session = tokio::spawn(pump(
        p,
        Some(keys_rx),
        out.clone(),
        tokio::io::sink(),
        Some(sizes_rx),
    ));
    let seen =
        async |what: &str, within: Duration| wait_until(within, || out.text().contains(what)).await;
    keys.send(b"stty size\r".to_vec()).await.expect("send");
    assert!(
        seen("stty size\r\n0 0\r\n", Duration::from_secs(10)).await,
        "{:?}",
        out.text()
    );
    sizes
        .send(TerminalSize {
            width: 100,
            height: 30,
        })
        .await
        .expect("resize");
    // The resize and the keys travel through different queues: ask until the size arrived
    // (each answer waited for up to 1 s, 20 s in all).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut resized = false;
    while !resized && tokio::time::Instant::now() < deadline {
        keys.send(b"stty size\r".to_vec()).await.expect("send");
        resized = seen("\r\n30 100\r\n", Duration::from_secs(1)).await;
    }
    assert!(resized, "{:?}", out.text());
    keys.send(b"exit 3\r".to_vec()).await.expect("send");
    let code = session.await.expect("joins").expect("exit status");
    assert_eq!(code, 3);
    let r = exec(&api, "hello", "proxy", &["stty", "size"], None)
        .await
        .expect("exec");
    assert_eq!(
        r,
        (
            1,
            String::new(),
            "stty: 'standard input': Inappropriate ioctl for device\n".into()
        )
    );
}
