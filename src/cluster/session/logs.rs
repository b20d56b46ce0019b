//! The session's log effects: following a container's log (`Cmd::FollowLogs`), saving text to a
//! file (`Cmd::SaveLogs`, also the YAML and describe views' `s`), and reading the tail of an
//! instance for the diagnosis (`Cmd::ReadLogTail`).

use kube::Api;
use kube::api::LogParams;
use tokio_util::task::AbortOnDropHandle;

use super::Session;
use crate::app::Msg;
use crate::cluster::logs::{StreamSpec, stream_task_from};
use crate::cluster::logs_ws::LogSource;

impl Session {
    /// The configured log transport, else plain HTTP on the target's namespace.
    fn log_source_or_http(&self) -> LogSource {
        self.log_source.clone().unwrap_or_else(|| {
            LogSource::Http(Api::namespaced(
                self.target.client.clone(),
                &self.target.namespace,
            ))
        })
    }

    /// Starts stream `stream` of `container`'s log (`previous`: the instance before, one request,
    /// no follow), from `since` or the newest `tail_lines`.
    pub(super) fn follow_logs(
        &mut self,
        stream: u64,
        container: &str,
        previous: bool,
        since: Option<jiff::Timestamp>,
        tail_lines: Option<i64>,
    ) {
        self.logs.retain(|_, t| !t.is_finished());
        let spec = StreamSpec {
            stream,
            pod: self.target.pod.clone(),
            container: container.to_owned(),
            // `update` tags lines with the instance it knows.
            instance: 0,
            params: LogParams {
                container: Some(container.to_owned()),
                follow: !previous,
                previous,
                timestamps: true,
                since_time: since,
                tail_lines,
                ..LogParams::default()
            },
        };
        let task = tokio::spawn(stream_task_from(
            self.log_source_or_http(),
            spec,
            self.stamped(),
        ));
        self.logs.insert(stream, AbortOnDropHandle::new(task));
    }

    /// Writes `contents` to `path` off the runtime's threads; answers `Msg::LogsSaved` with the
    /// bytes written or the error's text.
    pub(super) fn save(&self, path: &str, contents: &str) {
        let (path, contents, tx) = (path.to_owned(), contents.to_owned(), self.stamped());
        tokio::spawn(async move {
            let file = path.clone();
            let result = tokio::task::spawn_blocking(move || {
                std::fs::write(&file, contents.as_bytes()).map(|()| contents.len())
            })
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()));
            let _ = tx.send(Msg::LogsSaved { path, result }).await;
        });
    }

    /// Reads the last lines of `container`'s current or `previous` instance for the diagnosis;
    /// answers `Msg::LogTailRead`.
    pub(super) fn read_log_tail(&mut self, container: &str, previous: bool, restart_count: i32) {
        let source = self.log_source_or_http();
        let (pod, container) = (self.target.pod.clone(), container.to_owned());
        self.evidence.retain(|t| !t.is_finished());
        self.evidence.push(self.ask(async move {
            let tail = crate::cluster::evidence::read_log_tail(
                &source,
                &pod,
                &container,
                previous,
                restart_count,
            )
            .await;
            Msg::LogTailRead {
                container,
                previous,
                tail,
            }
        }));
    }
}
