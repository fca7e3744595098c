/*
 * opts.c - option parsing from per-command tables, usage text, output
 * helpers shared by the commands.
 */
#include "core/compat.h"
#include "cli.h"

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("accelbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

int cli_status(int status, const struct strbuf *err)
{
	int code = ab_exit_code(status);

	if (code != AB_OK)
		fprintf(stderr, "accelbench: %s\n", err && err->len ? err->buf : ab_exit_name(code));
	return code;
}

int cli_output(const char *path, const struct strbuf *data)
{
	struct atomic_file af;
	struct strbuf err = STRBUF_INIT;
	int rc;

	rc = atomic_open(&af, path ? path : "-", &err);
	if (rc < 0)
		goto out;
	if (data->len && fwrite(data->buf, 1, data->len, af.fp) != data->len) {
		atomic_abort(&af);
		rc = ab_fail(&err, AB_EIO, "cannot write '%s': %s", path ? path : "stdout",
			     strerror(errno));
		goto out;
	}
	rc = atomic_commit(&af, &err);
out:
	rc = cli_status(rc, &err);
	strbuf_release(&err);
	return rc;
}

/*
 * A double the way jansson writes reals, with the fewest significant
 * digits (15, 16 or 17) that read back as the same double: 9.112610416666666
 * stays that (15 digits would give 9.11261041666667), 0.1 stays 0.1.
 */
void cli_json_real(struct strbuf *out, double v)
{
	char buf[40], *e;
	int prec, n = 0;

	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (n <= 0 || (size_t)n >= sizeof(buf) - 3)
			return;
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		/* still a real when read back */
		buf[n++] = '.';
		buf[n++] = '0';
		buf[n] = 0;
	}
	/* jansson's exponent: no '+', no leading zeros (1e+20 -> 1e20, 1e-05 -> 1e-5) */
	e = strchr(buf, 'e');
	if (e) {
		char *d = e + 1, *src = e + 1;
		if (*src == '+') {
			src++;
		} else if (*src == '-') {
			d++;
			src++;
		}
		while (*src == '0' && src[1])
			src++;
		memmove(d, src, strlen(src) + 1);
	}
	strbuf_addstr(out, buf);
}

/* Rewrite every real in JSON text printed with 17 digits to its shortest form. */
static void shortest_reals(struct strbuf *out, const char *text)
{
	const char *p = text;
	int in_str = 0;

	while (*p) {
		const char *q;
		if (in_str) {
			if (*p == '\\' && p[1]) {
				strbuf_add(out, p, 2);
				p += 2;
				continue;
			}
			if (*p == '"')
				in_str = 0;
			strbuf_addch(out, *p++);
			continue;
		}
		if (*p == '"') {
			in_str = 1;
			strbuf_addch(out, *p++);
			continue;
		}
		if (*p != '-' && !(*p >= '0' && *p <= '9')) {
			strbuf_addch(out, *p++);
			continue;
		}
		q = p;
		while (*q && strchr("+-0123456789.eE", *q))
			q++;
		if (memchr(p, '.', (size_t)(q - p)) || memchr(p, 'e', (size_t)(q - p)) ||
		    memchr(p, 'E', (size_t)(q - p)))
			cli_json_real(out, strtod(p, NULL));
		else
			strbuf_add(out, p, (size_t)(q - p));
		p = q;
	}
}

int cli_output_json(const char *path, json_t *j)
{
	struct strbuf sb = STRBUF_INIT;
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17) |
				   JSON_ENCODE_ANY);
	int rc;

	if (!text)
		return cli_error(AB_EINTERNAL, "cannot encode JSON");
	shortest_reals(&sb, text);
	strbuf_addch(&sb, '\n');
	free(text);
	rc = cli_output(path, &sb);
	strbuf_release(&sb);
	return rc;
}

void cli_free_list(struct opt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static const struct opt *find_long(const struct opt *opts, const char *name, size_t len)
{
	for (; opts && opts->long_name; opts++)
		if (strlen(opts->long_name) == len && !strncmp(opts->long_name, name, len))
			return opts;
	return NULL;
}

static const struct opt *find_short(const struct opt *opts, char c)
{
	for (; opts && opts->long_name; opts++)
		if (opts->short_name == c)
			return opts;
	return NULL;
}

static int set_value(const struct cmd *cmd, const struct opt *o, const char *arg)
{
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_LIST: {
		struct opt_list *l = o->value;
		l->v = ab_realloc(l->v, (l->n + 1) * sizeof(*l->v));
		l->v[l->n++] = arg;
		return 0;
	}
	case OPT_INT: {
		long long v;
		if (num_parse_ll(arg, strlen(arg), &v) != NUM_OK || v < LONG_MIN || v > LONG_MAX)
			return cli_error(-AB_EUSAGE, "%s: --%s wants an integer, not '%s'",
					 cmd->name, o->long_name, arg);
		*(long *)o->value = (long)v;
		return 0;
	}
	case OPT_DOUBLE: {
		double v;
		if (num_parse_double(arg, strlen(arg), &v) != NUM_OK)
			return cli_error(-AB_EUSAGE, "%s: --%s wants a number, not '%s'", cmd->name,
					 o->long_name, arg);
		*(double *)o->value = v;
		return 0;
	}
	}
	return -AB_EINTERNAL;
}

int cli_parse(const struct cmd *cmd, const struct opt *opts, int argc, char **argv)
{
	int i, npos = 0, only_pos = 0;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct opt *o;
		const char *arg = NULL;

		if (only_pos || a[0] != '-' || !a[1]) {
			argv[npos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_usage(stdout, cmd, opts);
			return CLI_HELP;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find_long(opts, a + 2, len);
			if (!o && len == 2 && !strncmp(a + 2, "db", 2))
				/* a global option given after the command */
				return cli_error(-AB_EUSAGE, "%s: --db is a global option and goes before the "
						 "command: accelbench --db PATH %s ...", cmd->name, cmd->name);
			if (!o)
				return cli_error(-AB_EUSAGE, "%s: unknown option '%s' (see 'accelbench %s -h')",
						 cmd->name, a, cmd->name);
			if (eq)
				arg = eq + 1;
		} else {
			o = find_short(opts, a[1]);
			if (!o)
				return cli_error(-AB_EUSAGE, "%s: unknown option '%s' (see 'accelbench %s -h')",
						 cmd->name, a, cmd->name);
			if (a[2])
				arg = a + 2;
		}
		if (o->kind == OPT_FLAG) {
			if (arg)
				return cli_error(-AB_EUSAGE, "%s: option '--%s' takes no value", cmd->name,
						 o->long_name);
		} else if (!arg) {
			if (i + 1 >= argc)
				return cli_error(-AB_EUSAGE, "%s: option '--%s' needs a value", cmd->name,
						 o->long_name);
			arg = argv[++i];
		}
		if (set_value(cmd, o, arg) < 0)
			return -AB_EUSAGE;
	}
	return npos;
}

int cli_parse_options(const char *name, const struct opt *opts, int argc, char **argv,
		      int *code)
{
	int n = cli_parse(cli_find(name), opts, argc, argv);

	if (n == CLI_HELP) {
		*code = AB_OK;
		return 1;
	}
	if (n < 0) {
		*code = AB_EUSAGE;
		return 1;
	}
	if (n > 0) {
		*code = cli_error(AB_EUSAGE, "%s: unexpected argument '%s'", name, argv[0]);
		return 1;
	}
	return 0;
}

void cli_usage(FILE *fp, const struct cmd *cmd, const struct opt *opts)
{
	const struct opt *o;

	fprintf(fp, "usage: accelbench %s%s%s\n\n%s\n", cmd->name, *cmd->synopsis ? " " : "",
		cmd->synopsis, cmd->summary);
	if (!opts || !opts->long_name)
		return;
	fputs("\noptions:\n", fp);
	for (o = opts; o->long_name; o++) {
		struct strbuf left = STRBUF_INIT;

		if (o->short_name)
			strbuf_addf(&left, "-%c, ", o->short_name);
		else
			strbuf_addstr(&left, "    ");
		strbuf_addf(&left, "--%s", o->long_name);
		if (o->arg)
			strbuf_addf(&left, " %s", o->arg);
		fprintf(fp, "  %-28s %s\n", left.buf, o->help);
		strbuf_release(&left);
	}
}

struct table *cli_json_table(json_t *arr, const char *const *cols)
{
	struct table *t = table_new();
	size_t i, c, ncols = 0;
	json_t *row;

	for (c = 0; cols[c]; c++) {
		const char *spec = cols[c], *title = strchr(spec, ':');
		struct strbuf tb = STRBUF_INIT;
		int right = 0;

		if (title) {
			const char *end = strchr(title + 1, ':');
			strbuf_add(&tb, title + 1, end ? (size_t)(end - title - 1) : strlen(title + 1));
			right = end && end[1] == 'r';
			if (!tb.len) /* "key::r": the key is the title */
				strbuf_add(&tb, spec, (size_t)(title - spec));
		} else {
			strbuf_addstr(&tb, spec);
		}
		table_add_column(t, tb.buf, right ? TABLE_RIGHT : TABLE_LEFT);
		strbuf_release(&tb);
		ncols++;
	}
	json_array_foreach(arr, i, row) {
		table_add_row(t);
		for (c = 0; c < ncols; c++) {
			const char *spec = cols[c], *colon = strchr(spec, ':');
			struct strbuf key = STRBUF_INIT, v = STRBUF_INIT;
			json_t *val;

			strbuf_add(&key, spec, colon ? (size_t)(colon - spec) : strlen(spec));
			val = json_object_get(row, key.buf);
			if (json_is_string(val))
				strbuf_addstr(&v, json_string_value(val));
			else if (json_is_integer(val))
				strbuf_addf(&v, "%" JSON_INTEGER_FORMAT, json_integer_value(val));
			else if (json_is_real(val))
				num_format(&v, json_real_value(val));
			else if (json_is_true(val) || json_is_false(val))
				strbuf_addstr(&v, json_is_true(val) ? "yes" : "no");
			table_set(t, c, v.len ? v.buf : NULL);
			strbuf_release(&key);
			strbuf_release(&v);
		}
	}
	return t;
}
