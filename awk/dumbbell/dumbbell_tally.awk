#!/usr/bin/gawk -f
# dumbbell_tally.awk - one dumbbell run's metrics from the patched ns-2's WiredTally stream
# (trace_level "tally"), in one streamed pass: the same lines, checks and exit codes as
# dumbbell.awk -v tally=1, without the text trace's rules (gawk reads and compiles about a
# third of the program per run: about 1.1 ms less CPU a run, the dumbbell's ns alone ~50 ms).
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/dumbbell/dumbbell_tally.awk -v t0=...
#          -v t1=... -v t_end=... -v max_age=... -v link_from=4 -v link_to=5 -v link_bps=...
#          [-v tcp_hdr=40] [-v link_delay=...] [-v n_nodes=...] [-v links=...]
#          [-v fingerprint=...] STREAM|-
# Reads: the WiredTally stream only, one record a line, tab-separated after the header: $1
#   the record's kind (param, events, last, gap, nodes, link, fail, metric, end), $2 and $3
#   its fields (lib/tally.awk's header defines each). A text trace fails at its first line
#   ("not a WiredTally stream").
# Parameters and metrics: dumbbell.awk's (lib/wired_params.awk checks the
#   parameters; lib/tally.awk defines the checks).
# Output: the metrics, one "name<TAB>value" line each, in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter missing or out of range (nothing read, nothing
#   printed); 3 - the stream failed a check (the reasons on stderr): nothing printed.
BEGIN { PROG = "dumbbell_tally.awk"; tally = 1 }

@include "tally.awk"
@include "wired_params.awk"
