"""TARGET=aws: the EC2 cluster (its shape, cost and inventory) and a run on it (target.py)."""
