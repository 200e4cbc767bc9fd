"""A rate measured as k successes in n independent trials, with its Wilson score interval, which stays
inside [0, 1] and keeps its coverage at 0 or n successes, where the textbook interval collapses to a
point (Wilson 1927; Brown, Cai and DasGupta 2001 recommend it for small n)."""
from dataclasses import dataclass
from statistics import NormalDist


@dataclass(frozen=True)
class Proportion:
    successes: int
    trials: int
    confidence: float = 0.95

    @property
    def rate(self) -> float:
        return self.successes / self.trials

    @property
    def interval(self) -> tuple[float, float]:
        n, p = self.trials, self.rate
        z = NormalDist().inv_cdf(1 - (1 - self.confidence) / 2)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
        return max(0.0, centre - half), min(1.0, centre + half)

    def __str__(self):
        low, high = self.interval
        return (f"{self.successes}/{self.trials} = {self.rate:.1%} "
                f"({self.confidence:.0%} interval {low:.1%} to {high:.1%})")
