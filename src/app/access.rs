//! What the person may do to the pod, known before a key is pressed: whether RBAC lets them
//! open a shell (`e`: `create pods/exec`), add a debug container (`d`: `patch
//! pods/ephemeralcontainers`) and port-forward (`f`: `create pods/portforward`).
//!
//! The session asks once per target namespace with one `SelfSubjectAccessReview` per key
//! (`cluster::access`) and the answers arrive as `Msg::AccessChecked` ([`Permissions`]). The
//! footer dims a refused key with `(forbidden)`, and pressing it puts the reason in the status
//! line instead of trying; a key whose review could not be asked (403 on the review itself, an
//! old server's 404, a network error) stays [`Permission::Unknown`] and works as before. The
//! answers are about a namespace, not a pod: they apply while the target is in that namespace,
//! across pod switches and re-created pods (`docs/permissions.md`).

use super::keymap::Action;
use super::state::State;
use crate::model::sanitize::sanitize;

/// A key whose request RBAC may refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guarded {
    /// `e`: a shell, `create pods/exec` (a WebSocket upgrade also needs `get`; see
    /// `docs/permissions.md` for why only `create` is asked).
    Exec,
    /// `d`: an ephemeral debug container, `patch pods/ephemeralcontainers`.
    Debug,
    /// `f`: port-forwards, `create pods/portforward`.
    Forward,
}

impl Guarded {
    /// Every guarded key, in the order the reviews are asked.
    pub const ALL: [Guarded; 3] = [Guarded::Exec, Guarded::Debug, Guarded::Forward];

    /// The RBAC verb the key's request needs.
    #[must_use]
    pub fn verb(self) -> &'static str {
        match self {
            Guarded::Exec | Guarded::Forward => "create",
            Guarded::Debug => "patch",
        }
    }

    /// The subresource of `pods` the request is for (`exec`, `ephemeralcontainers`,
    /// `portforward`).
    #[must_use]
    pub fn subresource(self) -> &'static str {
        match self {
            Guarded::Exec => "exec",
            Guarded::Debug => "ephemeralcontainers",
            Guarded::Forward => "portforward",
        }
    }

    /// The key's action in the keymap.
    #[must_use]
    pub fn action(self) -> Action {
        match self {
            Guarded::Exec => Action::OpenShell,
            Guarded::Debug => Action::AddDebug,
            Guarded::Forward => Action::ToggleForwards,
        }
    }

    /// The guarded key of `action`, if it is one.
    #[must_use]
    pub fn of(action: Action) -> Option<Guarded> {
        Guarded::ALL.into_iter().find(|g| g.action() == action)
    }
}

/// The answer of one review.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Permission {
    /// Not asked yet, or the review itself failed: the key works as without a check.
    #[default]
    Unknown,
    /// `status.allowed: true`.
    Allowed,
    /// `status.allowed: false`; `reason` is the authorizer's `status.reason` (RBAC leaves it
    /// empty).
    Denied {
        /// The server's reason, possibly empty.
        reason: String,
    },
}

/// The answers for one namespace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Permissions {
    /// The namespace the reviews asked about.
    pub namespace: String,
    /// `e`.
    pub exec: Permission,
    /// `d`.
    pub debug: Permission,
    /// `f`.
    pub forward: Permission,
}

impl Permissions {
    /// The answer for `key`.
    #[must_use]
    pub fn of(&self, key: Guarded) -> &Permission {
        match key {
            Guarded::Exec => &self.exec,
            Guarded::Debug => &self.debug,
            Guarded::Forward => &self.forward,
        }
    }

    /// Sets the answer for `key`.
    pub fn set(&mut self, key: Guarded, permission: Permission) {
        match key {
            Guarded::Exec => self.exec = permission,
            Guarded::Debug => self.debug = permission,
            Guarded::Forward => self.forward = permission,
        }
    }
}

/// `Msg::AccessChecked`: keeps the answers (the latest namespace asked about wins).
pub fn checked(state: &mut State, permissions: Permissions) {
    state.dirty |= state.access.as_ref() != Some(&permissions);
    state.access = Some(permissions);
}

/// Whether `action` is refused for the target shown: its key is guarded and the answers for
/// the target's namespace say denied.
#[must_use]
pub fn refused(state: &State, action: Action) -> bool {
    refusal(state, action).is_some()
}

/// The status line a refused key writes instead of trying: `e: forbidden: cannot create
/// resource "pods/exec" in API group "" in the namespace "shop"`, in the API server's words
/// (as a 403 names verb, resource and namespace), with the authorizer's reason after a `: ` when
/// it gave one. `None` when the key is allowed, unknown or not guarded.
#[must_use]
pub fn refusal(state: &State, action: Action) -> Option<String> {
    let key = Guarded::of(action)?;
    let access = state.access.as_ref()?;
    if access.namespace != state.target.namespace {
        return None;
    }
    let Permission::Denied { reason } = access.of(key) else {
        return None;
    };
    let label = match key {
        Guarded::Exec => "e",
        Guarded::Debug => "d",
        Guarded::Forward => "f",
    };
    let mut text = format!(
        "{label}: forbidden: cannot {} resource \"pods/{}\" in API group \"\" in the namespace \"{}\"",
        key.verb(),
        key.subresource(),
        sanitize(&access.namespace)
    );
    if !reason.is_empty() {
        text.push_str(": ");
        text.push_str(&sanitize(reason));
    }
    Some(text)
}

/// A guarded key pressed: when refused, the reason goes to the status line and `true` is
/// returned (the caller does not try).
pub fn refuse_key(state: &mut State, action: Action) -> bool {
    match refusal(state, action) {
        Some(text) => {
            state.target.logs.status = Some(text);
            state.dirty = true;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Msg, update};
    use crate::theme::Theme;

    fn state_in(namespace: &str) -> State {
        let now = "2024-06-03T07:20:15Z".parse().expect("timestamp");
        State::new(namespace, "web", now, Theme::colored())
    }

    fn exec_denied(namespace: &str) -> Permissions {
        Permissions {
            namespace: namespace.to_owned(),
            exec: Permission::Denied {
                reason: String::new(),
            },
            debug: Permission::Allowed,
            forward: Permission::Unknown,
        }
    }

    #[test]
    fn a_denied_review_refuses_the_key_in_its_namespace_only() {
        let mut s = state_in("shop");
        s.dirty = false;
        let cmds = update(&mut s, Msg::AccessChecked(exec_denied("shop")));
        assert!(cmds.is_empty());
        assert!(s.dirty);
        assert!(refused(&s, Action::OpenShell));
        assert!(!refused(&s, Action::AddDebug));
        assert!(!refused(&s, Action::ToggleForwards));
        assert!(!refused(&s, Action::ToggleLogs));
        assert_eq!(
            refusal(&s, Action::OpenShell).as_deref(),
            Some(
                "e: forbidden: cannot create resource \"pods/exec\" in API group \"\" in the namespace \"shop\""
            )
        );
        let other = state_in("default");
        let mut other = other;
        update(&mut other, Msg::AccessChecked(exec_denied("shop")));
        assert!(!refused(&other, Action::OpenShell));
    }

    #[test]
    fn a_refused_key_says_why_without_trying() {
        let mut s = state_in("shop");
        update(&mut s, Msg::AccessChecked(exec_denied("shop")));
        let key = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char('e'),
            crossterm::event::KeyModifiers::NONE,
        );
        let cmds = update(&mut s, Msg::Key(key));
        assert!(cmds.is_empty(), "{cmds:?}");
        assert_eq!(
            s.target.logs.status.as_deref(),
            refusal(&s, Action::OpenShell).as_deref()
        );
        let mut with_reason = exec_denied("shop");
        with_reason.set(
            Guarded::Forward,
            Permission::Denied {
                reason: "no ports for you".into(),
            },
        );
        update(&mut s, Msg::AccessChecked(with_reason));
        assert!(
            refusal(&s, Action::ToggleForwards)
                .is_some_and(|t| t.ends_with("namespace \"shop\": no ports for you"))
        );
    }
}
