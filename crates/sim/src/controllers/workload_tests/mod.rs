//! Unit tests of the StatefulSet, DaemonSet, Job and CronJob controllers (and orphaning) on the
//! in-memory cluster of [`super::testing`].

mod apps;
mod batch;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

fn meta(name: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.into()),
        ..ObjectMeta::default()
    }
}
