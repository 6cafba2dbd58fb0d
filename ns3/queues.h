/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the queue installer. A link direction's root queue disc is named by
 * its ns-3 type (--queue=ns3::CoDelQueueDisc) and configured by attributes given as text
 * (--queueAttr=Target=5ms,Interval=100ms: comma-separated Name=Value pairs, set in that order);
 * the programs know no queue by name. The table of which config queue is which type, with
 * which attributes, is the backend's (src/bufrepro/backends/ns3.py, QUEUES).
 */
#ifndef BUFREPRO_NS3_QUEUES_H
#define BUFREPRO_NS3_QUEUES_H

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <string>
#include <utility>
#include <vector>

namespace bufrepro
{

/**
 * \brief Every other queue of a scenario (access links, the reverse direction): a FIFO.
 */
inline const char* FIFO_DISC = "ns3::FifoQueueDisc";

/**
 * \brief A root queue disc: its ns-3 type and its attributes (name, value as text).
 */
struct Disc
{
    std::string type = FIFO_DISC;
    std::vector<std::pair<std::string, std::string>> attrs;
};

/**
 * \brief "A=1,B=x" as (name, value) pairs, in order; an empty text is none. A pair without "=" is
 * refused (NS_FATAL_ERROR names it).
 */
inline std::vector<std::pair<std::string, std::string>>
ParseAttributes(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    size_t i = 0;
    while (i < text.size())
    {
        size_t j = text.find(',', i);
        if (j == std::string::npos)
        {
            j = text.size();
        }
        std::string pair = text.substr(i, j - i);
        size_t eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
        {
            NS_FATAL_ERROR("queue attribute '" << pair << "' is not Name=Value");
        }
        out.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
        i = j + 1;
    }
    return out;
}

/**
 * \brief The disc a program's --queue and --queueAttr name; the type must be a QueueDisc.
 * \param type an ns-3 QueueDisc type name (--queue)
 * \param attrs its attributes, "Name=Value,..." (--queueAttr)
 * \return the disc (NS_FATAL_ERROR on a type that is no QueueDisc)
 */
inline Disc
DiscOf(const std::string& type, const std::string& attrs)
{
    ns3::TypeId tid;
    if (!ns3::TypeId::LookupByNameFailSafe(type, &tid) ||
        !tid.IsChildOf(ns3::QueueDisc::GetTypeId()))
    {
        NS_FATAL_ERROR("--queue " << type << " is not an ns-3 queue disc type");
    }
    return Disc{type, ParseAttributes(attrs)};
}

/**
 * \brief Set one attribute given as text on a disc not yet initialised. FQ-CoDel's quantum is no
 * attribute in ns-3.37: "Quantum" on an FqCoDelQueueDisc calls its SetQuantum.
 */
inline void
SetDiscAttribute(ns3::Ptr<ns3::QueueDisc> q, const std::string& name, const std::string& value)
{
    ns3::TypeId::AttributeInformation info;
    if (!q->GetInstanceTypeId().LookupAttributeByName(name, &info))
    {
        ns3::Ptr<ns3::FqCoDelQueueDisc> fq = ns3::DynamicCast<ns3::FqCoDelQueueDisc>(q);
        if (fq && name == "Quantum")
        {
            fq->SetQuantum(std::stoul(value));
            return;
        }
        NS_FATAL_ERROR(q->GetInstanceTypeId().GetName() << " has no attribute " << name);
    }
    q->SetAttribute(name, ns3::StringValue(value));
}

/**
 * \brief Install disc `d` as the root of `dev`, holding `waiting - 1` packets (the device queue of
 * one holds the last one waiting). A disc that takes the link's rate and delay (RED's
 * LinkBandwidth, LinkDelay) gets them from the link; then d's attributes, in order.
 * \param dev the device the disc feeds
 * \param d the disc's type and attributes
 * \param waiting the packets the direction holds waiting
 * \param mbps the link's rate (Mb/s)
 * \param ms the link's delay (ms)
 * \return the installed root disc
 */
inline ns3::Ptr<ns3::QueueDisc>
InstallDisc(ns3::Ptr<ns3::NetDevice> dev, const Disc& d, uint32_t waiting, double mbps, double ms)
{
    ns3::TrafficControlHelper tch;
    tch.SetRootQueueDisc(d.type,
                         "MaxSize",
                         ns3::QueueSizeValue(ns3::QueueSize(std::to_string(waiting - 1) + "p")));
    ns3::Ptr<ns3::QueueDisc> q = tch.Install(dev).Get(0);
    ns3::TypeId::AttributeInformation info;
    if (q->GetInstanceTypeId().LookupAttributeByName("LinkBandwidth", &info))
    {
        q->SetAttribute("LinkBandwidth", ns3::DataRateValue(ns3::DataRate(mbps * 1e6)));
        q->SetAttribute("LinkDelay", ns3::TimeValue(ns3::MilliSeconds(ms)));
    }
    for (const auto& kv : d.attrs)
    {
        SetDiscAttribute(q, kv.first, kv.second);
    }
    return q;
}

/**
 * \brief The swept bottleneck queue as every program takes it: its type, attributes and the packets
 * it holds waiting besides the one sent.
 */
struct Bottleneck
{
    std::string queue = FIFO_DISC;
    std::string queueAttr;
    uint32_t waiting = 5;

    void AddValues(ns3::CommandLine& cmd)
    {
        cmd.AddValue("queue", "bottleneck queue: an ns-3 QueueDisc type", queue);
        cmd.AddValue("queueAttr", "its attributes: Name=Value,Name=Value,...", queueAttr);
        cmd.AddValue("waiting", "packets the bottleneck holds waiting (the one sent not counted)",
                     waiting);
    }

    Disc GetDisc() const
    {
        return DiscOf(queue, queueAttr);
    }
};

/**
 * \brief One point-to-point link a <-> b (rate, delay, a device queue of one packet) with the root
 * discs of both directions, a -> b's `ab`, b -> a's a FIFO, installed before any address
 * (Ipv4AddressHelper::Assign installs the default FqCoDel on a device without one).
 * \param nodes the scenario's nodes
 * \param a the link's first node
 * \param b its second node
 * \param mbps its rate (Mb/s)
 * \param ms its delay (ms)
 * \param ab the disc of direction a -> b
 * \param waitAB the packets a -> b holds waiting
 * \param waitBA the packets b -> a holds waiting
 * \return the devices, a's then b's
 */
inline ns3::NetDeviceContainer
InstallLink(ns3::NodeContainer& nodes, int a, int b, double mbps, double ms, const Disc& ab,
            uint32_t waitAB, uint32_t waitBA)
{
    ns3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(ns3::DataRate(mbps * 1e6)));
    p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::MilliSeconds(ms)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue("1p"));
    ns3::NetDeviceContainer dev = p2p.Install(nodes.Get(a), nodes.Get(b));
    InstallDisc(dev.Get(0), ab, waitAB, mbps, ms);
    InstallDisc(dev.Get(1), Disc{}, waitBA, mbps, ms);
    return dev;
}

/**
 * \brief The root queue disc installed on a device (nullptr: none).
 */
inline ns3::Ptr<ns3::QueueDisc>
RootDisc(ns3::Ptr<ns3::NetDevice> d)
{
    return d->GetNode()->GetObject<ns3::TrafficControlLayer>()->GetRootQueueDiscOnDevice(d);
}

/**
 * \brief Whether device d's root disc is of type `want` (else says which it is: Ipv4AddressHelper's
 * Assign installs the default FqCoDel on a device that had none).
 * \param d the device
 * \param want the ns-3 type its root disc must be
 * \param a the link's first node (named in the message)
 * \param b its second node
 * \return true when the disc is of type `want`
 */
inline bool
RootDiscIs(ns3::Ptr<ns3::NetDevice> d, const std::string& want, int a, int b)
{
    ns3::Ptr<ns3::QueueDisc> q = RootDisc(d);
    std::string got = q ? q->GetInstanceTypeId().GetName() : "none";
    if (got != want)
    {
        std::fprintf(stderr, "link %d-%d: root queue disc %s, expected %s\n", a, b, got.c_str(),
                     want.c_str());
        return false;
    }
    return true;
}

} // namespace bufrepro

#endif
