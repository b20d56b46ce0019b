//! Advice: probe settings that are mistakes before they are failures.

use super::{Finding, Inputs};

/// Appends advisory warnings about `inp.pod`'s probes.
pub fn findings(_inp: &Inputs<'_>, _out: &mut Vec<Finding>) {}
