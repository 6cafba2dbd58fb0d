# streamsum.awk - (library) the end line "# end LINES SUM" that binds a stream to what ns wrote.
#
# Every stream a bufrepro scenario writes for a parser (the text traces, the tally streams, the
# side files) ends with "# end LINES SUM", written by the simulator (ns-2: StreamSum,
# ns2/patches/0008): LINES lines came before it, the header included, and SUM is their
# checksum. The definition is docs/trusting-a-run.md's "Stream format"; in short, with
# P = 2^40 - 87 and a line's fields as awk splits them at blanks:
#   c(f) = int(y) % P + int((y - int(y)) * 2^52) % P  with y = x * 2^30, when x = f + 0 is not
#          0 (every bit of the double x: the multiplications by powers of two are exact);
#          else W(f) (the bytes: w = (w * 257 + b) % P)
#   v(L) = (length(L) + sum over fields i * c(f_i)) % P      (at most 90 fields)
#   SUM  = (SUM * 31 + v(L) + P) % P over the lines in order
# The reader passes each line once, after its fields are split (a reader with another FS
# passes the fields split at blanks), so the cost is a few operations per field: a number's c
# is computed in place (times and uids are mostly unique: a cache would only fill memory), a
# word's W (a loop over its bytes) once per distinct word (the first 100,000 of them are kept
# in SSUM_C; a word past those is hashed each time it occurs).
# Reads: the line ($0, NF, $i) or the array given. Needs lib/metrics.awk (fail).
# Functions:
#   ssum_line()          a line of the stream ($0 and its fields at blanks)
#   ssum_fields(s, a, n) a line s whose fields at blanks are a[1..n]
#   ssum_end(line)       the end line "# end LINES SUM": 1 when it matches the lines summed;
#                        otherwise a failure naming the rule (lines lost, added or changed)
#   ssum_missing()       in END: the failure for a stream without its end line (cut short)
# Globals: SSUM_N (lines summed), SSUM_H (their checksum), SSUM_ENDED (the end line was read).

BEGIN { SSUM_P = 1099511627689 }

function ssum_word(f,    w, i, n) {
    if (!SSUM_ORD_OK) { for (i = 1; i < 256; i++) SSUM_ORD[sprintf("%c", i)] = i; SSUM_ORD_OK = 1 }
    n = length(f)
    for (i = 1; i <= n; i++) w = (w * 257 + SSUM_ORD[substr(f, i, 1)]) % SSUM_P
    return w + 0
}

function ssum_line(    i, s, x, y, h) {
    if (NF > 90) { fail("line of " NF " fields (at most 90: the checksum's sum must stay exact)"); return }
    s = length($0)
    for (i = 1; i <= NF; i++) {
        if (x = $i + 0) { y = x * 1073741824; h = int(y); s += i * (h % SSUM_P + int((y - h) * 4503599627370496) % SSUM_P) }
        else s += i * (($i in SSUM_C) ? SSUM_C[$i] : ssum_w($i))
    }
    SSUM_H = (SSUM_H * 31 + s % SSUM_P + SSUM_P) % SSUM_P
    SSUM_N++
}

function ssum_fields(line, a, n,    i, s, x, y, h) {
    if (n > 90) { fail("line of " n " fields (at most 90: the checksum's sum must stay exact)"); return }
    s = length(line)
    for (i = 1; i <= n; i++) {
        if (x = a[i] + 0) { y = x * 1073741824; h = int(y); s += i * (h % SSUM_P + int((y - h) * 4503599627370496) % SSUM_P) }
        else s += i * ((a[i] in SSUM_C) ? SSUM_C[a[i]] : ssum_w(a[i]))
    }
    SSUM_H = (SSUM_H * 31 + s % SSUM_P + SSUM_P) % SSUM_P
    SSUM_N++
}

# c(f) of a field whose number is 0 (a word, or a zero): W(f), kept in SSUM_C by the field's
# text (the first 100,000 distinct texts: event letters, packet types, flags and zeros repeat on
# every line). The numeric case is inlined in ssum_line and ssum_fields, uncached.
function ssum_w(f,    c) {
    c = ssum_word(f)
    if (SSUM_NC < 100000) { SSUM_NC++; SSUM_C[f] = c }
    return c
}

function ssum_end(line,    m) {
    if (SSUM_ENDED) { fail("a second end line (a stream written twice, or two streams joined?): " substr(line, 1, 60)); return 0 }
    SSUM_ENDED = 1
    if (line !~ /^# end (0|[1-9][0-9]*) (0|[1-9][0-9]*)$/) {
        fail("end line '" substr(line, 1, 60) "' is not '# end LINES SUM' (a bare \"# end\": a stream cut and re-ended by hand, or written by an ns without StreamSum?)")
        return 0
    }
    split(line, m, " ")
    if (m[3] + 0 != SSUM_N || m[4] + 0 != SSUM_H) {
        fail(sprintf("end line says %s lines, checksum %s; the stream has %d lines before it, checksum %.0f: lines lost, added or changed (a cut stream re-ended, or another run's body under this header?)", m[3], m[4], SSUM_N, SSUM_H))
        return 0
    }
    return 1
}

function ssum_missing() {
    if (!SSUM_ENDED) fail("no end line \"# end LINES SUM\" after the last line (" SSUM_N " lines): the stream was cut short")
}
