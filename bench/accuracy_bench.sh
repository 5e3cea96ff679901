#!/usr/bin/env bash
# Accuracy benchmark (issue 4, "Accuracy"; method in docs/accuracy.md): for each simulator
# scenario and seed, `vrecon-sim generate` writes a guest log, a Hyper-V host log and the truth;
# `vrecon ingest` + `vrecon correct --format json` (with and without --no-align) run on them and
# `vrecon-sim score` compares per-process CPU per 300 s window with the truth. Prints one line
# per scenario, averaged over the seeds:
#   windows, naive MAE, corrected MAE, corrected MAE with --no-align (points of one CPU),
#   windows where the guest is 10+ points off and how many of them miss 1.5 points,
#   recall of the injected clock steps and DST changes, queue-on-idle recall, share of windows flagged.
# Then, per scenario and thread run length (RUN_TICKS, mean ticks a thread keeps its vCPU), the
# share of 95% intervals that hold the truth and their median width; and for the batch scenario
# the short-lived job's MAE: guest, corrected, and the floor the true w reaches.
# Last (ETW=0 leaves it out), event-based CPU (issue 18, `vrecon-sim generate --etw`), per run
# length: in `calm`, the trace of the first 30 minutes ingested and its ETW Process % Processor
# Time compared per window with the occupancy truth and the demand truth (mean over windows, worst
# window, worst process-window); then `contention` with the trace over its first episode (45-105
# min), corrected with and without the trace: the MAE over the traced windows of Perfmon's figures
# and of the trace's, naive and corrected, against the truth and the occupancy truth, and the share
# of the event-basis 95% intervals that hold the truth. That last table runs for each SLICES value
# (`--slices`: 1, threads switch on ticks only; 4, thread runs end inside ticks), at each RUN_TICKS
# and, below a tick, each RUN_SLICES (`--run-slices`: mean run in slices; default 1).
#
#   bash bench/accuracy_bench.sh                     # uses/creates build-bench/
#   BUILD_DIR=/path SEEDS="1 2 3 4 5" bash bench/accuracy_bench.sh
set -euo pipefail

SRC_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$SRC_DIR/build-bench}"
SEEDS="${SEEDS:-1 2 3}"
SCENARIOS="${SCENARIOS:-calm contention lost-ticks resync dst mixed batch}"
ETW="${ETW:-1}"
RUN_TICKS="${RUN_TICKS:-1 6 12}"
SLICES="${SLICES:-1 4}"
RUN_SLICES="${RUN_SLICES:-1}"
DATA_DIR="${DATA_DIR:-$BUILD_DIR/accuracy-data}"
mkdir -p "$DATA_DIR"; rm -f "$DATA_DIR/jobs.txt"

SIM="$BUILD_DIR/tests/sim/vrecon-sim"
CLI="$BUILD_DIR/src/cli/vrecon"
if [ ! -x "$SIM" ] || [ ! -x "$CLI" ] || [ "${REBUILD:-1}" = 1 ]; then
  cmake -S "$SRC_DIR" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$BUILD_DIR" -j2 --target vrecon-sim vrecon >/dev/null
fi

# "key=value" pairs of one score line -> the value of key
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

printf '%-11s %7s %9s %13s %12s %10s %12s %11s %10s %9s\n' scenario windows naive_mae corrected_mae no_align_mae \
  hard_10pt hard_missed clock_flags queue_idle flagged
for sc in $SCENARIOS; do
  tot_w=0; naive=0; corr=0; noal=0; hard=0; missed=0; ce=0; cf=0; qe=0; qf=0; flagged=0; n=0
  for seed in $SEEDS; do
    d="$DATA_DIR/$sc-$seed"
    rm -rf "$d"
    "$SIM" generate --scenario "$sc" --seed "$seed" --out "$d"
    "$CLI" ingest --db "$d/store.db" "$d/guest.csv" "$d/host.csv" >/dev/null
    "$CLI" correct --db "$d/store.db" --format json >"$d/aligned.json"
    "$CLI" correct --db "$d/store.db" --format json --no-align >"$d/no-align.json"
    a=$("$SIM" score --truth "$d/truth.csv" --correct "$d/aligned.json" | head -1)
    b=$("$SIM" score --truth "$d/truth.csv" --correct "$d/no-align.json" | head -1)
    w=$(field "$a" windows)
    tot_w=$((tot_w + w)); n=$((n + 1))
    naive=$(awk -v s="$naive" -v x="$(field "$a" naive_mae)" 'BEGIN{print s+x}')
    corr=$(awk -v s="$corr" -v x="$(field "$a" corrected_mae)" 'BEGIN{print s+x}')
    noal=$(awk -v s="$noal" -v x="$(field "$b" corrected_mae)" 'BEGIN{print s+x}')
    hard=$((hard + $(field "$a" hard))); missed=$((missed + $(field "$a" hard_missed)))
    c=$(field "$a" clock_events); cf=$((cf + ${c%/*})); ce=$((ce + ${c#*/}))
    q=$(field "$a" idle_queue); qf=$((qf + ${q%/*})); qe=$((qe + ${q#*/}))
    flagged=$(awk -v s="$flagged" -v x="$(field "$a" flagged_share)" -v w="$w" 'BEGIN{print s+x*w}')
  done
  awk -v sc="$sc" -v w="$tot_w" -v n="$n" -v na="$naive" -v co="$corr" -v no="$noal" -v h="$hard" -v m="$missed" \
      -v cf="$cf" -v ce="$ce" -v qf="$qf" -v qe="$qe" -v f="$flagged" 'BEGIN{
    printf "%-11s %7d %9.2f %13.2f %12.2f %10d %12d %11s %9s %8.1f%%\n", sc, w, na/n, co/n, no/n, h, m,
      (ce ? cf "/" ce : "-"), (qe ? qf "/" qe : "-"), 100*f/w }'
done

# Intervals: coverage and median width per scenario and run length, over the seeds.
echo
printf '%-11s %9s %8s %11s %13s %13s\n' scenario run_ticks ci_n ci_coverage ci_width_med corrected_mae
for sc in $SCENARIOS; do
  for rt in $RUN_TICKS; do
    n=0; cov=0; width=0; corr=0; k=0
    for seed in $SEEDS; do
      d="$DATA_DIR/$sc-$seed-run$rt"
      rm -rf "$d"
      "$SIM" generate --scenario "$sc" --seed "$seed" --run-ticks "$rt" --out "$d"
      "$CLI" ingest --db "$d/store.db" "$d/guest.csv" "$d/host.csv" >/dev/null
      "$CLI" correct --db "$d/store.db" --format json >"$d/aligned.json"
      a=$("$SIM" score --truth "$d/truth.csv" --correct "$d/aligned.json" | head -1)
      cn=$(field "$a" ci_n); n=$((n + cn)); k=$((k + 1))
      cov=$(awk -v s="$cov" -v c="$(field "$a" ci_coverage)" -v n="$cn" 'BEGIN{print s+c*n}')
      width=$(awk -v s="$width" -v x="$(field "$a" ci_median_width)" 'BEGIN{print s+x}')
      corr=$(awk -v s="$corr" -v x="$(field "$a" corrected_mae)" 'BEGIN{print s+x}')
      if [ "$sc" = batch ]; then
        echo "$rt $(field "$a" job_windows) $(field "$a" job_naive_mae) $(field "$a" job_corrected_mae) $(field "$a" job_floor_mae)" >>"$DATA_DIR/jobs.txt"
      fi
    done
    awk -v sc="$sc" -v rt="$rt" -v n="$n" -v c="$cov" -v w="$width" -v m="$corr" -v k="$k" 'BEGIN{
      printf "%-11s %9d %8d %10.1f%% %13.2f %13.2f\n", sc, rt, n, 100*c/n, w/k, m/k }'
  done
done

# The batch job, per run length: windows where it ran or was seen, MAE of the guest's figure,
# the corrected one and the true-w floor (points of one CPU, averaged over the seeds).
if [ -f "$DATA_DIR/jobs.txt" ]; then
  echo
  printf '%-9s %11s %13s %17s %13s\n' run_ticks job_windows job_naive_mae job_corrected_mae job_floor_mae
  awk '{w[$1]+=$2; a[$1]+=$3; b[$1]+=$4; c[$1]+=$5; k[$1]++} END{for (r in w) printf "%-9d %11d %13.2f %17.2f %13.2f\n", r, w[r], a[r]/k[r], b[r]/k[r], c[r]/k[r]}' \
    "$DATA_DIR/jobs.txt" | sort -n
  rm -f "$DATA_DIR/jobs.txt"
fi

# Event-based CPU, uncorrected, per run length (points of one CPU, averaged or worst over the seeds).
if [ "$ETW" = 1 ]; then
  echo
  printf '%-11s %9s %7s %13s %15s %17s %10s %12s %14s\n' scenario run_ticks windows occupancy_mae \
    occupancy_worst occupancy_worst_p demand_mae demand_worst demand_worst_p
  for rt in $RUN_TICKS; do
    lines=""
    for seed in $SEEDS; do
      d="$DATA_DIR/calm-$seed-run$rt-etw"
      rm -rf "$d"
      "$SIM" generate --scenario calm --seed "$seed" --run-ticks "$rt" --out "$d" --etw "$d/trace.txt" --etw-minutes 30
      "$CLI" ingest --db "$d/e.db" --machine GUEST01 "$d/trace.txt" >/dev/null
      "$CLI" samples --db "$d/e.db" --object "ETW Process" --counter "% Processor Time" --format csv >"$d/samples.csv"
      rm -f "$d/trace.txt"
      lines+="$("$SIM" score-events --truth "$d/truth.csv" --samples "$d/samples.csv")"$'\n'
    done
    awk -v rt="$rt" '{for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]}
      w += v["windows"]; om += v["occupancy_mae"]; dm += v["demand_mae"]; k++
      if (v["occupancy_worst"] > ow) ow = v["occupancy_worst"]; if (v["occupancy_worst_process"] > op) op = v["occupancy_worst_process"]
      if (v["demand_worst"] > dw) dw = v["demand_worst"]; if (v["demand_worst_process"] > dp) dp = v["demand_worst_process"]}
      END{printf "%-11s %9d %7d %13.3f %15.3f %17.3f %10.3f %12.3f %14.3f\n", "calm", rt, w, om/k, ow, op, dm/k, dw, dp}' \
      <<<"${lines%$'\n'}"
  done
fi

# Event-based correction: the same run corrected from Perfmon alone (a.json) and with its trace
# (b.json), both scored over the windows b.json has on the events basis.
if [ "$ETW" = 1 ]; then
  echo
  printf '%-11s %6s %9s %7s %13s %17s %12s %16s %15s %14s %11s\n' scenario slices run_ticks windows sampled_naive \
    sampled_corrected events_naive events_corrected sampled_occ_mae events_occ_mae event_ci
  sc=contention
  for sl in $SLICES; do
    # Run lengths: whole ticks (RUN_TICKS), then runs shorter than a tick (RUN_SLICES below sl,
    # labelled slices/sl: "1/4" is a quarter of a tick).
    runs=()
    for rt in $RUN_TICKS; do runs+=("$rt"); done
    for rs in $RUN_SLICES; do [ "$rs" -lt "$sl" ] && runs+=("$rs/$sl"); done
    for rt in "${runs[@]}"; do
      if [[ $rt == */* ]]; then run=(--run-slices "${rt%/*}"); else run=(--run-ticks "$rt"); fi
      w=0; sn=0; sc_=0; en=0; ec=0; so=0; eo=0; cin=0; cic=0; k=0
      for seed in $SEEDS; do
        d="$DATA_DIR/$sc-$seed-run${rt/\//of}-slices$sl-etw"
        rm -rf "$d"
        "$SIM" generate --scenario "$sc" --seed "$seed" "${run[@]}" --slices "$sl" --out "$d" \
          --etw "$d/trace.txt" --etw-from 45 --etw-minutes 60
        "$CLI" ingest --db "$d/a.db" "$d/guest.csv" "$d/host.csv" >/dev/null
        "$CLI" correct --db "$d/a.db" --format json >"$d/a.json"
        cp "$d/a.db" "$d/b.db"
        "$CLI" ingest --db "$d/b.db" --machine GUEST01 "$d/trace.txt" >/dev/null
        "$CLI" correct --db "$d/b.db" --format json >"$d/b.json"
        rm -f "$d/trace.txt"  # tens of MB
        a=$("$SIM" score --truth "$d/truth.csv" --correct "$d/a.json" --windows-of "$d/b.json" | head -1)
        b=$("$SIM" score --truth "$d/truth.csv" --correct "$d/b.json" --windows-of "$d/b.json" | head -1)
        w=$((w + $(field "$b" event_windows))); k=$((k + 1))
        n=$(field "$b" event_ci_n); cin=$((cin + n))
        read -r sn sc_ en ec so eo cic < <(awk -v sn="$sn" -v sc="$sc_" -v en="$en" -v ec="$ec" -v so="$so" \
          -v eo="$eo" -v cic="$cic" -v a1="$(field "$a" naive_mae)" -v a2="$(field "$a" corrected_mae)" \
          -v a3="$(field "$a" corrected_occupancy_mae)" -v b1="$(field "$b" event_naive_mae)" \
          -v b2="$(field "$b" event_corrected_mae)" -v b3="$(field "$b" event_corrected_occupancy_mae)" \
          -v c="$(field "$b" event_ci_coverage)" -v n="$n" \
          'BEGIN{print sn+a1, sc+a2, en+b1, ec+b2, so+a3, eo+b3, cic+c*n}')
      done
      awk -v s="$sc" -v sl="$sl" -v rt="$rt" -v w="$w" -v k="$k" -v sn="$sn" -v sc="$sc_" -v en="$en" -v ec="$ec" \
          -v so="$so" -v eo="$eo" -v cin="$cin" -v cic="$cic" 'BEGIN{
        printf "%-11s %6d %9s %7d %13.2f %17.3f %12.2f %16.3f %15.3f %14.3f %10.1f%%\n", s, sl, rt, w, sn/k, sc/k, en/k,
          ec/k, so/k, eo/k, (cin ? 100*cic/cin : 0) }'
    done
  done
fi
