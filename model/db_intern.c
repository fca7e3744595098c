/*
 * db_intern.c - a bounded cache of interned rows (param_pair, metric_kind):
 * key bytes -> row id (or DB_INTERN_SEEN: met once, not interned yet).
 * Two generations: when the young one is half full the old one is
 * dropped and the young one ages, so values that keep coming back stay
 * while values met once fall out; memory stays flat however large the
 * ingest.  The cache only saves statements; emptied after a rollback,
 * whose new ids are gone.
 */
#include "core/compat.h"
#include "db_priv.h"

#define INTERN_BITS 15
#define INTERN_CAP (1u << INTERN_BITS) /* slots per generation */

/* The home slot: Fibonacci hashing spreads every bit of h. */
static size_t home(uint64_t h)
{
	return (size_t)((h * 0x9e3779b97f4a7c15ull) >> (64 - INTERN_BITS));
}

static void gen_reset(struct db_intern_gen *g)
{
	if (g->slot)
		memset(g->slot, 0, INTERN_CAP * sizeof(*g->slot));
	g->n = 0;
	strbuf_reset(&g->keys);
}

void db_intern_init(struct db_intern *c)
{
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->gen[0].keys, 0);
	strbuf_init(&c->gen[1].keys, 0);
}

void db_intern_clear(struct db_intern *c)
{
	gen_reset(&c->gen[0]);
	gen_reset(&c->gen[1]);
}

void db_intern_release(struct db_intern *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(c->gen[i].slot);
		strbuf_release(&c->gen[i].keys);
	}
	memset(c, 0, sizeof(*c));
}

/* An id a slot can hold; 0 (a miss: looked up again) for one beyond 32 bits. */
static int32_t fits(int64_t id)
{
	return id >= INT32_MIN && id <= INT32_MAX ? (int32_t)id : 0;
}

/* Slots are 16 bytes (the probe touches little memory); a key's length
 * is stored in front of its bytes. */
static struct db_intern_slot *find(struct db_intern_gen *g, uint64_t h, const char *key,
				   size_t len)
{
	size_t i;

	if (!g->slot)
		return NULL;
	for (i = home(h); g->slot[i].off1; i = (i + 1) & (INTERN_CAP - 1))
		if (g->slot[i].h == h) {
			const char *k = g->keys.buf + g->slot[i].off1 - 1;
			uint32_t klen;

			memcpy(&klen, k, sizeof(klen));
			if (klen == len && !memcmp(k + sizeof(klen), key, len))
				return &g->slot[i];
		}
	return NULL;
}

static void put(struct db_intern *c, uint64_t h, const char *key, size_t len, int64_t id)
{
	struct db_intern_gen *g = &c->gen[c->young];
	uint32_t klen = (uint32_t)len;
	size_t i;

	if (len > UINT32_MAX / 2)
		return; /* not cached: the cache only saves statements */
	if (g->n >= INTERN_CAP / 2 || g->keys.len + len + sizeof(klen) >= UINT32_MAX) {
		c->young ^= 1; /* the old generation goes, the young one ages */
		g = &c->gen[c->young];
		gen_reset(g);
	}
	if (!g->slot)
		g->slot = ab_calloc(INTERN_CAP, sizeof(*g->slot));
	for (i = home(h); g->slot[i].off1; i = (i + 1) & (INTERN_CAP - 1))
		;
	g->slot[i].h = h;
	g->slot[i].id = fits(id);
	g->slot[i].off1 = (uint32_t)g->keys.len + 1;
	strbuf_add(&g->keys, &klen, sizeof(klen));
	strbuf_add(&g->keys, key, len);
	g->n++;
}

void db_intern_prefetch(const struct db_intern *c, uint64_t h)
{
#if defined(__GNUC__)
	size_t i = home(h);

	/* the probes a miss makes start at the home slots of both generations */
	if (c->gen[0].slot)
		__builtin_prefetch(&c->gen[0].slot[i]);
	if (c->gen[1].slot)
		__builtin_prefetch(&c->gen[1].slot[i]);
#else
	(void)c;
	(void)h;
#endif
}

int64_t db_intern_get(struct db_intern *c, uint64_t h, const char *key, size_t len)
{
	struct db_intern_slot *s = find(&c->gen[c->young], h, key, len);

	if (s)
		return s->id;
	s = find(&c->gen[c->young ^ 1], h, key, len);
	if (!s)
		return 0;
	/* still wanted: into the young generation */
	put(c, h, key, len, s->id);
	return s->id;
}

int64_t db_intern_get_or_set(struct db_intern *c, uint64_t h, const char *key, size_t len,
			     int64_t id)
{
	struct db_intern_slot *s = find(&c->gen[c->young], h, key, len);

	if (s && s->id)
		return s->id;
	if (s) { /* an id that did not fit: as get() then set() */
		s->id = fits(id);
		return 0;
	}
	s = find(&c->gen[c->young ^ 1], h, key, len);
	if (s) {
		int64_t old = s->id;
		put(c, h, key, len, old);
		if (old)
			return old;
		db_intern_set(c, h, key, len, id);
		return 0;
	}
	/* in neither: set() would not find it in the young one either */
	put(c, h, key, len, id);
	return 0;
}

void db_intern_set(struct db_intern *c, uint64_t h, const char *key, size_t len, int64_t id)
{
	struct db_intern_slot *s = find(&c->gen[c->young], h, key, len);

	if (s)
		s->id = fits(id);
	else
		put(c, h, key, len, id);
}
