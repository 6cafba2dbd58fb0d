/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the tally (trace_level tally), the patched ns-2's WiredTally in-process.
 */
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

/**
 * \brief WiredTally's counting (trace_level tally): every event the full trace would write, handed
 * instead to this accumulator, which applies awk/lib/wired.awk's definitions (accounting.awk,
 * delay.awk, throughput.awk, loss.awk, link.awk, integrity.awk's stream checks) with the same
 * double operations in the same order as the patched ns-2's WiredTally
 * (ns2/patches/0003-wired-tally.patch, as 0008 left it); at the end the program writes the small
 * stream awk/lib/tally.awk reads ("tally wired 2"). An event's time is the one the full trace's
 * "%.9f" text gives the parser: the nanosecond step / 1e9, correctly rounded as strtod rounds.
 */
class Tally
{
  public:
    /**
     * \brief The parameters (wired.awk's -v variables), their text as given, echoed into the
     * stream.
     */
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

    /**
     * \brief "" when the parameters suffice to count, else what is missing.
     */
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

    /**
     * \brief One trace event (wired.awk's per-line rules), in wired.awk's order: the stream
     * checks, the measured link, then the event's own rule.
     * \param tt the event: '+', '-', 'r' or 'd'
     * \param from the link's first node
     * \param to the link's second node
     * \param uid64 the transmission's trace id
     * \param ty the packet type's index in TypeNames
     * \param src the packet's source node
     * \param dst the packet's destination node
     * \param fid the flow id
     * \param seq the sequence (or ACK) number, negative when the type has none
     * \param size the bytes the link serialises
     * \param tm the event's time (s), as the full trace's text gives it
     */
    void Event(char tt, int from, int to, uint64_t uid64, int ty, int src, int dst, int fid,
               long long seq, uint32_t size, double tm)
    {
        Ev e{tt, from, to, src, dst, fid, seq, size, tm, (size_t)uid64,
             (long long)from * 1048576LL + to};
        Grow(e.uid);
        lines++;
        if (!Clock(e.tm) || !Nodes(e))
        {
            return;
        }
        TypeStat& ts = TypeAt(ty);
        if (e.tm > acctTend) acctTend = e.tm;
        if (!ts.isAck && acct[e.uid] == A_FLY) flyT[e.uid] = e.tm;
        if (e.from == linkFrom && e.to == linkTo) MeasuredLink(e);
        if (e.tt == '+') Enqueued(e, ts);
        else if (e.tt == '-') LossTake(e.uid, e.link);
        else if (e.tt == 'r') Received(e, ts);
        else if (e.tt == 'd') Dropped(e, ts);
        else Fail(std::string("unknown event '") + e.tt + "' (+ - r d expected)");
    }

    /**
     * \brief The END rules of wired.awk: the stream's lines after the header (format 2).
     * \return the lines, without newlines: the tally's header, its parameters, the stream
     * checks, the failures and, when none failed, every metric
     */
    std::vector<std::string> Report()
    {
        std::map<std::string, std::string> m;
        if (lines == 0) Fail("empty stream");
        CheckCarried();
        AccountingMetrics(m);
        for (TypeStat& s : types)
        {
            if (s.seen) TypeMetrics(s, m);
        }
        LinkMetrics(m);
        return Lines(m);
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

    /**
     * \brief One event's fields, and its link's key (from x 2^20 + to).
     */
    struct Ev
    {
        char tt;
        int from, to, src, dst, fid;
        long long seq;
        uint32_t size;
        double tm;
        size_t uid;
        long long link;
    };

    /**
     * \brief integrity.awk: the clock and the largest gap; false (failed) past the scenario's end.
     */
    bool Clock(double tm)
    {
        if (tm > last)
        {
            if (last >= 0 && tm - last > gap) gap = tm - last;
            last = tm;
            if (tm > tEnd)
            {
                Fail("time " + Num("%.15g", tm) + " after the scenario's end " + ptext["t_end"]);
                return false;
            }
        }
        return true;
    }

    /**
     * \brief integrity.awk: the nodes and the links seen; false (failed) on a negative node.
     */
    bool Nodes(const Ev& e)
    {
        int mx = std::max(std::max(e.from, e.to), std::max(e.src, e.dst));
        if (mx > maxNode) maxNode = mx;
        if (e.from < 0 || e.to < 0 || e.src < 0 || e.dst < 0)
        {
            Fail("negative node");
            return false;
        }
        if ((size_t)e.from >= links.size()) links.resize(e.from + 1);
        if ((size_t)e.to >= links[e.from].size()) links[e.from].resize(e.to + 1, 0);
        links[e.from][e.to] = 1;
        return true;
    }

    /**
     * \brief The packet type's counters, named at their first event.
     */
    TypeStat& TypeAt(int ty)
    {
        if ((size_t)ty >= types.size()) types.resize(ty + 1);
        TypeStat& ts = types[ty];
        if (!ts.seen)
        {
            ts.seen = true;
            ts.name = TypeNames()[ty];
            ts.isAck = ts.name == "ack";
        }
        return ts;
    }

    /**
     * \brief link.awk's event on the measured link, and with link_delay its transit check.
     */
    void MeasuredLink(const Ev& e)
    {
        LinkEvent(e.tt, e.uid, e.tm, e.size);
        if (!hasDelay) return;
        if (e.tt == '-') { flags[e.uid] |= F_DEQ; deqT[e.uid] = e.tm; }
        else if (e.tt == 'r') Transit(e.uid, e.tm, e.size);
    }

    /**
     * \brief '+': the packet's send (at its source), and its place in the link's queue.
     */
    void Enqueued(const Ev& e, TypeStat& ts)
    {
        if (!(flags[e.uid] & F_SENT) && e.from == e.src) Send(e.uid, ts, e.tm, true);
        LossEnq(e.uid, e.link);
    }

    /**
     * \brief 'r': out of the link's queue; at its destination, a data packet is received
     * (accounting, its delay, throughput).
     */
    void Received(const Ev& e, TypeStat& ts)
    {
        LossTake(e.uid, e.link);
        if (ts.isAck || e.to != e.dst) return;
        Settle(e.uid, "received", A_RECV, acctRecv);
        DelaySample(e.uid, ts, e.tm);
        TputRecv(ts, e.fid, e.seq, e.size, e.tm, e.uid);
    }

    /**
     * \brief 'd': the packet's send (a drop at its source), a queue or link drop in [t0, t1], and a
     * data packet's end.
     */
    void Dropped(const Ev& e, TypeStat& ts)
    {
        size_t uid = e.uid;
        if (!(flags[uid] & F_SENT) && e.from == e.src) Send(uid, ts, e.tm, false);
        bool queued = LossTake(uid, e.link);
        if (e.tm >= t0 && e.tm <= t1)
        {
            if (queued) ts.dq++;
            else ts.dl++;
        }
        if (!ts.isAck)
        {
            Settle(uid, "dropped", A_DROP, acctDrop);
            flags[uid] &= ~F_DELAY;
        }
        flags[uid] &= ~F_FRAC;
    }

    /**
     * \brief accounting.awk: a data packet's end (received or dropped) once, after its send.
     */
    void Settle(size_t uid, const char* verb, unsigned char state, long long& count)
    {
        if (acct[uid] == A_RECV || acct[uid] == A_DROP)
            Fail("packet " + Num("%.0f", (double)uid) + " " + verb + " after it was " +
                 (acct[uid] == A_RECV ? "received" : "dropped"));
        else if (acct[uid] != A_FLY)
            Fail("packet " + Num("%.0f", (double)uid) + " " + verb + " but never sent");
        else { acct[uid] = state; count++; }
    }

    /**
     * \brief delay.awk: a received packet's one-way delay, when it was sent in [t0, t1].
     */
    void DelaySample(size_t uid, TypeStat& ts, double tm)
    {
        if (!(flags[uid] & F_DELAY)) return;
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

    /**
     * \brief integrity.awk: data sent in [t0, t1] crossed the measured link.
     */
    void CheckCarried()
    {
        long long wsent = 0;
        for (const TypeStat& s : types)
            if (s.seen && !s.isAck) wsent += s.sent;
        if (wsent > 0 && linkDep == 0)
            Fail("data packets were sent in [t0, t1] but the measured link " + ptext["link_from"] +
                 "-" + ptext["link_to"] + " carried none");
    }

    /**
     * \brief accounting.awk's END: packets in flight (none vanished), the balance, its metrics.
     */
    void AccountingMetrics(std::map<std::string, std::string>& m)
    {
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
    }

    /**
     * \brief delay.awk, throughput.awk and loss.awk's END for one packet type.
     */
    void TypeMetrics(const TypeStat& s, std::map<std::string, std::string>& m)
    {
        double span = t1 - t0;
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

    /**
     * \brief link.awk's END: the queue's area closed at t1, the utilisation and the queue's
     * metrics.
     */
    void LinkMetrics(std::map<std::string, std::string>& m)
    {
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
    }

    /**
     * \brief The stream's lines: the tally's header, its parameters, the stream checks, the
     * failures, and, when none failed, every metric.
     */
    std::vector<std::string> Lines(const std::map<std::string, std::string>& m) const
    {
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

    /**
     * \brief wired_send: the packet's first '+' (enq) or 'd' at the node of its source.
     */
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

    /**
     * \brief LOSS_Q: whether the packet waits in the link's queue ('+' there, no '-', 'r' or 'd'
     * yet).
     */
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

    /**
     * \brief link.awk: link_event and link_transmit.
     */
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

    /**
     * \brief wired_transit: an 'r' on the measured link came size * 8 / link_bps + link_delay after
     * its '-'.
     */
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

    /**
     * \brief throughput.awk: tput_recv.
     */
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

/**
 * \brief The tally's parameters as a program takes them: each of wired.awk's -v variables the tally
 * counts with, under its camel-case flag (t_end: --tEnd), its text as given ("" when not).
 */
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

    /**
     * \brief Hand the given parameters to the tally; "" when it can count, else what is missing.
     */
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
