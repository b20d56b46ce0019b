//! `events.k8s.io/v1`: the stored core/v1 Events seen in the newer shape, as kube-apiserver
//! serves one storage through both groups (`pkg/apis/events/v1/conversion.go`;
//! `docs/core-api.md` §5). Read-only here: LIST (plain or a Table, the same columns as
//! core/v1 events), GET of one, and `watch=true` LISTs, each object in the `events.k8s.io/v1`
//! shape. Field selectors use this group's labels ([`core_field_selector`]).

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use k8s_openapi::api::core::v1::Event;
use k8s_openapi::api::events::v1::{Event as EventV1, EventSeries};
use serde_json::{Value, json};

use crate::api::object::{Object, Resource};
use crate::api::query::Query;
use crate::api::routes::collection;
use crate::api::select::Selector;
use crate::api::status::{ApiError, json_response};
use crate::api::store::Store;
use crate::api::table;
use crate::api::watch::{self, Shape};

/// The field labels `events.k8s.io/v1` accepts, each with the core/v1 Event label it selects
/// on (`AddFieldLabelConversionsForEvent` in `pkg/apis/events/v1/conversion.go`). `source`
/// stays although the new shape has no such field.
const FIELD_LABELS: [(&str, &str); 13] = [
    ("reason", "reason"),
    ("regarding.kind", "involvedObject.kind"),
    ("regarding.namespace", "involvedObject.namespace"),
    ("regarding.name", "involvedObject.name"),
    ("regarding.uid", "involvedObject.uid"),
    ("regarding.apiVersion", "involvedObject.apiVersion"),
    (
        "regarding.resourceVersion",
        "involvedObject.resourceVersion",
    ),
    ("regarding.fieldPath", "involvedObject.fieldPath"),
    ("reportingController", "reportingComponent"),
    ("source", "source"),
    ("type", "type"),
    ("metadata.namespace", "metadata.namespace"),
    ("metadata.name", "metadata.name"),
];

/// An `events.k8s.io/v1` field selector (`regarding.name=web,type=Warning`) rewritten with the
/// core/v1 Event labels the store selects on (`involvedObject.name=web,type=Warning`).
/// Errors: 400 BadRequest `field label not supported: <label>` for a label outside
/// [`FIELD_LABELS`] (the core names such as `involvedObject.name` included); malformed parts
/// are left for [`Selector::parse`] to refuse.
pub fn core_field_selector(text: &str) -> Result<String, ApiError> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some(at) = part.find(['=', '!']) else {
            out.push(part.to_string());
            continue;
        };
        let (label, rest) = part.split_at(at);
        let label = label.trim();
        let core = FIELD_LABELS
            .iter()
            .find(|(v1, _)| *v1 == label)
            .map(|(_, core)| *core)
            .ok_or_else(|| ApiError::bad_request(format!("field label not supported: {label}")))?;
        out.push(format!("{core}{rest}"));
    }
    Ok(out.join(","))
}

fn convert_object(o: &Object) -> Value {
    match o {
        Object::Event(e) => convert(e),
        other => other.to_json(),
    }
}

/// How a watch through this group sends the stored Events.
const SHAPE: Shape = Shape {
    kind: "Event",
    api_version: GROUP_VERSION,
    convert: convert_object,
};

/// The group and version served.
pub const GROUP_VERSION: &str = "events.k8s.io/v1";

/// A core/v1 Event as an `events.k8s.io/v1` Event: `involvedObject` → `regarding`, `message`
/// → `note`, `reportingComponent` → `reportingController`, `source` → `deprecatedSource`,
/// `firstTimestamp`/`lastTimestamp`/`count` → `deprecatedFirstTimestamp`/
/// `deprecatedLastTimestamp`/`deprecatedCount`; `series`, `eventTime`, `action`, `related`,
/// `reportingInstance`, `reason`, `type` as they are. `eventTime` is `null` when unset (the
/// field is not optional on the wire).
pub fn convert(e: &Event) -> Value {
    let v1 = EventV1 {
        metadata: e.metadata.clone(),
        action: e.action.clone(),
        deprecated_count: e.count,
        deprecated_first_timestamp: e.first_timestamp.clone(),
        deprecated_last_timestamp: e.last_timestamp.clone(),
        deprecated_source: e.source.clone(),
        event_time: e.event_time.clone(),
        note: e.message.clone(),
        reason: e.reason.clone(),
        regarding: Some(e.involved_object.clone()),
        related: e.related.clone(),
        reporting_controller: e.reporting_component.clone(),
        reporting_instance: e.reporting_instance.clone(),
        series: e.series.as_ref().and_then(|s| {
            Some(EventSeries {
                count: s.count?,
                last_observed_time: s.last_observed_time.clone()?,
            })
        }),
        type_: e.type_.clone(),
    };
    let mut v = serde_json::to_value(&v1).unwrap_or(Value::Null);
    if v.get("eventTime").is_none() {
        v["eventTime"] = Value::Null;
    }
    v
}

/// The routes under `/apis/events.k8s.io/v1/…` (the generic `/apis/{group}` routes answer
/// the rest).
pub fn routes() -> Router<Store> {
    Router::new()
        .route(
            "/apis/events.k8s.io/v1/events",
            only(get(
                |State(s): State<Store>, RawQuery(q): RawQuery, h: HeaderMap| async move {
                    respond(list(s, None, q.as_deref(), &h))
                },
            )),
        )
        .route(
            "/apis/events.k8s.io/v1/namespaces/{ns}/events",
            only(get(
                |State(s): State<Store>,
                 Path(ns): Path<String>,
                 RawQuery(q): RawQuery,
                 h: HeaderMap| async move { respond(list(s, Some(ns), q.as_deref(), &h)) },
            )),
        )
        .route(
            "/apis/events.k8s.io/v1/namespaces/{ns}/events/{name}",
            only(get(
                |State(s): State<Store>,
                 Path((ns, name)): Path<(String, String)>,
                 h: HeaderMap| async move { respond(one(&s, &ns, &name, &h)) },
            )),
        )
}

fn only(r: MethodRouter<Store>) -> MethodRouter<Store> {
    r.fallback(|method: Method| async move { ApiError::method_not_allowed(method.as_str()) })
}

fn respond(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

fn list(
    store: Store,
    ns: Option<String>,
    q: Option<&str>,
    h: &HeaderMap,
) -> Result<Response, ApiError> {
    let query = Query::parse(q);
    if table::wants_table(h) {
        return collection(store, Resource::Events, ns, query, h);
    }
    let fields = core_field_selector(query.get("fieldSelector").unwrap_or(""))?;
    let sel = Selector::parse(Resource::Events, Some(&fields), query.get("labelSelector"))?;
    if query.flag("watch")? {
        return watch::serve_shaped(store, Resource::Events, ns, sel, &query, false, Some(SHAPE));
    }
    let (objects, rv) = store.list(Resource::Events, ns.as_deref());
    let items: Vec<Value> = objects
        .iter()
        .filter(|o| sel.matches(o))
        .filter_map(|o| match o {
            Object::Event(e) => Some(convert(e)),
            _ => None,
        })
        .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({
            "kind": "EventList", "apiVersion": GROUP_VERSION,
            "metadata": {"resourceVersion": rv.to_string()}, "items": items,
        }),
    ))
}

fn one(store: &Store, ns: &str, name: &str, h: &HeaderMap) -> Result<Response, ApiError> {
    let obj = store
        .object(Resource::Events, ns, name)
        .ok_or_else(|| ApiError::not_found("events.events.k8s.io", name))?;
    if table::wants_table(h) {
        let body = table::table(
            Resource::Events,
            std::slice::from_ref(&obj),
            store.resource_version(),
            store.now(),
        );
        return Ok(json_response(StatusCode::OK, &body));
    }
    match obj {
        Object::Event(e) => Ok(json_response(StatusCode::OK, &convert(&e))),
        _ => Err(ApiError::not_found("events.events.k8s.io", name)),
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::{EventSource, ObjectReference};

    use super::*;

    #[test]
    fn core_fields_move_to_their_new_names() {
        let e = Event {
            message: Some("Back-off restarting failed container".into()),
            reason: Some("BackOff".into()),
            count: Some(7),
            reporting_component: Some("kubelet".into()),
            source: Some(EventSource {
                component: Some("kubelet".into()),
                host: Some("node-1".into()),
            }),
            involved_object: ObjectReference {
                kind: Some("Pod".into()),
                name: Some("web".into()),
                ..ObjectReference::default()
            },
            ..Event::default()
        };
        let v = convert(&e);
        assert_eq!(v["apiVersion"], "events.k8s.io/v1");
        assert_eq!(v["note"], "Back-off restarting failed container");
        assert_eq!(v["regarding"]["name"], "web");
        assert_eq!(v["reportingController"], "kubelet");
        assert_eq!(v["deprecatedCount"], 7);
        assert_eq!(v["deprecatedSource"]["host"], "node-1");
        assert!(v["eventTime"].is_null() && v.get("eventTime").is_some());
        assert!(v.get("message").is_none() && v.get("involvedObject").is_none());
    }

    #[test]
    fn field_labels_map_to_the_core_names() {
        assert_eq!(
            core_field_selector("regarding.name=web, type!=Normal,reportingController==kubelet")
                .ok()
                .as_deref(),
            Some("involvedObject.name=web,type!=Normal,reportingComponent==kubelet")
        );
        let err = core_field_selector("involvedObject.name=web").err();
        assert_eq!(
            err.map(|e| e.message).as_deref(),
            Some("field label not supported: involvedObject.name")
        );
    }
}
