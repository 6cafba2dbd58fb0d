
# bufrepro: dumbbell scenario (rendered; do not edit by hand)
# study=dumbbell queue=RED plr=0.05 bottleneck_mbps=0.5 buffer=50 seed=2
# Only the packet headers this scenario uses (Common is always kept): ns-2 otherwise allocates,
# zeroes and copies every protocol's header for every packet. The output is the same to the byte.
remove-all-packet-headers
add-packet-header IP TCP Flags RTP
set ns [new Simulator]
$defaultRNG seed 2

# --- TCP (Table 1) ---
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 1000
Agent/TCP set windowInit_ 3
Agent/TCP set rtxcur_init_ 1.0
Agent/TCP set tcpTick_ 0.001
Agent/TCP set ecn_ 0
Agent/TCP set syn_ true

# --- RED parameters: the bottleneck's queue (a DropTail run sets none of them, so that its
# scenario does not differ with settings it never reads) ---
Queue/RED set thresh_ 12.5
Queue/RED set maxthresh_ 37.5
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10.0
Queue/RED set gentle_ true
Queue/RED set setbit_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set mean_pktsize_ 1500
Queue/RED set bytes_ false

set tf [open out.tr w]
# The run's fingerprint, the trace's first line: its parser checks study, seed, end and run.
# StreamSum (the patched ns-2) writes it and sums every line after it; finish ends the stream
# with "# end LINES SUM" (docs/trusting-a-run.md, "Stream format").
set tsum [new StreamSum]
$tsum attach $tf
$tsum puts "# bufrepro dumbbell run=8fea3266aaf58202 seed=2 end=5"
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
$tally param t0 {1}
$tally param t1 {5}
$tally param t_end {5}
$tally param max_age {1.297562}
$tally param link_from {4}
$tally param link_to {5}
$tally param link_bps {500000}
$tally param link_delay {0.01}
$tally start

# --- Topology: TCP sources 0,2,3; UDP source 1; routers 4,5; TCP sink 6; UDP null 7 ---
foreach i {0 1 2 3 4 5 6 7} { set n($i) [$ns node] }
foreach src {0 1 2 3} {
    $ns duplex-link $n($src) $n(4) 1000Mb 2ms DropTail
    $ns queue-limit $n($src) $n(4) 1000
}
# The bottleneck as two simplex links: the swept queue on the data direction 4->5 (ns-2 limit_
# 50 for a buffer of 50), a DropTail queue on the ACK direction 5->4.
$ns simplex-link $n(4) $n(5) 0.5Mb 10ms RED
$ns queue-limit $n(4) $n(5) 50
$ns simplex-link $n(5) $n(4) 0.5Mb 10ms DropTail
$ns queue-limit $n(5) $n(4) 1000
foreach dst {6 7} {
    $ns duplex-link $n(5) $n($dst) 1000Mb 2ms DropTail
    $ns queue-limit $n(5) $n($dst) 1000
}

# --- Random packet loss on the bottleneck (drops at the link head: a 'd' with no '+') ---
set em [new ErrorModel]
$em unit pkt
$em set rate_ 0.05
$em ranvar [new RandomVariable/Uniform]
$ns lossmodel $em $n(4) $n(5)

# --- Traffic: 3 bulk TCP flows (FTP) to node 6, one CBR/UDP flow to node 7 ---
set startvar [new RandomVariable/Uniform]
$startvar set min_ 0.0
$startvar set max_ 1.0
foreach {src fid} {0 0 2 1 3 2} {
    set tcp($src) [new Agent/TCP/Sack1]
    $tcp($src) set fid_ $fid
    $ns attach-agent $n($src) $tcp($src)
    set sink($src) [new Agent/TCPSink/Sack1]
    $ns attach-agent $n(6) $sink($src)
    $ns connect $tcp($src) $sink($src)
    set ftp($src) [new Application/FTP]
    $ftp($src) attach-agent $tcp($src)
    $ns at [expr {0.0 + [$startvar value]}] "$ftp($src) start"
}
set udp [new Agent/UDP]
$udp set fid_ 9
$ns attach-agent $n(1) $udp
set null [new Agent/Null]
$ns attach-agent $n(7) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.4
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"

proc finish {} {
    global ns tf
    $ns flush-trace
    [set ::tsum] puts [[set ::tally] report]
    # The stream's last line "# end LINES SUM": its parser fails a stream without it (cut short)
    # or whose lines do not match it (cut and re-ended, spliced, edited).
    [set ::tsum] end
    close $tf
    puts "BUFREPRO_DONE [$ns now]"
    exit 0
}
$ns at 5 "finish"
$ns run
