"""What TARGET=aws and TARGET=hosts share: a cluster of hosts reached over SSH and driven by infra/ansible."""
