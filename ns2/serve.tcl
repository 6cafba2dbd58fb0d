# The patched ns-2's run server (ns2/patches/0012-serve-forked-runs.patch): started once per job
# thread by the ns2 backend (src/bufrepro/backends/servers.py), it forks one child per run after
# its own start-up. Nothing else may be defined here: each child starts from this interpreter.
bufrepro-serve
