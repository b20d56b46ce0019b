//! Exit rules: why a container instance ended, from its exit code, signal, reason, events and
//! last log lines.

use super::{Finding, Inputs};
use crate::model::pod::ContainerSummary;

/// Findings about `c`'s terminated instances (`state.terminated`, `lastState.terminated`).
pub fn findings(_inp: &Inputs<'_>, _index: usize, _c: &ContainerSummary, _out: &mut Vec<Finding>) {}
