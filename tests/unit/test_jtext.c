/*
 * test_jtext.c - ingest helpers made fast, checked against the plain
 * versions: fields_split, ingest_looks_binary, ingest_iso8601, and
 * ingest/jtext.c, which writes the bytes jansson's
 * json_dumps(JSON_COMPACT | JSON_ENSURE_ASCII) writes: strings (escapes,
 * UTF-8 to \u, surrogate pairs, NUL), integers, objects with keys set
 * twice; reals (many random doubles, integers, exponents, -0.0) as the
 * shortest of jansson's texts at 15, 16 and 17 digits that reads back
 * equal, never longer than its %.17g (issue 13).
 */
#include "unit.h"
#include "ingest/ingest_priv.h"

#include <limits.h>
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

/* What jansson prints for a real at 15, 16 and 17 significant digits
 * (JSON_REAL_PRECISION): the shortest text that reads back as v, the form
 * issue 13 asks for, in jansson's layout (".0", exponent without '+'). */
static char *jansson_shortest(double v)
{
	char *best = NULL;
	int prec;

	for (prec = 15; prec <= 17; prec++) {
		json_t *r = json_real(v);
		char *t = json_dumps(r, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(prec));

		json_decref(r);
		if (strtod(t, NULL) == v && (!best || strlen(t) < strlen(best))) {
			free(best);
			best = t;
		} else {
			free(t);
		}
	}
	return best;
}

static void same_real(double v)
{
	struct strbuf o = STRBUF_INIT;
	char *want = jansson_shortest(v), *full = jansson_dump(json_real(v));

	jtext_real(&o, v);
	if (strcmp(o.buf, want))
		fail_msg("%.17g: jtext '%s', shortest '%s'", v, o.buf, want);
	/* reads back equal, never longer than %.17g */
	if (strtod(o.buf, NULL) != v || o.len > strlen(full))
		fail_msg("%.17g: jtext '%s', %%.17g '%s'", v, o.buf, full);
	free(want);
	free(full);
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

/* Every byte that needs escaping, at every position of strings long enough
 * for the 16- and 8-byte scans (and their tails) to meet it. */
static void test_strings_long(void **state)
{
	static const char *const specials[] = { "\"", "\\", "\n", "\x01", "\x1f", "\x7f",
						"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80" };
	char buf[80];
	size_t len, pos, k;

	(void)state;
	for (len = 0; len < 50; len++) {
		memset(buf, 'a' + (int)(len % 26), len);
		same_str(buf, len);
		for (pos = 0; pos < len; pos++) {
			for (k = 0; k < AB_ARRAY_SIZE(specials); k++) {
				size_t sl = strlen(specials[k]);
				memset(buf, 'x', len + sl);
				memcpy(buf + pos, specials[k], sl);
				same_str(buf, len + sl);
			}
		}
	}
}

static void test_numbers(void **state)
{
	static const double fixed[] = {
		0.0, -0.0, 1.0, -1.0, 14.8, 0.1, -0.1, 1e22, 1e-5, 1e-300, 1.7976931348623157e308,
		4.9e-324, 123456789012345678.0, 9007199254740992.0, 9007199254740993.0,
		1579688119.6235445, 2.5e15, 1e16, 1e17, 3.0e-7, 200000.0, 13.32, 11.700000000000001,
		/* the 128-bit path's edges: ties at the 17th digit (to even), the
		 * bounds of its range (1e-4, 2^53), rounding up to a power of ten */
		562949953421312.125, 562949953421312.375, 1125899906842624.25,
		1e-4, 0.000099999999999999991, 0.00010000000000000001, 0.0001234,
		0.99999999999999989, 0.99999999999999994, 9.9999999999999982, 99999.999999999985,
		9007199254740991.5, 4503599627370495.5, 0.1, 0.2, 0.30000000000000004, 235.17,
		-235.17, 232.9, 1.5, -0.5, 0.000123456789012345678, 1234567.8901234567
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
		/* decimals as tables print them, at every scale the fast path takes */
		same_real((double)(int64_t)(x % 200000001 - 100000000) / 100.0 *
			  pow(10.0, (double)((int)(x >> 40) % 24 - 8)));
		/* doubles next to each other: the exact digits differ in the 17th */
		same_real(nextafter(1e-4 * (double)(x % 1000 + 1), 1e300));
	}
	for (i = 0; i < AB_ARRAY_SIZE(ints); i++) {
		struct strbuf o = STRBUF_INIT;
		char *want = jansson_dump(json_integer(ints[i]));
		jtext_int(&o, ints[i]);
		assert_string_equal(o.buf, want);
		free(want);
		strbuf_release(&o);
	}
	{	/* jtext_int, two digits at a time, against printf: every value
		 * to 100,000, each power of ten and its neighbours, random
		 * 64-bit values, both signs */
		struct strbuf o = STRBUF_INIT;
		char want[32];
		long long p = 1, v;
		int k, sign;

		for (i = 0; i < 300000; i++) {
			if (i <= 100000) {
				v = (long long)i;
			} else {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				v = (long long)(x >> (x % 64));
			}
			for (sign = 0; sign < 2; sign++, v = v == LLONG_MIN ? v : -v) {
				strbuf_reset(&o);
				jtext_int(&o, v);
				snprintf(want, sizeof(want), "%lld", v);
				assert_string_equal(o.buf, want);
			}
		}
		for (k = 0; k < 19; k++) {
			if (k)
				p *= 10; /* 10^k, to 10^18 */
			for (v = p - 1; v <= p + 1; v++) {
				strbuf_reset(&o);
				jtext_int(&o, -v);
				snprintf(want, sizeof(want), "%lld", -v);
				assert_string_equal(o.buf, want);
				strbuf_reset(&o);
				jtext_int(&o, v);
				snprintf(want, sizeof(want), "%lld", v);
				assert_string_equal(o.buf, want);
			}
		}
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
		/* reals in their shortest form: 14.8 and 2.5 take 15 digits */
		w = json_dumps(want, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15));
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

/* Record after record (the key dictionary kept across clear()): the same
 * keys, the same keys in another order, keys set twice, keys that need
 * escaping, and more keys than the dictionary keeps (it is dropped). */
static void test_objects_records(void **state)
{
	struct jtext_obj j;
	struct strbuf o = STRBUF_INIT;
	json_t *want = json_object();
	uint64_t x = 88172645463325252ULL;
	size_t r, i, n, n2;
	char *w;
	/* keys looked up by reference: present at once, later, and never */
	struct jtext_keyref refs[4];
	static const char *const rk[4] = { "key_0", "key_65", "key_13014", "never" };

	(void)state;
	memset(refs, 0, sizeof(refs));
	for (i = 0; i < 4; i++) {
		refs[i].key = rk[i];
		refs[i].klen = strlen(rk[i]);
	}
	jtext_obj_init(&j);
	for (r = 0; r < 3000; r++) {
		size_t nk;
		jtext_obj_clear(&j);
		json_object_clear(want);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		nk = 1 + x % 12;
		for (i = 0; i < nk; i++) {
			char k[32];
			const char *v;
			/* mostly the same keys in the same order, sometimes shuffled,
			 * sometimes new ones (thousands in all), some with escapes */
			size_t id = (r % 7 == 3) ? (nk - 1 - i) : (r % 4 == 1) ? (r * 13 + i) : i;
			snprintf(k, sizeof(k), (id % 5 == 4) ? "k\"%zu\xc3\xa9" : "key_%zu", id);
			jtext_obj_set_int(&j, k, (long long)(r + i));
			json_object_set_new(want, k, json_integer((json_int_t)(r + i)));
			if (x % 9 == i) { /* set again: replaced in place */
				jtext_obj_set_str(&j, k, "again", 5);
				json_object_set_new(want, k, json_string("again"));
			}
			v = jtext_obj_get(&j, k, &n);
			assert_non_null(v);
		}
		assert_null(jtext_obj_get(&j, "absent", &n));
		for (i = 0; i < 4; i++) {
			const char *a = jtext_obj_get(&j, rk[i], &n), *b = jtext_obj_get_ref(&j, &refs[i], &n2);
			assert_ptr_equal(a, b);
			if (a)
				assert_int_equal(n, n2);
		}
		strbuf_reset(&o);
		jtext_obj_dump(&j, &o);
		w = json_dumps(want, JSON_COMPACT | JSON_ENSURE_ASCII);
		assert_string_equal(o.buf, w);
		free(w);
	}
	jtext_obj_release(&j);
	json_decref(want);
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

/* ingest_looks_binary's word-at-a-time scan against the plain rule */
static void test_looks_binary(void **state)
{
	unsigned char buf[300];
	uint64_t x = 99991ULL;
	size_t i, k;

	(void)state;
	for (i = 0; i < 20000; i++) {
		size_t len = i % 300, ctrl = 0;
		int want = 0;

		for (k = 0; k < len; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly text, some control bytes, rarely NUL, some bytes >= 0x80 */
			buf[k] = (x % 16 == 0) ? (unsigned char)(1 + (x >> 8) % 31)
				 : (x % 997 == 0) ? 0 : (unsigned char)(0x20 + (x >> 8) % 0xe0);
			if (!buf[k])
				want = 1;
			else if (buf[k] < 0x20 && !strchr("\n\r\t\f\x1b", buf[k]))
				ctrl++;
		}
		if (!want)
			want = len && ctrl * 20 > len;
		assert_int_equal(ingest_looks_binary(buf, len), want);
	}
}

/* The splitter as it was (one strbuf_addch per byte), for comparison. */
static void ref_split(struct strbuf *out, const char *line, size_t len, char sep, unsigned flags)
{
	size_t i = 0;
	struct strbuf f = STRBUF_INIT;

	for (;;) {
		strbuf_reset(&f);
		if (flags & FIELDS_TRIM)
			while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
				i++;
		if ((flags & FIELDS_QUOTED) && i < len && line[i] == '"') {
			for (i++; i < len; i++) {
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						strbuf_addch(&f, '"');
						i++;
						continue;
					}
					i++;
					break;
				}
				strbuf_addch(&f, line[i]);
			}
			while (i < len && line[i] != sep)
				strbuf_addch(&f, line[i++]);
		} else {
			while (i < len && line[i] != sep)
				strbuf_addch(&f, line[i++]);
		}
		if (flags & FIELDS_TRIM)
			while (f.len && (f.buf[f.len - 1] == ' ' || f.buf[f.len - 1] == '\t' ||
					 f.buf[f.len - 1] == '\r'))
				strbuf_setlen(&f, f.len - 1);
		strbuf_addf(out, "[%s]", f.buf);
		if (i >= len)
			break;
		i++;
	}
	strbuf_release(&f);
}

static void test_fields_split(void **state)
{
	static const char alphabet[] = "ab ,\"\t\r|x";
	struct fields fl;
	char line[64];
	uint64_t x = 7ULL;
	size_t i, k;

	(void)state;
	fields_init(&fl);
	for (i = 0; i < 40000; i++) {
		struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
		size_t len = i % 40;
		unsigned flags = (unsigned)(i % 4);
		char sep = (i / 4) % 2 ? ',' : '|';

		for (k = 0; k < len; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			line[k] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		ref_split(&want, line, len, sep, flags);
		fields_split(&fl, line, len, sep, flags);
		for (k = 0; k < fl.n; k++) {
			assert_int_equal(strlen(fl.v[k]), fl.len[k]);
			strbuf_addf(&got, "[%s]", fl.v[k]);
		}
		assert_string_equal(got.buf, want.buf);
		strbuf_release(&want);
		strbuf_release(&got);
	}
	fields_release(&fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_strings_long),
		cmocka_unit_test(test_objects_records),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_iso8601),
		cmocka_unit_test(test_looks_binary),
		cmocka_unit_test(test_fields_split),
	};
	return cmocka_run_group_tests_name("jtext", tests, NULL, NULL);
}
