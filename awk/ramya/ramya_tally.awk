#!/usr/bin/gawk -f
# ramya_tally.awk - one ramya run's trace metrics from the patched ns-2's WiredTally stream
# (trace_level "tally"), in one streamed pass: the same lines, checks and exit codes as
# ramya.awk -v tally=1, without the text trace's rules (gawk reads and compiles about a third
# of the program per run). ramya/side.awk still reads the side files after the run.
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/ramya/ramya_tally.awk -v t0=...
#          -v t1=... -v t_end=... -v max_age=... -v link_from=1 -v link_to=2 -v link_bps=...
#          [-v tcp_hdr=40] [-v link_delay=...] [-v n_nodes=...] [-v links=...]
#          [-v fingerprint=...] STREAM|-
# Reads: the WiredTally stream only, one record a line, tab-separated after the header: $1
#   the record's kind (param, events, last, gap, nodes, link, fail, metric, end), $2 and $3
#   its fields (lib/tally.awk's header defines each). A text trace fails at its first line
#   ("not a WiredTally stream").
# Parameters and metrics: ramya.awk's (ping's loss rate is ping_pkt_loss_rate;
#   lib/wired_params.awk checks the parameters; lib/tally.awk defines the checks).
# Output: the metrics, one "name<TAB>value" line each, in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter missing or out of range (nothing read, nothing
#   printed); 3 - the stream failed a check (the reasons on stderr): nothing printed.
BEGIN { PROG = "ramya_tally.awk"; tally = 1; LOSS_RATE_NAME["ping"] = "ping_pkt_loss_rate" }

@include "tally.awk"
@include "wired_params.awk"
