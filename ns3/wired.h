/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the wired trace writer (dumbbell, link) - packets learnt at their
 * first event, the trace's event callbacks, and the end of the stream. Each event is a line of
 * ns-2's wired trace ("old" format, 12 fields) or, at trace_level tally, counted by the tally.
 * Trace events per link a -> b (the device on a, its root queue disc, the device on b):
 *   '+'  the disc accepted the packet (Enqueue), or refused it (DropBeforeEnqueue: '+' then 'd')
 *   'd'  a drop: the disc's (before enqueue, after dequeue), or the error model's
 *   '-'  transmission starts (PhyTxBegin)
 *   'r'  the last bit arrived at b (PhyRxEnd)
 * Sizes are the bytes the link serialises: the IP packet plus PPP's 2-byte header.
 */
#ifndef BUFREPRO_NS3_WIRED_H
#define BUFREPRO_NS3_WIRED_H

#include "tally.h"
#include "trace.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace bufrepro
{

/**
 * \brief The scenario's flows as the trace names them: TCP flow i uses port port0 + i at its sink
 * and has flow id fids[i]; UDP packets are the CBR flow's. With `acks`, a TCP packet from a sink
 * (or one without payload or SYN) is an "ack" carrying its ACK number, else every TCP packet is
 * "tcp" with its sequence number. With `forgetAtR`, a packet's 'r' is its last event wherever it
 * happens (a trace of one link), else only at its destination.
 */
struct WiredFlows
{
    uint16_t port0 = 5000;
    std::vector<int> fids;
    int cbrFid = -1;
    bool acks = true;
    bool forgetAtR = false;
};

inline FILE* g_out = nullptr;
inline Tally* g_tally = nullptr;
inline WiredFlows g_wired;
inline std::unordered_map<uint64_t, Pkt> g_pkts;
inline std::unordered_map<uint32_t, int> g_nodeOfAddr; // IPv4 address -> node id
inline long long g_cbrSeq = 0;

inline int
NodeOf(ns3::Ipv4Address a)
{
    auto it = g_nodeOfAddr.find(a.Get());
    return it == g_nodeOfAddr.end() ? -1 : it->second;
}

/**
 * \brief A node's address (the last one the map holds; a sink has one link).
 */
inline ns3::Ipv4Address
AddressOf(int node)
{
    ns3::Ipv4Address found = ns3::Ipv4Address::GetAny();
    for (const auto& kv : g_nodeOfAddr)
    {
        if (kv.second == node)
        {
            found = ns3::Ipv4Address(kv.first);
        }
    }
    return found;
}

/**
 * \brief A TCP packet's type, flow and sequence number (WiredFlows says how).
 */
inline void
LearnTcp(ns3::Ptr<const ns3::QueueDiscItem> item, Pkt& p, uint16_t& sport, uint16_t& dport)
{
    ns3::TcpHeader t;
    item->GetPacket()->PeekHeader(t);
    sport = t.GetSourcePort();
    dport = t.GetDestinationPort();
    const WiredFlows& w = g_wired;
    uint32_t payload = item->GetPacket()->GetSize() - t.GetSerializedSize();
    bool fromSink = sport >= w.port0 && sport < w.port0 + w.fids.size();
    uint16_t flowPort = fromSink ? sport : dport;
    p.fid = flowPort >= w.port0 && flowPort < w.port0 + w.fids.size() ? w.fids[flowPort - w.port0]
                                                                      : -1;
    bool syn = (t.GetFlags() & ns3::TcpHeader::SYN) != 0;
    bool data = !w.acks || (!fromSink && (payload > 0 || syn));
    p.type = data ? "tcp" : "ack";
    p.seq = data ? (long long)t.GetSequenceNumber().GetValue()
                 : (long long)t.GetAckNumber().GetValue();
}

/**
 * \brief A packet's trace fields, read once at its first event (the disc of its source's link).
 */
inline const Pkt*
Learn(ns3::Ptr<const ns3::QueueDiscItem> item)
{
    auto it = g_pkts.find(IdOf(item->GetPacket()));
    if (it != g_pkts.end())
    {
        return &it->second;
    }
    ns3::Ptr<const ns3::Ipv4QueueDiscItem> ip =
        ns3::DynamicCast<const ns3::Ipv4QueueDiscItem>(item);
    if (!ip)
    {
        return nullptr;
    }
    const ns3::Ipv4Header& h = ip->GetHeader();
    Pkt p;
    p.size = item->GetSize() + PPP_BYTES;
    p.srcNode = NodeOf(h.GetSource());
    p.dstNode = NodeOf(h.GetDestination());
    uint16_t sport = 0, dport = 0;
    if (h.GetProtocol() == 6)
    {
        LearnTcp(item, p, sport, dport);
    }
    else
    {
        ns3::UdpHeader u;
        item->GetPacket()->PeekHeader(u);
        sport = u.GetSourcePort();
        dport = u.GetDestinationPort();
        p.type = "cbr";
        p.fid = g_wired.cbrFid;
        p.seq = g_cbrSeq++;
    }
    p.ty = TypeIndex(p.type);
    p.src = std::to_string(p.srcNode) + "." + std::to_string(sport);
    p.dst = std::to_string(p.dstNode) + "." + std::to_string(dport);
    return &g_pkts.emplace(TagNext(item->GetPacket()), p).first->second;
}

/**
 * \brief One event: a line of the full trace, or counted by the tally (trace_level tally).
 */
inline void
Emit(char ev, int a, int b, uint64_t uid, const Pkt& p)
{
    if (g_tally)
    {
        // the time the full trace's "%.9f" gives its reader (the step is 1 ns: checked by the
        // program that starts the tally)
        double tm = (double)ns3::Simulator::Now().GetTimeStep() / 1e9;
        g_tally->Event(ev, a, b, uid, p.ty, p.srcNode, p.dstNode, p.fid, p.seq, p.size, tm);
        return;
    }
    WiredLine(g_out, ev, a, b, uid, p);
}

/**
 * \brief An event of a learnt packet; its last ('d', or 'r': WiredFlows' forgetAtR) forgets it.
 */
inline void
Event(char ev, int a, int b, uint64_t uid)
{
    auto it = g_pkts.find(uid);
    if (it == g_pkts.end())
    {
        return; // not a packet of the scenario's flows (none are expected)
    }
    Emit(ev, a, b, uid, it->second);
    if (ev == 'd' || (ev == 'r' && (g_wired.forgetAtR || b == it->second.dstNode)))
    {
        g_pkts.erase(it);
    }
}

/**
 * \brief A packet's first event where it is not traced (learnt, so that a later loss is known).
 */
inline void
OnLearn(ns3::Ptr<const ns3::QueueDiscItem> item)
{
    Learn(item);
}

inline void
OnEnqueue(int a, int b, ns3::Ptr<const ns3::QueueDiscItem> item)
{
    const Pkt* p = Learn(item);
    if (p)
    {
        Emit('+', a, b, IdOf(item->GetPacket()), *p);
    }
}

inline void
OnDropBefore(int a, int b, ns3::Ptr<const ns3::QueueDiscItem> item, const char*)
{
    OnEnqueue(a, b, item);
    Event('d', a, b, IdOf(item->GetPacket()));
}

inline void
OnDropAfter(int a, int b, ns3::Ptr<const ns3::QueueDiscItem> item, const char*)
{
    Event('d', a, b, IdOf(item->GetPacket()));
}

/**
 * \brief An event of a packet seen by a device: '-' (PhyTxBegin), 'r' (PhyRxEnd), or 'd'
 * (PhyRxDrop, lost to the error model at the link's receiver, after it crossed the link).
 * \param ev the event: '-' (PhyTxBegin), 'r' (PhyRxEnd) or 'd' (PhyRxDrop)
 * \param a the link's first node
 * \param b its second node
 * \param p the packet
 */
inline void
OnPhy(char ev, int a, int b, ns3::Ptr<const ns3::Packet> p)
{
    Event(ev, a, b, IdOf(p));
}

/**
 * \brief A packet lost to the error model as it reached link a -> b's end, counted at the head of
 * the next link la -> lb: it arrived ('r' on a -> b) and is dropped before la -> lb's queue, as
 * ns-2's lossmodel drops it.
 */
inline void
OnHeadLoss(int a, int b, int la, int lb, ns3::Ptr<const ns3::Packet> p)
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

/**
 * \brief Trace link direction a -> b: the root disc of its device tx, its devices' transmissions
 * and arrivals (rx's drops are the program's to connect).
 * \param a the direction's first node
 * \param b its second node
 * \param q the root disc of a's device
 * \param tx a's device
 * \param rx b's device
 */
inline void
TraceLink(int a, int b, ns3::Ptr<ns3::QueueDisc> q, ns3::Ptr<ns3::NetDevice> tx,
          ns3::Ptr<ns3::NetDevice> rx)
{
    using ns3::MakeBoundCallback;
    q->TraceConnectWithoutContext("Enqueue", MakeBoundCallback(&OnEnqueue, a, b));
    q->TraceConnectWithoutContext("DropBeforeEnqueue", MakeBoundCallback(&OnDropBefore, a, b));
    q->TraceConnectWithoutContext("DropAfterDequeue", MakeBoundCallback(&OnDropAfter, a, b));
    tx->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&OnPhy, '-', a, b));
    rx->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&OnPhy, 'r', a, b));
}

/**
 * \brief The stream's end: the tally's report (at trace_level tally), the end line, and the
 * program's last words.
 */
inline void
FinishWired(double t)
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
    Done(t);
}

} // namespace bufrepro

#endif
