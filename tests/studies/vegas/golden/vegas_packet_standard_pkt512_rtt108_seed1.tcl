# bufrepro vegas run: packet, standard Vegas, 512 B packets, RTT 108 ms, buffer 50, transfer from 12.0 s, seed 1
# Packet spacing needs the patched ns-2: Debian's would take "$tcp set spacing_ 1" as a plain
# Tcl variable and run unspaced without a word.
if {[catch {Agent/TCP set spacing_}]} {
    puts stderr "this ns has no Agent/TCP spacing_: run the patched ns-2 (bash ns2/build.sh)"
    exit 1
}
# Only the packet headers this scenario uses (Common is always kept): IP, TCP and Flags for the
# transfer; ARP, LL and Mac for 802.11; MIP, Encap and IPinIP for Mobile IP's adverts,
# registrations and tunnel; Message (DSDV's updates) and RTP (UDP). ns-2 otherwise allocates,
# zeroes and copies every protocol's header for every packet. The trace, stdout and stderr are
# the same to the byte (16 quick and default scenarios compared); ns runs about 10 % faster.
remove-all-packet-headers
add-packet-header IP TCP Flags ARP LL Mac MIP Encap IPinIP Message RTP
set ns [new Simulator]
$defaultRNG seed 1
$ns set-address-format hierarchical
$ns use-newtrace
set tf [open out.tr w]
# The run's fingerprint, the trace's first line: its parser checks study, seed, end and run.
# StreamSum (the patched ns-2) writes it and sums every line after it; finish ends the stream
# with "# end LINES SUM" (docs/trusting-a-run.md, "Stream format").
set tsum [new StreamSum]
$tsum attach $tf
$tsum puts "# bufrepro vegas run=49367bb15213d099 seed=1 end=35"
$ns trace-all $tf

# Each link traced by trace-all gets four trace objects (Trace/Enque, Deque, Drop, Recv), and
# ns-2 fills each of their five bound variables with its class default by asking the object's
# class, then each superclass, through a `catch` that fails, and builds an error message, at
# every class that lacks it. Those four classes have none of their own, so every object paid
# five failed lookups. Giving them Trace's defaults gives every object the same values at once.
foreach cls {Trace/Enque Trace/Deque Trace/Drop Trace/Recv} {
    foreach var {src_ dst_ callback_ show_tcphdr_ show_sctphdr_} { $cls set $var [Trace set $var] }
}


# Node numbers (the AWK scripts read them): CN 0, N1 1, MAP 2 (wired); HA 3, AR1 4, AR2 5
# (base stations); MN 6 (mobile, home address in the HA's domain).
AddrParams set domain_num_ 4
AddrParams set cluster_num_ {1 1 1 1}
AddrParams set nodes_num_ {3 2 1 1}

set topo [new Topography]
$topo load_flatgrid 1520.0 600.0
create-god 4
set chan [new Channel/WirelessChannel]

Mac/802_11 set dataRate_ 11Mb
Mac/802_11 set basicRate_ 1Mb
Queue set limit_ 50

set CN [$ns node 0.0.0]
set N1 [$ns node 0.0.1]
set MAP [$ns node 0.0.2]
$ns node-config -mobileIP ON -adhocRouting DSDV -llType LL -macType Mac/802_11 \
    -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
    -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
    -topoInstance $topo -wiredRouting ON -agentTrace ON -routerTrace OFF -macTrace OFF \
    -movementTrace OFF
set HA [$ns node 1.0.0]
set AR1 [$ns node 2.0.0]
set AR2 [$ns node 3.0.0]
foreach {node x} [list $HA 250.0 $AR1 850.0 $AR2 1270.0] {
    $node random-motion 0
    $node set X_ $x
    $node set Y_ 300.0
    $node set Z_ 0.0
}
$ns node-config -wiredRouting OFF
set MN [$ns node 1.0.1]
$MN random-motion 0
$MN set X_ 260.0
$MN set Y_ 300.0
$MN set Z_ 0.0
[$MN set regagent_] set home_agent_ [AddrParams addr2id [$HA node-addr]]
foreach {node id} [list $CN 0 $N1 1 $MAP 2 $HA 3 $AR1 4 $AR2 5 $MN 6] {
    if {[$node id] != $id} { error "node numbering changed: expected $id, got [$node id]" }
}

# Wired links (Table I). The N1 -> MAP bottleneck is traced in full (+ - r d); CN -> N1, where the
# sender's packets enter the network, traces all but its dequeues (+ r d: a packet is sent at its
# first '+' there, one last seen at a '+' is in the link's queue or on its wire, and no metric
# reads the '-', a line in seven of a full trace); every other wired queue traces its drops.
$ns set traceAllFile_ ""
$ns duplex-link $CN $N1 100Mb 2ms DropTail
$ns duplex-link $HA $N1 100Mb 2ms DropTail
$ns duplex-link $N1 $MAP 2Mb 50.0ms DropTail
$ns duplex-link $MAP $AR1 1Mb 2ms DropTail
$ns duplex-link $MAP $AR2 1Mb 2ms DropTail
$ns queue-limit $N1 $MAP 50
$ns set traceAllFile_ $tf
$ns trace-queue $N1 $MAP $tf
proc trace_drops {from to} {
    global ns tf
    set link [$ns link $from $to]
    set drops [$ns create-trace Drop $tf $from $to ""]
    set head [$link set drophead_]
    $drops target [$head target]
    $head target $drops
    [$link set queue_] drop-target $head
}
# Enqueues and receipts as trace-queue traces them (SimpleLink trace: an Enque trace after the
# link's head, a Recv trace after its TTL check).
proc trace_enqueues_receipts {from to} {
    global ns tf
    set link [$ns link $from $to]
    $link add-to-head [$ns create-trace Enque $tf $from $to ""]
    set ttl [$link set ttl_]
    set recv [$ns create-trace Recv $tf $from $to ""]
    $recv target [$ttl target]
    $ttl target $recv
}
trace_enqueues_receipts $CN $N1
foreach {a b} [list $CN $N1 $N1 $CN $HA $N1 $N1 $HA $MAP $N1 $MAP $AR1 $AR1 $MAP $MAP $AR2 $AR2 $MAP] {
    trace_drops $a $b
}

# The transfer: FTP over TCP Vegas, CN -> MN.
Agent/TCP set window_ 1000
Agent/TCP set tcpTick_ 0.01
Agent/TCP/Vegas set v_alpha_ 1
Agent/TCP/Vegas set v_beta_ 3
Agent/TCP/Vegas set v_gamma_ 1
set tcp [new Agent/TCP/Vegas]
$tcp set class_ 1
$tcp set packetSize_ 512
$tcp set spacing_ 0
set sink [new Agent/TCPSink]
$ns attach-agent $CN $tcp
$ns attach-agent $MN $sink
# No metric reads the sink's ACK sends (AGT 's' lines at the MN, a quarter of the trace's bytes),
# and each has its receipt's time (TCPSink acks at once): they leave past the send trace. The
# receive trace (the receipts) stays.
$sink target [[$sink target] target]
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 12.0 "$ftp start"

# Movement (Section V): home -> FN1 (AR1), then towards FN2 (AR2).
$ns at 5 "$MN setdest 850.0 300.0 100"
$ns at 30 "$MN setdest 1270.0 300.0 100"

proc finish {} {
    global ns tf
    $ns flush-trace
    # The stream's last line "# end LINES SUM": its parser fails a stream without it (cut short)
    # or whose lines do not match it (cut and re-ended, spliced, edited).
    [set ::tsum] end
    close $tf
    puts "BUFREPRO_DONE [$ns now]"
    exit 0
}
$ns at 35 "finish"
$ns run
