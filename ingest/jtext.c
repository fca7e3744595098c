/*
 * jtext.c - JSON text written directly, byte for byte the way jansson's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes the same values
 * (see jtext.h): scalars, objects under construction, and the text of a
 * jansson value.
 *
 * Why: a parser that builds a jansson object per record, only for the
 * pipeline to dump it to text again, spends most of its time in malloc,
 * free and printf (a 300,000-line perflog: ~0.6 s of 1.7 s); and printf
 * of a double at 17 digits (glibc's exact multi-precision path) was a
 * tenth of a CARAML ingest.  Writing the text once, with the same bytes,
 * keeps everything downstream unchanged (stored params, dedupe-key
 * hashes).  tests/unit/test_jtext.c and test_json_text.c compare every
 * writer here with jansson.
 */
#include "core/compat.h"
#include "jtext.h"

#include <math.h>

/* ---- scalars ----------------------------------------------------------- */

static const char hexd[] = "0123456789ABCDEF";

static void add_u4(struct strbuf *o, unsigned cp)
{
	char b[6] = { '\\', 'u', hexd[(cp >> 12) & 15], hexd[(cp >> 8) & 15],
		      hexd[(cp >> 4) & 15], hexd[cp & 15] };

	strbuf_add(o, b, 6);
}

/* Past the bytes JSON writes as they are (printable ASCII but '"' and
 * '\\'), eight at a time while none of the eight needs escaping. */
static const unsigned char *plain_run(const unsigned char *q, const unsigned char *end)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;

	while (end - q >= 8) {
		uint64_t w, quote, bslash;

		memcpy(&w, q, 8);
		quote = w ^ (ones * '"');
		bslash = w ^ (ones * '\\');
		/* any byte >= 0x80, < 0x20, == '"' or == '\\' (exact for "any") */
		if ((w | ((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) |
		     ((bslash - ones) & ~bslash)) & highs)
			break;
		q += 8;
	}
	while (q < end && *q >= 0x20 && *q < 0x80 && *q != '"' && *q != '\\')
		q++;
	return q;
}

void jtext_str(struct strbuf *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	/* the common case: printable ASCII without '"' or '\\', written at once */
	const unsigned char *q = plain_run(p, end);

	strbuf_grow(o, n + 2);
	if (q == end) {
		char *d = o->buf + o->len;
		d[0] = '"';
		memcpy(d + 1, s, n);
		d[n + 1] = '"';
		strbuf_setlen(o, o->len + n + 2);
		return;
	}
	strbuf_addch(o, '"');
	while (p < end) {
		const unsigned char *run = p;
		unsigned cp;
		size_t k, len;

		/* the common case: printable ASCII without '"' or '\\' */
		p = plain_run(p, end);
		if (p > run)
			strbuf_add(o, run, (size_t)(p - run));
		if (p >= end)
			break;
		cp = *p;
		if (cp == '"' || cp == '\\') {
			char e[2] = { '\\', (char)cp };
			strbuf_add(o, e, 2);
			p++;
			continue;
		}
		if (cp < 0x20) {
			const char *short_esc = NULL;
			switch (cp) {
			case '\b': short_esc = "\\b"; break;
			case '\f': short_esc = "\\f"; break;
			case '\n': short_esc = "\\n"; break;
			case '\r': short_esc = "\\r"; break;
			case '\t': short_esc = "\\t"; break;
			}
			if (short_esc)
				strbuf_add(o, short_esc, 2);
			else
				add_u4(o, cp);
			p++;
			continue;
		}
		/* UTF-8 sequence (the caller checked it is valid; a stray byte
		 * becomes U+FFFD rather than breaking the JSON) */
		if (cp >= 0xC2 && cp <= 0xDF) {
			len = 1;
			cp &= 0x1F;
		} else if (cp >= 0xE0 && cp <= 0xEF) {
			len = 2;
			cp &= 0x0F;
		} else if (cp >= 0xF0 && cp <= 0xF4) {
			len = 3;
			cp &= 0x07;
		} else {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		if ((size_t)(end - p) <= len) {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		for (k = 1; k <= len && (p[k] & 0xC0) == 0x80; k++)
			cp = (cp << 6) | (p[k] & 0x3F);
		if (k <= len) {
			add_u4(o, 0xFFFD);
			p++;
			continue;
		}
		p += len + 1;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			add_u4(o, 0xD800 | ((cp >> 10) & 0x3FF));
			add_u4(o, 0xDC00 | (cp & 0x3FF));
		} else {
			add_u4(o, cp);
		}
	}
	strbuf_addch(o, '"');
}

int jtext_str_utf8(struct strbuf *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	if (plain_run(p, p + n) == p + n) {
		char *d;
		strbuf_grow(o, n + 2);
		d = o->buf + o->len;
		d[0] = '"';
		memcpy(d + 1, s, n);
		d[n + 1] = '"';
		strbuf_setlen(o, o->len + n + 2);
		return 0;
	}
	if (!jtext_utf8_valid(s, n))
		return -1;
	jtext_str(o, s, n);
	return 0;
}

void jtext_int(struct strbuf *o, long long v)
{
	char b[24];
	size_t i = sizeof(b);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		b[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		b[--i] = '-';
	strbuf_add(o, b + i, sizeof(b) - i);
}

/*
 * %.17g of a finite, non-integer v with 1e-4 <= |v| < 2^53 (the fixed
 * notation %g picks there), exactly as glibc prints it: the 17 significant
 * digits of the exact binary value, rounded to nearest with ties to even,
 * trailing zeros dropped.  v = m / 2^s, so the digits are
 * floor(m * 10^k / 2^s) with k = 16 - (decimal exponent) <= 20: at most
 * 2^53 * 10^20 < 2^120, exact in 128 bits.  Returns 0 when v is outside
 * that range or the compiler has no 128-bit integers (the caller prints
 * with snprintf then).
 */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 jt_u128;

static int real_fixed17(struct strbuf *o, double v)
{
	static const uint64_t p10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
		10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL
	};
	double a = fabs(v);
	uint64_t bits, m, q;
	jt_u128 num, rem, half, scale;
	int s, x, k, i, tries;
	char d[17], b[48];
	size_t n = 0, end;

	if (!(a >= 1e-4 && a < 9007199254740992.0))
		return 0;
	memcpy(&bits, &a, sizeof(bits));
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52); /* a >= 1e-4: normal */
	s = 1075 - (int)(bits >> 52);                    /* a = m / 2^s */
	if (s <= 0 || s > 120)
		return 0;
	x = (int)floor(log10(a)); /* the decimal exponent, checked below */
	for (tries = 0;; tries++) {
		k = 16 - x;
		if (k < 0 || k > 20 || tries > 2)
			return 0;
		scale = k < 20 ? (jt_u128)p10[k] : (jt_u128)p10[19] * 10;
		num = (jt_u128)m * scale;
		q = (uint64_t)(num >> s);
		if (q >= p10[17])
			x++;
		else if (q < p10[16])
			x--;
		else
			break;
	}
	if (x < -4)
		return 0;
	rem = num & ((((jt_u128)1) << s) - 1);
	half = ((jt_u128)1) << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q == p10[17]) { /* 9.99...95 rounded up to the next power of ten */
		q = p10[16];
		x++;
	}
	for (i = 16; i >= 0; i--) {
		d[i] = (char)('0' + q % 10);
		q /= 10;
	}
	for (end = 17; end > 0 && d[end - 1] == '0'; end--)
		;
	if (v < 0)
		b[n++] = '-';
	if (x >= 0) {
		memcpy(b + n, d, (size_t)x + 1);
		n += (size_t)x + 1;
		if (end > (size_t)x + 1) {
			b[n++] = '.';
			memcpy(b + n, d + x + 1, end - (size_t)x - 1);
			n += end - (size_t)x - 1;
		} else {
			b[n++] = '.'; /* jansson: a real always shows it is one */
			b[n++] = '0';
		}
	} else {
		b[n++] = '0';
		b[n++] = '.';
		for (i = 0; i < -x - 1; i++)
			b[n++] = '0';
		memcpy(b + n, d, end);
		n += end;
	}
	strbuf_add(o, b, n);
	return 1;
}
#else
static int real_fixed17(struct strbuf *o, double v)
{
	(void)o;
	(void)v;
	return 0;
}
#endif

void jtext_real(struct strbuf *o, double v)
{
	char b[64];
	int n;
	char *e;

	/* integers below 2^53 print as their digits with ".0", as %.17g does */
	if (v == floor(v) && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v))) {
		jtext_int(o, (long long)v);
		strbuf_add(o, ".0", 2);
		return;
	}
	if (!isfinite(v)) {
		/* jansson refuses these; a parser never gets here (callers check) */
		strbuf_addstr(o, "null");
		return;
	}
	if (real_fixed17(o, v))
		return;
	n = snprintf(b, sizeof(b), "%.17g", v);
	if (n < 0 || (size_t)n >= sizeof(b) - 3) {
		strbuf_addstr(o, "null");
		return;
	}
	if (!strchr(b, '.') && !strchr(b, 'e')) {
		b[n++] = '.';
		b[n++] = '0';
		b[n] = '\0';
	}
	/* no '+' and no leading zeros in the exponent */
	e = strchr(b, 'e');
	if (e) {
		char *start = e + 1, *end = e + 2;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, (size_t)(b + n - end) + 1);
			n -= (int)(end - start);
		}
	}
	strbuf_add(o, b, (size_t)n);
}

void jtext_real_cached(struct jtext_obj *j, struct strbuf *o, double v)
{
	uint64_t bits;
	struct jtext_real_memo *r;
	size_t mark;

	memcpy(&bits, &v, sizeof(bits));
	if (!j->memo)
		j->memo = ab_calloc(JTEXT_MEMO, sizeof(*j->memo));
	r = &j->memo[(bits ^ (bits >> 29) ^ (bits >> 47)) % JTEXT_MEMO];
	if (r->len && r->bits == bits) {
		strbuf_add(o, r->text, r->len);
		return;
	}
	mark = o->len;
	jtext_real(o, v);
	if (o->len - mark < sizeof(r->text)) {
		r->bits = bits;
		r->len = (unsigned char)(o->len - mark);
		memcpy(r->text, o->buf + mark, r->len);
	}
}

int jtext_json(struct strbuf *o, json_t *v)
{
	char *s;

	if (!v)
		return -1;
	s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
	if (!s)
		return -1;
	strbuf_addstr(o, s);
	free(s);
	return 0;
}

/* ---- objects ----------------------------------------------------------- */

struct jtext_ent {
	size_t key, klen, val, vlen;
	uint32_t hash;
};

void jtext_obj_init(struct jtext_obj *j)
{
	memset(j, 0, sizeof(*j));
	strbuf_init(&j->keys, 0);
	strbuf_init(&j->vals, 0);
}

void jtext_obj_release(struct jtext_obj *j)
{
	free(j->e);
	free(j->slot);
	free(j->memo);
	strbuf_release(&j->keys);
	strbuf_release(&j->vals);
	jtext_obj_init(j);
}

void jtext_obj_clear(struct jtext_obj *j)
{
	j->n = 0;
	strbuf_reset(&j->keys);
	strbuf_reset(&j->vals);
	if (j->nslot)
		memset(j->slot, 0, j->nslot * sizeof(*j->slot));
}

static uint32_t key_hash(const char *k, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)k[i]) * 16777619u;
	return h;
}

/* slot[] holds entry index + 1; 0 = empty */
static void reindex(struct jtext_obj *j)
{
	size_t i;

	free(j->slot);
	j->nslot = j->nslot ? 2 * j->nslot : 64;
	j->slot = ab_calloc(j->nslot, sizeof(*j->slot));
	for (i = 0; i < j->n; i++) {
		size_t s = j->e[i].hash & (j->nslot - 1);
		while (j->slot[s])
			s = (s + 1) & (j->nslot - 1);
		j->slot[s] = (uint32_t)(i + 1);
	}
}

static struct jtext_ent *find(const struct jtext_obj *j, const char *k, size_t n, uint32_t h,
			      size_t *slot)
{
	size_t s;

	if (!j->nslot)
		return NULL;
	for (s = h & (j->nslot - 1); j->slot[s]; s = (s + 1) & (j->nslot - 1)) {
		struct jtext_ent *e = &j->e[j->slot[s] - 1];
		if (e->hash == h && e->klen == n && !memcmp(j->keys.buf + e->key, k, n))
			return e;
	}
	if (slot)
		*slot = s;
	return NULL;
}

void jtext_obj_put(struct jtext_obj *j, const char *key, size_t klen, size_t mark)
{
	uint32_t h = key_hash(key, klen);
	size_t s = 0;
	struct jtext_ent *e = find(j, key, klen, h, &s);

	if (e) {
		/* set again: the new value in the old place, as jansson does */
		e->val = mark;
		e->vlen = j->vals.len - mark;
		return;
	}
	if ((j->n + 1) * 2 > j->nslot) {
		reindex(j);
		find(j, key, klen, h, &s);
	}
	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 32;
		j->e = ab_realloc(j->e, j->cap * sizeof(*j->e));
	}
	e = &j->e[j->n++];
	e->hash = h;
	e->key = j->keys.len;
	e->klen = klen;
	strbuf_add(&j->keys, key, klen);
	e->val = mark;
	e->vlen = j->vals.len - mark;
	j->slot[s] = (uint32_t)j->n;
}

void jtext_obj_set_str(struct jtext_obj *j, const char *key, const char *s, size_t n)
{
	size_t mark = j->vals.len;

	jtext_str(&j->vals, s, n);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_raw(struct jtext_obj *j, const char *key, const char *text, size_t n)
{
	size_t mark = j->vals.len;

	strbuf_add(&j->vals, text, n);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_int(struct jtext_obj *j, const char *key, long long v)
{
	size_t mark = j->vals.len;

	jtext_int(&j->vals, v);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_real(struct jtext_obj *j, const char *key, double v)
{
	size_t mark = j->vals.len;

	jtext_real(&j->vals, v);
	jtext_obj_put(j, key, strlen(key), mark);
}

void jtext_obj_set_json(struct jtext_obj *j, const char *key, json_t *v)
{
	size_t mark = j->vals.len;

	if (jtext_json(&j->vals, v) == 0)
		jtext_obj_put(j, key, strlen(key), mark);
}

const char *jtext_obj_get(const struct jtext_obj *j, const char *key, size_t *len)
{
	size_t n = strlen(key);
	const struct jtext_ent *e = find(j, key, n, key_hash(key, n), NULL);

	if (!e)
		return NULL;
	*len = e->vlen;
	return j->vals.buf + e->val;
}

void jtext_obj_dump(const struct jtext_obj *j, struct strbuf *out)
{
	size_t i;

	strbuf_addch(out, '{');
	for (i = 0; i < j->n; i++) {
		const struct jtext_ent *e = &j->e[i];
		if (i)
			strbuf_addch(out, ',');
		jtext_str(out, j->keys.buf + e->key, e->klen);
		strbuf_addch(out, ':');
		strbuf_add(out, j->vals.buf + e->val, e->vlen);
	}
	strbuf_addch(out, '}');
}

void jtext_obj_add_json(struct jtext_obj *j, json_t *obj)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
		jtext_obj_set_json(j, key, v);
}

json_t *jtext_obj_value(const struct jtext_obj *j, const char *key)
{
	size_t n;
	const char *v = jtext_obj_get(j, key, &n);

	return v ? json_loadb(v, n, JSON_DECODE_ANY, NULL) : NULL;
}

/* ---- validity ---------------------------------------------------------- */

int jtext_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		unsigned c = *p, cp;
		size_t len, k;

		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			len = 1;
			cp = c & 0x1F;
		} else if (c >= 0xE0 && c <= 0xEF) {
			len = 2;
			cp = c & 0x0F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			len = 3;
			cp = c & 0x07;
		} else {
			return 0;
		}
		if ((size_t)(end - p) <= len)
			return 0;
		for (k = 1; k <= len; k++) {
			if ((p[k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (p[k] & 0x3F);
		}
		if ((len == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
		    (len == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
			return 0;
		p += len + 1;
	}
	return 1;
}

/* ---- the text of a jansson value ---------------------------------------- */

#define JTEXT_MAX_DEPTH 2048 /* jansson's parser allows no deeper nesting */

void ingest_jtext_init(struct ingest_jtext *c)
{
	memset(c, 0, sizeof(*c));
}

static void add_real(struct ingest_jtext *c, struct strbuf *out, double d)
{
	uint64_t bits;
	size_t slot, before = out->len, n;

	memcpy(&bits, &d, sizeof(bits));
	slot = (size_t)((bits * 0x9e3779b97f4a7c15ull) >> 56) % INGEST_JTEXT_REALS;
	if (c->real[slot].len && c->real[slot].bits == bits) {
		strbuf_add(out, c->real[slot].s, c->real[slot].len);
		return;
	}
	jtext_real(out, d);
	n = out->len - before;
	if (n > 0 && n < sizeof(c->real[slot].s)) {
		c->real[slot].bits = bits;
		c->real[slot].len = (unsigned char)n;
		memcpy(c->real[slot].s, out->buf + before, n);
	}
}

/* jansson fails on a string that is not UTF-8 (json_stringn_nocheck can
 * hold one); so does this */
static int add_string(struct strbuf *out, const char *s, size_t len)
{
	if (!jtext_utf8_valid(s, len))
		return -1;
	jtext_str(out, s, len);
	return 0;
}

static int add_value(struct ingest_jtext *c, struct strbuf *out, const json_t *v, int depth)
{
	size_t i;

	if (depth > JTEXT_MAX_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		void *it = json_object_iter((json_t *)v);

		strbuf_addch(out, '{');
		for (i = 0; it; i++, it = json_object_iter_next((json_t *)v, it)) {
			if (i)
				strbuf_addch(out, ',');
			if (add_string(out, json_object_iter_key(it), json_object_iter_key_len(it)) < 0)
				return -1;
			strbuf_addch(out, ':');
			if (add_value(c, out, json_object_iter_value(it), depth + 1) < 0)
				return -1;
		}
		strbuf_addch(out, '}');
		return 0;
	}
	case JSON_ARRAY:
		strbuf_addch(out, '[');
		for (i = 0; i < json_array_size(v); i++) {
			if (i)
				strbuf_addch(out, ',');
			if (add_value(c, out, json_array_get(v, i), depth + 1) < 0)
				return -1;
		}
		strbuf_addch(out, ']');
		return 0;
	case JSON_STRING:
		return add_string(out, json_string_value(v), json_string_length(v));
	case JSON_INTEGER:
		jtext_int(out, (long long)json_integer_value(v));
		return 0;
	case JSON_REAL:
		if (!isfinite(json_real_value(v)))
			return -1;
		add_real(c, out, json_real_value(v));
		return 0;
	case JSON_TRUE:
		strbuf_addstr(out, "true");
		return 0;
	case JSON_FALSE:
		strbuf_addstr(out, "false");
		return 0;
	case JSON_NULL:
		strbuf_addstr(out, "null");
		return 0;
	}
	return -1;
}

int ingest_jtext_add(struct ingest_jtext *c, struct strbuf *out, const json_t *v)
{
	/* json_dumps without JSON_ENCODE_ANY prints objects and arrays only */
	if (!v || (!json_is_object(v) && !json_is_array(v)))
		return -1;
	return add_value(c, out, v, 0);
}

char *ingest_jtext_dup(struct ingest_jtext *c, const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (ingest_jtext_add(c, &sb, v) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}
