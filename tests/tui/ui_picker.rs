//! The pod picker, rendered (`docs/picker.md`): kubectl's columns (NAMESPACE first with `-A`,
//! NODE for a workload's pods), the count in the title, the standalone picker as the whole
//! screen, the watch's error, and a namespace of 5,000 pods drawn as its visible page.

use crate::common;
use common::{applied, key, proxy_and_app, render, rows, t0};
use crossterm::event::KeyCode;
use jiff::SignedDuration;
use podscope::app::state::Config;
use podscope::app::switcher::{self, PodChoice, Trouble};
use podscope::app::{Msg, State, update};
use podscope::model::PodPrint;
use podscope::ui::theme::Theme;

/// A row as the list+watch builds it: kubectl's columns from the printer.
fn choice(
    namespace: &str,
    name: &str,
    ready: (u32, u32),
    status: &str,
    restarts: i64,
) -> PodChoice {
    PodChoice {
        print: PodPrint {
            ready: ready.0,
            total: ready.1,
            status: status.to_owned(),
            restarts,
            last_restart: (restarts > 0).then(|| t0() - SignedDuration::from_secs(70)),
            ..PodPrint::default()
        },
        created: Some(t0() - SignedDuration::from_mins(12)),
        trouble: match status {
            "CrashLoopBackOff" | "ImagePullBackOff" => Trouble::Waiting,
            "Pending" | "ContainerCreating" => Trouble::Pending,
            _ if ready.0 < ready.1 => Trouble::NotReady,
            _ => Trouble::Running,
        },
        ..PodChoice::named(namespace, name)
    }
}

fn shop() -> Vec<PodChoice> {
    vec![
        choice("shop", "web-6c8f9-abcde", (1, 1), "Running", 0),
        choice("shop", "crash", (0, 1), "CrashLoopBackOff", 5),
        choice("shop", "cart-0", (1, 2), "Running", 1),
        choice("shop", "mailer-7d9f8-x2x2x", (0, 1), "ContainerCreating", 0),
        choice(
            "kube-system",
            "coredns-5d78c9869d-h4k2s",
            (1, 1),
            "Running",
            0,
        ),
    ]
}

/// `shop/cart-0` shown with the picker open (every namespace when `all`) on [`shop`]'s rows.
fn over_a_pod(all: bool) -> State {
    let mut s = applied(proxy_and_app());
    s.target.namespace = "shop".into();
    s.target.name = "cart-0".into();
    s.config.can_switch = true;
    s.config.all_namespaces = all;
    update(&mut s, key(KeyCode::Char('P')));
    let mut list = shop();
    if !all {
        list.retain(|p| p.namespace == "shop");
    }
    update(&mut s, Msg::PodList(list));
    s
}

/// A bare `podscope -n shop` (or `-A`): the picker as the whole screen.
fn standalone(all: bool, list: Vec<PodChoice>) -> State {
    let config = Config {
        can_switch: true,
        all_namespaces: all,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "shop", "", t0());
    switcher::open_standalone(&mut s);
    update(&mut s, Msg::PodList(list));
    s
}

/// The screen's line containing `needle`, its cells joined by single spaces.
fn line(screen: &[String], needle: &str) -> String {
    screen
        .iter()
        .find(|l| l.contains(needle))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

#[test]
fn over_a_pod_the_picker_shows_kubectls_columns_most_trouble_first() {
    let s = over_a_pod(false);
    let screen = rows(&render(&s, 80, 24));
    assert!(
        line(&screen, "pods in shop (4)").contains("┌ pods in shop (4)"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "READY   ").contains("NAME READY STATUS RESTARTS AGE"),
        "{screen:#?}"
    );
    assert!(
        !line(&screen, "READY   ").contains("NAMESPACE"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "crash").contains("crash 0/1 CrashLoopBackOff 5 (70s ago) 12m"),
        "{screen:#?}"
    );
    assert!(line(&screen, "▶*").contains("▶* cart-0 1/2 Running 1 (70s ago) 12m"));
    // Most trouble first: crash, mailer (pending), cart-0 (not ready), web.
    let order: Vec<usize> = ["   crash ", "mailer", "▶* cart-0", "web-6c8f9"]
        .iter()
        .map(|n| screen.iter().position(|l| l.contains(n)).expect("shown"))
        .collect();
    assert!(order.is_sorted(), "{screen:#?}");
    insta::assert_snapshot!("picker@80x24", render(&s, 80, 24));
}

#[test]
fn with_all_namespaces_the_namespace_column_comes_first() {
    let s = over_a_pod(true);
    let screen = rows(&render(&s, 80, 24));
    assert!(
        line(&screen, "READY  ").contains("NAMESPACE NAME READY STATUS RESTARTS AGE"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "pods in all namespaces (5)").starts_with("┌"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "coredns").contains("kube-sys… coredns-5d78c9869d-h4k2s 1/1 Running 0 12m"),
        "{screen:#?}"
    );
    insta::assert_snapshot!("picker_all_namespaces@80x24", render(&s, 80, 24));
}

#[test]
fn the_standalone_picker_is_the_whole_screen() {
    let list: Vec<PodChoice> = shop()
        .into_iter()
        .filter(|p| p.namespace == "shop")
        .collect();
    let mut s = standalone(false, list);
    let screen = rows(&render(&s, 80, 24));
    assert!(screen[0].starts_with("┌ pods in shop (4) "), "{screen:#?}");
    assert!(screen[23].starts_with("└"), "{screen:#?}");
    assert!(
        !screen.iter().any(|l| l.contains("connecting")),
        "{screen:#?}"
    );
    insta::assert_snapshot!("picker_standalone@80x24", render(&s, 80, 24));
    for c in "cra".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    let screen = rows(&render(&s, 80, 24));
    assert!(
        screen[0].starts_with("┌ pods in shop (4, 1 shown) "),
        "{screen:#?}"
    );
    assert!(line(&screen, "filter:").contains("filter: cra"));
    assert!(
        line(&screen, "crash").starts_with("│▶ crash 0/1 CrashLoopBackOff"),
        "{screen:#?}"
    );
    // There is no pod to switch from: Enter attaches.
    assert!(
        line(&screen, "next pod").contains("Enter attach Esc"),
        "{screen:#?}"
    );
    let all = standalone(true, shop());
    insta::assert_snapshot!(
        "picker_standalone_all_namespaces@80x24",
        render(&all, 80, 24)
    );
}

#[test]
fn loading_and_a_failing_watch_are_said() {
    let config = Config {
        can_switch: true,
        ..Config::new(Theme::monochrome())
    };
    let mut s = State::with_config(config, "shop", "", t0());
    switcher::open_standalone(&mut s);
    let screen = rows(&render(&s, 80, 24));
    assert!(screen[0].starts_with("┌ pods in shop ─"), "{screen:#?}");
    assert!(
        line(&screen, "loading").contains("loading pods…"),
        "{screen:#?}"
    );
    update(
        &mut s,
        Msg::PodListFailed("forbidden (403): cannot list pods in namespace \"shop\": no".into()),
    );
    let screen = rows(&render(&s, 80, 24));
    assert!(
        line(&screen, "forbidden")
            .contains("forbidden (403): cannot list pods in namespace \"shop\": no; retrying"),
        "{screen:#?}"
    );
    update(&mut s, Msg::PodList(Vec::new()));
    let screen = rows(&render(&s, 80, 24));
    assert!(line(&screen, "no pods").contains("no pods"), "{screen:#?}");
    assert!(
        !screen.iter().any(|l| l.contains("retrying")),
        "{screen:#?}"
    );
}

#[test]
fn a_workloads_pods_show_their_node() {
    let mut s = applied(proxy_and_app());
    let mut pods = vec![
        choice("default", "web-7d9f8-k2x9q", (0, 1), "CrashLoopBackOff", 3),
        choice("default", "web-7d9f8-pending", (0, 1), "Pending", 0),
        choice("default", "web", (1, 1), "Running", 0),
    ];
    pods[0].node = Some("node-2".into());
    pods[2].node = Some("node-1".into());
    switcher::open_rows(&mut s, pods);
    let screen = rows(&render(&s, 100, 24));
    assert!(
        line(&screen, "READY   ").contains("NAME READY STATUS RESTARTS AGE NODE"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "k2x9q").ends_with("12m node-2 │"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "pending").contains("Pending 0 12m <none>"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "▶*").contains("▶* web 1/1 Running 0 12m node-1"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "pods in default (3)").starts_with("┌"),
        "{screen:#?}"
    );
}

#[test]
fn five_thousand_pods_draw_the_visible_page_and_the_count() {
    let list: Vec<PodChoice> = (0..5000)
        .map(|i| {
            let status = if i % 1000 == 7 {
                "CrashLoopBackOff"
            } else {
                "Running"
            };
            choice("shop", &format!("web-{i:04}"), (1, 1), status, 0)
        })
        .collect();
    let mut s = standalone(false, list);
    let screen = rows(&render(&s, 80, 24));
    assert!(
        screen[0].starts_with("┌ pods in shop (5000) "),
        "{screen:#?}"
    );
    // The page: 24 rows less the border, filter, headers and hint; the five crash-looping first.
    let listed: Vec<&String> = screen.iter().filter(|l| l.contains("web-")).collect();
    assert_eq!(listed.len(), 24 - 5, "{screen:#?}");
    assert!(listed[0].contains("▶  web-0007"), "{screen:#?}");
    assert!(listed[4].contains("web-4007"), "{screen:#?}");
    assert!(listed[5].contains("web-0000"), "{screen:#?}");
    // Typing narrows the count; the end of the list is reachable by pages.
    for c in "web-49".chars() {
        update(&mut s, key(KeyCode::Char(c)));
    }
    let screen = rows(&render(&s, 80, 24));
    assert!(
        screen[0].starts_with("┌ pods in shop (5000, 100 shown) "),
        "{screen:#?}"
    );
    update(&mut s, Msg::Resize(80, 24));
    for _ in 0..10 {
        update(&mut s, key(KeyCode::PageDown));
    }
    let screen = rows(&render(&s, 80, 24));
    assert!(line(&screen, "▶").contains("▶ web-4999"), "{screen:#?}");
}

/// The demo's longest rows (`podscope demo`, `P`): NAME keeps its full width; RESTARTS' age,
/// the namespace and STATUS give way first; at 120 columns the box grows past 100 so nothing
/// is cut.
fn demo_names() -> State {
    let mut s = applied(proxy_and_app());
    s.target.namespace = "integration".into();
    s.target.name = "sample-api-7f9c6d5b4-x2x2x".into();
    s.config.can_switch = true;
    s.config.all_namespaces = true;
    update(&mut s, key(KeyCode::Char('P')));
    let mut drain = choice(
        "integration",
        "drain-leader-6d9b7c5f8-h4k2s",
        (0, 1),
        "Init:CreateContainerConfigError",
        23,
    );
    drain.trouble = Trouble::Waiting;
    let list = vec![
        drain,
        choice(
            "integration",
            "sample-api-7f9c6d5b4-x2x2x",
            (1, 1),
            "Running",
            2,
        ),
        choice("default", "crash", (0, 1), "CrashLoopBackOff", 5),
    ];
    update(&mut s, Msg::PodList(list));
    s
}

#[test]
fn long_names_keep_their_width_and_the_box_grows_with_the_terminal() {
    let s = demo_names();
    let screen = rows(&render(&s, 80, 24));
    let drain = line(&screen, "drain-leader");
    assert!(
        drain.contains("integrat… drain-leader-6d9b7c5f8-h4k2s 0/1 Init:Create… 23 12m"),
        "{screen:#?}"
    );
    assert!(
        line(&screen, "▶*").contains("sample-api-7f9c6d5b4-x2x2x 1/1 Running 2 12m"),
        "{screen:#?}"
    );
    insta::assert_snapshot!("picker_long_names@80x24", render(&s, 80, 24));
    // At 120 columns every cell is whole, in a box wider than the usual 100 columns.
    let screen = rows(&render(&s, 120, 40));
    assert!(
        line(&screen, "drain-leader").contains(
            "integration drain-leader-6d9b7c5f8-h4k2s 0/1 Init:CreateContainerConfigError 23 (70s ago) 12m"
        ),
        "{screen:#?}"
    );
    let top = screen
        .iter()
        .find(|l| l.contains("┌ pods in all namespaces"))
        .expect("box");
    let width = top.trim().chars().count();
    assert!((100..=116).contains(&width), "{width}: {top}");
    insta::assert_snapshot!("picker_long_names@120x40", render(&s, 120, 40));
}
