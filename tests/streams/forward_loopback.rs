//! Both loopbacks, as kubectl's default `--address localhost` (`docs/protocols.md` §4.4): a
//! forward without an address listens on `127.0.0.1` and `[::1]` on the same port, a connection
//! through either reaches the pod, one loopback that cannot be bound is reported while the other
//! serves, and only both failing is a bind error. Against the in-process simulator's `hello`.

use crate::stream_support;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use podscope::cluster::forward::{ForwardError, ForwardEvent, Forwarder};
use podscope::model::forward::PortSpec;
use stream_support::{body, client, get, kubeconfig, podscope};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

fn spec(s: &str) -> PortSpec {
    s.parse().expect("port spec")
}

/// Whether this host can bind `[::1]` at all; when not, the tests say so and check the
/// reported failure instead of a connection through it.
fn ipv6_loopback() -> bool {
    let ok = std::net::TcpListener::bind("[::1]:0").is_ok();
    if !ok {
        eprintln!("no IPv6 loopback on this host: checking that [::1] is reported as unbound");
    }
    ok
}

fn v4(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

fn v6(port: u16) -> SocketAddr {
    SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, port))
}

fn drain(fwd: &mut Forwarder) -> Vec<ForwardEvent> {
    let mut events = fwd.take_events().expect("events");
    let mut seen = Vec::new();
    while let Ok(ev) = events.try_recv() {
        seen.push(ev);
    }
    seen
}

/// `:8081` binds 127.0.0.1 on a random port and [::1] on the same one; `hello from hello` comes
/// back through [::1]; both are announced, in kubectl's order; an explicit address binds alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_loopbacks_listen_and_ipv6_reaches_the_pod() {
    let sim = stream_support::start().await;
    let mut fwd = Forwarder::start(client(&sim).await, "default", "hello", &[spec(":8081")])
        .await
        .expect("binds");
    let st = fwd.statuses()[0].clone();
    let port = st.local.expect("bound").port();
    assert_ne!(port, 0);
    assert_eq!(st.local, Some(v4(port)));
    assert_eq!(fwd.local_addrs(), &[v4(port)]);
    let listening = |local| ForwardEvent::Listening {
        local,
        remote: "8081".into(),
    };
    if ipv6_loopback() {
        assert_eq!(st.locals, vec![v4(port), v6(port)]);
        assert_eq!(st.unbound, vec![]);
        assert_eq!(
            drain(&mut fwd),
            vec![listening(v4(port)), listening(v6(port))]
        );
        assert_eq!(body(&get(v6(port), "/").await), "hello from hello\n");
        assert_eq!(body(&get(v4(port), "/").await), "hello from hello\n");
    } else {
        assert_eq!(st.locals, vec![v4(port)]);
        assert_eq!(st.unbound.len(), 1, "{:?}", st.unbound);
        assert_eq!(st.unbound[0].0, v6(port));
        assert!(!st.unbound[0].1.is_empty());
        assert_eq!(body(&get(v4(port), "/").await), "hello from hello\n");
    }
    fwd.stop().await;
    for a in [v4(port), v6(port)] {
        assert!(
            tokio::net::TcpStream::connect(a).await.is_err(),
            "{a} still listening"
        );
    }
    // An address given binds that address alone, as kubectl's `--address 127.0.0.1`.
    let mut only = Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        &[spec("127.0.0.1:0:8081")],
    )
    .await
    .expect("binds");
    let st = only.statuses()[0].clone();
    let port = st.local.expect("bound").port();
    assert_eq!((st.locals, st.unbound), (vec![v4(port)], vec![]));
    assert_eq!(drain(&mut only), vec![listening(v4(port))]);
}

/// [::1]:P is taken by someone else: the forward keeps 127.0.0.1:P and says why [::1] is not
/// served (`ForwardStatus::unbound`, `ForwardEvent::ListenFailed`). Without IPv6 the same holds
/// with the host's reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_loopback_taken_keeps_the_other_and_says_so() {
    let sim = stream_support::start().await;
    let (port, _taken, reason) = if ipv6_loopback() {
        let taken = tokio::net::TcpListener::bind(v6(0)).await.expect("binds");
        let port = taken.local_addr().expect("addr").port();
        (port, Some(taken), Some("address already in use"))
    } else {
        let free = std::net::TcpListener::bind(v4(0)).expect("binds");
        (free.local_addr().expect("addr").port(), None, None)
    };
    let mut fwd = Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        &[spec(&format!("{port}:8081"))],
    )
    .await
    .expect("127.0.0.1 is enough");
    let st = fwd.statuses()[0].clone();
    assert_eq!(st.locals, vec![v4(port)]);
    assert_eq!(st.unbound.len(), 1, "{:?}", st.unbound);
    assert_eq!(st.unbound[0].0, v6(port));
    if let Some(reason) = reason {
        assert_eq!(st.unbound[0].1, reason);
    }
    let events = drain(&mut fwd);
    assert!(
        matches!(
            events.as_slice(),
            [
                ForwardEvent::Listening { local: a, .. },
                ForwardEvent::ListenFailed { local: b, reason: r },
            ] if *a == v4(port) && *b == v6(port) && r == &st.unbound[0].1
        ),
        "{events:?}"
    );
    assert_eq!(body(&get(v4(port), "/").await), "hello from hello\n");
}

/// Both loopbacks taken: nothing is forwarded, and the error names both addresses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_loopbacks_taken_is_a_bind_error() {
    let sim = stream_support::start().await;
    let taken = tokio::net::TcpListener::bind(v4(0)).await.expect("binds");
    let port = taken.local_addr().expect("addr").port();
    let v6_taken = if ipv6_loopback() {
        Some(
            tokio::net::TcpListener::bind(v6(port))
                .await
                .expect("[::1] free on that port"),
        )
    } else {
        None
    };
    let err = match Forwarder::start(
        client(&sim).await,
        "default",
        "hello",
        &[spec(&format!("{port}:8081"))],
    )
    .await
    {
        Err(e) => e,
        Ok(_) => panic!("bound a port in use"),
    };
    let ForwardError::Bind { failures } = &err else {
        panic!("{err}");
    };
    assert_eq!(
        failures.iter().map(|(a, _)| *a).collect::<Vec<_>>(),
        vec![v4(port), v6(port)]
    );
    if v6_taken.is_some() {
        assert_eq!(
            err.to_string(),
            format!(
                "unable to listen on 127.0.0.1:{port} and [::1]:{port}: address already in use"
            )
        );
    } else {
        assert!(
            err.to_string().starts_with(&format!(
                "unable to listen on 127.0.0.1:{port}: address already in use; [::1]:{port}: "
            )),
            "{err}"
        );
    }
}

/// The next line of `r` (without the newline), waited for at most 20 s.
async fn line<R: AsyncRead + Unpin>(r: &mut BufReader<R>) -> String {
    let mut l = String::new();
    tokio::time::timeout(Duration::from_secs(20), r.read_line(&mut l))
        .await
        .expect("a line within 20 s")
        .expect("reads");
    l.trim_end_matches('\n').to_owned()
}

/// `podscope port-forward hello P:8081` prints kubectl's two `Forwarding from` lines; with
/// [::1]:P taken it prints the 127.0.0.1 line, says `Unable to listen on port P: …` on stderr
/// and forwards through 127.0.0.1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_prints_both_loopbacks_or_says_which_one_it_could_not_bind() {
    let sim = stream_support::start().await;
    let kc = kubeconfig(&sim);
    let has_v6 = ipv6_loopback();
    let taken = if has_v6 {
        Some(tokio::net::TcpListener::bind(v6(0)).await.expect("binds"))
    } else {
        None
    };
    for taken in [None, taken] {
        let port = match &taken {
            Some(l) => l.local_addr().expect("addr").port(),
            None => {
                let free = std::net::TcpListener::bind(v4(0)).expect("binds");
                free.local_addr().expect("addr").port()
            }
        };
        let mut child = tokio::process::Command::new(podscope())
            .args(["port-forward", "--kubeconfig", &kc, "hello"])
            .arg(format!("{port}:8081"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawns");
        let mut out = BufReader::new(child.stdout.take().expect("stdout"));
        let mut err = BufReader::new(child.stderr.take().expect("stderr"));
        assert_eq!(
            line(&mut out).await,
            format!("Forwarding from 127.0.0.1:{port} -> 8081")
        );
        match (&taken, has_v6) {
            (None, true) => assert_eq!(
                line(&mut out).await,
                format!("Forwarding from [::1]:{port} -> 8081")
            ),
            (Some(_), _) => assert_eq!(
                line(&mut err).await,
                format!("Unable to listen on port {port}: [::1]:{port}: address already in use")
            ),
            (None, false) => {
                let e = line(&mut err).await;
                assert!(
                    e.starts_with(&format!("Unable to listen on port {port}: [::1]:{port}: ")),
                    "{e}"
                );
            }
        }
        assert_eq!(body(&get(v4(port), "/").await), "hello from hello\n");
        assert_eq!(
            line(&mut out).await,
            format!("Handling connection for {port}")
        );
        child.kill().await.expect("stopped");
        if !has_v6 {
            break;
        }
    }
}
