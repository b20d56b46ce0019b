//! The pod the container-spec tests share: one container with every kind of env var, envFrom,
//! volume mount and the securityContext essentials, its ConfigMap and its Secret (whose value
//! must never be shown).

#![allow(dead_code)]

use k8s_openapi::api::core::v1::Pod;

/// The Secret `db`'s `password`, which nothing may print.
pub const SECRET_VALUE: &str = "hunter2-s3cr3t-value";
/// [`SECRET_VALUE`] base64-encoded, as the Secret's `data` holds it.
pub const SECRET_BASE64: &str = "aHVudGVyMi1zM2NyM3QtdmFsdWU=";

/// ConfigMap `cfg` and Secret `db` in namespace `default`.
pub const OBJECTS_YAML: &str = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
  namespace: default
data:
  db_host: db.default.svc
---
apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: default
type: Opaque
data:
  password: aHVudGVyMi1zM2NyM3QtdmFsdWU=
";

/// Pod `api` in namespace `default`.
pub const POD_YAML: &str = "\
apiVersion: v1
kind: Pod
metadata:
  name: api
  namespace: default
spec:
  securityContext:
    runAsUser: 1000
    runAsNonRoot: true
  containers:
  - name: api
    image: ghcr.io/example/hello:1.0
    command: [/app/server]
    args: [--port=8080, --config=/etc/cfg/app.conf]
    env:
    - name: PORT
      value: \"8080\"
    - name: DB_HOST
      valueFrom:
        configMapKeyRef: {name: cfg, key: db_host, optional: true}
    - name: DB_PASSWORD
      valueFrom:
        secretKeyRef: {name: db, key: password}
    - name: POD_NAME
      valueFrom:
        fieldRef: {fieldPath: metadata.name}
    - name: MEM_LIMIT
      valueFrom:
        resourceFieldRef: {resource: limits.memory, divisor: 1Mi}
    envFrom:
    - configMapRef: {name: cfg}
      prefix: CFG_
    - secretRef: {name: db}
    volumeMounts:
    - {name: cfg, mountPath: /etc/cfg, readOnly: true}
    - {name: tls, mountPath: /etc/tls/tls.crt, subPath: tls.crt, readOnly: true}
    - {name: cache, mountPath: /cache}
    - {name: logs, mountPath: /var/log/host}
    securityContext:
      readOnlyRootFilesystem: true
      allowPrivilegeEscalation: false
      capabilities: {add: [NET_BIND_SERVICE], drop: [ALL]}
    resources:
      limits: {memory: 256Mi}
  volumes:
  - {name: cfg, configMap: {name: cfg}}
  - {name: tls, secret: {secretName: db}}
  - {name: cache, emptyDir: {}}
  - {name: logs, hostPath: {path: /var/log}}
";

/// [`POD_YAML`] as a `Pod`.
pub fn pod() -> Pod {
    serde_yaml_ng::from_str(POD_YAML).expect("the pod manifest decodes")
}
