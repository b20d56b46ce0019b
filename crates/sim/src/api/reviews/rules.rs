//! `SelfSubjectRulesReview` (`authorization.k8s.io/v1`): everything the caller may do in
//! `spec.namespace`, as allow rules (RBAC has no deny rules).
//!
//! The deny list is turned into allow rules: for every resource the simulator serves
//! ([`served`], read from discovery), one rule `{verbs, apiGroups: [group], resources: [resource]}` with the verbs
//! discovery lists for it minus the denied ones (a resource with every verb denied has no rule);
//! plus one non-resource rule, `get` on the discovery, OpenAPI, version and health paths (what
//! the `system:discovery` and `system:public-info-viewer` ClusterRoles grant). `incomplete` is
//! `false`: the deny list is the only authorizer. `kubectl auth can-i --list` prints these rules
//! as its Resources / Non-Resource URLs / Resource Names / Verbs table.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use axum::http::HeaderMap;

use super::{AUTHORIZATION, Deny, answered, protobuf, request_spec};
use crate::api::auth::{VERBS, denies};
use crate::api::status::json_response;
use crate::api::workloads::discovery::resource_entries;

/// The non-resource paths every authenticated user may `get`.
pub const NON_RESOURCE_URLS: [&str; 11] = [
    "/api",
    "/api/*",
    "/apis",
    "/apis/*",
    "/healthz",
    "/livez",
    "/openapi",
    "/openapi/*",
    "/readyz",
    "/version",
    "/version/",
];

/// One served resource: its API group (`""` for core), `resource[/subresource]` and the verbs
/// discovery lists for it, in RBAC's order ([`VERBS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// API group.
    pub group: &'static str,
    /// `pods`, `pods/exec`, `deployments/scale`.
    pub resource: String,
    /// The verbs it serves.
    pub verbs: Vec<&'static str>,
}

/// Every resource the simulator serves with its verbs, read from discovery
/// (`workloads::discovery::resource_entries` of the core group and of every group in
/// `GROUPS`, the reviews' own included), so a resource added there is listed here too. Verbs
/// are put in RBAC's order; a resource served in two groups (Events in the core group and in
/// `events.k8s.io`) has a rule in each.
pub fn served() -> Vec<Served> {
    let discovery = crate::api::workloads::discovery::GROUPS;
    std::iter::once("")
        .chain(discovery)
        .flat_map(|group| {
            resource_entries(group)
                .into_iter()
                .filter_map(move |entry| {
                    let resource = entry.get("name")?.as_str()?.to_string();
                    let listed: Vec<&str> = entry
                        .get("verbs")?
                        .as_array()?
                        .iter()
                        .filter_map(Value::as_str)
                        .collect();
                    let verbs = VERBS
                        .iter()
                        .copied()
                        .filter(|v| listed.contains(v))
                        .collect();
                    Some(Served {
                        group,
                        resource,
                        verbs,
                    })
                })
        })
        .collect()
}

/// The `status` of a rules review under `deny` (the same in every namespace).
pub fn status_of(deny: &[(String, String)]) -> Value {
    let resource_rules: Vec<Value> = served()
        .into_iter()
        .filter_map(|s| {
            let verbs: Vec<&str> = s
                .verbs
                .iter()
                .copied()
                .filter(|v| !denies(deny, v, &s.resource))
                .collect();
            (!verbs.is_empty())
                .then(|| json!({"verbs": verbs, "apiGroups": [s.group], "resources": [s.resource]}))
        })
        .collect();
    json!({
        "resourceRules": resource_rules,
        "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": NON_RESOURCE_URLS}],
        "incomplete": false,
    })
}

/// `POST …/selfsubjectrulesreviews`: the review with its `status`, 201 Created. Errors: 400 for
/// a body that does not decode (JSON or protobuf, by `h`'s `Content-Type`).
pub fn review(deny: &Deny, h: &HeaderMap, body: &[u8]) -> Response {
    match request_spec(h, body, protobuf::Review::Rules) {
        Ok(spec) => {
            let out = answered(
                "SelfSubjectRulesReview",
                &format!("{AUTHORIZATION}/v1"),
                Some(&spec),
                status_of(deny),
            );
            json_response(StatusCode::CREATED, &out)
        }
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule<'a>(status: &'a Value, resource: &str) -> Option<&'a Value> {
        status["resourceRules"]
            .as_array()
            .and_then(|rs| rs.iter().find(|r| r["resources"][0] == resource))
    }

    #[test]
    fn denied_verbs_are_left_out_of_the_allow_rules() {
        let deny = vec![
            ("create".to_string(), "pods/exec".to_string()),
            ("*".to_string(), "pods/log".to_string()),
        ];
        let status = status_of(&deny);
        assert_eq!(
            rule(&status, "pods/exec").expect("rule")["verbs"],
            json!(["get"])
        );
        assert!(rule(&status, "pods/log").is_none());
        assert_eq!(rule(&status, "pods").expect("rule")["verbs"], json!(VERBS));
        let scale = rule(&status, "deployments/scale").expect("rule");
        assert_eq!(scale["apiGroups"], json!(["apps"]));
        assert_eq!(status["incomplete"], false);
    }
}
