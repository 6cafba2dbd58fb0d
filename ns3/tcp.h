/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the TCP setup. The congestion control and the loss recovery are named
 * by their ns-3 types (--tcp=ns3::TcpHighSpeed, --recovery=ns3::TcpClassicRecovery); the rest
 * are the sockets' attributes, set as defaults before any socket exists.
 */
#ifndef BUFREPRO_NS3_TCP_H
#define BUFREPRO_NS3_TCP_H

#include "ns3/core-module.h"
#include "ns3/internet-module.h"

#include <string>

namespace bufrepro
{

struct TcpSetup
{
    std::string tcp = "ns3::TcpNewReno";
    std::string recovery = "ns3::TcpClassicRecovery";
    bool sack = true;
    bool timestamps = false;
    uint32_t segment = 1460; // bytes
    uint32_t iw = 3;         // segments
    uint32_t delAck = 1;     // segments per delayed ACK
    uint32_t bufferPkts = 1000; // socket buffers, in segments
    double initialRto = 1.0, minRto = 0.2, tick = 0.001; // s

    /**
     * \brief The command-line values every program shares (the segment and the buffers are each
     * program's own: they are named after its scenario).
     */
    void AddValues(ns3::CommandLine& cmd)
    {
        cmd.AddValue("tcp", "congestion control: an ns-3 TcpCongestionOps type", tcp);
        cmd.AddValue("recovery", "loss recovery: an ns-3 TcpRecoveryOps type", recovery);
        cmd.AddValue("sack", "SACK", sack);
        cmd.AddValue("timestamps", "TCP timestamps", timestamps);
        cmd.AddValue("iw", "initial window (segments)", iw);
        cmd.AddValue("delAck", "segments per delayed ACK (1: every segment)", delAck);
        cmd.AddValue("initialRto", "initial RTO (s)", initialRto);
        cmd.AddValue("minRto", "minimum RTO (s)", minRto);
        cmd.AddValue("tick", "TCP clock granularity (s)", tick);
    }

    /**
     * \brief Every TCP socket's defaults (before the sockets are made).
     */
    void Apply() const
    {
        using namespace ns3;
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", StringValue(tcp));
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType", StringValue(recovery));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segment));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(iw));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAck));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(bufferPkts * segment));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(bufferPkts * segment));
        Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRto)));
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
        Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRto)));
        Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(tick)));
        Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(initialRto)));
    }
};

} // namespace bufrepro

#endif
