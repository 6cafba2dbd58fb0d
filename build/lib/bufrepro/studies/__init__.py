"""Study packages: each subpackage reproduces one paper and defines `STUDY` (bufrepro.registry)."""
