//! Just enough of the Kubernetes protobuf encoding to accept what `kubectl create namespace`,
//! `create configmap` and `create secret generic` send (and, in [`kinds`], `create
//! deployment`, `create job`, `create cronjob`, `create service …` and `create
//! serviceaccount`) (client-go's typed clients write
//! `application/vnd.kubernetes.protobuf`): the `k8s\0` envelope around a `runtime.Unknown`
//! (1 `typeMeta`, 2 `raw`), and in `raw` a Namespace, ConfigMap or Secret with the
//! `ObjectMeta` fields a create carries. The field numbers are those of the API's
//! `generated.proto` files (`docs/core-api.md` §6). Turned into the JSON the rest of the
//! write path reads.

use base64::Engine;
use serde_json::{Map, Value, json};

use crate::api::object::Resource;

mod kinds;
use crate::api::status::ApiError;

/// The envelope's magic prefix.
const MAGIC: &[u8] = b"k8s\0";

/// One field of a message: its number and its value (a varint, or length-delimited bytes).
pub(super) enum Field<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
}

fn bad(why: &str) -> ApiError {
    ApiError::bad_request(format!("protobuf: {why}"))
}

fn varint(buf: &[u8], pos: &mut usize) -> Result<u64, ApiError> {
    let mut v: u64 = 0;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*pos).ok_or_else(|| bad("truncated varint"))?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(bad("varint too long"))
}

/// The fields of one message, in order. Errors: 400 for malformed input or a wire type other
/// than varint (0), 64-bit (1), length-delimited (2) or 32-bit (5).
pub(super) fn fields(buf: &[u8]) -> Result<Vec<(u64, Field<'_>)>, ApiError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < buf.len() {
        let key = varint(buf, &mut pos)?;
        let (num, wire) = (key >> 3, key & 7);
        let f = match wire {
            0 => Field::Varint(varint(buf, &mut pos)?),
            2 => {
                let len = usize::try_from(varint(buf, &mut pos)?).map_err(|_| bad("length"))?;
                let end = pos.checked_add(len).filter(|e| *e <= buf.len());
                let end = end.ok_or_else(|| bad("truncated field"))?;
                let b = &buf[pos..end];
                pos = end;
                Field::Bytes(b)
            }
            1 => {
                pos += 8;
                continue;
            }
            5 => {
                pos += 4;
                continue;
            }
            _ => return Err(bad("unsupported wire type")),
        };
        out.push((num, f));
    }
    Ok(out)
}

pub(super) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A `map<string, string>` (or `bytes` values, base64 as in JSON) entry: 1 key, 2 value.
pub(super) fn entry(b: &[u8], bytes_value: bool) -> Result<(String, Value), ApiError> {
    let (mut k, mut v) = (String::new(), Value::String(String::new()));
    for (n, f) in fields(b)? {
        if let Field::Bytes(x) = f {
            match n {
                1 => k = text(x),
                2 if bytes_value => {
                    v = json!(base64::engine::general_purpose::STANDARD.encode(x));
                }
                2 => v = json!(text(x)),
                _ => {}
            }
        }
    }
    Ok((k, v))
}

fn insert_entry(
    m: &mut Map<String, Value>,
    key: &str,
    b: &[u8],
    bytes: bool,
) -> Result<(), ApiError> {
    let (k, v) = entry(b, bytes)?;
    if let Some(obj) = m
        .entry(key.to_string())
        .or_insert_with(|| json!({}))
        .as_object_mut()
    {
        obj.insert(k, v);
    }
    Ok(())
}

fn push(m: &mut Map<String, Value>, key: &str, v: Value) {
    if let Some(a) = m
        .entry(key.to_string())
        .or_insert_with(|| json!([]))
        .as_array_mut()
    {
        a.push(v);
    }
}

/// `ObjectMeta`: 1 name, 2 generateName, 3 namespace, 11 labels, 12 annotations, 14
/// finalizers (the rest is the server's). client-go writes every string field, set or not;
/// an empty one is a field the client left out (JSON's `omitempty`), so it is left out here.
pub(super) fn object_meta(b: &[u8]) -> Result<Value, ApiError> {
    let mut m = Map::new();
    for (n, f) in fields(b)? {
        let Field::Bytes(x) = f else { continue };
        let key = match n {
            1 => "name",
            2 => "generateName",
            3 => "namespace",
            _ => "",
        };
        if !key.is_empty() {
            if !x.is_empty() {
                m.insert(key.into(), json!(text(x)));
            }
            continue;
        }
        match n {
            11 => insert_entry(&mut m, "labels", x, false)?,
            12 => insert_entry(&mut m, "annotations", x, false)?,
            14 => push(&mut m, "finalizers", json!(text(x))),
            _ => {}
        }
    }
    Ok(Value::Object(m))
}

/// The object in `raw` as JSON: Namespace (1 metadata, 2 spec: 1 finalizers), ConfigMap (1
/// metadata, 2 data, 3 binaryData, 4 immutable), Secret (1 metadata, 2 data, 3 type, 4
/// stringData, 5 immutable).
fn object(resource: Resource, raw: &[u8]) -> Result<Value, ApiError> {
    if let Some(schema) = kinds::top(resource) {
        let mut m = kinds::message(raw, schema)?;
        m.shift_insert(0, "apiVersion".into(), json!(resource.api_version()));
        m.shift_insert(1, "kind".into(), json!(resource.kind()));
        return Ok(Value::Object(m));
    }
    let mut m = Map::new();
    m.insert("apiVersion".into(), json!(resource.api_version()));
    m.insert("kind".into(), json!(resource.kind()));
    for (n, f) in fields(raw)? {
        match (resource, n, f) {
            (_, 1, Field::Bytes(x)) => drop(m.insert("metadata".into(), object_meta(x)?)),
            (Resource::Namespaces, 2, Field::Bytes(x)) => {
                let mut spec = Map::new();
                for (k, g) in fields(x)? {
                    if let (1, Field::Bytes(y)) = (k, g) {
                        push(&mut spec, "finalizers", json!(text(y)));
                    }
                }
                m.insert("spec".into(), Value::Object(spec));
            }
            (Resource::ConfigMaps, 2, Field::Bytes(x)) => insert_entry(&mut m, "data", x, false)?,
            (Resource::ConfigMaps, 3, Field::Bytes(x)) => {
                insert_entry(&mut m, "binaryData", x, true)?;
            }
            (Resource::ConfigMaps, 4, Field::Varint(v))
            | (Resource::Secrets, 5, Field::Varint(v)) => {
                drop(m.insert("immutable".into(), json!(v != 0)));
            }
            (Resource::Secrets, 2, Field::Bytes(x)) => insert_entry(&mut m, "data", x, true)?,
            (Resource::Secrets, 3, Field::Bytes(x)) if !x.is_empty() => {
                drop(m.insert("type".into(), json!(text(x))))
            }
            (Resource::Secrets, 4, Field::Bytes(x)) => {
                insert_entry(&mut m, "stringData", x, false)?;
            }
            _ => {}
        }
    }
    Ok(Value::Object(m))
}

/// Whether `resource`'s protobuf body is understood here.
pub fn decodes(resource: Resource) -> bool {
    matches!(
        resource,
        Resource::Namespaces | Resource::ConfigMaps | Resource::Secrets
    ) || kinds::top(resource).is_some()
}

/// The JSON of a protobuf-encoded `resource` object. Errors: 400 for a body without the
/// `k8s\0` envelope or malformed.
pub fn to_json(resource: Resource, body: &[u8]) -> Result<Value, ApiError> {
    let inner = body
        .strip_prefix(MAGIC)
        .ok_or_else(|| bad("missing the k8s envelope"))?;
    let raw = fields(inner)?
        .into_iter()
        .find_map(|(n, f)| match (n, f) {
            (2, Field::Bytes(b)) => Some(b),
            _ => None,
        })
        .ok_or_else(|| bad("no raw object"))?;
    object(resource, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(num: u8, bytes: &[u8]) -> Vec<u8> {
        let mut v = vec![(num << 3) | 2, u8::try_from(bytes.len()).expect("short")];
        v.extend_from_slice(bytes);
        v
    }

    #[test]
    fn a_secret_in_its_envelope_becomes_json() {
        let meta = field(1, b"s");
        let entry = [field(1, b"k"), field(2, b"v")].concat();
        let raw = [field(1, &meta), field(2, &entry), field(3, b"Opaque")].concat();
        let body = [MAGIC.to_vec(), field(2, &raw)].concat();
        let v = to_json(Resource::Secrets, &body).expect("decodes");
        assert_eq!(v["metadata"]["name"], "s");
        assert_eq!(v["data"]["k"], "dg==");
        assert_eq!(v["type"], "Opaque");
        assert_eq!(v["kind"], "Secret");
    }

    #[test]
    fn a_deployment_keeps_set_pointer_zeros_and_drops_unset_strings() {
        let meta = [field(1, b"web"), field(2, b""), field(3, b"default")].concat();
        let port = [vec![3 << 3, 80], field(4, b"TCP")].concat();
        let container = [field(1, b"hello"), field(2, b"hello:1.0"), field(6, &port)].concat();
        let pod = [field(1, b""), field(2, &container), field(3, b"")].concat();
        let template = [field(1, &field(1, b"")), field(2, &pod)].concat();
        // replicas 0 (a pointer, set), minReadySeconds 0 (not a pointer: unset).
        let spec = [vec![1 << 3, 0], field(3, &template), vec![5 << 3, 0]].concat();
        let raw = [field(1, &meta), field(2, &spec)].concat();
        let body = [MAGIC.to_vec(), field(2, &raw)].concat();
        let v = to_json(Resource::Deployments, &body).expect("decodes");
        assert_eq!(v["apiVersion"], "apps/v1");
        assert_eq!(
            v["metadata"],
            json!({"name": "web", "namespace": "default"})
        );
        assert_eq!(v["spec"]["replicas"], 0);
        assert!(v["spec"].get("minReadySeconds").is_none(), "{v}");
        let c = &v["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(
            c["ports"],
            json!([{"containerPort": 80, "protocol": "TCP"}])
        );
        assert!(v["spec"]["template"]["spec"].get("restartPolicy").is_none());
    }
}
