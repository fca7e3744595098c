/*
 * cmd_sql.c - `accelbench sql "SELECT ..."`: one read-only statement on a
 * database opened read-only.  CSV and JSON stream row by row (constant
 * memory, whatever the statement returns); the aligned table needs every
 * row before it can print, so it is capped (--limit, default
 * SQL_DEFAULT_LIMIT rows, with a note).  --timeout bounds the statement.
 */
#include "core/compat.h"
#include "commands.h"

#include <sqlite3.h>

#define SQL_DEFAULT_LIMIT 5000

struct sql_out {
	int csv, json;
	long rows;
	struct strbuf line;
	struct table *t;
	char **names;
	int n;
};

static int write_line(struct sql_out *o)
{
	if (fwrite(o->line.buf, 1, o->line.len, stdout) != o->line.len)
		return -AB_EIO;
	strbuf_reset(&o->line);
	return 0;
}

static json_t *json_cell(const char *v, int type)
{
	if (!v)
		return json_null();
	if (type == SQLITE_INTEGER)
		return json_integer((json_int_t)strtoll(v, NULL, 10));
	if (type == SQLITE_FLOAT) {
		double d = strtod(v, NULL);
		return json_real(d); /* jansson refuses inf/nan: null */
	}
	{
		json_t *j = json_string(v);
		char *c;
		size_t k;

		if (j)
			return j;
		/* not UTF-8: keep the ASCII, mark the rest, stay valid JSON */
		c = ab_strdup(v);
		for (k = 0; c[k]; k++)
			if ((unsigned char)c[k] >= 0x80)
				c[k] = '?';
		j = json_string(c);
		free(c);
		return j ? j : json_null();
	}
}

static int on_row(void *ctx, int n, const char *const *cells, const int *types, int header)
{
	struct sql_out *o = ctx;
	int i;

	if (o->t) {
		if (header) {
			for (i = 0; i < n; i++)
				table_add_column(o->t, cells[i], TABLE_LEFT);
			return 0;
		}
		table_add_row(o->t);
		for (i = 0; i < n; i++)
			table_set(o->t, (size_t)i, cells[i]);
		return 0;
	}
	if (o->json) {
		json_t *obj;
		char *text;

		if (header) {
			o->n = n;
			o->names = ab_calloc((size_t)n + 1, sizeof(*o->names));
			for (i = 0; i < n; i++)
				o->names[i] = ab_strdup(cells[i]);
			strbuf_addstr(&o->line, "[");
			return write_line(o);
		}
		obj = json_object();
		for (i = 0; i < n; i++)
			json_object_set_new(obj, o->names[i], json_cell(cells[i], types[i]));
		text = json_dumps(obj, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17) |
				       JSON_ENSURE_ASCII);
		json_decref(obj);
		if (!text)
			return -AB_EINTERNAL;
		strbuf_addf(&o->line, "%s\n  %s", o->rows ? "," : "", text);
		free(text);
		o->rows++;
		return write_line(o);
	}
	/* CSV */
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&o->line, ',');
		csv_add_field(&o->line, cells[i] ? cells[i] : "");
	}
	strbuf_addch(&o->line, '\n');
	o->rows++;
	return write_line(o);
}

int cmd_sql(int argc, char **argv, struct ctx *ctx)
{
	int csv = 0, json = 0, more = 0;
	long limit = LONG_MIN; /* not given */
	double timeout = 0;
	const struct opt opts[] = {
		{ 0, "csv", OPT_FLAG, &csv, NULL, "print CSV (streamed) instead of an aligned table" },
		{ 0, "json", OPT_FLAG, &json, NULL, "print a JSON array of objects (streamed)" },
		{ 0, "limit", OPT_INT, &limit, "N", "at most N rows (aligned default 5000; 0: all)" },
		{ 0, "timeout", OPT_DOUBLE, &timeout, "S", "give up after S seconds" },
		{ 0, NULL, 0, NULL, NULL, NULL }
	};
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct sql_out o = { 0 };
	struct db_query_opts qo = { 0, 0 };
	int n, rc, i;

	n = cli_parse(cli_find("sql"), opts, argc, argv);
	if (n == CLI_HELP)
		return AB_OK;
	if (n < 0)
		return AB_EUSAGE;
	if (n != 1)
		return cli_error(AB_EUSAGE, "sql: give exactly one statement, quoted");
	if (csv && json)
		return cli_error(AB_EUSAGE, "sql: --csv and --json exclude each other");
	if (limit != LONG_MIN && limit < 0)
		return cli_error(AB_EUSAGE, "sql: --limit must be 0 or more");
	if (timeout < 0 || timeout != timeout)
		return cli_error(AB_EUSAGE, "sql: --timeout must be a positive number of seconds");
	if ((rc = cli_need_db(ctx)) != AB_OK)
		return rc;
	o.csv = csv;
	o.json = json;
	strbuf_init(&o.line, 0);
	qo.limit = limit != LONG_MIN ? limit : (csv || json) ? 0 : SQL_DEFAULT_LIMIT;
	qo.timeout_s = timeout;
	if (!csv && !json)
		o.t = table_new();
	rc = db_query_each(ctx->db, argv[0], &qo, on_row, &o, &more, &err);
	if (rc == -AB_EIO && !err.len)
		ab_fail(&err, AB_EIO, "cannot write to standard output: %s", strerror(errno));
	if (rc == 0 && json) {
		strbuf_addstr(&o.line, o.rows ? "\n]\n" : "]\n");
		if (write_line(&o) < 0)
			rc = ab_fail(&err, AB_EIO, "cannot write to standard output: %s",
				     strerror(errno));
	}
	if (rc == 0 && o.t) {
		table_render_text(o.t, &out);
		rc = cli_output(NULL, &out);
	} else if (rc == 0) {
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = ab_fail(&err, AB_EIO, "cannot write to standard output: %s",
				     strerror(errno));
		rc = cli_status(rc, &err);
	} else {
		rc = cli_status(rc, &err);
	}
	if (rc == AB_OK && more && o.t)
		fprintf(stderr, "accelbench: note: only the first %ld rows are shown; "
			"--limit N shows more, --csv and --json stream them all\n", qo.limit);
	else if (rc == AB_OK && more)
		fprintf(stderr, "accelbench: note: stopped after %ld rows (--limit)\n", qo.limit);
	if (o.t)
		table_free(o.t);
	for (i = 0; i < o.n; i++)
		free(o.names[i]);
	free(o.names);
	strbuf_release(&o.line);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}
