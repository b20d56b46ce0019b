//! The `kubernetes` Service in `default`, which kube-apiserver keeps pointing at itself (its
//! endpoint reconciler, `pkg/controlplane/reconcilers`): ClusterIP
//! [`KUBERNETES_SERVICE_IP`] port 443 `https`, and an Endpoints and an EndpointSlice of the
//! same name holding the API server's address (`docs/core-api.md` §4).

use std::net::SocketAddr;
use std::sync::Arc;

use k8s_openapi::api::core::v1::{
    EndpointAddress, EndpointPort, EndpointSubset, Endpoints, Service, ServicePort, ServiceSpec,
};
use k8s_openapi::api::discovery::v1::{
    Endpoint, EndpointConditions, EndpointPort as SlicePort, EndpointSlice,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::defaults::KUBERNETES_SERVICE_IP;
use crate::api::object::Object;
use crate::api::status::ApiError;
use crate::api::store::Store;

fn meta(labels: &[(&str, &str)]) -> ObjectMeta {
    ObjectMeta {
        name: Some("kubernetes".into()),
        namespace: Some("default".into()),
        labels: Some(
            labels
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
        ),
        ..ObjectMeta::default()
    }
}

/// Creates the `kubernetes` Service, Endpoints and EndpointSlice for an API server listening
/// on `addr`. Errors: the store's (409 when they exist).
pub fn kubernetes_service(store: &Store, addr: SocketAddr) -> Result<(), ApiError> {
    let ip = addr.ip().to_string();
    let port = i32::from(addr.port());
    let service = Service {
        metadata: meta(&[("component", "apiserver"), ("provider", "kubernetes")]),
        spec: Some(ServiceSpec {
            cluster_ip: Some(KUBERNETES_SERVICE_IP.to_string()),
            ports: Some(vec![ServicePort {
                name: Some("https".into()),
                port: 443,
                target_port: Some(IntOrString::Int(port)),
                ..ServicePort::default()
            }]),
            ..ServiceSpec::default()
        }),
        status: None,
    };
    store.create_object(Object::Service(Arc::new(service)))?;
    let endpoints = Endpoints {
        metadata: meta(&[("endpointslice.kubernetes.io/skip-mirror", "true")]),
        subsets: Some(vec![EndpointSubset {
            addresses: Some(vec![EndpointAddress {
                ip: ip.clone(),
                ..EndpointAddress::default()
            }]),
            ports: Some(vec![EndpointPort {
                name: Some("https".into()),
                port,
                protocol: Some("TCP".into()),
                ..EndpointPort::default()
            }]),
            ..EndpointSubset::default()
        }]),
    };
    store.create_object(Object::Endpoints(Arc::new(endpoints)))?;
    let family = if addr.is_ipv6() { "IPv6" } else { "IPv4" };
    let slice = EndpointSlice {
        metadata: meta(&[("kubernetes.io/service-name", "kubernetes")]),
        address_type: family.into(),
        endpoints: Some(vec![Endpoint {
            addresses: vec![ip],
            conditions: Some(EndpointConditions {
                ready: Some(true),
                ..EndpointConditions::default()
            }),
            ..Endpoint::default()
        }]),
        ports: Some(vec![SlicePort {
            name: Some("https".into()),
            port: Some(port),
            protocol: Some("TCP".into()),
            ..SlicePort::default()
        }]),
    };
    store.create_object(Object::EndpointSlice(Arc::new(slice)))?;
    Ok(())
}
