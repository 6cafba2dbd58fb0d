# wired_params.awk - (library) the parameters of a wired run's reader, checked before anything is read.
#
# Included by lib/wired.awk (the text trace) and by the studies' tally programs
# (dumbbell/dumbbell_tally.awk, ramya/ramya_tally.awk), which read the WiredTally stream with
# lib/tally.awk and so need none of the metric families.
# Reads: no line; only the -v parameters, in BEGIN.
# Parameters (-v; lib/wired.awk's header defines them): t0, t1 (t1 > t0), t_end, max_age,
#   link_from, link_to, link_bps (> 0), tcp_hdr (default 40), links, n_nodes, fingerprint,
#   sizes ("type:bytes,...": a packet of a type listed must have one of its sizes; empty: any),
#   hops ("a-b:queue_s:wire_s,...": how long a packet may wait in each link's queue and be on
#   its wire; a packet still there at the trace's end was last seen within that of it),
#   wire_drops ("a-b,...": the links whose receiver may drop a packet that crossed the wire, an
#   error model at the link's tail; empty: a drop is from a queue or at a link's head only).
# Sets: PROG (when the program has not: "wired.awk"); WIRED_USAGE = 1 and exit 2 when a
#   parameter is missing or out of range (nothing read, nothing printed; the usage on stderr);
#   tcp_hdr's default; INTEG_WANT_END (a fingerprint means the stream ends with "# end");
#   lib/integrity.awk's node and link tables (integ_init).

@include "metrics.awk"
@include "integrity.awk"

BEGIN {
    if (PROG == "") PROG = "wired.awk"
    if (t0 == "" || t1 == "" || t1 <= t0 || t_end == "" || max_age == "" || link_from == "" \
        || link_to == "" || link_bps <= 0) {
        print PROG ": set -v t0=... -v t1=... (t1 > t0) -v t_end=... -v max_age=... -v link_from=... -v link_to=... -v link_bps=... [-v tcp_hdr=40]" > "/dev/stderr"
        WIRED_USAGE = 1; exit 2
    }
    if (tcp_hdr == "") tcp_hdr = 40
    # hops "a-b:queue_s:wire_s,...": each link's longest queue wait and wire time (empty: every
    # unfinished packet gets max_age)
    n = split(hops, WIRED_HOP, ",")
    for (i = 1; i <= n; i++) {
        if (WIRED_HOP[i] !~ /^[0-9]+-[0-9]+:[0-9.]+:[0-9.]+$/) {
            print PROG ": -v hops=" hops ": expected a-b:queue_s:wire_s,..." > "/dev/stderr"
            WIRED_USAGE = 1; exit 2
        }
        split(WIRED_HOP[i], kv, "[-:]"); WIRED_HOPQ[kv[1], kv[2]] = kv[3] + 0; WIRED_HOPW[kv[1], kv[2]] = kv[4] + 0
    }
    # sizes "type:bytes,...": the packet sizes the scenario sends (empty: not checked)
    WIRED_NSIZE = split(sizes, WIRED_SZ, ",")
    for (i = 1; i <= WIRED_NSIZE; i++) {
        if (WIRED_SZ[i] !~ /^[A-Za-z][A-Za-z0-9_]*:[0-9]+$/) {
            print PROG ": -v sizes=" sizes ": expected type:bytes,type:bytes,..." > "/dev/stderr"
            WIRED_USAGE = 1; exit 2
        }
        split(WIRED_SZ[i], kv, ":"); WIRED_SIZE[kv[1], kv[2]] = 1; WIRED_STYPE[kv[1]] = 1
    }
    # wire_drops "a-b,...": links with an error model at their tail (empty: none)
    n = split(wire_drops, WIRED_WD, ",")
    for (i = 1; i <= n; i++) {
        if (WIRED_WD[i] !~ /^[0-9]+-[0-9]+$/) {
            print PROG ": -v wire_drops=" wire_drops ": expected a-b,a-b,..." > "/dev/stderr"
            WIRED_USAGE = 1; exit 2
        }
        split(WIRED_WD[i], kv, "-"); WIRED_WDROP[kv[1], kv[2]] = 1
    }
    integ_init()
    INTEG_WANT_END = fingerprint != ""  # the scenario's trace ends with "# end" (integ_end)
}
