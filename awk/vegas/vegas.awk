#!/usr/bin/gawk -f
# vegas.awk - one vegas run's metrics in one streamed pass over its wired-cum-wireless trace: the
# same "name<TAB>value" lines and series file as scripts/parse_vegas.sh (awk/mixed.awk with
# e2e_loss.awk, e2e_delay.awk, e2e_throughput.awk, link.awk on the N1 -> MAP bottleneck, then
# e2e_ratio.awk over those metrics), byte for byte. Reads the trace once, front to back (a file,
# stdin or a named pipe that ns-2 is still writing); everything is computed and printed in END.
#
# usage: LC_ALL=C AWKPATH=AWK_DIR/lib gawk -f AWK_DIR/vegas/vegas.awk -v t0=... -v t1=...
#          -v t_end=... -v max_age=... -v src=0 -v dst=6 -v fid=1 -v hdr=40 -v traced=0-1,1-2
#          -v link_from=1 -v link_to=2 -v link_bps=... -v bin_s=... -v series=FILE TRACE|-
#        (AWKPATH names awk/lib, where the @include files are: lib/metrics.awk, lib/link.awk)
# Output: the metrics below on stdout, one "name<TAB>value" line each, in LC_ALL=C order; the
#   throughput series in the file `series`.
# Exit: 0 - metrics printed, series written; 2 - a parameter missing or out of range (nothing
#   read, nothing printed); 3 - a line is malformed or an accounting check failed (the reasons on
#   stderr, at most 10 listed, then the count): nothing printed, no series written.
#
# Reads two line formats (as awk/mixed.awk does):
#   wired links (old format): NF the field count (fewer than 12: a malformed or truncated line),
#     $1 event (+ - r d), $2 time (s), $3 from node, $4 to node, $5 type, $6 size (bytes), $8 flow
#     id, $11 sequence number, $12 uid;
#   wireless nodes (ns-2 "new trace", use-newtrace): $1 event (s r d f D), then key/value pairs;
#     read: -t time (s), -Ni node, -Nl layer (AGT RTR MAC IFQ ...), -It type, -Il size (bytes),
#     -If flow id, -Ii uid, -Ps sequence number (TCP only). They are read at the places ns-2
#     writes them ($3, $9, $19, $35, $37, $39, $41, $47) after checking the keys before them ($2,
#     $8, $18, $20 -Nw, $34, $36, $38, $40, $46); a line laid out otherwise is read key by key,
#     and is malformed without -Ni, -It or -Ii.
#   movement lines: "M TIME ..." (at least 3 fields; only the time is read).
#   Any other line (another $1, a blank line) is not of this format: the run fails. Every wired
#   line whose $3 and $4 are the bottleneck's ends is an event on it (as link.awk reads them:
#   $1 event, $2 time (s), $6 size (bytes), $12 uid).
# Parameters (-v): t0, t1 - measurement window (s, t1 > t0); t_end - simulated end (s); max_age -
#                  how long before t_end a packet still in flight may have been seen last (s);
#                  src, dst - sender and receiver nodes; fid - the TCP agent's flow id; hdr -
#                  header bytes inside each data packet's size (ns-2's Vegas packetSize_ is the
#                  whole packet, 40 B of TCP/IP header included); traced - the links traced at
#                  least at '+', 'r' and 'd' as "a-b,c-d" (tcl/vegas: the bottleneck in full,
#                  CN -> N1 without its '-'; every other wired link traces drops only): a packet
#                  last seen at a '+' or '-' there is in its queue or on its wire; link_from, link_to -
#                  the bottleneck's end nodes; link_bps - its capacity in bit/s (bps below);
#                  series - the file for the time series; bin_s - its bin width (s); the
#                  scenario's fingerprint (the study's parse_args): n_nodes - its node count;
#                  links - its wired links "a-b,..."; link_delay - the bottleneck's delay (s);
#                  fingerprint - the run's header text (lib/integrity.awk; empty: no header
#                  required, hand-made inputs only); tally - 1: the stream is not the text
#                  trace but MixedTally's (trace_level tally: ns counted these metrics with
#                  these definitions; lib/mixed_tally.awk reads and checks it).
# Integrity (lib/integrity.awk; each failure names the file, the line and the rule, and nothing
# is printed): line 1 is the run's header "# " fingerprint (another study, seed, end or run
# fails, naming the field); wired lines have 12 fields, wireless lines key value pairs (an odd field count,
# every key starting with '-'), movement lines >= 3 fields;
# times numeric, never decreasing (by more than 1 us: wired lines print microseconds, wireless
# ones nanoseconds), not after t_end; no duplicated line, no CR (CRLF endings are rejected), no
# NUL; wired nodes and -Ni below n_nodes, wired links among `links`; the last line is "# end"
# (the scenario writes it after ns-2 flushed the trace: with a fingerprint, a stream without
# it was cut short, and a line after it fails; without one, hand-made inputs, the stream ends
# within one event gap of t_end, the largest gap between consecutive times in it); each packet crosses the
# bottleneck in exactly size * 8 / link_bps + link_delay (+-2 us); data sent in [t0, t1]
# implies departures on the bottleneck in [t0, t1].
#
# Data packets: type "tcp", flow id fid (ACKs are type "ack"); one uid = one transmission
# (retransmissions are new uids).
#   sent       first '+' of the uid on a wired link leaving src
#   delivered  first receipt by the agent at dst (wireless 'r' on layer AGT at dst, or wired 'r'
#              into dst)
#   dropped    a drop line ('d' on a wired queue, 'd'/'D' at a wireless node: IFQ, RTR CBK after the
#              802.11 MAC gave up, ARP, ...) and never delivered. A packet delivered and then
#              dropped (the MAC gave up on a frame whose 802.11 ACK was lost) counts as delivered.
#   in flight  neither, and seen within max_age of t_end
#   stranded   neither, and last seen earlier: held by a node until the end (DSDV buffers packets
#              for a destination it has no route to; ns-2 frees some without a drop line) - lost.
# Definitions (e2e_loss.awk; packets sent in [t0, t1]):
#   tcp_sent_pkts             sent packets (retransmissions included)
#   tcp_retransmitted_pkts    of those, packets whose sequence number had been sent before
#   tcp_delivered_pkts        delivered
#   tcp_drops_total           dropped (= tcp_drops_wired + tcp_drops_wireless)
#   tcp_drops_wired           dropped at a wired queue
#   tcp_drops_wireless        dropped at a wireless node
#   tcp_stranded_pkts         stranded
#   tcp_lost_pkts             tcp_drops_total + tcp_stranded_pkts
#   tcp_efficiency_pct        100 * delivered / (delivered + lost): the delivery ratio, packets
#                             still in flight at t_end excluded ("network efficiency")
#   tcp_loss_rate             lost / (delivered + lost)
#   tcp_drops_after_delivery  delivered packets that also have a drop line
# Accounting (every packet sent during the whole run): acct_sent = acct_received + acct_dropped +
# acct_in_flight + acct_stranded; acct_trace_end is the last event's time; acct_ok 1 when every
# check passed, else the script prints why and exits 3. Checks: no truncated line; at least one
# data packet sent; no data packet received, dropped or seen that src never sent; no packet
# stranded in a queue or on the wire of a `traced` link (its last event there a '+' or '-');
# the trace reaches t_end - max_age.
# Definitions (e2e_delay.awk; packets sent in [t0, t1] and received, whenever):
#   tcp_delay_ms_mean     mean of (receipt time - send time) in ms ("network delay")
#   tcp_delay_ms_p95      95th percentile of the same (nearest rank)
#   tcp_delay_ms_max      the largest
#   tcp_delay_samples     how many packets the three are over
# Packets dropped or still in flight at the end have no delay and are not counted; later
# receipts of the same uid (none are expected) are ignored.
# Definitions (e2e_throughput.awk; a delivered packet's in-window part: the fraction of its bits
# that the bottleneck transmitted within [t0, t1] - its transmission there clipped to the
# window, see link_utilisation - or, for a packet that did not cross it, 1 when delivered in
# [t0, t1] and 0 otherwise; so the throughput is at most link_bps, exactly):
#   tcp_throughput_kbps   in-window bits of the delivered packets (headers and retransmitted
#                         copies included) / (t1 - t0) / 1000 ("network throughput")
#   tcp_goodput_kbps      in-window part of (size - hdr) * 8 bits of the first delivery of each
#                         sequence number, / (t1 - t0) / 1000 (duplicates and headers excluded)
#   tcp_recv_pkts         delivered packets with a nonzero in-window part
# series (by delivery time, whole packets): one line per bin [t0 + k * bin_s, t0 + (k + 1) *
# bin_s) inside [t0, t1]:
#   "<bin start s> <throughput kbps over the bin>", every bin printed, empty ones as 0.
# Definitions (link.awk, on the link link_from -> link_to; computed by lib/link.awk):
#   link_utilisation     bits the link transmitted within [t0, t1] / (bps * (t1 - t0)): a packet's
#                        transmission lasts size * 8 / bps from its '-' (or from the end of the
#                        previous one, if later); only its part inside [t0, t1] counts (<= 1)
#   link_queue_avg_pkts  time average over [t0, t1] of the queue length in packets, where the
#                        queue grows by one at each '+' on the link and shrinks by one at each
#                        '-' and at each 'd' of a packet that had a '+' there but no '-' (a queue
#                        drop); link-head drops (error model) never entered the queue
#   link_queue_max_pkts  largest queue length held for a positive time within [t0, t1] (a '+'
#                        and a '-' at the same instant do not count as a longer queue)
#   link_departed_pkts   '-' events on the link in [t0, t1]
# Definition (e2e_ratio.awk; from the tcp_delay_ms_mean and tcp_throughput_kbps values as
# printed, i.e. rounded to 6 decimals, as it read them back):
#   delay_per_throughput   tcp_delay_ms_mean / tcp_throughput_kbps, in ms per kb/s, per run
#                          (the summary averages the per-run ratios; empty when either is
#                          missing or the throughput is 0)
# Speed: fixed field positions, ACK/UDP lines left after the time and key check, one array
# write per data line (its last line, parsed again in END only for packets neither delivered
# nor dropped); a wired line's nodes and link checked in one lookup (WIRED), a wireless line's
# key value layout in one regular expression match (the checks one by one only when it fails,
# to say why); run it with LC_ALL=C.

# trace_level tally: with -v tally=1 the stream is MixedTally's (the patched ns-2 counted these
# metrics with these definitions); lib/mixed_tally.awk reads and checks it, and its rules and END
# replace the ones below (included first).
@include "mixed_tally.awk"
@include "metrics.awk"
@include "link.awk"
@include "integrity.awk"

BEGIN {
    PROG = "vegas.awk"; tend = 0
    if (t0 == "" || t1 == "" || t1 <= t0 || t_end == "" || max_age == "" || src == "" \
        || dst == "" || fid == "" || hdr == "" || link_from == "" || link_to == "" \
        || link_bps <= 0 || series == "" || bin_s <= 0) {
        print PROG ": set -v t0=... -v t1=... -v t_end=... -v max_age=... -v src=... -v dst=... -v fid=... -v hdr=... -v link_from=... -v link_to=... -v link_bps=... -v bin_s=... -v series=FILE [-v traced=a-b,...]" > "/dev/stderr"
        usage = 1; exit 2
    }
    nt = split(traced, tl, ",")
    for (i = 1; i <= nt; i++) full[tl[i]] = 1
    EVENTS["+"]; EVENTS["-"]; EVENTS["r"]; EVENTS["d"]; EVENTS["s"]; EVENTS["f"]; EVENTS["D"]
    link_init(); INTEG_RES = 1e-6; integ_init()
    INTEG_WANT_END = fingerprint != ""  # the scenario's trace ends with "# end" (integ_end)
    # The wired (from, to) pairs that pass integ_node and integ_link, looked up in one step (when
    # both n_nodes and links are given; otherwise every line takes the checks one by one).
    if (n_nodes != "" && links != "")
        for (pair in INTEG_LINKS) {
            split(pair, ab, SUBSEP)
            if (integ_node(ab[1]) && integ_node(ab[2])) WIRED[ab[1], ab[2]] = 1
        }
    # e2e_delay.awk's and e2e_throughput.awk's
    n = 0; dsum = 0; dmax = 0; tbits = 0; good = 0; pkts = 0
}
# A wireless line not laid out as ns-2 writes it, key by key (as mixed.awk): sets T, NODE, LAYER,
# PTYPE, SIZE, FID, UID, SEQ; 0 when -Ni, -It or -Ii is missing (malformed).
function read_keys(    i) {
    NODE = ""; LAYER = ""; PTYPE = ""; SIZE = 0; FID = ""; UID = ""; SEQ = ""; T = 0
    for (i = 2; i < NF; i += 2) {
        if ($i == "-t") T = $(i + 1) + 0
        else if ($i == "-Ni") NODE = $(i + 1)
        else if ($i == "-Nl") LAYER = $(i + 1)
        else if ($i == "-It") PTYPE = $(i + 1)
        else if ($i == "-Il") SIZE = $(i + 1) + 0
        else if ($i == "-If") FID = $(i + 1)
        else if ($i == "-Ii") UID = $(i + 1)
        else if ($i == "-Ps") SEQ = $(i + 1)
    }
    return !(NODE == "" || PTYPE == "" || UID == "")
}
# From a data packet's last line (in $0, kept in L[uid]): LAST its time, WHERE "from-to event"
# (wired) or "node N layer" (wireless), as e2e_loss.awk records them.
function last_seen() {
    if ($2 != "-t") { LAST = $2 + 0; WHERE = $3 "-" $4 " " $1; return }
    if ($8 == "-Ni" && $18 == "-Nl" && $20 == "-Nw" && $34 == "-It" && $36 == "-Il" \
        && $38 == "-If" && $40 == "-Ii") { LAST = $3 + 0; WHERE = "node " $9 " " $19; return }
    read_keys(); LAST = T; WHERE = "node " NODE " " LAYER
}
# First receipt of a sent data packet by the agent at dst (T, UID, SIZE, SEQ set).
function receipt(    ts, d) {
    delivered[UID] = T
    ts = sent[UID]
    if (ts >= t0 && ts <= t1) {
        d = (T - ts) * 1000
        delays[++n] = d; dsum += d
        if (d > dmax) dmax = d
    }
    # its bits inside the window: the part the bottleneck sent in [t0, t1] (lib/link.awk)
    if (UID in LINK_FRAC) { frac = LINK_FRAC[UID]; delete LINK_FRAC[UID] }
    else frac = (T >= t0 && T <= t1) ? 1 : 0
    if (frac > 0) {
        tbits += SIZE * 8 * frac; pkts++
        if (!(SEQ in seen)) { seen[SEQ] = 1; good += (SIZE - hdr) * 8 * frac }
    }
    if (T >= t0 && T <= t1) binbits[int((T - t0) / bin_s)] += SIZE * 8
}
# An 'r' on the bottleneck: the packet took its transmission time plus the link's delay.
function transit(uid, t, size,    want) {
    if (!(uid in DEQ)) return
    want = size * 8 / link_bps + link_delay
    if (t - DEQ[uid] - want > 2e-6 || want - (t - DEQ[uid]) > 2e-6)
        fail(sprintf("packet %s crossed the bottleneck in %.6f s, the scenario's link takes %.6f s (a stream of another scenario?)", uid, t - DEQ[uid], want))
    delete DEQ[uid]
}
# Line 1: the run's header (skipped once checked; a missing one fails, and the line is read).
FNR == 1 && integ_header() { next }
# The scenario's last line "# end" (integ_footer): checked and skipped; nothing may follow it.
INTEG_ENDED { fail("a line after the end line \"# end\" (appended?): " substr($0, 1, 80)); next }
/^#/ { integ_footer(); next }
{
    ssum_line()  # the end line's checksum (lib/streamsum.awk)
    EV = $1
    if (EV == "M") {  # "M TIME NODE (x, y, z), (x, y), speed" or the header "M 0.0 nn ..."
        if (NF < 3) { fail("malformed or truncated line (" NF " fields): " substr($0, 1, 80)); next }
        integ_line($2); next
    }
    if (!(EV in EVENTS)) { fail("not a trace line (event '" substr(EV, 1, 20) "'): " substr($0, 1, 80)); next }
    if ($2 != "-t") {
        # a wired line
        if (NF != 12) { fail("malformed or truncated line (" NF " fields, 12 expected): " substr($0, 1, 80)); next }
        # every field of its type (as lib/wired.awk): nodes, size, uid numbers, addresses node.port
        if ($0 !~ /^[-+rdD] [^ ]+ [0-9]+ [0-9]+ [A-Za-z][A-Za-z0-9_]* [0-9]+ [-A-Za-z]+ -?[0-9]+ [0-9]+(\.-?[0-9]+)+ [0-9]+(\.-?[0-9]+)+ -?[0-9]+ [0-9]+$/) {
            fail("malformed wired line (a field not of its type: event + - r d, nodes, type, size, flags, flow, node.port addresses, sequence number, uid): " substr($0, 1, 80)); next
        }
        if (!integ_line($2)) next
        if (!(($3, $4) in WIRED)) {  # not one of the scenario's links between its nodes: say why
            if (!integ_node($3) || !integ_node($4)) { fail("node not in the scenario (" n_nodes " nodes): " substr($0, 1, 80)); next }
            if (!integ_link($3, $4)) { fail("link " $3 "-" $4 " is not one of the scenario's"); next }
        }
        T = $2 + 0
        # The bottleneck, as link.awk: every line whose $3 and $4 are its ends.
        if ($3 == link_from && $4 == link_to) {
            link_event(EV, $12, T, $6)
            if (link_delay != "") {
                if (EV == "-") DEQ[$12] = T
                else if (EV == "r") transit($12, T, $6)
            }
        }
        if (T > tend) tend = T
        if ($5 != "tcp" || $8 != fid) next
        UID = $12
        if (UID in GONE) { fail("data packet " UID " seen (" EV " on " $3 "-" $4 ") after it was dropped on a wired link (a drop followed by a receipt?)"); next }
        if (EV == "d") GONE[UID] = 1
        if (!(UID in sent)) {
            if (EV == "+" && $3 == src) {
                sent[UID] = T; nsent++
                if ($11 in seqsent) rtx[UID] = 1
                seqsent[$11] = 1
            } else {
                fail("data packet " UID " seen (" EV ") but never sent by node " src)
                next
            }
        }
        L[UID] = $0  # its last line: when and where it was last seen (read again in END)
        if (EV == "r") {
            if ($4 == dst && !(UID in delivered)) { SIZE = $6 + 0; SEQ = $11; receipt() }
        } else if (EV == "d" || EV == "D") {
            if (!(UID in dropped)) dropped[UID] = "wired"
        }
        next
    }
    # a wireless line: its event, then key value pairs (every key starts with '-')
    # (a line of single-space separated tokens "EV -t T -k v -k v ..." passes both checks at once)
    if ($0 !~ /^[^ \t]+ -t [^ \t]+( -[^ \t]* [^ \t]+)* ?$/) {
        if (NF % 2 == 0) { fail("malformed or truncated line (" NF " fields: not key value pairs): " substr($0, 1, 80)); next }
        for (i = 2; i < NF; i += 2) if (substr($i, 1, 1) != "-") { fail("malformed line (field " i " '" substr($i, 1, 20) "' is not a key): " substr($0, 1, 80)); next }
    }
    # the keys where ns-2 writes them, else one by one
    if (!integ_line($3)) next
    if ($8 == "-Ni" && $18 == "-Nl" && $20 == "-Nw" && $34 == "-It" && $36 == "-Il" \
        && $38 == "-If" && $40 == "-Ii") {
        T = $3 + 0
        if (n_nodes != "" && !($9 in INTEG_NODE)) { fail("node " $9 " not in the scenario (" n_nodes " nodes)"); next }
        if (T > tend) tend = T
        if ($35 != "tcp" || $39 != fid) next
        if ($37 !~ /^[0-9]+$/ || $41 !~ /^[0-9]+$/) { fail("size '" substr($37, 1, 20) "' or uid '" substr($41, 1, 20) "' is not a number: " substr($0, 1, 80)); next }
        NODE = $9; LAYER = $19; UID = $41
    } else {
        if (!read_keys()) { fail("malformed or truncated line: " substr($0, 1, 80)); next }
        if (!integ_node(NODE)) { fail("node " NODE " not in the scenario (" n_nodes " nodes)"); next }
        if (T > tend) tend = T
        if (PTYPE != "tcp" || FID != fid) next
        SLOW = 1
    }
    if (UID in GONE) { fail("data packet " UID " seen (" EV " at node " NODE ") after it was dropped on a wired link (a drop followed by a receipt?)"); SLOW = 0; next }
    # ns-2 drops a packet in a router, a queue or the MAC, never at the agent it reached: a
    # drop at layer AGT is a receipt turned into a drop
    if ((EV == "d" || EV == "D") && LAYER == "AGT") { fail("data packet " UID " dropped at the agent of node " NODE " (ns-2 drops in routers, queues and the MAC: a receipt turned into a drop?)"); SLOW = 0; next }
    if (!(UID in sent)) {  # only a wired '+' sends
        fail("data packet " UID " seen (" EV ") but never sent by node " src)
        SLOW = 0; next
    }
    L[UID] = $0
    if (EV == "r") {
        if (NODE == dst && LAYER == "AGT" && !(UID in delivered)) {
            if (!SLOW) { SIZE = $37 + 0; SEQ = ($46 == "-Ps") ? $47 : "" }
            receipt()
        }
    } else if (EV == "d" || EV == "D") {
        if (!(UID in dropped)) dropped[UID] = "wireless"
    }
    SLOW = 0
}
END {
    if (usage) exit 2
    # e2e_loss.awk
    integ_end()
    if (nsent == 0) fail("no data packet of flow " fid " left node " src)
    if (tend < t_end - max_age) fail(sprintf("trace ends at %.6f s, before t_end - max_age = %.6f s", tend, t_end - max_age))
    for (u in sent) {
        inw = (sent[u] >= t0 && sent[u] <= t1)
        if (u in delivered) {
            a_recv++
            if (inw) { w_deliv++; if (u in dropped) w_after++ }
        } else if (u in dropped) {
            a_drop++
            if (inw) { w_drop++; if (dropped[u] == "wired") w_dwired++; else w_dwless++ }
        } else {
            $0 = L[u]; last_seen()
            if (LAST >= t_end - max_age) {
                a_fly++
            } else {
                a_strand++
                if (inw) w_strand++
                split(WHERE, wl, " ")
                if ((wl[1] in full) && (wl[2] == "+" || wl[2] == "-"))
                    fail(sprintf("packet %s stranded on traced link %s (last '%s' at %.6f s)", u, wl[1], wl[2], LAST))
            }
        }
        if (inw) { w_sent++; if (u in rtx) w_rtx++ }
    }
    if (w_sent > 0 && LINK_DEP == 0) fail("data packets were sent in [t0, t1] but the bottleneck " link_from "-" link_to " carried none")
    if (FAILED) { print PROG ": " FAILED " check(s) failed" > "/dev/stderr"; exit 3 }
    lost = w_drop + w_strand
    metric("tcp_sent_pkts", sprintf("%d", w_sent))
    metric("tcp_retransmitted_pkts", sprintf("%d", w_rtx))
    metric("tcp_delivered_pkts", sprintf("%d", w_deliv))
    metric("tcp_drops_total", sprintf("%d", w_drop))
    metric("tcp_drops_wired", sprintf("%d", w_dwired))
    metric("tcp_drops_wireless", sprintf("%d", w_dwless))
    metric("tcp_stranded_pkts", sprintf("%d", w_strand))
    metric("tcp_lost_pkts", sprintf("%d", lost))
    if (w_deliv + lost > 0) {
        metric("tcp_efficiency_pct", sprintf("%.6f", 100 * w_deliv / (w_deliv + lost)))
        metric("tcp_loss_rate", sprintf("%.6f", lost / (w_deliv + lost)))
    } else {
        metric("tcp_efficiency_pct", ""); metric("tcp_loss_rate", "")
    }
    metric("tcp_drops_after_delivery", sprintf("%d", w_after))
    metric("acct_sent", sprintf("%d", nsent))
    metric("acct_received", sprintf("%d", a_recv))
    metric("acct_dropped", sprintf("%d", a_drop))
    metric("acct_in_flight", sprintf("%d", a_fly))
    metric("acct_stranded", sprintf("%d", a_strand))
    metric("acct_trace_end", sprintf("%.6f", tend))
    metric("acct_ok", "1")
    # e2e_delay.awk
    if (n == 0) {
        metric("tcp_delay_ms_mean", ""); metric("tcp_delay_ms_p95", ""); metric("tcp_delay_ms_max", "")
        metric("tcp_delay_samples", "0")
    } else {
        asort(delays)
        k = int(0.95 * n + 0.999999); if (k < 1) k = 1; if (k > n) k = n
        metric("tcp_delay_ms_mean", sprintf("%.6f", dsum / n))
        metric("tcp_delay_ms_p95", sprintf("%.6f", delays[k]))
        metric("tcp_delay_ms_max", sprintf("%.6f", dmax))
        metric("tcp_delay_samples", sprintf("%d", n))
    }
    # e2e_throughput.awk
    w = t1 - t0
    metric("tcp_throughput_kbps", sprintf("%.6f", tbits / w / 1000))
    metric("tcp_goodput_kbps", sprintf("%.6f", good / w / 1000))
    metric("tcp_recv_pkts", sprintf("%d", pkts))
    # link.awk
    link_report()
    # e2e_ratio.awk, from the printed values (as it reads them back)
    dm = METRICS["tcp_delay_ms_mean"]; tp = METRICS["tcp_throughput_kbps"]
    if (dm == "" || tp == "" || tp + 0 == 0) metric("delay_per_throughput", "")
    else metric("delay_per_throughput", sprintf("%.6f", dm / tp))
    metrics_print()
    nb = int(w / bin_s + 1e-9)
    for (b = 0; b < nb; b++) printf "%.6f %.6f\n", t0 + b * bin_s, binbits[b] / bin_s / 1000 > series
    close(series)
}
