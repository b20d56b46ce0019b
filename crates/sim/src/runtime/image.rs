//! The simulated images, one table: from an image reference, what its container runs, which
//! tools and files an exec finds and what answers on its ports. Every other part of the runtime
//! asks [`SimImage::of`] instead of matching image names itself.
//!
//! An image has an **app** (its entrypoint, first match wins) and a **base** (its userland):
//!
//! | app ([`App`])                                  | program ([`super::programs`])                 | listeners ([`super::listeners`])           | files and binaries ([`super::userland`], [`super::binaries`]) |
//! |------------------------------------------------|-----------------------------------------------|--------------------------------------------|---------------------------------------------------------------|
//! | `Exit(N)`: repository `…/exit`, tag a number N | exits N after 0.5 s                           | declared ports (else 8080) answer `200 ok` | base's                                                        |
//! | `Hello`: repository `…/hello`                  | the seed's Go app (`PORT`, logs, SIGTERM)     | HTTP hello app on `PORT` (default 8080)    | none (distroless)                                             |
//! | `Nginx`: repository containing `nginx`         | nginx (STOPSIGNAL SIGQUIT)                    | nginx's `conf.d` servers (else port 80)    | `/etc/nginx/nginx.conf`, `nginx -T`/`-v`, ps shows master/worker |
//! | `TcpEcho`: image containing `tcp-echo`         | a server                                      | TCP echo on declared ports (else 7)        | base's                                                        |
//! | `Shell`: repository `…busybox`/`…alpine`/`…bash` | `sh -c` of its command/args (no command: `sh` exits 0) | nothing                           | base's                                                        |
//! | `Server`: anything else                        | runs until stopped                            | declared ports answer `200 ok`             | base's                                                        |
//!
//! | base ([`Base`])                                             | userland ([`Userland`])                            |
//! |-------------------------------------------------------------|----------------------------------------------------|
//! | image containing `distroless`/`scratch`, or app `Hello`     | `None`: no shell, every exec fails                 |
//! | image containing `busybox`                                  | `Busybox`: `sh` (ash), applets, `ps`, no os-release |
//! | image containing `alpine`                                   | `Alpine`: busybox plus `/etc/os-release`           |
//! | anything else                                               | `Debian`: `sh` (dash), `bash`, os-release, no `ps` |
//!
//! A container's env (`SIM_*`) and command, and the pod's no-shell annotation, refine this per
//! container (see [`super::programs`] and [`super::userland`]).
//!
//! Two more properties of the image's config, which the kubelet and the runtime read before
//! the entrypoint runs ([`super::start_checks`]):
//!
//! | property | rule |
//! |---|---|
//! | architecture ([`Arch`]) | `Arm64` when the tag ends in `-arm64`/`_arm64` or the repository is under `arm64v8/` (a single-platform image pushed from an arm64 machine); else `Amd64` (a multi-platform image has the node's platform). The simulated node is `linux/amd64` ([`NODE_ARCH`]) |
//! | user (`config.User`, [`SimImage::user`]) | `65532` for a tag containing `nonroot`, `101` for a repository containing `unprivileged` (nginx-unprivileged), else `0`: root, as most images (and `busybox`, `alpine`, `nginx`, distroless without `:nonroot`) are built |

use super::userland::Userland;

/// What an image's entrypoint is (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum App {
    /// `…/exit:N`: exits with code N.
    Exit(i32),
    /// The seed's distroless hello app.
    Hello,
    /// nginx.
    Nginx,
    /// A raw TCP echo server (benchmarks).
    TcpEcho,
    /// A shell image (busybox, alpine, bash): runs its command in `sh`.
    Shell,
    /// Any other application.
    Server,
}

/// The platform an image's binaries are built for (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arch {
    /// `linux/amd64`.
    Amd64,
    /// `linux/arm64`.
    Arm64,
}

/// The simulated node's platform: `kubernetes.io/arch: amd64` (`crate::nodes`).
pub(crate) const NODE_ARCH: Arch = Arch::Amd64;

/// Which userland an image is built on (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    /// Distroless or scratch: only the application binary.
    Distroless,
    /// busybox.
    Busybox,
    /// alpine (busybox applets).
    Alpine,
    /// Debian.
    Debian,
}

/// One image reference, classified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SimImage {
    /// `registry/repository` without tag or digest.
    pub repo: String,
    /// The tag (`latest` when absent).
    pub tag: String,
    /// Its entrypoint.
    pub app: App,
    /// Its userland.
    pub base: Base,
    /// The platform its binaries are built for.
    pub arch: Arch,
}

impl SimImage {
    /// Classifies `image` (`registry/repo:tag@digest`) by the module table.
    pub(crate) fn of(image: &str) -> SimImage {
        let (repo, tag) = split_image(image);
        let app = if let Some(code) = (repo.ends_with("/exit") || repo == "exit")
            .then(|| tag.parse::<i32>().ok())
            .flatten()
        {
            App::Exit(code)
        } else if repo.ends_with("/hello") || repo == "hello" {
            App::Hello
        } else if repo.contains("nginx") {
            App::Nginx
        } else if image.contains("tcp-echo") {
            App::TcpEcho
        } else if ["busybox", "alpine", "bash"]
            .iter()
            .any(|n| repo.ends_with(n))
        {
            App::Shell
        } else {
            App::Server
        };
        let base = if image.contains("distroless") || image.contains("scratch") || app == App::Hello
        {
            Base::Distroless
        } else if image.contains("busybox") {
            Base::Busybox
        } else if image.contains("alpine") {
            Base::Alpine
        } else {
            Base::Debian
        };
        let arm = tag.ends_with("-arm64")
            || tag.ends_with("_arm64")
            || repo.starts_with("arm64v8/")
            || repo.contains("/arm64v8/");
        SimImage {
            repo: repo.to_string(),
            tag: tag.to_string(),
            app,
            base,
            arch: if arm { Arch::Arm64 } else { Arch::Amd64 },
        }
    }

    /// The numeric user of the image's config (`config.User`; see the module docs): what the
    /// kubelet's `verifyRunAsNonRoot` compares with 0.
    pub(crate) fn user(&self) -> i64 {
        if self.tag.contains("nonroot") {
            65532
        } else if self.repo.contains("unprivileged") {
            101
        } else {
            0
        }
    }

    /// The entrypoint's path when the container sets no `command` (as an image's `ENTRYPOINT`
    /// names it): `/usr/local/bin/<name>`.
    pub(crate) fn entrypoint(&self) -> String {
        format!("/usr/local/bin/{}", self.name())
    }

    /// The tools an exec finds (before the pod's no-shell annotation).
    pub(crate) fn userland(&self) -> Userland {
        match self.base {
            Base::Distroless => Userland::None,
            Base::Busybox => Userland::Busybox,
            Base::Alpine => Userland::Alpine,
            Base::Debian => Userland::Debian,
        }
    }

    /// The last path component of the repository (`nginx` for `docker.io/library/nginx`).
    pub(crate) fn name(&self) -> &str {
        self.repo.rsplit('/').next().unwrap_or(&self.repo)
    }
}

/// Splits `registry/repo:tag@digest` into `(registry/repo, tag)`; tag `latest` when absent.
pub(crate) fn split_image(image: &str) -> (&str, &str) {
    let no_digest = image.split('@').next().unwrap_or(image);
    let slash = no_digest.rfind('/').map_or(0, |p| p + 1);
    match no_digest[slash..].rfind(':') {
        Some(c) => (&no_digest[..slash + c], &no_digest[slash + c + 1..]),
        None => (no_digest, "latest"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(image: &str) -> (App, Base) {
        let i = SimImage::of(image);
        (i.app, i.base)
    }

    #[test]
    fn references_split_into_repository_and_tag() {
        assert_eq!(split_image("nginx:1.29"), ("nginx", "1.29"));
        assert_eq!(
            split_image("ghcr.io/example/hello:1.0"),
            ("ghcr.io/example/hello", "1.0")
        );
        assert_eq!(
            split_image("localhost:5000/x"),
            ("localhost:5000/x", "latest")
        );
        assert_eq!(
            split_image("busybox:1.36@sha256:0123abcd"),
            ("busybox", "1.36")
        );
    }

    #[test]
    fn the_seed_images_and_the_others() {
        assert_eq!(
            kind("ghcr.io/podscope/hello:1.0"),
            (App::Hello, Base::Distroless)
        );
        assert_eq!(kind("nginx:1.29"), (App::Nginx, Base::Debian));
        assert_eq!(kind("nginx:1.29-alpine"), (App::Nginx, Base::Alpine));
        assert_eq!(kind("busybox:1.36"), (App::Shell, Base::Busybox));
        assert_eq!(kind("alpine:3.21"), (App::Shell, Base::Alpine));
        assert_eq!(kind("bash:5"), (App::Shell, Base::Debian));
        assert_eq!(kind("registry.local/exit:3"), (App::Exit(3), Base::Debian));
        assert_eq!(
            kind("registry.local/tcp-echo:1"),
            (App::TcpEcho, Base::Debian)
        );
        assert_eq!(
            kind("gcr.io/distroless/java17:nonroot"),
            (App::Server, Base::Distroless)
        );
        assert_eq!(kind("postgres:16"), (App::Server, Base::Debian));
        assert_eq!(SimImage::of("docker.io/library/nginx:1.29").name(), "nginx");
    }

    #[test]
    fn architecture_and_user_of_the_image_config() {
        assert_eq!(SimImage::of("nginx:1.29").arch, Arch::Amd64);
        assert_eq!(
            SimImage::of("registry.example/billing/invoicer:2.3.0-arm64").arch,
            Arch::Arm64
        );
        assert_eq!(SimImage::of("arm64v8/busybox:1.37").arch, Arch::Arm64);
        assert_eq!(SimImage::of("busybox:1.37").user(), 0);
        assert_eq!(
            SimImage::of("gcr.io/distroless/static:nonroot").user(),
            65532
        );
        assert_eq!(SimImage::of("nginxinc/nginx-unprivileged:1.29").user(), 101);
    }
}
