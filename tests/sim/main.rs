//! Test binary `sim` (40 modules): The simulated cluster against kubectl and kube: the API (CRUD, watch, pagination,
//! discovery, Tables, TLS), the kubelet, scheduler and controller models, metrics, nodes.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;
#[path = "../controllers_support/mod.rs"]
mod controllers_support;
#[path = "../workloads_support/mod.rs"]
mod workloads_support;

mod kubelet_crashloop;
mod kubelet_job_sidecar;
mod kubelet_seed_hello;
mod sim_apply;
mod sim_controllers;
mod sim_controllers_kinds;
mod sim_controllers_release;
mod sim_controllers_scenarios;
mod sim_core_api;
mod sim_core_api_discovery;
mod sim_core_use;
mod sim_core_use_services;
mod sim_delete_grace;
mod sim_dynamic_hello;
mod sim_dynamic_seed;
mod sim_dynamic_writes;
mod sim_ephemeral;
mod sim_ephemeral_model;
mod sim_fidelity;
mod sim_fidelity_apiservices;
mod sim_finalizers;
mod sim_kubeconfig;
mod sim_kubectl_cases;
mod sim_kubectl_create;
mod sim_metrics;
mod sim_metrics_kubectl;
mod sim_nodes;
mod sim_pagination;
mod sim_pod_image_update;
mod sim_refs;
mod sim_tls_input;
mod sim_tls_kubectl;
mod sim_tls_podscope;
mod sim_traffic;
mod sim_usage;
mod sim_version;
mod sim_watch;
mod sim_workloads_api;
mod sim_workloads_api_kinds;
mod sim_workloads_api_writes;
mod timeline_seed;
