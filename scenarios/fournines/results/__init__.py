"""The results folder and what goes into it: run.json, the members' files merged into the run's, the
host's context."""
