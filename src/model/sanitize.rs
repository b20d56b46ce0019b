//! Neutralising control and escape sequences in text from the cluster before it reaches a terminal.
