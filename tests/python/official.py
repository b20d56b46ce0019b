"""The official Kubernetes Python client (`kubernetes`) against the cluster of $KUBECONFIG.

Usage: official.py CHECK [ARGS...]. Each check does one area's calls and prints one JSON
object of what the client saw (values, or "error: <status> <reason>" strings); the Rust test
(tests/py_official*.rs) asserts on it. Waiting is on conditions with a deadline, never a fixed
sleep.
"""

import json
import sys
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException
from kubernetes.stream import portforward, stream

config.load_kube_config()
core = client.CoreV1Api()
NS = "default"


def until(what, pred, seconds=30.0, step=0.1):
    """Calls pred() until it returns a truthy value; raises after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        value = pred()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {seconds}s for {what}")
        time.sleep(step)


def error(e):
    return f"error: {e.status} {e.reason}"


def discovery():
    out = {}
    try:
        out["gitVersion"] = client.VersionApi().get_code().git_version
    except ApiException as e:
        out["gitVersion"] = error(e)
    try:
        out["coreVersions"] = client.CoreApi().get_api_versions().versions
    except ApiException as e:
        out["coreVersions"] = error(e)
    try:
        groups = client.ApisApi().get_api_versions().groups
        out["groups"] = sorted(g.name for g in groups)
    except ApiException as e:
        out["groups"] = error(e)
    resources = core.get_api_resources().resources
    out["coreResources"] = sorted(r.name for r in resources)
    return out


def pod_manifest(name, command=None):
    container = {"name": "main", "image": "busybox:1.37"}
    if command:
        container["command"] = command
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": {"test": "watch"}},
        "spec": {"containers": [container], "terminationGracePeriodSeconds": 0},
    }


def watch_pods():
    """LIST, then a WATCH from its resourceVersion while one pod is created and deleted."""
    listed = core.list_namespaced_pod(NS, label_selector="test=watch")
    rv = listed.metadata.resource_version
    core.create_namespaced_pod(NS, pod_manifest("watched", ["sleep", "3600"]))
    core.delete_namespaced_pod("watched", NS, grace_period_seconds=0)
    seen = []
    w = watch.Watch()
    for ev in w.stream(
        core.list_namespaced_pod,
        NS,
        label_selector="test=watch",
        resource_version=rv,
        timeout_seconds=30,
    ):
        seen.append([ev["type"], ev["object"].metadata.name])
        if ev["type"] == "DELETED":
            w.stop()
    return {"listed": len(listed.items), "events": seen}


def logs(pod, container):
    """Every parameter of read_namespaced_pod_log on a container with several lines."""
    def read(**kw):
        return core.read_namespaced_pod_log(pod, NS, container=container, **kw)

    everything = read(timestamps=True)
    lines = everything.splitlines()
    out = {
        "lines": [l.split(" ", 1)[1] for l in lines],
        "timestamps": [l.split(" ", 1)[0] for l in lines],
        "tail1": read(tail_lines=1),
        "limit10": read(limit_bytes=10),
        "since3600": read(since_seconds=3600),
    }
    return out


def logs_previous(pod):
    out = {}
    out["previous"] = core.read_namespaced_pod_log(pod, NS, previous=True)
    try:
        core.read_namespaced_pod_log("hello", NS, container="proxy", previous=True)
        out["noPrevious"] = "no error"
    except ApiException as e:
        out["noPrevious"] = f"{e.status} {json.loads(e.body)['message']}"
    return out


def logs_follow(pod, container, wanted):
    """follow=True streamed until `wanted` lines arrived (the stream stays open)."""
    resp = core.read_namespaced_pod_log(
        pod, NS, container=container, follow=True, _preload_content=False
    )
    got = []
    for raw in resp.stream():
        got.extend(raw.decode().splitlines())
        if len(got) >= int(wanted):
            break
    resp.release_conn()
    return {"lines": got[: int(wanted)]}


def exec_binary():
    """exec with binary frames: stdout, stderr and the exit code of `sh -c`."""
    resp = stream(
        core.connect_get_namespaced_pod_exec,
        "hello",
        NS,
        container="proxy",
        command=["sh", "-c", "echo out; echo err >&2; exit 3"],
        stderr=True,
        stdin=False,
        stdout=True,
        tty=False,
        _preload_content=False,
    )
    resp.run_forever(timeout=30)
    return {
        "stdout": resp.read_stdout(),
        "stderr": resp.read_stderr(),
        "returncode": resp.returncode,
    }


def exec_stdin(kind):
    """`cat` fed through write_stdin (a str is sent as a text frame, bytes as a binary one),
    then stdin closed (the v5 protocol's close signal)."""
    resp = stream(
        core.connect_get_namespaced_pod_exec,
        "hello",
        NS,
        container="proxy",
        command=["cat"],
        stderr=True,
        stdin=True,
        stdout=True,
        tty=False,
        _preload_content=False,
    )
    data = "hello\n" if kind == "text" else b"hello\n"
    resp.write_stdin(data)
    resp.close_channel(0)
    out = ""
    deadline = time.monotonic() + 30
    while resp.is_open() and time.monotonic() < deadline:
        resp.update(timeout=1)
        out += resp.read_stdout(timeout=0)
    out += resp.read_stdout(timeout=0)
    return {"stdout": out, "returncode": resp.returncode, "protocol": resp.subprotocol}


def exec_resize():
    """A tty exec of `stty size`, after a resize sent on channel 4 as text (the client's way)."""
    resp = stream(
        core.connect_get_namespaced_pod_exec,
        "hello",
        NS,
        container="proxy",
        command=["sh"],
        stderr=True,
        stdin=True,
        stdout=True,
        tty=True,
        _preload_content=False,
    )
    resp.write_channel(4, json.dumps({"Width": 120, "Height": 40}))
    resp.write_stdin("stty size; exit 0\n")
    out = ""
    deadline = time.monotonic() + 30
    while resp.is_open() and time.monotonic() < deadline:
        resp.update(timeout=1)
        out += resp.read_stdout(timeout=0)
    return {"stdout": out, "returncode": resp.returncode}


def port_forward(pod, port, path):
    """One HTTP request through a port-forward of `port`."""
    pf = portforward(core.connect_get_namespaced_pod_portforward, pod, NS, ports=port)
    sock = pf.socket(int(port))
    sock.setblocking(True)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return {"status": head.split(b"\r\n")[0].decode(), "body": body.decode()}


def ephemeral(pod, target):
    """An ephemeral container running `echo hi` to completion: its status and logs."""
    name = "debugger-py"
    body = {
        "spec": {
            "ephemeralContainers": [
                {
                    "name": name,
                    "image": "busybox:1.37",
                    "command": ["sh", "-c", "echo hi"],
                    "targetContainerName": target,
                }
            ]
        }
    }
    core.patch_namespaced_pod_ephemeralcontainers(pod, NS, body)

    def terminated():
        p = core.read_namespaced_pod(pod, NS)
        for s in p.status.ephemeral_container_statuses or []:
            if s.name == name and s.state.terminated:
                return s
        return None

    s = until("the ephemeral container to terminate", terminated)
    return {
        "reason": s.state.terminated.reason,
        "exitCode": s.state.terminated.exit_code,
        "logs": core.read_namespaced_pod_log(pod, NS, container=name),
        "imageID": s.image_id,
    }


def nodes():
    items = core.list_node().items
    out = []
    for n in items:
        conditions = {c.type: c.status for c in n.status.conditions}
        out.append(
            {
                "name": n.metadata.name,
                "conditions": conditions,
                "addresses": {a.type: a.address for a in n.status.addresses},
                "kubeletVersion": n.status.node_info.kubelet_version,
                "pods": n.status.allocatable.get("pods"),
            }
        )
    return {"nodes": out}


def pagination(limit):
    """Every pod of the namespace, `limit` at a time through `continue` tokens."""
    pages = []
    names = []
    token = None
    while True:
        kw = {"limit": int(limit)}
        if token:
            kw["_continue"] = token
        page = core.list_namespaced_pod(NS, **kw)
        pages.append(
            {
                "items": len(page.items),
                "remaining": page.metadata.remaining_item_count,
                "continue": bool(page.metadata._continue),
            }
        )
        names.extend(p.metadata.name for p in page.items)
        token = page.metadata._continue
        if not token:
            break
    return {"pages": pages, "names": names}


def auth():
    authz = client.AuthorizationV1Api()
    out = {}
    for verb, resource, sub in [("create", "pods", "exec"), ("get", "pods", ""), ("create", "pods", "portforward")]:
        review = client.V1SelfSubjectAccessReview(
            spec=client.V1SelfSubjectAccessReviewSpec(
                resource_attributes=client.V1ResourceAttributes(
                    namespace=NS, verb=verb, resource=resource, subresource=sub or None
                )
            )
        )
        st = authz.create_self_subject_access_review(review).status
        out[f"{verb} {resource}/{sub}".rstrip("/")] = st.allowed
    rules = authz.create_self_subject_rules_review(
        client.V1SelfSubjectRulesReview(spec=client.V1SelfSubjectRulesReviewSpec(namespace=NS))
    ).status
    out["rules"] = {
        r.resources[0]: sorted(r.verbs)
        for r in rules.resource_rules
        if r.resources and (r.api_groups or [""]) == [""]
    }
    who = client.AuthenticationV1Api().create_self_subject_review(client.V1SelfSubjectReview())
    out["username"] = who.status.user_info.username
    return out


def namespaces(name):
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=name)))
    listed = sorted(n.metadata.name for n in core.list_namespace().items)
    return {"namespaces": listed, "phase": core.read_namespace(name).status.phase}


def writes():
    """A core Event created as a controller records one; a labelled set of pods deleted as a
    collection."""
    ev = client.CoreV1Event(
        metadata=client.V1ObjectMeta(generate_name="hello."),
        involved_object=client.V1ObjectReference(kind="Pod", name="hello", namespace=NS),
        reason="Checked",
        message="checked by a test",
        type="Normal",
        source=client.V1EventSource(component="py-test"),
    )
    created = core.create_namespaced_event(NS, ev)
    listed = core.list_namespaced_event(NS, field_selector="reason=Checked").items
    for i in range(3):
        core.create_namespaced_pod(NS, pod_manifest(f"batch-{i}", ["sleep", "3600"]) | {})
    core.patch_namespaced_pod("batch-0", NS, {"metadata": {"labels": {"batch": "yes"}}})
    core.patch_namespaced_pod("batch-1", NS, {"metadata": {"labels": {"batch": "yes"}}})
    # The API server answers a deletecollection with the list of deleted objects (the client's
    # declared V1Status type cannot hold it: read the raw body).
    raw = core.delete_collection_namespaced_pod(
        NS, label_selector="batch=yes", grace_period_seconds=0, _preload_content=False
    )
    deleted = json.loads(raw.data)
    gone = until(
        "the collection's pods to be gone",
        lambda: not core.list_namespaced_pod(NS, label_selector="batch=yes").items,
    )
    left = sorted(p.metadata.name for p in core.list_namespaced_pod(NS, label_selector="test=watch").items)
    return {
        "eventName": created.metadata.name,
        "listed": [e.message for e in listed],
        "deletedKind": deleted["kind"],
        "deleted": sorted(p["metadata"]["name"] for p in deleted["items"]),
        "gone": gone,
        "left": left,
    }


def metrics(pod):
    """metrics.k8s.io through CustomObjectsApi, as a client without typed metrics models reads
    it: the pod's PodMetrics, the NodeMetrics list, and a pod without metrics (404)."""
    custom = client.CustomObjectsApi()
    pm = custom.get_namespaced_custom_object("metrics.k8s.io", "v1beta1", NS, "pods", pod)
    nodes = custom.list_cluster_custom_object("metrics.k8s.io", "v1beta1", "nodes")
    try:
        custom.get_namespaced_custom_object("metrics.k8s.io", "v1beta1", NS, "pods", "no-such-pod")
        missing = "found"
    except ApiException as e:
        missing = error(e)
    return {
        "kind": pm["kind"],
        "timestamp": pm["timestamp"],
        "window": pm["window"],
        "containers": {c["name"]: c["usage"] for c in pm["containers"]},
        "nodes": [n["metadata"]["name"] for n in nodes["items"]],
        "nodeKind": nodes["kind"],
        "missing": missing,
    }


CHECKS = {
    "writes": writes,
    "discovery": discovery,
    "watch": watch_pods,
    "logs": logs,
    "logs_previous": logs_previous,
    "logs_follow": logs_follow,
    "exec_binary": exec_binary,
    "exec_stdin": exec_stdin,
    "exec_resize": exec_resize,
    "port_forward": port_forward,
    "ephemeral": ephemeral,
    "nodes": nodes,
    "pagination": pagination,
    "auth": auth,
    "namespaces": namespaces,
    "metrics": metrics,
}

if __name__ == "__main__":
    print(json.dumps(CHECKS[sys.argv[1]](*sys.argv[2:])))
