/* glob.h — Redis's glob patterns (util.c's stringmatchlen, Redis 7.0.15), as KEYS, SCAN MATCH
 * and COMMAND LIST FILTERBY PATTERN use them: * ? [abc] [^a] [a-z] and \ escapes, with every
 * edge of the original (an empty string matches only the empty pattern, an unterminated
 * '[' runs to the end of the pattern, a trailing '\' is a literal backslash, a pattern
 * nested more than 1000 '*' deep fails). Polynomial time: see glob.c. */
#ifndef LOCKLAB_GLOB_H
#define LOCKLAB_GLOB_H

#include <stddef.h>

/* 1 when the string s (slen bytes) matches the pattern p (plen bytes), byte for byte. */
int glob_match(const char *p, size_t plen, const char *s, size_t slen);
/* The same, ignoring ASCII case (Redis's nocase flag: COMMAND LIST FILTERBY PATTERN). */
int glob_match_nocase(const char *p, size_t plen, const char *s, size_t slen);

#endif
