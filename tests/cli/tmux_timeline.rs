//! `T` and `C` on a real terminal (tmux) attached to the simulator's `hello` pod: the timeline
//! shows the seed's start order (render-config completes before proxy starts, proxy passes its
//! startup gate before hello runs), and `C` puts the view's text on the clipboard through OSC
//! 52, which tmux (`set-clipboard on`) keeps as a paste buffer.

use crate::common;
use common::sim::{scenario, wait_pod};
use common::tmux::{Session, keys, missing, new_session, tmux, wait_for};
use podscope::sim::{SimConfig, Simulator};

/// The row of the first line containing every one of `words`.
fn row(screen: &str, words: &[&str]) -> Option<usize> {
    screen
        .lines()
        .position(|l| words.iter().all(|w| l.contains(w)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_shows_the_start_order_and_c_copies_it_through_osc_52() {
    if missing("the timeline view in tmux") {
        return;
    }
    let sim = Simulator::start(SimConfig {
        scenarios: vec![scenario("hello.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 60, |p| p.status.is_some()).await;
    let session = format!("podscope-timeline-{}", std::process::id());
    let cmd = format!(
        "{} --kubeconfig {} hello",
        env!("CARGO_BIN_EXE_podscope"),
        sim.kubeconfig_path().display()
    );
    tokio::task::block_in_place(|| {
        new_session(&session, 120, 40, &cmd);
        let _guard = Session(session.clone());
        wait_for(&session, "the pod view", 30, |s| s.contains("2/2"));
        tmux(&["set-option", "-g", "set-clipboard", "on"]).expect("set-clipboard");

        keys(&session, "T");
        // Live: wait until hello has started (the view is rebuilt on every change).
        let screen = wait_for(&session, "the timeline up to hello's start", 30, |s| {
            s.contains(" timeline  default/hello")
                && row(s, &["hello", "waiting → running"]).is_some()
        });
        let completed = row(
            &screen,
            &["render-config", "terminated (Completed, exit 0)"],
        );
        let proxy_started = row(&screen, &["proxy", "started false → true"]);
        let hello_runs = row(&screen, &["hello", "waiting → running"]);
        assert!(
            matches!((completed, proxy_started, hello_runs), (Some(a), Some(b), Some(c)) if a < b && b < c),
            "start order {completed:?} {proxy_started:?} {hello_runs:?}:\n{screen}"
        );

        keys(&session, "C");
        let said = wait_for(&session, "the copy's confirmation", 10, |s| {
            s.contains("lines to the clipboard (OSC 52")
        });
        assert!(said.contains("copied "), "{said}");
        let buffers = tmux(&["list-buffers", "-F", "#{buffer_name}"]).unwrap_or_default();
        let copied = buffers
            .lines()
            .filter_map(|b| tmux(&["show-buffer", "-b", b]))
            .find(|text| text.contains("read back from the pod's fields and events"))
            .expect("a paste buffer with the timeline");
        assert!(copied.contains("render-config"), "{copied}");
        assert!(
            !copied.contains('\u{1b}'),
            "the copy carries no escape byte"
        );
    });
    sim.shutdown().await;
}
