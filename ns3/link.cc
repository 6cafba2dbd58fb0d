// bufrepro ns-3 link scenario: the link experiment (bufrepro advise; the ns-2 scenario is
// tcl/link/link.tcl.j2) - long-lived TCP flows and optionally one CBR flow through one
// bottleneck (routers 0 -> 1), its queue and buffer swept. Like the ns-2 scenario it traces only
// the bottleneck's queue, in the ns-2 wired trace text format ("old" format, 12 fields), so
// that awk/link/link.awk measures both simulators' runs with one definition of each metric.
//
// Every parameter comes from the command line (bufrepro.experiments.link.ns3 passes only
// validated numbers, enums, ns-3 type names and attribute lists); the stream's first line is the run's fingerprint header
// ("# bufrepro NAME run=RUN seed=SEED end=END", backends/fingerprint.py), its
// second the program's version and every parameter ("#@ ..."), its last the end line
// "# end LINES SUM" (docs/trusting-a-run.md; streamsum.h's EndLine is the one place that writes it).
//
// Nodes, as in the ns-2 scenario: routers 0 and 1, the sink node 2, the TCP sources 3 .. 2 +
// flows, then the CBR source. Flow ids: TCP 1 .. flows, CBR flows + 1.
// Trace events on the bottleneck 0 -> 1 (its root queue disc, the device on 0, the device on 1):
//   '+'  the disc accepted the packet (Enqueue), or refused it (DropBeforeEnqueue: '+' then 'd')
//   'd'  a drop by the disc (before enqueue, or after dequeue: CoDel's, FQ-CoDel's), or by the
//        error model at the link's head (router 0's access-side receivers: a 'd' with no '+',
//        where ns-2's lossmodel drops)
//   '-'  transmission starts (PhyTxBegin)
//   'r'  the last bit arrived at router 1 (PhyRxEnd)
// Sizes are the bytes the link serialises: the IP packet plus PPP's 2-byte header.
//
// The bottleneck's queue is an ns-3 queue disc type with its attributes (--queue,
// --queueAttr: ns3/queues.h), TCP's congestion control and recovery ns-3 types (--tcp,
// --recovery: ns3/tcp.h); the wired trace writer is ns3/wired.h.
//
// Spread RTTs, as the ns-2 scenario: TCP flow i's source access hop is --flowAccessLoMs +
// i x --flowAccessStepMs (i = 0 ..), the CBR source's --otherAccessMs, the sink's --accessMs
// (each negative: --accessMs). --ecn makes every TCP socket ECN-capable (the queue marks only
// when its --queueAttr says UseEcn=true); --pacing paces every TCP socket (TcpBbr turns it on
// by itself when it is off).
#include "program.h"
#include "queues.h"
#include "tcp.h"
#include "trace.h"
#include "traffic.h"
#include "wired.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;
using namespace bufrepro;

NS_LOG_COMPONENT_DEFINE("BufreproLink");

namespace
{

const char* PROGRAM_VERSION = "bufrepro-ns3-link 3";
const uint16_t TCP_PORT0 = 5000;
const uint16_t CBR_PORT = 9000;
const int R1 = 0, R2 = 1, DST = 2, SRC0 = 3;

// Every parameter (the command line's; bufrepro.experiments.link.ns3 passes them): the shared
// opening (ns3/program.h), then the link's own.
struct Params : WiredParams
{
    double loss = 0;
    double rateMbps = 10, bottleneckMs = 16, accessMbps = 100, accessMs = 2;
    double flowAccessLoMs = -1, flowAccessStepMs = 0, otherAccessMs = -1;
    bool ecn = false, pacing = false;
    uint32_t otherWaiting = 100000;
    uint32_t flows = 1;
};

// One link a <-> b: its two devices (a's, b's).
struct Link
{
    int a, b;
    NetDeviceContainer dev;
};

// The scenario: its nodes and links (the sources' access links, then 0 -> 1, then 1 -> 2).
struct Net
{
    NodeContainer nodes;
    std::vector<Link> links;
    size_t nAccess = 0;
    Ipv4AddressHelper addr;
};

void
AddValues(CommandLine& cmd, Params& p)
{
    p.bottleneck.AddValues(cmd);
    cmd.AddValue("loss", "packet loss rate of the error model at the bottleneck's head", p.loss);
    cmd.AddValue("rateMbps", "bottleneck rate (Mb/s)", p.rateMbps);
    cmd.AddValue("bottleneckMs", "bottleneck delay (ms)", p.bottleneckMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", p.accessMbps);
    cmd.AddValue("accessMs", "access delay (ms)", p.accessMs);
    cmd.AddValue("flowAccessLoMs", "TCP flow 0's access delay (ms; negative: accessMs)",
                 p.flowAccessLoMs);
    cmd.AddValue("flowAccessStepMs", "each next TCP flow's access delay is this much longer (ms)",
                 p.flowAccessStepMs);
    cmd.AddValue("otherAccessMs", "the CBR source's access delay (ms; negative: accessMs)",
                 p.otherAccessMs);
    cmd.AddValue("ecn", "ECN-capable TCP sockets (TcpSocketBase::UseEcn On)", p.ecn);
    cmd.AddValue("pacing", "paced TCP sockets (TcpSocketState::EnablePacing)", p.pacing);
    cmd.AddValue("otherWaiting", "packets every other queue holds waiting (never full)",
                 p.otherWaiting);
    cmd.AddValue("flows", "long-lived TCP flows", p.flows);
    p.tcp.AddValues(cmd);
    cmd.AddValue("mss", "segment size (bytes)", p.tcp.segment);
    cmd.AddValue("windowPkts", "socket buffers (segments): the window's cap", p.tcp.bufferPkts);
    cmd.AddValue("startJitter", "TCP starts uniform in [0, this) (s)", p.startJitter);
    cmd.AddValue("cbrBytes", "CBR packet size as an IP packet (bytes)", p.cbrBytes);
    cmd.AddValue("cbrInterval", "CBR interval (s; 0: no CBR flow)", p.cbrInterval);
    cmd.AddValue("duration", "simulated time (s)", p.duration);
    p.header.AddValues(cmd, "experiment");
}

// Refuse what the program cannot run (2).
int
Check(const Params& p)
{
    if (!p.header.EndsAt(p.duration, "link"))
    {
        return 2;
    }
    if (p.bottleneck.waiting < 2 || p.otherWaiting < 2 || p.flows < 1)
    {
        std::fprintf(stderr, "link: --waiting and --otherWaiting need at least 2, --flows 1\n");
        return 2;
    }
    if (p.flowAccessStepMs < 0)
    {
        std::fprintf(stderr, "link: --flowAccessStepMs needs at least 0\n");
        return 2;
    }
    return 0;
}

// Every TCP socket's defaults: the shared ones (ns3/tcp.h), ECN and pacing.
void
ApplyTcp(const Params& p)
{
    p.tcp.Apply();
    if (p.ecn)
    {
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", EnumValue(TcpSocketState::On));
    }
    if (p.pacing)
    {
        Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
    }
}

// One link x <-> y; each direction's root disc is installed before Ipv4AddressHelper::Assign
// (which installs the default FqCoDel only on a device without one; checked by CheckDiscs).
void
MakeLink(Net& net, int x, int y, double mbps, double ms, const Disc& discXY, uint32_t waitXY,
         uint32_t waitYX)
{
    NetDeviceContainer dev = InstallLink(net.nodes, x, y, mbps, ms, discXY, waitXY, waitYX);
    size_t n = net.links.size();
    std::string base =
        "10." + std::to_string(n / 256 + 1) + "." + std::to_string(n % 256) + ".0";
    net.addr.SetBase(base.c_str(), "255.255.255.0");
    Ipv4InterfaceContainer ifs = net.addr.Assign(dev);
    g_nodeOfAddr[ifs.GetAddress(0).Get()] = x;
    g_nodeOfAddr[ifs.GetAddress(1).Get()] = y;
    net.links.push_back({x, y, dev});
}

// The nodes (routers 0 and 1, the sink 2, the TCP sources, the CBR source) and links: each
// source's access link, the bottleneck 0 -> 1 (its queue the swept one), 1 -> the sink.
void
MakeNet(const Params& p, Net& net)
{
    uint32_t nNodes = SRC0 + p.flows + (p.cbrInterval > 0 ? 1 : 0);
    net.nodes.Create(nNodes);
    InternetStackHelper stack;
    stack.Install(net.nodes);
    uint32_t w = p.otherWaiting;
    double lo = p.flowAccessLoMs < 0 ? p.accessMs : p.flowAccessLoMs;
    double other = p.otherAccessMs < 0 ? p.accessMs : p.otherAccessMs;
    for (uint32_t s = SRC0; s < nNodes; ++s)
    {
        uint32_t i = s - SRC0;
        double ms = i < p.flows ? lo + i * p.flowAccessStepMs : other;
        MakeLink(net, s, R1, p.accessMbps, ms, Disc{}, w, w);
    }
    net.nAccess = net.links.size();
    MakeLink(net, R1, R2, p.rateMbps, p.bottleneckMs, p.bottleneck.GetDisc(), p.bottleneck.waiting, w);
    MakeLink(net, R2, DST, p.accessMbps, p.accessMs, Disc{}, w, w);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NS_LOG_INFO("link: " << p.flows << " flows, bottleneck " << p.bottleneck.queue);
}

// Every direction's root disc is the scenario's: the bottleneck's --queue, a FIFO elsewhere.
bool
CheckDiscs(const Params& p, const Net& net)
{
    for (size_t i = 0; i < net.links.size(); ++i)
    {
        const Link& l = net.links[i];
        if (!RootDiscIs(l.dev.Get(0), i == net.nAccess ? p.bottleneck.queue : FIFO_DISC, l.a, l.b) ||
            !RootDiscIs(l.dev.Get(1), FIFO_DISC, l.b, l.a))
        {
            return false;
        }
    }
    return true;
}

// The error model at the bottleneck's head: router 0's access-side receivers (only the
// sources' packets arrive there), counted in packets, as ns-2's lossmodel on 0 -> 1.
void
AddErrorModel(const Params& p, const Net& net)
{
    Ptr<RateErrorModel> em = PacketLoss(p.loss);
    for (size_t i = 0; i < net.nAccess; ++i)
    {
        net.links[i].dev.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
}

// The stream's first lines: the run's header and the program's version with every parameter.
void
WriteHeader(const Params& p)
{
    HeaderLine line = p.Opening(PROGRAM_VERSION);
    line.Add("loss", p.loss).Add("rateMbps", p.rateMbps).Add("bottleneckMs", p.bottleneckMs);
    line.Add("accessMbps", p.accessMbps).Add("accessMs", p.accessMs);
    line.Add("flowAccessLoMs", p.flowAccessLoMs).Add("flowAccessStepMs", p.flowAccessStepMs);
    line.Add("otherAccessMs", p.otherAccessMs).Add("otherWaiting", p.otherWaiting);
    line.Add("flows", p.flows);
    AddTcpKinds(line, p.tcp);
    line.Flag("ecn", p.ecn).Flag("pacing", p.pacing);
    AddTcpSizes(line, p.tcp, "windowPkts");
    line.Add("startJitter", p.startJitter).Add("cbrBytes", p.cbrBytes);
    line.Add("cbrInterval", p.cbrInterval).Add("duration", p.duration);
    p.WriteHeaderLines(g_out, line);
}

// Packets are learnt at their source's access disc (so that a head loss is known), traced
// only on the bottleneck: a packet lost as it reached router 0 is a 'd' on 0 -> 1 with no '+'.
void
ConnectTraces(const Net& net)
{
    for (size_t i = 0; i < net.nAccess; ++i)
    {
        RootDisc(net.links[i].dev.Get(0))
            ->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnLearn));
        net.links[i].dev.Get(1)->TraceConnectWithoutContext(
            "PhyRxDrop", MakeBoundCallback(&OnPhy, 'd', R1, R2));
    }
    const Link& bneck = net.links[net.nAccess];
    TraceLink(R1, R2, RootDisc(bneck.dev.Get(0)), bneck.dev.Get(0), bneck.dev.Get(1));
}

// Traffic: bulk TCP flows to node 2 (ports 5000 + i), an optional CBR/UDP flow.
void
AddTraffic(const Params& p, Net& net)
{
    std::vector<int> sources;
    for (uint32_t i = 0; i < p.flows; ++i)
    {
        sources.push_back(SRC0 + i);
    }
    Ipv4Address sink = AddressOf(DST);
    AddBulkFlows(net.nodes, sources, DST, sink, TCP_PORT0, p.tcp.segment, 0, p.startJitter);
    if (p.cbrInterval > 0)
    {
        AddCbr(net.nodes, SRC0 + p.flows, DST, sink, CBR_PORT, p.cbrBytes, p.cbrInterval, 0,
               p.duration);
    }
}

// The trace's flows: TCP flow i is flow id i + 1, the CBR flow the next; every TCP packet
// traced is data, and traced on the bottleneck only.
void
NameFlows(const Params& p)
{
    for (uint32_t i = 0; i < p.flows; ++i)
    {
        g_wired.fids.push_back((int)i + 1);
    }
    g_wired.cbrFid = (int)p.flows + 1;
    g_wired.acks = false;
    g_wired.forgetAtR = true;
}

} // namespace

int
main(int argc, char* argv[])
{
    Params p;
    p.header = RunHeader{1, "out.tr", "link", "none", "25"};
    p.tcp.iw = 10;
    p.tcp.bufferPkts = 10000;
    p.tcp.initialRto = 3.0;
    p.duration = 25;
    CommandLine cmd(__FILE__);
    AddValues(cmd, p);
    cmd.Parse(argc, argv);
    if (int rc = Check(p))
    {
        return rc;
    }
    NameFlows(p);
    SeedRuns(p.header.seed);
    ApplyTcp(p);
    Net net;
    MakeNet(p, net);
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
        ConnectTraces(net);
    }
    AddTraffic(p, net);
    return RunAndClose(p.duration, &FinishWired, g_out);
}
