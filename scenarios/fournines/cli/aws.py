"""./fournines aws-cost | aws-up | aws-down: an EC2 cluster without a run (make aws-up, make aws-down).
Settings are environment variables (targets/aws/cluster.py lists them); CLUSTER=N sets the member count."""
import os

import click

from fournines.targets.aws import cluster as aws_cluster


def _shape() -> aws_cluster.Shape:
    members = os.environ.get("CLUSTER", "1")
    if not members.isdigit():
        raise aws_cluster.ClusterRefused(f"CLUSTER={members}: must be a whole number of members")
    return aws_cluster.shape(int(members), kafka=False)


@click.command("aws-cost")
def aws_cost():
    """Print the estimated hourly cost of the cluster CLUSTER=N BROKERS=.. LOADGENS=.. would start."""
    try:
        estimate = aws_cluster.cost(_shape(), os.environ.get("AWS_REGION", "us-east-1"))
    except aws_cluster.ClusterRefused as e:
        raise click.ClickException(str(e)) from None
    click.echo(estimate.table())


@click.command("aws-up")
def aws_up():
    """Start (or resize) the EC2 cluster after confirming its hourly cost; no run."""
    click.echo(aws_cluster.TEARDOWN, err=True)
    try:
        cluster, op = _shape(), aws_cluster.operator()
        aws_cluster.confirm(aws_cluster.cost(cluster, op.region))
        aws_cluster.apply(cluster, op)
    except (aws_cluster.ClusterRefused, aws_cluster.ClusterFailed) as e:
        raise click.ClickException(str(e)) from None
    finally:
        click.echo(aws_cluster.TEARDOWN, err=True)


@click.command("aws-down")
def aws_down():
    """Destroy the EC2 cluster this checkout started (terraform destroy)."""
    try:
        if not aws_cluster.destroy():
            click.echo(f"No cluster to tear down: {aws_cluster.TFVARS} does not exist (nothing was applied from "
                       "this checkout). Look for leftovers by tag: Project=fournines.", err=True)
    except aws_cluster.ClusterFailed as e:
        raise click.ClickException(str(e)) from None


COMMANDS = (aws_cost, aws_up, aws_down)
