#!/usr/bin/gawk -f
# loss.awk - packets sent and dropped, per traffic type, queue drops apart from link drops.
#
# Reads: $1 event, $2 time (s), $3 from node, $4 to node, $5 packet type, $9 source address, $12 uid.
# Parameters (-v): t0, t1 - the measurement window in seconds.
# Definitions (events with time in [t0, t1] count):
#   T_sent_pkts        type-T packets whose first event at their source node (from-node = node
#                      of the source address; a '+' or a drop there) falls in the window
#   T_drops_queue      'd' events of a packet that had a '+' on that link and no '-' yet: the
#                      queue (DropTail overflow, RED early or forced drop) discarded it
#   T_drops_link       'd' events of a packet with no '+' on that link (an error model at the
#                      link head, as ns-2's lossmodel installs it) or already dequeued there
#                      (an error model after the queue)
#   T_drops_total      T_drops_queue + T_drops_link
#   T_loss_rate        T_drops_total / T_sent_pkts (empty when nothing was sent)
# Types include "ack"; the pipeline reports tcp and cbr.
BEGIN { OFS = "\t"; if (t0 == "" || t1 == "") { print "loss.awk: set -v t0=... -v t1=..." > "/dev/stderr"; usage = 1; exit 2 } }
{
    uid = $12; link = uid SUBSEP $3 SUBSEP $4; t = $5
    if (!(t in sent)) { sent[t] = 0; dq[t] = 0; dl[t] = 0 }
    if (!(uid in origin) && ($1 == "+" || $1 == "d")) {
        split($9, s, ".")
        if ($3 == s[1]) { origin[uid] = 1; if ($2 >= t0 && $2 <= t1) sent[t]++ }
    }
}
$1 == "+" { state[link] = "q"; next }
$1 == "-" { state[link] = "tx"; next }
$1 == "r" { delete state[link]; next }
$1 == "d" {
    inwin = ($2 >= t0 && $2 <= t1)
    if ((link in state) && state[link] == "q") { if (inwin) dq[t]++ } else { if (inwin) dl[t]++ }
    delete state[link]
}
END {
    if (usage) exit 2
    for (t in sent) {
        printf "%s_sent_pkts\t%d\n", t, sent[t]
        printf "%s_drops_queue\t%d\n", t, dq[t]
        printf "%s_drops_link\t%d\n", t, dl[t]
        printf "%s_drops_total\t%d\n", t, dq[t] + dl[t]
        if (sent[t] > 0) printf "%s_loss_rate\t%.6f\n", t, (dq[t] + dl[t]) / sent[t]
        else printf "%s_loss_rate\t\n", t
    }
}
