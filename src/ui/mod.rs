//! The pure view: `view(frame, &state)`.
