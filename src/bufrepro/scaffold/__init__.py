"""A new study's files, each a working stub marked TEMPLATE: `python -m bufrepro.scaffold S`."""
