//! Impure adapters to the API server: kubeconfig resolution and watches feeding one channel.
//! (Named `cluster`, not `kube`, so the `kube` crate is never shadowed.)

pub mod session;

pub use session::Session;
