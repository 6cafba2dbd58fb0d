# mixed_tally.awk - (library) vegas.awk's metrics as ns-2 counted them (MixedTally), read and checked in one pass.
#
# With -v tally=1 awk/vegas/vegas.awk reads, instead of ns-2's wired-cum-wireless text trace, the
# small stream the patched ns-2's MixedTally writes at the end of a run (trace_level "tally";
# ns2/README.md, ns2/patches/0004): ns hands every traced event's fields (wired lines, wireless
# "new trace" lines, movement lines: the values the text line would carry, times as the text
# prints them) to a C++ accumulator that applies vegas.awk's definitions (with lib/link.awk and
# lib/integrity.awk's stream checks) with the same double arithmetic in the same order, so the
# metrics and the series are byte-identical to vegas.awk's on the text trace of the same run.
# Include this file FIRST in vegas.awk: with tally=1 its rules consume every line (next) and its
# END rule exits, so vegas.awk's own rules never run; without tally=1 it does nothing.
#
# Reads (FS is a tab after the header; one record a line):
#   line 1         the run's header "# " fingerprint (lib/integrity.awk, integ_header)
#   tally  mixed  2             the format and its version (the first line after the header)
#   param  NAME  TEXT           a parameter ns counted with (t0 t1 t_end max_age src dst fid hdr
#                               traced link_from link_to link_bps bin_s link_delay), as the
#                               template gave it
#   events N                    trace lines counted (movement lines included); last T / gap G:
#                               the largest time and the largest gap between consecutive times
#                               (s, "%.17g": the accumulator's doubles)
#   nodes  N                    1 + the largest node named (wired link ends, wireless -Ni)
#   link   A  B                 a wired link with an event (one line per link)
#   fail   MESSAGE              a check ns evaluated failed (the first 10); failed N: how many
#   metric NAME  VALUE          a metric, as vegas.awk formats it (only when failed is 0)
#   bin    K  BITS              the series: bits delivered in bin K (only non-empty bins)
#   # end LINES SUM             the end line of every stream (space-separated): the number of
#                               lines before it, the header included, and their checksum
#                               (lib/streamsum.awk; docs/trusting-a-run.md, "Stream format")
# Parameters (-v): tally=1; vegas.awk's own: each param line must equal the parser's variable of
#   that name as text (a stream counted for another window, flow, link, capacity, delay or bin
#   fails), and every parameter the parser has must be in the stream.
# Checks (each failure names the file, the line and the rule; nothing is printed then): the
#   header (another study, seed, end or run fails); the format line first; every line of a
#   known kind with its field count, no CR, no NUL; each param, metric and bin once; exactly
#   vegas.awk's metrics, every value a finite decimal ("" only where vegas.awk prints one);
#   bins non-negative integers within the window; the nodes and links the scenario's (n_nodes,
#   links); no time is after t_end (ns writes the stream at the run's end: a quiet end of the
#   run is no failure, the end line proves the stream whole); every
#   check ns reports failed fails here too ("ns: " and its message); the end line present, last,
#   with the right line count and checksum (a truncated, duplicated or corrupted stream fails);
#   and, re-checked from the metrics, acct_ok 1, acct_sent = acct_received + acct_dropped +
#   acct_in_flight + acct_stranded, acct_trace_end >= t_end - max_age, tcp_lost_pkts =
#   tcp_drops_total + tcp_stranded_pkts, tcp_drops_total = tcp_drops_wired +
#   tcp_drops_wireless, link_utilisation <= 1, data sent in [t0, t1] implies
#   link_departed_pkts > 0.
# Output: the metrics, "name<TAB>value" lines in LC_ALL=C order, and the series file `series`
#   written by vegas.awk's own loop (every bin of [t0, t1], empty ones 0). Exit: as vegas.awk.

@include "metrics.awk"
@include "integrity.awk"
@include "tally_stream.awk"

BEGIN {
    if (tally != "") {
        tstream_init("tally\tmixed\t2", "MixedTally", "t0 t1 t_end max_age src dst fid hdr traced link_from link_to link_bps bin_s link_delay", "^[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$", 1e-6)
        # vegas.awk's metrics; 2: may be empty (undefined), 1: always a number
        split("tcp_sent_pkts tcp_retransmitted_pkts tcp_delivered_pkts tcp_drops_total tcp_drops_wired tcp_drops_wireless tcp_stranded_pkts tcp_lost_pkts tcp_drops_after_delivery acct_sent acct_received acct_dropped acct_in_flight acct_stranded acct_trace_end acct_ok tcp_delay_samples tcp_throughput_kbps tcp_goodput_kbps tcp_recv_pkts link_utilisation link_queue_avg_pkts link_queue_max_pkts link_departed_pkts", k, " ")
        for (i in k) TALLY_WANT[k[i]] = 1
        split("tcp_efficiency_pct tcp_loss_rate tcp_delay_ms_mean tcp_delay_ms_p95 tcp_delay_ms_max delay_per_throughput", k, " ")
        for (i in k) TALLY_WANT[k[i]] = 2
    }
}

TALLY_ON { mixed_line(); next }

# A line of the stream (lib/tally_stream.awk checks the frame): a metric, a bin, or malformed.
function mixed_line() {
    if (tstream_line()) return
    if ($1 == "metric" && NF == 3) mixed_metric($2, $3)
    else if ($1 == "bin" && NF == 3) mixed_bin($2, $3)
    else fail("malformed or unknown line (" NF " fields): " substr($0, 1, 80))
}

function mixed_metric(name, value) {
    if (!(name in TALLY_WANT)) { fail("unknown metric " substr(name, 1, 60)); return }
    if (name in TALLY_M) { fail("duplicated metric " substr(name, 1, 60)); return }
    TALLY_M[name] = value
    if (value == "" && TALLY_WANT[name] == 2) { }
    else if (value !~ /^-?[0-9]+(\.[0-9]+)?$/) { fail("metric " substr(name, 1, 60) " is not a finite number: '" substr(value, 1, 40) "'"); return }
    metric(name, value)
}

function mixed_bin(k, bits) {
    if (k !~ /^[0-9]+$/ || bits !~ /^[0-9]+$/) { fail("bin '" substr(k, 1, 20) "' '" substr(bits, 1, 20) "' is not two non-negative integers"); return }
    if (k + 0 > (t1 - t0) / bin_s + 1) { fail("bin " k " is outside [t0, t1]"); return }
    if ((k + 0) in TALLY_BIN) { fail("duplicated bin " k); return }
    TALLY_BIN[k + 0] = bits + 0
}

END {
    if (!TALLY_ON) { }
    else if (usage) exit 2
    else {
        mixed_checks()
        if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
        metrics_print()
        nb = int((t1 - t0) / bin_s + 1e-9)
        for (b = 0; b < nb; b++) printf "%.6f %.6f\n", t0 + b * bin_s, TALLY_BIN[b] / bin_s / 1000 > series
        close(series)
        exit 0
    }
}

function mixed_checks(    k, m) {
    if (!tstream_checks()) return
    for (k in TALLY_WANT) if (!(k in TALLY_M)) fail("metric " k " missing")
    if (FAILED) return
    m["x"]; delete m
    for (k in TALLY_M) m[k] = TALLY_M[k] + 0
    if (TALLY_M["acct_ok"] != "1") fail("acct_ok is " TALLY_M["acct_ok"] ", not 1")
    if (m["acct_sent"] != m["acct_received"] + m["acct_dropped"] + m["acct_in_flight"] + m["acct_stranded"])
        fail("sent != received + dropped + in flight + stranded")
    if (m["acct_trace_end"] < t_end - max_age)
        fail("trace ends at " TALLY_M["acct_trace_end"] ", before t_end - max_age = " t_end - max_age)
    if (m["tcp_lost_pkts"] != m["tcp_drops_total"] + m["tcp_stranded_pkts"]) fail("tcp_lost_pkts != tcp_drops_total + tcp_stranded_pkts")
    if (m["tcp_drops_total"] != m["tcp_drops_wired"] + m["tcp_drops_wireless"]) fail("tcp_drops_total != tcp_drops_wired + tcp_drops_wireless")
    if (m["link_utilisation"] > 1) fail("link_utilisation " TALLY_M["link_utilisation"] " > 1")
    if (m["tcp_sent_pkts"] > 0 && m["link_departed_pkts"] == 0)
        fail("data packets were sent in [t0, t1] but the bottleneck " link_from "-" link_to " carried none")
    tstream_redundancy()
}
