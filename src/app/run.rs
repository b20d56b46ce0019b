//! The impure loop (terminal, input, tick, channel, draw).
