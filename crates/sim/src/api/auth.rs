//! Authentication (bearer token) and a test knob for RBAC denials, as one axum middleware.
//!
//! HTTPS mode: every request except `/healthz`, `/livez`, `/readyz`, `/version` (and their
//! sub-paths) must carry `Authorization: Bearer <token>`; otherwise 401 with the API server's
//! body `{"kind":"Status",…,"message":"Unauthorized","reason":"Unauthorized","code":401}`.
//! Plain-HTTP mode requires nothing (kubectl sends no credentials over http, see
//! `docs/protocols.md` top).
//!
//! Authorization: each resource request is mapped to the API server's request attributes (API
//! group, verb, resource[/subresource], namespace, name — as kube-apiserver's
//! `RequestInfoFactory` does for the paths the simulator serves, `/api/v1/…` and
//! `/apis/{group}/{version}/…`) and answered 403 Forbidden when `(verb, resource)` is in the
//! deny list, worded as `responsewriters.Forbidden` does:
//! `pods "x" is forbidden: User "podscope-sim" cannot get resource "pods" in API group "" in the namespace "ns"`.
//!
//! Connect subresources (`pods/exec`, `pods/attach`, `pods/portforward`): a WebSocket upgrade is
//! a GET, authorized as `get`; kube-apiserver ≥ 1.35 (`AuthorizePodWebsocketUpgradeCreatePermission`,
//! on by default) then also checks `create` in the handler (`ensureAuthorizedForVerb`), before
//! looking at the pod. That refusal is `NewForbidden` with the RBAC authorizer's reason, which is
//! empty: `pods "x" is forbidden: ` (nothing after the colon). Denying `("create",
//! "pods/exec")` therefore refuses kube-rs' and kubectl's WebSocket exec with that message.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::query::Query;
use super::status::ApiError;

/// The user name the simulator's token authenticates as (used in Forbidden messages).
pub const USER: &str = "podscope-sim";

/// The groups of [`USER`]: `system:authenticated` only. Not `system:masters`: kube-apiserver
/// lets that group past every authorizer (a privileged-group short cut before RBAC), so a member
/// could not be refused anything and the deny list would contradict it. The permissions are
/// instead one ClusterRole bound to the user ([`ROLE`]), which allows what the deny list does
/// not refuse (`docs/permissions.md`).
pub const GROUPS: [&str; 1] = ["system:authenticated"];

/// The name of the ClusterRole and of the ClusterRoleBinding that grant [`USER`] its
/// permissions, as access reviews name them (`RBAC: allowed by ClusterRoleBinding
/// "podscope-sim" of ClusterRole "podscope-sim" to User "podscope-sim"`).
pub const ROLE: &str = "podscope-sim";

/// RBAC's verbs for resource requests, in the order kube-apiserver's discovery and role
/// printers list them (`*` stands for all of them in a deny entry).
pub const VERBS: [&str; 8] = [
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
];

/// Paths answered without credentials (prefix match on whole segments).
pub const PUBLIC_PATHS: [&str; 4] = ["/healthz", "/livez", "/readyz", "/version"];

/// Who may do what: the expected bearer token (`None` = no authentication) and denied
/// `(verb, resource)` pairs, e.g. `("watch", "pods")`, `("get", "pods/log")`.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// The bearer token required on non-public paths; `None` disables authentication.
    pub token: Option<String>,
    /// Denied `(verb, resource)` pairs; verbs as in RBAC (`get`, `list`, `watch`, `create`,
    /// `update`, `patch`, `delete`, `deletecollection`) or `*` for all of them, resources with
    /// subresource (`pods/exec`) or `*`. The access reviews answer from the same list
    /// (`super::reviews`, `docs/permissions.md`).
    pub deny: Arc<Vec<(String, String)>>,
}

impl Access {
    /// Whether the deny list refuses `verb` on `resource` (`pods`, `pods/exec`): an entry with
    /// that verb, or with `*`, and that resource. A request for verb `*` (an access review's
    /// "every verb") is refused when any verb of the resource is.
    pub fn denies(&self, verb: &str, resource: &str) -> bool {
        denies(&self.deny, verb, resource)
    }
}

/// [`Access::denies`] over a deny list.
pub fn denies(deny: &[(String, String)], verb: &str, resource: &str) -> bool {
    deny.iter().any(|(v, r)| {
        (r == resource || r == "*" || resource == "*") && (v == verb || v == "*" || verb == "*")
    })
}

/// The authorization attributes of one resource request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attributes {
    /// API group: empty for core (`/api/v1`), e.g. `apps`, `batch` for `/apis/{group}/v1`.
    pub group: String,
    /// RBAC verb: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`.
    pub verb: &'static str,
    /// Resource, e.g. `pods`, `events`, `namespaces`.
    pub resource: String,
    /// Subresource, e.g. `log`, `exec`, `portforward`, `status`, `ephemeralcontainers`; empty if none.
    pub subresource: String,
    /// Namespace; empty for cluster-scoped requests.
    pub namespace: String,
    /// Object name; empty for collections.
    pub name: String,
}

impl Attributes {
    /// `resource` or `resource/subresource`, as written in RBAC rules.
    pub fn full_resource(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.clone()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }

    /// Whether this is a connect request of a pod's streaming subresource (`exec`, `attach`,
    /// `portforward`), which the API server also authorizes for `create`.
    pub fn is_pod_connect(&self) -> bool {
        self.resource == "pods"
            && matches!(self.subresource.as_str(), "exec" | "attach" | "portforward")
    }

    /// The 403 of the API server's extra `create` check on a connect request (see the module
    /// docs): `pods "x" is forbidden: ` with RBAC's empty reason.
    pub fn forbidden_create(&self) -> ApiError {
        ApiError {
            code: 403,
            reason: "Forbidden",
            message: format!("{} \"{}\" is forbidden: ", self.resource, self.name),
        }
    }

    /// The 403 the API server answers when this request is denied to `user`.
    pub fn forbidden(&self, user: &str) -> ApiError {
        let scope = if self.namespace.is_empty() {
            "at the cluster scope".to_string()
        } else {
            format!("in the namespace \"{}\"", self.namespace)
        };
        let why = format!(
            "User \"{user}\" cannot {} resource \"{}\" in API group \"{}\" {scope}",
            self.verb,
            self.full_resource(),
            self.group
        );
        let resource = if self.group.is_empty() {
            self.resource.clone()
        } else {
            format!("{}.{}", self.resource, self.group)
        };
        let message = if self.name.is_empty() {
            format!("{resource} is forbidden: {why}")
        } else {
            format!("{resource} \"{}\" is forbidden: {why}", self.name)
        };
        ApiError {
            code: 403,
            reason: "Forbidden",
            message,
        }
    }
}

/// Maps a request to its attributes; `None` for non-resource paths (discovery, `/version`,
/// `/openapi/…`, health) and for paths outside `/api/v1` and `/apis/{group}/{version}`.
pub fn attributes(method: &Method, path: &str, query: Option<&str>) -> Option<Attributes> {
    let (group, rest) = match path.strip_prefix("/api/v1/") {
        Some(rest) => ("", rest),
        None => {
            let mut it = path.strip_prefix("/apis/")?.splitn(3, '/');
            let (group, _version, rest) = (it.next()?, it.next()?, it.next()?);
            (group, rest)
        }
    };
    let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
    let (namespace, parts) = match parts.as_slice() {
        ["namespaces", ns] => ((*ns).to_string(), vec!["namespaces", ns]),
        ["namespaces", ns, tail @ ..] => ((*ns).to_string(), tail.to_vec()),
        other => (String::new(), other.to_vec()),
    };
    let (resource, name, subresource) = match parts.as_slice() {
        [r] => (*r, "", ""),
        [r, n] => (*r, *n, ""),
        [r, n, s] => (*r, *n, *s),
        _ => return None,
    };
    let watch = Query::parse(query).flag("watch").unwrap_or(false);
    let verb = match *method {
        Method::GET | Method::HEAD if watch => "watch",
        Method::GET | Method::HEAD if name.is_empty() => "list",
        Method::GET | Method::HEAD => "get",
        Method::POST => "create",
        Method::PUT => "update",
        Method::PATCH => "patch",
        Method::DELETE if name.is_empty() => "deletecollection",
        Method::DELETE => "delete",
        _ => return None,
    };
    Some(Attributes {
        group: group.to_string(),
        verb,
        resource: resource.to_string(),
        subresource: subresource.to_string(),
        namespace,
        name: name.to_string(),
    })
}

/// 401 Unauthorized exactly as kube-apiserver writes it.
pub fn unauthorized() -> ApiError {
    ApiError {
        code: 401,
        reason: "Unauthorized",
        message: "Unauthorized".to_string(),
    }
}

fn is_public(path: &str) -> bool {
    PUBLIC_PATHS.iter().any(|p| {
        path.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

fn bearer_ok(req: &Request, token: &str) -> bool {
    req.headers()
        .get_all(header::AUTHORIZATION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| {
            let (scheme, cred) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then_some(cred.trim())
        })
        .any(|cred| constant_time_eq(cred.as_bytes(), token.as_bytes()))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The middleware: authenticate, then authorize against the deny list, then run the route.
pub async fn check(State(access): State<Access>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_string();
    if let Some(token) = &access.token
        && !is_public(&path)
        && !bearer_ok(&req, token)
    {
        return unauthorized().into_response();
    }
    if !access.deny.is_empty()
        && let Some(attrs) = attributes(req.method(), &path, req.uri().query())
    {
        let full = attrs.full_resource();
        let denied = |verb: &str| access.denies(verb, &full);
        if denied(attrs.verb) {
            return attrs.forbidden(USER).into_response();
        }
        if attrs.is_pod_connect() && attrs.verb != "create" && denied("create") {
            return attrs.forbidden_create().into_response();
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_requests_like_the_apiserver() {
        let a = attributes(&Method::GET, "/api/v1/namespaces/ns/pods/x", None).expect("resource");
        assert_eq!((a.verb, a.full_resource().as_str()), ("get", "pods"));
        let w = attributes(
            &Method::GET,
            "/api/v1/namespaces/ns/pods",
            Some("&watch=true&fieldSelector=metadata.name%3Dx"),
        )
        .expect("resource");
        assert_eq!((w.verb, w.name.as_str()), ("watch", ""));
        let e =
            attributes(&Method::POST, "/api/v1/namespaces/ns/pods/x/exec", None).expect("resource");
        assert_eq!(
            (e.verb, e.full_resource().as_str()),
            ("create", "pods/exec")
        );
        let n = attributes(&Method::GET, "/api/v1/namespaces/ns", None).expect("resource");
        assert_eq!(
            (
                n.verb,
                n.resource.as_str(),
                n.name.as_str(),
                n.namespace.as_str()
            ),
            ("get", "namespaces", "ns", "ns")
        );
        assert!(attributes(&Method::GET, "/api/v1", None).is_none());
        assert!(attributes(&Method::GET, "/openapi/v3", None).is_none());
    }

    #[test]
    fn forbidden_messages_match_kube_apiserver() {
        let a = attributes(&Method::GET, "/api/v1/namespaces/ns/pods/x", None).expect("resource");
        assert_eq!(
            a.forbidden(USER).message,
            "pods \"x\" is forbidden: User \"podscope-sim\" cannot get resource \"pods\" in API group \"\" in the namespace \"ns\""
        );
        let l = attributes(&Method::GET, "/api/v1/namespaces/ns/pods", None).expect("resource");
        assert_eq!(
            l.forbidden(USER).message,
            "pods is forbidden: User \"podscope-sim\" cannot list resource \"pods\" in API group \"\" in the namespace \"ns\""
        );
        let d = attributes(
            &Method::PATCH,
            "/apis/apps/v1/namespaces/ns/deployments/web/scale",
            None,
        )
        .expect("resource");
        assert_eq!(d.full_resource(), "deployments/scale");
        assert_eq!(
            d.forbidden(USER).message,
            "deployments.apps \"web\" is forbidden: User \"podscope-sim\" cannot patch resource \"deployments/scale\" in API group \"apps\" in the namespace \"ns\""
        );
        assert!(attributes(&Method::GET, "/apis/apps/v1", None).is_none());
        let c = attributes(&Method::GET, "/api/v1/pods", None).expect("resource");
        assert!(
            c.forbidden(USER)
                .message
                .ends_with("cannot list resource \"pods\" in API group \"\" at the cluster scope")
        );
    }

    #[test]
    fn websocket_connects_are_also_checked_for_create() {
        let ws = attributes(
            &Method::GET,
            "/api/v1/namespaces/ns/pods/x/exec",
            Some("command=sh"),
        )
        .expect("resource");
        assert_eq!((ws.verb, ws.is_pod_connect()), ("get", true));
        assert_eq!(ws.forbidden_create().message, "pods \"x\" is forbidden: ");
        assert_eq!(ws.forbidden_create().code, 403);
        let pf = attributes(
            &Method::GET,
            "/api/v1/namespaces/ns/pods/x/portforward",
            None,
        )
        .expect("resource");
        assert!(pf.is_pod_connect());
        let log =
            attributes(&Method::GET, "/api/v1/namespaces/ns/pods/x/log", None).expect("resource");
        assert!(!log.is_pod_connect());
        let ec = attributes(
            &Method::PATCH,
            "/api/v1/namespaces/ns/pods/x/ephemeralcontainers",
            None,
        )
        .expect("resource");
        assert_eq!(
            (ec.verb, ec.full_resource().as_str(), ec.is_pod_connect()),
            ("patch", "pods/ephemeralcontainers", false)
        );
    }

    #[test]
    fn a_star_verb_denies_every_verb() {
        let deny = vec![("*".to_string(), "pods/log".to_string())];
        assert!(denies(&deny, "get", "pods/log"));
        assert!(!denies(&deny, "get", "pods"));
        let exec = vec![("create".to_string(), "pods/exec".to_string())];
        assert!(denies(&exec, "*", "pods/exec"));
        assert!(!denies(&exec, "get", "pods/exec"));
    }

    #[test]
    fn public_paths_are_whole_segments() {
        assert!(is_public("/healthz"));
        assert!(is_public("/livez/ping"));
        assert!(!is_public("/versionx"));
        assert!(!is_public("/api/v1/pods"));
    }
}
