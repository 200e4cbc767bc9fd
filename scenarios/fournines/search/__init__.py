"""The rate search (`./fournines search`) and the sweep (`./fournines sweep`): a scenario run at many
rates, each run a normal results folder inside one folder with a report of latency against load."""
