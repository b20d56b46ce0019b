//! Probe rules: readiness failing, a sidecar whose startupProbe never passes.

use super::{Finding, Inputs};
use crate::model::pod::ContainerSummary;

/// Findings about `c`'s probes while it runs.
pub fn findings(_inp: &Inputs<'_>, _c: &ContainerSummary, _out: &mut Vec<Finding>) {}
