#!/usr/bin/env bash
# Attached for DURATION seconds (default 60): CPU share of one core and peak resident memory of
# the podscope TUI, driven in tmux against the simulator — first a pod that does not change
# (a completed Job's pod), then a running pod (scenario hello) with the metrics API on (one GET
# of its PodMetrics per 15 s window, the simulator's --metric-resolution default) and off
# (--no-metrics: one probe, no polling), side by side (docs/usage.md "Cost").
# Usage: benches/idle.sh [DURATION] [PROFILE]   (PROFILE: release (default) or debug)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
PROFILE=${2:-release}
command -v tmux >/dev/null || { echo "tmux not installed"; exit 1; }
if [ "$PROFILE" = release ]; then cargo build --release -q; else cargo build -q; fi
BIN=$PWD/target/$PROFILE/podscope
HZ=$(getconf CLK_TCK)

# measure LABEL NS POD SIM-ARGS…: prints one line for the TUI attached to NS/POD.
measure() {
  local label=$1 ns=$2 pod=$3
  shift 3
  local tmp session sim pid c0 c1 rss
  tmp=$(mktemp -d)
  "$BIN" sim "$@" --kubeconfig-out "$tmp/kubeconfig" >"$tmp/sim.log" 2>&1 &
  sim=$!
  session=podscope-idle-$$-$RANDOM
  for _ in $(seq 50); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.1; done
  tmux new-session -d -s "$session" -x 120 -y 40 "exec $BIN --kubeconfig $tmp/kubeconfig -n $ns $pod"
  sleep 3 # let it connect and draw
  pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
  c0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  sleep "$DURATION"
  c1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  rss=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
  tmux kill-session -t "$session" 2>/dev/null || true
  kill "$sim" 2>/dev/null || true
  wait "$sim" 2>/dev/null || true
  rm -rf "$tmp"
  awk -v d="$((c1 - c0))" -v hz="$HZ" -v s="$DURATION" -v rss="$rss" -v l="$label" 'BEGIN {
    printf "idle %ds attached to %s: CPU %.3f%% of one core, peak RSS %.1f MB\n",
           s, l, 100 * d / hz / s, rss / 1024 }'
}

CASE=assets/cases/26-job-pod-completed
POD=$(grep -o '"name": *"[^"]*"' $CASE/pod.json | head -1 | cut -d'"' -f4)
NS=$(grep -o '"namespace": *"[^"]*"' $CASE/pod.json | head -1 | cut -d'"' -f4)
measure "an unchanging pod" "$NS" "$POD" --fixture "$CASE"
measure "a running pod, metrics on (15s)" default hello --scenario hello --metric-resolution 15s
measure "a running pod, metrics off" default hello --scenario hello --no-metrics
