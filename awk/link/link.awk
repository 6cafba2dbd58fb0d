# link.awk - one streamed pass over the bottleneck queue's trace of a link experiment
# (tcl/link/link.tcl.j2 traces only that queue with ns-2's trace-queue; ns3/link.cc writes the
# same events of its bottleneck in the same format, so each metric has one definition here).
#
# Reads (ns-2 wired trace lines of the bottleneck queue link_from -> link_to):
#   $1 event: "+" enqueue, "-" dequeue (starts transmission), "d" drop, "r" receipt at link_to
#   $2 time (s), $3 from node, $4 to node, $5 packet type, $6 size (bytes), $8 flow id,
#   $11 sequence number (TCP: packet number), $12 unique packet id (uid)
#   The first line is "# <fingerprint>", the last "# end" (Debian's ns-2) or, with sealed=1
#   (ns3/link.cc), "# end LINES SUM" checked over every line before it (lib/streamsum.awk);
#   line 2 may be "#@ " and the program's version and parameters; nothing else starts with "#"
#   and nothing follows the end line.
# Variables (-v): t0, t1 - the measurement window (s); fingerprint - the run's header text;
#   link_from, link_to - the bottleneck's nodes; link_bps - its rate (bit/s); flows - the
#   long-lived TCP flows, flow ids 1..flows; mss - their payload bytes per packet; limit - ns-2's
#   limit_ of the queue (an upper bound on the packets waiting); sealed - 1 when the stream ends
#   with "# end LINES SUM" (ns-3), else empty; epoch - a congestion event's slot (s), the base RTT.
# Where drops happen: the error model sits at the link's head, before the queue, so a packet
#   lost on the link has a "d" and no "+"; a packet the queue drops has a "+" then a "d".
# Definitions (events with time in [t0, t1]; "window" = t1 - t0; "data" = every packet type):
#   throughput_mbps        bits the link transmitted within the window (a packet's transmission,
#                          from its "-" for size x 8 / link_bps seconds, counted where it overlaps
#                          the window; only packets that reached link_to) / window, in Mb/s
#   link_utilisation       throughput / link_bps
#   goodput_mbps           payload bits (mss each) of the first receipt at link_to, within the
#                          window, of each (flow id, seqno) of the long-lived flows / window: new
#                          data only, no retransmission
#   flow<i>_tput_mbps      the same for the packets of long-lived flow i (i = 1..flows)
#   jain_index             Jain's fairness (sum x)^2 / (n sum x^2) over the flows' throughputs
#                          (1 when all are 0)
#   qdelay_ms_mean/p95/p99/max  queueing delay, dequeue time - enqueue time, of the packets
#                          enqueued in the window and dequeued (transmission time excluded);
#                          percentiles by nearest rank
#   qdelay_samples         how many packets those statistics are over
#   queue_avg_pkts         time average over the window of the packets waiting ("+" done, "-" not)
#   arrivals               packets offered to the link in the window ("+" events and link drops)
#   pkt_drops_queue        "d" events of packets that had a "+" and no "-" (the queue dropped them)
#   pkt_drops_link         "d" events of packets that had no "+" (the error model dropped them)
#   queue_loss_rate        pkt_drops_queue / arrivals;  link_loss_rate  pkt_drops_link / arrivals
#   total_loss_rate        (pkt_drops_queue + pkt_drops_link) / arrivals
#   loss_epochs            loss (congestion) events: a long-lived flow's loss in the window (queue
#                          or link) opens one, and every such loss within `epoch` (the base RTT)
#                          of its first belongs to it
#   sync_epoch_share       the share of those in which more than half of the long-lived flows
#                          lost a packet (1 flow: every epoch; none: 0)
#   sync_rate_mean         the mean over those of the share of the flows that lost a packet:
#                          the loss synchronisation rate of Hassayoun & Ros (2009), averaged
#   acct_ok                1 when the accounting holds: every "-" follows a "+" of the same uid,
#                          every "r" follows a "-", each at most once; at the end between 0 and
#                          limit packets wait; the stream has its header and its end, and its
#                          last event is at t1 - max_age or later (max_age = epoch + (limit + 1)
#                          x 1500 x 8 / link_bps: the base RTT and a full queue's drain)
@include "metrics.awk"
@include "streamsum.awk"

BEGIN { EVENTS["+"]; EVENTS["-"]; EVENTS["r"]; EVENTS["d"]; PROG = "link.awk"; header = 0; ended = 0; qlen = 0; qlast = 0; ne = 0 }

# One rule, its tests in the order of their checks; the events ("+", "-", "r": three of every
# packet's lines) take the shortest path: each line's fields are read once, the waiting packets'
# integral (queue_to) and a transmission's overlap with the window (on_wire) are inlined there.
{
    if (ended) { fail("a line after the end line (appended?): " substr($0, 1, 80)); next }
    if (sealed) {
        if (/^# end/) { ssum_end($0); ended = 1; next }
        ssum_line()
    }
    if (FNR == 1) {
        if ($0 != "# " fingerprint) fail("the first line is not the run's fingerprint: " $0)
        header = 1
        next
    }
    ev = $1
    if (!(ev in EVENTS)) {
        if (FNR == 2 && /^#@ /) next
        if (!sealed && $0 == "# end") { ended = 1; next }
        if (/^#/) { fail("an unexpected comment line"); next }
    }
    if ($3 != link_from || $4 != link_to) { fail("an event of another link: " $3 "->" $4); next }
    t = $2 + 0
    if (t > tlast) tlast = t  # the trace's last event time (its end check)
    u = $12
    if (ev == "+") {
        if (u in ENQ) fail("uid " u " enqueued twice")
        ENQ[u] = t
        a = qlast > t0 ? qlast : t0
        b = t < t1 ? t : t1
        if (b > a) qarea += qlen * (b - a)
        qlast = t
        qlen++
        if (t >= t0 && t <= t1) arrivals++
        next
    }
    if (ev == "-") {
        if (!(u in ENQ)) { fail("uid " u " dequeued without an enqueue"); next }
        if (u in DEQ) fail("uid " u " dequeued twice")
        DEQ[u] = t
        a = qlast > t0 ? qlast : t0
        b = t < t1 ? t : t1
        if (b > a) qarea += qlen * (b - a)
        qlast = t
        qlen--
        q = ENQ[u]
        if (q >= t0 && q <= t1) QD[++nq] = (t - q) * 1000
        next
    }
    if (ev == "r") {
        if (!(u in DEQ)) { fail("uid " u " received without a dequeue"); next }
        q = DEQ[u]
        a = q > t0 ? q : t0
        b = q + $6 * 8 / link_bps
        b = b < t1 ? b : t1
        sent = b > a ? (b - a) * link_bps : 0
        delete DEQ[u]
        delete ENQ[u]
        bits += sent
        f = $8
        if (f >= 1 && f <= flows) {
            FLOW[f] += sent
            if (t >= t0 && t <= t1 && !((f, $11) in SEEN)) { SEEN[f, $11] = 1; good += mss * 8 }
        }
        next
    }
    if (ev == "d") {
        inwin = t >= t0 && t <= t1
        if (inwin && $8 >= 1 && $8 <= flows) {
            if (ne == 0 || t >= ev_start + epoch) { ne++; ev_start = t }
            if (!((ne, $8) in LOST)) { LOST[ne, $8] = 1; EPOCH[ne]++ }
        }
        if (!(u in ENQ)) { if (inwin) { link_drops++; arrivals++ }; next }
        queue_to(t, -1)
        if (u in DEQ) { fail("uid " u " dropped after its dequeue"); next }
        delete ENQ[u]
        if (inwin) queue_drops++
        next
    }
    fail("an unknown event " $1)
}

# The waiting packets change at time t by delta; their time integral over [t0, t1] grows.
function queue_to(t, delta,    a, b) {
    a = qlast > t0 ? qlast : t0
    b = t < t1 ? t : t1
    if (b > a) qarea += qlen * (b - a)
    qlast = t
    qlen += delta
}

END {
    if (!header) fail("an empty stream")
    if (sealed) ssum_missing()
    else if (!ended) fail("no '# end' line: the stream was cut short")
    # The trace reaches t1 (the run's end) less the path's longest transit (max_age: the base
    # RTT and a full queue's drain at 1500 B a packet), end line or not: a stream that stops
    # early (a stop time set early, a cut resealed) fails.
    max_age = epoch + (limit + 1) * 1500 * 8 / link_bps
    if (header && tlast < t1 - max_age) fail("trace ends at " tlast ", before t1 - max_age = " t1 - max_age " (s; max_age: the path's longest transit): stopped early or cut short?")
    queue_to(t1, 0)
    if (qlen < 0 || qlen > limit + 0) fail("the queue holds " qlen " packets at the end")
    window = t1 - t0
    metric("throughput_mbps", sprintf("%.6f", bits / window / 1e6))
    metric("link_utilisation", sprintf("%.6f", bits / window / link_bps))
    metric("goodput_mbps", sprintf("%.6f", good / window / 1e6))
    sum = 0; sq = 0
    for (i = 1; i <= flows; i++) {
        x = FLOW[i] / window / 1e6
        metric("flow" i "_tput_mbps", sprintf("%.6f", x))
        sum += x; sq += x * x
    }
    metric("jain_index", sprintf("%.6f", sq > 0 ? sum * sum / (flows * sq) : 1))
    n = asort(QD, S)
    metric("qdelay_samples", sprintf("%d", n))
    if (n > 0) {
        for (i = 1; i <= n; i++) tot += S[i]
        metric("qdelay_ms_mean", sprintf("%.6f", tot / n))
        metric("qdelay_ms_p95", sprintf("%.6f", S[rank(0.95, n)]))
        metric("qdelay_ms_p99", sprintf("%.6f", S[rank(0.99, n)]))
        metric("qdelay_ms_max", sprintf("%.6f", S[n]))
    }
    metric("queue_avg_pkts", sprintf("%.6f", qarea / window))
    metric("arrivals", sprintf("%d", arrivals))
    metric("pkt_drops_queue", sprintf("%d", queue_drops))
    metric("pkt_drops_link", sprintf("%d", link_drops))
    metric("queue_loss_rate", sprintf("%.6f", arrivals ? queue_drops / arrivals : 0))
    metric("link_loss_rate", sprintf("%.6f", arrivals ? link_drops / arrivals : 0))
    metric("total_loss_rate", sprintf("%.6f", arrivals ? (queue_drops + link_drops) / arrivals : 0))
    nsync = 0; rsum = 0
    for (k = 1; k <= ne; k++) {
        if (EPOCH[k] > flows / 2) nsync++
        rsum += EPOCH[k] / flows
    }
    metric("loss_epochs", sprintf("%d", ne))
    metric("sync_epoch_share", sprintf("%.6f", ne ? nsync / ne : 0))
    metric("sync_rate_mean", sprintf("%.6f", ne ? rsum / ne : 0))
    if (FAILED) exit 1
    metric("acct_ok", 1)
    metrics_print()
}

function rank(p, n,    k) { k = int(p * n); if (k < p * n) k++; return k < 1 ? 1 : k }
