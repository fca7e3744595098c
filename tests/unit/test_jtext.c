/*
 * test_jtext.c - ingest/jtext.c writes the bytes jansson's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes: strings (escapes,
 * UTF-8 to \u, surrogate pairs, NUL), integers, reals (many random
 * doubles, integers, exponents, -0.0), objects with keys set twice.
 */
#include "unit.h"
#include "ingest/ingest_priv.h"

#include <math.h>
#include <time.h>

static char *jansson_dump(json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);

	json_decref(v);
	return s;
}

static void same_str(const char *s, size_t n)
{
	struct strbuf o = STRBUF_INIT;
	char *want = jansson_dump(json_stringn(s, n));

	assert_non_null(want);
	jtext_str(&o, s, n);
	assert_string_equal(o.buf, want);
	free(want);
	strbuf_release(&o);
}

static void same_real(double v)
{
	struct strbuf o = STRBUF_INIT;
	char *want = jansson_dump(json_real(v));

	jtext_real(&o, v);
	if (strcmp(o.buf, want))
		fail_msg("%.17g: jtext '%s', jansson '%s'", v, o.buf, want);
	free(want);
	strbuf_release(&o);
}

static void test_strings(void **state)
{
	static const char *const cases[] = {
		"", "plain", "quote\" back\\ slash/", "\b\f\n\r\t\x01\x1f\x7f",
		"caf\xc3\xa9", "\xe2\x82\xac euro", "\xf0\x9f\x98\x80 emoji", "\xf4\x8f\xbf\xbf",
		"{\"a\": 1}", "<undefined>"
	};
	size_t i;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(cases); i++)
		same_str(cases[i], strlen(cases[i]));
	same_str("a\0b", 3);
}

static void test_numbers(void **state)
{
	static const double fixed[] = {
		0.0, -0.0, 1.0, -1.0, 14.8, 0.1, -0.1, 1e22, 1e-5, 1e-300, 1.7976931348623157e308,
		4.9e-324, 123456789012345678.0, 9007199254740992.0, 9007199254740993.0,
		1579688119.6235445, 2.5e15, 1e16, 1e17, 3.0e-7, 200000.0, 13.32, 11.700000000000001
	};
	static const long long ints[] = { 0, 1, -1, 42, -9223372036854775807LL - 1,
					  9223372036854775807LL, 1000000 };
	uint64_t x = 88172645463325252ULL;
	size_t i;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(fixed); i++)
		same_real(fixed[i]);
	for (i = 0; i < 20000; i++) {
		double d;
		/* xorshift: random bit patterns (finite ones), then decimal-ish values */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&d, &x, sizeof(d));
		if (isfinite(d))
			same_real(d);
		same_real((double)(x % 100000) / 100.0);
		same_real((double)(int64_t)(x % 2000000001) - 1e9);
	}
	for (i = 0; i < AB_ARRAY_SIZE(ints); i++) {
		struct strbuf o = STRBUF_INIT;
		char *want = jansson_dump(json_integer(ints[i]));
		jtext_int(&o, ints[i]);
		assert_string_equal(o.buf, want);
		free(want);
		strbuf_release(&o);
	}
}

static void test_objects(void **state)
{
	struct jtext_obj j;
	struct strbuf o = STRBUF_INIT;
	json_t *want = json_object(), *nested = json_pack("{s:[i,f,s], s:n}", "a", 1, 2.5, "x", "b");
	char *w;
	size_t n, i;
	const char *v;

	(void)state;
	jtext_obj_init(&j);
	for (i = 0; i < 2; i++) { /* the second round reuses cleared buffers */
		jtext_obj_clear(&j);
		json_object_clear(want);
		jtext_obj_set_str(&j, "name", "Stream \xc3\xa9", 9);
		json_object_set_new(want, "name", json_string("Stream \xc3\xa9"));
		jtext_obj_set_int(&j, "num_tasks", 128);
		json_object_set_new(want, "num_tasks", json_integer(128));
		jtext_obj_set_real(&j, "ref", 14.8);
		json_object_set_new(want, "ref", json_real(14.8));
		jtext_obj_set_json(&j, "nested", nested);
		json_object_set(want, "nested", nested);
		jtext_obj_set_raw(&j, "flag", "true", 4);
		json_object_set_new(want, "flag", json_true());
		jtext_obj_set_str(&j, "name", "again", 5); /* replaced in place */
		json_object_set_new(want, "name", json_string("again"));
		jtext_obj_set_json(&j, "missing", NULL);
		strbuf_reset(&o);
		jtext_obj_dump(&j, &o);
		w = json_dumps(want, JSON_COMPACT | JSON_ENSURE_ASCII);
		assert_string_equal(o.buf, w);
		free(w);
	}
	v = jtext_obj_get(&j, "num_tasks", &n);
	assert_non_null(v);
	assert_int_equal(n, 3);
	assert_memory_equal(v, "128", 3);
	assert_null(jtext_obj_get(&j, "nope", &n));
	/* many keys: the index grows */
	jtext_obj_clear(&j);
	json_object_clear(want);
	for (i = 0; i < 300; i++) {
		char k[16];
		snprintf(k, sizeof(k), "k%zu", i % 200);
		jtext_obj_set_int(&j, k, (long long)i);
		json_object_set_new(want, k, json_integer((json_int_t)i));
	}
	strbuf_reset(&o);
	jtext_obj_dump(&j, &o);
	w = json_dumps(want, JSON_COMPACT | JSON_ENSURE_ASCII);
	assert_string_equal(o.buf, w);
	free(w);
	jtext_obj_release(&j);
	json_decref(want);
	json_decref(nested);
	strbuf_release(&o);
}

/* ingest_iso8601's own calendar arithmetic against gmtime/strftime */
static void test_iso8601(void **state)
{
	uint64_t x = 2463534242ULL;
	size_t i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		struct strbuf got = STRBUF_INIT, want = STRBUF_INIT;
		double e;
		time_t secs;
		struct tm tm;
		char buf[64];
		int ms;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		e = (double)(x % 253402300800ULL) + (double)(x % 1000) / 1000.0 * (i & 1);
		if (i < 4)
			e = (double[]){ 0.0, 951782400.0, 253402300799.9996, 1579688119.6235445 }[i];
		ingest_iso8601(&got, e);
		secs = (time_t)floor(e);
		ms = (int)lround((e - (double)secs) * 1000.0);
		if (ms == 1000) {
			secs++;
			ms = 0;
		}
		assert_non_null(gmtime_r(&secs, &tm));
		assert_true(strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm) > 0);
		strbuf_addstr(&want, buf);
		if (ms)
			strbuf_addf(&want, ".%03d", ms);
		strbuf_addch(&want, 'Z');
		assert_string_equal(got.buf, want.buf);
		strbuf_release(&got);
		strbuf_release(&want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_iso8601),
	};
	return cmocka_run_group_tests_name("jtext", tests, NULL, NULL);
}
