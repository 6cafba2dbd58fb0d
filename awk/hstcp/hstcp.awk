#!/usr/bin/gawk -f
# hstcp.awk - bottleneck metrics of one hstcp run, from the stream tcl/hstcp/hstcp.tcl.j2 writes.
#
# Reads one stream (a FIFO while ns runs; see bufrepro.backends.base); $1 is the record type:
#   header (line 1): "# " fingerprint, the run's header (lib/integrity.awk's integ_header).
#   M line  (next): key value pairs capacity_bps packet_bytes buffer_pkts flows t0 t1 sample_s level.
#   Q lines: samples of the bottleneck's flow monitor, every sample_s, at t0 and at the end:
#            $2 time (s), $3 arrivals, $4 departures, $5 drops (packets), $6 arrival bytes,
#            $7 departure bytes, $8 queue length (packets), $9 integral of the queue length
#            (packet-seconds, a double), then one field per flow fid:arr:dep:drop:ack:cwnd
#            (bottleneck packets of that flow; the sender's highest ACK and cwnd_).
#            Counters are stock ns-2 32-bit ints: they are unwrapped modulo 2^32 from one sample
#            to the next (bytes wrap after 2^31 B, ~17 s at 1 Gb/s); a departure-byte step
#            larger than the link could carry in the interval fails the run.
#   ns-2 trace lines of the bottleneck: 'd' drops ($2 time, $3 from, $4 to, $6 size, $8 fid);
#            with level events also '+', '-', 'r' (every packet).
#   E line: $2 end time; then the end line "# end LINES SUM" (lib/streamsum.awk), written by
#            the simulator (ns-2: a StreamSum attached to the stream, ns2/patches/0009; ns-3:
#            ns3/hstcp.cc): the count and checksum of every line before it, the header included.
# Parameters (-v): t0, t1 - measurement window (s); t_end - simulated end (s); from, to -
#   the bottleneck's nodes; bps - its capacity (bit/s); pkt - packet size on the wire (bytes);
#   optional, checked against the M line when set: buffer - buffer_pkts; flows - the flow
#   count; sample_s - the sample interval; fingerprint - the run's header text (the pipeline
#   always passes it; empty: no header required, hand-made inputs only).
# Integrity (lib/integrity.awk's header, line and end checks, without its node and link checks;
#   each failure names the file, the line and the rule, and nothing is printed): line 1 is the
#   run's header "# " fingerprint (another study, seed, end or run fails, naming the field); the
#   M line's capacity, packet size, window (and buffer, flows, sample_s when given) are the
#   run's; every line has its fields (Q: 9 + flows, trace lines 12, E 2) of their types (Q:
#   counters integers, the integral a number, each flow fid:arr:dep:drop:ack:cwnd of integers
#   and a number; trace lines as lib/wired.awk's: event, node numbers, a name, a size, flags,
#   flow, node.port addresses, sequence number, uid); times numeric, never decreasing, not
#   after t_end; no duplicated line (identical to an earlier line of the same time; except two
#   Q samples at t0); no CR (CRLF endings are rejected), no NUL; trace lines only on
#   from -> to; the E line at t_end; arrivals at the bottleneck in [t0, t1] imply departures;
#   with a fingerprint, the end line after the E line, its count and checksum those of the
#   lines before it (a stream cut and re-ended, spliced under another header, or edited fails;
#   nothing may follow it).
# Run with LC_ALL=C AWKPATH=awk/lib (lib/metrics.awk, lib/integrity.awk), as the pipeline does.
# Definitions (window [t0, t1], from the Q samples at exactly t0 and t1). The counters give the
# packets that left the queue (started transmission) between the samples: with the packets in
# transmission at t0 and at t1 this differs from what the link sent within the window by less
# than one packet either way. The exact bound is kept: every rate below is scaled by
# cap = min(1, bps x (t1 - t0) / (8 x the window's departed bytes, or departures x pkt if more))
# (1 unless the counters
# exceed the capacity), so that the utilisation is at most 1 and the flows' throughputs sum to
# at most bps, exactly; goodputs likewise by min(1, capacity / their sum).
#   link_utilisation      bytes departed from the bottleneck queue x 8 x cap / (bps x (t1 - t0))
#   loss_rate             packets dropped at the bottleneck / packets arriving there
#   drops                 packets dropped at the bottleneck
#   queue_avg_pkts        time-average queue length: integral difference / (t1 - t0)
#   queue_avg_frac        queue_avg_pkts / buffer_pkts
#   queue_max_pkts        the largest queue length (packets waiting) among the Q samples in
#                         [t0, t1], every sample_s: a lower bound on the queue's true maximum
#   flow<f>_tput_mbps     departures of flow f x pkt x 8 x cap / (t1 - t0) / 1e6 (fid order = RTT
#                         order)
#   flow<f>_goodput_mbps  increase of the sender's cumulative ACK x pkt x 8 / (t1 - t0) / 1e6,
#                         x min(1, bps / 1e6 / the flows' sum of these)
#   flow<f>_loss_rate     drops / arrivals of flow f
#   flow<f>_cwnd_end      cwnd_ of flow f at t1 (packets)
#   goodput_mbps          sum of the flows' goodput
#   jain_index            (sum x)^2 / (n sum x^2) over the flows' throughput x
#   tput_ratio_short_long throughput of the shortest-RTT flow (lowest fid) / of the longest
#   tput_min_max_ratio    smallest / largest flow throughput
#   trace_lines           lines read (the header and the end line excluded); trace_drop_lines 'd' lines of the bottleneck
#   With level events, from the per-packet lines (cross-checks of the counters):
#   ev_link_utilisation   bytes of '-' events in [t0, t1] x 8 / (bps x (t1 - t0))
#   ev_queue_avg_pkts     time average of the queue rebuilt from + / - / d events
#   ev_queue_max_pkts     the largest event-rebuilt queue held for a positive time in [t0, t1]
# Accounting (the run fails, exit 3, unless all hold): first line M, last line E at t_end; no
#   malformed line; samples at t0 and at t_end; sample times increase; counters never go
#   down after unwrapping; departure bytes per sample interval within the link's capacity;
#   bytes = packets x pkt in the window (up to one 40-byte SYN per flow); at the end
#   arrivals = departures + drops + queue (aggregate), per-flow counters sum to the aggregate,
#   every flow's arr >= dep + drop; 'd' lines = the drop counter, per flow too; with events,
#   '-' lines = departures and '+' lines = arrivals (whole run), window departures within 2.
@include "metrics.awk"
@include "integrity.awk"

BEGIN {
    PROG = "hstcp.awk"; OFS = "\t"; W = 4294967296; nq = 0; have_t0 = 0
    if (t0 == "" || t1 == "" || t1 <= t0 || t_end == "" || from == "" || to == "" || bps <= 0 || pkt <= 0) {
        print "hstcp.awk: set -v t0=... -v t1=... -v t_end=... -v from=... -v to=... -v bps=... -v pkt=..." > "/dev/stderr"
        usage = 1; exit 2
    }
    eps = 1e-9; integ_init(); M_AT = 1  # the M line's number: 2 after a header
    INTEG_WANT_END = (fingerprint != "")  # a run's stream ends with "# end LINES SUM"
}
# Line 1: the run's header (skipped once checked; a missing one fails, and the line is read).
NR == 1 && integ_header() { M_AT = 2; next }
# Every line: no CR, no NUL (integ_line checks these with the time).
index($0, "\r") || index($0, "\0") { integ_line("0"); next }
# The end line "# end LINES SUM" (lib/integrity.awk's integ_footer, lib/streamsum.awk) closes
# the stream; nothing may follow it. Every line before it is summed.
INTEG_ENDED { fail("a line after the end line (appended, or two streams joined?): " substr($0, 1, 80)); next }
$1 == "#" { integ_footer(); next }
{ ssum_line() }
function unwrap(name, raw,    d) {
    # unwrapped value of 32-bit counter `name` given its raw sample
    if (!(name in U)) { U[name] = raw; R[name] = raw; if (raw < 0) fail(name " starts negative: " raw); return U[name] }
    d = raw - R[name]
    if (d < 0) d += W
    R[name] = raw; U[name] += d
    return U[name]
}
NR == M_AT {
    if ($1 != "M") { fail("first line is not the M line: " $0); next }
    for (i = 2; i < NF; i += 2) meta[$i] = $(i + 1)
    nflows = meta["flows"] + 0; buf_pkts = meta["buffer_pkts"] + 0
    if (meta["capacity_bps"] + 0 != bps + 0) fail("capacity " meta["capacity_bps"] " in the stream, " bps " expected")
    if (meta["packet_bytes"] + 0 != pkt + 0) fail("packet size " meta["packet_bytes"] " in the stream, " pkt " expected")
    if (meta["t0"] + 0 != t0 + 0 || meta["t1"] + 0 != t1 + 0) fail("window [" meta["t0"] ", " meta["t1"] "] in the stream, [" t0 ", " t1 "] expected")
    if (buffer != "" && meta["buffer_pkts"] != buffer) fail("buffer " meta["buffer_pkts"] " in the stream, " buffer " expected")
    if (flows != "" && meta["flows"] != flows) fail("flows " meta["flows"] " in the stream, " flows " expected")
    if (sample_s != "" && meta["sample_s"] + 0 != sample_s + 0) fail("sample_s " meta["sample_s"] " in the stream, " sample_s " expected")
    events = (meta["level"] == "events")
    next
}
ended { fail("line after the E line: " $0); next }
$1 == "E" {
    if (NF != 2) { fail("malformed E line (" NF " fields, 2 expected)"); next }
    integ_line($2); ended = 1; tend = $2 + 0
    next
}
$1 == "Q" {
    if (NF != 9 + nflows) { fail("malformed sample (" NF " fields, " 9 + nflows " expected)"); next }
    if (($3 " " $4 " " $5 " " $6 " " $7 " " $8) !~ /^-?[0-9]+ -?[0-9]+ -?[0-9]+ -?[0-9]+ -?[0-9]+ -?[0-9]+$/ || $9 !~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) { fail("malformed sample (counters integers, the queue integral a number): " substr($0, 1, 80)); next }
    INTEG_REPEAT = ($2 + 0 > t0 - eps && $2 + 0 < t0 + eps)
    integ_line($2); INTEG_REPEAT = 0
    tm = $2 + 0
    if (nq > 0 && tm < last_t - eps) fail("sample time goes back: " tm " after " last_t)
    A = unwrap("arr", $3); D = unwrap("dep", $4); X = unwrap("drop", $5)
    BA = unwrap("barr", $6); BD = unwrap("bdep", $7)
    if (nq > 0) {
        cap_bytes = bps / 8 * (tm - last_t) + pkt
        if (BD - last_bd > cap_bytes) fail(sprintf("%.0f bytes departed in %.6f s, more than the link carries (missed counter wrap?)", BD - last_bd, tm - last_t))
    }
    last_bd = BD
    qlen = $8 + 0; integ = $9 + 0
    for (i = 10; i <= NF; i++) {
        n = split($i, c, ":")
        if (n != 6 || $i !~ /^[0-9]+(:-?[0-9]+){4}:-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/) { fail("malformed flow field " substr($i, 1, 60) " (fid:arrivals:departures:drops:ack:cwnd, integers and a number)"); continue }
        f = c[1]; fid[i - 9] = f
        FA[f] = unwrap("a" f, c[2]); FD[f] = unwrap("d" f, c[3]); FX[f] = unwrap("x" f, c[4])
        ACK[f] = c[5] + 0; CW[f] = c[6] + 0
    }
    # Twins within the sample and against the previous one (counters against their sums):
    # arrivals = departures + drops + queue; the flows' counters sum to the aggregate; 40 to
    # pkt bytes per packet (headers only to a full packet: ns-3 counts its handshake); the queue integral grows by at most (buffer + 1) x the interval.
    if (A != D + X + qlen) fail(sprintf("sample at %s: arrivals %.0f != departures %.0f + drops %.0f + queued %d", $2, A, D, X, qlen))
    ssa = ssd = ssx = 0
    for (k = 10; k <= NF; k++) { f = fid[k - 9]; ssa += FA[f]; ssd += FD[f]; ssx += FX[f]; if (FA[f] < FD[f] + FX[f]) fail(sprintf("sample at %s: flow %s arrivals %.0f < departures %.0f + drops %.0f", $2, f, FA[f], FD[f], FX[f])) }
    if (ssa != A || ssd != D || ssx != X) fail("sample at " $2 ": per-flow counters do not sum to the aggregate")
    if (nq > 0) {
        if (BD - pbd > (D - pd) * pkt || BD - pbd < (D - pd) * 40) fail(sprintf("sample at %s: %.0f bytes but %.0f packets of 40 to %d B departed since the last sample", $2, BD - pbd, D - pd, pkt))
        if (BA - pba > (A - pa) * pkt || BA - pba < (A - pa) * 40) fail(sprintf("sample at %s: %.0f bytes but %.0f packets of 40 to %d B arrived since the last sample", $2, BA - pba, A - pa, pkt))
        if (integ < pinteg - eps || (buf_pkts > 0 && integ - pinteg > (buf_pkts + 1) * (tm - last_t) + 1e-6)) fail(sprintf("sample at %s: the queue integral moves %.6f in %.6f s (buffer %d)", $2, integ - pinteg, tm - last_t, buf_pkts))
    }
    pa = A; pd = D; pba = BA; pbd = BD; pinteg = integ
    # Every sample kept, one per distinct time (the last of equal times; the queue the larger):
    # the END chooses the judged window's start among them (MSER-5, below).
    if (nsamp == 0 || tm > ST[nsamp - 1] + eps) { k = nsamp++; SQ[k] = qlen }
    else { k = nsamp - 1; if (qlen > SQ[k]) SQ[k] = qlen }
    ST[k] = tm; SA[k] = A; SD[k] = D; SX[k] = X; SBD[k] = BD; SI[k] = integ
    for (j = 1; j <= nflows; j++) { f = fid[j]; SFA[k, f] = FA[f]; SFD[k, f] = FD[f]; SFX[k, f] = FX[f]; SACK[k, f] = ACK[f] }
    if (events) { advance(tm); EVA[k] = evarea; EVB[k] = evbytes; EVN[k] = nminus; EVM[k] = (k in EVM && EVM[k] > evimax) ? EVM[k] : evimax; evimax = 0 }
    if (tm > t0 - eps && tm < t0 + eps) have_t0 = 1
    last_t = tm; nq++
    next
}
NF != 12 { fail("malformed or truncated line (" NF " fields, 12 expected): " substr($0, 1, 80)); next }
# A trace line's fields of their types (lib/wired.awk's pattern; single spaces).
$0 !~ /^[-+rd] [^ ]+ [0-9]+ [0-9]+ [A-Za-z][A-Za-z0-9_]* [0-9]+ [-A-Za-z]+ -?[0-9]+ [0-9]+(\.-?[0-9]+)+ [0-9]+(\.-?[0-9]+)+ -?[0-9]+ [0-9]+$/ { fail("malformed trace line (event, time, node numbers, type, size, flags, flow, addresses node.port, sequence number, uid): " substr($0, 1, 80)); next }
{ integ_line($2) }  # a failure is recorded; the line's other checks still run
$3 != from || $4 != to { fail("event of another link: " substr($0, 1, 80)); next }
{ tm = $2 + 0; ev = $1 }
ev == "d" {
    ndrop_lines++; dropf[$8]++
    if (events && ($12 in inq)) { advance(tm); q--; delete inq[$12] }
    next
}
!events { fail("per-packet event '" ev "' in a drops-only stream"); next }
ev == "+" { nplus++; advance(tm); q++; inq[$12] = 1; next }
ev == "-" {
    nminus++; advance(tm)
    if ($12 in inq) { q--; delete inq[$12] }
    evbytes += $6
    next
}
ev == "r" { next }
{ fail("unknown event: " substr($0, 1, 80)) }
function advance(now) {
    # the event-rebuilt queue's integral from the start, and its largest value held for a
    # positive time since the last sample (the window's values are differences and maxima of
    # these at the samples)
    if (now > evlast) { evarea += q * (now - evlast); if (q > evimax) evimax = q }
    evlast = now
}
END {
    if (usage) exit 2
    if (NR == 0) fail("empty stream")
    else integ_end()
    if (!ended) fail("no E line: the stream is truncated")
    else if (tend < t_end - eps || tend > t_end + eps) fail("stream ends at " tend ", " t_end " expected")
    if (!have_t0) fail("no sample at t0 = " t0)
    if (last_t < t_end - eps) fail("last sample at " last_t ", before t_end = " t_end)
    if (A != D + X + qlen) fail(sprintf("arrivals %.0f != departures %.0f + drops %.0f + queued %d", A, D, X, qlen))
    sa = sd = sx = 0
    for (f in FA) {
        sa += FA[f]; sd += FD[f]; sx += FX[f]
        if (FA[f] < FD[f] + FX[f]) fail("flow " f ": arrivals " FA[f] " < departures " FD[f] " + drops " FX[f])
        if ((dropf[f] + 0) != FX[f]) fail("flow " f ": " (dropf[f] + 0) " drop lines, counter says " FX[f])
    }
    for (f in dropf) if (!(f in FA)) fail("drop lines of unknown flow " f)
    if (sa != A || sd != D || sx != X) fail("per-flow counters do not sum to the aggregate")
    if (ndrop_lines + 0 != X) fail(sprintf("%d drop lines, drop counter says %.0f", ndrop_lines, X))
    steady_window()
    T = t1 - w0
    # window values: the end of the window is the last sample (at t_end = t1)
    dbytes = BD - bd0; dpk = D - d0; darr = A - a0; ddrop = X - x0
    if (dbytes > dpk * pkt || dbytes < dpk * pkt - nflows * (pkt - 40)) fail(sprintf("%.0f bytes but %.0f packets of %d B departed in the window", dbytes, dpk, pkt))
    if (events) {
        evdep = EVN[nsamp - 1] - EVN[k0]; evbytes = EVB[nsamp - 1] - EVB[k0]
        evarea = EVA[nsamp - 1] - EVA[k0]; evqmax = 0
        for (k = k0 + 1; k < nsamp; k++) if (EVM[k] > evqmax) evqmax = EVM[k]
        if (nminus != D) fail(sprintf("%d '-' lines, departure counter says %.0f", nminus, D))
        if (nplus != A) fail(sprintf("%d '+' lines, arrival counter says %.0f", nplus, A))
        if (evdep - dpk > 2 || dpk - evdep > 2) fail(sprintf("%d '-' lines in the window, counters say %.0f", evdep, dpk))
    }
    if (darr > 0 && dpk == 0) fail(sprintf("%.0f packets arrived at the bottleneck in the window, none departed", darr))
    if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    dmax = (dpk * pkt > dbytes) ? dpk * pkt : dbytes
    cap = (dmax * 8 > bps * T) ? bps * T / (dmax * 8) : 1
    gsum = 0
    for (k = 1; k <= nflows; k++) gsum += (ACK[fid[k]] - ack0[fid[k]]) * pkt * 8 / T / 1e6
    gcap = (gsum > bps / 1e6) ? bps / 1e6 / gsum : 1
    printf "link_utilisation\t%.6f\n", dbytes * 8 * cap / (bps * T)
    printf "loss_rate\t%.9f\n", (darr > 0) ? ddrop / darr : 0
    printf "drops\t%d\n", ddrop
    printf "arrivals\t%d\n", darr
    printf "departures\t%d\n", dpk
    printf "queue_avg_pkts\t%.6f\n", (integ - i0) / T
    printf "queue_avg_frac\t%.6f\n", (buf_pkts > 0) ? (integ - i0) / T / buf_pkts : 0
    printf "queue_max_pkts\t%d\n", qmax
    sum = sum2 = 0; good = 0; n = 0; xmin = -1; xmax = 0
    for (k = 1; k <= nflows; k++) {
        f = fid[k]
        x = (FD[f] - fd0[f]) * pkt * 8 * cap / T / 1e6
        g = (ACK[f] - ack0[f]) * pkt * 8 * gcap / T / 1e6
        fa = FA[f] - fa0[f]
        printf "flow%s_tput_mbps\t%.6f\n", f, x
        printf "flow%s_goodput_mbps\t%.6f\n", f, g
        printf "flow%s_loss_rate\t%.9f\n", f, (fa > 0) ? (FX[f] - fx0[f]) / fa : 0
        printf "flow%s_cwnd_end\t%.3f\n", f, CW[f]
        sum += x; sum2 += x * x; good += g; n++
        if (xmin < 0 || x < xmin) xmin = x
        if (x > xmax) xmax = x
        if (k == 1) xfirst = x
        xlast = x
    }
    printf "goodput_mbps\t%.6f\n", good
    printf "jain_index\t%.6f\n", (sum2 > 0) ? sum * sum / (n * sum2) : 0
    printf "tput_ratio_short_long\t%.6f\n", (xlast > 0) ? xfirst / xlast : 0
    printf "tput_min_max_ratio\t%.6f\n", (xmax > 0) ? xmin / xmax : 0
    printf "window_start_s\t%.6f\n", w0
    printf "transient_end_s\t%.6f\n", trunc_t
    printf "steady_state\t%d\n", settled
    printf "loss_epochs_min\t%d\n", epochs_min
    printf "trace_lines\t%d\n", NR - (M_AT - 1) - INTEG_ENDED
    printf "trace_drop_lines\t%d\n", ndrop_lines
    if (events) {
        printf "ev_link_utilisation\t%.6f\n", evbytes * 8 / (bps * T)
        printf "ev_queue_avg_pkts\t%.6f\n", evarea / T
        printf "ev_queue_max_pkts\t%d\n", evqmax
    }
    printf "acct_ok\t1\n"
}

function steady_window(    k, nu, nb, b, j, sm, suf, sufsq, cnt, ss, limit, d, best, f, ep) {
    # The judged window [w0, t1]: w0 is the later of the configured warm-up t0 and the end of
    # the run's initial transient, found by MSER-5 (White 1997; bufrepro.kit.transient, the same
    # definition, checked against this one by the tests) in the bottleneck's utilisation per
    # sample interval from the run's start: batches of 5 intervals, MSER(d) = the squared
    # deviations of batches d.. from their mean over their count squared, minimised over the
    # first half of the batches (the first of equal minima). A minimum on the search's last
    # batch, or fewer than 4 batches, leaves the run unsettled (steady_state 0): its window
    # still starts at the latest candidate, and its cell is reported "not at steady state".
    nu = 0
    for (k = 1; k < nsamp; k++) { UT[nu] = ST[k - 1]; UV[nu] = (SBD[k] - SBD[k - 1]) * 8 / (bps * (ST[k] - ST[k - 1])); nu++ }
    nb = int(nu / 5); best = 0; settled = 0
    for (b = 0; b < nb; b++) { sm = 0; for (j = 0; j < 5; j++) sm += UV[b * 5 + j]; Z[b] = sm / 5 }
    if (nb >= 4) {
        suf = sufsq = 0
        for (b = nb - 1; b >= 0; b--) {
            suf += Z[b]; sufsq += Z[b] * Z[b]; cnt = nb - b
            ss = sufsq - suf * suf / cnt; if (ss < 0) ss = 0
            STAT[b] = ss / (cnt * cnt)
        }
        limit = int(nb * 0.5); if (limit < 1) limit = 1
        for (d = 1; d < limit; d++) if (STAT[d] < STAT[best]) best = d
        settled = (limit >= 2 && best < limit - 1)
    }
    trunc_t = (nu > 0) ? UT[best * 5] : 0
    w0 = (trunc_t > t0 + eps) ? trunc_t : t0
    k0 = -1
    for (k = 0; k < nsamp; k++) if (ST[k] > w0 - eps && ST[k] < w0 + eps) k0 = k
    if (k0 < 0) { fail("no sample at the window's start " w0); k0 = 0 }
    a0 = SA[k0]; d0 = SD[k0]; x0 = SX[k0]; bd0 = SBD[k0]; i0 = SI[k0]; qmax = 0
    for (k = k0; k < nsamp; k++) if (ST[k] < t1 + eps && SQ[k] > qmax) qmax = SQ[k]
    # Congestion epochs in the window, per flow: the sample intervals in which the flow lost a
    # packet at the bottleneck (a lower bound on its loss events: at most one an interval).
    epochs_min = -1
    for (j = 1; j <= nflows; j++) {
        f = fid[j]; fa0[f] = SFA[k0, f]; fd0[f] = SFD[k0, f]; fx0[f] = SFX[k0, f]; ack0[f] = SACK[k0, f]
        ep = 0
        for (k = k0 + 1; k < nsamp; k++) if (SFX[k, f] > SFX[k - 1, f]) ep++
        if (epochs_min < 0 || ep < epochs_min) epochs_min = ep
    }
    if (epochs_min < 0) epochs_min = 0
}
