/* glob.c — Redis's glob matcher, stringmatchlen of util.c as Redis 7.0.15 has it.
 *
 * The naive glob matcher tries, at every '*', each way of splitting the rest of the string,
 * and recurses: "a*a*a*...a*b" against a long run of a's then takes exponential time, which
 * made a single KEYS or SCAN MATCH hang a server (CVE-2022-36021, fixed in Redis 6.0.18,
 * 6.2.11 and 7.0.9). Redis's fix is a shared flag, skipLongerMatches: once the part of the
 * pattern after some '*' has failed at every remaining position of the string, no '*'
 * before it can help by swallowing more characters (the rest would then have to match
 * starting even later, and it matches nowhere), so every pending '*' gives up at once.
 * Here that is `give_up`. With it at most one call per '*' ever gets past its next '*':
 * the others fail on the literal segment in between, so a match costs
 * O(len(pattern) x len(string)) — 10,000 a's against the CVE pattern is a few thousand
 * steps, not 2^n.
 *
 * This is the same algorithm rather than a textbook one because its edges are what KEYS
 * answers, and a differently built matcher would have to rediscover each of them:
 *   - the loop runs only while both pattern and string remain, so an empty string matches
 *     only the empty pattern ("*" does not match the key "": KEYS special-cases "*");
 *   - when the string runs out, only literal '*'s may remain in the pattern;
 *   - in '[...]', a '\' escapes the next byte (compared case-sensitively even with nocase),
 *     "x-y" is a range whose ends are swapped if reversed, and is taken before ']' closes
 *     the class, so "[a-]" is the range ']'..'a' (and then unterminated); ranges compare
 *     bytes as signed chars (x86-64's char, on which the reference server was built);
 *   - an unterminated '[' takes the rest of the pattern as its set; "[^" matches any byte;
 *   - a '\' outside a class escapes the next byte; a trailing one is a literal '\';
 *   - protection against abusive patterns: a '*' nested more than 1000 deep fails
 *     (KEYS "*a" repeated 1001 times matches no key, however many a's it has), and does
 *     not set the shared flag, so the '*' above it keeps trying;
 *   - nocase folds ASCII letters only (Redis never sets LC_CTYPE, so tolower is the C
 *     locale's).
 * Every one of these is a differential case in tests/diff/cases/glob.txt, checked against
 * redis-server 7.0.15. */
#include "glob.h"

#define GLOB_MAX_NESTING 1000

typedef struct {
    int nocase;
    int give_up; /* Redis's skipLongerMatches */
} glob_state;

static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int same(const glob_state *g, char a, char b)
{
    return g->nocase ? fold(a) == fold(b) : a == b;
}

/* The class at p (just past its '['), against the byte c: whether it matches, and where
 * the class ends (*pp at its ']', or at the pattern's last byte if unterminated). */
static int class_match(const glob_state *g, const char **pp, size_t *plenp, char c)
{
    const char *p = *pp;
    size_t plen = *plenp;
    int neg = plen > 0 && *p == '^';
    if (neg) p++, plen--;
    int hit = 0;
    for (;;) {
        if (plen >= 2 && *p == '\\') {
            p++, plen--;
            if (*p == c) hit = 1;
        } else if (plen == 0) {
            p--, plen++; /* unterminated: stop on the last byte */
            break;
        } else if (*p == ']') {
            break;
        } else if (plen >= 3 && p[1] == '-') {
            int lo = (signed char)p[0], hi = (signed char)p[2], x = (signed char)c;
            if (lo > hi) {
                int t = lo;
                lo = hi;
                hi = t;
            }
            if (g->nocase) lo = fold(lo), hi = fold(hi), x = fold(x);
            if (x >= lo && x <= hi) hit = 1;
            p += 2, plen -= 2;
        } else if (same(g, *p, c)) {
            hit = 1;
        }
        p++, plen--;
    }
    *pp = p;
    *plenp = plen;
    return neg ? !hit : hit;
}

static int match_from(glob_state *g, const char *p, size_t plen, const char *s, size_t slen,
                      int nesting)
{
    if (nesting > GLOB_MAX_NESTING) return 0;
    while (plen > 0 && slen > 0) {
        switch (*p) {
        case '*':
            while (plen > 1 && p[1] == '*') p++, plen--;
            if (plen == 1) return 1;
            for (; slen > 0; s++, slen--) {
                if (match_from(g, p + 1, plen - 1, s, slen, nesting + 1)) return 1;
                if (g->give_up) return 0;
            }
            g->give_up = 1;
            return 0;
        case '?':
            s++, slen--;
            break;
        case '[':
            p++, plen--;
            if (!class_match(g, &p, &plen, *s)) return 0;
            s++, slen--;
            break;
        case '\\':
            if (plen >= 2) p++, plen--;
            /* fall through */
        default:
            if (!same(g, *p, *s)) return 0;
            s++, slen--;
            break;
        }
        p++, plen--;
        if (slen == 0) {
            while (plen > 0 && *p == '*') p++, plen--;
            break;
        }
    }
    return plen == 0 && slen == 0;
}

static int glob_run(const char *p, size_t plen, const char *s, size_t slen, int nocase)
{
    glob_state g = { nocase, 0 };
    return match_from(&g, p, plen, s, slen, 0);
}

int glob_match(const char *p, size_t plen, const char *s, size_t slen)
{
    return glob_run(p, plen, s, slen, 0);
}

int glob_match_nocase(const char *p, size_t plen, const char *s, size_t slen)
{
    return glob_run(p, plen, s, slen, 1);
}
