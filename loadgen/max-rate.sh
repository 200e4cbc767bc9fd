#!/usr/bin/env bash
# The load generator's highest rate into a local broker, and who uses the CPU:
#   loadgen/max-rate.sh RATE PRODUCERS PARTITIONS SECONDS [STREAM]     e.g. loadgen/max-rate.sh 2000000 2 2 20
# Starts a local broker (infra/kafka-local), creates a topic, sends STREAM (nexmark, trades or ysb) at RATE
# for SECONDS, and prints the send rate of the second half and the CPU (cores) the generator and the
# broker used over it, with the load average before and after. Build first: make build.
set -euo pipefail
rate=$1 producers=$2 partitions=$3 seconds=$4 stream=${5:-nexmark}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=$root/loadgen/target/fournines-loadgen.jar
dir=$(mktemp -d -t fournines-max-rate-XXXX)
java -cp "$root/infra/kafka-local/target/fournines-kafka-local.jar" io.fournines.kafkalocal.LocalKafka "$dir" > "$dir/launcher.out" 2>&1 &
launcher=$!
trap 'kill $launcher 2>/dev/null; wait $launcher 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 240); do grep -q ready "$dir/launcher.out" && break; sleep 0.5; done
bootstrap=$(grep -o '127.0.0.1:[0-9]*' "$dir/launcher.out")
broker=$(grep -o '"broker_pid":[0-9]*' "$dir/launcher.out" | cut -d: -f2)
java -jar "$jar" create-topic --bootstrap "$bootstrap" --topic max-rate --partitions "$partitions" > /dev/null
cpu() { awk '{print ($14 + $15) / 100}' "/proc/$1/stat"; }
load_before=$(cut -d' ' -f1 /proc/loadavg)
java -Xms1g -Xmx1g -XX:+UseZGC -jar "$jar" run --bootstrap "$bootstrap" --topic max-rate --stream "$stream" --rate "$rate" \
     --producers "$producers" --duration-s "$seconds" --summary "$dir/summary.json" > "$dir/loadgen.out" 2>&1 &
loadgen=$!
sleep $((seconds / 2))
g0=$(cpu $loadgen) b0=$(cpu "$broker") t0=$(date +%s.%N)
sleep $((seconds / 2 - 1))
g1=$(cpu $loadgen) b1=$(cpu "$broker") t1=$(date +%s.%N)
wait $loadgen || true
python3 - "$dir" "$g0" "$g1" "$b0" "$b1" "$t0" "$t1" "$load_before" "$(cut -d' ' -f1 /proc/loadavg)" <<'PY'
import json, sys
d, g0, g1, b0, b1, t0, t1, load0, load1 = sys.argv[1:]
s = json.load(open(f"{d}/summary.json"))
lines = [json.loads(l) for l in open(f"{d}/loadgen.out") if l.startswith('{"type":"loadgen"')]
half = [l["sent_rate"] for l in lines[len(lines) // 2:-1]]
wall = float(t1) - float(t0)
print(f"{s['stream']} target={s['target_rate']:.0f} producers={s['producers']} partitions={s['partitions']} "
      f"sent/s(second half)={sum(half) / max(1, len(half)):.0f} sent={s['sent']} acked={s['acked']} errors={s['send_errors']} "
      f"loadgen_cpu={(float(g1) - float(g0)) / wall:.2f} broker_cpu={(float(b1) - float(b0)) / wall:.2f} load={load0}->{load1}")
PY
