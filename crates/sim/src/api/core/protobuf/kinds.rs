//! The protobuf messages of the workload and core kinds `kubectl create` sends beyond
//! Namespace, ConfigMap and Secret: apps/v1 Deployment, batch/v1 Job and CronJob, core/v1
//! Service and ServiceAccount, with the fields their create commands set and the common ones
//! around them. Each message is a table of (field number, JSON name, type), the numbers those
//! of the API's `generated.proto` files (`docs/core-api.md` §6); a field not in a table is
//! skipped, as is `status`.
//!
//! client-go's encoder writes every non-pointer field, set or not: empty strings, `0` and
//! `false` of fields JSON marks `omitempty` are what the client left out, so they are left
//! out here ([`Ty::Str`], [`Ty::Int`], [`Ty::Bool`]); a pointer field is written only when set,
//! so its zero is kept ([`Ty::OptInt`], [`Ty::OptBool`]: `replicas: 0`).

use serde_json::{Map, Value, json};

use super::{Field, entry, fields, object_meta, text};
use crate::api::object::Resource;
use crate::api::status::ApiError;

/// How one field's bytes become JSON.
#[derive(Clone, Copy)]
pub(super) enum Ty {
    /// A string; empty is absent.
    Str,
    /// A non-pointer integer; `0` is absent.
    Int,
    /// A pointer integer (`*int32`, `*int64`): kept whatever its value.
    OptInt,
    /// A non-pointer bool; `false` is absent.
    Bool,
    /// A pointer bool: kept.
    OptBool,
    /// `repeated string`.
    Strs,
    /// `map<string, string>`.
    StrMap,
    /// `map<string, Quantity>` (a Quantity is a message with its string in field 1).
    QtyMap,
    /// `IntOrString`: 1 type (0 int, 1 string), 2 intVal, 3 strVal.
    IntOrStr,
    /// `ObjectMeta` ([`object_meta`]).
    Meta,
    /// A nested message.
    Msg(&'static [Def]),
    /// A repeated nested message.
    Msgs(&'static [Def]),
}

/// One field of a message table: its number, its JSON name and its type.
pub(super) type Def = (u64, &'static str, Ty);

const LABEL_SELECTOR_REQUIREMENT: &[Def] = &[
    (1, "key", Ty::Str),
    (2, "operator", Ty::Str),
    (3, "values", Ty::Strs),
];
const LABEL_SELECTOR: &[Def] = &[
    (1, "matchLabels", Ty::StrMap),
    (2, "matchExpressions", Ty::Msgs(LABEL_SELECTOR_REQUIREMENT)),
];
const CONTAINER_PORT: &[Def] = &[
    (1, "name", Ty::Str),
    (2, "hostPort", Ty::Int),
    (3, "containerPort", Ty::Int),
    (4, "protocol", Ty::Str),
    (5, "hostIP", Ty::Str),
];
const ENV_VAR: &[Def] = &[(1, "name", Ty::Str), (2, "value", Ty::Str)];
const RESOURCES: &[Def] = &[(1, "limits", Ty::QtyMap), (2, "requests", Ty::QtyMap)];
const CONTAINER: &[Def] = &[
    (1, "name", Ty::Str),
    (2, "image", Ty::Str),
    (3, "command", Ty::Strs),
    (4, "args", Ty::Strs),
    (5, "workingDir", Ty::Str),
    (6, "ports", Ty::Msgs(CONTAINER_PORT)),
    (7, "env", Ty::Msgs(ENV_VAR)),
    (8, "resources", Ty::Msg(RESOURCES)),
    (13, "terminationMessagePath", Ty::Str),
    (14, "imagePullPolicy", Ty::Str),
    (16, "stdin", Ty::Bool),
    (17, "stdinOnce", Ty::Bool),
    (18, "tty", Ty::Bool),
    (20, "terminationMessagePolicy", Ty::Str),
    (24, "restartPolicy", Ty::Str),
];
const POD_SPEC: &[Def] = &[
    (2, "containers", Ty::Msgs(CONTAINER)),
    (3, "restartPolicy", Ty::Str),
    (4, "terminationGracePeriodSeconds", Ty::OptInt),
    (5, "activeDeadlineSeconds", Ty::OptInt),
    (6, "dnsPolicy", Ty::Str),
    (7, "nodeSelector", Ty::StrMap),
    (8, "serviceAccountName", Ty::Str),
    (9, "serviceAccount", Ty::Str),
    (10, "nodeName", Ty::Str),
    (11, "hostNetwork", Ty::Bool),
    (16, "hostname", Ty::Str),
    (17, "subdomain", Ty::Str),
    (19, "schedulerName", Ty::Str),
    (20, "initContainers", Ty::Msgs(CONTAINER)),
    (21, "automountServiceAccountToken", Ty::OptBool),
    (24, "priorityClassName", Ty::Str),
];
const POD_TEMPLATE: &[Def] = &[(1, "metadata", Ty::Meta), (2, "spec", Ty::Msg(POD_SPEC))];
const ROLLING_UPDATE: &[Def] = &[
    (1, "maxUnavailable", Ty::IntOrStr),
    (2, "maxSurge", Ty::IntOrStr),
];
const DEPLOYMENT_STRATEGY: &[Def] = &[
    (1, "type", Ty::Str),
    (2, "rollingUpdate", Ty::Msg(ROLLING_UPDATE)),
];
const DEPLOYMENT_SPEC: &[Def] = &[
    (1, "replicas", Ty::OptInt),
    (2, "selector", Ty::Msg(LABEL_SELECTOR)),
    (3, "template", Ty::Msg(POD_TEMPLATE)),
    (4, "strategy", Ty::Msg(DEPLOYMENT_STRATEGY)),
    (5, "minReadySeconds", Ty::Int),
    (6, "revisionHistoryLimit", Ty::OptInt),
    (7, "paused", Ty::Bool),
    (9, "progressDeadlineSeconds", Ty::OptInt),
];
const JOB_SPEC: &[Def] = &[
    (1, "parallelism", Ty::OptInt),
    (2, "completions", Ty::OptInt),
    (3, "activeDeadlineSeconds", Ty::OptInt),
    (4, "selector", Ty::Msg(LABEL_SELECTOR)),
    (5, "manualSelector", Ty::OptBool),
    (6, "template", Ty::Msg(POD_TEMPLATE)),
    (7, "backoffLimit", Ty::OptInt),
    (8, "ttlSecondsAfterFinished", Ty::OptInt),
    (9, "completionMode", Ty::Str),
    (10, "suspend", Ty::OptBool),
    (12, "backoffLimitPerIndex", Ty::OptInt),
    (13, "maxFailedIndexes", Ty::OptInt),
    (14, "podReplacementPolicy", Ty::Str),
    (15, "managedBy", Ty::Str),
];
const JOB_TEMPLATE: &[Def] = &[(1, "metadata", Ty::Meta), (2, "spec", Ty::Msg(JOB_SPEC))];
const CRON_JOB_SPEC: &[Def] = &[
    (1, "schedule", Ty::Str),
    (2, "startingDeadlineSeconds", Ty::OptInt),
    (3, "concurrencyPolicy", Ty::Str),
    (4, "suspend", Ty::OptBool),
    (5, "jobTemplate", Ty::Msg(JOB_TEMPLATE)),
    (6, "successfulJobsHistoryLimit", Ty::OptInt),
    (7, "failedJobsHistoryLimit", Ty::OptInt),
    (8, "timeZone", Ty::Str),
];
const SERVICE_PORT: &[Def] = &[
    (1, "name", Ty::Str),
    (2, "protocol", Ty::Str),
    (3, "port", Ty::Int),
    (4, "targetPort", Ty::IntOrStr),
    (5, "nodePort", Ty::Int),
    (6, "appProtocol", Ty::Str),
];
const SERVICE_SPEC: &[Def] = &[
    (1, "ports", Ty::Msgs(SERVICE_PORT)),
    (2, "selector", Ty::StrMap),
    (3, "clusterIP", Ty::Str),
    (4, "type", Ty::Str),
    (5, "externalIPs", Ty::Strs),
    (7, "sessionAffinity", Ty::Str),
    (10, "externalName", Ty::Str),
    (11, "externalTrafficPolicy", Ty::Str),
    (13, "publishNotReadyAddresses", Ty::Bool),
    (17, "ipFamilyPolicy", Ty::Str),
    (18, "clusterIPs", Ty::Strs),
    (19, "ipFamilies", Ty::Strs),
    (22, "internalTrafficPolicy", Ty::Str),
];
const OBJECT_REFERENCE: &[Def] = &[
    (1, "kind", Ty::Str),
    (2, "namespace", Ty::Str),
    (3, "name", Ty::Str),
    (5, "apiVersion", Ty::Str),
];
const LOCAL_OBJECT_REFERENCE: &[Def] = &[(1, "name", Ty::Str)];

/// The top-level message table of `resource`, or `None` when it is not decoded here.
pub(super) fn top(resource: Resource) -> Option<&'static [Def]> {
    const fn with_spec(spec: &'static [Def]) -> [Def; 2] {
        [(1, "metadata", Ty::Meta), (2, "spec", Ty::Msg(spec))]
    }
    const DEPLOYMENT: &[Def] = &with_spec(DEPLOYMENT_SPEC);
    const JOB: &[Def] = &with_spec(JOB_SPEC);
    const CRON_JOB: &[Def] = &with_spec(CRON_JOB_SPEC);
    const SERVICE: &[Def] = &with_spec(SERVICE_SPEC);
    const SERVICE_ACCOUNT: &[Def] = &[
        (1, "metadata", Ty::Meta),
        (2, "secrets", Ty::Msgs(OBJECT_REFERENCE)),
        (3, "imagePullSecrets", Ty::Msgs(LOCAL_OBJECT_REFERENCE)),
        (4, "automountServiceAccountToken", Ty::OptBool),
    ];
    match resource {
        Resource::Deployments => Some(DEPLOYMENT),
        Resource::Jobs => Some(JOB),
        Resource::CronJobs => Some(CRON_JOB),
        Resource::Services => Some(SERVICE),
        Resource::ServiceAccounts => Some(SERVICE_ACCOUNT),
        _ => None,
    }
}

/// A varint as the signed integer it encodes (negative `int32`s and `int64`s are written as
/// ten-byte two's complement).
fn signed(v: u64) -> i64 {
    i64::from_ne_bytes(v.to_ne_bytes())
}

/// `IntOrString` as JSON: the number, or the string when `type` is 1.
fn int_or_string(b: &[u8]) -> Result<Value, ApiError> {
    let (mut is_string, mut int, mut string) = (false, 0, String::new());
    for (n, f) in fields(b)? {
        match (n, f) {
            (1, Field::Varint(v)) => is_string = v == 1,
            (2, Field::Varint(v)) => int = signed(v),
            (3, Field::Bytes(x)) => string = text(x),
            _ => {}
        }
    }
    Ok(if is_string { json!(string) } else { json!(int) })
}

/// A `map<string, Quantity>` entry: 1 key, 2 a Quantity (1 its string).
fn quantity_entry(b: &[u8]) -> Result<(String, Value), ApiError> {
    let (mut k, mut v) = (String::new(), String::new());
    for (n, f) in fields(b)? {
        match (n, f) {
            (1, Field::Bytes(x)) => k = text(x),
            (2, Field::Bytes(x)) => {
                for (m, g) in fields(x)? {
                    if let (1, Field::Bytes(y)) = (m, g) {
                        v = text(y);
                    }
                }
            }
            _ => {}
        }
    }
    Ok((k, json!(v)))
}

fn map_insert(m: &mut Map<String, Value>, name: &str, (k, v): (String, Value)) {
    if let Some(obj) = m
        .entry(name.to_string())
        .or_insert_with(|| json!({}))
        .as_object_mut()
    {
        obj.insert(k, v);
    }
}

fn array_push(m: &mut Map<String, Value>, name: &str, v: Value) {
    if let Some(a) = m
        .entry(name.to_string())
        .or_insert_with(|| json!([]))
        .as_array_mut()
    {
        a.push(v);
    }
}

/// The message in `b` as a JSON object, by its table `defs`. Errors: 400 for malformed input.
pub(super) fn message(b: &[u8], defs: &[Def]) -> Result<Map<String, Value>, ApiError> {
    let mut m = Map::new();
    for (n, f) in fields(b)? {
        let Some(&(_, name, ty)) = defs.iter().find(|d| d.0 == n) else {
            continue;
        };
        match (ty, f) {
            (Ty::Str, Field::Bytes(x)) if !x.is_empty() => {
                drop(m.insert(name.into(), json!(text(x))))
            }
            (Ty::Int, Field::Varint(v)) if v != 0 => drop(m.insert(name.into(), json!(signed(v)))),
            (Ty::OptInt, Field::Varint(v)) => drop(m.insert(name.into(), json!(signed(v)))),
            (Ty::Bool, Field::Varint(v)) if v != 0 => drop(m.insert(name.into(), json!(true))),
            (Ty::OptBool, Field::Varint(v)) => drop(m.insert(name.into(), json!(v != 0))),
            (Ty::Strs, Field::Bytes(x)) => array_push(&mut m, name, json!(text(x))),
            (Ty::StrMap, Field::Bytes(x)) => map_insert(&mut m, name, entry(x, false)?),
            (Ty::QtyMap, Field::Bytes(x)) => map_insert(&mut m, name, quantity_entry(x)?),
            (Ty::IntOrStr, Field::Bytes(x)) => drop(m.insert(name.into(), int_or_string(x)?)),
            (Ty::Meta, Field::Bytes(x)) => drop(m.insert(name.into(), object_meta(x)?)),
            (Ty::Msg(d), Field::Bytes(x)) => {
                drop(m.insert(name.into(), Value::Object(message(x, d)?)));
            }
            (Ty::Msgs(d), Field::Bytes(x)) => {
                array_push(&mut m, name, Value::Object(message(x, d)?));
            }
            _ => {}
        }
    }
    Ok(m)
}
