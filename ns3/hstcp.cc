// bufrepro ns-3 hstcp scenario: n HighSpeed TCP flows of different RTTs over one bottleneck
// R1 -> R2, writing the stream awk/hstcp/hstcp.awk reads (the ns-2 scenario's, see
// tcl/hstcp/hstcp.tcl.j2): the run's header, the M line (with this program's version and every
// parameter as further key-value pairs), 'd' lines for the bottleneck's drops (ns-2 trace format),
// Q samples of the bottleneck's counters every sampleS and at t0 and the end, the E line, and
// the end line "# end LINES SUM" (streamsum.h's EndLine: the one place that writes it).
//
// Nodes, as in the ns-2 scenario: R1 0, R2 1, the sink 2, flow f's source 3 + f.
// Bottleneck counters (R1's device towards R2 and its root queue disc): an arrival is a packet
// offered to the disc (accepted or refused), a departure a transmission start (PhyTxBegin), a
// drop the disc's (before enqueue or after dequeue); the queue is arrivals - departures - drops
// (the disc's packets plus the one waiting in the device queue). Bytes are IP packets' bytes.
//
// The bottleneck's queue is an ns-3 queue disc type with its attributes (--queue,
// --queueAttr: ns3/queues.h), TCP's congestion control and recovery ns-3 types (--tcp,
// --recovery: ns3/tcp.h); the backend's table says which config queue is which
// (src/bufrepro/backends/ns3.py).
#include "queues.h"
#include "tcp.h"
#include "trace.h"
#include "traffic.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/ppp-header.h"
#include "ns3/traffic-control-module.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;
using namespace bufrepro;

NS_LOG_COMPONENT_DEFINE("BufreproHstcp");

namespace
{

const char* PROGRAM_VERSION = "bufrepro-ns3-hstcp 3";
const uint16_t PORT0 = 5000;
const int R1 = 0, R2 = 1, SINK = 2, FIRST_SOURCE = 3;

// Every parameter (the command line's; bufrepro.studies.hstcp.ns3 passes them).
struct Params
{
    RunHeader header;
    Bottleneck bottleneck;
    uint32_t bufferPkts = 100;
    double bottleneckMbps = 50, bottleneckDelayMs = 50, accessMbps = 500, sinkMbps = 500;
    double sinkDelayMs = 1;
    std::string accessDelaysMs = "1";
    std::vector<double> delays; // accessDelaysMs, one a flow
    uint32_t accessWaiting = 999999;
    uint32_t packetBytes = 1000;
    TcpSetup tcp;
    double startS = 0, startJitter = 5;
    double warmup = 10, duration = 30, sampleS = 0.5;
};

struct Flow
{
    uint64_t arr = 0, dep = 0, drop = 0;
    long long ack = -1;
    double cwnd = 0;
};

FILE* g_out = nullptr;
// The line being written (Printf), summed and written by EndOfLine.
std::string g_line;
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

// Write the line to the stream and sum it (streamsum.h's Put): every line before the end line
// goes through here, the header and the M line included.
void
EndOfLine(FILE* out)
{
    Put(out, g_line.c_str());
    g_line.clear();
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
        Printf("E %g", t);
        EndOfLine(g_out);
        EndLine(g_out);
        std::fflush(g_out);
    }
    Done(t);
}

void
AddValues(CommandLine& cmd, Params& p)
{
    p.bottleneck.AddValues(cmd);
    cmd.AddValue("bufferPkts", "the buffer the M line names (ns-2's limit_)", p.bufferPkts);
    cmd.AddValue("bottleneckMbps", "bottleneck rate (Mb/s)", p.bottleneckMbps);
    cmd.AddValue("bottleneckDelayMs", "bottleneck delay (ms)", p.bottleneckDelayMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", p.accessMbps);
    cmd.AddValue("sinkMbps", "R2 -> sink rate (Mb/s)", p.sinkMbps);
    cmd.AddValue("sinkDelayMs", "R2 -> sink delay (ms)", p.sinkDelayMs);
    cmd.AddValue("accessDelaysMs", "each flow's access delay (ms), '_'-separated",
                 p.accessDelaysMs);
    cmd.AddValue("accessWaiting", "packets the other links hold waiting", p.accessWaiting);
    cmd.AddValue("packetBytes", "data packet size as an IP packet (bytes)", p.packetBytes);
    p.tcp.AddValues(cmd);
    cmd.AddValue("sockPkts", "socket buffers (segments)", p.tcp.bufferPkts);
    cmd.AddValue("startS", "first start (s)", p.startS);
    cmd.AddValue("startJitter", "starts uniform in [startS, startS + this) (s)", p.startJitter);
    cmd.AddValue("warmup", "t0, the window's start (s)", p.warmup);
    cmd.AddValue("duration", "simulated time, t1 (s)", p.duration);
    cmd.AddValue("sampleS", "sample interval (s)", p.sampleS);
    p.header.AddValues(cmd, "study");
}

// The flows' access delays ('_'-separated) and the segment: the packet less 40 B of headers.
void
Derive(Params& p)
{
    const std::string& s = p.accessDelaysMs;
    for (size_t i = 0, j; i <= s.size(); i = j + 1)
    {
        j = s.find('_', i);
        if (j == std::string::npos)
        {
            j = s.size();
        }
        p.delays.push_back(std::stod(s.substr(i, j - i)));
    }
    g_flows.resize(p.delays.size());
    g_seg = p.packetBytes - 40;
    p.tcp.segment = g_seg;
}

// One link a <-> b; `waiting - 1` in each root disc and one in the device queue (see
// dumbbell.cc), the discs installed before the addresses.
NetDeviceContainer
MakeLink(NodeContainer& nodes, int a, int b, double mbps, double ms, const Disc& discAB,
         uint32_t waitAB, uint32_t waitBA, const std::string& base)
{
    NetDeviceContainer dev = InstallLink(nodes, a, b, mbps, ms, discAB, waitAB, waitBA);
    Ipv4AddressHelper addr;
    addr.SetBase(base.c_str(), "255.255.255.0");
    addr.Assign(dev);
    return dev;
}

// The links: R1 -> R2 (its queue the swept one), R2 -> the sink, each flow's source -> R1
// (flow f's network 10.1.<f+1>.0: FidOfSource reads it); then the routes.
NetDeviceContainer
MakeLinks(const Params& p, NodeContainer& nodes)
{
    uint32_t w = p.accessWaiting;
    NetDeviceContainer bneck = MakeLink(nodes, R1, R2, p.bottleneckMbps, p.bottleneckDelayMs,
                                        p.bottleneck.GetDisc(), p.bottleneck.waiting, w, "10.0.1.0");
    MakeLink(nodes, R2, SINK, p.sinkMbps, p.sinkDelayMs, Disc{}, w, w, "10.0.2.0");
    for (size_t f = 0; f < p.delays.size(); ++f)
    {
        MakeLink(nodes, FIRST_SOURCE + f, R1, p.accessMbps, p.delays[f], Disc{}, w, w,
                 "10.1." + std::to_string(f + 1) + ".0");
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NS_LOG_INFO("hstcp: " << p.delays.size() << " flows, bottleneck " << p.bottleneck.queue);
    return bneck;
}

// The flows: bulk TCP from each source to the sink (port 5000 + f), their sockets hooked once
// they exist.
void
AddFlows(const Params& p, NodeContainer& nodes)
{
    Ipv4Address sinkAddr = nodes.Get(SINK)->GetObject<Ipv4>()->GetAddress(1, 0).GetLocal();
    std::vector<int> sources;
    for (size_t f = 0; f < p.delays.size(); ++f)
    {
        sources.push_back(FIRST_SOURCE + f);
    }
    std::vector<BulkFlow> flows =
        AddBulkFlows(nodes, sources, SINK, sinkAddr, PORT0, g_seg, p.startS, p.startJitter);
    for (size_t f = 0; f < flows.size(); ++f)
    {
        Simulator::Schedule(Seconds(flows[f].start) + NanoSeconds(1), &Hook,
                            DynamicCast<BulkSendApplication>(flows[f].app), (int)f);
    }
}

// The stream's first lines: the run's header and the M line (the parser's keys, then the
// program's version and every parameter).
void
WriteHeader(const Params& p)
{
    const TcpSetup& t = p.tcp;
    Put(g_out, p.header.Line().c_str());
    Printf("M capacity_bps %.0f packet_bytes %u buffer_pkts %u flows %d t0 %g t1 %g "
           "sample_s %g level counters program %s ns3 %s queue %s queueAttr %s waiting %u "
           "accessMbps %g sinkMbps %g sinkDelayMs %g bottleneckDelayMs %g "
           "accessDelaysMs %s accessWaiting %u tcp %s recovery %s sack %d timestamps %d iw %u "
           "delAck %u sockPkts %u initialRto %g minRto %g tick %g startS %g "
           "startJitter %g seed %u",
           p.bottleneckMbps * 1e6, p.packetBytes, p.bufferPkts, (int)p.delays.size(), p.warmup,
           p.duration, p.sampleS, PROGRAM_VERSION, NS3_LIB_VERSION, p.bottleneck.queue.c_str(),
           p.bottleneck.queueAttr.empty() ? "none" : p.bottleneck.queueAttr.c_str(), p.bottleneck.waiting, p.accessMbps,
           p.sinkMbps, p.sinkDelayMs, p.bottleneckDelayMs, p.accessDelaysMs.c_str(),
           p.accessWaiting, t.tcp.c_str(), t.recovery.c_str(), (int)t.sack, (int)t.timestamps,
           t.iw, t.delAck, t.bufferPkts, t.initialRto, t.minRto, t.tick, p.startS,
           p.startJitter, p.header.seed);
    EndOfLine(g_out);
}

// The bottleneck's counters: its root disc's arrivals and drops, its device's departures; the
// samples every sampleS and at t0.
void
ConnectTraces(const Params& p, Ptr<NetDevice> bneck)
{
    Ptr<QueueDisc> q = RootDisc(bneck);
    q->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnArrive));
    q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDropBefore));
    q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDropAfter));
    bneck->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTx));
    Simulator::Schedule(Seconds(0), &Periodic, p.sampleS);
    Simulator::Schedule(Seconds(p.warmup), &Sample);
}

} // namespace

int
main(int argc, char* argv[])
{
    Params p;
    p.header = RunHeader{1, "bottleneck.fifo", "hstcp", "none", "30"};
    p.bottleneck.waiting = 100;
    p.tcp.tcp = "ns3::TcpHighSpeed";
    p.tcp.iw = 2;
    p.tcp.bufferPkts = 10000;
    p.tcp.initialRto = 3.0;
    CommandLine cmd(__FILE__);
    AddValues(cmd, p);
    cmd.Parse(argc, argv);
    if (!p.header.EndsAt(p.duration, "hstcp"))
    {
        return 2;
    }
    Derive(p);
    SeedRuns(p.header.seed);
    p.tcp.Apply();
    NodeContainer nodes;
    nodes.Create(FIRST_SOURCE + p.delays.size());
    InternetStackHelper stack;
    stack.Install(nodes);
    NetDeviceContainer bneck = MakeLinks(p, nodes);
    if (!RootDiscIs(bneck.Get(0), p.bottleneck.queue, R1, R2))
    {
        return 3;
    }
    AddFlows(p, nodes);
    if (p.header.trace != "none")
    {
        if (!(g_out = OpenStream(p.header.trace)))
        {
            return 2;
        }
        WriteHeader(p);
        ConnectTraces(p, bneck.Get(0));
    }
    return RunAndClose(p.duration, &Finish, g_out);
}
