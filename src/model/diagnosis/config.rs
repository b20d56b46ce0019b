//! Configuration rules: `CreateContainerConfigError` and volumes that cannot be mounted.

use super::{Finding, Inputs};
use crate::model::pod::ContainerSummary;

/// Findings about `c`'s configuration (missing Secret/ConfigMap or key, failed mounts).
pub fn findings(_inp: &Inputs<'_>, _c: &ContainerSummary, _out: &mut Vec<Finding>) {}
