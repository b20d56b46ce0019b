"""lightkube and kr8s against the cluster of $KUBECONFIG.

Usage: others.py CHECK. Prints one JSON object of what the client saw; the Rust test
(tests/referee/py_others.rs) asserts on it.
"""

import json
import sys

NS = "default"

CONFIGMAP = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "app-config", "namespace": NS},
    "data": {"LEVEL": "debug"},
}


def lightkube_pods():
    from lightkube import Client
    from lightkube.resources.core_v1 import Pod

    c = Client()
    pods = sorted(p.metadata.name for p in c.list(Pod, namespace=NS))
    hello = c.get(Pod, "hello", namespace=NS)
    return {
        "pods": pods,
        "phase": hello.status.phase,
        "containers": [s.name for s in hello.status.containerStatuses],
    }


def lightkube_apply():
    """Server-side apply twice as one manager, then a conflicting apply by another, then forced."""
    from lightkube import Client
    from lightkube.core.exceptions import ApiError
    from lightkube.generic_resource import get_generic_resource
    from lightkube.resources.core_v1 import ConfigMap

    c = Client(field_manager="podscope-test")
    obj = ConfigMap.from_dict(CONFIGMAP)
    first = c.apply(obj)
    obj.data["LEVEL"] = "info"
    second = c.apply(obj)
    out = {
        "created": first.data,
        "updated": second.data,
        "managers": [(m.manager, m.operation) for m in second.metadata.managedFields],
    }
    other = Client(field_manager="someone-else")
    obj.data["LEVEL"] = "warn"
    try:
        other.apply(obj)
        out["conflict"] = "no error"
    except ApiError as e:
        out["conflict"] = [e.status.code, e.status.reason, e.status.message]
    forced = other.apply(obj, force=True)
    out["forced"] = forced.data
    out["forcedManagers"] = sorted(m.manager for m in forced.metadata.managedFields)
    return out


def kr8s_api():
    import kr8s

    api = kr8s.api()
    version = api.version()
    pods = sorted(p.name for p in kr8s.get("pods", namespace=NS))
    nodes = sorted(n.name for n in kr8s.get("nodes"))
    return {"gitVersion": version["gitVersion"], "pods": pods, "nodes": nodes}


CHECKS = {"lightkube_pods": lightkube_pods, "lightkube_apply": lightkube_apply, "kr8s_api": kr8s_api}

if __name__ == "__main__":
    print(json.dumps(CHECKS[sys.argv[1]](*sys.argv[2:]), default=list))
