//! Image rules: pull failures classified from the runtime's answer, malformed references.

use super::{Finding, Inputs};
use crate::model::pod::ContainerSummary;

/// Findings about `c`'s image (`ErrImagePull`, `ImagePullBackOff`, `InvalidImageName`).
pub fn findings(_inp: &Inputs<'_>, _c: &ContainerSummary, _out: &mut Vec<Finding>) {}
