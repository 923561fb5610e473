/* chunkcache.c — see chunkcache.h. A dict from (name, NUL, text) to the dump. A text that
 * does not compile is not kept: it is compiled (and fails) again each time, with the same
 * message. The cache stops taking new texts at CHUNKCACHE_MAX_BYTES of dumps. */
#include "chunkcache.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "dict.h"

#define CHUNKCACHE_MAX_BYTES ((size_t)64 << 20)

typedef struct chunk {
    char *dump;
    size_t len;
} chunk;

struct chunkcache {
    dict *chunks;
    size_t bytes, hits;
    buf key;
};

chunkcache *chunkcache_new(void)
{
    chunkcache *c = xcalloc(1, sizeof *c);
    c->chunks = dict_new(sizeof(chunk));
    buf_init(&c->key);
    return c;
}

static void chunk_release(void *payload)
{
    free(((chunk *)payload)->dump);
}

void chunkcache_free(chunkcache *c)
{
    if (!c) return;
    dict_free(c->chunks, chunk_release);
    buf_release(&c->key);
    free(c);
}

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
    (void)L;
    buf_append(ud, p, n);
    return 0;
}

int chunkcache_load(chunkcache *c, lua_State *L, const char *text, size_t len, const char *name)
{
    if (!c) return luaL_loadbufferx(L, text, len, name, "t");
    buf_reset(&c->key);
    buf_puts(&c->key, name);
    buf_putc(&c->key, '\0');
    buf_append(&c->key, text, len);
    slice key = { c->key.p, c->key.len };
    const chunk *k = dict_get(c->chunks, key);
    if (k) {
        c->hits++;
        return luaL_loadbufferx(L, k->dump, k->len, name, "b");
    }
    int rc = luaL_loadbufferx(L, text, len, name, "t");
    if (rc != LUA_OK || c->bytes >= CHUNKCACHE_MAX_BYTES) return rc;
    buf dump;
    buf_init(&dump);
    if (lua_dump(L, dump_writer, &dump, 0) == 0 && dump.len) {
        chunk *slot = dict_put(c->chunks, key, NULL);
        slot->len = dump.len;
        slot->dump = buf_steal(&dump);
        c->bytes += slot->len;
        return rc;
    }
    buf_release(&dump);
    return rc;
}

int chunkcache_load_ud(void *c, lua_State *L, const char *text, size_t len, const char *name)
{
    return chunkcache_load(c, L, text, len, name);
}

size_t chunkcache_hits(const chunkcache *c)
{
    return c ? c->hits : 0;
}

size_t chunkcache_size(const chunkcache *c)
{
    return c ? dict_size(c->chunks) : 0;
}
