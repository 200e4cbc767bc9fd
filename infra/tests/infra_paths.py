"""Paths and tools the infra tests share."""
import os
import shutil
import sys
from pathlib import Path

import pytest

INFRA = Path(__file__).resolve().parents[1]
REPO = INFRA.parent
TERRAFORM_DIR = INFRA / "terraform" / "aws"
ANSIBLE_DIR = INFRA / "ansible"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
VENV_BIN = Path(sys.executable).parent


def venv_tool(name: str) -> str:
    """A tool installed by requirements.txt into the venv running the tests."""
    path = VENV_BIN / name
    if not path.exists():
        pytest.fail(f"{path}: missing; requirements.txt pins it: run `make venv`")
    return str(path)


def terraform() -> str:
    """The terraform binary; without it the test is skipped, and the skip's reason is printed in
    `make test`'s summary (pytest -rs): the HashiCorp releases site is not a package registry, so
    `make test` cannot install it, and local use does not need it."""
    path = os.environ.get("TERRAFORM") or shutil.which("terraform")
    if not path:
        pytest.skip("terraform: not found on PATH (and TERRAFORM is not set), so `terraform fmt -check` did not run; "
                    "install Terraform 1.5+ from https://developer.hashicorp.com/terraform/install "
                    "or set TERRAFORM=/path/to/terraform")
    return path


def ansible_env(tmp_path: Path) -> dict:
    """Ansible confined to the test: its config, and its local state (~/.ansible) in tmp_path."""
    return {**os.environ, "ANSIBLE_CONFIG": str(ANSIBLE_DIR / "ansible.cfg"), "ANSIBLE_HOME": str(tmp_path / "ansible-home"),
            "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible-tmp"), "ANSIBLE_NOCOLOR": "1",
            "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
