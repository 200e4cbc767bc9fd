"""./fournines: the single entry point. Each subcommand is one small function here."""
import os
import sys

import click

from fournines.cli.analysis import COMMANDS as ANALYSIS_COMMANDS
from fournines.cli.aws import COMMANDS as AWS_COMMANDS
from fournines.cli.gate_ref import gate_ref
from fournines.cli.run import run
from fournines.members.java_build import ensure_jar


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli():
    """fournines: honest p99.99 for stream processors."""


@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("jmh_args", nargs=-1, type=click.UNPROCESSED)
def jmh(jmh_args):
    """Run the engine's JMH benchmarks; arguments go to JMH (e.g. -prof gc, a benchmark regex)."""
    jar = ensure_jar("engine/jmh", "engine-benchmarks.jar")
    _exec_java(["-jar", str(jar), *jmh_args])


@cli.command("idle-cost")
@click.argument("rate", default="1000")
@click.argument("seconds", default="20")
@click.argument("idle_park_us", nargs=-1)
def idle_cost(rate, seconds, idle_park_us):
    """CPU and latency of a job at RATE events/s (default 1000); optional MIN MAX idle park in us."""
    jar = ensure_jar("engine/jmh", "engine-benchmarks.jar")
    _exec_java(["-cp", str(jar), "io.fournines.engine.jmh.IdleCost", rate, seconds, *idle_park_us])


@cli.command("net-bench")
@click.argument("seconds", default="5")
def net_bench(seconds):
    """The member transport (Netty) against plain NIO on loopback: throughput and round trips."""
    jar = ensure_jar("engine/jmh", "engine-benchmarks.jar")
    _exec_java(["-cp", str(jar), "io.fournines.engine.jmh.TransportBenchmark", seconds])


# No help option of our own, so `nexmark generate --help` reaches the nexmark CLI.
@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []})
@click.argument("nexmark_args", nargs=-1, type=click.UNPROCESSED)
def nexmark(nexmark_args):
    """NEXMark tools (generate, ...); arguments go to the nexmark CLI."""
    jar = ensure_jar("nexmark/core", "fournines-nexmark.jar")
    _exec_java(["-jar", str(jar), *nexmark_args])


# No help option of our own, so `member serve --help` reaches the member's CLI.
@cli.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []})
@click.argument("member_args", nargs=-1, type=click.UNPROCESSED)
def member(member_args):
    """An engine member (run, serve); arguments go to the member's CLI (engine/member/README.md)."""
    jar = ensure_jar("engine/member", "fournines-member.jar")
    _exec_java(["-jar", str(jar), *member_args])


def _exec_java(args):
    """Replaces this process with the JVM, so Ctrl-C and exit codes go straight to it."""
    sys.stdout.flush()
    os.execvp("java", ["java", *args])


for command in (run, gate_ref, *ANALYSIS_COMMANDS, *AWS_COMMANDS):
    cli.add_command(command)

if __name__ == "__main__":
    cli()
