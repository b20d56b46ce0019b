//! The `kubectl get nodes` Table: `printNode` of `pkg/printers/internalversion/printers.go` —
//! Name, Status, Roles, Age, Version (priority 0) and Internal-IP, External-IP, OS-Image,
//! Kernel-Version, Container-Runtime (priority 1, `-o wide`). See `docs/nodes.md` §1.

use jiff::Timestamp;
use k8s_openapi::api::core::v1::Node;
use serde_json::{Value, json};

use super::column;
use podscope_model::duration::human_duration;
use podscope_model::node::NodeSummary;

pub(super) fn columns() -> Vec<Value> {
    vec![
        column(
            "Name",
            0,
            "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.",
        ),
        column("Status", 0, "The status of the node"),
        column("Roles", 0, "The roles of the node"),
        column(
            "Age",
            0,
            "CreationTimestamp is a timestamp representing the server time when this object was created.",
        ),
        column("Version", 0, "Kubelet Version reported by the node."),
        column(
            "Internal-IP",
            1,
            "List of addresses reachable to the node. Queried from cloud provider, if available.",
        ),
        column(
            "External-IP",
            1,
            "List of addresses reachable to the node. Queried from cloud provider, if available.",
        ),
        column(
            "OS-Image",
            1,
            "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
        ),
        column(
            "Kernel-Version",
            1,
            "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
        ),
        column(
            "Container-Runtime",
            1,
            "Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
        ),
    ]
}

/// The roles kubectl prints: the suffix of each `node-role.kubernetes.io/<role>` label and the
/// value of `kubernetes.io/role`, sorted, `<none>` without any.
fn roles(node: &Node) -> String {
    let mut roles: Vec<String> = node
        .metadata
        .labels
        .iter()
        .flatten()
        .filter_map(|(k, v)| {
            if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
                (!role.is_empty()).then(|| role.to_string())
            } else if k == "kubernetes.io/role" && !v.is_empty() {
                Some(v.clone())
            } else {
                None
            }
        })
        .collect();
    roles.sort();
    roles.dedup();
    if roles.is_empty() {
        "<none>".into()
    } else {
        roles.join(",")
    }
}

fn address(node: &Node, type_: &str) -> String {
    node.status
        .as_ref()
        .and_then(|s| s.addresses.as_ref())
        .and_then(|a| a.iter().find(|a| a.type_ == type_))
        .map_or_else(|| "<none>".to_string(), |a| a.address.clone())
}

pub(super) fn row(node: &Node, now: Timestamp) -> Value {
    let info = node.status.as_ref().and_then(|s| s.node_info.as_ref());
    let or_unknown = |s: Option<&String>| {
        s.filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| "<unknown>".into())
    };
    let age = node.metadata.creation_timestamp.as_ref().map_or_else(
        || "<unknown>".into(),
        |t| human_duration(now.duration_since(t.0)),
    );
    json!({
        "cells": [
            node.metadata.name.clone().unwrap_or_default(),
            NodeSummary::from_node(node).status_text(),
            roles(node),
            age,
            info.map(|i| i.kubelet_version.clone()).unwrap_or_default(),
            address(node, "InternalIP"),
            address(node, "ExternalIP"),
            or_unknown(info.map(|i| &i.os_image)),
            or_unknown(info.map(|i| &i.kernel_version)),
            or_unknown(info.map(|i| &i.container_runtime_version)),
        ]
    })
}
