# tally_stream.awk - (library) the frame every in-ns tally stream shares (WiredTally: tally.awk; MixedTally: mixed_tally.awk).
#
# Reads (FS is a tab after the header; one record a line): line 1, the run's header "# "
#   fingerprint (lib/integrity.awk, integ_header); line 2 may be "#@ " and the scenario
#   program's version and parameters (summed, not read); then the format line; "param NAME TEXT";
#   "link A B"; "fail MESSAGE"; "events N", "last T", "gap G", "nodes N", "failed N"; and last
#   "# end LINES SUM", the end line every stream has (lib/streamsum.awk; docs/trusting-a-run.md,
#   "Stream format"): the line count before it, the header included, and their checksum. Any
#   other line kind (metric, bin) is the checker's own: tstream_line returns 0 for it.
# Needs lib/metrics.awk (fail) and lib/integrity.awk (integ_header, integ_link, integ_node).
# Functions:
#   tstream_init(format, class, names, numre, res)  in BEGIN: the expected format line, the
#     tally's class (for messages), the parameter names ns counted with (space-separated; each
#     must equal the parser's variable of that name as text), the pattern of a number on the
#     events/last/gap/nodes/failed lines, and how far the last time may pass t_end (s). Sets
#     TALLY_ON.
#   tstream_line()    on every line after the header: 1 when the line was the frame's (or failed
#     here: CR, NUL, a line after the end line), 0 for the checker's own kinds.
#   tstream_checks()  in END, first: the end line present, the stream not empty, every given
#     parameter in it, each count line once, the fail lines agreeing with "failed", events
#     counted, nodes and the last time within the scenario. 1 when the checker's own checks
#     should follow (no failure reported by ns), else 0.
# Globals: TALLY_P (param texts), TALLY_V (count lines), TALLY_LINES, TALLY_ENDED,
#   TALLY_FAILS.

function tstream_init(format, class, names, numre, res,    i) {
    TALLY_ON = 1
    TSTREAM_FORMAT = format; TSTREAM_CLASS = class; TSTREAM_NUMRE = numre; TSTREAM_RES = res
    split(names, TALLY_PNAMES, " ")
    # the parameters as given (before the reader's BEGIN sets its defaults, e.g. tcp_hdr); a
    # variable neither given nor named by the program is not in SYMTAB: empty
    for (i in TALLY_PNAMES) { TALLY_KNOWN[TALLY_PNAMES[i]] = 1; TALLY_GIVEN[TALLY_PNAMES[i]] = (TALLY_PNAMES[i] in SYMTAB) ? SYMTAB[TALLY_PNAMES[i]] "" : "" }
}

TALLY_ON && FNR == 1 {
    hdr = integ_header()
    FS = "\t"
    if (hdr) next
    $0 = $0
}

function tstream_line(    n) {
    if (TALLY_ENDED) { fail("line after the end line (a stream written twice?)"); return 1 }
    if (index($0, "\r")) { fail("carriage return in the line (CRLF endings are rejected)"); return 1 }
    if (index($0, "\0")) { fail("NUL byte in the line (a binary file?)"); return 1 }
    if (substr($0, 1, 5) == "# end") { TALLY_ENDED = 1; ssum_end($0); return 1 }
    TALLY_LINES++
    n = split($0, TSTREAM_F, " ")
    ssum_fields($0, TSTREAM_F, n)
    # line 2 may be the scenario program's version and parameters (the ns-3 programs write it):
    # summed, and for the reader of the stream only
    if (FNR == 2 && substr($0, 1, 3) == "#@ ") { TALLY_LINES--; return 1 }
    if (TALLY_LINES == 1) {
        if ($0 != TSTREAM_FORMAT) fail("not a " TSTREAM_CLASS " stream of format 2: '" substr($0, 1, 60) "'")
        return 1
    }
    if ($1 == "param" && NF == 3) tstream_param($2, $3)
    else if ($1 == "link" && NF == 3) {
        if (!integ_link($2, $3)) fail("link " $2 "-" $3 " is not one of the scenario's")
        if (!integ_node($2) || !integ_node($3)) fail("node not in the scenario (" n_nodes " nodes): link " $2 "-" $3)
    }
    else if ($1 == "fail" && NF == 2) { fail("ns: " $2); TALLY_FAILS++ }
    else if (NF == 2 && ($1 == "events" || $1 == "last" || $1 == "gap" || $1 == "nodes" || $1 == "failed")) {
        if ($2 !~ TSTREAM_NUMRE) fail($1 " is not a number: '" substr($2, 1, 40) "'")
        else if ($1 in TALLY_V) fail("duplicated " $1 " line")
        else TALLY_V[$1] = $2
    }
    else return 0
    return 1
}

function tstream_param(name, text) {
    if (!(name in TALLY_KNOWN)) { fail("unknown parameter " substr(name, 1, 40)); return }
    if (name in TALLY_P) { fail("duplicated parameter " name); return }
    TALLY_P[name] = text
    if (text "" != TALLY_GIVEN[name])
        fail("stream counted with " name " " substr(text, 1, 40) ", this run has '" TALLY_GIVEN[name] "' (a stream of another scenario?)")
}

function tstream_checks(    i, k, need) {
    if (!TALLY_ENDED) fail("no end line \"# end LINES SUM\": the stream was cut short (ns killed, or a truncated copy)")
    if (TALLY_LINES == 0) { fail("empty stream"); return 0 }
    for (i in TALLY_PNAMES) {
        k = TALLY_PNAMES[i]
        if (TALLY_GIVEN[k] != "" && !(k in TALLY_P)) fail("parameter " k " missing from the stream")
    }
    split("events last gap nodes failed", need, " ")
    for (i in need) if (!(need[i] in TALLY_V)) fail("no " need[i] " line")
    if (TALLY_V["failed"] + 0 != TALLY_FAILS + 0 && !(TALLY_V["failed"] > 10 && TALLY_FAILS == 10))
        fail("failed " TALLY_V["failed"] " but " TALLY_FAILS " fail lines")
    if (TALLY_V["failed"] + 0 > 0) return 0
    if (TALLY_V["events"] + 0 == 0) fail("empty stream (no event counted)")
    if (n_nodes != "" && TALLY_V["nodes"] + 0 > n_nodes + 0) fail("node not in the scenario (" n_nodes " nodes): " TALLY_V["nodes"] - 1)
    if (TALLY_V["last"] + 0 > t_end + TSTREAM_RES) fail("time " TALLY_V["last"] " after the scenario's end " t_end)
    return 1
}

# In END, after the checker's checks: where two metrics of the stream measure the same thing,
# they agree (issue 42). For every prefix P (tcp, cbr, ack, ...) that has them:
#   P_throughput_kbps = P_rx_bytes x 8 / (t1 - t0) / 1000 (the bytes received over the window;
#     within the printing's rounding); P_goodput_kbps <= P_throughput_kbps;
#   P_loss_rate = P_drops_total / P_sent_pkts (not where P_lost_pkts exists: vegas's own rate); P_drops_total = P_drops_link + P_drops_queue;
#   a maximum >= the mean and the 95th percentile of the same quantity (NAME_max, NAME_mean,
#   NAME_p95), link_queue_max_pkts >= link_queue_avg_pkts.
# What it cannot see: an edit that keeps them in step (a rate and its bytes changed together), or
# of a metric with no twin; re-simulation (bufrepro verify) can.
function tstream_redundancy(    k, p, v, want, window, lost) {
    window = t1 - t0
    for (k in TALLY_M) {
        if (TALLY_M[k] == "") continue
        v = TALLY_M[k] + 0
        if (k ~ /_rx_bytes$/ && window > 0) {
            p = substr(k, 1, length(k) - 9)
            if ((p "_throughput_kbps") in TALLY_M) {
                want = v * 8 / window / 1000
                if (tstream_far(TALLY_M[p "_throughput_kbps"] + 0, want, 1e-5))
                    fail(p "_throughput_kbps " TALLY_M[p "_throughput_kbps"] " is not " p "_rx_bytes " TALLY_M[k] " over the window (" sprintf("%.6f", want) ")")
            }
        } else if (k ~ /_goodput_kbps$/) {
            p = substr(k, 1, length(k) - 13)
            if ((p "_throughput_kbps") in TALLY_M && v > TALLY_M[p "_throughput_kbps"] + 1e-6)
                fail(k " " TALLY_M[k] " > " p "_throughput_kbps " TALLY_M[p "_throughput_kbps"])
        } else if (k ~ /_loss_rate$/) {
            p = substr(k, 1, length(k) - 10)
            lost = p "_drops_total"  # (vegas's loss rate has its own definition: not checked)
            if (!((p "_lost_pkts") in TALLY_M) && lost in TALLY_M && (p "_sent_pkts") in TALLY_M && TALLY_M[p "_sent_pkts"] + 0 > 0) {
                want = TALLY_M[lost] / TALLY_M[p "_sent_pkts"]
                if (tstream_far(v, want, 6e-7))
                    fail(k " " TALLY_M[k] " is not " lost " / " p "_sent_pkts (" sprintf("%.6f", want) ")")
            }
        } else if (k ~ /_drops_total$/) {
            p = substr(k, 1, length(k) - 12)
            if ((p "_drops_link") in TALLY_M && (p "_drops_queue") in TALLY_M && v != TALLY_M[p "_drops_link"] + TALLY_M[p "_drops_queue"])
                fail(k " " TALLY_M[k] " != " p "_drops_link + " p "_drops_queue")
        } else if (k ~ /_max$/) {
            p = substr(k, 1, length(k) - 4)
            if ((p "_mean") in TALLY_M && TALLY_M[p "_mean"] != "" && TALLY_M[p "_mean"] > v + 1e-6) fail(k " " TALLY_M[k] " < " p "_mean " TALLY_M[p "_mean"])
            if ((p "_p95") in TALLY_M && TALLY_M[p "_p95"] != "" && TALLY_M[p "_p95"] > v + 1e-6) fail(k " " TALLY_M[k] " < " p "_p95 " TALLY_M[p "_p95"])
        }
    }
    if ("link_queue_max_pkts" in TALLY_M && "link_queue_avg_pkts" in TALLY_M && TALLY_M["link_queue_avg_pkts"] > TALLY_M["link_queue_max_pkts"] + 1e-6)
        fail("link_queue_max_pkts " TALLY_M["link_queue_max_pkts"] " < link_queue_avg_pkts " TALLY_M["link_queue_avg_pkts"])
}

function tstream_far(x, y, tol) { return x - y > tol || y - x > tol }
