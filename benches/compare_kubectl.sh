#!/usr/bin/env bash
# Whole-process comparison against the simulator, side by side in one run:
#   podscope POD --once   vs   kubectl get pod POD   (both read the same pod, case 02)
# Usage: benches/compare_kubectl.sh [RUNS]   (default 30; needs kubectl on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-30}
command -v kubectl >/dev/null || { echo "kubectl not on PATH"; exit 1; }
cargo build --release -q
BIN=$PWD/target/release/podscope
tmp=$(mktemp -d)
"$BIN" sim --fixture assets/cases/02-crashloop-exit127-metrics-sidecar \
  --kubeconfig-out "$tmp/kubeconfig" >"$tmp/sim.log" 2>&1 &
SIM=$!
trap 'kill $SIM 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.1; done
export KUBECONFIG="$tmp/kubeconfig"
POD=cache-master-0 NS=shop

ms_per_run() { # command...
  "$@" >/dev/null 2>&1 # warm-up (kubectl fills its discovery cache)
  local t0 t1
  t0=$(date +%s%N)
  for _ in $(seq "$RUNS"); do "$@" >/dev/null 2>&1; done
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / RUNS / 1000 ))
}
p=$(ms_per_run "$BIN" -n $NS $POD --once -o json)
k=$(ms_per_run kubectl -n $NS get pod $POD)
echo "runs: $RUNS each, $(nproc) cores"
printf 'podscope %s --once -o json : %6d µs per run\n' $POD "$p"
printf 'kubectl get pod %s          : %6d µs per run\n' $POD "$k"
awk -v p="$p" -v k="$k" 'BEGIN { printf "podscope / kubectl wall time: %.2f\n", p / k }'
