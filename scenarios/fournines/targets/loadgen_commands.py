"""The load generator's command lines (loadgen/README.md), made from the scenario in one place for
every target: the local one (targets/local/kafka_load.py, with the jar here) and the remote ones
(targets/remote/kafka.py, with the jar on a load generator host).
"""
from fournines.spec.registry import QUERIES
from fournines.spec.scenario import GC_FLAGS

LOADGEN_HEAP = ["-Xms1g", "-Xmx1g"]
# The load generator outlives the members by this much unless stopped first (it always is).
LOADGEN_SLACK_S = 120.0


def loadgen_run(scenario: dict, jar: str, bootstrap: str, topic: str, t0_epoch_ns: int | None = None) -> list[str]:
    """`java ... -jar JAR run ...`: the scenario's load into `topic`, for warm-up + duration + slack,
    from `t0_epoch_ns` (a whole ms) if given; a checked run's (`load.events`, `start_epoch_ns`)
    bounded and on its known schedule."""
    load, kafka = scenario["load"], scenario["load"]["kafka"]
    events = QUERIES[scenario["query"]["name"]].input
    stream = (["--stream", "nexmark", "--keys", str(load["keys"]), "--padding", str(load["padding"])] if events == "nexmark"
              else ["--stream", events])
    return ["java", *LOADGEN_HEAP, GC_FLAGS[scenario["cluster"]["gc"]],
            "-Xlog:gc*:file=loadgen-gc.log:time,uptime,level,tags",
            "-jar", jar, "run", "--bootstrap", bootstrap, "--topic", topic, *stream,
            "--rate", str(load["rate"]), "--producers", str(kafka["producers"]),
            "--duration-s", str(scenario["warmup_s"] + scenario["duration_s"] + LOADGEN_SLACK_S),
            "--acks", kafka["acks"], "--linger-ms", str(kafka["linger_ms"]), "--batch-size", str(kafka["batch_size"]),
            *_schedule(scenario, t0_epoch_ns)]


def create_topic(jar: str, bootstrap: str, topic: str, partitions: int, replication_factor: int,
                 configs: list[str] = ()) -> list[str]:
    """`java -jar JAR create-topic ...`; `configs`: `--config K=V` arguments (fsync_configs)."""
    return ["java", "-jar", jar, "create-topic", "--bootstrap", bootstrap, "--topic", topic, "--partitions", str(partitions),
            "--replication-factor", str(replication_factor), *configs]


def fsync_configs(scenario: dict) -> list[str]:
    """The run's topic's fsync policy (load.kafka.flush_messages, flush_ms) as create-topic arguments."""
    kafka = scenario["load"]["kafka"]
    return [arg for name, key in (("flush_messages", "flush.messages"), ("flush_ms", "flush.ms")) if name in kafka
            for arg in ("--config", f"{key}={kafka[name]}")]


def _schedule(scenario: dict, t0_epoch_ns: int | None) -> list[str]:
    """The load's t0 if known, and a checked run's bound: its events from its t=0 (both known, so they
    can be made again), then the end."""
    bounded = ["--events", str(scenario["load"]["events"]), "--end-of-stream"] if "events" in scenario["load"] else []
    t0 = scenario.get("start_epoch_ns", t0_epoch_ns)
    start = ["--start-epoch-ms", str(t0 // 1_000_000)] if t0 is not None else []
    return [*bounded, *start]
