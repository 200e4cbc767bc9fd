"""./fournines jmh | idle-cost | net-bench | nexmark | member: hand over to a Java program of this
repository, built first if stale (members/java_build.py)."""
import os
import sys

import click

from fournines.members.java_build import JARS, ensure_jar


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("jmh_args", nargs=-1, type=click.UNPROCESSED)
def jmh(jmh_args):
    """Run the engine's JMH benchmarks; arguments go to JMH (e.g. -prof gc, a benchmark regex)."""
    _exec_java(["-jar", str(ensure_jar(JARS["benchmarks"])), *jmh_args])


@click.command("idle-cost")
@click.argument("rate", default="1000")
@click.argument("seconds", default="20")
@click.argument("idle_park_us", nargs=-1)
def idle_cost(rate, seconds, idle_park_us):
    """CPU and latency of a job at RATE events/s (default 1000); optional MIN MAX idle park in us."""
    jar = ensure_jar(JARS["benchmarks"])
    _exec_java(["-cp", str(jar), "io.fournines.engine.jmh.IdleCost", rate, seconds, *idle_park_us])


@click.command("net-bench")
@click.argument("seconds", default="5")
def net_bench(seconds):
    """The member transport (Netty) against plain NIO on loopback: throughput and round trips."""
    jar = ensure_jar(JARS["benchmarks"])
    _exec_java(["-cp", str(jar), "io.fournines.engine.jmh.TransportBenchmark", seconds])


# No help option of our own, so `nexmark generate --help` reaches the nexmark CLI.
@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []})
@click.argument("nexmark_args", nargs=-1, type=click.UNPROCESSED)
def nexmark(nexmark_args):
    """NEXMark tools (generate, ...); arguments go to the nexmark CLI."""
    _exec_java(["-jar", str(ensure_jar(JARS["nexmark"])), *nexmark_args])


# No help option of our own, so `member serve --help` reaches the member's CLI.
@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []})
@click.argument("member_args", nargs=-1, type=click.UNPROCESSED)
def member(member_args):
    """The reference engine's member (run, serve, consume); arguments go to its CLI (nexmark/fournines/README.md)."""
    _exec_java(["-jar", str(ensure_jar(JARS["fournines"])), *member_args])


def _exec_java(args):
    """Replaces this process with the JVM, so Ctrl-C and exit codes go straight to it."""
    sys.stdout.flush()
    os.execvp("java", ["java", *args])


COMMANDS = (jmh, idle_cost, net_bench, nexmark, member)
