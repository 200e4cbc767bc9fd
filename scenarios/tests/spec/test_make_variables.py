"""`make bench-<scenario> KEY=VALUE` passes every override the runner takes, and nothing else: a key
missing from the Makefile's list is silently dropped (EXECUTION was: the models' comparison ran the
continuous model three times)."""
import re

from fournines import REPO_ROOT
from fournines.spec.overrides import KEYS


def test_the_makefile_passes_every_override_key():
    text = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    listed = re.search(r"^BENCH_VARS := ((?:.*\\\n)*.*)$", text, re.MULTILINE).group(1)
    assert sorted(listed.replace("\\\n", " ").split()) == sorted(KEYS)
