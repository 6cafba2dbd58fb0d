#!/usr/bin/gawk -f
# e2e_throughput.awk - throughput of one TCP flow at its receiver (the vegas study's "network
# throughput"), on a wired-cum-wireless trace. Needs mixed.awk: gawk -f mixed.awk -f e2e_throughput.awk.
#
# Reads (through mixed.awk's parse_line): wired $1 event, $2 time, $4 to node, $5 type, $6 size,
#  $8 flow id, $11 sequence number, $12 uid; wireless $1 event and -t, -Ni, -Nl, -It, -Il, -If,
#  -Ii, -Ps.
# Parameters (-v): t0, t1 - measurement window (s, t1 > t0); dst - the receiver's node; fid - the
#                  flow id of the TCP agent; hdr - header bytes inside each data packet's size
#                  (ns-2's Vegas packetSize_ is the whole packet, 40 B of TCP/IP header included);
#                  optional series - a file for the time series, bin_s - its bin width (s).
# Received: the first receipt of a data packet (type "tcp", flow id fid; one uid per
# transmission) by the agent at dst - a wireless 'r' at node dst on layer AGT, or a wired 'r' on
# a link into dst - at a time in [t0, t1].
# Definitions:
#   tcp_throughput_kbps   bits of the received packets (headers and retransmitted copies
#                         included) / (t1 - t0) / 1000 ("network throughput")
#   tcp_goodput_kbps      (size - hdr) * 8 bits of the first receipt of each sequence number,
#                         / (t1 - t0) / 1000 (duplicates and headers excluded)
#   tcp_recv_pkts         the received packets
# series (when set): one line per bin [t0 + k * bin_s, t0 + (k + 1) * bin_s) inside [t0, t1]:
#   "<bin start s> <throughput kbps over the bin>", every bin printed, empty ones as 0.
BEGIN {
    OFS = "\t"
    if (t0 == "" || t1 == "" || t1 <= t0 || dst == "" || fid == "" || hdr == "") {
        print "e2e_throughput.awk: set -v t0=... -v t1=... -v dst=... -v fid=... -v hdr=..." > "/dev/stderr"
        usage = 1; exit 2
    }
    if (series != "" && bin_s <= 0) {
        print "e2e_throughput.awk: series needs -v bin_s=... > 0" > "/dev/stderr"; usage = 1; exit 2
    }
    bits = 0; good = 0; pkts = 0
}
$1 != "r" { next }  # the only event read (skipped before parsing: speed)
{
    if (!parse_line() || PTYPE != "tcp" || FID != fid || (UID in got)) next
    if (!((WIRELESS && NODE == dst && LAYER == "AGT") || (!WIRELESS && TO == dst))) next
    got[UID] = 1
    if (T < t0 || T > t1) next
    bits += SIZE * 8; pkts++
    if (!(SEQ in seen)) { seen[SEQ] = 1; good += (SIZE - hdr) * 8 }
    if (series != "") { b = int((T - t0) / bin_s); binbits[b] += SIZE * 8 }
}
END {
    if (usage) exit 2
    w = t1 - t0
    printf "tcp_throughput_kbps\t%.6f\n", bits / w / 1000
    printf "tcp_goodput_kbps\t%.6f\n", good / w / 1000
    printf "tcp_recv_pkts\t%d\n", pkts
    if (series != "") {
        nb = int(w / bin_s + 1e-9)
        for (b = 0; b < nb; b++) printf "%.6f %.6f\n", t0 + b * bin_s, binbits[b] / bin_s / 1000 > series
        close(series)
    }
}
