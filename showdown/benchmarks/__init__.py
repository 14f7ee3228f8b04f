"""Benchmarks behind `showdown bench`; each prints figures, none asserts on time."""
