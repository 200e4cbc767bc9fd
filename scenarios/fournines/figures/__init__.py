"""A published figure reproduced (`./fournines figure NAME`, `make figure NAME=...`): an experiment
file's runs, each a normal results folder inside one folder, and a report that draws them like the
original with the published values overlaid (scenarios/docs/figures.md)."""
