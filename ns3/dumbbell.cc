// bufrepro ns-3 dumbbell scenario: TCP sources and one CBR source over one bottleneck (routers
// 4 -> 5), the buffer swept, writing the ns-2 wired trace text format ("old" format, 12 fields)
// so that the project's AWK parsers (awk/dumbbell/dumbbell.awk, awk/lib/wired.awk) measure it
// with the same definitions as an ns-2 run.
//
// Every parameter comes from the command line (bufrepro.backends.ns3 passes only validated
// numbers and enums); the stream's first line is the run's fingerprint header, its second the
// program's version and every parameter ("#@ ..."), its last the end line (EndLine below: the
// one place that writes it).
//
// Nodes, as in the ns-2 scenario (tcl/dumbbell/dumbbell.tcl.j2): TCP sources 0, 2, 3 (then 8,
// 9, ...), CBR source 1, routers 4 and 5, TCP sink 6, CBR sink 7.
// Trace events per link a -> b (the device on a, its root queue disc, the device on b):
//   '+'  the disc accepted the packet (Enqueue), or refused it (DropBeforeEnqueue: '+' then 'd')
//   'd'  a drop: the disc's (before enqueue, after dequeue), or the error model's
//   '-'  transmission starts (PhyTxBegin)
//   'r'  the last bit arrived at b (PhyRxEnd)
// Sizes are the bytes the link serialises: the IP packet plus PPP's 2-byte header.
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/version-defines.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ns3;

static const char* PROGRAM_VERSION = "bufrepro-ns3-dumbbell 2";
static const uint16_t TCP_PORT0 = 5000;
static const uint16_t CBR_PORT = 9000;
static const int CBR_FID = 9;
static const uint32_t PPP_BYTES = 2;
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
    int dstNode;
    long long seq;
    uint32_t size;
};

FILE* g_out = nullptr;
std::unordered_map<uint64_t, Pkt> g_pkts;
std::vector<int> g_tcpFids;
std::unordered_map<uint32_t, int> g_nodeOfAddr; // IPv4 address -> node id
long long g_cbrSeq = 0;

// The stream's checksum (docs/trusting-a-run.md, "Stream format"; the same arithmetic as
// ns-2's StreamSum, ns2/patches/0008-stream-sum.patch): P = 2^40 - 87; a line's fields are its
// runs of characters other than space and tab; c(f) keeps every bit of num(f) when it is not
// 0, else hashes f's bytes; v(L) = (length(L) + sum i * c(f_i)) mod P; S = (S*31 + v + P) mod P.
const long long SUM_P = 1099511627689LL; // 2^40 - 87, prime
long long g_sumLines = 0;
long long g_sum = 0;

// The length of f's numeric prefix [-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)? (0: none).
int
NumericPrefix(const char* f, int n)
{
    int i = 0, digits = 0;
    if (i < n && (f[i] == '-' || f[i] == '+'))
    {
        i++;
    }
    while (i < n && f[i] >= '0' && f[i] <= '9')
    {
        i++;
        digits++;
    }
    if (i < n && f[i] == '.')
    {
        i++;
        while (i < n && f[i] >= '0' && f[i] <= '9')
        {
            i++;
            digits++;
        }
    }
    if (digits == 0)
    {
        return 0;
    }
    if (i < n && (f[i] == 'e' || f[i] == 'E'))
    {
        int j = i + 1;
        if (j < n && (f[j] == '-' || f[j] == '+'))
        {
            j++;
        }
        int e = j;
        while (j < n && f[j] >= '0' && f[j] <= '9')
        {
            j++;
        }
        if (j > e)
        {
            i = j;
        }
    }
    return i;
}

// c(f): a nonzero number's every bit (x * 2^30's integer part and the fraction's 52 bits, each
// mod P), else the byte hash W(f).
long long
FieldValue(const char* f, int n)
{
    int m = NumericPrefix(f, n);
    if (m > 0)
    {
        double x = std::strtod(std::string(f, m).c_str(), nullptr);
        if (x != 0)
        {
            double y = x * 1073741824.0;                        // 2^30
            double hi = std::trunc(y);
            double lo = std::trunc((y - hi) * 4503599627370496.0); // 2^52
            return (long long)std::fmod(hi, (double)SUM_P) + (long long)std::fmod(lo, (double)SUM_P);
        }
    }
    long long w = 0;
    for (int i = 0; i < n; i++)
    {
        w = (w * 257 + (unsigned char)f[i]) % SUM_P;
    }
    return w;
}

// v(L) for a line without its newline.
long long
LineValue(const char* line, int n)
{
    long long s = n;
    int i = 0, k = 0;
    while (i < n)
    {
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
        {
            i++;
        }
        if (i >= n)
        {
            break;
        }
        int b = i;
        while (i < n && line[i] != ' ' && line[i] != '\t')
        {
            i++;
        }
        k++;
        s += (long long)k * FieldValue(line + b, i - b);
    }
    return s % SUM_P;
}

// Write one line (text without its newline) to the stream and sum it: every line before the
// end line goes through here, the header and the "#@ " line included.
void
Put(FILE* out, const char* text)
{
    int n = (int)std::strlen(text);
    std::fwrite(text, 1, n, out);
    std::fputc('\n', out);
    g_sumLines++;
    g_sum = (g_sum * 31 + LineValue(text, n) + SUM_P) % SUM_P;
}

// The stream's end line "# end LINES SUM": the only place that writes it (its format is the
// parsers' to check).
void
EndLine(FILE* out)
{
    std::fprintf(out, "# end %lld %lld\n", g_sumLines, g_sum);
}

int
NodeOf(Ipv4Address a)
{
    auto it = g_nodeOfAddr.find(a.Get());
    return it == g_nodeOfAddr.end() ? -1 : it->second;
}

// A packet's trace fields, read once at its first event (the disc of its source's link).
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
    int sn = NodeOf(h.GetSource());
    p.dstNode = NodeOf(h.GetDestination());
    uint16_t sport = 0, dport = 0;
    if (h.GetProtocol() == 6)
    {
        TcpHeader t;
        item->GetPacket()->PeekHeader(t);
        sport = t.GetSourcePort();
        dport = t.GetDestinationPort();
        uint32_t payload = item->GetPacket()->GetSize() - t.GetSerializedSize();
        bool fromSink = sport >= TCP_PORT0 && sport < TCP_PORT0 + g_tcpFids.size();
        uint16_t flowPort = fromSink ? sport : dport;
        p.fid = flowPort >= TCP_PORT0 && flowPort < TCP_PORT0 + g_tcpFids.size()
                    ? g_tcpFids[flowPort - TCP_PORT0]
                    : -1;
        bool syn = (t.GetFlags() & TcpHeader::SYN) != 0;
        bool data = !fromSink && (payload > 0 || syn);
        p.type = data ? "tcp" : "ack";
        p.seq = data ? (long long)t.GetSequenceNumber().GetValue()
                     : (long long)t.GetAckNumber().GetValue();
    }
    else
    {
        UdpHeader u;
        item->GetPacket()->PeekHeader(u);
        sport = u.GetSourcePort();
        dport = u.GetDestinationPort();
        p.type = "cbr";
        p.fid = CBR_FID;
        p.seq = g_cbrSeq++;
    }
    p.src = std::to_string(sn) + "." + std::to_string(sport);
    p.dst = std::to_string(p.dstNode) + "." + std::to_string(dport);
    TraceIdTag tag;
    tag.id = g_nextId++;
    item->GetPacket()->AddPacketTag(tag);
    return &g_pkts.emplace(tag.id, p).first->second;
}

void
Line(char ev, int a, int b, uint64_t uid, const Pkt& p)
{
    char buf[256];
    std::snprintf(buf,
                 sizeof(buf),
                 "%c %.9f %d %d %s %u ------- %d %s %s %lld %llu",
                 ev,
                 Simulator::Now().GetSeconds(),
                 a,
                 b,
                 p.type.c_str(),
                 p.size,
                 p.fid,
                 p.src.c_str(),
                 p.dst.c_str(),
                 p.seq,
                 (unsigned long long)uid);
    Put(g_out, buf);
}

void
Event(char ev, int a, int b, uint64_t uid)
{
    auto it = g_pkts.find(uid);
    if (it == g_pkts.end())
    {
        return; // not a packet of the scenario's flows (none are expected)
    }
    Line(ev, a, b, uid, it->second);
    if (ev == 'd' || (ev == 'r' && b == it->second.dstNode))
    {
        g_pkts.erase(it);
    }
}

void
OnEnqueue(int a, int b, Ptr<const QueueDiscItem> item)
{
    const Pkt* p = Learn(item);
    if (p)
    {
        Line('+', a, b, IdOf(item->GetPacket()), *p);
    }
}

void
OnDropBefore(int a, int b, Ptr<const QueueDiscItem> item, const char*)
{
    OnEnqueue(a, b, item);
    Event('d', a, b, IdOf(item->GetPacket()));
}

void
OnDropAfter(int a, int b, Ptr<const QueueDiscItem> item, const char*)
{
    Event('d', a, b, IdOf(item->GetPacket()));
}

void
OnTx(int a, int b, Ptr<const Packet> p)
{
    Event('-', a, b, IdOf(p));
}

void
OnRx(int a, int b, Ptr<const Packet> p)
{
    Event('r', a, b, IdOf(p));
}

// A packet lost to the error model at a link's receiver (errorAt tail): dropped after it
// crossed the link.
void
OnRxDrop(int a, int b, Ptr<const Packet> p)
{
    Event('d', a, b, IdOf(p));
}

// A packet lost to the error model at the head of the bottleneck (errorAt head): it arrived
// at router 4 and is dropped before it enters 4 -> 5's queue, as ns-2's lossmodel drops it.
void
OnHeadLoss(int a, int b, int la, int lb, Ptr<const Packet> p)
{
    uint64_t uid = IdOf(p);
    auto it = g_pkts.find(uid);
    if (it == g_pkts.end())
    {
        return;
    }
    Line('r', a, b, uid, it->second);
    Event('d', la, lb, uid);
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

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t seed = 1;
    std::string queue = "DropTail";
    uint32_t waiting = 5;
    double plr = 0.01;
    double bottleneckMbps = 0.5, bottleneckDelayMs = 10;
    double accessMbps = 1000, accessDelayMs = 2;
    uint32_t accessWaiting = 999, reverseWaiting = 999;
    uint32_t sources = 3;
    std::string tcp = "NewReno", recovery = "classic";
    bool sack = true, timestamps = false;
    uint32_t mss = 1460, iw = 3, delAck = 1, rwndPkts = 1000;
    double initialRto = 1.0, minRto = 0.2, tick = 0.001;
    double startS = 0, startJitter = 1;
    uint32_t cbrBytes = 1000;
    double cbrInterval = 0.4, cbrStart = 0.1;
    double duration = 100;
    double redMinTh = 1, redMaxTh = 3, redQw = 0.002, redMaxP = 0.1;
    bool redGentle = true;
    double redMeanPkt = 1500;
    std::string errorAt = "head";
    std::string trace = "out.tr";
    // The run's header "bufrepro STUDY run=RUN seed=SEED end=END" (backends/fingerprint.py).
    std::string study = "dumbbell", run = "none", end = "100";
    // CoDel, PIE and FQ-CoDel: RFC defaults (bufrepro.backends.ns3 passes them).
    double codelTargetMs = 5, codelIntervalMs = 100, pieTargetMs = 15;
    uint32_t fqFlows = 1024, fqQuantum = 1514;

    CommandLine cmd(__FILE__);
    cmd.AddValue("seed", "run number of ns-3's RNG (seed 1, run N)", seed);
    cmd.AddValue("queue", "bottleneck queue: DropTail RED CoDel PIE FqCoDel", queue);
    cmd.AddValue("waiting", "packets the bottleneck holds waiting (the one sent not counted)", waiting);
    cmd.AddValue("plr", "packet loss rate of the bottleneck's error model", plr);
    cmd.AddValue("bottleneckMbps", "bottleneck rate (Mb/s)", bottleneckMbps);
    cmd.AddValue("bottleneckDelayMs", "bottleneck delay (ms)", bottleneckDelayMs);
    cmd.AddValue("accessMbps", "access rate (Mb/s)", accessMbps);
    cmd.AddValue("accessDelayMs", "access delay (ms)", accessDelayMs);
    cmd.AddValue("accessWaiting", "packets an access link holds waiting", accessWaiting);
    cmd.AddValue("reverseWaiting", "packets the ACK direction 5 -> 4 holds waiting", reverseWaiting);
    cmd.AddValue("sources", "TCP sources", sources);
    cmd.AddValue("tcp", "TCP variant: NewReno HighSpeed Cubic", tcp);
    cmd.AddValue("recovery", "loss recovery: classic prr", recovery);
    cmd.AddValue("sack", "SACK", sack);
    cmd.AddValue("timestamps", "TCP timestamps", timestamps);
    cmd.AddValue("mss", "segment size (bytes)", mss);
    cmd.AddValue("iw", "initial window (segments)", iw);
    cmd.AddValue("delAck", "segments per delayed ACK (1: every segment)", delAck);
    cmd.AddValue("rwndPkts", "socket buffers (segments)", rwndPkts);
    cmd.AddValue("initialRto", "initial RTO (s)", initialRto);
    cmd.AddValue("minRto", "minimum RTO (s)", minRto);
    cmd.AddValue("tick", "TCP clock granularity (s)", tick);
    cmd.AddValue("startS", "first TCP start (s)", startS);
    cmd.AddValue("startJitter", "TCP starts uniform in [startS, startS + this) (s)", startJitter);
    cmd.AddValue("cbrBytes", "CBR packet size as an IP packet (bytes)", cbrBytes);
    cmd.AddValue("cbrInterval", "CBR interval (s)", cbrInterval);
    cmd.AddValue("cbrStart", "CBR start (s)", cbrStart);
    cmd.AddValue("duration", "simulated time (s)", duration);
    cmd.AddValue("redMinTh", "RED min threshold (packets)", redMinTh);
    cmd.AddValue("redMaxTh", "RED max threshold (packets)", redMaxTh);
    cmd.AddValue("redQw", "RED queue weight", redQw);
    cmd.AddValue("redMaxP", "RED max drop probability (LInterm = 1 / this)", redMaxP);
    cmd.AddValue("redGentle", "gentle RED", redGentle);
    cmd.AddValue("redMeanPkt", "RED mean packet size (bytes)", redMeanPkt);
    cmd.AddValue("codelTargetMs", "CoDel / FQ-CoDel target (ms)", codelTargetMs);
    cmd.AddValue("codelIntervalMs", "CoDel / FQ-CoDel interval (ms)", codelIntervalMs);
    cmd.AddValue("pieTargetMs", "PIE delay reference (ms)", pieTargetMs);
    cmd.AddValue("fqFlows", "FQ-CoDel flow queues", fqFlows);
    cmd.AddValue("fqQuantum", "FQ-CoDel quantum (bytes)", fqQuantum);
    cmd.AddValue("errorAt", "error model: head (before 4 -> 5's queue) or tail (at 5)", errorAt);
    cmd.AddValue("trace", "stream file (none: no stream, the benchmark's floor)", trace);
    cmd.AddValue("study", "the header's study", study);
    cmd.AddValue("run", "the header's run digest", run);
    cmd.AddValue("end", "the header's end, as the run record writes it", end);
    cmd.Parse(argc, argv);
    // The end line binds the lines written, not the time they reach: a run that stops before
    // the header's end would end a stream cut short with a valid end line.
    if (std::strtod(end.c_str(), nullptr) != duration)
    {
        std::fprintf(stderr, "dumbbell: --end %s (the header's) is not --duration %g\n",
                     end.c_str(), duration);
        return 2;
    }

    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(seed);

    std::string tcpType = tcp == "HighSpeed" ? "ns3::TcpHighSpeed"
                          : tcp == "Cubic"   ? "ns3::TcpCubic"
                                             : "ns3::TcpNewReno";
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tcpType));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       StringValue(recovery == "prr" ? "ns3::TcpPrrRecovery"
                                                     : "ns3::TcpClassicRecovery"));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(iw));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(rwndPkts * mss));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(rwndPkts * mss));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRto)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(tick)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(initialRto)));

    uint32_t nNodes = 8 + (sources > 3 ? sources - 3 : 0);
    NodeContainer nodes;
    nodes.Create(nNodes);
    std::vector<int> tcpNodes = {0, 2, 3};
    for (uint32_t i = 8; i < nNodes; ++i)
    {
        tcpNodes.push_back(i);
    }
    tcpNodes.resize(sources);
    for (uint32_t i = 0; i < sources; ++i)
    {
        g_tcpFids.push_back(i < (uint32_t)CBR_FID ? (int)i : (int)i + 1);
    }
    InternetStackHelper stack;
    stack.Install(nodes);

    // One link a <-> b; each direction's root disc holds `waiting - 1` packets and the device
    // queue one more (its flow control stops the disc while that one waits): `waiting` in all.
    struct Link
    {
        int a, b;
        NetDeviceContainer dev;
    };
    std::vector<Link> links;
    Ipv4AddressHelper addr;
    TrafficControlHelper fifoTch;
    auto makeLink = [&](int a, int b, double mbps, double ms, uint32_t waitAB, uint32_t waitBA,
                        const std::string& discAB) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(mbps * 1e6)));
        p2p.SetChannelAttribute("Delay", TimeValue(MilliSeconds(ms)));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer dev = p2p.Install(nodes.Get(a), nodes.Get(b));
        // Each device gets the scenario's own root disc before Ipv4AddressHelper::Assign, which
        // installs the default FqCoDel only on a device without one (checked below).
        TrafficControlHelper fifoB;
        fifoB.SetRootQueueDisc("ns3::FifoQueueDisc",
                               "MaxSize",
                               QueueSizeValue(QueueSize(std::to_string(waitBA - 1) + "p")));
        fifoB.Install(dev.Get(1));
        std::string lim = std::to_string(waitAB - 1) + "p";
        TrafficControlHelper disc;
        if (discAB == "RED")
        {
            disc.SetRootQueueDisc("ns3::RedQueueDisc",
                                  "MaxSize", QueueSizeValue(QueueSize(lim)),
                                  "MinTh", DoubleValue(redMinTh),
                                  "MaxTh", DoubleValue(redMaxTh),
                                  "QW", DoubleValue(redQw),
                                  "LInterm", DoubleValue(1.0 / redMaxP),
                                  "Gentle", BooleanValue(redGentle),
                                  "MeanPktSize", UintegerValue((uint32_t)redMeanPkt),
                                  "LinkBandwidth", DataRateValue(DataRate(mbps * 1e6)),
                                  "LinkDelay", TimeValue(MilliSeconds(ms)),
                                  "UseEcn", BooleanValue(false));
        }
        else if (discAB == "CoDel")
        {
            disc.SetRootQueueDisc("ns3::CoDelQueueDisc",
                                  "MaxSize", QueueSizeValue(QueueSize(lim)),
                                  "Target", TimeValue(MilliSeconds(codelTargetMs)),
                                  "Interval", TimeValue(MilliSeconds(codelIntervalMs)),
                                  "UseEcn", BooleanValue(false));
        }
        else if (discAB == "PIE")
        {
            disc.SetRootQueueDisc("ns3::PieQueueDisc",
                                  "MaxSize", QueueSizeValue(QueueSize(lim)),
                                  "QueueDelayReference", TimeValue(MilliSeconds(pieTargetMs)),
                                  "UseEcn", BooleanValue(false));
        }
        else if (discAB == "FqCoDel")
        {
            disc.SetRootQueueDisc("ns3::FqCoDelQueueDisc",
                                  "MaxSize", QueueSizeValue(QueueSize(lim)),
                                  "Target", StringValue(std::to_string(codelTargetMs) + "ms"),
                                  "Interval", StringValue(std::to_string(codelIntervalMs) + "ms"),
                                  "Flows", UintegerValue(fqFlows),
                                  "UseEcn", BooleanValue(false));
        }
        else
        {
            disc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(QueueSize(lim)));
        }
        QueueDiscContainer root = disc.Install(dev.Get(0));
        if (discAB == "FqCoDel")
        {
            // FQ-CoDel's quantum is no attribute in ns-3.37: set on the installed disc.
            DynamicCast<FqCoDelQueueDisc>(root.Get(0))->SetQuantum(fqQuantum);
        }
        // Addresses only after the discs: Assign would otherwise install the default FqCoDel.
        std::string net = "10.0." + std::to_string(links.size() + 1) + ".0";
        addr.SetBase(net.c_str(), "255.255.255.0");
        Ipv4InterfaceContainer ifs = addr.Assign(dev);
        g_nodeOfAddr[ifs.GetAddress(0).Get()] = a;
        g_nodeOfAddr[ifs.GetAddress(1).Get()] = b;
        links.push_back({a, b, dev});
    };

    std::vector<int> accessSrc(tcpNodes.begin(), tcpNodes.end());
    accessSrc.push_back(1);
    std::sort(accessSrc.begin(), accessSrc.end());
    for (int s : accessSrc)
    {
        makeLink(s, 4, accessMbps, accessDelayMs, accessWaiting, accessWaiting, "DropTail");
    }
    makeLink(4, 5, bottleneckMbps, bottleneckDelayMs, waiting, reverseWaiting, queue);
    for (int d : {6, 7})
    {
        makeLink(5, d, accessMbps, accessDelayMs, accessWaiting, accessWaiting, "DropTail");
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    for (const Link& l : links)
    {
        for (int dir = 0; dir < 2; ++dir)
        {
            Ptr<NetDevice> d = l.dev.Get(dir);
            Ptr<QueueDisc> q =
                d->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(d);
            std::string want = (dir == 0 && l.a == 4 && l.b == 5) ? queue : "DropTail";
            std::string got = q ? q->GetInstanceTypeId().GetName() : "none";
            std::string expect = want == "RED"       ? "ns3::RedQueueDisc"
                                 : want == "CoDel"   ? "ns3::CoDelQueueDisc"
                                 : want == "PIE"     ? "ns3::PieQueueDisc"
                                 : want == "FqCoDel" ? "ns3::FqCoDelQueueDisc"
                                                     : "ns3::FifoQueueDisc";
            if (got != expect)
            {
                std::fprintf(stderr, "link %d-%d: root queue disc %s, expected %s\n",
                             dir ? l.b : l.a, dir ? l.a : l.b, got.c_str(), expect.c_str());
                return 3;
            }
        }
    }
    const Link& bneck = links[accessSrc.size()];

    // The error model: at the head of 4 -> 5 (the routers' access-side receivers, ns-2's
    // lossmodel position) or at its tail (5's receiver, ns-3's usual place).
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(plr);
    Ptr<UniformRandomVariable> emVar = CreateObject<UniformRandomVariable>();
    em->SetRandomVariable(emVar);
    if (errorAt == "tail")
    {
        bneck.dev.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    else
    {
        for (size_t i = 0; i < accessSrc.size(); ++i)
        {
            links[i].dev.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
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
        std::snprintf(head, sizeof(head), "# bufrepro %s run=%s seed=%u end=%s", study.c_str(),
                      run.c_str(), seed, end.c_str());
        Put(g_out, head);
        std::snprintf(head,
                     sizeof(head),
                     "#@ %s ns3=%s seed=%u queue=%s waiting=%u plr=%g bottleneckMbps=%g "
                     "bottleneckDelayMs=%g accessMbps=%g accessDelayMs=%g accessWaiting=%u "
                     "reverseWaiting=%u sources=%u tcp=%s recovery=%s sack=%d timestamps=%d "
                     "mss=%u iw=%u delAck=%u rwndPkts=%u initialRto=%g minRto=%g tick=%g "
                     "startS=%g startJitter=%g cbrBytes=%u cbrInterval=%g cbrStart=%g "
                     "duration=%g redMinTh=%g redMaxTh=%g redQw=%g redMaxP=%g redGentle=%d "
                     "redMeanPkt=%g codelTargetMs=%g codelIntervalMs=%g pieTargetMs=%g "
                     "fqFlows=%u fqQuantum=%u errorAt=%s",
                     PROGRAM_VERSION, NS3_LIB_VERSION, seed, queue.c_str(), waiting, plr,
                     bottleneckMbps, bottleneckDelayMs, accessMbps, accessDelayMs,
                     accessWaiting, reverseWaiting, sources, tcp.c_str(), recovery.c_str(),
                     (int)sack, (int)timestamps, mss, iw, delAck, rwndPkts, initialRto, minRto,
                     tick, startS, startJitter, cbrBytes, cbrInterval, cbrStart, duration,
                     redMinTh, redMaxTh, redQw, redMaxP, (int)redGentle, redMeanPkt,
                     codelTargetMs, codelIntervalMs, pieTargetMs, fqFlows, fqQuantum,
                     errorAt.c_str());
        Put(g_out, head);
        for (const Link& l : links)
        {
            for (int dir = 0; dir < 2; ++dir)
            {
                int a = dir ? l.b : l.a, b = dir ? l.a : l.b;
                Ptr<NetDevice> tx = l.dev.Get(dir), rx = l.dev.Get(1 - dir);
                Ptr<QueueDisc> q =
                    tx->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(tx);
                q->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&OnEnqueue, a, b));
                q->TraceConnectWithoutContext("DropBeforeEnqueue",
                                              MakeBoundCallback(&OnDropBefore, a, b));
                q->TraceConnectWithoutContext("DropAfterDequeue",
                                              MakeBoundCallback(&OnDropAfter, a, b));
                tx->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&OnTx, a, b));
                rx->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&OnRx, a, b));
                bool headLoss = errorAt != "tail" && b == 4;
                if (headLoss)
                {
                    rx->TraceConnectWithoutContext("PhyRxDrop",
                                                   MakeBoundCallback(&OnHeadLoss, a, b, 4, 5));
                }
                else
                {
                    rx->TraceConnectWithoutContext("PhyRxDrop",
                                                   MakeBoundCallback(&OnRxDrop, a, b));
                }
            }
        }
    }
    (void)bneck;

    // Traffic: bulk TCP flows to node 6 (ports 5000 + i), one CBR/UDP flow 1 -> 7.
    Ipv4Address sinkTcp = Ipv4Address::GetAny(), sinkCbr = Ipv4Address::GetAny();
    for (const auto& kv : g_nodeOfAddr)
    {
        if (kv.second == 6)
        {
            sinkTcp = Ipv4Address(kv.first);
        }
        if (kv.second == 7)
        {
            sinkCbr = Ipv4Address(kv.first);
        }
    }
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Min", DoubleValue(0.0));
    start->SetAttribute("Max", DoubleValue(startJitter));
    for (uint32_t i = 0; i < sources; ++i)
    {
        uint16_t port = TCP_PORT0 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        sink.Install(nodes.Get(6)).Start(Seconds(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(sinkTcp, port));
        bulk.SetAttribute("SendSize", UintegerValue(mss));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        bulk.Install(nodes.Get(tcpNodes[i])).Start(Seconds(startS + start->GetValue()));
    }
    PacketSinkHelper cbrSink("ns3::UdpSocketFactory",
                             InetSocketAddress(Ipv4Address::GetAny(), CBR_PORT));
    cbrSink.Install(nodes.Get(7)).Start(Seconds(0));
    UdpClientHelper cbr(sinkCbr, CBR_PORT);
    cbr.SetAttribute("PacketSize", UintegerValue(cbrBytes - 28));
    cbr.SetAttribute("Interval", TimeValue(Seconds(cbrInterval)));
    cbr.SetAttribute("MaxPackets", UintegerValue((uint32_t)(duration / cbrInterval) + 2));
    cbr.Install(nodes.Get(1)).Start(Seconds(cbrStart));

    Simulator::Schedule(Seconds(duration), &Finish, duration);
    Simulator::Run();
    Simulator::Destroy();
    if (g_out)
    {
        std::fclose(g_out);
    }
    return 0;
}
