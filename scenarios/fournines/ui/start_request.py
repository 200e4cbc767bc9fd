"""A run asked for on the dashboard's start form, checked exactly as `./fournines run` checks its
arguments (overrides parsed, a listed setting split into variants, the scenario loaded with each),
with each problem put next to the form field it is about."""
from fournines.compare.variants import split_variants
from fournines.spec.overrides import KEYS, OverrideError, parse_overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.targets.prepare import RunRefused

SCENARIO_FIELD = "scenario"  # a problem no override explains is the scenario's


def assignments(form: dict[str, str]) -> list[str]:
    """The form's filled override fields as the CLI's KEY=VALUE arguments; blank ones keep the scenario's."""
    return [f"{key}={form[key].strip()}" for key in KEYS if form.get(key, "").strip()]


def problems(scenario: str, args: list[str]) -> dict[str, list[str]]:
    """Form field -> its problems; empty when the run may start."""
    try:
        key, values, overrides = split_variants(parse_overrides(args))
        for value in values or [None]:
            load_scenario(scenario, overrides if value is None else overrides.replacing({key: value}))
    except (OverrideError, RunRefused) as e:
        return _by_field([str(e)])
    except ScenarioError as e:
        return _by_field(e.lines)
    return {}


def _by_field(lines: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in lines:
        field = next((k for k in KEYS if f"override {k}=" in line or f"overrides {k}=" in line), SCENARIO_FIELD)
        found.setdefault(field, []).append(line)
    return found
