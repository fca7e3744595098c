/*
 * json_text.c - compact JSON text equal to jansson's json_dumps(JSON_COMPACT
 * | JSON_ENSURE_ASCII), written straight into a strbuf (see json_text.h).
 * What is cheap to get exactly right is done here: objects, arrays,
 * integers, true/false/null and ASCII strings; a real's text comes from
 * jansson itself the first time its bits are met, and a string with bytes
 * beyond ASCII is printed by jansson too, so the output cannot drift from
 * jansson's rules.
 */
#include "core/compat.h"
#include "json_text.h"

#define JTEXT_MAX_DEPTH 2048 /* jansson's parser allows no deeper nesting */

void ingest_jtext_init(struct ingest_jtext *c)
{
	memset(c, 0, sizeof(*c));
}

/* jansson's text for a value we do not print ourselves; -1 when it fails */
static int via_jansson(struct strbuf *out, const json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);

	if (!s)
		return -1;
	strbuf_addstr(out, s);
	free(s);
	return 0;
}

static int add_real(struct ingest_jtext *c, struct strbuf *out, const json_t *v)
{
	double d = json_real_value(v);
	uint64_t bits;
	size_t slot, before = out->len, n;

	memcpy(&bits, &d, sizeof(bits));
	slot = (size_t)((bits * 0x9e3779b97f4a7c15ull) >> 56) % INGEST_JTEXT_REALS;
	if (c->real[slot].len && c->real[slot].bits == bits) {
		strbuf_add(out, c->real[slot].s, c->real[slot].len);
		return 0;
	}
	if (via_jansson(out, v) < 0)
		return -1;
	n = out->len - before;
	if (n > 0 && n < sizeof(c->real[slot].s)) {
		c->real[slot].bits = bits;
		c->real[slot].len = (unsigned char)n;
		memcpy(c->real[slot].s, out->buf + before, n);
	}
	return 0;
}

static void add_int(struct strbuf *out, json_int_t i)
{
	char buf[24];
	size_t n = sizeof(buf);
	/* the magnitude as unsigned: -INT64_MIN does not fit a json_int_t */
	unsigned long long v = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;

	do {
		buf[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (i < 0)
		buf[--n] = '-';
	strbuf_add(out, buf + n, sizeof(buf) - n);
}

/* A string as jansson quotes it: \" \\ \b \f \n \r \t, other controls as
 * \u00XX (upper-case hex).  Returns 1 when s has a byte beyond ASCII
 * (nothing appended: the caller lets jansson print it). */
static int add_ascii_string(struct strbuf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, start;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 1;
	strbuf_grow(out, len + 2);
	strbuf_addch(out, '"');
	for (i = start = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		char esc[6];
		size_t elen = 2;

		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		strbuf_add(out, s + start, i - start);
		start = i + 1;
		esc[0] = '\\';
		switch (ch) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[ch >> 4];
			esc[5] = hex[ch & 15];
			elen = 6;
		}
		strbuf_add(out, esc, elen);
	}
	strbuf_add(out, s + start, len - start);
	strbuf_addch(out, '"');
	return 0;
}

static int add_string(struct strbuf *out, const char *s, size_t len)
{
	json_t *tmp;
	int rc;

	if (!add_ascii_string(out, s, len))
		return 0;
	/* beyond ASCII: jansson checks the UTF-8 and writes \uXXXX (and
	 * surrogate pairs) itself; a string that is not UTF-8 fails there */
	tmp = json_stringn_nocheck(s, len);
	if (!tmp)
		return -1;
	rc = via_jansson(out, tmp);
	json_decref(tmp);
	return rc;
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
		add_int(out, json_integer_value(v));
		return 0;
	case JSON_REAL:
		return add_real(c, out, v);
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
