/*
 * jtext.h - compact JSON text written directly, byte for byte what
 * jansson's json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes for the
 * same values (keys in insertion order, jansson's ".0" and exponent rules),
 * but a real as the shortest of %.15g, %.16g and %.17g that reads back as
 * the same double (235.17, not 235.16999999999999: issue 13).  One writer for the whole ingest path:
 *   - scalars (jtext_str/int/real) and struct jtext_obj, an object under
 *     construction, for parsers that never build jansson values
 *     (ReFrame perflogs hand the sink params_json directly);
 *   - ingest_jtext_add/dup: the text of a jansson value, for parsers that
 *     do build them (MLPerf, CARAML, JUBE...) and the sink/pipeline that
 *     turn those into stored text.
 * Why: json_dumps allocates per call and prints every real with printf;
 * both were a large part of an ingest's CPU.  Stored params and dedupe-key
 * hashes depend on these bytes (the keys hold no reals), so they must not
 * drift: tests/unit/test_jtext.c and test_json_text.c compare with
 * json_dumps (reals: at 15, 16 and 17 digits).
 *
 * Ownership: everything appends to the caller's strbuf; values are only
 * read.  struct jtext_obj owns its buffers (jtext_obj_release);
 * struct ingest_jtext holds no pointers (one per thread, no release).
 */
#ifndef AB_INGEST_JTEXT_H
#define AB_INGEST_JTEXT_H

#include "core/core.h"
#include <jansson.h>

/* ---- scalars ------------------------------------------------------------
 * Strings must be valid UTF-8 (a stray byte becomes \uFFFD); reals must be
 * finite (anything else prints "null", which jansson refuses to print). */
void jtext_str(struct strbuf *out, const char *s, size_t n);
/* jtext_str() when s[0..n) is valid UTF-8 (jtext_utf8_valid), returning 0;
 * else -1 and nothing added (one pass for plain ASCII). */
int jtext_str_utf8(struct strbuf *out, const char *s, size_t n);
void jtext_int(struct strbuf *out, long long v);
void jtext_real(struct strbuf *out, double v);
/* 1 when s[0..n) is UTF-8 as jansson accepts it (no overlong forms, no
 * surrogates, nothing beyond U+10FFFF), else 0. */
int jtext_utf8_valid(const char *s, size_t n);
/* Any jansson value, dumped (reals as jtext_real prints them); -1 (nothing
 * added) for NULL or a value json_dumps would refuse. */
int jtext_json(struct strbuf *out, json_t *v);

/* ---- an object under construction ----------------------------------------
 * Keys in the order first set; setting a key again replaces its value in
 * place (as json_object_set does).  clear() keeps the buffers for the next
 * record. */
#define JTEXT_MEMO 61
struct jtext_real_memo {
	uint64_t bits;
	unsigned char len;      /* 0 = empty */
	char text[31];
};
/* (in the header for the inline fast paths below; only jtext.c and
 * those read them) */
struct jtext_ent {
	uint32_t key;           /* index into k */
	size_t val, vlen;
};
struct jtext_key {
	size_t off, klen;       /* raw key: keys.buf + off */
	size_t qoff, qlen;      /* "key": as JSON, after the raw key in keys */
	uint32_t hash;
	uint32_t gen;           /* == obj gen: in this record, at e[pos] */
	size_t pos;
};
struct jtext_obj {
	struct jtext_ent *e;    /* this record's members, in order */
	size_t n, cap;
	size_t qsum;            /* their keys' "key": texts' lengths, summed */
	/* every key met (kept across clear(): records repeat their keys),
	 * each with its text as JSON ("key":) for dump() */
	struct jtext_key *k;
	size_t nk, kcap;
	uint32_t *slot;         /* key index + 1 by hash; 0 = empty */
	size_t nslot;
	uint32_t gen;           /* this record; a key with another gen is not in it */
	uint32_t epoch;         /* bumped when the key dictionary is dropped */
	struct strbuf keys, vals;
	/* reals printed lately (thresholds, references repeat line after
	 * line): JTEXT_MEMO entries, allocated on first use */
	struct jtext_real_memo *memo;
};
void jtext_obj_init(struct jtext_obj *j);
void jtext_obj_release(struct jtext_obj *j);
void jtext_obj_clear(struct jtext_obj *j);
/* Write a value into j->vals from offset mark on, then put() names it.
 * Inline when the record before had this key at this place and it is not
 * in this record yet (a perflog's lines set the same keys in the same
 * order: ~3 million puts for 300,000 lines; the call and the hashing were
 * most of their cost); else jtext_obj_put_slow. */
void jtext_obj_put_slow(struct jtext_obj *j, const char *key, size_t klen, size_t mark);
static inline AB_ALWAYS_INLINE void jtext_obj_put(struct jtext_obj *j, const char *key, size_t klen,
						 size_t mark)
{
	if (j->n < j->cap) {
		struct jtext_ent *e = &j->e[j->n];

		if (e->key < j->nk) {
			struct jtext_key *k = &j->k[e->key];

			if (k->gen != j->gen && k->klen == klen &&
			    ab_memeq(j->keys.buf + k->off, key, klen)) {
				k->gen = j->gen;
				k->pos = j->n++;
				j->qsum += k->qlen;
				e->val = mark; /* e->key is the key's already */
				e->vlen = j->vals.len - mark;
				return;
			}
		}
	}
	jtext_obj_put_slow(j, key, klen, mark);
}
void jtext_obj_set_str(struct jtext_obj *j, const char *key, const char *s, size_t n);
void jtext_obj_set_raw(struct jtext_obj *j, const char *key, const char *text, size_t n);
void jtext_obj_set_int(struct jtext_obj *j, const char *key, long long v);
void jtext_obj_set_real(struct jtext_obj *j, const char *key, double v);
void jtext_obj_set_json(struct jtext_obj *j, const char *key, json_t *v); /* NULL: not set */
/* Every member of a jansson object, in its order. */
void jtext_obj_add_json(struct jtext_obj *j, json_t *obj);
/* The value text of key (borrowed until the next change), or NULL. */
const char *jtext_obj_get(const struct jtext_obj *j, const char *key, size_t *len);
/* A key a caller asks for record after record: where it is in j's key
 * dictionary, found once (valid while the dictionary is not dropped or,
 * for a key not in it, while no key is added).  Zero-initialise it, set
 * key and klen; use it with one jtext_obj only. */
struct jtext_keyref {
	const char *key;
	size_t klen;
	uint32_t hash, epoch;
	long id;                /* -1: not in the dictionary */
	size_t nk;              /* the dictionary's size when looked up */
	int looked;
};
const char *jtext_obj_get_ref_slow(const struct jtext_obj *j, struct jtext_keyref *r,
				   size_t *len);
/* inline: a key looked up before that was not in the dictionary and still
 * cannot be (no key added since) is absent at once (most of the keys the
 * ReFrame parser asks each record for: ~2 million calls for rf4) */
static inline const char *jtext_obj_get_ref(const struct jtext_obj *j, struct jtext_keyref *r,
					    size_t *len)
{
	if (r->looked && r->id < 0 && r->epoch == j->epoch && r->nk == j->nk)
		return NULL;
	return jtext_obj_get_ref_slow(j, r, len);
}
/* The value of key parsed (new reference, caller decrefs), or NULL. */
json_t *jtext_obj_value(const struct jtext_obj *j, const char *key);
void jtext_obj_dump(const struct jtext_obj *j, struct strbuf *out);
/* The same, and where each member ends: ends[i] (j->n of them) = the offset
 * from the '{' of the ',' or '}' after member i.  Returns 0, or -1 when an
 * offset would not fit 32 bits (ends then not filled). */
int jtext_obj_dump_ends(const struct jtext_obj *j, struct strbuf *out, uint32_t *ends);
/* jtext_real() through j's memo of recent values (same bytes, less work). */
void jtext_real_cached(struct jtext_obj *j, struct strbuf *out, double v);

/* ---- the text of a jansson value ----------------------------------------- */
#define INGEST_JTEXT_REALS 256 /* cached real texts (direct mapped) */

struct ingest_jtext {
	struct {
		uint64_t bits;
		unsigned char len; /* 0: empty slot */
		char s[31];
	} real[INGEST_JTEXT_REALS];
};

void ingest_jtext_init(struct ingest_jtext *c);
/* Append the text of v (an object or array, as json_dumps wants) to out.
 * Returns 0, or -1 when jansson would not print v either (not an object or
 * array, a string that is not UTF-8, a real that is not finite, nesting
 * beyond 2048 levels); out then holds a partial text the caller discards. */
int ingest_jtext_add(struct ingest_jtext *c, struct strbuf *out, const json_t *v);
/* The text as a new string the caller frees, NULL for a NULL v or on
 * failure (as json_dumps). */
char *ingest_jtext_dup(struct ingest_jtext *c, const json_t *v);

#endif
