//! Scheduling rules: a Pending pod the scheduler cannot place, from `FailedScheduling`.

use super::{Finding, Inputs};

/// Findings about scheduling (`PodScheduled=False`, `FailedScheduling` events).
pub fn findings(_inp: &Inputs<'_>, _out: &mut Vec<Finding>) {}
