//! Pure domain model: small types built from k8s-openapi objects at the edge.
//!
//! Nothing here does IO or reads the clock; every time-dependent function takes `now`. The crate
//! has no async runtime in its dependency tree (docs/architecture.md §1).

// No clock here at all: clippy.toml names the clock readers.
#![warn(clippy::disallowed_methods)]

pub mod backoff;
mod container;
pub mod container_spec;
mod container_spec_build;
pub mod deletion;
pub mod describe;
pub mod diagnosis;
pub mod duration;
pub mod event;
pub mod forward;
pub mod forward_status;
pub mod log;
pub mod log_follow;
pub mod log_resume;
pub mod node;
pub mod pod;
pub mod pod_ref;
pub mod printer;
pub mod probe;
pub mod resources;
pub mod sanitize;
pub mod signal;
pub mod timeline;
pub mod usage;
pub mod workload;
pub mod yaml;

pub use backoff::{Backoff, BackoffCurve, BackoffSource, Countdown};
pub use event::EventSummary;
pub use log::{LineKind, LogBuffer, LogLine};
pub use log_resume::{ResumeFilter, ResumePoint};
pub use pod::{
    ConditionSummary, ContainerKind, ContainerState, ContainerSummary, OwnerRef, PodSummary,
    Probes, Terminated,
};
pub use printer::{PodPrint, PodRow, RowCondition};
