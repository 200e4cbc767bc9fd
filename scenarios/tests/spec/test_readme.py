"""scenarios/README.md documents every scenario field and override key the code accepts."""
import pytest

from fournines import REPO_ROOT
from fournines.spec.overrides import FIELDS, RUN_OPTIONS
from fournines.spec.query_field import QuerySpec
from fournines.spec.registry import QUERIES
from fournines.spec.scenario import FAULT, SCHEMA
from fournines.spec.schema import Record

README = (REPO_ROOT / "scenarios" / "README.md").read_text()


def leaf_paths(record: Record, prefix=""):
    for name, field in record.fields.items():
        if isinstance(field.spec, Record):
            yield from leaf_paths(field.spec, f"{prefix}{name}.")
        elif not isinstance(field.spec, QuerySpec):  # its fields are listed below
            yield prefix + name


FIELD_PATHS = [*leaf_paths(SCHEMA), *(f"faults[i].{name}" for name in FAULT.fields), "query.name",
               *sorted({f"query.{p}" for name in QUERIES for p in QUERIES[name].parameters})]


@pytest.mark.parametrize("path", FIELD_PATHS)
def test_every_field_has_a_row(path):
    assert f"\n| `{path}` |" in README


@pytest.mark.parametrize("key", [*FIELDS, *RUN_OPTIONS])
def test_every_override_has_a_row(key):
    assert f"\n| `{key}` |" in README
