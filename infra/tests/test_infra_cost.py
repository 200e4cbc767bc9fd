"""The hourly estimate from the committed price table, and the confirmation without which no
cluster starts."""
import io
import re

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.aws import cluster as aws_cluster
from fournines.targets.aws.cost import HostGroup, PriceError, estimate, read_prices
from infra_paths import REPO


def paper_cluster(members=10):
    return aws_cluster.shape(members, kafka=False, env={})


def test_the_table_has_a_source_a_date_and_a_region():
    header = [line for line in (REPO / "infra" / "aws-prices.csv").read_text().splitlines() if line.startswith("#")]
    text = "\n".join(header)
    assert "https://aws.amazon.com/ec2/pricing/on-demand/" in text
    assert re.search(r"Recorded \d{4}-\d{2}-\d{2}", text)
    assert "us-east-1" in text
    assert read_prices()[("us-east-1", "c5.4xlarge")] == 0.68


def test_ten_members_of_the_papers_type():
    result = aws_cluster.cost(paper_cluster(), "us-east-1")
    # 10 x c5.4xlarge + 10 x 30 GB gp3 + 10 public IPv4 addresses
    assert result.usd_per_hour == pytest.approx(10 * 0.68 + 10 * 30 * 0.0001096 + 10 * 0.005)
    assert result.confirmation() == "6.88"
    assert "10 x c5.4xlarge (member)" in result.table()


def test_a_kafka_scenario_adds_three_brokers_and_a_load_generator():
    cluster = aws_cluster.shape(10, kafka=True, env={})
    assert (cluster.brokers, cluster.loadgens, cluster.broker_type) == (3, 1, "i3.2xlarge")
    assert aws_cluster.cost(cluster, "us-east-1").confirmation() == "9.47"  # 6.80 + 3 x 0.624 + 0.68 + 14 x (0.0033 + 0.005)


def test_an_active_active_scenario_adds_a_load_generator_host_for_its_result_consumer():
    scenario = load_scenario("q5", parse_overrides(["CLUSTER=4", "MODE=active-active", "TARGET=aws"]))
    cluster = aws_cluster.shape_of_scenario(scenario, env={})
    assert (cluster.members, cluster.brokers, cluster.loadgens) == (4, 0, 1)
    with pytest.raises(aws_cluster.ClusterRefused, match="LOADGENS=0: an active-active run's result consumer runs on"):
        aws_cluster.shape_of_scenario(scenario, env={"LOADGENS": "0"})


def test_the_readme_quotes_the_estimate_for_ten_members():
    section = (REPO / "README.md").read_text(encoding="utf-8").split("## Running on AWS", 1)[1]
    assert f"{aws_cluster.cost(paper_cluster(), 'us-east-1').confirmation()} USD per hour" in section


@pytest.mark.parametrize("groups, region, message", [
    ([HostGroup("member", 2, "c5.5xlarge")], "us-east-1", "no price for member instance type 'c5.5xlarge' in region 'us-east-1'"),
    ([HostGroup("member", 2, "c5.4xlarge")], "eu-west-1", "the table covers us-east-1 only"),
])
def test_what_the_table_does_not_know_is_refused_by_name(groups, region, message):
    with pytest.raises(PriceError, match=re.escape(message)):
        estimate(groups, region, 30)


def test_counts_from_the_environment_are_checked():
    with pytest.raises(aws_cluster.ClusterRefused, match="BROKERS=three: must be a whole number"):
        aws_cluster.shape(1, kafka=True, env={"BROKERS": "three"})


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("env, stdin", [({"COST_OK": "6.88"}, io.StringIO()), ({"COST_OK": "$6.88"}, io.StringIO()),
                                        ({}, Terminal("6.88\n"))])
def test_the_estimate_confirmed(env, stdin):
    aws_cluster.confirm(aws_cluster.cost(paper_cluster(), "us-east-1"), env=env, stdin=stdin)


@pytest.mark.parametrize("env, stdin, message", [
    ({"COST_OK": "3.44"}, io.StringIO(), "COST_OK=3.44 does not match the estimate of 6.88 USD/h"),
    ({}, io.StringIO(), "confirm the estimate of 6.88 USD/h with COST_OK=6.88"),
    ({}, Terminal("yes\n"), "not confirmed"),
])
def test_no_confirmation_no_cluster(env, stdin, message):
    with pytest.raises(aws_cluster.ClusterRefused, match=re.escape(message)):
        aws_cluster.confirm(aws_cluster.cost(paper_cluster(), "us-east-1"), env=env, stdin=stdin)
