#!/usr/bin/env bash
# Attached to a pod that does not change for DURATION seconds (default 60): CPU share of one
# core and peak resident memory of the podscope TUI, driven in tmux against the simulator.
# Usage: benches/idle.sh [DURATION]
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
command -v tmux >/dev/null || { echo "tmux not installed"; exit 1; }
cargo build --release -q
BIN=$PWD/target/release/podscope
tmp=$(mktemp -d)
"$BIN" sim --fixture assets/cases/26-job-pod-completed --kubeconfig-out "$tmp/kubeconfig" \
  >"$tmp/sim.log" 2>&1 &
SIM=$!
SESSION=podscope-idle-$$
trap 'tmux kill-session -t $SESSION 2>/dev/null || true; kill $SIM 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.1; done
POD=$(grep -o '"name": *"[^"]*"' assets/cases/26-job-pod-completed/pod.json | head -1 | cut -d'"' -f4)
NS=$(grep -o '"namespace": *"[^"]*"' assets/cases/26-job-pod-completed/pod.json | head -1 | cut -d'"' -f4)
tmux new-session -d -s "$SESSION" -x 120 -y 40 "exec $BIN --kubeconfig $tmp/kubeconfig -n $NS $POD"
sleep 3 # let it connect and draw
PID=$(tmux list-panes -t "$SESSION" -F '#{pane_pid}')
ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
HZ=$(getconf CLK_TCK)
c0=$(ticks)
sleep "$DURATION"
c1=$(ticks)
rss=$(awk '/VmHWM/ { print $2 }' "/proc/$PID/status")
awk -v d="$((c1 - c0))" -v hz="$HZ" -v s="$DURATION" -v rss="$rss" 'BEGIN {
  printf "idle %ds attached to an unchanging pod: CPU %.3f%% of one core, peak RSS %.1f MB\n",
         s, 100 * d / hz / s, rss / 1024 }'
