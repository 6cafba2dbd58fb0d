#!/usr/bin/gawk -f
# ramya.awk - the trace metrics of one ramya run in one streamed pass over its ns-2 trace out.tr:
# the same "name<TAB>value" lines as the parse_trace.sh part of scripts/parse_ramya.sh
# (awk/accounting.awk, delay.awk, throughput.awk, loss.awk, link.awk on the R1 -> R2 link),
# byte for byte. Reads the trace once, front to back (a file, stdin or a named pipe that ns-2 is
# still writing); everything is computed and printed in END. The small side files the scenario
# writes beside the trace (rtt.tr, ping.tr, queue.tr) are read by ramya/side.awk after ns-2 has
# exited; the two outputs together, sorted with LC_ALL=C, are parse_ramya.sh's metrics.tsv.
# The trace metrics are the dumbbell's (both programs are lib/wired.awk); only the link differs.
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/ramya/ramya.awk -v t0=... -v t1=...
#          -v t_end=... -v max_age=... -v link_from=1 -v link_to=2 -v link_bps=... TRACE|-
#        (AWKPATH names awk/lib, where the @include files are; -f needs a path with a slash)
# Output: the metrics below, one "name<TAB>value" line each, in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter missing or out of range (nothing read, nothing
#   printed); 3 - a line is malformed or an accounting check failed (the reasons on stderr, at
#   most 10 listed, then the count): nothing printed.
#
# Reads (ns-2 wired trace, one event a line; lib/wired.awk):
#   NF (fewer than 12 fields: a malformed or truncated line), $1 event (+ - r d), $2 time (s),
#   $3 from node, $4 to node, $5 packet type, $6 size (bytes, headers included), $8 flow id,
#   $9 source address "node.port", $10 destination address "node.port", $11 sequence number,
#   $12 packet uid.
# Parameters (-v): t0, t1 - the measurement window (s, t1 > t0; the pipeline: the setup's
#   warmup_s and duration_s); t_end - the simulated end time (s; duration_s); max_age - how
#   long before the trace's end a packet still in flight may have been seen last (s;
#   the path's longest transit, params.max_age; hops, sizes: lib/wired.awk); link_from, link_to - the bottleneck's end nodes (R1 = 1 and
#   R2 = 2); link_bps - its capacity (bit/s);
#   tcp_hdr - header bytes in a tcp packet's trace size (default 40, as ns-2); the scenario's
#   fingerprint (from the run record, the study's parse_args): n_nodes - its node count; links -
#   its links "a-b,..."; link_delay - the measured link's propagation delay (s); fingerprint -
#   the run's header text "bufrepro STUDY run=DIGEST seed=N end=T_END" (empty: no header
#   required, hand-made inputs only).
# Integrity (lib/wired.awk, lib/integrity.awk; each failure names the file, the line and the
#   rule, and nothing is printed): line 1 is "# " fingerprint, the header the scenario writes
#   (another study, seed, end or run fails at line 1, naming the field); 12 fields a line; times numeric, never decreasing, not after
#   t_end; no duplicated line, no CR (CRLF endings are rejected), no NUL; nodes below n_nodes,
#   links among `links`; the trace's last line is "# end LINES SUM" (docs/trusting-a-run.md,
#   "Stream format"; cut short without it, edited or spliced when it does not match; hand-made
#   inputs without a fingerprint: the stream ends within one event gap of t_end); each packet crosses the measured link in exactly
#   size * 8 / link_bps + link_delay (+-2 us of trace rounding); data sent in [t0, t1] implies
#   departures on the measured link in [t0, t1].
#
# Data packets: type not "ack". ns-2 gives every transmission, retransmissions included, its
# own uid, so each uid is one packet sent once. A packet's send is its first event at the node
# of its source address ('+', or a drop there; for the delay, its first '+' there); its receipt
# is an 'r' whose to-node is the node of its destination address (per-hop 'r' events at routers
# are not receipts).
# Definitions, accounting (lib/accounting.awk; data packets, the whole trace):
#   acct_sent        packets with an event at their source node ('+', or a drop there)
#   acct_received    packets with an 'r' at the node of their destination address
#   acct_dropped     packets with a 'd' event anywhere
#   acct_in_flight   acct_sent - acct_received - acct_dropped
#   acct_trace_end   time of the last event in the trace
#   acct_ok          1 when every check passed (otherwise the program exits 3 and prints why)
#   Checks: no malformed line; no packet received or dropped that was never sent; no packet
#   received or dropped twice; every packet in flight at the end was seen within max_age of the
#   trace's end; the trace is not empty; each packet's story (lib/wired.awk: fields of their
#   types, sizes the scenario sends, + - r hop by hop from its source, one end, the same
#   packet at every event, unfinished packets within their link's bounds, dense uids).
# Definitions, delay (lib/delay.awk; data packets sent within [t0, t1]; for each type T):
#   T_delay_pkts      number of packets sent in the window and received at their destination
#   T_delay_ms_mean   mean of (receipt time - send time) over those packets, in ms
#   T_delay_ms_max    largest such delay, in ms
#   T_delay_ms_p95    95th percentile (nearest rank) of those delays, in ms
#   (dropped packets have no delay)
# Definitions, throughput (lib/throughput.awk; for each data type T received at any time). The
# bits of a receipt inside the window: a packet that crossed the measured link counts the part
# of its bits that link transmitted within [t0, t1] (its transmission there, see
# link_utilisation, clipped to the window: a packet straddling t0 or t1 counts in part); one
# that did not cross it counts whole when received in [t0, t1]. So the rates of the types that
# cross the link sum to at most link_bps, exactly.
#   T_rx_bytes          sum of the in-window parts of type-T receipts (retransmitted copies
#                       included), bytes, a real number ("%.3f")
#   T_throughput_kbps   T_rx_bytes * 8 / (t1 - t0) / 1000
#   T_goodput_kbps      the in-window part of the payload of the first receipt of each (flow id,
#                       sequence number) * 8 / (t1 - t0) / 1000; payload = size - tcp_hdr for
#                       tcp, size otherwise; a duplicate adds nothing. Not printed for a type
#                       whose packets carry no sequence number (negative: ns-2's ping, -1).
#   T_rx_pkts           number of type-T receipts with a nonzero in-window part
# Definitions, loss (lib/loss.awk; events with time in [t0, t1]; for each type T on any line,
# "ack" included; ping packets are type "ping"):
#   T_sent_pkts        type-T packets whose first event at their source node (a '+' or a drop
#                      there) falls in the window
#   T_drops_queue      'd' events of a packet that had a '+' on that link and no '-' yet: the
#                      queue (DropTail overflow, RED early or forced drop) discarded it
#   T_drops_link       'd' events of a packet with no '+' on that link (an error model at the
#                      link head, as ns-2's lossmodel installs it) or already dequeued there
#                      (an error model after the queue)
#   T_drops_total      T_drops_queue + T_drops_link
#   T_loss_rate        T_drops_total / T_sent_pkts (empty when nothing was sent); for ping it is
#                      named ping_pkt_loss_rate (requests and replies dropped / sent), so that
#                      ramya/side.awk's ping_loss_rate (round trips) is the only ping_loss_rate
# Definitions, the bottleneck (lib/link.awk; events on link_from -> link_to):
#   link_utilisation     bits the link transmitted within [t0, t1] / (link_bps * (t1 - t0)): a
#                        packet's transmission lasts size * 8 / link_bps from its '-' on the
#                        link (or from the end of the previous one, if later: one packet at a
#                        time); only its part inside [t0, t1] counts, so this is at most 1
#   link_queue_avg_pkts  time average over [t0, t1] of the queue length in packets, where the
#                        queue grows by one at each '+' on the link and shrinks by one at each
#                        '-' and at each 'd' of a packet that had a '+' there but no '-' (a queue
#                        drop); link-head drops (error model) never entered the queue
#   link_queue_max_pkts  largest queue length held for a positive time within [t0, t1] (a '+'
#                        and a '-' at the same instant do not count as a longer queue)
#   link_departed_pkts   '-' events on the link in [t0, t1]
BEGIN { PROG = "ramya.awk"; LOSS_RATE_NAME["ping"] = "ping_pkt_loss_rate" }

# With -v tally=1 the stream is the patched ns-2's WiredTally stream (trace_level tally):
# lib/tally.awk reads and checks it and prints the same metrics (its rules come first and
# consume every line); otherwise lib/wired.awk reads the text trace.
@include "tally.awk"
@include "wired.awk"
