"""What an EC2 cluster costs per hour, from the committed price table (infra/aws-prices.csv: its
header says the region, the date and where the prices came from). A type or region missing from the
table is an error that names it: an estimate that silently left something out would be worse than none.
"""
import csv
from dataclasses import dataclass
from pathlib import Path

from fournines import REPO_ROOT

PRICE_TABLE = REPO_ROOT / "infra" / "aws-prices.csv"
GP3_GB = "gp3-gb"
PUBLIC_IPV4 = "public-ipv4"


class PriceError(ValueError):
    pass


@dataclass(frozen=True)
class HostGroup:
    role: str  # "member", "broker", "loadgen"
    count: int
    instance_type: str


@dataclass(frozen=True)
class Line:
    what: str
    count: int
    usd_each: float

    @property
    def usd(self) -> float:
        return self.count * self.usd_each


@dataclass(frozen=True)
class Estimate:
    region: str
    lines: list[Line]

    @property
    def usd_per_hour(self) -> float:
        return sum(line.usd for line in self.lines)

    def confirmation(self) -> str:
        """The amount the operator confirms: the hourly total in dollars and cents."""
        return f"{self.usd_per_hour:.2f}"

    def table(self) -> str:
        rows = [f"  {line.count:>3} x {line.what:<28} {line.usd_each:>9.4f} USD/h  = {line.usd:>8.3f} USD/h"
                for line in self.lines if line.count]
        return "\n".join([f"Estimated on-demand cost in {self.region} ({PRICE_TABLE.relative_to(REPO_ROOT)}):",
                          *rows, f"  total: about {self.confirmation()} USD per hour"])


def read_prices(path: Path = PRICE_TABLE) -> dict[tuple[str, str], float]:
    """(region, item) -> USD per hour; comment lines start with '#'."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    prices = {}
    for number, row in enumerate(csv.DictReader(lines), start=2):
        try:
            prices[(row["region"], row["item"])] = float(row["usd_per_hour"])
        except (KeyError, TypeError, ValueError):
            raise PriceError(f"{path}: row {number} must be region,item,usd_per_hour; is {row}") from None
    return prices


def estimate(groups: list[HostGroup], region: str, root_volume_gb: int,
             prices: dict[tuple[str, str], float] | None = None) -> Estimate:
    prices = read_prices() if prices is None else prices
    hosts = sum(group.count for group in groups)

    def price(item: str, why: str) -> float:
        try:
            return prices[(region, item)]
        except KeyError:
            known = sorted(i for r, i in prices if r == region and i not in (GP3_GB, PUBLIC_IPV4))
            raise PriceError(f"{PRICE_TABLE}: no price for {why} {item!r} in region {region!r}"
                             + (f"; known there: {', '.join(known)}" if known else
                                f"; the table covers {', '.join(sorted({r for r, _ in prices}))} only")) from None

    lines = [Line(f"{group.instance_type} ({group.role})", group.count,
                  price(group.instance_type, f"{group.role} instance type"))
             for group in groups if group.count]
    lines.append(Line(f"{root_volume_gb} GB gp3 root volume", hosts, root_volume_gb * price(GP3_GB, "storage")))
    lines.append(Line("public IPv4 address", hosts, price(PUBLIC_IPV4, "addresses")))
    return Estimate(region, lines)
