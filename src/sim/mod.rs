//! The simulated cluster: a loopback Kubernetes API server (`podscope sim`, `podscope demo`).
pub mod kubelet;
