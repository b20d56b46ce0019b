#!/usr/bin/env bash
# `podscope logs POD -f > /dev/null` vs `kubectl logs POD -f > /dev/null`, lines/s, against the
# dynamic simulator. The pod prints LINES lines of ~100 bytes at start (SIM_LOG; the simulator
# keeps at most 10,000 lines per instance) and exits after 1 s with restartPolicy Never, so both
# followers read the whole log and end when the instance has ended (podscope also checks, through
# the pod watch, that no restart follows). Wall time per run includes process start-up.
# Usage: benches/logs_follow.sh [RUNS] [LINES]   (defaults 10 and 10000; needs kubectl on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-10}
LINES=${2:-10000}
command -v kubectl >/dev/null || { echo "kubectl not on PATH"; exit 1; }
cargo build --release -q --bin podscope
BIN=$PWD/target/release/podscope
tmp=$(mktemp -d)
{
  cat <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: logflood
  namespace: default
spec:
  restartPolicy: Never
  containers:
  - name: app
    image: registry.example/logflood:1
    env:
    - name: SIM_EXIT_AFTER
      value: "1"
    - name: SIM_LOG
      value: |
YAML
  seq 1 "$LINES" | awk '{ printf "        INFO request %010d handled in 3ms status=200 path=/api/v1/items/%010d pad=xxxxxxxxxxxx\n", $1, $1 }'
} >"$tmp/logflood.yaml"
"$BIN" sim --scenario "$tmp/logflood.yaml" --kubeconfig-out "$tmp/kubeconfig" >"$tmp/sim.log" 2>&1 &
SIM=$!
trap 'kill $SIM 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.1; done
export KUBECONFIG="$tmp/kubeconfig"
for _ in $(seq 100); do
  phase=$(kubectl get pod logflood -o jsonpath='{.status.phase}' 2>/dev/null || true)
  [ "$phase" = Succeeded ] && break
  sleep 0.2
done
echo "pod phase: $phase"
got_p=$("$BIN" logs logflood -f | wc -l)
got_k=$(kubectl logs logflood -f | wc -l)
echo "lines read: podscope $got_p, kubectl $got_k (pod printed $LINES)"

us_per_run() { # command...
  "$@" >/dev/null 2>&1 # warm-up (kubectl fills its discovery cache)
  local t0 t1
  t0=$(date +%s%N)
  for _ in $(seq "$RUNS"); do "$@" >/dev/null; done
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / RUNS / 1000 ))
}
p=$(us_per_run "$BIN" logs logflood -f)
k=$(us_per_run kubectl logs logflood -f)
echo "runs: $RUNS each, $(nproc) cores, $got_p lines per run"
awk -v p="$p" -v k="$k" -v n="$got_p" 'BEGIN {
  printf "podscope logs -f : %8d µs per run  %10.0f lines/s\n", p, n / (p / 1e6)
  printf "kubectl logs -f  : %8d µs per run  %10.0f lines/s\n", k, n / (k / 1e6)
}'
