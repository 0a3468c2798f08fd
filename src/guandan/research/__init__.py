"""Research tooling over the environments and the arena (docs/research.md, issue #20): self-play data
written as Parquet (:mod:`.selfplay`), a rated league of agents over duplicate deals (:mod:`.league`)
and a tiny CPU policy trained on that data (:mod:`.linear_example`).

pyarrow and openskill are imported inside the functions that need them, so that ``guandan``'s
start-up does not pay for them.
"""
