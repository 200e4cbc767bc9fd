"""./fournines ui: the dashboard on this checkout's results folders (scenarios/fournines/ui)."""
import asyncio
from pathlib import Path

import click

from fournines.results.folder import RESULTS_ROOT


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; beyond loopback only with --token-file.")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help="A file only you can read holding the access token (32 characters or more) every request "
                   "must then present: needed to listen beyond loopback.")
@click.option("--port", default=8023, show_default=True, type=click.IntRange(0, 65535), help="0 picks a free port.")
@click.option("--results", "results_root", default=RESULTS_ROOT, show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="The folder of results folders to show.")
def ui(host, port, token_file, results_root):
    """Serve the dashboard: every run with its key figures, a run's report with interactive plots, runs
    compared with the gate's verdict, trends over runs, a run's live view; start and stop runs. Ctrl-C
    stops it, and any run it started."""
    from fournines.ui.access_token import TokenRefused, read_token_file
    from fournines.ui.address import AddressRefused, checked_host

    try:
        token = read_token_file(token_file) if token_file else None
        host = checked_host(host, guarded=token is not None)
    except (AddressRefused, TokenRefused) as e:
        raise click.UsageError(str(e)) from e
    from fournines.ui.server import serve

    try:
        asyncio.run(serve(results_root.resolve(), host, port,
                          lambda address: click.echo(f"fournines dashboard: {address}  (Ctrl-C stops it)"
                                                     + ("; it asks for the token in " + str(token_file) if token else "")),
                          access_token=token))
    except OSError as e:
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror or e}") from e
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C, or SIGTERM: the runs it started are stopped
        pass
