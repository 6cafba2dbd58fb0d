# count.awk - the test parser of the fake backend.
# Reads: $1 time (s), $2 kind, $3 size (bytes). Parameters (-v): t0 - start of the window (s).
# Prints: events (lines with $1 >= t0), bytes (their sizes summed), acct_ok 1 (exits 4 on a
#   line that is not three fields).
NF != 3 { print "count.awk: line " NR ": malformed" > "/dev/stderr"; bad = 1; exit 4 }
$1 >= t0 { n++; b += $3 }
END { if (bad) exit 4; print "events\t" n + 0; print "bytes\t" b + 0; print "acct_ok\t1" }
