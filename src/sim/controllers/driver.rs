//! The controller driver: runs [`reconcile_all`](super::reconcile_all) and the garbage collector
//! against the store (wired once the store holds workloads).
