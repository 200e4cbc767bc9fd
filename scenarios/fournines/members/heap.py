"""The scenario's heap is for the whole machine: each of N local members gets 1/N of it (at least
MIN_HEAP_MB), so CLUSTER=10 does not ask for ten times the memory."""
import re

MIN_HEAP_MB = 256
_HEAP_FLAG = re.compile(r"-Xm([sx])(\d+)([kKmMgG]?)$")
_UNIT_MB = {"": 1 / (1 << 20), "k": 1 / 1024, "m": 1, "g": 1024}


def shared_heap_flags(flags: list[str], members: int) -> list[str]:
    """`flags` with -Xms and -Xmx divided by `members`."""
    def scaled(flag: str) -> str:
        m = _HEAP_FLAG.match(flag)
        if not m:
            return flag
        mb = max(MIN_HEAP_MB, int(int(m.group(2)) * _UNIT_MB[m.group(3).lower()] / members))
        return f"-Xm{m.group(1)}{mb}m"
    return [scaled(f) for f in flags]
