# tally.awk - (library) the wired metrics as ns-2 counted them (WiredTally), read and checked in one pass.
#
# With -v tally=1 a study's program reads, instead of an ns-2 text trace, the small stream the
# patched ns-2's WiredTally writes at the end of a run (trace_level "tally"; ns2/README.md): ns
# hands every traced event's fields to a C++ accumulator that applies lib/wired.awk's
# definitions (lib/accounting.awk, delay.awk, throughput.awk, loss.awk, link.awk and
# integrity.awk's stream checks) with the same double arithmetic in the same order, so the
# metrics are byte-identical to wired.awk's on the text trace of the same run. Include this
# file BEFORE wired.awk: with tally=1 its rules consume every line (next) and its END rule
# exits, so wired.awk's rules never run; without tally=1 it does nothing.
#
# Reads (FS is a tab after the header; one record a line):
#   line 1         the run's header "# " fingerprint (lib/integrity.awk, integ_header)
#   tally  wired  2             the format and its version (the first line after the header)
#   param  NAME  TEXT           a parameter ns counted with (t0 t1 t_end max_age link_from
#                               link_to link_bps link_delay tcp_hdr), as the template gave it
#   events N                    trace events counted; last T / gap G: the last event's time
#                               and the largest gap between consecutive times (s)
#   nodes  N                    1 + the largest node named (link ends, address nodes)
#   link   A  B                 a link with an event (one line per link)
#   fail   MESSAGE              a check ns evaluated failed (the first 10); failed N: how many
#   metric NAME  VALUE          a metric, as wired.awk formats it (only when failed is 0)
#   # end LINES SUM             the end line of every stream (space-separated): the number of
#                               lines before it, the header included, and their checksum
#                               (lib/streamsum.awk; docs/trusting-a-run.md, "Stream format")
# Parameters (-v): tally=1; wired.awk's own (t0, t1, t_end, max_age, link_from, link_to,
#   link_bps, tcp_hdr, link_delay, n_nodes, links, fingerprint): each param line must equal the
#   parser's variable of that name as text (a stream counted for another window, link,
#   capacity or delay fails), and every parameter the parser has must be in the stream. A
#   reader that counts more in ns names those parameters in TALLY_MORE_PARAMS (space-separated,
#   set in a BEGIN before this file's; dumbbell/http_tally.awk: servers).
# Checks (each failure names the file, the line and the rule; nothing is printed then): the
#   header (another study, seed, end or run fails); the format line first; every line of a
#   known kind with its field count, no CR, no NUL; each param and each metric once; every
#   metric value a finite decimal ("" only for a *_loss_rate); the nodes and links the
#   scenario's (n_nodes, links); no event is after t_end (ns writes the stream when the run
#   ends, so a quiet end of the run is no failure: the end line proves the stream whole); every check ns reports failed fails here too ("ns: " and its message);
#   the end line present, last, with the right line count and checksum over the header
#   and every line (a truncated, duplicated, corrupted or spliced stream fails); and, re-checked from the metrics, acct_ok 1,
#   acct_sent = acct_received + acct_dropped + acct_in_flight, acct_trace_end >= t_end -
#   max_age, link_utilisation <= 1, data sent in [t0, t1] implies link_departed_pkts > 0.
# Output: the metrics, renamed per LOSS_RATE_NAME like lib/loss.awk (T_loss_rate -> the name
#   the study sets), "name<TAB>value" lines in LC_ALL=C order. Exit: as wired.awk (0, 2, 3).

@include "metrics.awk"
@include "integrity.awk"
@include "tally_stream.awk"

BEGIN {
    if (tally != "")
        tstream_init("tally\twired\t2", "WiredTally", "t0 t1 t_end max_age link_from link_to link_bps link_delay tcp_hdr" (TALLY_MORE_PARAMS == "" ? "" : " " TALLY_MORE_PARAMS), "^[0-9]+(\\.[0-9]+)?$", 0)
}

TALLY_ON { tally_line(); next }

# A line of the stream (lib/tally_stream.awk checks the frame): a metric, or malformed.
function tally_line() {
    if (tstream_line()) return
    if ($1 == "metric" && NF == 3) tally_metric($2, $3)
    else fail("malformed or unknown line (" NF " fields): " substr($0, 1, 80))
}

function tally_metric(name, value,    ty) {
    if (name in TALLY_M) { fail("duplicated metric " substr(name, 1, 60)); return }
    TALLY_M[name] = value
    if (value == "" && name ~ /_loss_rate$/) { }
    else if (value !~ /^-?[0-9]+(\.[0-9]+)?$/) { fail("metric " substr(name, 1, 60) " is not a finite number: '" substr(value, 1, 40) "'"); return }
    if (name ~ /_loss_rate$/) {
        ty = substr(name, 1, length(name) - 10)
        if (ty in LOSS_RATE_NAME) name = LOSS_RATE_NAME[ty]
    }
    metric(name, value)
}

END {
    if (!TALLY_ON) { }
    else if (WIRED_USAGE) exit 2
    else { tally_checks(); if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }; metrics_print(); exit 0 }
}

function tally_checks(    i, k, need, sent) {
    if (!tstream_checks()) return
    split("acct_ok acct_sent acct_received acct_dropped acct_in_flight acct_trace_end link_utilisation link_queue_avg_pkts link_queue_max_pkts link_departed_pkts", need, " ")
    for (i in need) if (!(need[i] in TALLY_M)) fail("metric " need[i] " missing")
    if (FAILED) return
    if (TALLY_M["acct_ok"] != "1") fail("acct_ok is " TALLY_M["acct_ok"] ", not 1")
    if (TALLY_M["acct_sent"] + 0 != TALLY_M["acct_received"] + TALLY_M["acct_dropped"] + TALLY_M["acct_in_flight"])
        fail("sent != received + dropped + in flight")
    # Quiet to the end is whole when the quiet is at most twice the run's own largest gap
    # between events: a slow CBR, idle web traffic, or TCP's retransmission back-off, which
    # doubles its wait each time; a scenario stopped early leaves a longer one.
    if (TALLY_M["acct_trace_end"] + 0 < t_end - max_age && t_end - TALLY_M["acct_trace_end"] > 2 * TALLY_V["gap"])
        fail("trace ends at " TALLY_M["acct_trace_end"] ", before t_end - max_age = " t_end - max_age " (s; max_age: the path's longest transit) and more than twice the run's largest gap between events (" TALLY_V["gap"] " s) before t_end: stopped early?")
    if (TALLY_M["link_utilisation"] + 0 > 1) fail("link_utilisation " TALLY_M["link_utilisation"] " > 1")
    for (k in TALLY_M) if (k ~ /_sent_pkts$/ && k != "ack_sent_pkts") sent += TALLY_M[k]
    if (sent > 0 && TALLY_M["link_departed_pkts"] + 0 == 0)
        fail("data packets were sent in [t0, t1] but the measured link " link_from "-" link_to " carried none")
    tstream_redundancy()
}
