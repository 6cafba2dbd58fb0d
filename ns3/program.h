/**
 * \file
 * \defgroup bufrepro bufrepro's ns-3 programs (ns3/*.cc) and their shared headers (ns3/*.h)
 *
 * bufrepro ns-3 programs: what the wired scenario programs (dumbbell.cc, link.cc) share - the
 * opening of their parameters and their stream's second line, the "#@ " line that gives the
 * program's version and every parameter, word by word.
 *
 * A program's Params derives from WiredParams and adds its own scenario's values; its
 * WriteHeader starts the "#@ " line with WiredParams::Opening, adds its own words in its own
 * order (AddTcpKinds and AddTcpSizes give the TCP setup's) and writes both header lines with
 * WiredParams::WriteHeaderLines.
 */
#ifndef BUFREPRO_NS3_PROGRAM_H
#define BUFREPRO_NS3_PROGRAM_H

#include "queues.h"
#include "tcp.h"
#include "trace.h"

#include <cstdio>
#include <string>

namespace bufrepro
{

/**
 * \ingroup bufrepro
 * \brief The stream's "#@ " line: the program's version, then " name=value" words.
 *
 * Each value is printed as printf prints it: a number with "%g", a count with "%u", a switch
 * with "%d" (0 or 1), a text as it is (the words the backend's tests read back).
 */
class HeaderLine
{
  public:
    /**
     * \brief Open the line with the program's version and ns-3's ("#@ PROGRAM ns3=3.37.0").
     * \param program the program's version string (e.g. "bufrepro-ns3-link 3")
     */
    explicit HeaderLine(const char* program)
        : m_text(std::string("#@ ") + program + " ns3=" + NS3_LIB_VERSION)
    {
    }

    /**
     * \brief Add a text word.
     * \param name the parameter's name (its command-line flag)
     * \param value its text, as given
     * \return this line, to chain the next word
     */
    HeaderLine& Add(const char* name, const std::string& value)
    {
        m_text += std::string(" ") + name + "=" + value;
        return *this;
    }

    /**
     * \brief Add a number word, printed with "%g".
     * \param name the parameter's name (its command-line flag)
     * \param value its value
     * \return this line, to chain the next word
     */
    HeaderLine& Add(const char* name, double value)
    {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%g", value);
        return Add(name, std::string(buf));
    }

    /**
     * \brief Add a count word, printed with "%u".
     * \param name the parameter's name (its command-line flag)
     * \param value its value
     * \return this line, to chain the next word
     */
    HeaderLine& Add(const char* name, uint32_t value)
    {
        return Add(name, std::to_string(value));
    }

    /**
     * \brief Add a switch word, printed 1 (on) or 0 (off).
     * \param name the parameter's name (its command-line flag)
     * \param on its value
     * \return this line, to chain the next word
     */
    HeaderLine& Flag(const char* name, bool on)
    {
        return Add(name, std::string(on ? "1" : "0"));
    }

    /**
     * \brief The line, without its newline.
     * \return the "#@ " line's text
     */
    const std::string& Text() const
    {
        return m_text;
    }

  private:
    std::string m_text; //!< the line so far
};

/**
 * \ingroup bufrepro
 * \brief The TCP setup's kinds on the "#@ " line: tcp, recovery, sack, timestamps.
 * \param line the line to add to
 * \param t the program's TCP setup
 */
inline void
AddTcpKinds(HeaderLine& line, const TcpSetup& t)
{
    line.Add("tcp", t.tcp).Add("recovery", t.recovery);
    line.Flag("sack", t.sack).Flag("timestamps", t.timestamps);
}

/**
 * \ingroup bufrepro
 * \brief The TCP setup's sizes and times on the "#@ " line: mss, iw, delAck, the socket
 * buffers under the program's own flag, initialRto, minRto, tick.
 * \param line the line to add to
 * \param t the program's TCP setup
 * \param bufferFlag the program's flag for the socket buffers (rwndPkts, windowPkts)
 */
inline void
AddTcpSizes(HeaderLine& line, const TcpSetup& t, const char* bufferFlag)
{
    line.Add("mss", t.segment).Add("iw", t.iw).Add("delAck", t.delAck);
    line.Add(bufferFlag, t.bufferPkts);
    line.Add("initialRto", t.initialRto).Add("minRto", t.minRto).Add("tick", t.tick);
}

/**
 * \ingroup bufrepro
 * \brief The parameters every wired scenario program opens with: the run (seed, stream,
 * fingerprint header), the swept bottleneck queue, the TCP setup and the traffic's times.
 *
 * A program's Params derives from it; each program sets its own defaults in main() before its
 * command line is parsed (its --help shows them).
 */
struct WiredParams
{
    RunHeader header;       //!< --seed, --trace and the fingerprint header's words
    Bottleneck bottleneck;  //!< --queue, --queueAttr, --waiting
    TcpSetup tcp;           //!< --tcp, --recovery, --sack, ... (ns3/tcp.h)
    double startJitter = 1; //!< TCP starts spread uniformly over this many seconds
    uint32_t cbrBytes = 1000; //!< CBR packet size as an IP packet (bytes)
    double cbrInterval = 0;   //!< CBR interval (s)
    double duration = 0;      //!< simulated time (s)

    /**
     * \brief The "#@ " line's opening: the program's version, ns-3's, then seed, queue,
     * queueAttr and waiting.
     * \param program the program's version string
     * \return the line, to which the program adds its own words
     */
    HeaderLine Opening(const char* program) const
    {
        HeaderLine line(program);
        line.Add("seed", header.seed).Add("queue", bottleneck.queue);
        line.Add("queueAttr", bottleneck.queueAttr).Add("waiting", bottleneck.waiting);
        return line;
    }

    /**
     * \brief Write the stream's first two lines: the run's fingerprint header, then `line`.
     * \param out the stream
     * \param line the program's "#@ " line, complete
     */
    void WriteHeaderLines(FILE* out, const HeaderLine& line) const
    {
        Put(out, header.Line().c_str());
        Put(out, line.Text().c_str());
    }
};

} // namespace bufrepro

#endif
