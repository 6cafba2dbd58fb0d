# integrity.awk - (library) is the stream whole and of its own run? The checks every parser shares.
#
# Reads: no field of its own; the reader passes the line's time field, nodes and link ends. Needs
#        lib/metrics.awk (fail). Every failure names the file, the line number and the rule.
# Parameters (-v, from the run record; see bufrepro.backends.base and each study's parse_args):
#   t_end    the scenario's end (s; empty: the end is not checked - hand-made inputs only, the
#            pipeline always passes it)
#   links    the scenario's links, "a-b,c-d,..." (a link may appear in either direction; empty:
#            links are not checked)
#   n_nodes  the scenario's node count: node ids are 0 .. n_nodes - 1 (empty: not checked)
#   fingerprint  the run's header text "bufrepro STUDY run=DIGEST seed=N end=T_END"
#            (bufrepro.backends.fingerprint; empty: no header required - hand-made inputs only,
#            the pipeline always passes it)
# Globals: INTEG_RES - how far a line's time may lie below an earlier line's (s): 0 (never) for
#   streams written with one time format; a reader mixing formats of different resolution sets
#   it (vegas: wired lines print microseconds, wireless lines nanoseconds) before integ_init();
#   INTEG_REPEAT - set to 1 around a line that may legitimately repeat the previous one (hstcp:
#   two flow-monitor samples at t0).
# Functions:
#   integ_init()      in BEGIN, after the parameters are checked
#   integ_line(ts)    every line, first, with its time field ts; returns 1 when the line passes:
#                     - no carriage return: CRLF line endings are REJECTED (ns-2 writes "\n"
#                       only; a CR means the stream went through another tool), as is a NUL byte
#                     - ts is a number: digits, an optional '.' and digits, an optional exponent
#                     - times never decrease: ts >= the largest earlier time - INTEG_RES
#                     - no time after the end: ts <= t_end + INTEG_RES
#                     - no duplicated line: a line identical to an earlier line of the same time
#                       (ns-2 never writes one event twice)
#   integ_node(n)     1 when node n belongs to the scenario (always 1 without n_nodes);
#                     INTEG_NODE[n] exists for each (INTEG_NN: their count), INTEG_LINKS[a, b]
#                     for each link (both directions), for a reader that inlines the checks
#   integ_link(a, b)  1 when a-b or b-a is one of `links` (always 1 without links)
#   integ_header()    on the stream's first line (FNR == 1), before any other check: with
#                     `fingerprint` set the line must be "# " fingerprint, the header the
#                     scenario writes first; otherwise the failure names what differs: no
#                     bufrepro header at all, the study ("stream of another study"), the seed,
#                     the end, or the run digest alone (the same seed and end: another value of
#                     a swept key, e.g. the buffer). Without `fingerprint` a header is skipped
#                     unchecked. Returns 1 when the line is a header (its first field "#": the
#                     reader skips it), 0 for a stream line, read as usual.
#   integ_footer()    on a line whose first field is "#" after line 1: it must be the end line
#                     "# end LINES SUM", the last line the simulator writes (finish, after ns-2
#                     flushed the trace), whose count and checksum must match every line
#                     before it, the header included (lib/streamsum.awk: the reader passes
#                     each line to ssum_line; integ_header does for the header); a bare "# end"
#                     only without a fingerprint (hand-made inputs); a second one fails.
#                     Returns 1 (the reader skips the line). INTEG_ENDED is 1 from then on: a
#                     reader fails any line after it ("appended?").
#   integ_end()       in END: the stream is not empty and reaches the end. With INTEG_WANT_END
#                     set (by a reader whose scenario writes "# end": the text traces of
#                     dumbbell, ramya and vegas, with a fingerprint) the end line must be there
#                     ("cut short" otherwise); the reader then checks that its last event
#                     reaches t_end - max_age itself (acct_end, vegas). Otherwise
#                     (hand-made inputs, hstcp's sampled stream), with t_last the largest time
#                     read and INTEG_GAP the largest gap between two consecutive distinct times,
#                     t_end - t_last <= INTEG_GAP ("within one event gap of the expected end": a
#                     heuristic, since a run may legitimately end quiet, e.g. every flow in a
#                     retransmission back-off and a slow CBR; a stream cut short leaves a gap at
#                     its end that no event gap inside it matches)
# Prints: no metric; failures through fail().

@include "streamsum.awk"

function integ_init(    n, i, ab, parts) {
    INTEG_LAST = -1; INTEG_GAP = 0; INTEG_LINES = 0  # -1: no time yet (numeric: compared per line)
    INTEG_NN = n_nodes + 0
    if (n_nodes != "") for (i = 0; i < INTEG_NN; i++) INTEG_NODE[i] = 1
    if (links != "") {
        n = split(links, parts, ",")
        for (i = 1; i <= n; i++) {
            split(parts[i], ab, "-")
            INTEG_LINKS[ab[1], ab[2]] = 1; INTEG_LINKS[ab[2], ab[1]] = 1
        }
    }
}

function integ_line(ts,    t) {
    INTEG_LINES++
    if (index($0, "\r")) { fail("carriage return in the line (CRLF endings are rejected)"); return 0 }
    if (index($0, "\0")) { fail("NUL byte in the line (a binary file?)"); return 0 }
    if (ts !~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) { fail("time is not a number: '" substr(ts, 1, 40) "'"); return 0 }
    t = ts + 0
    if (t > INTEG_LAST) {
        if (INTEG_LAST >= 0 && t - INTEG_LAST > INTEG_GAP) INTEG_GAP = t - INTEG_LAST
        INTEG_LAST = t; INTEG_FIRST = $0; INTEG_N = 1
    } else if (t < INTEG_LAST - INTEG_RES) {
        fail("time goes back: " ts " after " INTEG_LAST); return 0
    } else if (!integ_same()) return 0
    if (t_end != "" && t > t_end + INTEG_RES) { fail("time " ts " after the scenario's end " t_end); return 0 }
    return 1
}

# A line at the time of the line before: no duplicate of the lines at that time. Most times hold
# one or two lines (a wired '+' and '-' of one packet, a receipt and the next hop's enqueue), so
# the second line is compared with the first (INTEG_FIRST) as a string, and only from the third
# line on are the lines of that time kept in INTEG_SAME (as a set: one lookup per line).
function integ_same() {
    if (INTEG_N++ == 1) {
        if (!INTEG_REPEAT && $0 == INTEG_FIRST) {
            fail("duplicated line (identical to an earlier line at time " INTEG_LAST ")"); return 0
        }
        INTEG_SECOND = $0
        return 1
    }
    if (INTEG_N == 3) { delete INTEG_SAME; INTEG_SAME[INTEG_FIRST] = 1; INTEG_SAME[INTEG_SECOND] = 1 }
    if (!INTEG_REPEAT && ($0 in INTEG_SAME)) {
        fail("duplicated line (identical to an earlier line at time " INTEG_LAST ")"); return 0
    }
    INTEG_SAME[$0] = 1
    return 1
}

function integ_node(n) { return n_nodes == "" || (n in INTEG_NODE) }

function integ_link(a, b) { return links == "" || ((a, b) in INTEG_LINKS) }

function integ_footer() {
    if ($1 != "#" || $2 != "end") { fail("not a trace line (a '#' line other than the header and the end line): " substr($0, 1, 80)); return 1 }
    INTEG_ENDED = 1
    # Hand-made inputs (no fingerprint) may end with a bare "# end"; a run's stream ends with
    # "# end LINES SUM" (lib/streamsum.awk), which must match every line before it.
    if (fingerprint != "" || $0 != "# end") ssum_end($0)
    return 1
}

function integ_end() {
    if (INTEG_LINES == 0) { fail("empty stream"); return }
    if (INTEG_WANT_END) {
        if (!INTEG_ENDED) fail(sprintf("no end line \"# end LINES SUM\" after the last event (%.6f s; the end %s s): cut short?", INTEG_LAST, t_end))
        return
    }
    if (INTEG_LAST < 0 || t_end == "") return
    if (t_end - INTEG_LAST > INTEG_GAP + 1e-9)
        fail(sprintf("stream ends at %.6f s, more than one event gap (%.6f s, the largest in the stream) before the end %s s: cut short?", INTEG_LAST, INTEG_GAP, t_end))
}

function integ_header(    want, n, i, kv, w, g, keys, k) {
    if ($1 != "#") {
        if (fingerprint != "") fail("no bufrepro header: the first line is not '# " fingerprint "' (a stream this run's scenario did not write)")
        return 0
    }
    if (fingerprint == "" || $0 == "# " fingerprint) { ssum_line(); return 1 }
    if (index($0, "\r")) { fail("carriage return in the header (CRLF endings are rejected)"); return 1 }
    if ($2 != "bufrepro") { fail("no bufrepro header: the first line is '" substr($0, 1, 80) "', not '# " fingerprint "'"); return 1 }
    n = split(fingerprint, want, " ")
    if ($3 != want[2]) { fail("stream of another study: " substr($3, 1, 40) ", expected " want[2]); return 1 }
    for (i = 3; i <= n; i++) if (split(want[i], kv, "=") == 2) w[kv[1]] = kv[2]
    for (i = 4; i <= NF; i++) if (split($i, kv, "=") == 2) g[kv[1]] = kv[2]
    split("seed end run", keys, " ")
    for (i = 1; i <= 3; i++) {
        k = keys[i]
        if (!(k in g) || g[k] "" != w[k] "") {
            fail("stream of another run: " k " " ((k in g) ? substr(g[k], 1, 40) : "(none)") ", expected " w[k] \
                 (k == "run" ? " (the same seed and end: another value of a swept key, e.g. the buffer)" : ""))
            return 1
        }
    }
    fail("malformed bufrepro header: '" substr($0, 1, 120) "', expected '# " fingerprint "'")
    return 1
}
