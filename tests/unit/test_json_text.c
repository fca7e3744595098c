/*
 * test_json_text.c - ingest/jtext.c (ingest_jtext_add) prints what
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) prints, but for reals in the
 * shortest form that reads back equal (issue 13; test_jtext.c checks each
 * real's bytes): hand-picked values (escapes, controls, non-ASCII,
 * surrogate pairs, integer limits, reals in every shape, nesting, insertion
 * order) and many pseudo-random documents, each printed twice so that cached
 * reals are checked too.  A document without reals is jansson's byte for
 * byte; with reals it reads back equal and is never longer.
 */
#include "unit.h"

#include "ingest/jtext.h"

#include <math.h>

static int has_real(json_t *v)
{
	const char *k;
	json_t *e;
	size_t i;

	if (json_is_real(v))
		return 1;
	if (json_is_object(v)) {
		json_object_foreach(v, k, e)
			if (has_real(e))
				return 1;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			if (has_real(e))
				return 1;
	}
	return 0;
}

static void check_same(struct ingest_jtext *c, json_t *v)
{
	char *want = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
	int pass;

	for (pass = 0; pass < 2; pass++) {
		char *got = ingest_jtext_dup(c, v);
		json_t *back;

		if (!want) {
			assert_null(got);
			continue;
		}
		assert_non_null(got);
		back = json_loads(got, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
		if (has_real(v) ? !back || !json_equal(back, v) || strlen(got) > strlen(want)
				: strcmp(want, got) != 0)
			fail_msg("jansson: %s\n   ours: %s", want, got);
		json_decref(back);
		free(got);
	}
	free(want);
}

static void test_fixed(void **state)
{
	static const double reals[] = { 0.0, -0.0, 1.0, -1.0, 0.1, 14.8, 1e21, 1e22, 1e-7,
					123456789012345678.0, 5e-324, 1.7976931348623157e308,
					-2.5e-300, 1579688119.6235445, 9.112610416666666, 100.0,
					3.0e15, 0.30000000000000004 };
	struct ingest_jtext c;
	json_t *o = json_object(), *a = json_array(), *deep = json_array(), *d;
	size_t i;

	(void)state;
	ingest_jtext_init(&c);
	for (i = 0; i < AB_ARRAY_SIZE(reals); i++)
		json_array_append_new(a, json_real(reals[i]));
	json_array_append_new(a, json_integer(0));
	json_array_append_new(a, json_integer(-1));
	json_array_append_new(a, json_integer(INT64_MAX));
	json_array_append_new(a, json_integer(INT64_MIN));
	json_array_append_new(a, json_true());
	json_array_append_new(a, json_false());
	json_array_append_new(a, json_null());
	json_array_append_new(a, json_string("quote \" backslash \\ slash / tab \t nl \n cr \r"));
	json_array_append_new(a, json_string("bell \a bs \b ff \f esc \x1b del \x7f"));
	json_array_append_new(a, json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 end"));
	json_array_append_new(a, json_stringn("nul\0inside", 10));
	json_array_append_new(a, json_string(""));
	json_array_append_new(a, json_object());
	json_array_append_new(a, json_array());
	/* insertion order, not sorted; keys needing escapes */
	json_object_set_new(o, "zeta", json_integer(1));
	json_object_set_new(o, "alpha", a);
	json_object_set_new(o, "k\"ey\n", json_string("v"));
	json_object_set_new(o, "\xc3\xbc" "ber", json_real(2.5));
	json_object_set_new(o, "empty", json_object());
	check_same(&c, o);
	check_same(&c, a);
	/* nested 100 deep */
	d = deep;
	for (i = 0; i < 100; i++) {
		json_t *n = json_array();
		json_array_append_new(d, n);
		d = n;
	}
	check_same(&c, deep);
	json_decref(o);
	json_decref(deep);
}

static void test_refusals(void **state)
{
	struct ingest_jtext c;
	struct strbuf sb = STRBUF_INIT;
	json_t *bad = json_object(), *s = json_string("x");

	(void)state;
	ingest_jtext_init(&c);
	/* not UTF-8 (nocheck lets it in): jansson refuses, so do we */
	json_object_set_new(bad, "k", json_stringn_nocheck("\xff\xfe", 2));
	assert_null(json_dumps(bad, JSON_COMPACT | JSON_ENSURE_ASCII));
	assert_null(ingest_jtext_dup(&c, bad));
	/* a bare string is not a document for json_dumps */
	assert_null(ingest_jtext_dup(&c, s));
	assert_int_equal(ingest_jtext_add(&c, &sb, s), -1);
	assert_null(ingest_jtext_dup(&c, NULL));
	json_decref(bad);
	json_decref(s);
	strbuf_release(&sb);
}

/* xorshift64*: deterministic pseudo-random documents */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545f4914f6cdd1dull;
}

static json_t *random_value(uint64_t *x, int depth)
{
	static const char *const pieces[] = { "a", "Z", " ", "\"", "\\", "/", "\n", "\x01",
					      "\x1f", "\xc3\xa9", "\xe2\x82\xac",
					      "\xf0\x9f\x98\x80", "nid001", "%", "{}" };
	unsigned k = (unsigned)(rnd(x) % (depth < 4 ? 9u : 6u));

	switch (k) {
	case 0: {
		double d;
		uint64_t bits = rnd(x);
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			d = (double)(int64_t)bits / 1e9;
		return json_real(d);
	}
	case 1:
		return json_real((double)(rnd(x) % 100000) / 100.0);
	case 2:
		return json_integer((json_int_t)rnd(x));
	case 3: {
		struct strbuf sb = STRBUF_INIT;
		json_t *s;
		unsigned n = (unsigned)(rnd(x) % 8), i;
		for (i = 0; i < n; i++)
			strbuf_addstr(&sb, pieces[rnd(x) % AB_ARRAY_SIZE(pieces)]);
		s = json_string(sb.buf);
		strbuf_release(&sb);
		return s;
	}
	case 4:
		return json_boolean(rnd(x) & 1);
	case 5:
		return json_null();
	case 6:
	case 7: {
		json_t *o = json_object();
		unsigned n = (unsigned)(rnd(x) % 5), i;
		for (i = 0; i < n; i++) {
			char key[16];
			snprintf(key, sizeof(key), "k%u", (unsigned)(rnd(x) % 50));
			json_object_set_new(o, key, random_value(x, depth + 1));
		}
		return o;
	}
	default: {
		json_t *a = json_array();
		unsigned n = (unsigned)(rnd(x) % 5), i;
		for (i = 0; i < n; i++)
			json_array_append_new(a, random_value(x, depth + 1));
		return a;
	}
	}
}

static void test_random(void **state)
{
	struct ingest_jtext c;
	uint64_t x = 0x1234567887654321ull;
	int i;

	(void)state;
	ingest_jtext_init(&c);
	for (i = 0; i < 3000; i++) {
		json_t *o = json_object();
		int j;
		for (j = 0; j < 6; j++) {
			char key[16];
			snprintf(key, sizeof(key), "p%d", (int)(rnd(&x) % 40));
			json_object_set_new(o, key, random_value(&x, 0));
		}
		check_same(&c, o);
		json_decref(o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
