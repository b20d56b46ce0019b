//! Workload writes: `POST` (create), `PUT`/`PATCH` of the object (spec and metadata; the
//! stored status is kept) and of `…/status` (only status is written); deletes are in
//! [`super::delete`]. The rules follow the
//! registry strategies of `pkg/registry/apps/*/strategy.go` and `pkg/registry/batch/*/strategy.go`
//! (`docs/workloads-api.md`).

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::{defaults, object_response, resolve, respond, scale, validate};
use crate::api::apply;
use crate::api::core::protobuf;
use crate::api::decode::{self, FieldValidation};
use crate::api::object::{Object, Resource};
use crate::api::patch::{self, PatchKind};
use crate::api::query::Query;
use crate::api::status::ApiError;
use crate::api::store::Store;

type ItemPath = Path<(String, String, String, String, String)>;

fn is_yaml(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("yaml"))
}

/// 415 for a body that is neither JSON nor YAML (nor a protobuf create of a kind
/// [`protobuf::decodes`]: client-go's typed clients, as `kubectl create deployment` uses them,
/// send `application/vnd.kubernetes.protobuf`).
fn json_or_yaml(h: &HeaderMap) -> Result<(), ApiError> {
    let ct = content_type(h);
    if ct.contains("protobuf") || ct.contains("cbor") {
        return Err(ApiError {
            code: 415,
            reason: "UnsupportedMediaType",
            message: format!(
                "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got {:?})",
                ct.split(';').next().unwrap_or("").trim()
            ),
        });
    }
    Ok(())
}

fn content_type(h: &HeaderMap) -> &str {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// `POST /apis/{group}/v1/namespaces/{ns}/{plural}` → 201 Created with the stored object:
/// decoded ([`decode::decode_object`], `fieldValidation`), namespace checked, status cleared,
/// defaults applied, validated, then stored by [`Store::create_object`] (name, uid,
/// generation). Errors: 400, 409 AlreadyExists, 422 Invalid.
pub(crate) async fn create(
    State(store): State<Store>,
    Path((group, version, ns, plural)): Path<(String, String, String, String)>,
    RawQuery(q): RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    respond((|| {
        let res = resolve(&group, &version, &plural)?;
        let q = Query::parse(q.as_deref());
        let fv = FieldValidation::parse(q.get("fieldValidation"))?;
        let value = if content_type(&h).contains("protobuf") && protobuf::decodes(res) {
            // What kubectl 1.32+'s `create deployment`/`job`/`cronjob` send.
            protobuf::to_json(res, &body)?
        } else {
            json_or_yaml(&h)?;
            decode::parse_body(&body, is_yaml(&h))?
        };
        let manager = apply::manager(&q, &h)?;
        create_from(&store, res, &ns, value, fv, &manager, None)
    })())
}

/// The [`apply::Writer`] of a write of `res` by `manager`.
fn writer<'a>(
    store: &Store,
    res: Resource,
    root: &'a str,
    manager: &'a str,
    subresource: Option<&'a str>,
) -> apply::Writer<'a> {
    apply::Writer {
        root,
        api_version: res.api_version(),
        manager,
        subresource,
        now: store.now(),
    }
}

/// Creates `value` (a POST body, or with `apply = Some(force)` a server-side apply
/// configuration of an absent object) → 201 with the stored object. `metadata.managedFields`
/// gets the manager's `Update` (or `Apply`) entry.
fn create_from(
    store: &Store,
    res: Resource,
    ns: &str,
    value: Value,
    fv: FieldValidation,
    manager: &str,
    apply: Option<bool>,
) -> Result<Response, ApiError> {
    let root = patch::schema_name(res);
    let w = writer(store, res, &root, manager, None);
    let value = match apply {
        Some(force) => apply::apply(&w, None, &value, force)?,
        None => value,
    };
    let (obj, warnings) = decode::decode_object(res, value, fv)?;
    let mut doc = obj.to_json();
    match doc["metadata"]["namespace"].as_str() {
        None | Some("") => doc["metadata"]["namespace"] = json!(ns),
        Some(n) if n == ns => {}
        Some(_) => {
            return Err(ApiError::bad_request(
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
    }
    if let Some(m) = doc.as_object_mut() {
        m.remove("status");
    }
    let mut obj = Object::from_json(res, doc)?;
    let named = !obj.name().is_empty()
        || obj
            .meta()
            .generate_name
            .as_deref()
            .is_some_and(|g| !g.is_empty());
    if !named {
        return Err(ApiError::invalid(
            &format!("{}.{}", res.kind(), res.group()),
            "",
            &["metadata.name: Required value: name or generateName is required".into()],
        ));
    }
    defaults::apply(&mut obj);
    validate::check(&obj)?;
    if apply.is_none() {
        let mut doc = obj.to_json();
        apply::record_update(&w, None, &mut doc);
        obj = Object::from_json(res, doc)?;
    }
    let created = store.create_object(obj)?;
    Ok(object_response(StatusCode::CREATED, &created, &warnings))
}

/// A PUT body (decoded before the object is looked up) or a PATCH.
pub(super) enum Body {
    /// The whole object, and its unknown-field warnings.
    Replace(Value),
    /// A patch of the stored object.
    Patch(PatchKind, Value),
    /// A server-side apply configuration, and `force`.
    Apply(Value, bool),
}

impl Body {
    /// Reads a PUT or PATCH body. Errors: 400 (malformed), 415 (unknown patch type).
    pub(super) fn read(method: &Method, h: &HeaderMap, body: &[u8]) -> Result<Body, ApiError> {
        if *method == Method::PATCH {
            Ok(Body::Patch(
                PatchKind::from_content_type(content_type(h))?,
                decode::decode_patch(body)?,
            ))
        } else {
            json_or_yaml(h)?;
            Ok(Body::Replace(decode::parse_body(body, is_yaml(h))?))
        }
    }

    /// The new document: the body, or the patch applied to `current` (of schema `root`).
    pub(super) fn apply(&self, current: Value, root: &str) -> Result<Value, ApiError> {
        match self {
            Body::Replace(v) => Ok(v.clone()),
            Body::Patch(kind, p) => {
                let mut doc = current;
                patch::apply_with_schema(*kind, &mut doc, p, root)?;
                Ok(doc)
            }
            Body::Apply(..) => Err(ApiError::unsupported_media_type(apply::APPLY_PATCH)),
        }
    }
}

/// 400 for a body naming another object, 409 Conflict for a stale `metadata.resourceVersion`.
pub(super) fn check_identity(
    res: Resource,
    name: &str,
    new: &Value,
    stored_rv: Option<&str>,
) -> Result<(), ApiError> {
    if let Some(n) = new["metadata"]["name"].as_str()
        && !n.is_empty()
        && n != name
    {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({n}) does not match the name on the URL ({name})"
        )));
    }
    if let Some(rv) = new["metadata"]["resourceVersion"].as_str()
        && !rv.is_empty()
        && Some(rv) != stored_rv
    {
        return Err(ApiError::conflict(
            &res.qualified(),
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        ));
    }
    Ok(())
}

/// Writes `body` over `stored`: the object but its status (`status_only` = false) or only the
/// status (`status_only` = true). Server-owned metadata is [`Store::update_object`]'s.
fn overwrite(
    stored: &mut Object,
    body: &Body,
    name: &str,
    fv: FieldValidation,
    w: &apply::Writer,
    warnings: &mut Vec<String>,
) -> Result<(), ApiError> {
    let status_only = w.subresource == Some("status");
    let res = stored.resource();
    let current = stored.to_json();
    let doc = match body {
        Body::Apply(config, force) if !status_only => {
            apply::apply(w, Some(&current), config, *force)?
        }
        _ => body.apply(current.clone(), w.root)?,
    };
    let (new, unknown) = decode::decode_object(res, doc, fv)?;
    *warnings = unknown;
    let new_json = new.to_json();
    check_identity(
        res,
        name,
        &new_json,
        stored.meta().resource_version.as_deref(),
    )?;
    let (mut merged, from) = if status_only {
        (current.clone(), new_json)
    } else {
        (new_json, current.clone())
    };
    match from.get("status") {
        Some(s) if !s.is_null() => merged["status"] = s.clone(),
        _ => {
            if let Some(m) = merged.as_object_mut() {
                m.remove("status");
            }
        }
    }
    if !matches!(body, Body::Apply(..)) {
        merged["metadata"]["managedFields"] = current["metadata"]["managedFields"].clone();
    }
    let mut obj = Object::from_json(res, merged)?;
    if !status_only {
        defaults::apply(&mut obj);
        validate::check(&obj)?;
    }
    if !matches!(body, Body::Apply(..)) {
        let mut doc = obj.to_json();
        apply::record_update(w, Some(&current), &mut doc);
        obj = Object::from_json(res, doc)?;
    }
    *stored = obj;
    Ok(())
}

fn update_object(
    store: &Store,
    path: (String, String, String, String, String),
    method: &Method,
    q: Option<&str>,
    h: &HeaderMap,
    body: &[u8],
    status_only: bool,
) -> Result<Response, ApiError> {
    let (group, version, ns, plural, name) = path;
    let res = resolve(&group, &version, &plural)?;
    let q = Query::parse(q);
    let fv = FieldValidation::parse(q.get("fieldValidation"))?;
    let applying = *method == Method::PATCH && apply::is_apply(h);
    let (body, manager) = if applying {
        let config = decode::parse_body(body, true)?;
        let force = q.flag("force")?;
        let manager = apply::apply_manager(&q)?;
        if !status_only && store.object(res, &ns, &name).is_none() {
            return create_from(store, res, &ns, config, fv, &manager, Some(force));
        }
        (Body::Apply(config, force), manager)
    } else {
        (Body::read(method, h, body)?, apply::manager(&q, h)?)
    };
    let root = patch::schema_name(res);
    let sub = status_only.then_some("status");
    let w = writer(store, res, &root, &manager, sub);
    let mut warnings = Vec::new();
    let obj = store.update_object(res, &ns, &name, |stored| {
        overwrite(stored, &body, &name, fv, &w, &mut warnings)
    })?;
    Ok(object_response(StatusCode::OK, &obj, &warnings))
}

/// `PUT`/`PATCH /apis/{group}/v1/namespaces/{ns}/{plural}/{name}` → 200 with the stored object.
pub(crate) async fn update(
    State(store): State<Store>,
    Path(path): ItemPath,
    method: Method,
    RawQuery(q): RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    respond(update_object(
        &store,
        path,
        &method,
        q.as_deref(),
        &h,
        &body,
        false,
    ))
}

/// `PUT`/`PATCH …/{name}/status` (only status written) and `…/{name}/scale`.
pub(crate) async fn update_sub(
    State(store): State<Store>,
    Path((group, version, ns, plural, name, sub)): Path<(
        String,
        String,
        String,
        String,
        String,
        String,
    )>,
    method: Method,
    RawQuery(q): RawQuery,
    h: HeaderMap,
    body: Bytes,
) -> Response {
    respond((|| {
        let res = resolve(&group, &version, &plural)?;
        match sub.as_str() {
            "status" => update_object(
                &store,
                (group, version, ns, plural, name),
                &method,
                q.as_deref(),
                &h,
                &body,
                true,
            ),
            "scale" if res.has_scale() => {
                let b = Body::read(&method, &h, &body)?;
                scale::update(&store, res, &ns, &name, &b)
            }
            _ => Err(ApiError::no_route()),
        }
    })())
}
