//! Probes in `kubectl describe` form (`notes/protocols.md` §7).
