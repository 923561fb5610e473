/* t_sort.c — SORT and SORT_RO (Redis 7.0's sort.c): a list, set or sorted set sorted by its
 * elements or by the keys a BY pattern names, as numbers or (ALPHA) as strings, with LIMIT,
 * GET patterns (`#` the element itself, `key*->field` a hash field), ASC/DESC, and STORE
 * into a list.
 *
 * Followed from Redis: a BY pattern without `*` sorts nothing (lists and sorted sets keep
 * their order, DESC reversing it; a set is sorted as ALPHA anyway when stored or inside a
 * script, so that the result is the same everywhere); a missing BY key weighs 0 (numbers)
 * or sorts first (ALPHA); equal numbers are ordered by the elements' bytes; a weight that
 * strtod cannot read whole is "ERR One or more scores can't be converted into double".
 * A sorted set sorted becomes a skiplist for good (OBJECT ENCODING), as Redis converts it.
 * One difference: Redis compares ALPHA strings with strcoll under the locale it was started
 * in; here bytes are compared, which is strcoll's order in the C locale a test runs in. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "handlers.h"
#include "object.h"
#include "hash.h"
#include "list.h"
#include "set.h"
#include "zset.h"

typedef struct sort_opts {
    int desc, alpha, bypattern;
} sort_opts;

typedef struct sort_item {
    slice obj;     /* the element (an owned copy) */
    double score;  /* numeric weight */
    slice cmp;     /* ALPHA with BY: the weight's bytes (an owned copy), p NULL if none */
    const sort_opts *o; /* how to compare (qsort passes no context) */
} sort_item;

/* Redis's lookupKeyByPattern: `#` is the element; otherwise the first `*` of the pattern is
 * replaced by the element and the key read (a string), or its hash field after `->`. */
static int sort_lookup(cmdctx *c, slice pattern, slice elem, slice *out)
{
    slice pat = slice_cstr_prefix(pattern);
    if (pat.len == 1 && pat.p[0] == '#') {
        *out = elem;
        return 1;
    }
    const char *star = memchr(pat.p, '*', pat.len);
    if (!star) return 0;
    size_t prefix = (size_t)(star - pat.p), fieldlen = 0;
    const char *field = NULL;
    for (const char *f = star + 1; f + 2 < pat.p + pat.len; f++)
        if (f[0] == '-' && f[1] == '>') {
            field = f + 2;
            fieldlen = (size_t)(pat.p + pat.len - field);
            break;
        }
    size_t postfix = pat.len - prefix - 1 - (field ? fieldlen + 2 : 0);
    buf key;
    buf_init(&key);
    buf_append(&key, pat.p, prefix);
    buf_append(&key, elem.p, elem.len);
    buf_append(&key, star + 1, postfix);
    kv *e = store_lookup(c->db, (slice){ key.p ? key.p : "", key.len });
    buf_release(&key);
    if (!e) return 0;
    if (field) return e->type == OBJ_HASH && hash_get(e->ptr, (slice){ field, fieldlen }, out);
    if (e->type != OBJ_STRING) return 0;
    *out = sstr_slice(e->ptr);
    return 1;
}

static int sort_cmp(const void *x, const void *y)
{
    const sort_item *a = x, *b = y;
    const sort_opts *o = a->o;
    int cmp;
    if (!o->alpha) {
        cmp = a->score > b->score ? 1 : a->score < b->score ? -1 : slice_cmp(a->obj, b->obj);
    } else if (o->bypattern) {
        if (!a->cmp.p || !b->cmp.p) cmp = a->cmp.p == b->cmp.p ? 0 : !a->cmp.p ? -1 : 1;
        else cmp = slice_cmp(a->cmp, b->cmp);
    } else {
        cmp = slice_cmp(a->obj, b->obj);
    }
    return o->desc ? -cmp : cmp;
}

static void sort_add(sort_item **v, size_t *n, size_t *cap, slice s, const sort_opts *o)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = (sort_item){ { xmemdup(s.p, s.len), s.len }, 0, { NULL, 0 }, o };
}

static void sort_generic(cmdctx *c, int readonly)
{
    sort_opts o = { 0, 0, 0 };
    long long lstart = 0, lcount = -1;
    int dontsort = 0, storeidx = 0, getop = 0;
    slice sortby = { NULL, 0 };
    int *gets = xmalloc((size_t)c->argc * sizeof *gets);
    for (int j = 2; j < c->argc; j++) {
        int left = c->argc - j - 1;
        slice a = c->argv[j];
        if (slice_opt_is(a, "asc")) {
            o.desc = 0;
        } else if (slice_opt_is(a, "desc")) {
            o.desc = 1;
        } else if (slice_opt_is(a, "alpha")) {
            o.alpha = 1;
        } else if (slice_opt_is(a, "limit") && left >= 2) {
            if (arg_int64(c, j + 1, &lstart) < 0 || arg_int64(c, j + 2, &lcount) < 0) goto done;
            j += 2;
        } else if (!readonly && slice_opt_is(a, "store") && left >= 1) {
            storeidx = ++j;
        } else if (slice_opt_is(a, "by") && left >= 1) {
            sortby = c->argv[++j];
            slice p = slice_cstr_prefix(sortby);
            dontsort = memchr(p.p, '*', p.len) == NULL;
        } else if (slice_opt_is(a, "get") && left >= 1) {
            gets[getop++] = ++j;
        } else {
            reply_error(c->out, ERR_SYNTAX);
            goto done;
        }
    }
    kv *e = store_lookup(c->db, c->argv[1]);
    if (e && e->type != OBJ_SET && e->type != OBJ_LIST && e->type != OBJ_ZSET) {
        reply_error(c->out, ERR_WRONGTYPE);
        goto done;
    }
    obj_type t = e ? (obj_type)e->type : OBJ_LIST;
    if (t == OBJ_ZSET) zset_to_skiplist(e->ptr); /* Redis converts the zset it sorts, for good */
    if (dontsort && t == OBJ_SET && (storeidx || c->in_script)) {
        dontsort = 0;
        o.alpha = 1;
        sortby = (slice){ NULL, 0 };
    }
    o.bypattern = sortby.p != NULL && !dontsort;
    long long len = e ? (long long)obj_count(t, e->ptr) : 0;
    /* Redis's sanity check, which also keeps start + count from overflowing. */
    long long start = lstart < 0 ? 0 : lstart > len ? len : lstart;
    lcount = lcount < -1 ? -1 : lcount > len ? len : lcount;
    long long end = lcount < 0 ? len - 1 : start + lcount - 1;
    if (start >= len) {
        start = len - 1;
        end = len - 2;
    }
    if (end >= len) end = len - 1;

    /* The elements: for an unsorted list or zset only the range, in order (DESC from the
     * end); otherwise every one, in the value's own order. */
    sort_item *v = NULL;
    size_t n = 0, cap = 0;
    int ranged = dontsort && t != OBJ_SET;
    for (long long k = ranged ? start : 0; e && k <= (ranged ? end : len - 1); k++) {
        long long i = ranged && o.desc ? len - 1 - k : k;
        if (t == OBJ_LIST) sort_add(&v, &n, &cap, sstr_slice(list_at(e->ptr, (size_t)i)), &o);
        else if (t == OBJ_ZSET) sort_add(&v, &n, &cap, zset_at(e->ptr, (size_t)i, NULL), &o);
        else sort_add(&v, &n, &cap, set_at(e->ptr, (size_t)i), &o);
    }
    if (ranged) {
        end -= start;
        start = 0;
    }
    int bad = 0;
    if (!dontsort) {
        for (size_t k = 0; k < n; k++) {
            slice by = v[k].obj;
            if (o.bypattern && !sort_lookup(c, sortby, v[k].obj, &by)) continue;
            if (o.alpha) {
                if (o.bypattern) v[k].cmp = (slice){ xmemdup(by.p, by.len), by.len };
                continue;
            }
            char *tmp = xmemdup(by.p, by.len), *endp;
            errno = 0;
            v[k].score = strtod(tmp, &endp);
            if (*endp != '\0' || errno == ERANGE || isnan(v[k].score)) bad = 1;
            free(tmp);
        }
        if (n > 1) qsort(v, n, sizeof *v, sort_cmp); /* never qsort(NULL, 0): undefined */
    }
    long long count = end - start + 1, outlen = getop ? getop * count : count;
    if (bad) {
        reply_error(c->out, "ERR One or more scores can't be converted into double");
    } else if (!storeidx) {
        reply *el = reply_array(c->out, (size_t)outlen);
        for (long long k = start; k <= end; k++) {
            slice got;
            if (!getop) reply_bulk(el++, v[k].obj.p, v[k].obj.len);
            for (int g = 0; g < getop; g++, el++)
                if (sort_lookup(c, c->argv[gets[g]], v[k].obj, &got)) reply_bulk(el, got.p, got.len);
        }
    } else {
        list *l = list_new();
        for (long long k = start; k <= end; k++) {
            slice got;
            if (!getop) list_push(l, v[k].obj, 1);
            for (int g = 0; g < getop; g++)
                list_push(l, sort_lookup(c, c->argv[gets[g]], v[k].obj, &got) ? got : (slice){ "", 0 }, 1);
        }
        if (outlen) {
            store_touched(c->db, store_set(c->db, c->argv[storeidx], OBJ_LIST, l, 0));
        } else {
            list_free(l);
            store_delete(c->db, c->argv[storeidx]);
        }
        reply_int(c->out, outlen);
    }
    for (size_t k = 0; k < n; k++) {
        free((char *)v[k].obj.p);
        free((char *)v[k].cmp.p);
    }
    free(v);
done:
    free(gets);
}

void cmd_sort(cmdctx *c) { sort_generic(c, 0); }
void cmd_sort_ro(cmdctx *c) { sort_generic(c, 1); }
