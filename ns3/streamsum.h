/**
 * \file
 * \ingroup bufrepro
 * bufrepro ns-3 programs: the stream's checksum and end line, shared by every program in ns3/
 * (ns3/build.sh digests ns3/*.h with the sources, so a change here rebuilds them all).
 */
#ifndef BUFREPRO_NS3_STREAMSUM_H
#define BUFREPRO_NS3_STREAMSUM_H

#include <cmath>
#include <cstdio>
#include <cstring>

/**
 * \brief The stream's checksum (docs/trusting-a-run.md, "Stream format"; the same arithmetic as
 * ns-2's StreamSum, ns2/patches/0008-stream-sum.patch): P = 2^40 - 87; a line's fields are its
 * runs of characters other than space and tab; c(f) keeps every bit of num(f) when it is not
 * 0, else hashes f's bytes; v(L) = (length(L) + sum i * c(f_i)) mod P; S = (S*31 + v + P) mod P.
 */
inline const long long SUM_P = 1099511627689LL; // 2^40 - 87, prime
inline long long g_sumLines = 0;
inline long long g_sum = 0;

/**
 * \brief The length of f's numeric prefix [-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)? (0:
 * none).
 */
inline int
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

/**
 * \brief c(f): a nonzero number's every bit (x * 2^30's integer part and the fraction's 52 bits,
 * each mod P), else the byte hash W(f).
 */
inline long long
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

/**
 * \brief v(L) for a line without its newline.
 */
inline long long
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

/**
 * \brief Write one line (text without its newline) to the stream and sum it: every line before the
 * end line goes through here, the header and the "#@ " line included.
 * \param out the stream
 * \param text the line, without its newline
 */
inline void
Put(FILE* out, const char* text)
{
    int n = (int)std::strlen(text);
    std::fwrite(text, 1, n, out);
    std::fputc('\n', out);
    g_sumLines++;
    g_sum = (g_sum * 31 + LineValue(text, n) + SUM_P) % SUM_P;
}

/**
 * \brief The stream's end line "# end LINES SUM": the only place that writes it (its format is the
 * parsers' to check).
 */
inline void
EndLine(FILE* out)
{
    std::fprintf(out, "# end %lld %lld\n", g_sumLines, g_sum);
}

#endif
