#!/usr/bin/gawk -f
# side.awk - the ramya metrics of the three small files the scenario writes beside its trace:
# the TCP agent's RTT samples, the ping log and the queue samples. The same "name<TAB>value"
# lines as the awk/rtt.awk, ping.awk and queue_samples.awk part of scripts/parse_ramya.sh, byte
# for byte; with ramya/ramya.awk's output (the trace metrics), sorted with LC_ALL=C, that is
# parse_ramya.sh's metrics.tsv. Run it after ns-2 has exited (the files are complete then).
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/ramya/side.awk -v t0=... -v t1=...
#          [-v t_end=...] [-v fingerprint=...] RTT_FILE PING_FILE QUEUE_FILE     (exactly these three, in this order;
#          rtt.tr, ping.tr, queue.tr in a run folder; an empty RTT or ping file is fine, an
#          empty queue file or a missing one an error)
# Output: the metrics below, one "name<TAB>value" line each, in LC_ALL=C order.
# Exit: 0 - metrics printed; 2 - a parameter or file operand missing (or a file unreadable);
#   3 - no RTT sample in the window, or an integrity check failed (the reasons on stderr, each
#   naming the file, the line and the rule): nothing printed.
# Integrity (lib/integrity.awk, each file on its own): line 1 of each file is the run's header
#   "# " fingerprint (the scenario writes it into all three; another study, seed, end or run
#   fails, naming the field; with fingerprint set an empty file lacks it and fails); every
#   other line has its fields (RTT 7, ping
#   "s" 3 and "r" 5, queue 2) and a numeric time that never decreases and is not after t_end;
#   no duplicated line, no CR (CRLF endings are rejected), no NUL; the queue samples (every
#   monitor.queue_sample_s) and a non-empty ping log (a request every ping.interval_s) end
#   within one event gap (the largest gap between consecutive times in the file) of t_end;
#   every reply answers a request of the log.
#
# Reads:
#   RTT_FILE, the variable trace of `$tcp attach FILE; $tcp trace rtt_` (ns-2
#     TcpAgent::traceVar): $1 time (s), $2 source node, $3 source port, $4 destination node,
#     $5 destination port, $6 variable name, $7 value (s). Lines of other variables are ignored.
#   PING_FILE, the ping log (one event a line): $1 event, $2 time (s), $3 sequence number SEQ,
#     and for replies $4 FWD and $5 RET:
#       "s TIME SEQ"            a request with sequence number SEQ leaves the ping client;
#       "r TIME SEQ FWD RET"    the echo reply to SEQ reaches the client; FWD and RET are the
#                               one-way delays (ms, 0.1 ms resolution) of the request and the
#                               reply, as ns-2's Agent/Ping reports them in its `recv` callback.
#   QUEUE_FILE, a line every monitor.queue_sample_s seconds: $1 time (s), $2 the QueueMonitor's
#     pkts_ - packets waiting in the R1 -> R2 queue (arrivals - departures - drops; the packet
#     on the wire has departed, so it does not count).
# Parameters (-v): t0, t1 - the measurement window (s); t_end - the scenario's end (s; the
#   pipeline always passes it; without it, on hand-made files, the end checks are skipped);
#   fingerprint - the run's header text (lib/integrity.awk; the pipeline always passes it;
#   empty: no header required).
# Definitions, RTT (as awk/rtt.awk): a sample is an assignment of rtt_ with a value above 0 and
# a time in [t0, t1]: ns-2 sets rtt_ once per measured round trip - one timed segment at a time,
# from its send to the first ACK covering it, not timed again after a retransmission timeout
# (Karn) - in whole ticks of tcpTick_ (at least 1); the 0 written when the agent starts is not a
# sample. INET's TCP measures the same way (one timed segment, Karn's rule) with exact clocks.
#   tcp_rtt_samples   samples with time in [t0, t1] (none: exit 3)
#   tcp_rtt_s_mean    their mean (s) - the "Average RTT" / "RTT in sec" of Tables 1 and 5
#   tcp_rtt_s_min     their smallest value (s)
#   tcp_rtt_s_p95     their 95th percentile, nearest rank (s)
#   tcp_rtt_s_max     their largest value (s)
# Definitions, ping (as awk/ping.awk; requests sent with TIME in [t0, t1] count; a log without
# such a request - no ping - prints none of these):
#   ping_sent          requests sent in the window
#   ping_received      of those, requests whose reply came back before the end of the run (a
#                      second reply to the same request is ignored)
#   ping_loss_rate     1 - ping_received / ping_sent (request or reply dropped, or still in flight)
#   ping_rtt_ms_mean   mean over the received ones of FWD + RET: the time from sending the request
#                      to receiving the reply at the client, in ms (this and the next three only
#                      when ping_received > 0)
#   ping_rtt_ms_p95    95th percentile (nearest rank) of FWD + RET, in ms
#   ping_rtt_ms_max    largest FWD + RET, in ms
#   ping_fwd_ms_mean   mean FWD (client -> R1 -> R2 -> server 2, through the R1 buffer), in ms
# Definitions, queue samples (as awk/queue_samples.awk; samples with TIME in [t0, t1]):
#   qmon_samples         number of samples
#   qmon_queue_avg_pkts  their mean - a sampled estimate of link_queue_avg_pkts (ramya/ramya.awk)
#                        (the "avg. queue length" of Table 5); only when qmon_samples > 0
#   qmon_queue_max_pkts  their largest value; only when qmon_samples > 0

@include "metrics.awk"
@include "integrity.awk"

BEGIN {
    PROG = "side.awk"
    if (t0 == "" || t1 == "" || ARGC != 4) {
        print PROG ": set -v t0=... -v t1=... -v t_end=... and give RTT_FILE PING_FILE QUEUE_FILE" > "/dev/stderr"
        usage = 1; exit 2
    }
}

# Each file's integrity on its own: its times, its end (kept per file for END). Line 1 of each
# file is the run's header (skipped once checked; a missing one fails).
FNR == 1 {
    if (side_file) side_keep(side_file)
    side_file = ARGIND; INTEG_LAST = -1; INTEG_GAP = 0; INTEG_LINES = 0; delete INTEG_SAME
    SSUM_N = 0; SSUM_H = 0; SSUM_ENDED = 0
    SIDE_HEAD[ARGIND] = 1
    if (integ_header()) next
}
function side_keep(i) { SIDE_LAST[i] = INTEG_LAST; SIDE_GAP[i] = INTEG_GAP; SIDE_LINES[i] = INTEG_LINES; SIDE_ENDED[i] = SSUM_ENDED }
# The end line "# end LINES SUM" (lib/streamsum.awk) closes each file; nothing may follow it.
{
    if (SSUM_ENDED) { fail("a line after the end line (appended, or two files joined?): " substr($0, 1, 80)); next }
    if ($1 == "#") { ssum_end($0); next }
    ssum_line()
}
# ARGIND: 1 the RTT trace, 2 the ping log, 3 the queue samples. Each rule checks first every
# field's type where it is read (the time by integ_line; the fields not read are covered by the
# end line's checksum): numbers are numbers.
ARGIND == 1 {
    if (NF != 7 || $7 !~ /^-?[0-9]+(\.[0-9]+)?$/) { fail("malformed RTT line (" NF " fields, 7 expected; the value $7 a number): " substr($0, 1, 80)); next }
    if (!integ_line($1)) next
    if ($6 == "rtt_" && $7 + 0 > 0 && $1 + 0 >= t0 && $1 + 0 <= t1) {
        v = $7 + 0; rtt_n++; rtt_sum += v; rtt_all[rtt_n] = v
        if (rtt_n == 1 || v < rtt_min) rtt_min = v
        if (rtt_n == 1 || v > rtt_max) rtt_max = v
    }
    next
}
ARGIND == 2 {
    if (!(($1 == "s" && NF == 3 && $3 ~ /^[0-9]+$/) || ($1 == "r" && NF == 5 && $3 ~ /^[0-9]+$/ && ($4 $5) ~ /^-?[0-9]+(\.[0-9]*)?(e-?[0-9]+)?-?[0-9]+(\.[0-9]*)?(e-?[0-9]+)?$/))) { fail("malformed ping line (s TIME SEQ, or r TIME SEQ FWD_MS RET_MS, all numbers): " substr($0, 1, 80)); next }
    if (!integ_line($2)) next
    # ping_req[SEQ]: 1 a request sent outside the window, 2 in it, 3 in it and answered.
    if ($1 == "s") {
        if ($2 + 0 >= t0 && $2 + 0 <= t1) { if (ping_req[$3] < 2) ping_req[$3] = 2; ping_sent++ }
        else if (!ping_req[$3]) ping_req[$3] = 1
        next
    }
    if (!($3 in ping_req)) { fail("reply to request " $3 ", which the log never sent"); next }
    if (ping_req[$3] != 2) next
    ping_req[$3] = 3; v = $4 + $5; ping_n++; ping_sum += v; ping_fsum += $4; ping_all[ping_n] = v
    if (ping_n == 1 || v > ping_max) ping_max = v
    next
}
ARGIND == 3 {
    if (NF != 2 || $2 !~ /^[0-9]+$/) { fail("malformed queue line (2 fields expected: time, packets): " substr($0, 1, 80)); next }
    if (!integ_line($1)) next
    if ($1 + 0 >= t0 && $1 + 0 <= t1) {
        q_n++; q_sum += $2; if ($2 + 0 > q_max) q_max = $2 + 0
    }
    next
}

function p95(values, n,    rank) {
    asort(values)
    rank = int(0.95 * n + 0.999999); if (rank < 1) rank = 1
    return values[rank]
}

# A periodic file (2 ping log, 3 queue samples) reaches the end within one event gap.
function side_end(i, name) {
    if (t_end == "") return
    if (SIDE_LINES[i] + 0 == 0) { if (i == 3) fail(name ": no queue sample (empty file)"); return }
    if (SIDE_LAST[i] >= 0 && t_end - SIDE_LAST[i] > SIDE_GAP[i] + 1e-9)
        fail(sprintf("%s ends at %.6f s, more than one event gap (%.6f s) before the end %s s: cut short?", name, SIDE_LAST[i], SIDE_GAP[i], t_end))
}

END {
    if (usage) exit 2
    if (side_file) side_keep(side_file)
    side_end(2, ARGV[2]); side_end(3, ARGV[3])
    for (i = 1; i <= 3; i++) {
        if (fingerprint != "" && !SIDE_HEAD[i]) fail(ARGV[i] ": empty file: no bufrepro header '# " fingerprint "'")
        else if (fingerprint != "" && !SIDE_ENDED[i]) fail(ARGV[i] ": no end line \"# end LINES SUM\" after its last line: cut short")
    }
    if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    if (rtt_n == 0) { print PROG ": no RTT sample in the window" > "/dev/stderr"; exit 3 }
    metric("tcp_rtt_samples", sprintf("%d", rtt_n))
    metric("tcp_rtt_s_mean", sprintf("%.6f", rtt_sum / rtt_n))
    metric("tcp_rtt_s_min", sprintf("%.6f", rtt_min))
    metric("tcp_rtt_s_p95", sprintf("%.6f", p95(rtt_all, rtt_n)))
    metric("tcp_rtt_s_max", sprintf("%.6f", rtt_max))
    if (ping_sent > 0) {
        metric("ping_sent", sprintf("%d", ping_sent))
        metric("ping_received", sprintf("%d", ping_n))
        metric("ping_loss_rate", sprintf("%.6f", 1 - ping_n / ping_sent))
        if (ping_n > 0) {
            metric("ping_rtt_ms_mean", sprintf("%.6f", ping_sum / ping_n))
            metric("ping_rtt_ms_p95", sprintf("%.6f", p95(ping_all, ping_n)))
            metric("ping_rtt_ms_max", sprintf("%.6f", ping_max))
            metric("ping_fwd_ms_mean", sprintf("%.6f", ping_fsum / ping_n))
        }
    }
    metric("qmon_samples", sprintf("%d", q_n))
    if (q_n > 0) {
        metric("qmon_queue_avg_pkts", sprintf("%.6f", q_sum / q_n))
        metric("qmon_queue_max_pkts", sprintf("%d", q_max))
    }
    metrics_print()
}
