/* t_list.h — the list type's API (representation and invariants in t_list.c). */
#ifndef LOCKLAB_T_LIST_H
#define LOCKLAB_T_LIST_H

#include "object.h"

typedef struct list list;

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

#endif
