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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf), cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_lines),  cmocka_unit_test(test_num),
		cmocka_unit_test(test_table),  cmocka_unit_test(test_error),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
