//! `--once` output: one snapshot of the pod as text or JSON.
