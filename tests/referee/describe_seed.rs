//! Our describe text of the seed's hello pod, run by the simulator on the seed's node, against
//! the seed's captured `kubectl describe pod hello` section for section: the sections in order,
//! each container's names, images, ports, states, ready, restart counts and probe lines, the
//! conditions in order, and the events in order. The pod and its events are read through the
//! API. The seed was captured with a kubectl newer than 1.33 (ports with their names, event
//! messages after their fieldPath), so the text is rendered in that layout
//! (`Layout { kubectl_minor: 34 }`). Oracle: the seed's describe output (the same text
//! `tests/sim/sim_dynamic_hello.rs` checks kubectl against).

use crate::common;
use crate::describe_support;
use std::collections::BTreeMap;

use common::kubelet::seed_node;
use common::seed;
use common::sim::{all_ready, client, scenario, wait_pod};
use describe_support::read;
use jiff::{SignedDuration, Timestamp};
use podscope::model::EventSummary;
use podscope::model::describe::{Layout, describe_pod_with};
use podscope::sim::{SimClock, SimConfig, Simulator};

/// The top-level section titles (`Key:` at column 0), in order.
fn sections(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with(' ') && !l.is_empty())
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

/// The Events rows as (type, reason, from, message), cut at the header's column starts.
fn events(text: &str) -> Vec<(String, String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().position(|l| *l == "Events:") else {
        return Vec::new();
    };
    let header = lines[at + 1];
    let col = |h: &str| header.find(h).expect("events header column");
    let (reason, age, from, message) = (col("Reason"), col("Age"), col("From"), col("Message"));
    lines[at + 3..]
        .iter()
        .map(|l| {
            let cell = |a: usize, b: usize| l[a..b].trim().to_string();
            (
                cell(2, reason),
                cell(reason, age),
                cell(from, message),
                l[message..].to_string(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_matches_the_seed_section_for_section() {
    let sim = Simulator::start(SimConfig {
        clock: SimClock::scaled(Timestamp::now() - SignedDuration::from_hours(2), 10.0),
        node: seed_node(),
        scenarios: vec![scenario("hello.yaml")],
        ..SimConfig::default()
    })
    .await
    .expect("simulator starts");
    wait_pod(&sim.store(), "hello", 30, all_ready).await;
    let client = client(&sim).await;
    let (pod, evs) = read(&client, "default", "hello").await;
    let evs: Vec<EventSummary> = evs.iter().map(EventSummary::from_event).collect();
    let layout = Layout { kubectl_minor: 34 };
    let text = describe_pod_with(&pod, &evs, sim.store().now(), layout);

    let want_sections = [
        "Name",
        "Namespace",
        "Priority",
        "Service Account",
        "Node",
        "Start Time",
        "Labels",
        "Annotations",
        "Status",
        "IP",
        "IPs",
        "Init Containers",
        "Containers",
        "Conditions",
        "Volumes",
        "QoS Class",
        "Node-Selectors",
        "Tolerations",
        "Events",
    ];
    assert_eq!(sections(&text), want_sections, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    for want in [
        "Node:             k8s-node-2/192.168.10.21",
        "Status:           Running",
        "QoS Class:                   BestEffort",
    ] {
        assert!(lines.contains(&want), "no {want:?} in\n{text}");
    }

    let ours = seed::blocks(&text);
    let seed = seed::blocks(seed::DESCRIBE);
    let order = |b: &BTreeMap<String, Vec<(String, String)>>, t: &str| -> Vec<String> {
        let mut names: Vec<(usize, String)> = b
            .keys()
            .filter(|k| *k != "Conditions")
            .map(|k| {
                (
                    t.find(&format!("  {k}:\n")).unwrap_or(usize::MAX),
                    k.clone(),
                )
            })
            .collect();
        names.sort();
        names.into_iter().map(|(_, k)| k).collect()
    };
    assert_eq!(
        order(&ours, &text),
        order(&seed, seed::DESCRIBE),
        "container order"
    );
    for (block, lines) in &seed {
        let have = ours
            .get(block)
            .unwrap_or_else(|| panic!("no block {block} in\n{text}"));
        if block == "Conditions" {
            assert_eq!(have, lines, "conditions in order");
            continue;
        }
        for (k, v) in lines {
            let found = have
                .iter()
                .find(|(hk, _)| hk == k)
                .map(|(_, hv)| hv.as_str());
            match k.as_str() {
                // Digests are per build.
                "Image ID" => assert!(
                    found.is_some_and(|f| f.starts_with("ghcr.io/example/hello@sha256:")),
                    "{block}: Image ID {found:?}"
                ),
                _ => assert_eq!(found, Some(v.as_str()), "{block} {k}"),
            }
        }
    }

    let want: Vec<(String, String, String, String)> = seed::EVENTS
        .iter()
        .map(|(t, r, _, f, m)| (t.to_string(), r.to_string(), f.to_string(), m.to_string()))
        .collect();
    // Every kubelet event names its container by fieldPath before the message; the seed's
    // table is kept without that prefix.
    let got: Vec<(String, String, String, String)> = events(&text)
        .into_iter()
        .map(|(t, r, f, m)| {
            let m = match m.split_once("}: ") {
                Some((fp, rest)) if fp.starts_with("spec.") => rest.to_string(),
                _ => {
                    assert_ne!(f, "kubelet", "no fieldPath before {m:?}");
                    m
                }
            };
            (t, r, f, m)
        })
        .collect();
    assert_eq!(got, want, "{text}");
    sim.shutdown().await;
}
