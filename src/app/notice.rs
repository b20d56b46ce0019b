//! The header's one-line notices (`pod recreated (new UID …)`): shown when something happened
//! to the pod, then faded after [`NOTICE_FOR`] of clock ticks. Time is an input: a notice is
//! stamped with `state.now` when posted and cleared by the first `Msg::Tick` at or after
//! its expiry.

use jiff::{SignedDuration, Timestamp};

use super::state::State;

/// How long a notice stays in the header: 10 s of `Msg::Tick` time.
pub const NOTICE_FOR: SignedDuration = SignedDuration::from_secs(10);

/// Shows `text` as the target's notice from `state.now` on.
pub fn post(state: &mut State, text: String) {
    state.target.notice = Some(text);
    state.target.notice_at = Some(state.now);
    state.dirty = true;
}

/// On a tick at `now`: clears a notice posted [`NOTICE_FOR`] or longer ago (dirty when it
/// does). A notice without a stamp (set directly) stays.
pub fn expire(state: &mut State, now: Timestamp) {
    let Some(at) = state.target.notice_at else {
        return;
    };
    if now.duration_since(at) >= NOTICE_FOR {
        state.target.notice = None;
        state.target.notice_at = None;
        state.dirty = true;
    }
}
