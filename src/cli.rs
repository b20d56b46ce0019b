//! Command line (clap derive).
