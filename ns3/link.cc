// bufrepro ns-3 link scenario: the link experiment (bufrepro advise; the ns-2 scenario is
// tcl/link/link.tcl.j2) - long-lived TCP flows and optionally one CBR flow through one
// bottleneck (routers 0 -> 1), its queue and buffer swept. Like the ns-2 scenario it traces only
// the bottleneck's queue, in the ns-2 wired trace text format ("old" format, 12 fields), so
// that awk/link/link.awk measures both simulators' runs with one definition of each metric.
//
// Every parameter comes from the command line (bufrepro.experiments.link.ns3 passes only
// validated numbers and enums); the stream's first line is the run's fingerprint header
// ("# bufrepro experiments/NAME run=RUN seed=SEED end=END", backends/fingerprint.py), its
// second the program's version and every parameter ("#@ ..."), its last the end line
// "# end LINES SUM" (docs/trusting-a-run.md; EndLine below is the one place that writes it).
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
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/version-defines.h"
#include "streamsum.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ns3;

static const char* PROGRAM_VERSION = "bufrepro-ns3-link 1";
static const uint16_t TCP_PORT0 = 5000;
static const uint16_t CBR_PORT = 9000;
static const uint32_t PPP_BYTES = 2;
static const int R1 = 0, R2 = 1, DST = 2, SRC0 = 3;
#define NS3_STR2(x) #x
#define NS3_STR(x) NS3_STR2(x)
#define NS3_LIB_VERSION NS3_STR(NS3_VERSION_MAJOR) "." NS3_STR(NS3_VERSION_MINOR) "." NS3_STR(NS3_VERSION_PATCH)

namespace
{

// A transmission's trace id: ns-3 keeps a packet's uid across TCP's retransmissions, where
// ns-2 gives each transmission its own; this tag, set at the packet's first event, is the
// trace's uid ($12), one per transmission.
class TraceIdTag : public Tag
{
  public:
    uint64_t id = 0;

    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("bufrepro::TraceIdTag")
                                .SetParent<Tag>()
                                .AddConstructor<TraceIdTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 8;
    }

    void Serialize(TagBuffer i) const override
    {
        i.WriteU64(id);
    }

    void Deserialize(TagBuffer i) override
    {
        id = i.ReadU64();
    }

    void Print(std::ostream& os) const override
    {
        os << id;
    }
};

// Trace ids are 0, 1, 2, ... in the order of the packets' first events, every one traced (as
// ns-2 numbers the packets it sends; wired.awk checks that none is missing).
uint64_t g_nextId = 0;
const uint64_t NO_ID = ~uint64_t(0);

// The trace id of a packet (NO_ID: never seen by Learn).
uint64_t
IdOf(Ptr<const Packet> p)
{
    TraceIdTag tag;
    return p->PeekPacketTag(tag) ? tag.id : NO_ID;
}

struct Pkt
{
    std::string type;
    int fid;
    std::string src;
    std::string dst;
    long long seq;
    uint32_t size;
};

FILE* g_out = nullptr;
std::unordered_map<uint64_t, Pkt> g_pkts;
std::unordered_map<uint32_t, int> g_nodeOfAddr; // IPv4 address -> node id
uint32_t g_flows = 0;
long long g_cbrSeq = 0;

int
NodeOf(Ipv4Address a)
{
    auto it = g_nodeOfAddr.find(a.Get());
    return it == g_nodeOfAddr.end() ? -1 : it->second;
}

// A packet's trace fields, read once at its first event (the disc of its source's access link).
const Pkt*
Learn(Ptr<const QueueDiscItem> item)
{
    uint64_t uid = IdOf(item->GetPacket());
    auto it = g_pkts.find(uid);
    if (uid != NO_ID && it != g_pkts.end())
    {
        return &it->second;
    }
    if (uid != NO_ID)
    {
        TraceIdTag old;
        item->GetPacket()->RemovePacketTag(old);
    }
    Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!ip)
    {
        return nullptr;
    }
    const Ipv4Header& h = ip->GetHeader();
    Pkt p;
    p.size = item->GetSize() + PPP_BYTES;
    uint16_t sport = 0, dport = 0;
    if (h.GetProtocol() == 6)
    {
        TcpHeader t;
        item->GetPacket()->PeekHeader(t);
        sport = t.GetSourcePort();
        dport = t.GetDestinationPort();
        p.fid = dport >= TCP_PORT0 && dport < TCP_PORT0 + g_flows ? dport - TCP_PORT0 + 1 : -1;
        p.type = "tcp";
        p.seq = (long long)t.GetSequenceNumber().GetValue();
    }
    else
    {
        UdpHeader u;
        item->GetPacket()->PeekHeader(u);
        sport = u.GetSourcePort();
        dport = u.GetDestinationPort();
        p.type = "cbr";
        p.fid = (int)g_flows + 1;
        p.seq = g_cbrSeq++;
    }
    p.src = std::to_string(NodeOf(h.GetSource())) + "." + std::to_string(sport);
    p.dst = std::to_string(NodeOf(h.GetDestination())) + "." + std::to_string(dport);
    TraceIdTag tag;
    tag.id = g_nextId++;
    item->GetPacket()->AddPacketTag(tag);
    return &g_pkts.emplace(tag.id, p).first->second;
}

void
Line(char ev, uint64_t uid, const Pkt& p)
{
    char buf[256];
    std::snprintf(buf,
                  sizeof(buf),
                  "%c %.9f %d %d %s %u ------- %d %s %s %lld %llu",
                  ev,
                  Simulator::Now().GetSeconds(),
                  R1,
                  R2,
                  p.type.c_str(),
                  p.size,
                  p.fid,
                  p.src.c_str(),
                  p.dst.c_str(),
                  p.seq,
                  (unsigned long long)uid);
    Put(g_out, buf);
}

// An event on the bottleneck of a packet learnt at its source; its last ('d', 'r') forgets it.
void
Event(char ev, uint64_t uid)
{
    auto it = g_pkts.find(uid);
    if (it == g_pkts.end())
    {
        return; // not a packet of the scenario's forward flows (none are expected)
    }
    Line(ev, uid, it->second);
    if (ev == 'd' || ev == 'r')
    {
        g_pkts.erase(it);
    }
}

void
OnLearn(Ptr<const QueueDiscItem> item)
{
    Learn(item);
}

void
OnEnqueue(Ptr<const QueueDiscItem> item)
{
    const Pkt* p = Learn(item);
    if (p)
    {
        Line('+', IdOf(item->GetPacket()), *p);
    }
}

void
OnDropBefore(Ptr<const QueueDiscItem> item, const char*)
{
    OnEnqueue(item);
    Event('d', IdOf(item->GetPacket()));
}

void
OnDropAfter(Ptr<const QueueDiscItem> item, const char*)
{
    Event('d', IdOf(item->GetPacket()));
}

void
OnTx(Ptr<const Packet> p)
{
    Event('-', IdOf(p));
}

void
OnRx(Ptr<const Packet> p)
{
    Event('r', IdOf(p));
}

// A packet the error model lost as it reached router 0: dropped at the bottleneck's head,
// before its queue, as ns-2's lossmodel drops it (a 'd' with no '+').
void
OnHeadLoss(Ptr<const Packet> p)
{
    Event('d', IdOf(p));
}

void
Finish(double t)
{
    if (g_out)
    {
        EndLine(g_out);
        std::fflush(g_out);
    }
    std::printf("BUFREPRO_DONE %g\n", t);
    std::fflush(stdout);
    Simulator::Stop();
}

// The root disc of one direction of a link: `waiting - 1` packets (the device queue holds the
// last one waiting); the bottleneck's is the swept queue, every other one a FIFO.
struct Disc
{
    std::string queue;
    uint32_t waiting;
    double mbps, ms;
};

struct Aqm
{
    double redMinTh, redMaxTh, redQw, redMaxP, redMeanPkt;
    bool redGentle;
    double codelTargetMs, codelIntervalMs, pieTargetMs;
    uint32_t fqFlows, fqQuantum;
};

std::string
DiscType(const std::string& queue)
{
    return queue == "RED"       ? "ns3::RedQueueDisc"
           : queue == "CoDel"   ? "ns3::CoDelQueueDisc"
           : queue == "PIE"     ? "ns3::PieQueueDisc"
           : queue == "FqCoDel" ? "ns3::FqCoDelQueueDisc"
                                : "ns3::FifoQueueDisc";
}

void
InstallDisc(Ptr<NetDevice> dev, const Disc& d, const Aqm& a)
{
    QueueSizeValue lim(QueueSize(std::to_string(d.waiting - 1) + "p"));
    TrafficControlHelper tch;
    if (d.queue == "RED")
    {
        tch.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MaxSize", lim,
                             "MinTh", DoubleValue(a.redMinTh),
                             "MaxTh", DoubleValue(a.redMaxTh),
                             "QW", DoubleValue(a.redQw),
                             "LInterm", DoubleValue(1.0 / a.redMaxP),
                             "Gentle", BooleanValue(a.redGentle),
                             "MeanPktSize", UintegerValue((uint32_t)a.redMeanPkt),
                             "LinkBandwidth", DataRateValue(DataRate(d.mbps * 1e6)),
                             "LinkDelay", TimeValue(MilliSeconds(d.ms)),
                             "UseEcn", BooleanValue(false));
    }
    else if (d.queue == "CoDel")
    {
        tch.SetRootQueueDisc("ns3::CoDelQueueDisc",
                             "MaxSize", lim,
                             "Target", TimeValue(MilliSeconds(a.codelTargetMs)),
                             "Interval", TimeValue(MilliSeconds(a.codelIntervalMs)),
                             "UseEcn", BooleanValue(false));
    }
    else if (d.queue == "PIE")
    {
        tch.SetRootQueueDisc("ns3::PieQueueDisc",
                             "MaxSize", lim,
                             "QueueDelayReference", TimeValue(MilliSeconds(a.pieTargetMs)),
                             "UseEcn", BooleanValue(false));
    }
    else if (d.queue == "FqCoDel")
    {
        tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                             "MaxSize", lim,
                             "Target", StringValue(std::to_string(a.codelTargetMs) + "ms"),
                             "Interval", StringValue(std::to_string(a.codelIntervalMs) + "ms"),
                             "Flows", UintegerValue(a.fqFlows),
                             "UseEcn", BooleanValue(false));
    }
    else
    {
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", lim);
    }
    QueueDiscContainer root = tch.Install(dev);
    if (d.queue == "FqCoDel")
    {
        // FQ-CoDel's quantum is no attribute in ns-3.37: set on the installed disc.
        DynamicCast<FqCoDelQueueDisc>(root.Get(0))->SetQuantum(a.fqQuantum);
    }
}

Ptr<QueueDisc>
RootDisc(Ptr<NetDevice> d)
{
    return d->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(d);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t seed = 1;
    std::string queue = "DropTail";
    uint32_t waiting = 5;
    double loss = 0;
    double rateMbps = 10, bottleneckMs = 16, accessMbps = 100, accessMs = 2;
    uint32_t otherWaiting = 100000;
    uint32_t flows = 1;
    std::string tcp = "NewReno";
    bool sack = true, timestamps = false;
    uint32_t mss = 1460, iw = 10, delAck = 1, windowPkts = 10000;
    double initialRto = 3.0, minRto = 0.2, tick = 0.001;
    double startJitter = 1;
    uint32_t cbrBytes = 1000;
    double cbrInterval = 0;
    double duration = 25;
    Aqm a{1, 3, 0.002, 0.1, 1500, true, 5, 100, 15, 1024, 1514};
    std::string trace = "out.tr";
    // The header "bufrepro experiments/EXPERIMENT run=RUN seed=SEED end=END".
    std::string experiment = "link", run = "none", end = "25";

    CommandLine cmd(__FILE__);
    cmd.AddValue("seed", "run number of ns-3's RNG (seed 1, run N)", seed);
    cmd.AddValue("queue", "bottleneck queue: DropTail RED CoDel PIE FqCoDel", queue);
    cmd.AddValue("waiting", "packets the bottleneck holds waiting (the one sent not counted)", waiting);
    cmd.AddValue("loss", "packet loss rate of the error model at the bottleneck's head", loss);
    cmd.AddValue("rateMbps", "bottleneck rate (Mb/s)", rateMbps);
    cmd.AddValue("bottleneckMs", "bottleneck delay (ms)", bottleneckMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", accessMbps);
    cmd.AddValue("accessMs", "access delay (ms)", accessMs);
    cmd.AddValue("otherWaiting", "packets every other queue holds waiting (never full)", otherWaiting);
    cmd.AddValue("flows", "long-lived TCP flows", flows);
    cmd.AddValue("tcp", "TCP variant: NewReno HighSpeed Cubic", tcp);
    cmd.AddValue("sack", "SACK", sack);
    cmd.AddValue("timestamps", "TCP timestamps", timestamps);
    cmd.AddValue("mss", "segment size (bytes)", mss);
    cmd.AddValue("iw", "initial window (segments)", iw);
    cmd.AddValue("delAck", "segments per delayed ACK (1: every segment)", delAck);
    cmd.AddValue("windowPkts", "socket buffers (segments): the window's cap", windowPkts);
    cmd.AddValue("initialRto", "initial RTO (s)", initialRto);
    cmd.AddValue("minRto", "minimum RTO (s)", minRto);
    cmd.AddValue("tick", "TCP clock granularity (s)", tick);
    cmd.AddValue("startJitter", "TCP starts uniform in [0, this) (s)", startJitter);
    cmd.AddValue("cbrBytes", "CBR packet size as an IP packet (bytes)", cbrBytes);
    cmd.AddValue("cbrInterval", "CBR interval (s; 0: no CBR flow)", cbrInterval);
    cmd.AddValue("duration", "simulated time (s)", duration);
    cmd.AddValue("redMinTh", "RED min threshold (packets)", a.redMinTh);
    cmd.AddValue("redMaxTh", "RED max threshold (packets)", a.redMaxTh);
    cmd.AddValue("redQw", "RED queue weight", a.redQw);
    cmd.AddValue("redMaxP", "RED max drop probability (LInterm = 1 / this)", a.redMaxP);
    cmd.AddValue("redGentle", "gentle RED", a.redGentle);
    cmd.AddValue("redMeanPkt", "RED mean packet size (bytes)", a.redMeanPkt);
    cmd.AddValue("codelTargetMs", "CoDel / FQ-CoDel target (ms)", a.codelTargetMs);
    cmd.AddValue("codelIntervalMs", "CoDel / FQ-CoDel interval (ms)", a.codelIntervalMs);
    cmd.AddValue("pieTargetMs", "PIE delay reference (ms)", a.pieTargetMs);
    cmd.AddValue("fqFlows", "FQ-CoDel flow queues", a.fqFlows);
    cmd.AddValue("fqQuantum", "FQ-CoDel quantum (bytes)", a.fqQuantum);
    cmd.AddValue("trace", "stream file (none: no stream, the benchmark's floor)", trace);
    cmd.AddValue("experiment", "the header's experiment name", experiment);
    cmd.AddValue("run", "the header's run digest", run);
    cmd.AddValue("end", "the header's end, as the run record writes it", end);
    cmd.Parse(argc, argv);
    // The end line binds the lines written, not the time they reach: a run that stops before
    // the header's end would end a stream cut short with a valid end line.
    if (std::strtod(end.c_str(), nullptr) != duration)
    {
        std::fprintf(stderr, "link: --end %s (the header's) is not --duration %g\n", end.c_str(),
                     duration);
        return 2;
    }
    if (waiting < 2 || otherWaiting < 2 || flows < 1)
    {
        std::fprintf(stderr, "link: --waiting and --otherWaiting need at least 2, --flows 1\n");
        return 2;
    }
    g_flows = flows;

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    std::string tcpType = tcp == "HighSpeed" ? "ns3::TcpHighSpeed"
                          : tcp == "Cubic"   ? "ns3::TcpCubic"
                                             : "ns3::TcpNewReno";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tcpType));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", StringValue("ns3::TcpClassicRecovery"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(iw));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(windowPkts * mss));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(windowPkts * mss));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRto)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(tick)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(initialRto)));

    bool cbr = cbrInterval > 0;
    uint32_t nNodes = SRC0 + flows + (cbr ? 1 : 0);
    NodeContainer nodes;
    nodes.Create(nNodes);
    InternetStackHelper stack;
    stack.Install(nodes);

    // One link a <-> b; each direction's root disc is installed before Ipv4AddressHelper::Assign
    // (which installs the default FqCoDel only on a device without one; checked below).
    struct Link
    {
        int a, b;
        NetDeviceContainer dev;
        std::string queueAB;
    };
    std::vector<Link> links;
    Ipv4AddressHelper addr;
    auto makeLink = [&](int x, int y, double mbps, double ms, const Disc& ab) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(mbps * 1e6)));
        p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(ms)));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer dev = p2p.Install(nodes.Get(x), nodes.Get(y));
        InstallDisc(dev.Get(0), ab, a);
        InstallDisc(dev.Get(1), Disc{"DropTail", otherWaiting, mbps, ms}, a);
        std::string net = "10." + std::to_string(links.size() / 256 + 1) + "." +
                          std::to_string(links.size() % 256) + ".0";
        addr.SetBase(net.c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(dev);
        g_nodeOfAddr[ifs.GetAddress(0).Get()] = x;
        g_nodeOfAddr[ifs.GetAddress(1).Get()] = y;
        links.push_back({x, y, dev, ab.queue});
    };
    Disc fifo{"DropTail", otherWaiting, accessMbps, accessMs};
    for (uint32_t s = SRC0; s < nNodes; ++s)
    {
        makeLink(s, R1, accessMbps, accessMs, fifo);
    }
    size_t nAccess = links.size();
    makeLink(R1, R2, rateMbps, bottleneckMs, Disc{queue, waiting, rateMbps, bottleneckMs});
    makeLink(R2, DST, accessMbps, accessMs, fifo);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    for (const Link& l : links)
    {
        for (int dir = 0; dir < 2; ++dir)
        {
            Ptr<QueueDisc> q = RootDisc(l.dev.Get(dir));
            std::string want = DiscType(dir == 0 ? l.queueAB : "DropTail");
            std::string got = q ? q->GetInstanceTypeId().GetName() : "none";
            if (got != want)
            {
                std::fprintf(stderr, "link %d-%d: root queue disc %s, expected %s\n",
                             dir ? l.b : l.a, dir ? l.a : l.b, got.c_str(), want.c_str());
                return 3;
            }
        }
    }
    const Link& bneck = links[nAccess];

    // The error model at the bottleneck's head: router 0's access-side receivers (only the
    // sources' packets arrive there), counted in packets, as ns-2's lossmodel on 0 -> 1.
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(loss);
    em->SetRandomVariable(CreateObject<UniformRandomVariable>());
    for (size_t i = 0; i < nAccess; ++i)
    {
        links[i].dev.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
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
        char head[2048];
        std::snprintf(head, sizeof(head), "# bufrepro experiments/%s run=%s seed=%u end=%s",
                      experiment.c_str(), run.c_str(), seed, end.c_str());
        Put(g_out, head);
        std::snprintf(head,
                      sizeof(head),
                      "#@ %s ns3=%s seed=%u queue=%s waiting=%u loss=%g rateMbps=%g "
                      "bottleneckMs=%g accessMbps=%g accessMs=%g otherWaiting=%u flows=%u "
                      "tcp=%s sack=%d timestamps=%d mss=%u iw=%u delAck=%u windowPkts=%u "
                      "initialRto=%g minRto=%g tick=%g startJitter=%g cbrBytes=%u "
                      "cbrInterval=%g duration=%g redMinTh=%g redMaxTh=%g redQw=%g redMaxP=%g "
                      "redGentle=%d redMeanPkt=%g codelTargetMs=%g codelIntervalMs=%g "
                      "pieTargetMs=%g fqFlows=%u fqQuantum=%u",
                      PROGRAM_VERSION, NS3_LIB_VERSION, seed, queue.c_str(), waiting, loss,
                      rateMbps, bottleneckMs, accessMbps, accessMs, otherWaiting, flows,
                      tcp.c_str(), (int)sack, (int)timestamps, mss, iw, delAck, windowPkts,
                      initialRto, minRto, tick, startJitter, cbrBytes, cbrInterval, duration,
                      a.redMinTh, a.redMaxTh, a.redQw, a.redMaxP, (int)a.redGentle,
                      a.redMeanPkt, a.codelTargetMs, a.codelIntervalMs, a.pieTargetMs,
                      a.fqFlows, a.fqQuantum);
        Put(g_out, head);
        // Packets are learnt at their source's access disc (so that a head loss is known),
        // traced only on the bottleneck.
        for (size_t i = 0; i < nAccess; ++i)
        {
            RootDisc(links[i].dev.Get(0))
                ->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnLearn));
            links[i].dev.Get(1)->TraceConnectWithoutContext("PhyRxDrop",
                                                            MakeCallback(&OnHeadLoss));
        }
        Ptr<QueueDisc> q = RootDisc(bneck.dev.Get(0));
        q->TraceConnectWithoutContext("Enqueue", MakeCallback(&OnEnqueue));
        q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeCallback(&OnDropBefore));
        q->TraceConnectWithoutContext("DropAfterDequeue", MakeCallback(&OnDropAfter));
        bneck.dev.Get(0)->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&OnTx));
        bneck.dev.Get(1)->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&OnRx));
    }

    // Traffic: bulk TCP flows to node 2 (ports 5000 + i), an optional CBR/UDP flow.
    Ipv4Address sink = Ipv4Address::GetAny();
    for (const auto& kv : g_nodeOfAddr)
    {
        if (kv.second == DST)
        {
            sink = Ipv4Address(kv.first);
        }
    }
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Min", DoubleValue(0.0));
    start->SetAttribute("Max", DoubleValue(startJitter));
    for (uint32_t i = 0; i < flows; ++i)
    {
        uint16_t port = TCP_PORT0 + i;
        PacketSinkHelper ps("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ps.Install(nodes.Get(DST)).Start(Seconds(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(sink, port));
        bulk.SetAttribute("SendSize", UintegerValue(mss));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.Install(nodes.Get(SRC0 + i)).Start(Seconds(start->GetValue()));
    }
    if (cbr)
    {
        PacketSinkHelper cs("ns3::UdpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), CBR_PORT));
        cs.Install(nodes.Get(DST)).Start(Seconds(0));
        UdpClientHelper client(sink, CBR_PORT);
        client.SetAttribute("PacketSize", UintegerValue(cbrBytes - 28));
        client.SetAttribute("Interval", TimeValue(Seconds(cbrInterval)));
        client.SetAttribute("MaxPackets", UintegerValue((uint32_t)(duration / cbrInterval) + 2));
        client.Install(nodes.Get(SRC0 + flows)).Start(Seconds(0));
    }

    Simulator::Schedule(Seconds(duration), &Finish, duration);
    Simulator::Run();
    Simulator::Destroy();
    if (g_out)
    {
        std::fclose(g_out);
    }
    return 0;
}
