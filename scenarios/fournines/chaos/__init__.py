"""./fournines chaos: a scenario's query run as short bounded jobs on a local 3-member cluster, one
random fault each, and every result the members recorded checked against an independent computation
over the same events (scenarios/docs/chaos.md)."""
