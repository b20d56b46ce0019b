//! Go `time.Duration` text (`2m40s`, `5m0s`, `1.5s`) and kubectl's `HumanDuration` (`4m30s`, `10m`, `3d4h`).
