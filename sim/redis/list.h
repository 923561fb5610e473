/* list.h — the list type's API (representation and invariants in list.c; its commands in
 * t_list.c). */
#ifndef LOCKLAB_REDIS_LIST_H
#define LOCKLAB_REDIS_LIST_H

#include "value.h"

typedef struct list list;

enum { LIST_HEAD = 0, LIST_TAIL = 1 }; /* a push's or a pop's end (`where`) */

list *list_new(void);
void list_free(list *l);                       /* NULL is a no-op */
list *list_clone(const list *l);
size_t list_len(const list *l);
size_t list_bytes(const list *l);
void list_dump(const list *l, buf *out);       /* ["a", "b"] */

/* Pushes a copy of v at the head (where = 0) or the tail (where = 1). */
void list_push(list *l, slice v, int where);
/* Removes and returns the head or tail element (caller frees); the list must not be empty. */
sstr *list_pop(list *l, int where);
/* The element at 0 <= i < len, borrowed until l changes. */
const sstr *list_at(const list *l, size_t i);

/* Replaces element i (0 <= i < len) with a copy of v. */
void list_replace(list *l, size_t i, slice v);
/* Removes up to `max` elements equal to v (0 = all), scanning from the head, or from the
 * tail when from_tail. Returns how many were removed. */
size_t list_remove(list *l, slice v, unsigned long long max, int from_tail);
/* Inserts a copy of v so that it becomes element i (0 <= i <= len). */
void list_insert(list *l, size_t i, slice v);
/* Keeps only elements [s, e] (inclusive, in range), or none when keep is 0. */
void list_keep(list *l, int keep, size_t s, size_t e);

#endif
