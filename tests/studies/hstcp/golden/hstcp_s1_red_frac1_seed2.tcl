
# bufrepro: hstcp scenario (rendered; do not edit by hand)
# study=hstcp scenario=s1 queue=RED buffer_frac=1.0 buffer_pkts=12500 seed=2
# Only the packet headers this scenario uses (IP, TCP, Flags; Common is always kept): ns-2
# otherwise allocates, zeroes and copies every protocol's header for every packet. The output is
# the same to the byte; the run costs about half.
remove-all-packet-headers
add-packet-header IP TCP Flags
set ns [new Simulator]
$defaultRNG seed 2

# --- HighSpeed TCP (ns-2's native implementation, RFC 3649) ---
Agent/TCP set packetSize_ 960
Agent/TCP set window_ 1000000
Agent/TCP set windowOption_ 8
Agent/TCP set low_window_ 38
Agent/TCP set high_window_ 83000
Agent/TCP set high_p_ 1e-07
Agent/TCP set high_decrease_ 0.1
Agent/TCP set max_ssthresh_ 100
Agent/TCP set tcpTick_ 0.001
Agent/TCP set ecn_ 0
# Sender-side packet spacing of the patched ns-2 (ns2/patches/0002): 0 = stock bursts per ACK.
Agent/TCP set spacing_ 0

# --- (Adaptive) RED: the bottleneck's queue (a DropTail run sets none of it, so that its
# scenario does not differ with settings it never reads) ---
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set mean_pktsize_ 1000
Queue/RED set thresh_ 5000.0
Queue/RED set maxthresh_ 12500.0
Queue/RED set linterm_ 10.0
Queue/RED set adaptive_ 1
Queue/RED set q_weight_ -1
Queue/RED set gentle_ true
Queue/RED set setbit_ false

# --- Topology (Fig. 2): sources S_i -> R1 -> R2 -> sink D; RTT_i set by S_i's access delay ---
set r1 [$ns node]
set r2 [$ns node]
set dst [$ns node]
$ns duplex-link $r1 $r2 1000Mb 50ms RED
$ns queue-limit $r1 $r2 12500
$ns queue-limit $r2 $r1 1000000
$ns duplex-link $r2 $dst 10000Mb 1ms DropTail
$ns queue-limit $r2 $dst 1000000
$ns queue-limit $dst $r2 1000000


# --- Per-flow counters at the bottleneck (C++ counters, nothing formatted per packet) ---
set bneck [$ns link $r1 $r2]
set fmon [$ns makeflowmon Fid]
$ns attach-fmon $bneck $fmon
set qint [new Integrator]
$fmon set-pkts-integrator $qint


# --- Flows: long-lived FTP over HighSpeed TCP, each starting at a random time ---
set startvar [new RandomVariable/Uniform]
$startvar set min_ 0.0
$startvar set max_ 5.0
set fids {}

set s(0) [$ns node]
$ns duplex-link $s(0) $r1 10000Mb 6.75ms DropTail
$ns queue-limit $s(0) $r1 1000000
$ns queue-limit $r1 $s(0) 1000000
set tcp(0) [new Agent/TCP/Sack1]
$tcp(0) set fid_ 0
$ns attach-agent $s(0) $tcp(0)
set sink(0) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(0)
$ns connect $tcp(0) $sink(0)
set ftp(0) [new Application/FTP]
$ftp(0) attach-agent $tcp(0)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(0) start"
lappend fids 0

set s(1) [$ns node]
$ns duplex-link $s(1) $r1 10000Mb 7.25ms DropTail
$ns queue-limit $s(1) $r1 1000000
$ns queue-limit $r1 $s(1) 1000000
set tcp(1) [new Agent/TCP/Sack1]
$tcp(1) set fid_ 1
$ns attach-agent $s(1) $tcp(1)
set sink(1) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(1)
$ns connect $tcp(1) $sink(1)
set ftp(1) [new Application/FTP]
$ftp(1) attach-agent $tcp(1)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(1) start"
lappend fids 1

set s(2) [$ns node]
$ns duplex-link $s(2) $r1 10000Mb 7.75ms DropTail
$ns queue-limit $s(2) $r1 1000000
$ns queue-limit $r1 $s(2) 1000000
set tcp(2) [new Agent/TCP/Sack1]
$tcp(2) set fid_ 2
$ns attach-agent $s(2) $tcp(2)
set sink(2) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(2)
$ns connect $tcp(2) $sink(2)
set ftp(2) [new Application/FTP]
$ftp(2) attach-agent $tcp(2)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(2) start"
lappend fids 2

set s(3) [$ns node]
$ns duplex-link $s(3) $r1 10000Mb 8.25ms DropTail
$ns queue-limit $s(3) $r1 1000000
$ns queue-limit $r1 $s(3) 1000000
set tcp(3) [new Agent/TCP/Sack1]
$tcp(3) set fid_ 3
$ns attach-agent $s(3) $tcp(3)
set sink(3) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(3)
$ns connect $tcp(3) $sink(3)
set ftp(3) [new Application/FTP]
$ftp(3) attach-agent $tcp(3)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(3) start"
lappend fids 3

set s(4) [$ns node]
$ns duplex-link $s(4) $r1 10000Mb 8.75ms DropTail
$ns queue-limit $s(4) $r1 1000000
$ns queue-limit $r1 $s(4) 1000000
set tcp(4) [new Agent/TCP/Sack1]
$tcp(4) set fid_ 4
$ns attach-agent $s(4) $tcp(4)
set sink(4) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(4)
$ns connect $tcp(4) $sink(4)
set ftp(4) [new Application/FTP]
$ftp(4) attach-agent $tcp(4)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(4) start"
lappend fids 4

set s(5) [$ns node]
$ns duplex-link $s(5) $r1 10000Mb 9.25ms DropTail
$ns queue-limit $s(5) $r1 1000000
$ns queue-limit $r1 $s(5) 1000000
set tcp(5) [new Agent/TCP/Sack1]
$tcp(5) set fid_ 5
$ns attach-agent $s(5) $tcp(5)
set sink(5) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(5)
$ns connect $tcp(5) $sink(5)
set ftp(5) [new Application/FTP]
$ftp(5) attach-agent $tcp(5)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(5) start"
lappend fids 5

set s(6) [$ns node]
$ns duplex-link $s(6) $r1 10000Mb 9.75ms DropTail
$ns queue-limit $s(6) $r1 1000000
$ns queue-limit $r1 $s(6) 1000000
set tcp(6) [new Agent/TCP/Sack1]
$tcp(6) set fid_ 6
$ns attach-agent $s(6) $tcp(6)
set sink(6) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(6)
$ns connect $tcp(6) $sink(6)
set ftp(6) [new Application/FTP]
$ftp(6) attach-agent $tcp(6)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(6) start"
lappend fids 6

set s(7) [$ns node]
$ns duplex-link $s(7) $r1 10000Mb 10.25ms DropTail
$ns queue-limit $s(7) $r1 1000000
$ns queue-limit $r1 $s(7) 1000000
set tcp(7) [new Agent/TCP/Sack1]
$tcp(7) set fid_ 7
$ns attach-agent $s(7) $tcp(7)
set sink(7) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(7)
$ns connect $tcp(7) $sink(7)
set ftp(7) [new Application/FTP]
$ftp(7) attach-agent $tcp(7)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(7) start"
lappend fids 7

set s(8) [$ns node]
$ns duplex-link $s(8) $r1 10000Mb 10.75ms DropTail
$ns queue-limit $s(8) $r1 1000000
$ns queue-limit $r1 $s(8) 1000000
set tcp(8) [new Agent/TCP/Sack1]
$tcp(8) set fid_ 8
$ns attach-agent $s(8) $tcp(8)
set sink(8) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(8)
$ns connect $tcp(8) $sink(8)
set ftp(8) [new Application/FTP]
$ftp(8) attach-agent $tcp(8)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(8) start"
lappend fids 8

set s(9) [$ns node]
$ns duplex-link $s(9) $r1 10000Mb 11.25ms DropTail
$ns queue-limit $s(9) $r1 1000000
$ns queue-limit $r1 $s(9) 1000000
set tcp(9) [new Agent/TCP/Sack1]
$tcp(9) set fid_ 9
$ns attach-agent $s(9) $tcp(9)
set sink(9) [new Agent/TCPSink/Sack1]
$ns attach-agent $dst $sink(9)
$ns connect $tcp(9) $sink(9)
set ftp(9) [new Application/FTP]
$ftp(9) attach-agent $tcp(9)
$ns at [expr {0.0 + [$startvar value]}] "$ftp(9) start"
lappend fids 9



# --- What the bottleneck reports (see the header) ---
set tf [open bottleneck.fifo w]
fconfigure $tf -buffering full -buffersize 1048576
# A StreamSum (the patched ns-2) sums every line written to the stream from here on, whoever
# writes it (the trace objects, Tcl's puts); finish ends the stream with "# end LINES SUM".
set tsum [new StreamSum]
$tsum attach $tf
# The run's fingerprint, the stream's first line (before the M line): the parser checks study,
# seed, end and run.
puts $tf "# bufrepro hstcp run=cb6c96139779eead seed=2 end=30"
puts $tf "M capacity_bps 1000000000 packet_bytes 1000 buffer_pkts 12500 flows [llength $fids] t0 10 t1 30 sample_s 0.5 level counters"

# Drops only: ns-2's Drop trace object spliced after the link's drop head (as trace-queue does).
set drophead [$bneck set drophead_]
set dropT [$ns create-trace Drop $tf $r1 $r2]
$dropT target [$drophead target]
$drophead target $dropT
[$bneck queue] drop-target $drophead


proc sample {} {
    global ns tf fmon qint tcp fids
    set now [$ns now]
    $qint newpoint $now [$qint set lasty_]
    set line "Q $now [$fmon set parrivals_] [$fmon set pdepartures_] [$fmon set pdrops_]"
    append line " [$fmon set barrivals_] [$fmon set bdepartures_] [$fmon set pkts_] [$qint set sum_]"
    array set per {}
    foreach fl [$fmon flows] { set per([$fl set flowid_]) "[$fl set parrivals_]:[$fl set pdepartures_]:[$fl set pdrops_]" }
    foreach f $fids {
        if {[info exists per($f)]} { set c $per($f) } else { set c "0:0:0" }
        append line " $f:$c:[$tcp($f) set ack_]:[$tcp($f) set cwnd_]"
    }
    puts $tf $line
}
proc periodic {} {
    global ns
    sample
    $ns at [expr {[$ns now] + 0.5}] "periodic"
}
$ns at 0.0 "periodic"
$ns at 10 "sample"



proc finish {} {
    global ns

    global tf
    sample
    puts $tf "E [$ns now]"
    $ns flush-trace
    # The stream's last line "# end LINES SUM": its parser fails a stream without it (cut short)
    # or whose lines do not match it (cut and re-ended, spliced, edited).
    [set ::tsum] end
    close $tf


    puts "BUFREPRO_DONE [$ns now]"
    exit 0
}
$ns at 30 "finish"
$ns run
