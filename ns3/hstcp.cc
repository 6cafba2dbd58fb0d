// bufrepro ns-3 hstcp scenario: n HighSpeed TCP flows of different RTTs over one bottleneck
// R1 -> R2, writing the stream awk/hstcp/hstcp.awk reads (the ns-2 scenario's, see
// tcl/hstcp/hstcp.tcl.j2): the run's header, the M line (with this program's version and every
// parameter as further key-value pairs), 'd' lines for the bottleneck's drops (ns-2 trace format),
// Q samples of the bottleneck's counters every sampleS and at t0 and the end, the E line, and
// the end line "# end LINES SUM" (EndLine below: the one place that writes it).
//
// Nodes, as in the ns-2 scenario: R1 0, R2 1, the sink 2, flow f's source 3 + f.
// Bottleneck counters (R1's device towards R2 and its root queue disc): an arrival is a packet
// offered to the disc (accepted or refused), a departure a transmission start (PhyTxBegin), a
// drop the disc's (before enqueue or after dequeue); the queue is arrivals - departures - drops
// (the disc's packets plus the one waiting in the device queue). Bytes are IP packets' bytes.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/traffic-control-module.h"
#include "ns3/version-defines.h"
#include "streamsum.h"

#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

// The line being written (Printf), summed and written by EndOfLine.
std::string g_line;

#define NS3_STR2(x) #x
#define NS3_STR(x) NS3_STR2(x)
#define NS3_LIB_VERSION                                                                        \
    NS3_STR(NS3_VERSION_MAJOR) "." NS3_STR(NS3_VERSION_MINOR) "." NS3_STR(NS3_VERSION_PATCH)

static const char* PROGRAM_VERSION = "bufrepro-ns3-hstcp 2";
static const uint16_t PORT0 = 5000;
static const int FIRST_SOURCE = 3;

namespace
{

struct Flow
{
    uint64_t arr = 0, dep = 0, drop = 0;
    long long ack = -1;
    double cwnd = 0;
};

FILE* g_out = nullptr;
std::vector<Flow> g_flows;
uint64_t g_arr = 0, g_dep = 0, g_drop = 0, g_barr = 0, g_bdep = 0;
long long g_q = 0;
double g_qint = 0, g_qlast = 0;
uint32_t g_seg = 960;
uint64_t g_uid = 0;

// Append printf-formatted text to the line being written.
void
Printf(const char* fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n < (int)sizeof(buf))
    {
        g_line.append(buf, n > 0 ? n : 0);
        return;
    }
    std::vector<char> big(n + 1);
    va_start(ap, fmt);
    std::vsnprintf(big.data(), big.size(), fmt, ap);
    va_end(ap);
    g_line.append(big.data(), n);
}

// Write the line (and its newline) to the stream and sum it: every line before the end line
// goes through here, the header and the M line included.
void
EndOfLine(FILE* out)
{
    std::fwrite(g_line.data(), 1, g_line.size(), out);
    std::fputc('\n', out);
    g_sumLines++;
    g_sum = (g_sum * 31 + LineValue(g_line.data(), (int)g_line.size()) + SUM_P) % SUM_P;
    g_line.clear();
}

// The stream's last lines: the E line, then the end line "# end LINES SUM" (the only place
// that writes it; its format is the parser's to check).
void
EndLine(FILE* out, double t)
{
    Printf("E %g", t);
    EndOfLine(out);
    std::fprintf(out, "# end %lld %lld\n", g_sumLines, g_sum);
}

void
QueueChange(long long delta)
{
    double now = Simulator::Now().GetSeconds();
    g_qint += g_q * (now - g_qlast);
    g_qlast = now;
    g_q += delta;
}

int
FidOfSource(Ipv4Address src)
{
    // 10.1.<f+1>.1 is flow f's source (its access link's network).
    uint32_t a = src.Get();
    int net = (a >> 8) & 0xff;
    return ((a >> 16) & 0xff) == 1 ? net - 1 : -1;
}

void
OnArrive(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    int f = ip ? FidOfSource(ip->GetHeader().GetSource()) : -1;
    g_arr++;
    g_barr += item->GetSize();
    if (f >= 0 && f < (int)g_flows.size())
    {
        g_flows[f].arr++;
    }
    QueueChange(+1);
}

void
WriteDrop(Ptr<const QueueDiscItem> item)
{
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    int f = ip ? FidOfSource(ip->GetHeader().GetSource()) : -1;
    g_drop++;
    if (f >= 0 && f < (int)g_flows.size())
    {
        g_flows[f].drop++;
    }
    QueueChange(-1);
    long long seq = -1;
    TcpHeader t;
    if (item->GetPacket()->PeekHeader(t))
    {
        seq = (long long)t.GetSequenceNumber().GetValue();
    }
    if (g_out)
    {
        Printf("d %.9f 0 1 tcp %u ------- %d %d.0 2.%d %lld %llu",
                     Simulator::Now().GetSeconds(),
                     item->GetSize(),
                     f,
                     FIRST_SOURCE + f,
                     f,
                     seq,
                     (unsigned long long)++g_uid);
        EndOfLine(g_out);
    }
}

void
OnDropBefore(Ptr<const QueueDiscItem> item, const char*)
{
    OnArrive(item);
    WriteDrop(item);
}

void
OnDropAfter(Ptr<const QueueDiscItem> item, const char*)
{
    WriteDrop(item);
}

void
OnTx(Ptr<const Packet> p)
{
    Ptr<Packet> c = p->Copy();
    PppHeader ppp;
    c->RemoveHeader(ppp);
    Ipv4Header h;
    c->PeekHeader(h);
    int f = FidOfSource(h.GetSource());
    g_dep++;
    g_bdep += c->GetSize();
    if (f >= 0 && f < (int)g_flows.size())
    {
        g_flows[f].dep++;
    }
    QueueChange(-1);
}

void
OnAck(int f, SequenceNumber32, SequenceNumber32 ack)
{
    // ns-2's ack_: the highest packet acknowledged in order, counting from 0.
    g_flows[f].ack = (long long)((ack.GetValue() - 1) / g_seg) - 1;
}

void
OnCwnd(int f, uint32_t, uint32_t cwnd)
{
    g_flows[f].cwnd = (double)cwnd / g_seg;
}

void
Sample()
{
    QueueChange(0);
    Printf("Q %.9f %llu %llu %llu %llu %llu %lld %.9f",
                 Simulator::Now().GetSeconds(),
                 (unsigned long long)g_arr,
                 (unsigned long long)g_dep,
                 (unsigned long long)g_drop,
                 (unsigned long long)g_barr,
                 (unsigned long long)g_bdep,
                 g_q,
                 g_qint);
    for (size_t f = 0; f < g_flows.size(); ++f)
    {
        const Flow& x = g_flows[f];
        Printf(" %zu:%llu:%llu:%llu:%lld:%g",
                     f,
                     (unsigned long long)x.arr,
                     (unsigned long long)x.dep,
                     (unsigned long long)x.drop,
                     x.ack,
                     x.cwnd);
    }
    EndOfLine(g_out);
}

void
Periodic(double every)
{
    Sample();
    Simulator::Schedule(Seconds(every), &Periodic, every);
}

void
Hook(Ptr<BulkSendApplication> app, int f)
{
    Ptr<Socket> s = app->GetSocket();
    s->TraceConnectWithoutContext("HighestRxAck", MakeBoundCallback(&OnAck, f));
    s->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&OnCwnd, f));
}

void
Finish(double t)
{
    if (g_out)
    {
        Sample();
        EndLine(g_out, t);
        std::fflush(g_out);
    }
    std::printf("BUFREPRO_DONE %g\n", t);
    std::fflush(stdout);
    Simulator::Stop();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t seed = 1;
    std::string queue = "DropTail";
    uint32_t waiting = 100, bufferPkts = 100;
    double bottleneckMbps = 50, bottleneckDelayMs = 50, accessMbps = 500, sinkMbps = 500;
    double sinkDelayMs = 1;
    std::string accessDelaysMs = "1";
    uint32_t accessWaiting = 999999;
    uint32_t packetBytes = 1000;
    std::string tcp = "HighSpeed", recovery = "classic";
    bool sack = true;
    uint32_t iw = 2, delAck = 1, sockPkts = 10000;
    double initialRto = 3.0, minRto = 0.2, tick = 0.001;
    double startS = 0, startJitter = 5;
    double warmup = 10, duration = 30, sampleS = 0.5;
    double redMinTh = 1, redMaxTh = 3, redQw = 0.002, redMaxP = 0.1;
    bool redGentle = true, redAdaptive = true;
    double codelTargetMs = 5, codelIntervalMs = 100, pieTargetMs = 15;
    uint32_t fqFlows = 1024, fqQuantum = 1514;
    std::string trace = "bottleneck.fifo";
    std::string study = "hstcp", run = "none", end = "30";

    CommandLine cmd(__FILE__);
    cmd.AddValue("seed", "run number of ns-3's RNG (seed 1, run N)", seed);
    cmd.AddValue("queue", "bottleneck queue: DropTail RED CoDel PIE FqCoDel", queue);
    cmd.AddValue("waiting", "packets the bottleneck holds waiting (the one sent not counted)", waiting);
    cmd.AddValue("bufferPkts", "the buffer the M line names (ns-2's limit_)", bufferPkts);
    cmd.AddValue("bottleneckMbps", "bottleneck rate (Mb/s)", bottleneckMbps);
    cmd.AddValue("bottleneckDelayMs", "bottleneck delay (ms)", bottleneckDelayMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", accessMbps);
    cmd.AddValue("sinkMbps", "R2 -> sink rate (Mb/s)", sinkMbps);
    cmd.AddValue("sinkDelayMs", "R2 -> sink delay (ms)", sinkDelayMs);
    cmd.AddValue("accessDelaysMs", "each flow's access delay (ms), '_'-separated", accessDelaysMs);
    cmd.AddValue("accessWaiting", "packets the other links hold waiting", accessWaiting);
    cmd.AddValue("packetBytes", "data packet size as an IP packet (bytes)", packetBytes);
    cmd.AddValue("tcp", "TCP variant: HighSpeed NewReno Cubic", tcp);
    cmd.AddValue("recovery", "loss recovery: classic prr", recovery);
    cmd.AddValue("sack", "SACK", sack);
    cmd.AddValue("iw", "initial window (segments)", iw);
    cmd.AddValue("delAck", "segments per delayed ACK", delAck);
    cmd.AddValue("sockPkts", "socket buffers (segments)", sockPkts);
    cmd.AddValue("initialRto", "initial RTO (s)", initialRto);
    cmd.AddValue("minRto", "minimum RTO (s)", minRto);
    cmd.AddValue("tick", "TCP clock granularity (s)", tick);
    cmd.AddValue("startS", "first start (s)", startS);
    cmd.AddValue("startJitter", "starts uniform in [startS, startS + this) (s)", startJitter);
    cmd.AddValue("warmup", "t0, the window's start (s)", warmup);
    cmd.AddValue("duration", "simulated time, t1 (s)", duration);
    cmd.AddValue("sampleS", "sample interval (s)", sampleS);
    cmd.AddValue("redMinTh", "RED min threshold (packets)", redMinTh);
    cmd.AddValue("redMaxTh", "RED max threshold (packets)", redMaxTh);
    cmd.AddValue("redQw", "RED queue weight", redQw);
    cmd.AddValue("redMaxP", "RED max drop probability (LInterm = 1 / this)", redMaxP);
    cmd.AddValue("redGentle", "gentle RED", redGentle);
    cmd.AddValue("redAdaptive", "adapt RED's max_p (Adaptive RED)", redAdaptive);
    cmd.AddValue("codelTargetMs", "CoDel / FQ-CoDel target (ms)", codelTargetMs);
    cmd.AddValue("codelIntervalMs", "CoDel / FQ-CoDel interval (ms)", codelIntervalMs);
    cmd.AddValue("pieTargetMs", "PIE delay reference (ms)", pieTargetMs);
    cmd.AddValue("fqFlows", "FQ-CoDel flow queues", fqFlows);
    cmd.AddValue("fqQuantum", "FQ-CoDel quantum (bytes)", fqQuantum);
    cmd.AddValue("trace", "stream file (none: no stream, the benchmark's floor)", trace);
    cmd.AddValue("study", "the header's study", study);
    cmd.AddValue("run", "the header's run digest", run);
    cmd.AddValue("end", "the header's end, as the run record writes it", end);
    cmd.Parse(argc, argv);

    std::vector<double> delays;
    for (size_t i = 0, j; i <= accessDelaysMs.size(); i = j + 1)
    {
        j = accessDelaysMs.find('_', i);
        if (j == std::string::npos)
        {
            j = accessDelaysMs.size();
        }
        delays.push_back(std::stod(accessDelaysMs.substr(i, j - i)));
    }
    int n = (int)delays.size();
    g_flows.resize(n);
    g_seg = packetBytes - 40;

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);
    std::string tcpType = tcp == "NewReno" ? "ns3::TcpNewReno"
                          : tcp == "Cubic" ? "ns3::TcpCubic"
                                           : "ns3::TcpHighSpeed";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tcpType));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       StringValue(recovery == "prr" ? "ns3::TcpPrrRecovery"
                                                     : "ns3::TcpClassicRecovery"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(g_seg));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(iw));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(sockPkts * g_seg));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(sockPkts * g_seg));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRto)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(tick)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(initialRto)));

    NodeContainer nodes;
    nodes.Create(3 + n);
    InternetStackHelper stack;
    stack.Install(nodes);

    auto fifo = [](uint32_t w) {
        TrafficControlHelper t;
        t.SetRootQueueDisc("ns3::FifoQueueDisc",
                           "MaxSize",
                           QueueSizeValue(QueueSize(std::to_string(w - 1) + "p")));
        return t;
    };
    // One link; `waiting - 1` in each root disc and one in the device queue (see dumbbell.cc).
    auto link = [&](int a, int b, double mbps, double ms, TrafficControlHelper discAB,
                    TrafficControlHelper discBA, const std::string& net) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(mbps * 1e6)));
        p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(ms)));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer dev = p2p.Install(nodes.Get(a), nodes.Get(b));
        discAB.Install(dev.Get(0));
        discBA.Install(dev.Get(1));
        Ipv4AddressHelper addr;
        addr.SetBase(net.c_str(), "255.255.255.0");
        addr.Assign(dev);
        return dev;
    };
    std::string lim = std::to_string(waiting - 1) + "p";
    TrafficControlHelper bq;
    if (queue == "RED")
    {
        bq.SetRootQueueDisc("ns3::RedQueueDisc",
                            "MaxSize", QueueSizeValue(QueueSize(lim)),
                            "MinTh", DoubleValue(redMinTh),
                            "MaxTh", DoubleValue(redMaxTh),
                            "QW", DoubleValue(redQw),
                            "LInterm", DoubleValue(1.0 / redMaxP),
                            "Gentle", BooleanValue(redGentle),
                            "AdaptMaxP", BooleanValue(redAdaptive),
                            "MeanPktSize", UintegerValue(packetBytes),
                            "LinkBandwidth", DataRateValue(DataRate(bottleneckMbps * 1e6)),
                            "LinkDelay", TimeValue(MilliSeconds(bottleneckDelayMs)),
                            "UseEcn", BooleanValue(false));
    }
    else if (queue == "CoDel")
    {
        bq.SetRootQueueDisc("ns3::CoDelQueueDisc",
                            "MaxSize", QueueSizeValue(QueueSize(lim)),
                            "Target", TimeValue(MilliSeconds(codelTargetMs)),
                            "Interval", TimeValue(MilliSeconds(codelIntervalMs)),
                            "UseEcn", BooleanValue(false));
    }
    else if (queue == "PIE")
    {
        bq.SetRootQueueDisc("ns3::PieQueueDisc",
                            "MaxSize", QueueSizeValue(QueueSize(lim)),
                            "QueueDelayReference", TimeValue(MilliSeconds(pieTargetMs)),
                            "UseEcn", BooleanValue(false));
    }
    else if (queue == "FqCoDel")
    {
        bq.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                            "MaxSize", QueueSizeValue(QueueSize(lim)),
                            "Target", StringValue(std::to_string(codelTargetMs) + "ms"),
                            "Interval", StringValue(std::to_string(codelIntervalMs) + "ms"),
                            "Flows", UintegerValue(fqFlows),
                            "UseEcn", BooleanValue(false));
    }
    else
    {
        bq = fifo(waiting);
    }
    NetDeviceContainer bneck =
        link(0, 1, bottleneckMbps, bottleneckDelayMs, bq, fifo(accessWaiting), "10.0.1.0");
    NetDeviceContainer sinkDev =
        link(1, 2, sinkMbps, sinkDelayMs, fifo(accessWaiting), fifo(accessWaiting), "10.0.2.0");
    for (int f = 0; f < n; ++f)
    {
        link(FIRST_SOURCE + f, 0, accessMbps, delays[f], fifo(accessWaiting), fifo(accessWaiting),
             "10.1." + std::to_string(f + 1) + ".0");
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    Ptr<QueueDisc> q =
        nodes.Get(0)->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(bneck.Get(0));
    if (queue == "FqCoDel" && q)
    {
        // FQ-CoDel's quantum is no attribute in ns-3.37: set on the installed disc.
        DynamicCast<FqCoDelQueueDisc>(q)->SetQuantum(fqQuantum);
    }
    std::string want = queue == "RED"       ? "ns3::RedQueueDisc"
                       : queue == "CoDel"   ? "ns3::CoDelQueueDisc"
                       : queue == "PIE"     ? "ns3::PieQueueDisc"
                       : queue == "FqCoDel" ? "ns3::FqCoDelQueueDisc"
                                            : "ns3::FifoQueueDisc";
    if (!q || q->GetInstanceTypeId().GetName() != want)
    {
        std::fprintf(stderr, "bottleneck root queue disc is not %s\n", want.c_str());
        return 3;
    }

    Ipv4Address sinkAddr =
        nodes.Get(2)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Min", DoubleValue(0.0));
    start->SetAttribute("Max", DoubleValue(startJitter));
    for (int f = 0; f < n; ++f)
    {
        uint16_t port = PORT0 + f;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        sink.Install(nodes.Get(2)).Start(Seconds(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(sinkAddr, port));
        bulk.SetAttribute("SendSize", UintegerValue(g_seg));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer app = bulk.Install(nodes.Get(FIRST_SOURCE + f));
        double at = startS + start->GetValue();
        app.Start(Seconds(at));
        Simulator::Schedule(Seconds(at) + NanoSeconds(1),
                            &Hook,
                            DynamicCast<BulkSendApplication>(app.Get(0)),
                            f);
    }

    if (trace != "none")
    {
        g_out = std::fopen(trace.c_str(), "w");
        if (!g_out)
        {
            std::perror(trace.c_str());
            return 2;
        }
        std::setvbuf(g_out, nullptr, _IOFBF, 1 << 20);
        Printf("# bufrepro %s run=%s seed=%u end=%s", study.c_str(), run.c_str(), seed,
               end.c_str());
        EndOfLine(g_out);
        Printf("M capacity_bps %.0f packet_bytes %u buffer_pkts %u flows %d t0 %g t1 %g "
               "sample_s %g level counters program %s ns3 %s queue %s waiting %u "
               "accessMbps %g sinkMbps %g sinkDelayMs %g bottleneckDelayMs %g "
               "accessDelaysMs %s accessWaiting %u tcp %s recovery %s sack %d iw %u "
               "delAck %u sockPkts %u initialRto %g minRto %g tick %g startS %g "
               "startJitter %g redMinTh %g redMaxTh %g redQw %g redMaxP %g redGentle %d "
               "redAdaptive %d codelTargetMs %g codelIntervalMs %g pieTargetMs %g "
               "fqFlows %u fqQuantum %u seed %u",
               bottleneckMbps * 1e6, packetBytes, bufferPkts, n, warmup, duration, sampleS,
               PROGRAM_VERSION, NS3_LIB_VERSION, queue.c_str(), waiting, accessMbps,
               sinkMbps, sinkDelayMs, bottleneckDelayMs, accessDelaysMs.c_str(),
               accessWaiting, tcp.c_str(), recovery.c_str(), (int)sack, iw, delAck,
               sockPkts, initialRto, minRto, tick, startS, startJitter, redMinTh, redMaxTh,
               redQw, redMaxP, (int)redGentle, (int)redAdaptive, codelTargetMs,
               codelIntervalMs, pieTargetMs, fqFlows, fqQuantum, seed);
        EndOfLine(g_out);
        q->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnArrive));
        q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDropBefore));
        q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDropAfter));
        bneck.Get(0)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTx));
        Simulator::Schedule(Seconds(0), &Periodic, sampleS);
        Simulator::Schedule(Seconds(warmup), &Sample);
    }
    (void)sinkDev;
    Simulator::Schedule(Seconds(duration), &Finish, duration);
    Simulator::Run();
    Simulator::Destroy();
    if (g_out)
    {
        std::fclose(g_out);
    }
    return 0;
}
