#!/usr/bin/env bash
# Attached for DURATION seconds (default 60): CPU share of one core and peak resident memory
# (VmHWM) of the podscope TUI, driven in tmux at 120x40 against the simulator:
#   1. the seed's crash pod with the log view open (`l`) — the figure the memory limit holds;
#   2. a pod that does not change (a completed Job's pod);
#   3. a running pod (scenario hello) with the metrics API on (one GET of its PodMetrics per
#      15 s window) and off (--no-metrics: one probe, no polling) (docs/usage.md "Cost");
# then, on the same simulator as 1 and when they are installed (`cargo install --locked kdash
# kubetui`), the peers kdash and kubetui on their first screen, for the README's table.
#
# Fails (exit 1) when podscope's peak RSS in 1 is above RSS_LIMIT_MIB (default 18): the memory
# budget of docs/architecture.md "Memory".
# Usage: benches/idle.sh [DURATION] [PROFILE]   (PROFILE: release (default) or debug)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
PROFILE=${2:-release}
RSS_LIMIT_MIB=${RSS_LIMIT_MIB:-18}
command -v tmux >/dev/null || { echo "tmux not installed"; exit 1; }
if [ "$PROFILE" = release ]; then cargo build --release -q; else cargo build -q; fi
BIN=$PWD/target/$PROFILE/podscope
HZ=$(getconf CLK_TCK)
TMP=$(mktemp -d)
SIM=
cleanup() {
  [ -n "$SIM" ] && kill "$SIM" 2>/dev/null && wait "$SIM" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT

# start_sim SIM-ARGS…: a simulator whose kubeconfig is $TMP/kubeconfig.
start_sim() {
  rm -f "$TMP/kubeconfig"
  "$BIN" sim "$@" --kubeconfig-out "$TMP/kubeconfig" >"$TMP/sim.log" 2>&1 &
  SIM=$!
  for _ in $(seq 100); do [ -s "$TMP/kubeconfig" ] && return; sleep 0.1; done
  echo "the simulator did not start: $(cat "$TMP/sim.log")"; exit 1
}

stop_sim() {
  kill "$SIM" 2>/dev/null || true
  wait "$SIM" 2>/dev/null || true
  SIM=
}

# measure LABEL KEYS COMMAND: runs COMMAND in a 120x40 tmux pane, sends KEYS (tmux key names,
# or "-" for none) once it has drawn, and prints one line; the peak RSS in KiB goes to $TMP/rss.
measure() {
  local label=$1 keys=$2 command=$3 session pid c0 c1 rss
  session=podscope-idle-$$-$RANDOM
  tmux new-session -d -s "$session" -x 120 -y 40 "KUBECONFIG=$TMP/kubeconfig exec $command"
  sleep 3 # let it connect and draw
  if [ "$keys" != - ]; then tmux send-keys -t "$session" $keys; sleep 1; fi
  pid=$(tmux list-panes -t "$session" -F '#{pane_pid}')
  c0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  sleep "$DURATION"
  c1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  rss=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
  tmux kill-session -t "$session" 2>/dev/null || true
  echo "$rss" >"$TMP/rss"
  awk -v d="$((c1 - c0))" -v hz="$HZ" -v s="$DURATION" -v rss="$rss" -v l="$label" 'BEGIN {
    printf "idle %ds, %s: CPU %.3f%% of one core, peak RSS %.1f MiB\n",
           s, l, 100 * d / hz / s, rss / 1024 }'
}

start_sim --scenario crash
# The pod has crashed once: its log view has lines and a previous instance.
for _ in $(seq 100); do
  "$BIN" --kubeconfig "$TMP/kubeconfig" crash --once 2>/dev/null | grep -q 'CrashLoopBackOff\|Error' && break
  sleep 0.2
done
measure "podscope on the seed's crash pod, log view open" l "$BIN -n default crash"
crash_rss=$(cat "$TMP/rss")
for peer in kdash kubetui; do
  if command -v "$peer" >/dev/null; then
    measure "$peer $("$peer" --version 2>/dev/null | head -1 | awk '{print $NF}') on its first screen, same simulator" - "$(command -v "$peer")"
  else
    echo "$peer not installed: cargo install --locked $peer"
  fi
done
stop_sim

CASE=assets/cases/26-job-pod-completed
POD=$(grep -o '"name": *"[^"]*"' $CASE/pod.json | head -1 | cut -d'"' -f4)
NS=$(grep -o '"namespace": *"[^"]*"' $CASE/pod.json | head -1 | cut -d'"' -f4)
start_sim --fixture "$CASE"
measure "podscope on an unchanging pod" - "$BIN -n $NS $POD"
stop_sim
start_sim --scenario hello --metric-resolution 15s
measure "podscope on a running pod, metrics on (15s)" - "$BIN -n default hello"
stop_sim
start_sim --scenario hello --no-metrics
measure "podscope on a running pod, metrics off" - "$BIN -n default hello"
stop_sim

limit_kib=$((RSS_LIMIT_MIB * 1024))
if [ "$crash_rss" -gt "$limit_kib" ]; then
  echo "FAIL: peak RSS $((crash_rss / 1024)) MiB on the crash pod with the log view open is above the ${RSS_LIMIT_MIB} MiB budget"
  exit 1
fi
echo "ok: peak RSS on the crash pod with the log view open within the ${RSS_LIMIT_MIB} MiB budget"
