"""Where a run plays: on this machine (local/) or on EC2 (aws/); prepare.py is what every target
does first."""
