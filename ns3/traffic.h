/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the traffic and the random loss - bulk TCP flows, a CBR flow, and the
 * error model that drops a packet at a receiver with a given probability.
 */
#ifndef BUFREPRO_NS3_TRAFFIC_H
#define BUFREPRO_NS3_TRAFFIC_H

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <vector>

namespace bufrepro
{

/**
 * \brief A bulk TCP flow's sender and its start time (s).
 */
struct BulkFlow
{
    ns3::Ptr<ns3::Application> app;
    double start;
};

/**
 * \brief Bulk TCP flows: flow i from node sources[i] to node `sink` (address `to`, port port0 + i),
 * sending segments of `segment` bytes without end, started uniformly in
 * [startS, startS + jitter).
 * \param nodes the scenario's nodes
 * \param sources each flow's source node, in flow order
 * \param sink the sink node
 * \param to the sink's address
 * \param port0 flow 0's port at the sink
 * \param segment the segment size (bytes)
 * \param startS the first start (s)
 * \param jitter the starts' spread (s)
 * \return each flow's sender and start
 */
inline std::vector<BulkFlow>
AddBulkFlows(ns3::NodeContainer& nodes, const std::vector<int>& sources, int sink,
             ns3::Ipv4Address to, uint16_t port0, uint32_t segment, double startS, double jitter)
{
    using namespace ns3;
    Ptr<UniformRandomVariable> start = CreateObject<UniformRandomVariable>();
    start->SetAttribute("Min", DoubleValue(0.0));
    start->SetAttribute("Max", DoubleValue(jitter));
    std::vector<BulkFlow> flows;
    for (size_t i = 0; i < sources.size(); ++i)
    {
        uint16_t port = port0 + i;
        PacketSinkHelper ps("ns3::TcpSocketFactory",
                            InetSocketAddress(Ipv4Address::GetAny(), port));
        ps.Install(nodes.Get(sink)).Start(Seconds(0));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(to, port));
        bulk.SetAttribute("SendSize", UintegerValue(segment));
        bulk.SetAttribute("MaxBytes", UintegerValue(0));
        ApplicationContainer app = bulk.Install(nodes.Get(sources[i]));
        double at = startS + start->GetValue();
        app.Start(Seconds(at));
        flows.push_back({app.Get(0), at});
    }
    return flows;
}

/**
 * \brief A CBR flow over UDP from node `source` to node `sink` (address `to`, port `port`): packets
 * of `bytes` as IP packets every `interval` s from `start` on, enough for `duration` s.
 * \param nodes the scenario's nodes
 * \param source the source node
 * \param sink the sink node
 * \param to the sink's address
 * \param port the sink's port
 * \param bytes the packet size as an IP packet (bytes)
 * \param interval the interval (s)
 * \param start the start (s)
 * \param duration the simulated time (s)
 */
inline void
AddCbr(ns3::NodeContainer& nodes, int source, int sink, ns3::Ipv4Address to, uint16_t port,
       uint32_t bytes, double interval, double start, double duration)
{
    using namespace ns3;
    PacketSinkHelper ps("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    ps.Install(nodes.Get(sink)).Start(Seconds(0));
    UdpClientHelper client(to, port);
    client.SetAttribute("PacketSize", UintegerValue(bytes - 28)); // less IP's and UDP's headers
    client.SetAttribute("Interval", TimeValue(Seconds(interval)));
    client.SetAttribute("MaxPackets", UintegerValue((uint32_t)(duration / interval) + 2));
    client.Install(nodes.Get(source)).Start(Seconds(start));
}

/**
 * \brief Random loss: an error model dropping each packet with probability `rate` (in packets, as
 * ns-2's lossmodel), to be set as devices' ReceiveErrorModel.
 * \param rate the probability a packet is dropped
 * \return the error model
 */
inline ns3::Ptr<ns3::RateErrorModel>
PacketLoss(double rate)
{
    using namespace ns3;
    Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(rate);
    em->SetRandomVariable(CreateObject<UniformRandomVariable>());
    return em;
}

} // namespace bufrepro

#endif
