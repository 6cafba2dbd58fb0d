"""Experiment kinds: one package per kind, each defining `KIND` (a kit.experiment.Experiment)."""
