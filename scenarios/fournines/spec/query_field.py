"""The queries a scenario can name (the NEXMark queries and the stock-trades query), and the parameters each one takes.

A parameter a query does not use is an error, not ignored: `WINDOW_MS=5000` on Q1 would otherwise
look like a measured variant that never existed. Defaults are Beam NEXMark's (10 s windows, Q5
sliding every 5 s; Q13's side input of 500 rows).
"""
from fournines.spec.schema import Field, Integer, Problems, Record, Spec, join, shown

_WINDOW = Field(Integer(1, 86_400_000), 10_000)
_SLIDE = Field(Integer(1, 86_400_000), 5_000)  # must divide window_ms

PARAMETERS: dict[str, dict[str, Field]] = {
    "q0": {},  # passthrough: the engine's own overhead
    "q1": {},  # currency conversion: a stateless map
    "q2": {},  # selection: bids whose auction is a multiple of 123
    "q5": {"window_ms": _WINDOW, "slide_ms": _SLIDE},  # hot items: sliding-window count per auction
    "q7": {"window_ms": _WINDOW},  # highest bid: tumbling-window max, fanned back out
    "q8": {"window_ms": _WINDOW},  # new users: tumbling-window join of persons and auctions
    "q13": {"side_input_rows": Field(Integer(1, 100_000_000), 500)},  # bidder % rows picks the row
    # Not NEXMark: the Jet team's Kafka latency benchmark, mean trades/s per ticker (load.source kafka).
    "trades": {"window_ms": _WINDOW, "slide_ms": _SLIDE},
}


class QuerySpec(Spec):
    """`query: {name: q5, window_ms: 10000, ...}`: the name decides which parameters are allowed."""

    allowed = f"a mapping with a name ({', '.join(PARAMETERS)}) and that query's parameters"

    def check(self, value, path, problems: Problems):
        if not isinstance(value, dict):
            problems.wrong(path, value, self.allowed)
            return None
        name = value.get("name")
        if name not in PARAMETERS:
            what = "missing; required" if "name" not in value else f"is {shown(name)}; must be"
            problems.add(join(path, "name"), f"{what} one of {', '.join(PARAMETERS)}")
            return None
        params = {k: v for k, v in value.items() if k != "name"}
        fields = PARAMETERS[name]
        for unknown in params.keys() - fields.keys():
            problems.add(join(path, unknown), f"not a parameter of {name}; {name} takes: "
                         + (", ".join(fields) or "no parameters"))
        checked = Record(fields).check({k: v for k, v in params.items() if k in fields}, path, problems)
        if checked is None:
            return None
        slide, window = checked.get("slide_ms"), checked.get("window_ms")
        if slide and window and window % slide:
            problems.add(join(path, "slide_ms"), f"must divide window_ms ({window}); is {slide}")
        return {"name": name, **checked}
