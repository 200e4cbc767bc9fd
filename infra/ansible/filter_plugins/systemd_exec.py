"""`systemd_exec`: a command line (a list of arguments) as the value of a systemd ExecStart=.

systemd splits ExecStart= itself, with its own rules: double quotes group, backslash escapes, and
`%` (specifiers) and `$` (environment variables) are expanded unless doubled. Each argument is quoted
so that the process gets exactly the list the runner made (scenarios/fournines/jvm.py).
"""


def systemd_exec(arguments):
    if isinstance(arguments, str) or not arguments:
        raise ValueError(f"systemd_exec: expected a non-empty list of arguments, got {arguments!r}")
    return " ".join(_quoted(str(argument)) for argument in arguments)


def _quoted(argument: str) -> str:
    escaped = (argument.replace("\\", "\\\\").replace('"', '\\"')
               .replace("%", "%%").replace("$", "$$"))
    return f'"{escaped}"'


class FilterModule:
    def filters(self):
        return {"systemd_exec": systemd_exec}
