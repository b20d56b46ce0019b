//! `/openapi/v2` as kubectl 1.27 and 1.28 read it: the same schemas as `/openapi/v3`, as a
//! gnostic `openapi.v2.Document` protobuf (the only encoding client-go's `OpenAPISchema()`
//! accepts).
//!
//! Those kubectl versions validate `create -f`/`apply -f` manifests locally against the v2
//! definitions (kubectl 1.29+ use v3 and leave validation to the server). Without `/openapi/v2`
//! they fail with `the server could not find the requested resource`. Only the `Document`
//! fields kube-openapi's `proto.NewOpenAPIData` reads are encoded: definitions with `$ref`,
//! `type`, `format`, `description`, `required`, `properties`, `items`, `additionalProperties`
//! and the `x-kubernetes-*` vendor extensions (values as YAML text; JSON is YAML). Field numbers
//! follow gnostic's `openapiv2/OpenAPIv2.proto`.

use std::sync::OnceLock;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use prost::Message;
use serde_json::Value;

/// The media type of the answer. client-go asks for `…spec.v2@v1.0+protobuf`, but `@` is not
/// allowed in a media type Go's `mime.ParseMediaType` accepts, so kube-apiserver answers with
/// the dotted form (kube-openapi's `subTypeProtobuf`).
pub const PROTOBUF_MEDIA_TYPE: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// `openapi.v2.Document` (fields 1, 2, 9 of 16).
#[derive(Clone, PartialEq, Message)]
pub struct Document {
    /// `swagger`: `2.0`.
    #[prost(string, tag = "1")]
    pub swagger: String,
    /// `info`.
    #[prost(message, optional, tag = "2")]
    pub info: Option<Info>,
    /// `definitions`.
    #[prost(message, optional, tag = "9")]
    pub definitions: Option<Definitions>,
}

/// `openapi.v2.Info` (title, version).
#[derive(Clone, PartialEq, Message)]
pub struct Info {
    /// `title`.
    #[prost(string, tag = "1")]
    pub title: String,
    /// `version`.
    #[prost(string, tag = "2")]
    pub version: String,
}

/// `openapi.v2.Definitions` / `openapi.v2.Properties`: an ordered name → schema map.
#[derive(Clone, PartialEq, Message)]
pub struct Definitions {
    /// The entries.
    #[prost(message, repeated, tag = "1")]
    pub additional_properties: Vec<NamedSchema>,
}

/// `openapi.v2.NamedSchema`.
#[derive(Clone, PartialEq, Message)]
pub struct NamedSchema {
    /// The key.
    #[prost(string, tag = "1")]
    pub name: String,
    /// The schema.
    #[prost(message, optional, tag = "2")]
    pub value: Option<Schema>,
}

/// `openapi.v2.Schema` (the fields listed in the module docs).
#[derive(Clone, PartialEq, Message)]
pub struct Schema {
    /// `$ref`, `#/definitions/NAME`.
    #[prost(string, tag = "1")]
    pub r#ref: String,
    /// `format`.
    #[prost(string, tag = "2")]
    pub format: String,
    /// `description`.
    #[prost(string, tag = "4")]
    pub description: String,
    /// `required`.
    #[prost(string, repeated, tag = "19")]
    pub required: Vec<String>,
    /// `additionalProperties`.
    #[prost(message, optional, boxed, tag = "21")]
    pub additional_properties: Option<Box<AdditionalProperties>>,
    /// `type` (`openapi.v2.TypeItem`).
    #[prost(message, optional, tag = "22")]
    pub r#type: Option<TypeItem>,
    /// `items` (`openapi.v2.ItemsItem`).
    #[prost(message, optional, tag = "23")]
    pub items: Option<ItemsItem>,
    /// `properties` (`openapi.v2.Properties`, same shape as [`Definitions`]).
    #[prost(message, optional, tag = "25")]
    pub properties: Option<Definitions>,
    /// `x-…` extensions.
    #[prost(message, repeated, tag = "31")]
    pub vendor_extension: Vec<NamedAny>,
}

/// `openapi.v2.AdditionalPropertiesItem`: a schema (1) or a boolean (2).
#[derive(Clone, PartialEq, Message)]
pub struct AdditionalProperties {
    /// `schema`.
    #[prost(message, optional, tag = "1")]
    pub schema: Option<Schema>,
    /// `boolean`.
    #[prost(bool, optional, tag = "2")]
    pub boolean: Option<bool>,
}

/// `openapi.v2.TypeItem`.
#[derive(Clone, PartialEq, Message)]
pub struct TypeItem {
    /// The type names.
    #[prost(string, repeated, tag = "1")]
    pub value: Vec<String>,
}

/// `openapi.v2.ItemsItem`.
#[derive(Clone, PartialEq, Message)]
pub struct ItemsItem {
    /// The item schemas (one).
    #[prost(message, repeated, tag = "1")]
    pub schema: Vec<Schema>,
}

/// `openapi.v2.NamedAny` with `openapi.v2.Any` inlined as its YAML text.
#[derive(Clone, PartialEq, Message)]
pub struct NamedAny {
    /// The extension's name (`x-kubernetes-group-version-kind`, …).
    #[prost(string, tag = "1")]
    pub name: String,
    /// `openapi.v2.Any`.
    #[prost(message, optional, tag = "2")]
    pub value: Option<AnyYaml>,
}

/// `openapi.v2.Any`: only `yaml` (2) is set.
#[derive(Clone, PartialEq, Message)]
pub struct AnyYaml {
    /// The value as YAML (JSON text, which is YAML).
    #[prost(string, tag = "2")]
    pub yaml: String,
}

/// Converts one v3 schema (as served under `components.schemas`) to its v2 form: references
/// point at `#/definitions/`, and `allOf: [{$ref}]` (how v3 gives a reference a description)
/// becomes a plain reference with that description, as in kube-apiserver's v2 document.
#[must_use]
pub fn schema(v3: &Value) -> Schema {
    let text = |key: &str| v3.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
    let single_ref = v3
        .get("allOf")
        .and_then(Value::as_array)
        .filter(|a| a.len() == 1)
        .and_then(|a| a[0].get("$ref"));
    let reference = v3.get("$ref").or(single_ref).and_then(Value::as_str);
    let mut out = Schema {
        r#ref: reference
            .map(|r| r.replace("#/components/schemas/", "#/definitions/"))
            .unwrap_or_default(),
        format: text("format"),
        description: text("description"),
        ..Schema::default()
    };
    if reference.is_some() {
        return out;
    }
    if let Some(t) = v3.get("type").and_then(Value::as_str) {
        out.r#type = Some(TypeItem {
            value: vec![t.to_owned()],
        });
    }
    out.required = v3
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    if let Some(props) = v3.get("properties").and_then(Value::as_object) {
        out.properties = Some(named(props));
    }
    if let Some(items) = v3.get("items") {
        out.items = Some(ItemsItem {
            schema: vec![schema(items)],
        });
    }
    match v3.get("additionalProperties") {
        Some(Value::Bool(b)) => {
            out.additional_properties = Some(Box::new(AdditionalProperties {
                schema: None,
                boolean: Some(*b),
            }));
        }
        Some(s @ Value::Object(_)) => {
            out.additional_properties = Some(Box::new(AdditionalProperties {
                schema: Some(schema(s)),
                boolean: None,
            }));
        }
        _ => {}
    }
    if let Some(obj) = v3.as_object() {
        out.vendor_extension = obj
            .iter()
            .filter(|(k, _)| k.starts_with("x-"))
            .map(|(k, v)| NamedAny {
                name: k.clone(),
                value: Some(AnyYaml {
                    yaml: serde_json::to_string(v).unwrap_or_default(),
                }),
            })
            .collect();
    }
    out
}

fn named(map: &serde_json::Map<String, Value>) -> Definitions {
    Definitions {
        additional_properties: map
            .iter()
            .map(|(name, s)| NamedSchema {
                name: name.clone(),
                value: Some(schema(s)),
            })
            .collect(),
    }
}

/// The document built from `schemas` (the served `components.schemas`).
#[must_use]
pub fn document(schemas: &Value) -> Document {
    Document {
        swagger: "2.0".into(),
        info: Some(Info {
            title: "Kubernetes".into(),
            version: crate::KUBERNETES_VERSION.into(),
        }),
        definitions: schemas.as_object().map(named),
    }
}

/// `GET /openapi/v2`: the encoded document (built once).
pub async fn serve() -> Response {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    let body = BYTES.get_or_init(|| document(super::schemas()).encode_to_vec());
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, PROTOBUF_MEDIA_TYPE)],
        body.clone(),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The served bytes decode as an `openapi.v2.Document` whose Pod definition carries its
    /// group-version-kind and references PodSpec under `#/definitions/` with the v3 property's
    /// description, as kube-apiserver's v2 document does.
    #[test]
    fn the_pod_definition_survives_the_round_trip() {
        let bytes = document(super::super::schemas()).encode_to_vec();
        let doc = Document::decode(bytes.as_slice()).expect("an openapi.v2.Document");
        assert_eq!(doc.swagger, "2.0");
        let defs = doc.definitions.expect("definitions").additional_properties;
        let pod = defs
            .iter()
            .find(|d| d.name == "io.k8s.api.core.v1.Pod")
            .and_then(|d| d.value.as_ref())
            .expect("the Pod definition");
        let gvk = pod
            .vendor_extension
            .iter()
            .find(|e| e.name == "x-kubernetes-group-version-kind")
            .and_then(|e| e.value.as_ref())
            .expect("the gvk extension");
        assert!(gvk.yaml.contains("\"kind\":\"Pod\""), "{}", gvk.yaml);
        let spec = pod
            .properties
            .as_ref()
            .and_then(|p| p.additional_properties.iter().find(|p| p.name == "spec"))
            .and_then(|p| p.value.as_ref())
            .expect("spec");
        assert_eq!(spec.r#ref, "#/definitions/io.k8s.api.core.v1.PodSpec");
        assert!(
            spec.description
                .starts_with("Specification of the desired behavior"),
            "{}",
            spec.description
        );
        assert_eq!(spec.r#type, None, "a reference has no type of its own");
    }
}
