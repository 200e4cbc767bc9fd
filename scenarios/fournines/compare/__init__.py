"""Runs compared: a scenario on several engines (ENGINE=a,b), and a base ref against the working tree
(make gate)."""
