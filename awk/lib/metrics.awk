# metrics.awk - (library) the output and failure helpers every parser of awk/*/ shares.
#
# Reads: no field, no line; gawk functions only (included with @include "metrics.awk" and
#        AWKPATH=awk/lib).
# Globals: PROG - the program's name, printed before each failure (set it in BEGIN);
#          FAILED - how many checks failed so far.
# Functions:
#   metric(name, value)   records the output line "name<TAB>value" (value already formatted:
#                         callers use sprintf("%d") for counts and sprintf("%.6f") for reals,
#                         "" for an undefined value); a later call with the same name replaces it
#   metrics_print()       prints every recorded line in C byte order of the names, which is the
#                         order of `LC_ALL=C sort` of the lines (a tab sorts before any name byte)
#   fail(msg)             counts a failed check and prints "PROG: FILE: line FNR: msg" on stderr
#                         (the first 10 only): the file (FILENAME, "-" for stdin), the line
#                         number in it and the rule broken
# Prints: nothing of its own (no metric is defined here).

function metric(name, value) { METRICS[name] = value }

function metrics_print(    name, saved) {
    saved = PROCINFO["sorted_in"]
    PROCINFO["sorted_in"] = "@ind_str_asc"
    for (name in METRICS) printf "%s\t%s\n", name, METRICS[name]
    PROCINFO["sorted_in"] = saved
}

function fail(msg) {
    if (FAILED < 10)
        print PROG ": " (FILENAME == "" ? "-" : FILENAME) ": line " FNR ": " msg > "/dev/stderr"
    FAILED++
}
