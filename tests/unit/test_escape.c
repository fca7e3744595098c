/*
 * test_escape.c - control characters in human output (strbuf_add_escaped,
 * strbuf_shown, table_render_text) and the line reader's unterminated flag.
 */
#include "unit.h"

static void test_escaped(void **state)
{
	struct strbuf sb = STRBUF_INIT, tmp = STRBUF_INIT;
	const char *plain = "caf\xc3\xa9 r\xc3\xa9sum\xc3\xa9.csv";

	(void)state;
	assert_int_equal(strbuf_add_escaped(&sb, "a\033[31mb\nc\td\re\x7f" "f\xc2\x9bg"), 6);
	assert_string_equal(sb.buf, "a\\x1b[31mb\\nc\\td\\re\\x7f" "f\\u009bg");
	assert_ptr_equal(strbuf_shown(&tmp, plain), plain); /* UTF-8 text passes untouched */
	assert_string_equal(strbuf_shown(&tmp, "x\ny"), "x\\ny");
	strbuf_release(&sb);
	strbuf_release(&tmp);
}

static void test_table_text(void **state)
{
	struct table *t = table_new();
	struct strbuf out = STRBUF_INIT;

	(void)state;
	table_add_column(t, "path", TABLE_LEFT);
	table_add_column(t, "n", TABLE_RIGHT);
	table_add_row(t);
	table_set(t, 0, "evil\033]0;owned\007\nname");
	table_set(t, 1, "1");
	table_render_text(t, &out);
	assert_string_equal(out.buf, "path                        n\n"
				     "--------------------------  -\n"
				     "evil\\x1b]0;owned\\x07\\nname  1\n");
	strbuf_reset(&out);
	table_render_csv(t, &out); /* machine output keeps the bytes */
	assert_non_null(strchr(out.buf, '\033'));
	table_free(t);
	strbuf_release(&out);
}

static void test_unterminated(void **state)
{
	char text[] = "a,b\n1,2\n3,4";
	FILE *fp = fmemopen(text, strlen(text), "r");
	struct strbuf err = STRBUF_INIT;
	struct lines lr;

	(void)state;
	assert_non_null(fp);
	lines_init(&lr, fp, 1024, 0);
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_int_equal(lr.unterminated, 0);
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_int_equal(lr.unterminated, 0);
	assert_int_equal(lines_next(&lr, &err), 1);
	assert_string_equal(lr.line.buf, "3,4");
	assert_int_equal(lr.unterminated, 1);
	assert_int_equal(lines_next(&lr, &err), 0);
	lines_release(&lr);
	fclose(fp);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaped),
		cmocka_unit_test(test_table_text),
		cmocka_unit_test(test_unterminated),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
