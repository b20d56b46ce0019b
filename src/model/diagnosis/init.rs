//! Init rules: which init container of how many blocks the pod.

use super::{Finding, Inputs};

/// Adds the init sequence to the finding about a failing init container.
pub fn findings(_inp: &Inputs<'_>, _out: &mut Vec<Finding>) {}
