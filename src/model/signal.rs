//! Exit codes and signals: `137` → `SIGKILL`, `127` → command not found.
