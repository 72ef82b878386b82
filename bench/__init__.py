"""Benchmarks that print their figures; never part of the test pass/fail."""
