"""Change points of metric series by Apache Otava, run in Otava's own venv (.venv-otava): Otava pins
a numpy and a ruamel.yaml that the analysis venv cannot share, so trend.py talks to this module over
a pipe. It imports only the standard library and Otava.

stdin:  {"series": {name: [value, ...]}, "window_len": int, "max_pvalue": float, "min_magnitude": float}
stdout: {name: [{"index": i, "pvalue": p}, ...]} in index order, index being the first value after
        the change.
"""
import json
import sys

from otava.analysis import compute_change_points


def main() -> None:
    request = json.load(sys.stdin)
    found = {}
    for name, values in request["series"].items():
        points, _ = compute_change_points(values, window_len=request["window_len"],
                                          max_pvalue=request["max_pvalue"],
                                          min_magnitude=request["min_magnitude"])
        found[name] = sorted(({"index": int(p.index), "pvalue": float(p.stats.pvalue)} for p in points),
                             key=lambda p: p["index"])
    json.dump(found, sys.stdout)


if __name__ == "__main__":
    main()
