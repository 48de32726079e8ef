"""Benchmarks that print ratios (see README.md)."""
