/*
 * test_mlperf.c - the :::MLLOG reader and JSON scanner (Python json.loads
 * semantics), the official training score and energy score, and the
 * inference headline metrics.  Sample-based tests assert every expected
 * number of ../shared/samples/mlperf/README.txt (1e-9 relative) and skip
 * when the samples are absent.
 */
#include "unit.h"
#include "ingest/mlperf_priv.h"
#include "model/mlperf_score.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- JSON scanner ------------------------------------------------------ */

static int parses(const char *text)
{
	struct strbuf why = STRBUF_INIT;
	struct jspan v;
	int rc = jspan_parse(text, strlen(text), 0, &v, &why);

	strbuf_release(&why);
	return rc == 0;
}

/*
 * Strings are scanned 8 bytes at a time: every kind of byte at every
 * position of strings up to 40 bytes long gives what the byte-by-byte
 * rule gives (controls below 0x20 rejected at their own column, '"', '\\'
 * escapes, DEL and latin-1 bytes accepted).
 */
static void test_json_string_bytes(void **state)
{
	static const struct { const char *ins; int ok; } kinds[] = {
		{ "\t", 0 }, { "\x01", 0 }, { "\x1f", 0 }, { " ", 1 }, { "!", 1 }, { "#", 1 },
		{ "[", 1 }, { "]", 1 }, { "\x7f", 1 }, { "\x80", 1 }, { "\xdc", 1 },
		{ "\xa2", 1 }, { "\xff", 1 }, { "\\\"", 1 }, { "\\\\", 1 }, { "\\u00e9", 1 },
		{ "\\x", 0 }, { "\"", 0 },
	};
	struct strbuf t = STRBUF_INIT, why = STRBUF_INIT, want = STRBUF_INIT;
	size_t len, pos, k;
	struct jspan v;

	(void)state;
	for (len = 0; len <= 40; len++)
		for (pos = 0; pos <= len; pos++)
			for (k = 0; k < AB_ARRAY_SIZE(kinds); k++) {
				int rc;
				strbuf_reset(&t);
				strbuf_addch(&t, '"');
				strbuf_addchars(&t, 'a', pos);
				strbuf_addstr(&t, kinds[k].ins);
				strbuf_addchars(&t, 'b', len - pos);
				strbuf_addch(&t, '"');
				rc = jspan_parse(t.buf, t.len, 0, &v, &why);
				if (kinds[k].ok) {
					assert_int_equal(rc, 0);
					assert_int_equal(v.n, t.len);
				} else {
					assert_int_equal(rc, -1);
				}
				if ((unsigned char)kinds[k].ins[0] < 0x20) { /* the control's own column */
					strbuf_reset(&want);
					strbuf_addf(&want, "invalid control character in string at column %zu",
						    pos + 2);
					assert_string_equal(why.buf, want.buf);
				}
			}
	strbuf_release(&t);
	strbuf_release(&why);
	strbuf_release(&want);
}

static void test_json_scanner(void **state)
{
	struct strbuf why = STRBUF_INIT, s = STRBUF_INIT, txt = STRBUF_INIT;
	struct jspan v, m;
	double d;
	long long ll;
	json_t *j;
	char *dump;

	(void)state;
	/* what Python's json.loads accepts */
	assert_true(parses("{\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}}"));
	assert_true(parses(" NaN "));
	assert_true(parses("[Infinity, -Infinity, 10688027786191513374]"));
	assert_true(parses("\"lone \\ud800 surrogate\""));
	assert_true(parses("\"latin-1 \xe9\xff bytes\""));
	assert_true(parses("{\"k\": 1, \"k\": 2}"));
	assert_true(parses("0"));
	assert_true(parses("-0.0E+5"));
	/* and what it rejects */
	assert_false(parses("{\"value\": nullLambdaorkspace}"));
	assert_false(parses("[1,]"));
	assert_false(parses("{\"a\":1,}"));
	assert_false(parses("01"));
	assert_false(parses("1."));
	assert_false(parses(".5"));
	assert_false(parses("\"tab\tinside\""));
	assert_false(parses("\"bad \\x escape\""));
	assert_false(parses("\"\\u12\""));
	assert_false(parses("{'a': 1}"));
	assert_false(parses("nan"));
	assert_false(parses("\"unterminated"));
	assert_false(parses("{} {}"));
	assert_false(parses(""));
	/* error position */
	assert_int_equal(jspan_parse("{\"a\": nul}", 10, 5, &v, &why), -1);
	assert_string_equal(why.buf, "expecting value at column 12");
	assert_int_equal(jspan_parse("[1 2]", 5, 0, &v, &why), -1);
	assert_string_equal(why.buf, "expecting ',' delimiter at column 4");

	/* decoding */
	strbuf_setstr(&txt, "{\"status\": \"ab\", \"n\": 3, \"status\": \"s\\u00e9\\n\"}");
	assert_int_equal(jspan_parse(txt.buf, txt.len, 0, &v, &why), 0);
	assert_true(jspan_get(v, "status", &m));
	strbuf_reset(&s);
	assert_int_equal(jspan_str(m, &s), 0);
	assert_string_equal(s.buf, "s\xc3\xa9\n"); /* last duplicate wins */
	assert_true(jspan_get(v, "n", &m));
	assert_true(jspan_ll(m, &ll));
	assert_int_equal(ll, 3);
	assert_false(jspan_get(v, "missing", &m));
	{ /* several keys in one walk: the same answers */
		static const char *const keys[] = { "n", "status", "missing" };
		struct jspan many[3], one;
		int found[3];
		jspan_get_many(v, keys, 3, many, found);
		assert_int_equal(found[0], 1);
		assert_int_equal(found[1], 1);
		assert_int_equal(found[2], 0);
		assert_true(jspan_get(v, "status", &one));
		assert_ptr_equal(many[1].p, one.p);
		assert_int_equal(many[1].n, one.n);
		assert_true(jspan_get(v, "n", &one));
		assert_ptr_equal(many[0].p, one.p);
	}
	assert_int_equal(jspan_parse("\"\\ud83d\\ude00\xe9\"", 15, 0, &v, &why), 0);
	strbuf_reset(&s);
	jspan_str(v, &s);
	assert_string_equal(s.buf, "\xf0\x9f\x98\x80\xc3\xa9");
	assert_int_equal(jspan_parse("\"r\\u0075n\"", 10, 0, &v, &why), 0);
	assert_true(jspan_str_is(v, "run"));
	assert_false(jspan_str_is(v, "ru"));
	assert_int_equal(jspan_parse("\"12.5\"", 6, 0, &v, &why), 0);
	assert_int_equal(jspan_num(v, &d), 0);
	assert_true(d == 12.5);
	assert_int_equal(jspan_parse("1e999", 5, 0, &v, &why), 0);
	assert_int_equal(jspan_num(v, &d), 0);
	assert_true(isinf(d));
	/* an integer beyond double: Python's float() raises */
	strbuf_reset(&s);
	strbuf_addchars(&s, '9', 400);
	assert_int_equal(jspan_parse(s.buf, s.len, 0, &v, &why), 0);
	assert_int_equal(jspan_num(v, &d), -1);
	/* to jansson: integers beyond int64 keep their digits as text, NaN null */
	assert_int_equal(jspan_parse("[10688027786191513374, NaN, {\"a\": \"\\u0000\"}]", 44, 0,
				     &v, &why), 0);
	j = jspan_json(v);
	dump = json_dumps(j, JSON_COMPACT);
	assert_string_equal(dump, "[\"10688027786191513374\",null,{\"a\":\"\\u0000\"}]");
	free(dump);
	json_decref(j);
	strbuf_release(&why);
	strbuf_release(&s);
	strbuf_release(&txt);
}

/*
 * Records in mlperf_logging's own shape take a fast path (member names
 * matched as text); the same record changed in any way takes the general
 * loop.  Both must give what the general loop gives: values, the last of
 * duplicate members, errors at their column.
 */
#define STD_HEAD "{\"namespace\": \"\", \"time_ms\": 1728769362845, \"event_type\": " \
		 "\"POINT_IN_TIME\", \"key\": "
#define STD_TAIL ", \"value\": null, \"metadata\": {\"file\": \"train.py\", \"lineno\": 1}"

/* why[0]: the message; why[1], why[2]: the parser's key and scratch buffers */
static int record(const char *text, struct mllog_rec *rec, struct strbuf *why)
{
	memset(rec, 0, sizeof(*rec));
	return mllog_parse_record(text, strlen(text), 0, rec, &why[1], &why[2], &why[0]);
}

static void assert_key(const struct mllog_rec *rec, const char *key)
{
	assert_int_equal(rec->key_len, strlen(key));
	assert_memory_equal(rec->key, key, strlen(key));
}

static void assert_span(struct jspan v, const char *text)
{
	assert_int_equal(v.n, strlen(text));
	assert_memory_equal(v.p, text, v.n);
}

static void test_record_shapes(void **state)
{
	struct strbuf w[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }, want = STRBUF_INIT;
	struct strbuf *why = w;
	struct mllog_rec rec;
	const char *t;
	int i;

	(void)state;
	assert_int_equal(record(STD_HEAD "\"run_start\"" STD_TAIL "}", &rec, why), 1);
	assert_key(&rec, "run_start");
	assert_true(rec.time_ms == 1728769362845.0);
	assert_span(rec.value, "null");
	assert_span(rec.metadata, "{\"file\": \"train.py\", \"lineno\": 1}");
	assert_span(rec.event_type, "\"POINT_IN_TIME\"");
	assert_span(rec.ns, "\"\"");
	/* trailing JSON white space */
	assert_int_equal(record(STD_HEAD "\"a\"" STD_TAIL "} \t\r", &rec, why), 1);
	assert_key(&rec, "a");
	/* a member more: the last duplicate wins */
	assert_int_equal(record(STD_HEAD "\"a\"" STD_TAIL ", \"key\": \"b\"}", &rec, why), 1);
	assert_key(&rec, "b");
	/* an escaped key, a time as a string */
	assert_int_equal(record("{\"namespace\": \"\", \"time_ms\": \"12\", \"event_type\": "
				"\"INTERVAL_END\", \"key\": \"r\\u0075n_stop\"" STD_TAIL "}",
				&rec, why), 1);
	assert_key(&rec, "run_stop");
	assert_true(rec.time_ms == 12.0);
	/* another order and spacing */
	assert_int_equal(record("{\"key\":\"c\",\"value\":1,\"metadata\":{},\"time_ms\":3}", &rec,
				why), 1);
	assert_key(&rec, "c");
	assert_true(rec.time_ms == 3.0);
	/* errors, at their column */
	t = STD_HEAD "\"a\"" STD_TAIL "} x";
	assert_int_equal(record(t, &rec, why), 0);
	strbuf_addf(&want, "extra data at column %zu", strlen(t));
	assert_string_equal(why->buf, want.buf);
	t = STD_HEAD "\"a\", \"value\": tru, \"metadata\": {}}";
	assert_int_equal(record(t, &rec, why), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "expecting value at column %zu", (size_t)(strstr(t, "tru") - t) + 1);
	assert_string_equal(why->buf, want.buf);
	t = STD_HEAD "\"a\", \"value\": 1, \"metadata\": {\"file\" 1}}";
	assert_int_equal(record(t, &rec, why), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "expecting ':' delimiter at column %zu", (size_t)(strstr(t, " 1}}") - t) + 2);
	assert_string_equal(why->buf, want.buf);
	assert_int_equal(record(STD_HEAD "\"a\", \"value\": 1}", &rec, why), 0);
	assert_string_equal(why->buf, "no \"metadata\" in the record");
	t = STD_HEAD "\"a\"" STD_TAIL;
	assert_int_equal(record(t, &rec, why), 0);
	strbuf_reset(&want);
	strbuf_addf(&want, "expecting ',' delimiter at column %zu", strlen(t) + 1);
	assert_string_equal(why->buf, want.buf);
	for (i = 0; i < 3; i++)
		strbuf_release(&w[i]);
	strbuf_release(&want);
}

/* The fast path scans values itself (strings without escapes, integers
 * inline): whatever a value or time is, a record in the fast shape gives
 * what the same record with a member more (the general loop) gives. */
/* The ingest's memo of JSON files: a hit while the file is unchanged, a
 * miss (so the parser loads it again) once it changed. */
static void test_memo_json(void **state)
{
	char dir[] = "/tmp/ab-mlperf-XXXXXX";
	struct ingest_file f;
	struct strbuf p = STRBUF_INIT;
	const char *text = NULL;
	json_t *j, *got;
	FILE *fp;

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&p, "%s/sys.json", dir);
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	fputs("{\"b\": 1, \"a\": 2.5}", fp);
	assert_int_equal(fclose(fp), 0);
	j = json_pack("{s:i, s:f}", "b", 1, "a", 2.5);
	/* no memo: nothing kept */
	assert_null(ingest_memo_json_put(&f, p.buf, j));
	assert_null(ingest_memo_json(&f, p.buf, &text));
	f.memo = ingest_memo_new();
	assert_null(ingest_memo_json(&f, p.buf, &text));
	assert_string_equal(ingest_memo_json_put(&f, p.buf, j), "{\"b\":1,\"a\":2.5}");
	got = ingest_memo_json(&f, p.buf, &text);
	assert_ptr_equal(got, j);
	assert_string_equal(text, "{\"b\":1,\"a\":2.5}");
	json_decref(got);
	/* rewritten with another size: not the remembered file any more */
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	fputs("{\"b\": 12}", fp);
	assert_int_equal(fclose(fp), 0);
	assert_null(ingest_memo_json(&f, p.buf, &text));
	assert_null(text);
	/* gone */
	unlink(p.buf);
	assert_null(ingest_memo_json(&f, p.buf, &text));
	ingest_memo_free(f.memo);
	json_decref(j);
	rmdir(dir);
	strbuf_release(&p);
}

/*
 * jspan_text writes params directly: for every kind of value it must give
 * the bytes of jspan_json's value as jtext_json prints it (the text params
 * had when they were built as jansson objects and dumped).
 */
static void test_span_text(void **state)
{
	static const char *const values[] = {
		"null", "true", "false", "0", "-0", "1", "-1", "42", "9223372036854775807",
		"-9223372036854775808", "9223372036854775808", "-9223372036854775809",
		"10688027786191513374", "1.5", "-0.0", "235.17", "0.1", "2.936000", "1e5",
		"1E-7", "-2.5e+3", "1e400", "-1e400", "NaN", "Infinity", "-Infinity",
		"12345678901234567890.5", "1.7976931348623157e308", "5e-324", "\"\"", "\"abc\"",
		"\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "\"\\u00e9\"", "\"x\\u0000y\"", "\"\\ud800\"",
		"\"\\udc00x\"", "\"\\ud83d\\ude00\"", "\"\\uD83D\"", "\"\xe9t\xe9\"", "\"\x7f~\"",
		"\"0.75\"", "[]", "{}", "[1, 2.5, \"x\", null, true, [[]]]",
		"{\"a\": 1, \"a\": 2.50, \"b\": {\"c\": NaN}}", "{\"\xe9\": \"\\u00e9\"}",
		"{\"k\\u0000\": [1e400, 10688027786191513374]}",
	};
	struct strbuf why = STRBUF_INIT, got = STRBUF_INIT, want = STRBUF_INIT;
	struct jspan v;
	size_t i;
	json_t *j;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(values); i++) {
		assert_int_equal(jspan_parse(values[i], strlen(values[i]), 0, &v, &why), 0);
		strbuf_setstr(&got, "x");
		jspan_text(v, &got);
		j = jspan_json(v);
		assert_non_null(j);
		strbuf_setstr(&want, "x");
		assert_int_equal(jtext_json(&want, j), 0);
		json_decref(j);
		assert_string_equal(got.buf, want.buf);
	}
	/* and a few spelled out: shortest reals, digits kept, \u escapes */
	assert_int_equal(jspan_parse("235.17", 6, 0, &v, &why), 0);
	strbuf_reset(&got);
	jspan_text(v, &got);
	assert_string_equal(got.buf, "235.17");
	assert_int_equal(jspan_parse("\"\xe9\\u0000\"", 9, 0, &v, &why), 0);
	strbuf_reset(&got);
	jspan_text(v, &got);
	assert_string_equal(got.buf, "\"\\u00E9\\u0000\"");
	assert_int_equal(jspan_parse("-99999999999999999999", 21, 0, &v, &why), 0);
	strbuf_reset(&got);
	jspan_text(v, &got);
	assert_string_equal(got.buf, "\"-99999999999999999999\"");
	strbuf_release(&why);
	strbuf_release(&got);
	strbuf_release(&want);
}

/* A copy of c's templates' contents (to tell a match from a rebuild). */
static void tpl_snap(const struct mllog_tpls *c, struct strbuf *snap)
{
	int i;

	for (i = 0; i < MLLOG_TPLS; i++) {
		strbuf_reset(&snap[i]);
		if (c->t[i].len) {
			strbuf_add(&snap[i], c->t[i].lo, c->t[i].len);
			strbuf_add(&snap[i], c->t[i].rng, c->t[i].len);
		}
	}
}

/* 1 when the last mllog_parse_record_tpl() call matched a template: one
 * stamped with the cache's clock whose contents did not change */
static int tpl_hit(const struct mllog_tpls *c, const struct strbuf *snap)
{
	int i;

	for (i = 0; i < MLLOG_TPLS; i++)
		if (c->t[i].len && c->t[i].used == c->clock && snap[i].len == 2 * c->t[i].len &&
		    !memcmp(snap[i].buf, c->t[i].lo, c->t[i].len) &&
		    !memcmp(snap[i].buf + c->t[i].len, c->t[i].rng, c->t[i].len))
			return 1;
	return 0;
}

/* text through a template cache and through the parser alone: the same
 * result (ok, message, time bits, key, every span at the same offset);
 * returns whether a template matched */
static int tpl_same(struct mllog_tpls *c, const char *text, size_t len, struct strbuf *snap)
{
	struct strbuf w1[3], w2[3];
	struct mllog_rec r1, r2;
	int a, b, hit, i;

	for (i = 0; i < 3; i++) {
		strbuf_init(&w1[i], 0);
		strbuf_init(&w2[i], 0);
	}
	tpl_snap(c, snap);
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	a = mllog_parse_record_tpl(c, text, len, 3, &r1, &w1[1], &w1[2], &w1[0]);
	hit = tpl_hit(c, snap);
	b = mllog_parse_record(text, len, 3, &r2, &w2[1], &w2[2], &w2[0]);
	assert_int_equal(a, b);
	if (!a) {
		assert_false(hit);
		assert_string_equal(w1[0].buf, w2[0].buf);
	} else {
		assert_memory_equal(&r1.time_ms, &r2.time_ms, sizeof(double));
		assert_int_equal(r1.key_len, r2.key_len);
		assert_memory_equal(r1.key, r2.key, r1.key_len);
		assert_ptr_equal(r1.value.p, r2.value.p);
		assert_int_equal(r1.value.n, r2.value.n);
		assert_ptr_equal(r1.metadata.p, r2.metadata.p);
		assert_int_equal(r1.metadata.n, r2.metadata.n);
		assert_ptr_equal(r1.event_type.p, r2.event_type.p);
		assert_int_equal(r1.event_type.n, r2.event_type.n);
		assert_ptr_equal(r1.ns.p, r2.ns.p);
		assert_int_equal(r1.ns.n, r2.ns.n);
	}
	for (i = 0; i < 3; i++) {
		strbuf_release(&w1[i]);
		strbuf_release(&w2[i]);
	}
	return hit;
}

/*
 * Record templates: a record read through a template gives what the
 * general parser gives, and every valid record that differs from the
 * template's only in the digits of its numbers takes the template: each
 * digit of each number set to each value (a leading zero of a longer
 * integer part must fail as the parser fails it), then numbers of other
 * forms and lengths, and a changed byte elsewhere.
 */
static void record_templates(int wide)
{
	static const char *const base =
		"{\"namespace\": \"\", \"time_ms\": 1728502150419, \"event_type\": "
		"\"POINT_IN_TIME\", \"key\": \"tracked_stats\", \"value\": {\"throughput\": "
		"50796.6, \"step\": 0, \"e\": -1.5e-07}, \"metadata\": {\"file\": \"/w/t2\\u00e9.py\", "
		"\"lineno\": 931, \"step\": [0, -12], \"x\": -Infinity}}";
	static const char *const nums[] = {
		"7", "0", "-0", "123456789", "1.5", "-2.25e-3", "1E+400", "12345678901234567890",
		"01", "1.", "-", "1e", "1E+", ".5", "NaN", "\"5\"", "1.2.3", "+1", "1 ", "1e5e5", "",
		"-Infinity", "true",
	};
	struct mllog_tpls c;
	struct strbuf t = STRBUF_INIT, snap[MLLOG_TPLS];
	size_t i, k, n = strlen(base), digits = 0;
	int in_str = 0, hits = 0;

	for (i = 0; i < MLLOG_TPLS; i++)
		strbuf_init(&snap[i], 0);
	mllog_tpls_init(&c);
	if (!wide)
		c.avx2 = 0; /* the 16-byte match */
	/* the second record of a key makes its template, the third matches */
	assert_false(tpl_same(&c, base, n, snap));
	assert_false(tpl_same(&c, base, n, snap));
	assert_true(tpl_same(&c, base, n, snap));
	/* every digit of every number, to every value */
	for (i = 0; i < n; i++) {
		if (base[i] == '"' && (!in_str || base[i - 1] != '\\'))
			in_str = !in_str;
		if (in_str || base[i] < '0' || base[i] > '9')
			continue;
		digits++;
		for (k = 0; k < 10; k++) {
			char b = base[i - 1];
			/* the first digit of an integer part (not of a fraction
			 * or an exponent) followed by more digits */
			int lead = !(b >= '0' && b <= '9') && b != '.' && b != 'e' && b != 'E' &&
				   b != '+' && !(b == '-' && (base[i - 2] == 'e' || base[i - 2] == 'E'));
			int lead0 = k == 0 && lead && base[i + 1] >= '0' && base[i + 1] <= '9';
			int hit;

			strbuf_setstr(&t, base);
			t.buf[i] = (char)('0' + k);
			hit = tpl_same(&c, t.buf, t.len, snap);
			assert_int_equal(hit, !lead0);
			hits += hit;
		}
	}
	assert_int_equal(digits, 13 + 6 + 1 + 4 + 3 + 1 + 2); /* time, value's, metadata's */
	assert_true(hits > 250);
	/* numbers of other forms and lengths in place of "931" and of the time */
	for (k = 0; k < 2; k++)
		for (i = 0; i < AB_ARRAY_SIZE(nums); i++) {
			const char *at = strstr(base, k ? "1728502150419" : "931");
			strbuf_reset(&t);
			strbuf_add(&t, base, (size_t)(at - base));
			strbuf_addstr(&t, nums[i]);
			strbuf_addstr(&t, at + (k ? 13 : 3));
			tpl_same(&c, t.buf, t.len, snap);
		}
	/* a byte changed outside the numbers: no match, the parser's verdict */
	strbuf_setstr(&t, base);
	t.buf[strlen("{\"namespace\": \"\", \"time_ms\": 1728502150419, \"event_type\": ")] = '\'';
	assert_false(tpl_same(&c, t.buf, t.len, snap));
	strbuf_setstr(&t, base);
	t.buf[strlen("{\"namespace\": \"\", \"time_ms\": 1728502150419, \"event_type\": \"P")] = 'Q';
	assert_false(tpl_same(&c, t.buf, t.len, snap));
	for (i = 1; i <= 40; i++) { /* each of the last bytes (the blocks' tail) */
		strbuf_setstr(&t, base);
		if (t.buf[t.len - i] >= '0' && t.buf[t.len - i] <= '9')
			continue;
		t.buf[t.len - i] = t.buf[t.len - i] == 'a' ? 'b' : 'a';
		assert_false(tpl_same(&c, t.buf, t.len, snap));
	}
	mllog_tpls_release(&c);
	strbuf_release(&t);
	for (i = 0; i < MLLOG_TPLS; i++)
		strbuf_release(&snap[i]);
}

static void test_record_templates(void **state)
{
	(void)state;
	record_templates(1);
	record_templates(0);
}

/* A log whose record shapes do not repeat: templates are made for a while,
 * then no more are tried (c.off), and every record reads as the parser
 * reads it all along. */
static void test_templates_off(void **state)
{
	struct mllog_tpls c;
	struct strbuf t = STRBUF_INIT, snap[MLLOG_TPLS];
	int i, j;

	(void)state;
	for (i = 0; i < MLLOG_TPLS; i++)
		strbuf_init(&snap[i], 0);
	mllog_tpls_init(&c);
	for (i = 0; i < 400; i++) {
		strbuf_reset(&t);
		/* each value length twice in a row (a template is made and
		 * matched once), then never again */
		strbuf_addstr(&t, "{\"namespace\": \"\", \"time_ms\": 1728502150419, \"event_type\": "
				  "\"POINT_IN_TIME\", \"key\": \"train_loss\", \"value\": \"");
		for (j = 0; j <= i / 2; j++)
			strbuf_addch(&t, 'a' + j % 26);
		strbuf_addstr(&t, "\", \"metadata\": {\"lineno\": 7}}");
		tpl_same(&c, t.buf, t.len, snap);
	}
	assert_true(c.off);
	assert_true(c.builds >= 32 && 4 * c.builds > c.hits);
	tpl_same(&c, t.buf, t.len, snap); /* still read, by the parser */
	mllog_tpls_release(&c);
	strbuf_release(&t);
	for (i = 0; i < MLLOG_TPLS; i++)
		strbuf_release(&snap[i]);
}

static void test_fast_values_as_general(void **state)
{
	static const char *const values[] = {
		"0", "7", "01", "-0", "-1", "1.5", "1.", "1e5", "1E+5", "1e", "12345678901234567890",
		"1.5e-3", "-Infinity", "Infinity", "NaN", "nul", "true", "false", "\"\"", "\"plain\"",
		"\"a\\\"b\"", "\"\\u00e9\"", "\"\\x\"", "\"tab\there\"", "\"open", "[]", "[1, 2]",
		"[1,]", "{}", "{\"a\": {\"b\": [1, \"c\"]}}", "{\"a\" 1}", "{1: 2}", "{\"k\\n\": 5}",
		"{\"a\": 1,}", "[\"s\", 12, -3.5e2, null]", "-", "+1", "0x10", "2 ",
		/* fractions, scanned inline by fast_value() */
		"2.936000", "50350.5", "1.5.5", "1.e5", "12.", "3.14e", "3.14e+", "3.14E-2",
		"10.0x", "1.5,", "[1.5, 2.25]", "{\"a\": 2.5, \"b\": [0.5, 7.25e1]}", "9.9}",
		/* separators: ": " and ", " are stepped over directly, others not */
		"[1, 22, 333]", "[1 ,2]", "[1,  2]", "[1, ]", "[1, \t2]", "{\"a\": 1, \"b\": 2}",
		"{\"a\" : 1}", "{\"a\":  1}", "{\"a\":\t1}", "{\"a\": 1, }", "{\"a\": 1,  \"b\": 2}",
		"{\"a\": 1, 2}", "{\"a\": 1, \"b\"}", "{\"a\": ,}", "{\"0123456789abcdef\": 1}",
		"\"0123456789abcde\"", "\"0123456789abcdef\"", "\"0123456789abcdefg\"",
		"123456789012345678", "1.2345678901234567",
	};
	static const char *const times[] = {
		"1728769362845", "0", "01", "123456789012345", "1234567890123456", "1.5", "1e3", "-5",
		"\"12\"", "null", "99999999999999999999",
		"1728769362845.5", "1728769362845e3", "1728769362845.", "17287693628450000", "1x",
		/* every length the SWAR conversion splits differently */
		"1", "12", "123", "1234", "12345", "123456", "1234567", "12345678", "123456789",
		"1234567890", "12345678901", "123456789012", "9999999999999", "10000000000000",
		"900000000000009", "999999999999999", "100000000000000", "1000000000000000",
	};
	struct strbuf w[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf v[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	size_t i;
	int k, deep;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(values) + AB_ARRAY_SIZE(times) + 4; i++) {
		struct mllog_rec ra, rb;
		int oka, okb;

		strbuf_reset(&a);
		if (i < AB_ARRAY_SIZE(values)) {
			strbuf_addf(&a, STD_HEAD "\"k\", \"value\": %s, \"metadata\": {\"v\": %s}",
				    values[i], values[i]);
		} else if (i < AB_ARRAY_SIZE(values) + AB_ARRAY_SIZE(times)) {
			strbuf_addf(&a, "{\"namespace\": \"\", \"time_ms\": %s, \"event_type\": "
				    "\"POINT_IN_TIME\", \"key\": \"k\"" STD_TAIL,
				    times[i - AB_ARRAY_SIZE(values)]);
		} else {
			/* nesting around the limit (256 levels) */
			deep = MLLOG_JSON_MAX_DEPTH - 2 + (int)(i - AB_ARRAY_SIZE(values) -
								 AB_ARRAY_SIZE(times));
			strbuf_addstr(&a, STD_HEAD "\"k\", \"value\": ");
			for (k = 0; k < deep; k++)
				strbuf_addch(&a, '[');
			strbuf_addstr(&a, "\"s\"");
			for (k = 0; k < deep; k++)
				strbuf_addch(&a, ']');
			strbuf_addstr(&a, ", \"metadata\": {}");
		}
		strbuf_reset(&b);
		strbuf_addbuf(&b, &a);
		strbuf_addstr(&a, "}");
		strbuf_addstr(&b, ", \"z\": 0}");
		oka = record(a.buf, &ra, w);
		okb = record(b.buf, &rb, v);
		if (i >= AB_ARRAY_SIZE(values) + AB_ARRAY_SIZE(times)) {
			/* the string inside `deep` arrays is at depth deep + 1 */
			assert_int_equal(oka, deep + 1 <= MLLOG_JSON_MAX_DEPTH);
			if (!oka)
				assert_non_null(strstr(w[0].buf, "nested too deeply"));
		}
		if (oka != okb || (!oka && strcmp(w[0].buf, v[0].buf)))
			fail_msg("%s: fast %d (%s), general %d (%s)", a.buf, oka, w[0].buf, okb,
				 v[0].buf);
		if (oka) {
			assert_true(ra.time_ms == rb.time_ms);
			assert_int_equal(ra.value.n, rb.value.n);
			assert_memory_equal(ra.value.p, rb.value.p, ra.value.n);
			assert_int_equal(ra.metadata.n + 0, rb.metadata.n + 0);
			assert_memory_equal(ra.metadata.p, rb.metadata.p, ra.metadata.n);
		}
	}
	for (k = 0; k < 3; k++) {
		strbuf_release(&w[k]);
		strbuf_release(&v[k]);
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

/* A node power log's energy does not depend on the order of its lines
 * (they are sorted by time, file order between equal times): the same
 * records in time order, reversed, and with equal times, give the same
 * energy, bit for bit.  (A log already in order is not sorted again.) */
static double power_energy_of(const char *dir, const int *order, size_t n)
{
	static const char *const recs[] = {
		"\"time_ms\": 1000, \"event_type\": \"INTERVAL_START\", \"key\": \"power_measurement_start\", \"value\": null",
		"\"time_ms\": 1500, \"event_type\": \"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": 300.5",
		"\"time_ms\": 2000, \"event_type\": \"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": 410.25",
		"\"time_ms\": 2000, \"event_type\": \"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": 77.0",
		"\"time_ms\": 2700, \"event_type\": \"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": 512.0",
		"\"time_ms\": 3100, \"event_type\": \"INTERVAL_END\", \"key\": \"power_measurement_stop\", \"value\": null",
	};
	struct strbuf p = STRBUF_INIT, why = STRBUF_INIT;
	struct mlperf_energy e;
	double j;
	size_t i;
	FILE *fp;

	assert_true(n <= AB_ARRAY_SIZE(recs));
	strbuf_addf(&p, "%s/power", dir);
	mkdir(p.buf, 0700);
	strbuf_addstr(&p, "/result_0");
	mkdir(p.buf, 0700);
	strbuf_addstr(&p, "/node_0.txt");
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	for (i = 0; i < n; i++)
		fprintf(fp, ":::MLLOG {\"namespace\": \"\", %s, \"metadata\": {}}\n", recs[order[i]]);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(mlperf_power_energy(dir, "result_0", 60000, &e, &why), 1);
	assert_int_equal(e.nodes, 1);
	j = e.joules;
	mlperf_energy_release(&e);
	strbuf_release(&p);
	strbuf_release(&why);
	return j;
}

static void test_power_order(void **state)
{
	static const int sorted[] = { 0, 1, 2, 3, 4, 5 }, reversed[] = { 5, 4, 2, 3, 1, 0 },
			 swapped[] = { 0, 1, 3, 2, 4, 5 }, late[] = { 0, 2, 3, 4, 1, 5 };
	char dir[] = "/tmp/ab-power.XXXXXX";
	double a, b, c, d;
	struct strbuf p = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a = power_energy_of(dir, sorted, 6);
	b = power_energy_of(dir, reversed, 6);
	/* equal times keep file order: 77 W, then 410.25 W, differs */
	c = power_energy_of(dir, swapped, 6);
	d = power_energy_of(dir, late, 6);
	assert_true(a > 0);
	assert_true(a == b);
	assert_true(a == d);
	assert_true(c != a);
	strbuf_addf(&p, "%s/power/result_0/node_0.txt", dir);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/power/result_0", dir);
	rmdir(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/power", dir);
	rmdir(p.buf);
	rmdir(dir);
	strbuf_release(&p);
}

/* mlperf_memmem (detection's search, 16 positions at a time) against a
 * plain search: small alphabets, every length, hits at both ends. */
static void test_memmem(void **state)
{
	char hay[600], needle[24];
	uint64_t x = 2463534242ull;
	int round;

	(void)state;
	for (round = 0; round < 40000; round++) {
		size_t n, m, i;
		const char *want = NULL, *got;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = (size_t)(x % sizeof(hay));
		m = 1 + (size_t)((x >> 8) % (round % 2 ? 3 : 23));
		for (i = 0; i < n; i++)
			hay[i] = "ab:"[(x >> (i % 40)) % 3 == 0 ? 0 : (x * (i + 7) >> 33) % 3];
		for (i = 0; i < m; i++)
			needle[i] = "ab:"[(x >> (2 * i + 3)) % 3];
		if (round % 5 == 0 && n >= m) /* a hit at the very end */
			memcpy(hay + n - m, needle, m);
		for (i = 0; i + m <= n && !want; i++)
			if (!memcmp(hay + i, needle, m))
				want = hay + i;
		got = mlperf_memmem(hay, n, needle, m);
		assert_ptr_equal(got, want);
		/* any probe pair, a bad one included, finds the same */
		got = mlperf_memmem_probe(hay, n, needle, m, (size_t)(x >> 50) % (m + 1),
					  (size_t)(x >> 40) % (m + 1));
		assert_ptr_equal(got, want);
	}
	assert_null(mlperf_memmem_probe("mlperf::loggin", 14, "mlperf::logging", 15, 5, 6));
	{
		char text[200];
		memset(text, 'f', sizeof(text));
		memcpy(text + 150, "mlperf::logging", 15);
		assert_ptr_equal(mlperf_memmem_probe(text, sizeof(text), "mlperf::logging", 15, 5, 6),
				 text + 150);
		assert_true(mlperf_has_loadgen_mark((const unsigned char *)text, sizeof(text)));
	}
	assert_null(mlperf_memmem("mlperf::loggin", 14, "mlperf::logging", 15));
}

/* Numbers converted without strtod (at most 15 significant digits, no
 * exponent part) give strtod's double, bit for bit: random decimals with
 * zeros in every place, signs, and the limits either side. */
static void test_numbers_as_strtod(void **state)
{
	static const char *const fixed[] = {
		"0", "-0", "0.0", "-0.0", "1", "0.1", "0.3", "123456789012345", "1234567890123456",
		"999999999999999", "9007199254740993", "0.0000000000000000000001",
		"0.00000000000000000000001", "1.5e3", "-2.5E-3", "100000000000000000000000",
		"3.141592653589793", "2.718281828459045", "1e22", "0.000001234567890123",
	};
	char buf[64];
	uint64_t x = 0x2545F4914F6CDD1Dull;
	int round;

	(void)state;
	for (round = 0; round < 200000 + (int)AB_ARRAY_SIZE(fixed); round++) {
		struct jspan sp;
		double got = -1, want;

		if (round < (int)AB_ARRAY_SIZE(fixed)) {
			snprintf(buf, sizeof(buf), "%s", fixed[round]);
		} else {
			int i, ni, nf;
			size_t k = 0;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			if (x & 1)
				buf[k++] = '-';
			ni = 1 + (int)((x >> 1) % 12);
			nf = (int)((x >> 5) % 24);
			for (i = 0; i < ni; i++) /* no leading zero: JSON */
				buf[k++] = (char)((i == 0 && ni > 1) ? '1' + (x >> (9 + i)) % 9
						  : '0' + ((x >> (9 + i)) % 10 < 4 ? 0 : (x >> (13 + i)) % 10));
			if (nf) {
				buf[k++] = '.';
				for (i = 0; i < nf; i++)
					buf[k++] = (char)('0' + ((x >> (20 + i)) % 3 ? (x >> (30 + i)) % 10 : 0));
			}
			buf[k] = 0;
		}
		want = strtod(buf, NULL);
		sp.p = buf;
		sp.n = strlen(buf);
		assert_int_equal(jspan_num(sp, &got), 0);
		if (memcmp(&got, &want, sizeof(got)))
			fail_msg("%s: %.17g, strtod %.17g", buf, got, want);
	}
}

/* ---- the reader --------------------------------------------------------- */

static FILE *file_of(const char *data, size_t len)
{
	FILE *fp = tmpfile();

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	rewind(fp);
	return fp;
}

struct got {
	int n, bad;
	long line[16];
	char key[16][32];
	double t[16];
	char why[16][96];
};

/* mem: the reader over the whole input in memory (mllog_init_mem), as the
 * driver hands it over when it read the file with its digest, here with
 * the line scan that does not use AVX2 */
static void read_with(FILE *fp, const unsigned char *mem, size_t len, struct got *g,
		      size_t max_record)
{
	struct mllog_reader r;
	struct mllog_rec rec;
	struct strbuf err = STRBUF_INIT;
	int rc;

	memset(g, 0, sizeof(*g));
	if (mem) {
		mllog_init_mem(&r, mem, len, max_record);
		r.avx2 = 0; /* and the 16-byte line scan */
	} else {
		mllog_init(&r, fp, max_record);
	}
	while ((rc = mllog_next(&r, &rec, &err)) == 1) {
		if (g->n < 16) {
			g->line[g->n] = rec.line;
			if (rec.ok) {
				snprintf(g->key[g->n], sizeof(g->key[0]), "%.*s", (int)rec.key_len,
					 rec.key ? rec.key : "");
				g->t[g->n] = rec.time_ms;
			} else {
				snprintf(g->why[g->n], sizeof(g->why[0]), "%s", rec.why);
				g->bad++;
			}
		}
		g->n++;
	}
	assert_int_equal(rc, 0);
	mllog_release(&r);
	strbuf_release(&err);
}

/* Every reader test reads its input both ways: the same records, lines
 * and messages. */
static void read_all(FILE *fp, struct got *g, size_t max_record)
{
	struct strbuf data = STRBUF_INIT;
	unsigned char chunk[4096];
	struct got m;
	size_t n, i;

	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		strbuf_add(&data, chunk, n);
	rewind(fp);
	read_with(fp, NULL, 0, g, max_record);
	/* a copy of exactly the input's bytes: a read past them shows under ASan */
	{
		unsigned char *exact = ab_malloc(data.len ? data.len : 1);
		memcpy(exact, data.buf, data.len);
		read_with(NULL, exact, data.len, &m, max_record);
		free(exact);
	}
	assert_int_equal(m.n, g->n);
	assert_int_equal(m.bad, g->bad);
	for (i = 0; i < 16; i++) {
		assert_int_equal(m.line[i], g->line[i]);
		assert_string_equal(m.key[i], g->key[i]);
		assert_true(m.t[i] == g->t[i]);
		assert_string_equal(m.why[i], g->why[i]);
	}
	strbuf_release(&data);
	fclose(fp);
}

#define REC(key, t) ":::MLLOG {\"namespace\": \"\", \"time_ms\": " #t ", \"event_type\": " \
		    "\"POINT_IN_TIME\", \"key\": \"" key "\", \"value\": null, \"metadata\": {}}"

static void test_reader_lines(void **state)
{
	static const char data[] =
		REC("a", 1) "\n"                                /* 1 */
		" 0: " REC("b", 2) "\r\n"                       /* 2: rank prefix, CRLF */
		"progress 10%\rprogress 20%\r" REC("c", 3) "\r" /* 3, 4, 5: lone CRs */
		"noise :::MLLOG garbage :::MLLOG " "{\"time_ms\": 4, \"key\": \"d\", "
		"\"value\": 1, \"metadata\": {}} \xa0\x0b\n"    /* 6: last token, py-strip */
		"+ echo ':::DLPAL x'\n"                         /* 7: ignored */
		"\xff\xfe binary-ish \x01 line\n"              /* 8: ignored */
		":::MLLOG {\"time_ms\": 5, \"key\": \"e\", \"value\": nullX, \"metadata\": {}}\n" /* 9 */
		":::MLLOG {\"time_ms\": \"1.2.3\", \"key\": \"f\", \"value\": 0, \"metadata\": {}}\n"
		":::MLLOG {\"time_ms\": 7, \"key\": \"g\", \"metadata\": {}}\n" /* 11 */
		":::MLLOG [1, 2]\n"                             /* 12 */
		":::MLLOG {\"time_ms\": \"8\", \"key\": \"h\\u0069\", \"value\": 0, "
		"\"metadata\": 1}\n"                            /* 13 */
		REC("i", 9);                                    /* 14: no final newline */
	struct got g;

	(void)state;
	read_all(file_of(data, sizeof(data) - 1), &g, 0);
	assert_int_equal(g.n, 10);
	assert_int_equal(g.bad, 4);
	assert_string_equal(g.key[0], "a");
	assert_int_equal(g.line[0], 1);
	assert_string_equal(g.key[1], "b");
	assert_int_equal(g.line[1], 2);
	assert_string_equal(g.key[2], "c");
	assert_int_equal(g.line[2], 5);
	assert_string_equal(g.key[3], "d");
	assert_int_equal(g.line[3], 6);
	assert_true(g.t[3] == 4.0);
	assert_int_equal(g.line[4], 9);
	assert_string_equal(g.why[4], "expecting ',' delimiter at column 50");
	assert_int_equal(g.line[5], 10);
	assert_string_equal(g.why[5], "\"time_ms\" is not a number: \"1.2.3\"");
	assert_string_equal(g.why[6], "no \"value\" in the record");
	assert_string_equal(g.why[7], "record is not a JSON object");
	assert_string_equal(g.key[8], "hi"); /* escaped key, numeric string time */
	assert_true(g.t[8] == 8.0);
	assert_int_equal(g.line[9], 14);
	assert_string_equal(g.key[9], "i");
}

/* What the reader should make of one line (the rule of mlperf_priv.h, by
 * the plainest means): 1 with rec (ok or not), 0 for no record. */
static int line_model(const char *line, size_t len, struct mllog_rec *rec, struct strbuf *w)
{
	const char *t = NULL, *q;
	size_t n;

	for (q = line; q + MLLOG_TOKEN_LEN <= line + len; q++)
		if (!memcmp(q, MLLOG_TOKEN, MLLOG_TOKEN_LEN))
			t = q;
	if (!t)
		return 0;
	t += MLLOG_TOKEN_LEN;
	n = (size_t)(line + len - t);
	while (n && (((unsigned char)t[n - 1] >= 0x09 && (unsigned char)t[n - 1] <= 0x0d) ||
		     ((unsigned char)t[n - 1] >= 0x1c && (unsigned char)t[n - 1] <= 0x20) ||
		     (unsigned char)t[n - 1] == 0x85 || (unsigned char)t[n - 1] == 0xa0))
		n--;
	memset(rec, 0, sizeof(*rec));
	if (!mllog_parse_record(t, n, (size_t)(t - line), rec, &w[1], &w[2], &w[0])) {
		rec->ok = 0;
		rec->why = w[0].buf;
	}
	return 1;
}

static void assert_span_same(struct jspan a, struct jspan b)
{
	assert_int_equal(a.n, b.n);
	if (a.n)
		assert_memory_equal(a.p, b.p, a.n);
}

/*
 * A line that is a record of one of the reader's templates is read without
 * a line scan: every line here, repeated so that templates exist, read in
 * memory and from a file, must give what the line rule gives (records,
 * lines, messages, time, key, spans): CR and CR LF ends, trailing blanks,
 * earlier tokens, a long prefix, text after the record, a leading zero,
 * a last line without its newline.
 */
static void test_reader_templates(void **state)
{
#define TREC(lineno, step) \
	"{\"namespace\": \"\", \"time_ms\": 1728502150419, \"event_type\": \"POINT_IN_TIME\", " \
	"\"key\": \"train_loss\", \"value\": 2.999000, \"metadata\": {\"file\": \"t.py\", " \
	"\"lineno\": " lineno ", \"step\": [0, " step "]}}"
	static const char *const lines[] = {
		"0: :::MLLOG " TREC("183", "1"), "0: :::MLLOG " TREC("477", "2"),
		":::MLLOG " TREC("683", "3"), "7: :::MLLOG " TREC("123", "4") "   ",
		"0: :::MLLOG " TREC("183", "5") "\r", "x :::MLLOG y 0: :::MLLOG " TREC("999", "6"),
		"0: :::MLLOG " TREC("083", "7"), "0: :::MLLOG " TREC("183", "8") " tail",
		"0: :::MLLOG " TREC("183", "9") ":::MLLOG " TREC("1", "1"),
		"a prefix longer than the 27 bytes looked at :::MLLOG " TREC("555", "3"),
		"0: :::MLLOG " TREC("18", "7"), "no record here at all, just a shell line",
		"0: :::MLLOG " TREC("1x3", "2"), "0: ::MLLOG " TREC("183", "2"),
	};
	struct strbuf data = STRBUF_INIT, w[3], e[3], err = STRBUF_INIT;
	struct mllog_reader r;
	struct mllog_rec got, want;
	size_t i, k, at;
	int pass, rc, hits = 0;

	(void)state;
	for (i = 0; i < 3; i++) {
		strbuf_init(&w[i], 0);
		strbuf_init(&e[i], 0);
	}
	for (k = 0; k < 3; k++)
		for (i = 0; i < AB_ARRAY_SIZE(lines); i++) {
			strbuf_addstr(&data, lines[i]);
			strbuf_addstr(&data, k == 1 && i == 4 ? "\r\n" : "\n");
		}
	strbuf_addstr(&data, "0: :::MLLOG " TREC("183", "1")); /* no newline */
	for (pass = 0; pass < 2; pass++) {
		FILE *fp = NULL;
		long lineno = 0;

		if (pass) {
			fp = file_of(data.buf, data.len);
			mllog_init(&r, fp, 0);
		} else {
			mllog_init_mem(&r, (const unsigned char *)data.buf, data.len, 0);
		}
		/* the model: line by line (universal newlines) */
		for (at = 0; at <= data.len;) {
			size_t end = at;
			while (end < data.len && data.buf[end] != '\n' && data.buf[end] != '\r')
				end++;
			if (end == data.len && at == end)
				break;
			lineno++;
			if (line_model(data.buf + at, end - at, &want, e)) {
				uint64_t before = r.tpls.clock;
				rc = mllog_next(&r, &got, &err);
				assert_int_equal(rc, 1);
				assert_int_equal(got.line, lineno);
				assert_int_equal(got.ok, want.ok);
				if (!want.ok) {
					assert_string_equal(got.why, want.why);
				} else {
					assert_memory_equal(&got.time_ms, &want.time_ms, sizeof(double));
					assert_int_equal(got.key_len, want.key_len);
					assert_memory_equal(got.key, want.key, got.key_len);
					assert_span_same(got.value, want.value);
					assert_span_same(got.metadata, want.metadata);
					assert_span_same(got.event_type, want.event_type);
					assert_span_same(got.ns, want.ns);
				}
				hits += r.tpls.clock == before + 1 && r.tpls.last >= 0;
			}
			at = end + (end < data.len && data.buf[end] == '\r' && end + 1 < data.len &&
				    data.buf[end + 1] == '\n' ? 2 : 1);
		}
		assert_int_equal(mllog_next(&r, &got, &err), 0);
		assert_int_equal(r.lineno, lineno);
		mllog_release(&r);
		if (fp)
			fclose(fp);
	}
	assert_true(hits > 20); /* the template lines were read as such */
	strbuf_release(&data);
	strbuf_release(&err);
	for (i = 0; i < 3; i++) {
		strbuf_release(&w[i]);
		strbuf_release(&e[i]);
	}
#undef TREC
}

/* Records and line ends across the reader's 256 KiB reads, a CR LF split
 * between two reads, and an over-long record. */
static void test_reader_long_lines(void **state)
{
	struct strbuf d = STRBUF_INIT;
	struct got g;
	size_t pad;

	(void)state;
	/* a 3 MB noise line with a record at its end, then a CR LF at a read
	 * boundary */
	strbuf_addchars(&d, 'x', 3000000);
	strbuf_addstr(&d, " :::MLLOG {\"time_ms\": 1, \"key\": \"k1\", \"value\": 0, \"metadata\": {}}\n");
	pad = (262144 * 16 - 1) - d.len % (262144 * 16);
	strbuf_addchars(&d, 'y', pad - 1);
	strbuf_addstr(&d, "\r\n"); /* '\r' is the last byte of a read */
	strbuf_addstr(&d, REC("k2", 2) "\n");
	/* a record longer than the limit (64 KiB here), then a good one */
	strbuf_addstr(&d, ":::MLLOG {\"time_ms\": 3, \"key\": \"big\", \"value\": \"");
	strbuf_addchars(&d, 'z', 200000);
	strbuf_addstr(&d, "\", \"metadata\": {}}\n");
	/* an over-long record superseded by a later token on the same line */
	strbuf_addstr(&d, ":::MLLOG {\"value\": \"");
	strbuf_addchars(&d, 'w', 200000);
	strbuf_addstr(&d, "\" :::MLLOG " "{\"time_ms\": 4, \"key\": \"k4\", \"value\": 0, \"metadata\": {}}\n");
	/* 10 MB of junk without any token: ignored */
	strbuf_addchars(&d, 'j', 10000000);
	strbuf_addstr(&d, "\n" REC("k5", 5));
	read_all(file_of(d.buf, d.len), &g, 65536);
	assert_int_equal(g.n, 5);
	assert_string_equal(g.key[0], "k1");
	assert_int_equal(g.line[0], 1);
	assert_string_equal(g.key[1], "k2");
	assert_int_equal(g.line[1], 3);
	assert_int_equal(g.line[2], 4);
	assert_string_equal(g.why[2], ":::MLLOG record longer than 65536 bytes");
	assert_string_equal(g.key[3], "k4");
	assert_int_equal(g.line[3], 5);
	assert_string_equal(g.key[4], "k5");
	assert_int_equal(g.line[4], 7);
	strbuf_release(&d);
}

/* "\r\n" (and a lone "\r") right at the end of the reader's first read
 * (256 KiB): still one line end, never two. */
static void test_reader_cr_at_boundary(void **state)
{
	struct strbuf d = STRBUF_INIT;
	struct got g;
	int pad, lone;

	(void)state;
	for (lone = 0; lone < 2; lone++) {
		for (pad = -3; pad <= 3; pad++) {
			strbuf_reset(&d);
			strbuf_addchars(&d, 'a', (size_t)(262144 - 1 + pad));
			strbuf_addstr(&d, lone ? "\r" : "\r\n");
			strbuf_addstr(&d, REC("x", 1) "\r\n" REC("y", 2));
			read_all(file_of(d.buf, d.len), &g, 0);
			assert_int_equal(g.n, 2);
			assert_string_equal(g.key[0], "x");
			assert_int_equal(g.line[0], 2);
			assert_int_equal(g.line[1], 3);
		}
	}
	strbuf_release(&d);
}

/* A token cut by the reader's buffer end (every offset around the 256 KiB
 * refill), and random lines of tokens, records, '\r', '\n' and noise
 * across several refills: each line's last token gives its record, as a
 * plain split of the same bytes says. */
static void test_reader_tokens_across_refills(void **state)
{
	static const char *const parts[] = {
		":::MLLOG ", REC("a", 5), REC("b", 6), "\n", "\r", "\r\n", "x", "::", ":::MLLO",
		"MLLOG ", "M", "  ", "0: ", "{\"k\": 1}", "\t",
	};
	struct strbuf d = STRBUF_INIT, why[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	uint64_t x = 88172645463325252ull;
	struct got g;
	int pad, round;

	(void)state;
	for (pad = -12; pad <= 12; pad++) {
		strbuf_reset(&d);
		strbuf_addchars(&d, 'a', (size_t)(262144 - 9 + pad));
		strbuf_addstr(&d, " " REC("cut", 7) "\n" REC("next", 8));
		read_all(file_of(d.buf, d.len), &g, 0);
		assert_int_equal(g.n, 2);
		assert_string_equal(g.key[0], "cut");
		assert_string_equal(g.key[1], "next");
	}
	for (round = 0; round < 6; round++) {
		size_t i, n = 0, ls;
		long line = 0;
		struct got want;

		strbuf_reset(&d);
		while (d.len < 700000) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			strbuf_addstr(&d, parts[x % AB_ARRAY_SIZE(parts)]);
		}
		/* the expected records: universal newlines, last token per line */
		memset(&want, 0, sizeof(want));
		for (ls = 0, i = 0; i <= d.len; i++) {
			const char *t = NULL, *q;
			struct mllog_rec rec;
			size_t e;

			if (i < d.len && d.buf[i] != '\n' && d.buf[i] != '\r')
				continue;
			line++;
			for (q = d.buf + ls; q + MLLOG_TOKEN_LEN <= d.buf + i; q++)
				if (!memcmp(q, MLLOG_TOKEN, MLLOG_TOKEN_LEN))
					t = q;
			if (t) {
				t += MLLOG_TOKEN_LEN;
				e = (size_t)(d.buf + i - t);
				while (e && (t[e - 1] == ' ' || t[e - 1] == '\t'))
					e--;
				memset(&rec, 0, sizeof(rec));
				if (n < 16) {
					want.line[n] = line;
					if (mllog_parse_record(t, e, 0, &rec, &why[1], &why[2], &why[0]))
						snprintf(want.key[n], sizeof(want.key[0]), "%.*s",
							 (int)rec.key_len, rec.key ? rec.key : "");
				}
				n++;
			}
			if (i < d.len && d.buf[i] == '\r' && i + 1 < d.len && d.buf[i + 1] == '\n')
				i++;
			ls = i + 1;
			if (i == d.len - 1)
				break; /* a terminator at the very end ends the last line */
		}
		read_all(file_of(d.buf, d.len), &g, 0);
		assert_int_equal(g.n, (int)n);
		for (i = 0; i < 16 && i < n; i++) {
			assert_int_equal(g.line[i], want.line[i]);
			assert_string_equal(g.key[i], want.key[i]);
		}
	}
	for (round = 0; round < 3; round++)
		strbuf_release(&why[round]);
	strbuf_release(&d);
}

/* ---- layouts ---------------------------------------------------------------- */

static void test_layout(void **state)
{
	struct mlperf_layout l;

	(void)state;
	mlperf_layout_init(&l);
	assert_int_equal(mlperf_layout_training(&l, "/x/training_results_v4.1/Dell/results/"
						    "sysA/mask/./result_1.txt"), 0);
	assert_string_equal(l.submitter.buf, "Dell");
	assert_string_equal(l.system.buf, "sysA");
	assert_string_equal(l.bench.buf, "maskrcnn");
	assert_string_equal(l.round.buf, "4.1");
	assert_string_equal(l.root.buf, "/x/training_results_v4.1/Dell");
	assert_string_equal(l.bench_dir.buf, "/x/training_results_v4.1/Dell/results/sysA/mask");
	assert_int_equal(mlperf_layout_training(&l, "/v5.0/org/results/s/strong/cosmoflow/"
						    "result_0.txt"), 0);
	assert_string_equal(l.scaling.buf, "strong");
	assert_string_equal(l.bench.buf, "cosmoflow");
	assert_string_equal(l.round.buf, "5.0");
	assert_int_equal(mlperf_layout_training(&l, "/tmp/result_0.txt"), -1);
	assert_int_equal(mlperf_layout_inference(&l, "/r/inference_results_v4.1/closed/Intel/"
						     "results/sys/resnet50/offline/performance/"
						     "run_1/mlperf_log_detail.txt"), 0);
	assert_string_equal(l.division.buf, "closed");
	assert_string_equal(l.submitter.buf, "Intel");
	assert_string_equal(l.system.buf, "sys");
	assert_string_equal(l.bench.buf, "resnet50");
	assert_string_equal(l.scenario.buf, "offline");
	assert_string_equal(l.round.buf, "4.1");
	assert_int_equal(mlperf_layout_inference(&l, "/r/Intel/results/sys/resnet50/Offline/"
						     "accuracy/mlperf_log_detail.txt"), -1);
	mlperf_layout_release(&l);
}

/* ---- samples: ingest + official scores ------------------------------------ */

struct sample_db {
	char dir[64];
	struct strbuf path;
	struct db *db;
};

static void ingest_samples(struct sample_db *s, const char *sub)
{
	struct strbuf err = STRBUF_INIT, root = STRBUF_INIT;
	struct ingest_opts o;
	struct ingest_totals tot;
	const char *paths[1];
	int rc;

	snprintf(s->dir, sizeof(s->dir), "/tmp/ab-mlperf-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	strbuf_init(&s->path, 0);
	strbuf_addf(&s->path, "%s/t.db", s->dir);
	assert_int_equal(db_open(&s->db, s->path.buf, 0, &err), 0);
	strbuf_addf(&root, "%s/mlperf/%s", unit_samples_dir(), sub);
	paths[0] = root.buf;
	memset(&o, 0, sizeof(o));
	rc = ingest_paths(paths, 1, &o, db_ingest_sink(s->db), &tot, &err);
	if (rc)
		fprintf(stderr, "# %s\n", err.buf);
	assert_int_equal(rc, 0);
	assert_int_equal(tot.rejected, 0);
	strbuf_release(&err);
	strbuf_release(&root);
}

static void close_samples(struct sample_db *s)
{
	struct strbuf p = STRBUF_INIT;

	db_free(s->db);
	strbuf_addf(&p, "%s-wal", s->path.buf);
	unlink(p.buf);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s-shm", s->path.buf);
	unlink(p.buf);
	unlink(s->path.buf);
	rmdir(s->dir);
	strbuf_release(&s->path);
	strbuf_release(&p);
}

static json_t *find_score(json_t *arr, const char *system, const char *bench)
{
	size_t i;
	json_t *o;

	json_array_foreach(arr, i, o)
		if (!strcmp(json_string_value(json_object_get(o, "system")), system) &&
		    !strcmp(json_string_value(json_object_get(o, "benchmark")), bench))
			return o;
	return NULL;
}

static void expect_score(json_t *arr, const char *system, const char *bench, double score,
			 long runs, long failed, double factor)
{
	json_t *o = find_score(arr, system, bench);

	if (!o)
		fprintf(stderr, "# no score for %s %s\n", system, bench);
	assert_non_null(o);
	assert_true(json_is_number(json_object_get(o, "official_score")));
	assert_double_near(json_number_value(json_object_get(o, "official_score")), score, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(o, "runs")), runs);
	assert_int_equal(json_integer_value(json_object_get(o, "failed")), failed);
	assert_double_near(json_number_value(json_object_get(o, "scaling_factor")), factor, 1e-15);
	assert_string_equal(json_string_value(json_object_get(o, "unit")), "min");
}

static void test_training_scores(void **state)
{
	struct sample_db s;
	struct strbuf err = STRBUF_INIT;
	json_t *arr, *o;

	(void)state;
	if (!unit_samples_dir())
		skip();
	ingest_samples(&s, "training");
	assert_int_equal(mlperf_score(s.db, NULL, &arr, &err), 0);
	assert_int_equal(json_array_size(arr), 7);
	expect_score(arr, "NVIDIA/eos_n8_ngc23.04_pytorch", "bert", 0.89813125, 10, 1, 1.0);
	expect_score(arr, "NVIDIA/h200_ngc24.09_nemo", "llama2_70b_lora", 24.115704349046013,
		     10, 0, 1.0033670033670032);
	expect_score(arr, "Google/cloud-tpu-trillium-1024-maxtext", "gpt3", 50.62810434782609,
		     3, 0, 1.0173913043478262);
	expect_score(arr, "Dell/8xXE9680x8H100-SXM-80GB-POWER", "llama2_70b_lora",
		     5.051522250280583, 10, 0, 1.0033670033670032);
	expect_score(arr, "tinycorp/tinybox_green", "bert", 360.51649791666665, 10, 1, 1.0);
	expect_score(arr, "Lenovo/SR685aV3-8xH200_SXM_141GB_700W", "ssd", 33.71481666666667,
		     5, 0, 1.0);
	expect_score(arr, "Lambda/lambda_1cc_n4_H100-SXM-80GB_ngc24.04_nemo", "llama2_70b_lora",
		     8.222960416666666, 10, 1, 1.0);
	/* energy: only the Dell power submission */
	o = find_score(arr, "Dell/8xXE9680x8H100-SXM-80GB-POWER", "llama2_70b_lora");
	assert_double_near(json_number_value(json_object_get(o, "official_energy_j")),
			   16384267.9502019, 1e-9);
	assert_true(json_is_null(json_object_get(find_score(arr, "NVIDIA/eos_n8_ngc23.04_pytorch",
							     "bert"), "official_energy_j")));
	/* display name and submitter from the system JSON / folders */
	o = find_score(arr, "Google/cloud-tpu-trillium-1024-maxtext", "gpt3");
	assert_string_equal(json_string_value(json_object_get(o, "system_name")),
			    "tpu-trillium-1024");
	assert_string_equal(json_string_value(json_object_get(o, "submitter")), "Google");
	assert_string_equal(json_string_value(json_object_get(o, "vendor")), "Google");
	json_decref(arr);
	strbuf_release(&err);
	close_samples(&s);
}

/* Per-run energies and validity reasons of the samples. */
static void test_training_runs(void **state)
{
	static const double dell_j[10] = { 16143281.644, 17838302.271, 15655250.959,
					   16019229.038, 15525978.402, 13529045.566,
					   17528383.696, 18042912.560, 16005038.677,
					   15918832.795 };
	static const char *const reasons[][2] = {
		{ "result_4.txt", "result_4.txt:517: run_stop status \"aborted\"" },
		{ "result_2.txt", "result_2.txt: no run_stop (log truncated?)" },
		{ "result_240928173116824495865_1.txt",
		  "result_240928173116824495865_1.txt:779: unparsable :::MLLOG record "
		  "(expecting ',' delimiter at column 124)" },
	};
	struct sample_db s;
	sqlite3_stmt *st;
	int i, n = 0;

	(void)state;
	if (!unit_samples_dir())
		skip();
	ingest_samples(&s, "training");
	assert_int_equal(sqlite3_prepare_v2(db_sqlite(s.db),
					    "SELECT json_extract(params, '$.run_index'),"
					    " json_extract(params, '$.energy_j') FROM run"
					    " WHERE json_extract(params, '$.submitter') = 'Dell'"
					    " ORDER BY 1", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int idx = sqlite3_column_int(st, 0);
		assert_true(idx >= 0 && idx < 10);
		assert_true(fabs(sqlite3_column_double(st, 1) - dell_j[idx]) < 0.0006);
		n++;
	}
	sqlite3_finalize(st);
	assert_int_equal(n, 10);
	for (i = 0; i < 3; i++) {
		assert_int_equal(sqlite3_prepare_v2(db_sqlite(s.db),
						    "SELECT status, excluded_reason FROM run"
						    " WHERE json_extract(params, '$.file') = ?1"
						    " AND status != 'ok'", -1, &st, NULL), SQLITE_OK);
		sqlite3_bind_text(st, 1, reasons[i][0], -1, SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(st, 1), reasons[i][1]);
		assert_string_equal((const char *)sqlite3_column_text(st, 0),
				    i == 0 ? "aborted" : "invalid");
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_finalize(st);
	}
	close_samples(&s);
}

static double metric_of(struct db *db, const char *system, const char *bench, const char *name,
			const char **unit_out)
{
	static char unit[32];
	sqlite3_stmt *st;
	double v = NAN;

	assert_int_equal(sqlite3_prepare_v2(db_sqlite(db),
					    "SELECT m.value, m.unit FROM metric m JOIN run r ON"
					    " r.id = m.run_id JOIN system y ON y.id = r.system_id"
					    " JOIN benchmark b ON b.id = r.benchmark_id WHERE"
					    " y.name = ?1 AND b.name = ?2 AND m.name = ?3", -1, &st,
					    NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, system, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, bench, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		v = sqlite3_column_double(st, 0);
		snprintf(unit, sizeof(unit), "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (unit_out)
		*unit_out = unit;
	return v;
}

static void test_inference(void **state)
{
	static const struct {
		const char *system, *bench, *metric;
		double value;
		const char *unit;
	} want[] = {
		{ "NVIDIA/DGX-H100_H100-SXM-80GBx8_TRT", "llama2-70b-99/Offline", "throughput",
		  24524.9, "tokens/s" },
		{ "NVIDIA/DGX-H100_H100-SXM-80GBx8_TRT", "llama2-70b-99/Server", "throughput",
		  21605.8, "tokens/s" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Offline", "throughput", 556234,
		  "samples/s" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Offline", "avg_power", 4954.0315,
		  "W" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Offline", "efficiency", 112.279,
		  "samples/s/W" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Server", "throughput", 480131,
		  "samples/s" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Server", "avg_power", 5013.7912,
		  "W" },
		{ "NVIDIA/H200-SXM-141GBx8_TRT_MaxQ", "resnet50/Server", "efficiency", 95.7621,
		  "samples/s/W" },
		{ "Intel/1-node-2S-EMR-PyTorch", "resnet50/Offline", "throughput", 25204.5,
		  "samples/s" },
		{ "Intel/1-node-2S-EMR-PyTorch", "resnet50/Server", "throughput", 22501.8,
		  "samples/s" },
		{ "Lenovo/Lenovo_2xL4_TRT", "resnet50/SingleStream", "latency", 0.386829, "ms" },
		{ "Lenovo/Lenovo_2xL4_TRT", "resnet50/MultiStream", "latency", 0.750563, "ms" },
		{ "Lenovo/Lenovo_2xL4_TRT", "resnet50/Offline", "throughput", 25600, "samples/s" },
	};
	struct sample_db s;
	const char *unit;
	size_t i;

	(void)state;
	if (!unit_samples_dir())
		skip();
	ingest_samples(&s, "inference");
	for (i = 0; i < AB_ARRAY_SIZE(want); i++) {
		double v = metric_of(s.db, want[i].system, want[i].bench, want[i].metric, &unit);
		/* README numbers are rounded to 8 / 6 significant digits for power */
		double tol = !strcmp(want[i].metric, "throughput") ||
					     !strcmp(want[i].metric, "latency") ? 1e-12 : 1e-6;
		if (!(fabs(v - want[i].value) <= tol * fabs(want[i].value)))
			fprintf(stderr, "# %s %s %s = %.10g\n", want[i].system, want[i].bench,
				want[i].metric, v);
		assert_double_near(v, want[i].value, tol);
		assert_string_equal(unit, want[i].unit);
	}
	close_samples(&s);
}

static void test_vendor_of(void **state)
{
	(void)state;
	assert_string_equal(ingest_vendor_of("NVIDIA RTX A5000"), "NVIDIA");
	assert_string_equal(ingest_vendor_of("AMD Radeon RX 7900 XTX"), "AMD");
	assert_string_equal(ingest_vendor_of("Radeon Pro W7900"), "AMD");
	assert_string_equal(ingest_vendor_of("Intel Data Center GPU Max 1550"), "Intel");
	assert_string_equal(ingest_vendor_of("TPU v5e"), "Google");
	assert_null(ingest_vendor_of("Intel Xeon Platinum 8480+"));
	assert_null(ingest_vendor_of("AMD EPYC 9654"));
	assert_null(ingest_vendor_of("N/A"));
	assert_null(ingest_vendor_of("A100-SXM4-80GB"));
	assert_null(ingest_vendor_of("amdahl-box")); /* whole words only */
	assert_null(ingest_vendor_of(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_scanner),
		cmocka_unit_test(test_json_string_bytes),
		cmocka_unit_test(test_record_shapes),
		cmocka_unit_test(test_memo_json),
		cmocka_unit_test(test_span_text),
		cmocka_unit_test(test_record_templates),
		cmocka_unit_test(test_templates_off),
		cmocka_unit_test(test_fast_values_as_general),
		cmocka_unit_test(test_memmem),
		cmocka_unit_test(test_power_order),
		cmocka_unit_test(test_numbers_as_strtod),
		cmocka_unit_test(test_vendor_of),
		cmocka_unit_test(test_reader_lines),
		cmocka_unit_test(test_reader_templates),
		cmocka_unit_test(test_reader_long_lines),
		cmocka_unit_test(test_reader_cr_at_boundary),
		cmocka_unit_test(test_reader_tokens_across_refills),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_training_scores),
		cmocka_unit_test(test_training_runs),
		cmocka_unit_test(test_inference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
