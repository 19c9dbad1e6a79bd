"""Benchmarks of textcontract: workload W1 beside the floor and the peer, cold start, scaling
and the mutation audit. Run ``python benchmarks/run.py --help``; docs/performance.md has the
measured numbers and the commands that produced them.
"""
