# loss.awk - (library) packets sent and dropped, per traffic type, queue drops apart from link drops.
#
# Reads: no field. A trace reader (e.g. lib/wired.awk) takes the values from its lines and
#        calls the functions below once per event; needs lib/metrics.awk (metric).
# Globals read: t0, t1 - the measurement window (s).
# Calls (every packet type, ACKs included; a link is "from SUBSEP to"):
#   loss_type(type)               every trace line: the types reported are those seen (inline
#                                 for speed: if (!(type in LOSS_SENT)) loss_type(type))
#   loss_send(type, t)            a packet's first event at its source node ('+' or a drop
#                                 there), at time t
#   loss_enq(uid, link)           '+' of the packet on the link (it joins the link's queue)
#   loss_deq(uid, link)           '-' on the link (it leaves the queue, starts transmission)
#   loss_arrive(uid, link)        'r' on the link (it reached the link's far end)
#                                 (the three are one array operation each, which a reader may
#                                 inline for speed: LOSS_Q[uid, from, to] = 1, then delete)
#   loss_drop(uid, link, type, t) 'd' of the packet on the link at time t
#   loss_report()                 in END: records the metrics
# Definitions (events with time in [t0, t1] count; for each type T seen on any line):
#   T_sent_pkts        type-T packets whose first event at their source node (from-node = node
#                      of the source address; a '+' or a drop there) falls in the window
#   T_drops_queue      'd' events of a packet that had a '+' on that link and no '-' yet: the
#                      queue (DropTail overflow, RED early or forced drop) discarded it
#   T_drops_link       'd' events of a packet with no '+' on that link (an error model at the
#                      link head, as ns-2's lossmodel installs it) or already dequeued there
#                      (an error model after the queue)
#   T_drops_total      T_drops_queue + T_drops_link
#   T_loss_rate        T_drops_total / T_sent_pkts (empty when nothing was sent); a reader may
#                      rename it per type: LOSS_RATE_NAME[T] = "name" (set in BEGIN)

function loss_type(type) {
    if (!(type in LOSS_SENT)) { LOSS_SENT[type] = 0; LOSS_DQ[type] = 0; LOSS_DL[type] = 0 }
}

function loss_send(type, t) { if (t >= t0 && t <= t1) LOSS_SENT[type]++ }

# LOSS_Q[uid SUBSEP link] exists while the packet waits in the link's queue: from its '+' there
# to its '-' (or an 'r' or 'd' there). Only a drop asks, and only whether it waits.
function loss_enq(uid, link) { LOSS_Q[uid SUBSEP link] = 1 }

function loss_deq(uid, link) { delete LOSS_Q[uid SUBSEP link] }

function loss_arrive(uid, link) { delete LOSS_Q[uid SUBSEP link] }

function loss_drop(uid, link, type, t,    key) {
    key = uid SUBSEP link
    if (key in LOSS_Q) { if (t >= t0 && t <= t1) LOSS_DQ[type]++ }
    else { if (t >= t0 && t <= t1) LOSS_DL[type]++ }
    delete LOSS_Q[key]
}

function loss_report(    t, dropped) {
    for (t in LOSS_SENT) {
        dropped = LOSS_DQ[t] + LOSS_DL[t]
        metric(t "_sent_pkts", sprintf("%d", LOSS_SENT[t]))
        metric(t "_drops_queue", sprintf("%d", LOSS_DQ[t]))
        metric(t "_drops_link", sprintf("%d", LOSS_DL[t]))
        metric(t "_drops_total", sprintf("%d", dropped))
        metric((t in LOSS_RATE_NAME) ? LOSS_RATE_NAME[t] : t "_loss_rate", LOSS_SENT[t] > 0 ? sprintf("%.6f", dropped / LOSS_SENT[t]) : "")
    }
}
