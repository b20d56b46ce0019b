//! Reading a review sent as `application/vnd.kubernetes.protobuf`, as client-go's typed clients
//! send it (kubectl 1.32 and later for `auth can-i`), into the JSON `spec` the JSON path reads.
//!
//! The body is Kubernetes' protobuf envelope: the 4 bytes `k8s\0`, then a `runtime.Unknown`
//! message {`typeMeta` 1 {`apiVersion` 1, `kind` 2}, `raw` 2, …} whose `raw` is the review
//! message {`metadata` 1, `spec` 2, `status` 3}. The field numbers are those of
//! `staging/src/k8s.io/api/authorization/v1/generated.proto`: `SelfSubjectAccessReviewSpec`
//! {`resourceAttributes` 1 {`namespace` 1, `verb` 2, `group` 3, `version` 4, `resource` 5,
//! `subresource` 6, `name` 7}, `nonResourceAttributes` 2 {`path` 1, `verb` 2}};
//! `SelfSubjectRulesReviewSpec` {`namespace` 1}. The answer is JSON, which the client accepts
//! (it sends `Accept: application/vnd.kubernetes.protobuf,application/json`).

use prost::Message;
use serde_json::{Value, json};

use crate::api::status::ApiError;

/// The envelope's magic prefix.
const MAGIC: &[u8; 4] = b"k8s\0";

#[derive(Clone, PartialEq, Message)]
struct Unknown {
    #[prost(bytes = "vec", tag = "2")]
    raw: Vec<u8>,
}

#[derive(Clone, PartialEq, Message)]
struct AccessReview {
    #[prost(message, optional, tag = "2")]
    spec: Option<AccessSpec>,
}

#[derive(Clone, PartialEq, Message)]
struct AccessSpec {
    #[prost(message, optional, tag = "1")]
    resource_attributes: Option<ResourceAttributes>,
    #[prost(message, optional, tag = "2")]
    non_resource_attributes: Option<NonResourceAttributes>,
}

#[derive(Clone, PartialEq, Message)]
struct ResourceAttributes {
    #[prost(string, optional, tag = "1")]
    namespace: Option<String>,
    #[prost(string, optional, tag = "2")]
    verb: Option<String>,
    #[prost(string, optional, tag = "3")]
    group: Option<String>,
    #[prost(string, optional, tag = "4")]
    version: Option<String>,
    #[prost(string, optional, tag = "5")]
    resource: Option<String>,
    #[prost(string, optional, tag = "6")]
    subresource: Option<String>,
    #[prost(string, optional, tag = "7")]
    name: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct NonResourceAttributes {
    #[prost(string, optional, tag = "1")]
    path: Option<String>,
    #[prost(string, optional, tag = "2")]
    verb: Option<String>,
}

#[derive(Clone, PartialEq, Message)]
struct RulesReview {
    #[prost(message, optional, tag = "2")]
    spec: Option<RulesSpec>,
}

#[derive(Clone, PartialEq, Message)]
struct RulesSpec {
    #[prost(string, optional, tag = "1")]
    namespace: Option<String>,
}

/// Which review a body holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Review {
    /// `SelfSubjectAccessReview`.
    Access,
    /// `SelfSubjectRulesReview`.
    Rules,
}

fn bad(what: &str) -> ApiError {
    ApiError::bad_request(format!("the protobuf request body cannot be read: {what}"))
}

/// Adds `key: value` to `object` when `value` is set (JSON omits unset fields).
fn put(object: &mut Value, key: &str, value: Option<String>) {
    if let Some(v) = value {
        object[key] = json!(v);
    }
}

/// The review's `spec` as the JSON the JSON path reads. Errors: 400 BadRequest for a body
/// without the envelope or that does not decode.
pub fn spec(body: &[u8], review: Review) -> Result<Value, ApiError> {
    let inner = body
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| bad("no k8s envelope"))?;
    let raw = Unknown::decode(inner).map_err(|e| bad(&e.to_string()))?.raw;
    match review {
        Review::Access => {
            let spec = AccessReview::decode(raw.as_slice())
                .map_err(|e| bad(&e.to_string()))?
                .spec
                .unwrap_or_default();
            let mut out = json!({});
            if let Some(r) = spec.resource_attributes {
                let mut attrs = json!({});
                put(&mut attrs, "namespace", r.namespace);
                put(&mut attrs, "verb", r.verb);
                put(&mut attrs, "group", r.group);
                put(&mut attrs, "version", r.version);
                put(&mut attrs, "resource", r.resource);
                put(&mut attrs, "subresource", r.subresource);
                put(&mut attrs, "name", r.name);
                out["resourceAttributes"] = attrs;
            }
            if let Some(n) = spec.non_resource_attributes {
                let mut attrs = json!({});
                put(&mut attrs, "path", n.path);
                put(&mut attrs, "verb", n.verb);
                out["nonResourceAttributes"] = attrs;
            }
            Ok(out)
        }
        Review::Rules => {
            let spec = RulesReview::decode(raw.as_slice())
                .map_err(|e| bad(&e.to_string()))?
                .spec
                .unwrap_or_default();
            let mut out = json!({});
            put(&mut out, "namespace", spec.namespace);
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envelope(raw: Vec<u8>) -> Vec<u8> {
        let mut body = MAGIC.to_vec();
        body.extend(Unknown { raw }.encode_to_vec());
        body
    }

    #[test]
    fn an_access_review_decodes_to_its_json_spec() {
        let review = AccessReview {
            spec: Some(AccessSpec {
                resource_attributes: Some(ResourceAttributes {
                    namespace: Some("default".into()),
                    verb: Some("create".into()),
                    resource: Some("pods".into()),
                    subresource: Some("exec".into()),
                    ..ResourceAttributes::default()
                }),
                non_resource_attributes: None,
            }),
        };
        let got = spec(&envelope(review.encode_to_vec()), Review::Access).expect("decodes");
        assert_eq!(
            got,
            json!({"resourceAttributes": {"namespace": "default", "verb": "create", "resource": "pods", "subresource": "exec"}})
        );
        let rules = RulesReview {
            spec: Some(RulesSpec {
                namespace: Some("shop".into()),
            }),
        };
        let got = spec(&envelope(rules.encode_to_vec()), Review::Rules).expect("decodes");
        assert_eq!(got, json!({"namespace": "shop"}));
        assert_eq!(
            spec(b"{}", Review::Rules).expect_err("no envelope").code,
            400
        );
    }
}
