"""`group_size: auto`: the group size tuned after every group as the engine tunes it (scenarios/README.md,
`group_size`; after Drizzle's AIMD): it starts at 1, grows by one after a group whose every batch was
done within the latency target of its end, and halves (to at least 1) after one that was not, up to
MAX_GROUP_SIZE."""

FIRST_GROUP_SIZE = 1
MAX_GROUP_SIZE = 100


def next_group_size(size: int, every_batch_in_time: bool) -> int:
    if every_batch_in_time:
        return min(size + 1, MAX_GROUP_SIZE)
    return max(size // 2, 1)
