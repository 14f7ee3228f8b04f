"""Shipped data files: evaluator lookup tables and the Income Rate table."""
