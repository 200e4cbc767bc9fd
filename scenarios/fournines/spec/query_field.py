"""The scenario's `query` field: a name from the registry (registry.py) and that query's parameters.

A parameter a query does not use is an error, not ignored: `WINDOW_MS=5000` on Q1 would otherwise
look like a measured variant that never existed.
"""
from fournines.spec.registry import QUERIES
from fournines.spec.schema import Problems, Record, Spec, join, shown


class QuerySpec(Spec):
    """`query: {name: q5, window_ms: 10000, ...}`: the name decides which parameters are allowed."""

    allowed = f"a mapping with a name ({', '.join(QUERIES)}) and that query's parameters"

    def check(self, value, path, problems: Problems):
        if not isinstance(value, dict):
            problems.wrong(path, value, self.allowed)
            return None
        name = value.get("name")
        if name not in QUERIES:
            what = "missing; required" if "name" not in value else f"is {shown(name)}; must be"
            problems.add(join(path, "name"), f"{what} one of {', '.join(QUERIES)}")
            return None
        params = {k: v for k, v in value.items() if k != "name"}
        fields = QUERIES[name].parameters
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
