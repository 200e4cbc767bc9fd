"""A run on this machine: one member, a cluster of member processes, or two copies and a result
consumer (plan.py), played by one loop (play.py), with faults and a Kafka load around it when asked."""
