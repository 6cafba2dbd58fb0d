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
#   tally  wired  1             the format and its version (the first line after the header)
#   param  NAME  TEXT           a parameter ns counted with (t0 t1 t_end max_age link_from
#                               link_to link_bps link_delay tcp_hdr), as the template gave it
#   events N                    trace events counted; last T / gap G: the last event's time
#                               and the largest gap between consecutive times (s)
#   nodes  N                    1 + the largest node named (link ends, address nodes)
#   link   A  B                 a link with an event (one line per link)
#   fail   MESSAGE              a check ns evaluated failed (the first 10); failed N: how many
#   metric NAME  VALUE          a metric, as wired.awk formats it (only when failed is 0)
#   end    LINES  SUM           the number of lines after the header and before this one, and
#                               their checksum: h = (h * 31 + byte) mod 2147483647 over every
#                               byte of those lines, newlines included
# Parameters (-v): tally=1; wired.awk's own (t0, t1, t_end, max_age, link_from, link_to,
#   link_bps, tcp_hdr, link_delay, n_nodes, links, fingerprint): each param line must equal the
#   parser's variable of that name as text (a stream counted for another window, link,
#   capacity or delay fails), and every parameter the parser has must be in the stream.
# Checks (each failure names the file, the line and the rule; nothing is printed then): the
#   header (another study, seed, end or run fails); the format line first; every line of a
#   known kind with its field count, no CR, no NUL; each param and each metric once; every
#   metric value a finite decimal ("" only for a *_loss_rate); the nodes and links the
#   scenario's (n_nodes, links); no event is after t_end (ns writes the stream when the run
#   ends, so a quiet end of the run is no failure: the end line proves the stream whole); every check ns reports failed fails here too ("ns: " and its message);
#   the end line present, last, with the right line count and checksum (a truncated,
#   duplicated or corrupted stream fails); and, re-checked from the metrics, acct_ok 1,
#   acct_sent = acct_received + acct_dropped + acct_in_flight, acct_trace_end >= t_end -
#   max_age, link_utilisation <= 1, data sent in [t0, t1] implies link_departed_pkts > 0.
# Output: the metrics, renamed per LOSS_RATE_NAME like lib/loss.awk (T_loss_rate -> the name
#   the study sets), "name<TAB>value" lines in LC_ALL=C order. Exit: as wired.awk (0, 2, 3).

@include "metrics.awk"
@include "integrity.awk"

BEGIN {
    if (tally != "") {
        TALLY_ON = 1
        for (i = 1; i < 256; i++) TALLY_ORD[sprintf("%c", i)] = i
        split("t0 t1 t_end max_age link_from link_to link_bps link_delay tcp_hdr", TALLY_PNAMES, " ")
        # the parameters as given (before wired.awk's BEGIN sets its defaults, e.g. tcp_hdr)
        for (i in TALLY_PNAMES) { TALLY_KNOWN[TALLY_PNAMES[i]] = 1; TALLY_GIVEN[TALLY_PNAMES[i]] = SYMTAB[TALLY_PNAMES[i]] "" }
    }
}

TALLY_ON && FNR == 1 {
    hdr = integ_header()
    FS = "\t"
    if (hdr) next
    $0 = $0
}

TALLY_ON { tally_line(); next }

function tally_line(    i, n, s) {
    if (TALLY_ENDED) { fail("line after the end line (a stream written twice?)"); return }
    if (index($0, "\r")) { fail("carriage return in the line (CRLF endings are rejected)"); return }
    if (index($0, "\0")) { fail("NUL byte in the line (a binary file?)"); return }
    if ($1 == "end") { tally_end(); return }
    TALLY_LINES++
    s = $0 "\n"; n = length(s)
    for (i = 1; i <= n; i++) TALLY_H = (TALLY_H * 31 + TALLY_ORD[substr(s, i, 1)]) % 2147483647
    if (TALLY_LINES == 1) {
        if ($0 != "tally\twired\t1") fail("not a WiredTally stream of format 1: '" substr($0, 1, 60) "'")
        return
    }
    if ($1 == "param" && NF == 3) tally_param($2, $3)
    else if ($1 == "metric" && NF == 3) tally_metric($2, $3)
    else if ($1 == "link" && NF == 3) {
        if (!integ_link($2, $3)) fail("link " $2 "-" $3 " is not one of the scenario's")
        if (!integ_node($2) || !integ_node($3)) fail("node not in the scenario (" n_nodes " nodes): link " $2 "-" $3)
    }
    else if ($1 == "fail" && NF == 2) { fail("ns: " $2); TALLY_FAILS++ }
    else if (NF == 2 && ($1 == "events" || $1 == "last" || $1 == "gap" || $1 == "nodes" || $1 == "failed")) {
        if ($2 !~ /^[0-9]+(\.[0-9]+)?$/) fail($1 " is not a number: '" substr($2, 1, 40) "'")
        else if ($1 in TALLY_V) fail("duplicated " $1 " line")
        else TALLY_V[$1] = $2
    }
    else fail("malformed or unknown line (" NF " fields): " substr($0, 1, 80))
}

function tally_param(name, text) {
    if (!(name in TALLY_KNOWN)) { fail("unknown parameter " substr(name, 1, 40)); return }
    if (name in TALLY_P) { fail("duplicated parameter " name); return }
    TALLY_P[name] = text
    if (text "" != TALLY_GIVEN[name])
        fail("stream counted with " name " " substr(text, 1, 40) ", this run has '" TALLY_GIVEN[name] "' (a stream of another scenario?)")
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

function tally_end() {
    TALLY_ENDED = 1
    if (NF != 3 || $2 "" != TALLY_LINES "" || $3 "" != TALLY_H "")
        fail("end line '" substr($0, 1, 60) "' does not match the stream (" TALLY_LINES " lines, checksum " TALLY_H "): lines lost, repeated or changed")
}

END {
    if (!TALLY_ON) { }
    else if (WIRED_USAGE) exit 2
    else { tally_checks(); if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }; metrics_print(); exit 0 }
}

function tally_checks(    i, k, need, sent) {
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
    if (TALLY_V["last"] + 0 > t_end + 0) fail("time " TALLY_V["last"] " after the scenario's end " t_end)
    split("acct_ok acct_sent acct_received acct_dropped acct_in_flight acct_trace_end link_utilisation link_queue_avg_pkts link_queue_max_pkts link_departed_pkts", need, " ")
    for (i in need) if (!(need[i] in TALLY_M)) fail("metric " need[i] " missing")
    if (FAILED) return
    if (TALLY_M["acct_ok"] != "1") fail("acct_ok is " TALLY_M["acct_ok"] ", not 1")
    if (TALLY_M["acct_sent"] + 0 != TALLY_M["acct_received"] + TALLY_M["acct_dropped"] + TALLY_M["acct_in_flight"])
        fail("sent != received + dropped + in flight")
    if (TALLY_M["acct_trace_end"] + 0 < t_end - max_age)
        fail("trace ends at " TALLY_M["acct_trace_end"] ", before t_end - max_age = " t_end - max_age)
    if (TALLY_M["link_utilisation"] + 0 > 1) fail("link_utilisation " TALLY_M["link_utilisation"] " > 1")
    for (k in TALLY_M) if (k ~ /_sent_pkts$/ && k != "ack_sent_pkts") sent += TALLY_M[k]
    if (sent > 0 && TALLY_M["link_departed_pkts"] + 0 == 0)
        fail("data packets were sent in [t0, t1] but the measured link " link_from "-" link_to " carried none")
}
