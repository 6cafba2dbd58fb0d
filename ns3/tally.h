// bufrepro ns-3 programs: the tally (trace_level tally), the patched ns-2's WiredTally in-process.
#ifndef BUFREPRO_NS3_TALLY_H
#define BUFREPRO_NS3_TALLY_H

#include "trace.h"

#include "ns3/core-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace bufrepro
{

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

// The tally's parameters as a program takes them: each of wired.awk's -v variables the tally
// counts with, under its camel-case flag (t_end: --tEnd), its text as given ("" when not).
class TallyParams
{
  public:
    void AddValues(ns3::CommandLine& cmd)
    {
        for (const auto& kv : Names())
        {
            cmd.AddValue(kv.second, "tally: wired.awk's " + kv.first + " (text)", m_text[kv.first]);
        }
    }

    // Hand the given parameters to the tally; "" when it can count, else what is missing.
    std::string Start(Tally& tally)
    {
        for (const auto& kv : Names())
        {
            tally.Param(kv.first, m_text[kv.first]);
        }
        return tally.Ready();
    }

  private:
    std::map<std::string, std::string> m_text;

    static const std::vector<std::pair<std::string, std::string>>& Names()
    {
        static const std::vector<std::pair<std::string, std::string>> names = {
            {"t0", "t0"},
            {"t1", "t1"},
            {"t_end", "tEnd"},
            {"max_age", "maxAge"},
            {"link_from", "linkFrom"},
            {"link_to", "linkTo"},
            {"link_bps", "linkBps"},
            {"link_delay", "linkDelay"},
            {"tcp_hdr", "tcpHdr"}};
        return names;
    }
};

} // namespace bufrepro

#endif
