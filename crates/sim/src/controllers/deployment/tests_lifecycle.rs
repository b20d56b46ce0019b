//! Deployment tests: scaling, history limit, pause, deletion, the availability floor.

use k8s_openapi::api::apps::v1::{DeploymentStrategy, RollingUpdateDeployment};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::tests::{condition, deploy, edit, replica_sets, set_image};
use crate::controllers::testing::{Fake, t0};
use crate::controllers::{Kind, Workload};

#[test]
fn scale_to_zero_and_back() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(3, "hello:1.0")));
    f.settle();
    edit(&mut f, |s| s.replicas = Some(0));
    f.settle();
    assert!(f.pod_names("web-").is_empty());
    let name = replica_sets(&f)[0].0.clone();
    assert!(f.event_texts().contains(&format!(
        "ScalingReplicaSet: Scaled down replica set {name} from 3 to 0"
    )));
    edit(&mut f, |s| s.replicas = Some(2));
    f.settle();
    assert_eq!(f.pod_names("web-").len(), 2);
    assert_eq!(replica_sets(&f).len(), 1);
}

#[test]
fn revision_history_limit_deletes_the_oldest_idle_replica_sets() {
    let mut f = Fake::new(t0());
    let mut d = deploy(1, "hello:1.0");
    d.spec.revision_history_limit = Some(1);
    f.add(Workload::Deployment(d));
    f.settle();
    for (i, image) in ["hello:2.0", "hello:3.0"].into_iter().enumerate() {
        f.advance(1 + i as i64);
        set_image(&mut f, image);
        f.settle();
    }
    let revs: Vec<String> = replica_sets(&f).into_iter().map(|r| r.2).collect();
    assert_eq!(revs, ["2", "3"]);
}

#[test]
fn paused_deployments_do_not_roll() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(2, "hello:1.0")));
    f.settle();
    edit(&mut f, |s| s.paused = Some(true));
    set_image(&mut f, "hello:2.0");
    f.settle();
    assert_eq!(replica_sets(&f).len(), 1);
    assert_eq!(
        condition(&f, "Progressing"),
        (
            "Unknown".into(),
            "DeploymentPaused".into(),
            "Deployment is paused".into()
        )
    );
}

#[test]
fn deleting_the_deployment_collects_its_replica_sets_and_pods() {
    let mut f = Fake::new(t0());
    f.add(Workload::Deployment(deploy(2, "hello:1.0")));
    f.settle();
    f.delete(Kind::Deployment, "web");
    f.settle();
    assert!(f.snap.replica_sets.is_empty());
    assert!(f.snap.pods.is_empty());
}

#[test]
fn a_rollout_never_drops_below_replicas_minus_max_unavailable() {
    let mut f = Fake::new(t0());
    let mut d = deploy(4, "hello:1.0");
    d.spec.strategy = Some(DeploymentStrategy {
        type_: Some("RollingUpdate".into()),
        rolling_update: Some(RollingUpdateDeployment {
            max_surge: Some(IntOrString::Int(0)),
            max_unavailable: Some(IntOrString::Int(1)),
        }),
    });
    f.add(Workload::Deployment(d));
    f.settle();
    set_image(&mut f, "hello:2.0");
    for _ in 0..100 {
        let (n, _) = f.pass();
        let ready = f.pod_names("web-").len();
        assert!(
            ready >= 3,
            "{ready} pods after a pass: {:?}",
            replica_sets(&f)
        );
        assert!(ready <= 4, "surge 0 but {ready} pods");
        if n == 0 {
            break;
        }
    }
    let rss = replica_sets(&f);
    assert_eq!((rss[0].1, rss[1].1), (0, 4));
}
