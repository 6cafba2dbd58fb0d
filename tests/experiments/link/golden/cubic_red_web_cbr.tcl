
# bufrepro: link experiment (rendered; do not edit by hand)
# experiment=cubic_red_web_cbr queue=RED buffer=400 seed=1
# Hops each way: 5.0 ms access, 30.0 ms bottleneck, 5.0 ms access (base RTT 100.0 ms).
remove-all-packet-headers
add-packet-header IP TCP Flags RTP
set ns [new Simulator]
$defaultRNG seed 1

# --- TCP: CUBIC (Agent/TCP/Linux, select_ca cubic), window_ 248350 packets (auto: far above the BDP) ---
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 248350
Agent/TCP set windowInit_ 10
Agent/TCP set tcpTick_ 0.001
Agent/TCP set ecn_ 0
Agent/TCP set syn_ true
Agent/TCP/Linux set timestamps_ true
Agent/TCPSink/Sack1 set ts_echo_rfc1323_ true
Agent/TCP/FullTcp set segsize_ 1460

# --- RED parameters (used only when the bottleneck queue is RED) ---
Queue/RED set thresh_ 5.0
Queue/RED set maxthresh_ 200.0
Queue/RED set q_weight_ 0.002
Queue/RED set linterm_ 10.0
Queue/RED set gentle_ true
Queue/RED set setbit_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set mean_pktsize_ 1510
Queue/RED set bytes_ false

# --- Topology: routers 0 and 1, sink node 2; sources 3, 4, ... ---
set r1 [$ns node]
set r2 [$ns node]
set dst [$ns node]
$ns simplex-link $r1 $r2 1000000000 0.03 RED
$ns queue-limit $r1 $r2 400
$ns simplex-link $r2 $r1 1000000000 0.03 DropTail
$ns queue-limit $r2 $r1 100000
$ns duplex-link $r2 $dst 10000000000 0.005 DropTail
$ns queue-limit $r2 $dst 100000
$ns queue-limit $dst $r2 100000
# A source's access hop; long-lived flow i's one-way delay is 0.0 + (i - 1) x 0.01 s
# (base RTTs spread evenly by rtt_spread 0.3; mean: the base RTT), other sources 0.015 s.
proc access {{delay 0.015}} {
    global ns r1
    set n [$ns node]
    $ns duplex-link $n $r1 10000000000 $delay DropTail
    $ns queue-limit $n $r1 100000
    $ns queue-limit $r1 $n 100000
    return $n
}

# --- Only the bottleneck queue is traced; its first line is the run's fingerprint ---
set tf [open out.tr w]
puts $tf "# bufrepro cubic_red_web_cbr run=30796669d0fd92f5 seed=1 end=25.0"
$ns trace-queue $r1 $r2 $tf

# --- Random packet loss on the bottleneck (at the link's head: a 'd' with no '+') ---
set em [new ErrorModel]
$em unit pkt
$em set rate_ 0.0
$em ranvar [new RandomVariable/Uniform]
$ns lossmodel $em $r1 $r2

# --- 4 long-lived flows (FTP), flow ids 1..4, starts in [0, 1.0) s ---
set startvar [new RandomVariable/Uniform]
$startvar set min_ 0.0
$startvar set max_ 1.0
for {set i 1} {$i <= 4} {incr i} {
    set src [access [expr {0.0 + ($i - 1) * 0.01}]]
    set tcp($i) [new Agent/TCP/Linux]
    $tcp($i) set fid_ $i
    $ns attach-agent $src $tcp($i)
    set sink($i) [new Agent/TCPSink/Sack1]
    $ns attach-agent $dst $sink($i)
    $ns connect $tcp($i) $sink($i)
    $ns at 0 "$tcp($i) select_ca cubic"
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [$startvar value] "$ftp($i) start"
}

# --- One CBR/UDP flow, flow id 5: 1000 B every 0.008 s ---
set udp [new Agent/UDP]
$udp set fid_ 5
$ns attach-agent [access] $udp
set null [new Agent/Null]
$ns attach-agent $dst $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.008
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"

# --- Web-like short flows: PackMime HTTP, 20.0 new connections/s, servers left, clients right ---
set pm [new PackMimeHTTP]
$pm set-client $dst
$pm set-server [access]
$pm set-TCP Sack
$pm set-rate 20.0
$ns at 0.0 "$pm start"

proc finish {} {
    global ns tf
    $ns flush-trace
    # The stream's last line: its parser fails a stream without it (cut short).
    puts $tf "# end"
    close $tf
    puts "BUFREPRO_DONE [$ns now]"
    exit 0
}
$ns at 25.0 "finish"
$ns run
