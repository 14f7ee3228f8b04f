"""Showdown command-line entry point and cross-package commands."""
