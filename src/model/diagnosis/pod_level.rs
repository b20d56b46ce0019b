//! Pod-level rules: eviction, a lost node, preemption, a pending deletion.

use super::{Finding, Inputs};

/// Findings about the pod as a whole. Returns true when they explain every container's state
/// (an evicted pod, a lost node): the container rules then stay silent.
pub fn findings(_inp: &Inputs<'_>, _out: &mut Vec<Finding>) -> bool {
    false
}
