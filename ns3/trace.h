/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the stream's shared parts - the library's version, the per-transmission
 * trace id, the wired trace's packet and line, opening the stream and the program's last words.
 * (ns3/build.sh digests ns3/*.h with the sources, so a change here rebuilds every program.)
 */
#ifndef BUFREPRO_NS3_TRACE_H
#define BUFREPRO_NS3_TRACE_H

#include "streamsum.h"

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/version-defines.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#define BUFREPRO_STR2(x) #x
#define BUFREPRO_STR(x) BUFREPRO_STR2(x)
/**
 * \brief ns-3's version as the stream's "#@ " line and M line give it ("3.37.0").
 */
#define NS3_LIB_VERSION                                                                        \
    BUFREPRO_STR(NS3_VERSION_MAJOR)                                                            \
    "." BUFREPRO_STR(NS3_VERSION_MINOR) "." BUFREPRO_STR(NS3_VERSION_PATCH)

namespace bufrepro
{

/**
 * \brief PPP's header: the link serialises the IP packet plus these bytes (the trace's sizes).
 */
inline const uint32_t PPP_BYTES = 2;

/**
 * \brief A transmission's trace id: ns-3 keeps a packet's uid across TCP's retransmissions, where
 * ns-2 gives each transmission its own; this tag, set at the packet's first event, is the
 * trace's uid ($12), one per transmission.
 */
class TraceIdTag : public ns3::Tag
{
  public:
    uint64_t id = 0;

    static ns3::TypeId GetTypeId()
    {
        static ns3::TypeId tid = ns3::TypeId("bufrepro::TraceIdTag")
                                     .SetParent<ns3::Tag>()
                                     .AddConstructor<TraceIdTag>();
        return tid;
    }

    ns3::TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 8;
    }

    void Serialize(ns3::TagBuffer i) const override
    {
        i.WriteU64(id);
    }

    void Deserialize(ns3::TagBuffer i) override
    {
        id = i.ReadU64();
    }

    void Print(std::ostream& os) const override
    {
        os << id;
    }
};

/**
 * \brief Trace ids are 0, 1, 2, ... in the order of the packets' first events, every one traced (as
 * ns-2 numbers the packets it sends; wired.awk checks that none is missing).
 */
inline uint64_t g_nextId = 0;
inline const uint64_t NO_ID = ~uint64_t(0);

/**
 * \brief The trace id of a packet (NO_ID: never tagged).
 */
inline uint64_t
IdOf(ns3::Ptr<const ns3::Packet> p)
{
    TraceIdTag tag;
    return p->PeekPacketTag(tag) ? tag.id : NO_ID;
}

/**
 * \brief Tag a packet with the next trace id (dropping a stale one first); returns the id.
 */
inline uint64_t
TagNext(ns3::Ptr<ns3::Packet> p)
{
    TraceIdTag tag;
    if (p->PeekPacketTag(tag))
    {
        p->RemovePacketTag(tag);
    }
    tag.id = g_nextId++;
    p->AddPacketTag(tag);
    return tag.id;
}

/**
 * \brief A packet's fields in the ns-2 wired trace ("old" format, 12 fields), read at its first
 * event.
 */
struct Pkt
{
    std::string type;
    int ty; // the type's index in TypeNames()
    int fid;
    int srcNode;
    std::string src;
    std::string dst;
    int dstNode;
    long long seq;
    uint32_t size;
};

/**
 * \brief The packet types' names, in the order packets first meet them (a Pkt's ty indexes it).
 */
inline std::vector<std::string>&
TypeNames()
{
    static std::vector<std::string> names;
    return names;
}

/**
 * \brief The index of a packet type's name in TypeNames() (added when first met).
 */
inline int
TypeIndex(const std::string& type)
{
    std::vector<std::string>& names = TypeNames();
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

/**
 * \brief One line of the wired trace: event ev of packet uid on link a -> b, now.
 * \param out the stream
 * \param ev the event: '+', '-', 'r' or 'd'
 * \param a the link's first node
 * \param b its second node
 * \param uid the transmission's trace id
 * \param p the packet's trace fields
 */
inline void
WiredLine(FILE* out, char ev, int a, int b, uint64_t uid, const Pkt& p)
{
    char buf[256];
    std::snprintf(buf,
                  sizeof(buf),
                  "%c %.9f %d %d %s %u ------- %d %s %s %lld %llu",
                  ev,
                  ns3::Simulator::Now().GetSeconds(),
                  a,
                  b,
                  p.type.c_str(),
                  p.size,
                  p.fid,
                  p.src.c_str(),
                  p.dst.c_str(),
                  p.seq,
                  (unsigned long long)uid);
    Put(out, buf);
}

/**
 * \brief The stream file, fully buffered (nullptr, having said why, when it cannot be opened).
 * \param path the stream file
 * \return the open file, or nullptr
 */
inline FILE*
OpenStream(const std::string& path)
{
    FILE* out = std::fopen(path.c_str(), "w");
    if (!out)
    {
        std::perror(path.c_str());
        return nullptr;
    }
    std::setvbuf(out, nullptr, _IOFBF, 1 << 20);
    return out;
}

/**
 * \brief The program's last words: "BUFREPRO_DONE <t>" on stdout (the backend's finish time), then
 * the simulation stops.
 * \param t the simulated time at the end (s)
 */
inline void
Done(double t)
{
    std::printf("BUFREPRO_DONE %g\n", t);
    std::fflush(stdout);
    ns3::Simulator::Stop();
}

/**
 * \brief The run as every program takes it: its seed, its stream file (none: no stream, the
 * benchmark's floor), and the stream's first line, the run's fingerprint header
 * "# bufrepro OWNER run=RUN seed=SEED end=END" (backends/fingerprint.py).
 */
struct RunHeader
{
    uint32_t seed = 1;
    std::string trace;
    std::string owner, run = "none", end;

    /**
     * \brief --seed, --trace, the owner's flag (--study, --experiment), --run and --end.
     */
    void AddValues(ns3::CommandLine& cmd, const std::string& ownerFlag)
    {
        cmd.AddValue("seed", "run number of ns-3's RNG (seed 1, run N)", seed);
        cmd.AddValue("trace", "stream file (none: no stream, the benchmark's floor)", trace);
        cmd.AddValue(ownerFlag, "the header's " + ownerFlag, owner);
        cmd.AddValue("run", "the header's run digest", run);
        cmd.AddValue("end", "the header's end, as the run record writes it", end);
    }

    std::string Line() const
    {
        return "# bufrepro " + owner + " run=" + run + " seed=" +
               std::to_string(seed) + " end=" + end;
    }

    /**
     * \brief The end line binds the lines written, not the time they reach: a run that stops before
     * the header's end would end a stream cut short with a valid end line (refused, saying so).
     */
    bool EndsAt(double duration, const char* program) const
    {
        if (std::strtod(end.c_str(), nullptr) == duration)
        {
            return true;
        }
        std::fprintf(stderr, "%s: --end %s (the header's) is not --duration %g\n", program,
                     end.c_str(), duration);
        return false;
    }
};

/**
 * \brief The run's seed: ns-3's RNG seed 1, run `seed` (every program's --seed).
 * \param seed the run's seed (--seed)
 */
inline void
SeedRuns(uint32_t seed)
{
    ns3::RngSeedManager::SetSeed(1);
    ns3::RngSeedManager::SetRun(seed);
}

/**
 * \brief Run the scheduled simulation to its end, then close the stream.
 * \param duration the simulated time (s)
 * \param finish the program's end, scheduled at `duration`
 * \param out the stream (nullptr: none)
 * \return 0, the program's exit status
 */
inline int
RunAndClose(double duration, void (*finish)(double), FILE* out)
{
    ns3::Simulator::Schedule(ns3::Seconds(duration), finish, duration);
    ns3::Simulator::Run();
    ns3::Simulator::Destroy();
    if (out)
    {
        std::fclose(out);
    }
    return 0;
}

} // namespace bufrepro

#endif
