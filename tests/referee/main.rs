//! Test binary `referee` (8 modules): Clients nobody here wrote, read against the simulator and podscope: the official
//! Python client, lightkube and kr8s, every kubectl from 1.27 to 1.33, `kubectl describe`.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;
#[path = "../describe_support/mod.rs"]
mod describe_support;
#[path = "../stream_support/mod.rs"]
mod stream_support;

mod describe_cases;
mod describe_forms;
mod describe_seed;
mod describe_sim;
mod kubectl_versions;
mod py_official;
mod py_official_cluster;
mod py_others;
