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
#   tally  mixed  1             the format and its version (the first line after the header)
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
#   end    LINES  SUM           the number of lines after the header and before this one, and
#                               their checksum: h = (h * 31 + byte) mod 2147483647 over every
#                               byte of those lines, newlines included
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

BEGIN {
    if (tally != "") {
        TALLY_ON = 1
        for (i = 1; i < 256; i++) TALLY_ORD[sprintf("%c", i)] = i
        split("t0 t1 t_end max_age src dst fid hdr traced link_from link_to link_bps bin_s link_delay", TALLY_PNAMES, " ")
        for (i in TALLY_PNAMES) { TALLY_KNOWN[TALLY_PNAMES[i]] = 1; TALLY_GIVEN[TALLY_PNAMES[i]] = SYMTAB[TALLY_PNAMES[i]] "" }
        # vegas.awk's metrics; 2: may be empty (undefined), 1: always a number
        split("tcp_sent_pkts tcp_retransmitted_pkts tcp_delivered_pkts tcp_drops_total tcp_drops_wired tcp_drops_wireless tcp_stranded_pkts tcp_lost_pkts tcp_drops_after_delivery acct_sent acct_received acct_dropped acct_in_flight acct_stranded acct_trace_end acct_ok tcp_delay_samples tcp_throughput_kbps tcp_goodput_kbps tcp_recv_pkts link_utilisation link_queue_avg_pkts link_queue_max_pkts link_departed_pkts", k, " ")
        for (i in k) TALLY_WANT[k[i]] = 1
        split("tcp_efficiency_pct tcp_loss_rate tcp_delay_ms_mean tcp_delay_ms_p95 tcp_delay_ms_max delay_per_throughput", k, " ")
        for (i in k) TALLY_WANT[k[i]] = 2
    }
}

TALLY_ON && FNR == 1 {
    hdr = integ_header()
    FS = "\t"
    if (hdr) next
    $0 = $0
}

TALLY_ON { mixed_line(); next }

function mixed_line(    i, n, s) {
    if (TALLY_ENDED) { fail("line after the end line (a stream written twice?)"); return }
    if (index($0, "\r")) { fail("carriage return in the line (CRLF endings are rejected)"); return }
    if (index($0, "\0")) { fail("NUL byte in the line (a binary file?)"); return }
    if ($1 == "end") { mixed_end(); return }
    TALLY_LINES++
    s = $0 "\n"; n = length(s)
    for (i = 1; i <= n; i++) TALLY_H = (TALLY_H * 31 + TALLY_ORD[substr(s, i, 1)]) % 2147483647
    if (TALLY_LINES == 1) {
        if ($0 != "tally\tmixed\t1") fail("not a MixedTally stream of format 1: '" substr($0, 1, 60) "'")
        return
    }
    if ($1 == "param" && NF == 3) mixed_param($2, $3)
    else if ($1 == "metric" && NF == 3) mixed_metric($2, $3)
    else if ($1 == "bin" && NF == 3) mixed_bin($2, $3)
    else if ($1 == "link" && NF == 3) {
        if (!integ_link($2, $3)) fail("link " $2 "-" $3 " is not one of the scenario's")
        if (!integ_node($2) || !integ_node($3)) fail("node not in the scenario (" n_nodes " nodes): link " $2 "-" $3)
    }
    else if ($1 == "fail" && NF == 2) { fail("ns: " $2); TALLY_FAILS++ }
    else if (NF == 2 && ($1 == "events" || $1 == "last" || $1 == "gap" || $1 == "nodes" || $1 == "failed")) {
        if ($2 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) fail($1 " is not a number: '" substr($2, 1, 40) "'")
        else if ($1 in TALLY_V) fail("duplicated " $1 " line")
        else TALLY_V[$1] = $2
    }
    else fail("malformed or unknown line (" NF " fields): " substr($0, 1, 80))
}

function mixed_param(name, text) {
    if (!(name in TALLY_KNOWN)) { fail("unknown parameter " substr(name, 1, 40)); return }
    if (name in TALLY_P) { fail("duplicated parameter " name); return }
    TALLY_P[name] = text
    if (text "" != TALLY_GIVEN[name])
        fail("stream counted with " name " " substr(text, 1, 40) ", this run has '" TALLY_GIVEN[name] "' (a stream of another scenario?)")
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

function mixed_end() {
    TALLY_ENDED = 1
    if (NF != 3 || $2 "" != TALLY_LINES "" || $3 "" != TALLY_H "")
        fail("end line '" substr($0, 1, 60) "' does not match the stream (" TALLY_LINES " lines, checksum " TALLY_H "): lines lost, repeated or changed")
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

function mixed_checks(    i, k, need, m) {
    if (!TALLY_ENDED) fail("no end line: the stream was cut short (ns killed, or a truncated copy)")
    if (TALLY_LINES == 0) { fail("empty stream"); return }
    for (i in TALLY_PNAMES) {
        k = TALLY_PNAMES[i]
        if (TALLY_GIVEN[k] != "" && !(k in TALLY_P)) fail("parameter " k " missing from the stream")
    }
    split("events last gap nodes failed", need, " ")
    for (i in need) if (!(need[i] in TALLY_V)) fail("no " need[i] " line")
    if (TALLY_V["failed"] + 0 != TALLY_FAILS + 0 && !(TALLY_V["failed"] > 10 && TALLY_FAILS == 10))
        fail("failed " TALLY_V["failed"] " but " TALLY_FAILS " fail lines")
    if (TALLY_V["failed"] + 0 > 0) return
    if (TALLY_V["events"] + 0 == 0) fail("empty stream (no event counted)")
    if (n_nodes != "" && TALLY_V["nodes"] + 0 > n_nodes + 0) fail("node not in the scenario (" n_nodes " nodes): " TALLY_V["nodes"] - 1)
    if (TALLY_V["last"] + 0 > t_end + 1e-6) fail("time " TALLY_V["last"] " after the scenario's end " t_end)
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
}
