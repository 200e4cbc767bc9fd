"""`python -m fournines`, which ./fournines runs: the commands are in fournines/cli."""
from fournines.cli import cli

if __name__ == "__main__":
    cli()
