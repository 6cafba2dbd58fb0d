// bufrepro ns-3 dumbbell scenario: TCP sources and one CBR source over one bottleneck (routers
// 4 -> 5), the buffer swept, writing the ns-2 wired trace text format ("old" format, 12 fields)
// so that the project's AWK parsers (awk/dumbbell/dumbbell.awk, awk/lib/wired.awk) measure it
// with the same definitions as an ns-2 run.
//
// With --traceLevel=tally the program writes no event lines: it counts them in-process (class
// Tally, wired.awk's definitions, as the patched ns-2's WiredTally does) and writes at the end
// the small stream awk/lib/tally.awk reads, between the same header lines and end line.
//
// Every parameter comes from the command line (bufrepro.studies.dumbbell.ns3 passes only
// validated numbers, enums, ns-3 type names and attribute lists); the stream's first line is
// the run's fingerprint header, its second the program's version and every parameter
// ("#@ ..."), its last the end line (streamsum.h's EndLine: the one place that writes it).
//
// Nodes, as in the ns-2 scenario (tcl/dumbbell/dumbbell.tcl.j2): TCP sources 0, 2, 3 (then 8,
// 9, ...), CBR source 1, routers 4 and 5, TCP sink 6, CBR sink 7. Every link direction is
// traced (the events: ns3/wired.h).
//
// The bottleneck's queue is an ns-3 queue disc type with its attributes (--queue,
// --queueAttr: ns3/queues.h), TCP's congestion control and recovery ns-3 types (--tcp,
// --recovery: ns3/tcp.h); the backend's table says which config queue is which
// (src/bufrepro/backends/ns3.py).
#include "program.h"
#include "queues.h"
#include "tally.h"
#include "tcp.h"
#include "trace.h"
#include "traffic.h"
#include "wired.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;
using namespace bufrepro;

NS_LOG_COMPONENT_DEFINE("BufreproDumbbell");

namespace
{

const char* PROGRAM_VERSION = "bufrepro-ns3-dumbbell 4";
const uint16_t TCP_PORT0 = 5000;
const uint16_t CBR_PORT = 9000;
const int CBR_FID = 9;
const int ROUTER_A = 4, ROUTER_B = 5, TCP_SINK = 6, CBR_SINK = 7;

// Every parameter (the command line's; bufrepro.studies.dumbbell.ns3 passes them): the shared
// opening (ns3/program.h), then the dumbbell's own.
struct Params : WiredParams
{
    double plr = 0.01;
    double bottleneckMbps = 0.5, bottleneckDelayMs = 10;
    double accessMbps = 1000, accessDelayMs = 2;
    uint32_t accessWaiting = 999, reverseWaiting = 999;
    uint32_t sources = 3;
    double startS = 0;
    double cbrStart = 0.1;
    std::string errorAt = "head";
    // What the stream holds (bufrepro's trace_level): full, the ns-2 wired trace of every event
    // (wired.awk reads it), or tally, the metrics counted here (tally.awk reads them).
    std::string traceLevel = "full";
    TallyParams tally;
};

// One link a <-> b: its two devices (a's, b's).
struct Link
{
    int a, b;
    NetDeviceContainer dev;
};

// The scenario: its nodes, its links (access links first, then 4 -> 5, then 5's to the sinks).
struct Net
{
    NodeContainer nodes;
    std::vector<int> tcpNodes;
    std::vector<int> accessSrc; // the sources' nodes, in order: the first links
    std::vector<Link> links;
    Ipv4AddressHelper addr;
};

void
AddScenarioValues(CommandLine& cmd, Params& p)
{
    p.bottleneck.AddValues(cmd);
    cmd.AddValue("plr", "packet loss rate of the bottleneck's error model", p.plr);
    cmd.AddValue("bottleneckMbps", "bottleneck rate (Mb/s)", p.bottleneckMbps);
    cmd.AddValue("bottleneckDelayMs", "bottleneck delay (ms)", p.bottleneckDelayMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", p.accessMbps);
    cmd.AddValue("accessDelayMs", "access delay (ms)", p.accessDelayMs);
    cmd.AddValue("accessWaiting", "packets an access link holds waiting", p.accessWaiting);
    cmd.AddValue("reverseWaiting", "packets the ACK direction 5 -> 4 holds waiting",
                 p.reverseWaiting);
    cmd.AddValue("sources", "TCP sources", p.sources);
    p.tcp.AddValues(cmd);
    cmd.AddValue("mss", "segment size (bytes)", p.tcp.segment);
    cmd.AddValue("rwndPkts", "socket buffers (segments)", p.tcp.bufferPkts);
    cmd.AddValue("startS", "first TCP start (s)", p.startS);
    cmd.AddValue("startJitter", "TCP starts uniform in [startS, startS + this) (s)",
                 p.startJitter);
    cmd.AddValue("cbrBytes", "CBR packet size as an IP packet (bytes)", p.cbrBytes);
    cmd.AddValue("cbrInterval", "CBR interval (s)", p.cbrInterval);
    cmd.AddValue("cbrStart", "CBR start (s)", p.cbrStart);
    cmd.AddValue("duration", "simulated time (s)", p.duration);
    cmd.AddValue("errorAt", "error model: head (before 4 -> 5's queue) or tail (at 5)",
                 p.errorAt);
}

void
AddStreamValues(CommandLine& cmd, Params& p)
{
    p.header.AddValues(cmd, "study");
    cmd.AddValue("traceLevel", "the stream: full (the wired trace) or tally (its metrics)",
                 p.traceLevel);
    p.tally.AddValues(cmd);
}

// Refuse what the program cannot run (2); at trace_level tally, start the tally.
int
Check(Params& p)
{
    if (!p.header.EndsAt(p.duration, "dumbbell"))
    {
        return 2;
    }
    if (p.traceLevel != "full" && p.traceLevel != "tally")
    {
        std::fprintf(stderr, "dumbbell: --traceLevel %s; allowed: full tally\n",
                     p.traceLevel.c_str());
        return 2;
    }
    if (p.traceLevel != "tally" || p.header.trace == "none")
    {
        return 0;
    }
    static Tally tally;
    std::string why = p.tally.Start(tally);
    if (!why.empty())
    {
        std::fprintf(stderr, "dumbbell: %s\n", why.c_str());
        return 2;
    }
    // The tally's times are the steps / 1e9: ns-3's default resolution, 1 ns.
    if (Time::GetResolution() != Time::NS)
    {
        std::fprintf(stderr, "dumbbell: the time resolution is not 1 ns\n");
        return 2;
    }
    g_tally = &tally;
    return 0;
}

// The nodes: TCP sources 0, 2, 3, 8, 9, ...; their flow ids 0, 1, ... skipping the CBR's 9.
void
MakeNodes(const Params& p, Net& net)
{
    uint32_t nNodes = 8 + (p.sources > 3 ? p.sources - 3 : 0);
    net.nodes.Create(nNodes);
    net.tcpNodes = {0, 2, 3};
    for (uint32_t i = 8; i < nNodes; ++i)
    {
        net.tcpNodes.push_back(i);
    }
    net.tcpNodes.resize(p.sources);
    for (uint32_t i = 0; i < p.sources; ++i)
    {
        g_wired.fids.push_back(i < (uint32_t)CBR_FID ? (int)i : (int)i + 1);
    }
    InternetStackHelper stack;
    stack.Install(net.nodes);
    net.accessSrc.assign(net.tcpNodes.begin(), net.tcpNodes.end());
    net.accessSrc.push_back(1);
    std::sort(net.accessSrc.begin(), net.accessSrc.end());
}

// One link a <-> b; each direction's root disc holds `waiting - 1` packets and the device
// queue one more (its flow control stops the disc while that one waits): `waiting` in all.
void
MakeLink(Net& net, int a, int b, double mbps, double ms, uint32_t waitAB, uint32_t waitBA,
         const Disc& discAB)
{
    NetDeviceContainer dev = InstallLink(net.nodes, a, b, mbps, ms, discAB, waitAB, waitBA);
    std::string base = "10.0." + std::to_string(net.links.size() + 1) + ".0";
    net.addr.SetBase(base.c_str(), "255.255.255.0");
    Ipv4InterfaceContainer ifs = net.addr.Assign(dev);
    g_nodeOfAddr[ifs.GetAddress(0).Get()] = a;
    g_nodeOfAddr[ifs.GetAddress(1).Get()] = b;
    net.links.push_back({a, b, dev});
}

// The links: the sources' access links, the bottleneck 4 -> 5 (its queue the swept one), the
// sinks' links; then the routes.
void
MakeLinks(const Params& p, Net& net)
{
    for (int s : net.accessSrc)
    {
        MakeLink(net, s, ROUTER_A, p.accessMbps, p.accessDelayMs, p.accessWaiting,
                 p.accessWaiting, Disc{});
    }
    MakeLink(net, ROUTER_A, ROUTER_B, p.bottleneckMbps, p.bottleneckDelayMs, p.bottleneck.waiting,
             p.reverseWaiting, p.bottleneck.GetDisc());
    for (int d : {TCP_SINK, CBR_SINK})
    {
        MakeLink(net, ROUTER_B, d, p.accessMbps, p.accessDelayMs, p.accessWaiting,
                 p.accessWaiting, Disc{});
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NS_LOG_INFO("dumbbell: " << net.links.size() << " links, bottleneck " << p.bottleneck.queue);
}

// Every direction's root disc is the scenario's: the bottleneck's --queue, a FIFO elsewhere.
bool
CheckDiscs(const Params& p, const Net& net)
{
    for (const Link& l : net.links)
    {
        bool bottleneck = l.a == ROUTER_A && l.b == ROUTER_B;
        if (!RootDiscIs(l.dev.Get(0), bottleneck ? p.bottleneck.queue : FIFO_DISC, l.a, l.b) ||
            !RootDiscIs(l.dev.Get(1), FIFO_DISC, l.b, l.a))
        {
            return false;
        }
    }
    return true;
}

// The error model: at the head of 4 -> 5 (the routers' access-side receivers, ns-2's
// lossmodel position) or at its tail (5's receiver, ns-3's usual place).
void
AddErrorModel(const Params& p, const Net& net)
{
    Ptr<RateErrorModel> em = PacketLoss(p.plr);
    if (p.errorAt == "tail")
    {
        net.links[net.accessSrc.size()].dev.Get(1)->SetAttribute("ReceiveErrorModel",
                                                                 PointerValue(em));
        return;
    }
    for (size_t i = 0; i < net.accessSrc.size(); ++i)
    {
        net.links[i].dev.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

// The stream's first lines: the run's header and the program's version with every parameter.
void
WriteHeader(const Params& p)
{
    HeaderLine line = p.Opening(PROGRAM_VERSION);
    line.Add("plr", p.plr).Add("bottleneckMbps", p.bottleneckMbps);
    line.Add("bottleneckDelayMs", p.bottleneckDelayMs).Add("accessMbps", p.accessMbps);
    line.Add("accessDelayMs", p.accessDelayMs).Add("accessWaiting", p.accessWaiting);
    line.Add("reverseWaiting", p.reverseWaiting).Add("sources", p.sources);
    AddTcpKinds(line, p.tcp);
    AddTcpSizes(line, p.tcp, "rwndPkts");
    line.Add("startS", p.startS).Add("startJitter", p.startJitter);
    line.Add("cbrBytes", p.cbrBytes).Add("cbrInterval", p.cbrInterval);
    line.Add("cbrStart", p.cbrStart).Add("duration", p.duration);
    line.Add("errorAt", p.errorAt).Add("traceLevel", p.traceLevel);
    p.WriteHeaderLines(g_out, line);
}

// Every link direction a -> b traced: its root disc, a's device, b's device; a packet lost at
// b is lost at the head of 4 -> 5 when b is router 4 (errorAt head), else at b.
void
ConnectTraces(const Params& p, const Net& net)
{
    for (const Link& l : net.links)
    {
        for (int dir = 0; dir < 2; ++dir)
        {
            int a = dir ? l.b : l.a, b = dir ? l.a : l.b;
            Ptr<NetDevice> tx = l.dev.Get(dir), rx = l.dev.Get(1 - dir);
            TraceLink(a, b, RootDisc(tx), tx, rx);
            bool headLoss = p.errorAt != "tail" && b == ROUTER_A;
            rx->TraceConnectWithoutContext(
                "PhyRxDrop",
                headLoss ? MakeBoundCallback(&OnHeadLoss, a, b, ROUTER_A, ROUTER_B)
                         : MakeBoundCallback(&OnPhy, 'd', a, b));
        }
    }
}

// Traffic: bulk TCP flows to node 6 (ports 5000 + i), one CBR/UDP flow 1 -> 7.
void
AddTraffic(const Params& p, Net& net)
{
    AddBulkFlows(net.nodes, net.tcpNodes, TCP_SINK, AddressOf(TCP_SINK), TCP_PORT0,
                 p.tcp.segment, p.startS, p.startJitter);
    AddCbr(net.nodes, 1, CBR_SINK, AddressOf(CBR_SINK), CBR_PORT, p.cbrBytes, p.cbrInterval,
           p.cbrStart, p.duration);
}

} // namespace

int
main(int argc, char* argv[])
{
    Params p;
    p.header = RunHeader{1, "out.tr", "dumbbell", "none", "100"};
    g_wired.cbrFid = CBR_FID;
    p.tcp.segment = 1460;
    p.tcp.bufferPkts = 1000;
    p.cbrInterval = 0.4;
    p.duration = 100;
    CommandLine cmd(__FILE__);
    AddScenarioValues(cmd, p);
    AddStreamValues(cmd, p);
    cmd.Parse(argc, argv);
    if (int rc = Check(p))
    {
        return rc;
    }
    SeedRuns(p.header.seed);
    p.tcp.Apply();
    Net net;
    MakeNodes(p, net);
    MakeLinks(p, net);
    if (!CheckDiscs(p, net))
    {
        return 3;
    }
    AddErrorModel(p, net);
    if (p.header.trace != "none")
    {
        if (!(g_out = OpenStream(p.header.trace)))
        {
            return 2;
        }
        WriteHeader(p);
        ConnectTraces(p, net);
    }
    AddTraffic(p, net);
    return RunAndClose(p.duration, &FinishWired, g_out);
}
