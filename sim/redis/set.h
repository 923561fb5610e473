/* set.h — the set type's API (representation and invariants in set.c; its commands in
 * t_set.c). */
#ifndef LOCKLAB_REDIS_SET_H
#define LOCKLAB_REDIS_SET_H

#include "value.h"
#include "util.h"

typedef struct set set;

set *set_new(void);
void set_free(set *s);                         /* NULL is a no-op */
set *set_clone(const set *s);
size_t set_len(const set *s);
size_t set_bytes(const set *s);
void set_dump(const set *s, buf *out);         /* {"a", "b"} with members in byte order */
/* "intset" or "hashtable": Redis 7.0's encoding for the same history of additions. */
const char *set_encoding(const set *s);

/* 1 if new (member copied). A set stays an intset while every member is an integer and it
 * holds at most lim->set_intset of them (lim NULL: Redis's default, 512). */
int set_add(set *s, slice member, const enc_limits *lim);
int set_del(set *s, slice member);             /* 1 if it was there */
int set_has(const set *s, slice member);
/* The member at 0 <= i < len in reply order, borrowed until s changes. */
slice set_at(const set *s, size_t i);

#endif
