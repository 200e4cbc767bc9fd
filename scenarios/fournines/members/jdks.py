"""The Java runtime a scenario's members run on (`cluster.jdk`, `JDK=`): the `java` on PATH by
default, else a JDK named by its folder (or its `bin/java`) or by its feature version (`21`, `25`),
looked up in the usual places. A JDK is a folder with `bin/java` and the `release` file every JDK
build ships, whose JAVA_VERSION gives the version without starting a JVM."""
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

# Where JDKs are installed: Debian and most Linux packages, vendor tarballs, IntelliJ, SDKMAN.
SEARCHED = ("/usr/lib/jvm", "/usr/java", "/opt/java", "/opt", "~/.jdks", "~/.sdkman/candidates/java")
_VERSION = re.compile(r'^JAVA_VERSION="([^"]+)"', re.MULTILINE)


class JdkNotFound(Exception):
    """No JDK matches; the message names what was asked and what is installed."""


@dataclass(frozen=True)
class Jdk:
    home: Path
    version: str  # JAVA_VERSION of its release file, e.g. 25.0.3

    @property
    def java(self) -> Path:
        return self.home / "bin" / "java"

    @property
    def feature(self) -> int:
        """The feature release: 17 for 17.0.15, 8 for 1.8.0_402."""
        parts = self.version.split(".")
        return int(parts[1] if parts[0] == "1" else re.match(r"\d+", parts[0])[0])


def find_jdk(spec: str | None) -> Jdk:
    """The JDK `spec` names (None: the `java` on PATH); JdkNotFound if there is none."""
    if spec is None:
        on_path = shutil.which("java")
        jdk = _jdk_at(Path(os.path.realpath(on_path)).parents[1]) if on_path else None
        if jdk is None:
            raise JdkNotFound("java: not found on PATH (or not in a JDK with a release file); "
                              "the members need a JDK 17 or newer")
        return jdk
    if spec.isdigit():
        matches = [j for j in installed_jdks() if j.feature == int(spec)]
        if not matches:
            raise JdkNotFound(f"field cluster.jdk={spec}: no JDK {spec} found in {', '.join(SEARCHED)}; "
                              f"installed: {_listing()}")
        return max(matches, key=lambda j: _version_key(j.version))
    path = Path(spec).expanduser()
    jdk = _jdk_at(path.parents[1] if path.name == "java" else path)
    if jdk is None:
        raise JdkNotFound(f"field cluster.jdk={spec}: not a JDK (no bin/java and release file there); "
                          f"give a JDK's folder or a feature version; installed: {_listing()}")
    return jdk


def installed_jdks() -> list[Jdk]:
    found = {}
    for root in SEARCHED:
        folder = Path(root).expanduser()
        for home in sorted(folder.iterdir()) if folder.is_dir() else ():
            jdk = _jdk_at(home)
            if jdk is not None:
                found.setdefault(jdk.home, jdk)
    return list(found.values())


def _jdk_at(home: Path) -> Jdk | None:
    home = Path(os.path.realpath(home))
    try:
        match = _VERSION.search((home / "release").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    if not match or not os.access(home / "bin" / "java", os.X_OK):
        return None
    return Jdk(home, match[1])


def _version_key(version: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", version)]


def _listing() -> str:
    return ", ".join(f"{j.feature} ({j.home})" for j in installed_jdks()) or "none"
