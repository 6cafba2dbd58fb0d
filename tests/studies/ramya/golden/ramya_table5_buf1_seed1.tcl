
# bufrepro: ramya scenario (rendered; do not edit by hand)
# study=ramya setup=table5 tcp=Newreno bottleneck_mbps=1.0 delay_scale=1.0 rwnd_bytes=102400 (window_ 191 segments) buffer=1 frames (ns-2 queue-limit 2) seed=1
# Only the packet headers this scenario uses (Common is always kept): ns-2 otherwise allocates,
# zeroes and copies every protocol's header for every packet. The output is the same to the byte.
remove-all-packet-headers
add-packet-header IP TCP Flags Ping
set ns [new Simulator]
$defaultRNG seed 1

# --- TCP: INET 2.x TCP defaults where the paper is silent (no SACK, no delayed ACK, IW 1, RTO >= 1 s) ---
Agent/TCP set packetSize_ 536
Agent/TCP set tcpip_base_hdr_size_ 40
Agent/TCP set window_ 191
Agent/TCP set windowInit_ 1
Agent/TCP set rtxcur_init_ 3.0
Agent/TCP set minrto_ 1.0
Agent/TCP set maxrto_ 240
Agent/TCP set tcpTick_ 0.001
Agent/TCP set ecn_ 0

set tf [open out.tr w]
# The run's fingerprint, the first line of the trace and of each side file (rtt, ping, queue):
# their parsers check study, seed, end and run. A StreamSum (the patched ns-2) attached to each
# file sums every line written to it from then on, whoever writes it (the trace, the TCP
# agent's rtt_ trace, Tcl's puts); finish ends each file with "# end LINES SUM"
# (docs/trusting-a-run.md, "Stream format").
set tsum [new StreamSum]
$tsum attach $tf
$tsum puts "# bufrepro ramya run=604cd4bc0d0c5c26 seed=1 end=5"
$ns trace-all $tf

# Each link traced by trace-all gets four trace objects (Trace/Enque, Deque, Drop, Recv), and
# ns-2 fills each of their five bound variables with its class default by asking the object's
# class, then each superclass, through a `catch` that fails, and builds an error message, at
# every class that lacks it. Those four classes have none of their own, so every object paid
# five failed lookups. Giving them Trace's defaults gives every object the same values at once.
foreach cls {Trace/Enque Trace/Deque Trace/Drop Trace/Recv} {
    foreach var {src_ dst_ callback_ show_tcphdr_ show_sctphdr_} { $cls set $var [Trace set $var] }
}

# trace_level tally (the patched ns-2): every traced event is counted in ns by WiredTally with
# the parser's definitions instead of being written; finish writes its small stream.
set tally [new WiredTally]
$tally param t0 {0}
$tally param t1 {5}
$tally param t_end {5}
$tally param max_age {0.932776}
$tally param link_from {1}
$tally param link_to {2}
$tally param link_bps {1000000}
$tally param link_delay {0.02}
$tally start

# --- Topology (Fig. 1): client 0 - R1 1 - R2 2 - server 3; ping client 4 at R1, ping server 5 at R2 ---
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 2Mb 2.0ms DropTail
$ns duplex-link $n(1) $n(2) 1.0Mb 20.0ms DropTail
$ns duplex-link $n(2) $n(3) 2Mb 2.0ms DropTail
$ns duplex-link $n(4) $n(1) 2Mb 2.0ms DropTail
$ns duplex-link $n(2) $n(5) 2Mb 2.0ms DropTail
foreach {a b} {0 1  1 0  2 1  2 3  3 2  4 1  1 4  2 5  5 2} {
    $ns queue-limit $n($a) $n($b) 10000
}
# The swept buffer: R1 -> R2 only (the data direction).
$ns queue-limit $n(1) $n(2) 2

# --- Queue length at R1 -> R2 (waiting packets, the one on the wire excluded), sampled ---
set qmon [$ns monitor-queue $n(1) $n(2) "" 0.1]
set qf [open queue.tr w]
set qsum [new StreamSum]
$qsum attach $qf
puts $qf "# bufrepro ramya run=604cd4bc0d0c5c26 seed=1 end=5"
proc sample_queue {} {
    global ns qmon qf
    puts $qf "[$ns now] [$qmon set pkts_]"
    $ns at [expr {[$ns now] + 0.1}] "sample_queue"
}
$ns at 0.0 "sample_queue"

# --- The bulk transfer: an FTP with unlimited data from client to server ---
set tcp [new Agent/TCP/Newreno]
$tcp set fid_ 1
$ns attach-agent $n(0) $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n(3) $sink
$ns connect $tcp $sink
set rf [open rtt.tr w]
set rsum [new StreamSum]
$rsum attach $rf
$rsum puts "# bufrepro ramya run=604cd4bc0d0c5c26 seed=1 end=5"
$tcp attach $rf
$tcp trace rtt_
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set startvar [new RandomVariable/Uniform]
$startvar set min_ 0.0
$startvar set max_ 1.0
$ns at [expr {0.0 + [$startvar value]}] "$ftp start"

# --- Ping (Section 4.1): a request every 0.01 s from node 4 to node 5 ---
set pf [open ping.tr w]
set psum [new StreamSum]
$psum attach $pf
puts $pf "# bufrepro ramya run=604cd4bc0d0c5c26 seed=1 end=5"


proc finish {} {
    global ns tf qf rf pf
    $ns flush-trace
    [set ::tsum] puts [[set ::tally] report]
    # The stream's last line "# end LINES SUM": its parser fails a stream without it (cut short)
    # or whose lines do not match it (cut and re-ended, spliced, edited).
    [set ::tsum] end
    close $tf
    foreach s {rsum qsum psum} { [set ::$s] end }
    close $qf
    close $rf
    close $pf
    puts "BUFREPRO_DONE [$ns now]"
    exit 0
}
$ns at 5 "finish"
$ns run
