// bufrepro ns-3 dumbbell scenario: TCP sources and one CBR source over one bottleneck (routers
// 4 -> 5), the buffer swept, writing the ns-2 wired trace text format ("old" format, 12 fields)
// so that the project's AWK parsers (awk/dumbbell/dumbbell.awk, awk/lib/wired.awk) measure it
// with the same definitions as an ns-2 run.
//
// With --traceLevel=tally the program writes no event lines: it counts them in-process (class
// Tally, wired.awk's definitions, as the patched ns-2's WiredTally does) and writes at the end
// the small stream awk/lib/tally.awk reads, between the same header lines and end line.
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
#include "streamsum.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using namespace ns3;

static const char* PROGRAM_VERSION = "bufrepro-ns3-dumbbell 3";
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
    int ty; // the type's index in Tally::TypeNames()
    int fid;
    int srcNode;
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

// WiredTally's counting (trace_level tally): every event the full trace would write, handed
// instead to this accumulator, which applies awk/lib/wired.awk's definitions (accounting.awk,
// delay.awk, throughput.awk, loss.awk, link.awk, integrity.awk's stream checks) with the same
// double operations in the same order as the patched ns-2's WiredTally
// (ns2/patches/0003-wired-tally.patch, as 0008 left it); at the end the program writes the small
// stream awk/lib/tally.awk reads ("tally wired 2"). An event's time is the one the full trace's
// "%.9f" text gives the parser: the nanosecond step / 1e9, correctly rounded as strtod rounds.
class Tally
{
  public:
    // The parameters (wired.awk's -v variables), their text as given, echoed into the stream.
    std::map<std::string, std::string> ptext;

    bool Param(const std::string& name, const std::string& value)
    {
        if (value.empty())
        {
            return true; // not given: not in the stream (the parser checks what it has)
        }
        ptext[name] = value;
        double v = std::strtod(value.c_str(), nullptr);
        if (name == "t0") t0 = v;
        else if (name == "t1") t1 = v;
        else if (name == "t_end") tEnd = v;
        else if (name == "max_age") maxAge = v;
        else if (name == "link_from") linkFrom = std::atoi(value.c_str());
        else if (name == "link_to") linkTo = std::atoi(value.c_str());
        else if (name == "link_bps") linkBps = v;
        else if (name == "link_delay") { linkDelay = v; hasDelay = true; }
        else if (name == "tcp_hdr") tcpHdr = v;
        else return false;
        return true;
    }

    // "" when the parameters suffice to count, else what is missing.
    std::string Ready()
    {
        for (const char* k : {"t0", "t1", "t_end", "max_age", "link_from", "link_to", "link_bps"})
        {
            if (ptext.find(k) == ptext.end())
            {
                return std::string("tally parameter ") + k + " not given";
            }
        }
        if (!(t1 > t0) || !(linkBps > 0))
        {
            return "tally: t1 > t0 and link_bps > 0 required";
        }
        linkLast = t0;
        return "";
    }

    // One trace event (wired.awk's per-line rules); ty: the packet type's index in TypeNames.
    void Event(char tt, int from, int to, uint64_t uid64, int ty, int src, int dst, int fid,
               long long seq, uint32_t size, double tm)
    {
        size_t uid = (size_t)uid64;
        Grow(uid);
        // integrity.awk: the clock, the largest gap, the scenario's end
        lines++;
        if (tm > last)
        {
            if (last >= 0 && tm - last > gap) gap = tm - last;
            last = tm;
            if (tm > tEnd)
            {
                Fail("time " + Num("%.15g", tm) + " after the scenario's end " + ptext["t_end"]);
                return;
            }
        }
        int mx = std::max(std::max(from, to), std::max(src, dst));
        if (mx > maxNode) maxNode = mx;
        if (from < 0 || to < 0 || src < 0 || dst < 0)
        {
            Fail("negative node");
            return;
        }
        if ((size_t)from >= links.size()) links.resize(from + 1);
        if ((size_t)to >= links[from].size()) links[from].resize(to + 1, 0);
        links[from][to] = 1;
        if ((size_t)ty >= types.size()) types.resize(ty + 1);
        TypeStat& ts = types[ty];
        if (!ts.seen)
        {
            ts.seen = true;
            ts.name = TypeNames()[ty];
            ts.isAck = ts.name == "ack";
        }
        if (tm > acctTend) acctTend = tm;
        if (!ts.isAck && acct[uid] == A_FLY) flyT[uid] = tm;
        if (from == linkFrom && to == linkTo)
        {
            LinkEvent(tt, uid, tm, size);
            if (hasDelay)
            {
                if (tt == '-') { flags[uid] |= F_DEQ; deqT[uid] = tm; }
                else if (tt == 'r') Transit(uid, tm, size);
            }
        }
        long long link = (long long)from * 1048576LL + to;
        if (tt == '+')
        {
            if (!(flags[uid] & F_SENT) && from == src) Send(uid, ts, tm, true);
            LossEnq(uid, link);
        }
        else if (tt == '-')
        {
            LossTake(uid, link);
        }
        else if (tt == 'r')
        {
            LossTake(uid, link);
            if (!ts.isAck && to == dst)
            {
                if (acct[uid] == A_RECV || acct[uid] == A_DROP)
                    Fail("packet " + Num("%.0f", (double)uid) + " received after it was " +
                         (acct[uid] == A_RECV ? "received" : "dropped"));
                else if (acct[uid] != A_FLY)
                    Fail("packet " + Num("%.0f", (double)uid) + " received but never sent");
                else { acct[uid] = A_RECV; acctRecv++; }
                if (flags[uid] & F_DELAY)
                {
                    double tsend = delayAt[uid];
                    flags[uid] &= ~F_DELAY;
                    if (tsend >= t0 && tsend <= t1)
                    {
                        double ms = (tm - tsend) * 1000.0;
                        ts.dn++;
                        ts.dsum += ms;
                        if (ts.dn == 1 || ms > ts.dmax) ts.dmax = ms;
                        ts.dall.push_back(ms);
                    }
                }
                TputRecv(ts, fid, seq, size, tm, uid);
            }
        }
        else if (tt == 'd')
        {
            if (!(flags[uid] & F_SENT) && from == src) Send(uid, ts, tm, false);
            bool queued = LossTake(uid, link);
            if (tm >= t0 && tm <= t1)
            {
                if (queued) ts.dq++;
                else ts.dl++;
            }
            if (!ts.isAck)
            {
                if (acct[uid] == A_RECV || acct[uid] == A_DROP)
                    Fail("packet " + Num("%.0f", (double)uid) + " dropped after it was " +
                         (acct[uid] == A_RECV ? "received" : "dropped"));
                else if (acct[uid] != A_FLY)
                    Fail("packet " + Num("%.0f", (double)uid) + " dropped but never sent");
                else { acct[uid] = A_DROP; acctDrop++; }
                flags[uid] &= ~F_DELAY;
            }
            flags[uid] &= ~F_FRAC;
        }
        else
        {
            Fail(std::string("unknown event '") + tt + "' (+ - r d expected)");
        }
    }

    // The END rules of wired.awk: the stream's lines after the header (format 2).
    std::vector<std::string> Report()
    {
        std::map<std::string, std::string> m;
        if (lines == 0) Fail("empty stream");
        long long wsent = 0;
        for (const TypeStat& s : types)
            if (s.seen && !s.isAck) wsent += s.sent;
        if (wsent > 0 && linkDep == 0)
            Fail("data packets were sent in [t0, t1] but the measured link " + ptext["link_from"] +
                 "-" + ptext["link_to"] + " carried none");
        long long inflight = 0;
        for (size_t u = 0; u < acct.size(); u++)
        {
            if (acct[u] != A_FLY) continue;
            inflight++;
            if (acctTend - flyT[u] > maxAge)
            {
                char buf[160];
                std::snprintf(buf, sizeof(buf),
                              "packet %lu vanished: last seen at %.15g, trace ends at %.15g",
                              (unsigned long)u, flyT[u], acctTend);
                Fail(buf);
            }
        }
        if (acctSent != acctRecv + acctDrop + inflight) Fail("sent != received + dropped + in flight");
        m["acct_sent"] = Int(acctSent);
        m["acct_received"] = Int(acctRecv);
        m["acct_dropped"] = Int(acctDrop);
        m["acct_in_flight"] = Int(inflight);
        m["acct_trace_end"] = Num("%.6f", acctTend);
        if (failed == 0) m["acct_ok"] = "1";
        double span = t1 - t0;
        for (TypeStat& s : types)
        {
            if (!s.seen) continue;
            if (s.dn > 0)
            {
                std::vector<double> v(s.dall);
                std::sort(v.begin(), v.end());
                long long n = s.dn;
                long long rank = (long long)(0.95 * n + 0.999999);
                if (rank < 1) rank = 1;
                m[s.name + "_delay_pkts"] = Int(n);
                m[s.name + "_delay_ms_mean"] = Num("%.6f", s.dsum / n);
                m[s.name + "_delay_ms_max"] = Num("%.6f", s.dmax);
                m[s.name + "_delay_ms_p95"] = Num("%.6f", v[rank - 1]);
            }
            if (s.hasRx)
            {
                m[s.name + "_rx_pkts"] = Int(s.pk);
                m[s.name + "_rx_bytes"] = Num("%.3f", s.rx);
                m[s.name + "_throughput_kbps"] = Num("%.6f", s.rx * 8 / span / 1000);
                if (!s.noseq) m[s.name + "_goodput_kbps"] = Num("%.6f", s.good * 8 / span / 1000);
            }
            long long dropped = s.dq + s.dl;
            m[s.name + "_sent_pkts"] = Int(s.sent);
            m[s.name + "_drops_queue"] = Int(s.dq);
            m[s.name + "_drops_link"] = Int(s.dl);
            m[s.name + "_drops_total"] = Int(dropped);
            m[s.name + "_loss_rate"] = s.sent > 0 ? Num("%.6f", (double)dropped / s.sent) : "";
        }
        if (t1 > linkLast)
        {
            linkArea += linkQ * (t1 - linkLast);
            if (linkQ > linkQmax) linkQmax = linkQ;
            linkLast = t1;
        }
        m["link_utilisation"] = Num("%.6f", linkBits / (linkBps * (t1 - t0)));
        m["link_queue_avg_pkts"] = Num("%.6f", linkArea / (t1 - t0));
        m["link_queue_max_pkts"] = Int(linkQmax);
        m["link_departed_pkts"] = Int(linkDep);

        std::vector<std::string> out = {"tally\twired\t2"};
        for (const auto& kv : ptext) out.push_back("param\t" + kv.first + "\t" + kv.second);
        out.push_back("events\t" + Int(lines));
        out.push_back("last\t" + Num("%.6f", last));
        out.push_back("gap\t" + Num("%.6f", gap));
        out.push_back("nodes\t" + Int(maxNode + 1));
        for (size_t a = 0; a < links.size(); a++)
            for (size_t b = 0; b < links[a].size(); b++)
                if (links[a][b]) out.push_back("link\t" + Int(a) + "\t" + Int(b));
        for (std::string f : fails)
        {
            std::replace(f.begin(), f.end(), '\t', ' ');
            std::replace(f.begin(), f.end(), '\n', ' ');
            out.push_back("fail\t" + f);
        }
        out.push_back("failed\t" + Int(failed));
        if (failed == 0)
            for (const auto& kv : m) out.push_back("metric\t" + kv.first + "\t" + kv.second);
        return out;
    }

    // The packet types' names, in the order Learn first meets them (a Pkt's ty indexes it).
    static std::vector<std::string>& TypeNames()
    {
        static std::vector<std::string> names;
        return names;
    }

  private:
    struct TypeStat
    {
        bool seen = false, isAck = false, hasRx = false, noseq = false;
        std::string name;
        long long sent = 0, dq = 0, dl = 0, pk = 0, dn = 0;
        double rx = 0, good = 0, dsum = 0, dmax = 0;
        std::vector<double> dall;
    };
    enum { F_SENT = 1, F_INQ = 2, F_FRAC = 4, F_DEQ = 8, F_DELAY = 16 };
    enum { A_NONE = 0, A_FLY = 1, A_RECV = 2, A_DROP = 3 };

    double t0 = 0, t1 = 0, tEnd = 0, maxAge = 0, linkBps = 0, linkDelay = 0, tcpHdr = 40;
    int linkFrom = -1, linkTo = -1;
    bool hasDelay = false;
    long long lines = 0, failed = 0;
    double last = -1, gap = 0;
    int maxNode = -1;
    std::vector<std::vector<char>> links;
    std::vector<std::string> fails;
    std::vector<unsigned char> flags, acct;
    std::vector<double> flyT, delayAt, frac, deqT;
    std::vector<long long> lossq;
    std::set<std::pair<size_t, long long>> lossqMore;
    std::set<std::pair<int, long long>> delivered;
    double acctTend = 0;
    long long acctSent = 0, acctRecv = 0, acctDrop = 0;
    long long linkQ = 0, linkQmax = 0, linkDep = 0;
    double linkArea = 0, linkLast = 0, linkBits = 0, linkFree = 0;
    std::vector<TypeStat> types;

    static std::string Num(const char* fmt, double v)
    {
        char buf[64];
        std::snprintf(buf, sizeof(buf), fmt, v);
        return buf;
    }

    static std::string Int(long long v)
    {
        return std::to_string(v);
    }

    void Fail(const std::string& msg)
    {
        if (failed < 10) fails.push_back(msg);
        failed++;
    }

    void Grow(size_t uid)
    {
        size_t n = flags.size();
        if (uid < n) return;
        size_t m = n ? n : 1024;
        while (m <= uid) m *= 2;
        flags.resize(m, 0);
        acct.resize(m, A_NONE);
        flyT.resize(m, 0.0);
        delayAt.resize(m, 0.0);
        frac.resize(m, 0.0);
        deqT.resize(m, 0.0);
        lossq.resize(m, -1);
    }

    // wired_send: the packet's first '+' (enq) or 'd' at the node of its source.
    void Send(size_t uid, TypeStat& ts, double t, bool enq)
    {
        flags[uid] |= F_SENT;
        if (t >= t0 && t <= t1) ts.sent++;
        if (!ts.isAck)
        {
            if (acct[uid] == A_NONE) { acct[uid] = A_FLY; flyT[uid] = t; acctSent++; }
            if (enq) { flags[uid] |= F_DELAY; delayAt[uid] = t; }
        }
    }

    // LOSS_Q: whether the packet waits in the link's queue ('+' there, no '-', 'r' or 'd' yet).
    void LossEnq(size_t uid, long long link)
    {
        if (lossq[uid] < 0 || lossq[uid] == link) lossq[uid] = link;
        else lossqMore.insert(std::make_pair(uid, link));
    }

    bool LossTake(size_t uid, long long link)
    {
        if (lossq[uid] == link) { lossq[uid] = -1; return true; }
        if (!lossqMore.empty()) return lossqMore.erase(std::make_pair(uid, link)) > 0;
        return false;
    }

    // link.awk: link_event and link_transmit.
    void LinkEvent(char ev, size_t uid, double t, uint32_t size)
    {
        if (t >= t0)
        {
            double now = t > t1 ? t1 : t;
            if (now > linkLast)
            {
                linkArea += linkQ * (now - linkLast);
                if (linkQ > linkQmax) linkQmax = linkQ;
                linkLast = now;
            }
        }
        if (ev == '+') { linkQ++; flags[uid] |= F_INQ; }
        else if (ev == '-')
        {
            if (flags[uid] & F_INQ) { linkQ--; flags[uid] &= ~F_INQ; }
            if (t >= t0 && t <= t1) linkDep++;
            double tx = size * 8.0 / linkBps;
            double a = (t > linkFree) ? t : linkFree;
            double b = a + tx;
            linkFree = b;
            double inA = (a > t0) ? a : t0;
            double inB = (b < t1) ? b : t1;
            flags[uid] |= F_FRAC;
            if (inB > inA) { linkBits += linkBps * (inB - inA); frac[uid] = (inB - inA) / tx; }
            else frac[uid] = 0;
        }
        else if (ev == 'd' && (flags[uid] & F_INQ)) { linkQ--; flags[uid] &= ~F_INQ; }
    }

    // wired_transit: an 'r' on the measured link came size * 8 / link_bps + link_delay after its '-'.
    void Transit(size_t uid, double t, uint32_t size)
    {
        if (!(flags[uid] & F_DEQ)) return;
        double want = size * 8.0 / linkBps + linkDelay;
        double took = t - deqT[uid];
        if (t - deqT[uid] - want > 2e-6 || want - (t - deqT[uid]) > 2e-6)
        {
            char buf[256];
            std::snprintf(buf, sizeof(buf),
                          "packet %lu crossed the measured link in %.6f s, the scenario's link "
                          "takes %.6f s (a stream of another scenario?)",
                          (unsigned long)uid, took, want);
            Fail(buf);
        }
        flags[uid] &= ~F_DEQ;
    }

    // throughput.awk: tput_recv.
    void TputRecv(TypeStat& ts, int flow, long long seq, uint32_t size, double t, size_t uid)
    {
        double f;
        ts.hasRx = true;
        if (flags[uid] & F_FRAC) { f = frac[uid]; flags[uid] &= ~F_FRAC; }
        else f = (t >= t0 && t <= t1) ? 1 : 0;
        if (seq < 0) ts.noseq = true;
        if (!delivered.insert(std::make_pair(flow, seq)).second)
        {
            if (f > 0) { ts.rx += size * f; ts.pk++; }
            return;
        }
        if (f > 0)
        {
            ts.rx += size * f;
            ts.pk++;
            double pay = (ts.name == "tcp") ? size - tcpHdr : size;
            if (pay > 0) ts.good += pay * f;
        }
    }
};

Tally* g_tally = nullptr;

// The index of a packet type's name in Tally::TypeNames() (added when first met).
int
TypeIndex(const std::string& type)
{
    std::vector<std::string>& names = Tally::TypeNames();
    for (size_t i = 0; i < names.size(); ++i)
    {
        if (names[i] == type)
        {
            return (int)i;
        }
    }
    names.push_back(type);
    return (int)names.size() - 1;
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
    p.srcNode = sn;
    p.ty = TypeIndex(p.type);
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

// One event: a line of the full trace, or counted by the tally (trace_level tally).
void
Emit(char ev, int a, int b, uint64_t uid, const Pkt& p)
{
    if (g_tally)
    {
        // the time the full trace's "%.9f" gives its reader (the step is 1 ns: checked in main)
        double tm = (double)Simulator::Now().GetTimeStep() / 1e9;
        g_tally->Event(ev, a, b, uid, p.ty, p.srcNode, p.dstNode, p.fid, p.seq, p.size, tm);
        return;
    }
    Line(ev, a, b, uid, p);
}

void
Event(char ev, int a, int b, uint64_t uid)
{
    auto it = g_pkts.find(uid);
    if (it == g_pkts.end())
    {
        return; // not a packet of the scenario's flows (none are expected)
    }
    Emit(ev, a, b, uid, it->second);
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
        Emit('+', a, b, IdOf(item->GetPacket()), *p);
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
    Emit('r', a, b, uid, it->second);
    Event('d', la, lb, uid);
}

void
Finish(double t)
{
    if (g_out && g_tally)
    {
        for (const std::string& line : g_tally->Report())
        {
            Put(g_out, line.c_str());
        }
    }
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
    // What the stream holds (bufrepro's trace_level): full, the ns-2 wired trace of every event
    // (wired.awk reads it), or tally, the metrics counted here (tally.awk reads them).
    std::string traceLevel = "full";
    // The tally's parameters, the text of wired.awk's -v variables of the same names (t_end,
    // max_age, link_from, link_to, link_bps, link_delay, tcp_hdr); "" when not given.
    std::string tallyT0, tallyT1, tallyTEnd, tallyMaxAge, tallyLinkFrom, tallyLinkTo,
        tallyLinkBps, tallyLinkDelay, tallyTcpHdr;
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
    cmd.AddValue("traceLevel", "the stream: full (the wired trace) or tally (its metrics)",
                 traceLevel);
    cmd.AddValue("t0", "tally: wired.awk's t0 (text)", tallyT0);
    cmd.AddValue("t1", "tally: wired.awk's t1 (text)", tallyT1);
    cmd.AddValue("tEnd", "tally: wired.awk's t_end (text)", tallyTEnd);
    cmd.AddValue("maxAge", "tally: wired.awk's max_age (text)", tallyMaxAge);
    cmd.AddValue("linkFrom", "tally: wired.awk's link_from (text)", tallyLinkFrom);
    cmd.AddValue("linkTo", "tally: wired.awk's link_to (text)", tallyLinkTo);
    cmd.AddValue("linkBps", "tally: wired.awk's link_bps (text)", tallyLinkBps);
    cmd.AddValue("linkDelay", "tally: wired.awk's link_delay (text)", tallyLinkDelay);
    cmd.AddValue("tcpHdr", "tally: wired.awk's tcp_hdr (text)", tallyTcpHdr);
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

    if (traceLevel != "full" && traceLevel != "tally")
    {
        std::fprintf(stderr, "dumbbell: --traceLevel %s; allowed: full tally\n", traceLevel.c_str());
        return 2;
    }
    static Tally tally;
    if (traceLevel == "tally" && trace != "none")
    {
        const std::pair<const char*, std::string*> given[] = {
            {"t0", &tallyT0}, {"t1", &tallyT1}, {"t_end", &tallyTEnd},
            {"max_age", &tallyMaxAge}, {"link_from", &tallyLinkFrom}, {"link_to", &tallyLinkTo},
            {"link_bps", &tallyLinkBps}, {"link_delay", &tallyLinkDelay},
            {"tcp_hdr", &tallyTcpHdr}};
        for (const auto& kv : given)
        {
            tally.Param(kv.first, *kv.second);
        }
        std::string why = tally.Ready();
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
                     "fqFlows=%u fqQuantum=%u errorAt=%s traceLevel=%s",
                     PROGRAM_VERSION, NS3_LIB_VERSION, seed, queue.c_str(), waiting, plr,
                     bottleneckMbps, bottleneckDelayMs, accessMbps, accessDelayMs,
                     accessWaiting, reverseWaiting, sources, tcp.c_str(), recovery.c_str(),
                     (int)sack, (int)timestamps, mss, iw, delAck, rwndPkts, initialRto, minRto,
                     tick, startS, startJitter, cbrBytes, cbrInterval, cbrStart, duration,
                     redMinTh, redMaxTh, redQw, redMaxP, (int)redGentle, redMeanPkt,
                     codelTargetMs, codelIntervalMs, pieTargetMs, fqFlows, fqQuantum,
                     errorAt.c_str(), traceLevel.c_str());
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
