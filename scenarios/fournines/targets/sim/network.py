"""The network between machines: a message arrives one hop's latency plus its bytes' time on the wire
after it is sent; between two tasklets of one machine it is handed over at once. Links are not
shared: contention for a machine's bandwidth is not modelled yet (scenarios/docs/simulate.md)."""


class Network:
    def __init__(self, hop_s: float, s_per_byte: float):
        self.hop_s, self.s_per_byte = hop_s, s_per_byte

    def delay_s(self, sender: int, receiver: int, size_bytes: float) -> float:
        return 0.0 if sender == receiver else self.hop_s + size_bytes * self.s_per_byte
