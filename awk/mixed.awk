#!/usr/bin/gawk -f
# mixed.awk - a function library (no rules): one line of a wired-cum-wireless ns-2 trace as
# common fields. Loaded before a metric script: gawk -f mixed.awk -f e2e_delay.awk ...
#
# Reads two line formats:
#   wired links (old format): $1 event (+ - r d), $2 time (s), $3 from node, $4 to node,
#     $5 type, $6 size (bytes), $8 flow id, $11 sequence number, $12 uid;
#   wireless nodes (ns-2 "new trace", use-newtrace): $1 event (s r d f D), then key/value pairs;
#     read: -t time (s), -Ni node, -Nl layer (AGT RTR MAC IFQ ...), -Nw drop reason, -It type,
#     -Il size (bytes), -If flow id, -Ii uid, -Ps sequence number (TCP only).
# Sets, after parse_line() returned 1:
#   EV event, T time, WIRELESS (1 for a wireless line, else 0), PTYPE, SIZE, FID, UID, SEQ, and
#   FROM, TO (the link's ends) on a wired line or NODE, LAYER, REASON on a wireless one. The
#   fields of the other kind keep their last values: test WIRELESS before reading them.
# The wireless fields are read at the places ns-2 writes them ($3, $9, $19, $21, $35, $37, $39,
# $41, $47) after checking the keys before them; a line laid out otherwise is read key by key.
# parse_line() returns 0 for any other line (e.g. "M" movement lines, blank lines) and for a
# line too short to be an event (a truncated trace): MALFORMED is then 1.
function parse_line(    i) {
    EV = $1; MALFORMED = 0
    if (EV != "+" && EV != "-" && EV != "r" && EV != "d" && EV != "s" && EV != "f" && EV != "D")
        return 0
    if ($2 != "-t") {
        if (NF < 12) { MALFORMED = 1; return 0 }
        WIRELESS = 0
        T = $2 + 0; FROM = $3; TO = $4; PTYPE = $5; SIZE = $6 + 0; FID = $8; SEQ = $11; UID = $12
        return 1
    }
    WIRELESS = 1
    # ns-2 writes these keys at fixed places (cmu-trace.cc); read them there when they are there
    # (much faster on long traces), else look every key up.
    if ($8 == "-Ni" && $18 == "-Nl" && $20 == "-Nw" && $34 == "-It" && $36 == "-Il" \
        && $38 == "-If" && $40 == "-Ii") {
        T = $3 + 0; NODE = $9; LAYER = $19; REASON = $21; PTYPE = $35; SIZE = $37 + 0
        FID = $39; UID = $41; SEQ = ($46 == "-Ps") ? $47 : ""
        return 1
    }
    NODE = ""; LAYER = ""; REASON = ""; PTYPE = ""; SIZE = 0; FID = ""; UID = ""; SEQ = ""; T = 0
    for (i = 2; i < NF; i += 2) {
        if ($i == "-t") T = $(i + 1) + 0
        else if ($i == "-Ni") NODE = $(i + 1)
        else if ($i == "-Nl") LAYER = $(i + 1)
        else if ($i == "-Nw") REASON = $(i + 1)
        else if ($i == "-It") PTYPE = $(i + 1)
        else if ($i == "-Il") SIZE = $(i + 1) + 0
        else if ($i == "-If") FID = $(i + 1)
        else if ($i == "-Ii") UID = $(i + 1)
        else if ($i == "-Ps") SEQ = $(i + 1)
    }
    if (NODE == "" || PTYPE == "" || UID == "") { MALFORMED = 1; return 0 }
    return 1
}
