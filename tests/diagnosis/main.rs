//! Test binary `diagnosis` (10 modules): The diagnosis over whole pods: the case corpus graded, the consistency invariants,
//! hand-built summaries, and live scenarios on the simulator.
//!
//! One binary per area (docs/testing.md): the modules share one link of kube, tokio and rustls.

#[path = "../common/mod.rs"]
mod common;

mod diagnosis_cases;
mod diagnosis_consistency;
mod diagnosis_corpus;
mod diagnosis_exit;
mod diagnosis_live;
mod diagnosis_live_kinds;
mod diagnosis_probes;
mod diagnosis_waiting;
mod model_backoff;
mod model_deletion;
