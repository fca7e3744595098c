/*
 * test_core.c - strbuf, sha256, lines, num, table, errors.
 */
#include "unit.h"
#include <math.h>

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	size_t n;

	(void)state;
	assert_string_equal(sb.buf, "");
	strbuf_addf(&sb, "%s-%d", "x", 42);
	strbuf_addch(&sb, '!');
	assert_string_equal(sb.buf, "x-42!");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "  pad \t\n");
	strbuf_trim(&sb);
	assert_string_equal(sb.buf, "pad");
	strbuf_addchars(&sb, '=', 1000);
	assert_int_equal(sb.len, 1003);
	p = strbuf_detach(&sb, &n);
	assert_int_equal(n, 1003);
	assert_string_equal(sb.buf, "");
	free(p);
	strbuf_add_printable(&sb, "a\x01\xff", 3, 0);
	assert_string_equal(sb.buf, "a\\x01\\xff");
	strbuf_release(&sb);
}

static void hex_of(const char *msg, size_t len, char hex[65])
{
	struct sha256 c;
	unsigned char d[32];

	sha256_init(&c);
	sha256_update(&c, msg, len);
	sha256_final(&c, d);
	sha256_hex(d, hex);
}

static void test_sha256(void **state)
{
	char hex[65];
	struct sha256 c;
	unsigned char d[32];
	char block[1001];
	int i;

	(void)state;
	/* FIPS 180-4 examples */
	hex_of("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* one million 'a', fed in odd-sized pieces */
	memset(block, 'a', sizeof(block));
	sha256_init(&c);
	for (i = 0; i < 1000; i++)
		sha256_update(&c, block, i % 2 ? 999 : 1001);
	sha256_final(&c, d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* the portable code too, whatever this CPU offers */
	sha256_init(&c);
	c.accel = 0;
	for (i = 0; i < 1000; i++)
		sha256_update(&c, block, i % 2 ? 999 : 1001);
	sha256_final(&c, d);
	sha256_hex(d, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/*
 * sha256_update_blocks: messages hashed side by side in vector lanes
 * (16 with AVX-512F, 8 with AVX2, as this CPU allows) give the digests
 * of the one-message code and of Python's hashlib (the table), for
 * lengths around the padding boundaries (55/56, 63/64/65) and large ones,
 * any number of messages per call and calls of few or many blocks.
 */
static const struct { size_t len; const char *hex; } sha_lens[] = {
	{ 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ 1, "ca358758f6d27e6cf45272937977a748fd88391db679ceda7dc7bf1f005ee879" },
	{ 55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b" },
	{ 56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63" },
	{ 63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076" },
	{ 64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd" },
	{ 65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0" },
	{ 119, "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe" },
	{ 127, "192409cd280e14b743642ad1343fbd3e82d9305de72c078117745a679210cc3d" },
	{ 128, "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356" },
	{ 129, "81e89a7b2911aaa7795f9e3d4910cb47d6cd2b00d83b8399481527261a1a7519" },
	{ 1000, "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179" },
	{ 65539, "cccb9585bc28e55ce555dc6800920a513bc2a70fa48c2fab9a8a899e72e092d5" },
	{ 300001, "71c452b74fad741c44f28c3a993b2b82ac69425dd11f72e8f9ecad2272247b20" },
};

/* Hash msgs[0..n) together, whole blocks through sha256_update_blocks in
 * calls of at most `step` blocks (0: as many as all have), the tails with
 * sha256_update. */
static void hash_side_by_side(int lanes, const unsigned char *const *msgs, const size_t *lens,
			      size_t n, size_t step, char hex[][65])
{
	struct sha256 ctx[SHA256_LANES_MAX], *c[SHA256_LANES_MAX];
	const unsigned char *d[SHA256_LANES_MAX];
	size_t done[SHA256_LANES_MAX] = { 0 }, i;
	unsigned char dig[32];

	for (i = 0; i < n; i++) {
		sha256_init(&ctx[i]);
		ctx[i].accel = 0;
		ctx[i].lanes = lanes;
	}
	for (;;) {
		size_t k = 0, m = (size_t)-1;
		for (i = 0; i < n; i++)
			if (lens[i] - done[i] >= 64) {
				c[k] = &ctx[i];
				d[k++] = msgs[i] + done[i];
				if ((lens[i] - done[i]) / 64 < m)
					m = (lens[i] - done[i]) / 64;
			}
		if (!k)
			break;
		if (step && m > step)
			m = step;
		sha256_update_blocks(c, d, k, m);
		for (i = 0; i < n; i++)
			if (lens[i] - done[i] >= 64)
				done[i] += 64 * m;
	}
	for (i = 0; i < n; i++) {
		sha256_update(&ctx[i], msgs[i] + done[i], lens[i] - done[i]);
		sha256_final(&ctx[i], dig);
		sha256_hex(dig, hex[i]);
	}
}

static void test_sha256_lanes(void **state)
{
	const size_t nl = AB_ARRAY_SIZE(sha_lens), big = 1000000;
	unsigned char *data = malloc(big);
	const unsigned char *msgs[SHA256_LANES_MAX];
	size_t lens[SHA256_LANES_MAX], i, n, step;
	char hex[SHA256_LANES_MAX][65];
	int paths[3] = { 0, 0, 0 }, npaths = 1, pi;
	struct sha256 probe;

	(void)state;
	assert_non_null(data);
	for (i = 0; i < big; i++)
		data[i] = (unsigned char)(i * 31 + 7);
	sha256_init(&probe);
	if (probe.lanes >= 8) /* every AVX-512 CPU has AVX2 */
		paths[npaths++] = 8;
	if (probe.lanes == 16)
		paths[npaths++] = 16;
	for (pi = 0; pi < npaths; pi++)
		for (n = 1; n <= SHA256_LANES_MAX; n++)
			for (step = 0; step <= 3; step += 3) {
				for (i = 0; i < n; i++) {
					size_t which = (i + n) % nl;
					msgs[i] = data;
					lens[i] = sha_lens[which].len;
				}
				hash_side_by_side(paths[pi], msgs, lens, n, step, hex);
				for (i = 0; i < n; i++)
					assert_string_equal(hex[i], sha_lens[(i + n) % nl].hex);
				/* different bytes in every lane: against the
				 * one-message portable code */
				for (i = 0; i < n; i++)
					msgs[i] = data + 97 * i + 1;
				hash_side_by_side(paths[pi], msgs, lens, n, step, hex);
				for (i = 0; i < n; i++) {
					struct sha256 one;
					unsigned char dig[32];
					char want[65];
					sha256_init(&one);
					one.accel = 0;
					sha256_update(&one, msgs[i], lens[i]);
					sha256_final(&one, dig);
					sha256_hex(dig, want);
					assert_string_equal(hex[i], want);
				}
			}
	/* FIPS 180-4's two-block example and one million 'a' next to each
	 * other and to the table's largest message */
	for (pi = 0; pi < npaths; pi++) {
		static const char two[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklm"
					  "ghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
					  "mnopqrstnopqrstu";
		unsigned char *as = malloc(big);
		assert_non_null(as);
		memset(as, 'a', big);
		msgs[0] = (const unsigned char *)two;
		lens[0] = 112;
		msgs[1] = as;
		lens[1] = big;
		msgs[2] = data;
		lens[2] = 300001;
		hash_side_by_side(paths[pi], msgs, lens, 3, 0, hex);
		assert_string_equal(hex[0], "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
		assert_string_equal(hex[1], "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
		assert_string_equal(hex[2], sha_lens[nl - 1].hex);
		free(as);
	}
	free(data);
}

static void test_lines(void **state)
{
	static const char data[] = "one\r\ntwo\rthree\n\nfour";
	struct strbuf err = STRBUF_INIT;
	struct lines lr;
	FILE *fp;
	const char *want_cr[] = { "one", "two", "three", "", "four" };
	int i, rc;

	(void)state;
	fp = fmemopen((void *)data, sizeof(data) - 1, "r");
	lines_init(&lr, fp, 0, LINES_CR);
	for (i = 0; i < 5; i++) {
		assert_int_equal(lines_next(&lr, &err), 1);
		assert_string_equal(lr.line.buf, want_cr[i]);
		assert_int_equal(lr.lineno, i + 1);
	}
	assert_int_equal(lines_next(&lr, &err), 0);
	lines_release(&lr);
	fclose(fp);

	/* without LINES_CR a lone \r stays in the line, \r\n is stripped */
	fp = fmemopen((void *)data, sizeof(data) - 1, "r");
	lines_init(&lr, fp, 8, 0);
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_string_equal(lr.line.buf, "one");
	rc = lines_next(&lr, &err);
	assert_int_equal(rc, -AB_EDATA); /* "two\rthree" is 9 bytes > 8 */
	assert_string_equal(err.buf, "line 2: longer than 8 bytes");
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_string_equal(lr.line.buf, "");
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_string_equal(lr.line.buf, "four");
	assert_int_equal(lr.bytes, sizeof(data) - 1);
	lines_release(&lr);
	fclose(fp);
	strbuf_release(&err);
}

static void test_num(void **state)
{
	double v;
	long long ll;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(num_parse_double(" 84005.35 ", 10, &v), NUM_OK);
	assert_true(v == 84005.35);
	assert_int_equal(num_parse_double("nan", 3, &v), NUM_NAN);
	assert_int_equal(num_parse_double("", 0, &v), NUM_EMPTY);
	assert_int_equal(num_parse_double("-inf", 4, &v), NUM_INF);
	assert_int_equal(num_parse_double("1,5", 3, &v), NUM_BAD);
	assert_int_equal(num_parse_double("0x10", 4, &v), NUM_BAD);
	assert_int_equal(num_parse_double("12abc", 5, &v), NUM_BAD);
	/* overflow reads as infinite; underflow is told apart from a real 0 */
	assert_int_equal(num_parse_double("1e400", 5, &v), NUM_INF);
	assert_true(num_underflows("1e-400", 6));
	assert_true(num_underflows("-2.5E-330", 9));
	assert_true(num_underflows("4.9e-324", 8));
	assert_false(num_underflows("0", 1));
	assert_false(num_underflows("0.000e-400", 10));
	assert_false(num_underflows("1e-300", 6));
	assert_false(num_underflows("nan", 3));
	assert_int_equal(num_parse_ll("2048", 4, &ll), NUM_OK);
	assert_int_equal(ll, 2048);
	assert_int_equal(num_parse_ll("20.5", 4, &ll), NUM_BAD);
	num_format(&sb, 0.1);
	assert_string_equal(sb.buf, "0.1");
	strbuf_reset(&sb);
	num_format(&sb, 198.64889218122337);
	assert_string_equal(sb.buf, "198.64889218122337");
	strbuf_reset(&sb);
	num_format_fixed(&sb, 1234567.891, 2, 1);
	assert_string_equal(sb.buf, "1,234,567.89");
	strbuf_reset(&sb);
	num_format_fixed(&sb, -999.5, 0, 1);
	assert_string_equal(sb.buf, "-1,000");
	strbuf_release(&sb);
}

/* xorshift64*: the same inputs every run */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 2685821657736338717ULL;
}

/* One decimal both ways: num_parse_double's value bit for bit strtod's. */
static int same_as_strtod(const char *t)
{
	double a = 0, b = strtod(t, NULL);
	uint64_t ba, bb;

	if (num_parse_double(t, strlen(t), &a) != NUM_OK)
		return 0;
	memcpy(&ba, &a, 8);
	memcpy(&bb, &b, 8);
	if (ba != bb)
		fprintf(stderr, "%s: %.17g, strtod %.17g\n", t, a, b);
	return ba == bb;
}

/* The exact path for plain decimals of up to 19 significant digits (and
 * strtod past them): 2,000,000 random decimals, unix times with 17 digits,
 * halfway cases between two doubles, leading zeros, 20 digits. */
static void test_num_exact(void **state)
{
	static const char *const fixed[] = {
		"1579688119.6235445", "0.1", "-0.0", "0", "000.000", "9007199254740993",
		"9007199254740992.5", "18446744073709551615", "9999999999999999999",
		"0.000000000000000000000000001", "1.0000000000000002220446049250313080847",
		"2.2250738585072014", "123456789012345678.9", "0.3000000000000000166533453693773481063544750213623046875",
		"1.00000000000000011102230246251565404236316680908203125",
		"1.00000000000000011102230246251565404236316680908203124",
		"1.00000000000000011102230246251565404236316680908203126",
		"4503599627370496.5", "4503599627370497.5", "-1579688089.6235445",
	};
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	char t[64];
	size_t i;
	long bad = 0;

	(void)state;
	for (i = 0; i < AB_ARRAY_SIZE(fixed); i++)
		bad += !same_as_strtod(fixed[i]);
	for (i = 0; i < 2000000; i++) {
		uint64_t r = rnd(&x);
		int nd = 1 + (int)(r % 21), point = (int)((r >> 8) % (unsigned)(nd + 1)), k, n = 0;
		int zeros = (r >> 16) % 8 == 0 ? (int)((r >> 20) % 10) : 0;

		if ((r >> 24) % 4 == 0) { /* a unix time: 10 digits, '.', 7 */
			nd = 17;
			point = 10;
			zeros = 0;
		}
		if ((r >> 28) % 2)
			t[n++] = '-';
		if (point == 0)
			t[n++] = '0';
		for (k = 0; k < nd; k++) {
			if (k == point && k) {
				t[n++] = '.';
				for (; zeros > 0; zeros--)
					t[n++] = '0';
			}
			t[n++] = (char)('0' + rnd(&x) % 10);
		}
		if (point == 0) {
			memmove(t + n - nd + 1, t + n - nd, (size_t)nd);
			t[n - nd] = '.';
			n++;
		}
		t[n] = '\0';
		bad += !same_as_strtod(t);
		/* halfway between two doubles (ties to even) and one unit in the
		 * last digit either side: (2a + 1) / 2^(j+1) with a in [2^52, 2^53)
		 * is (2a + 1) * 5^(j+1) / 10^(j+1), 17 to 19 digits */
		if (i % 4 == 0) {
			unsigned j = (unsigned)(rnd(&x) % 3), d;
			uint64_t a = (1ULL << 52) | (rnd(&x) >> 12), p5 = 5, nn;
			int delta;
			char digits[32];

			for (d = 0; d < j; d++)
				p5 *= 5;
			for (delta = -1; delta <= 1; delta++) {
				size_t nd2;
				nn = (2 * a + 1) * p5 + (uint64_t)(int64_t)delta;
				snprintf(digits, sizeof(digits), "%llu", (unsigned long long)nn);
				nd2 = strlen(digits);
				snprintf(t, sizeof(t), "%.*s.%s", (int)(nd2 - j - 1), digits,
					 digits + nd2 - j - 1);
				bad += !same_as_strtod(t);
			}
		}
	}
	assert_int_equal(bad, 0);
}

static void test_table(void **state)
{
	struct table *t = table_new();
	struct strbuf out = STRBUF_INIT;

	(void)state;
	table_add_column(t, "name", TABLE_LEFT);
	table_add_column(t, "value", TABLE_RIGHT);
	table_add_row(t);
	table_set(t, 0, "a,b");
	table_set(t, 1, "1");
	table_add_row(t);
	table_set(t, 0, "long name");
	table_setf(t, 1, "%d", 100);
	table_render_text(t, &out);
	assert_string_equal(out.buf, "name       value\n"
				     "---------  -----\n"
				     "a,b            1\n"
				     "long name    100\n");
	strbuf_reset(&out);
	table_render_csv(t, &out);
	assert_string_equal(out.buf, "name,value\n\"a,b\",1\nlong name,100\n");
	strbuf_release(&out);
	table_free(t);
}

static void test_error(void **state)
{
	struct strbuf err = STRBUF_INIT;
	int rc;

	(void)state;
	rc = ab_fail_at(&err, AB_EDATA, "result_1.txt", 42, "run_stop before run_start");
	assert_int_equal(rc, -1);
	assert_int_equal(ab_exit_code(rc), 1);
	assert_string_equal(err.buf, "result_1.txt:42: run_stop before run_start");
	assert_int_equal(ab_exit_code(-AB_EIO), 3);
	strbuf_release(&err);
}

/* strbuf_add copies every length (up to 64 inline, in 16-byte pieces past
 * 16) at every offset; every source byte differs, so a piece copied from
 * or to the wrong place shows */
static void test_strbuf_add_lengths(void **state)
{
	char src[96];
	struct strbuf sb = STRBUF_INIT;
	size_t n, at, i;

	(void)state;
	for (i = 0; i < sizeof(src); i++)
		src[i] = (char)(1 + i);
	for (at = 0; at < 17; at++) {
		for (n = 0; n <= 88; n++) {
			strbuf_reset(&sb);
			strbuf_addchars(&sb, '.', at);
			strbuf_add(&sb, src + n % 7, n);
			assert_int_equal(sb.len, at + n);
			assert_int_equal(sb.buf[sb.len], '\0');
			for (i = 0; i < at; i++)
				assert_int_equal(sb.buf[i], '.');
			assert_memory_equal(sb.buf + at, src + n % 7, n);
			strbuf_addch(&sb, '!');
			assert_int_equal(sb.buf[at + n], '!');
		}
	}
	strbuf_release(&sb);
}

/* ab_memeq == !memcmp for every length to past its inline limit, a
 * difference at every position, at every alignment */
static void test_memeq(void **state)
{
	unsigned char a[100], b[100];
	size_t n, i, off;

	(void)state;
	for (off = 0; off < 8; off++) {
		for (n = 0; n <= 80; n++) {
			for (i = 0; i < n; i++)
				a[off + i] = b[off + i] = (unsigned char)(i * 37 + n);
			assert_true(ab_memeq(a + off, b + off, n));
			for (i = 0; i < n; i++) {
				b[off + i] ^= 0x80;
				assert_false(ab_memeq(a + off, b + off, n));
				assert_int_equal(!ab_memeq(a + off, b + off, n),
						 !!memcmp(a + off, b + off, n));
				b[off + i] ^= 0x81;
				assert_false(ab_memeq(a + off, b + off, n));
				b[off + i] ^= 0x01;
			}
			assert_true(ab_memeq(a + off, b + off, n));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf), cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_sha256_lanes),
		cmocka_unit_test(test_lines),  cmocka_unit_test(test_num),
		cmocka_unit_test(test_num_exact),
		cmocka_unit_test(test_memeq),
		cmocka_unit_test(test_strbuf_add_lengths),
		cmocka_unit_test(test_table),  cmocka_unit_test(test_error),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
