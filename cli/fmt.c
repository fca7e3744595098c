/*
 * fmt.c - machine-readable rendering: views/ records as JSON objects, and
 * CSV made from those same JSON rows, so --json and --csv always carry the
 * same fields (raw numbers, units in their own columns).  JSON numbers are
 * null when not finite; the CSV cell is then empty.
 */
#include "core/compat.h"
#include "cli.h"
#include "reports/export.h"

#include <math.h>

json_t *cli_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cli_json_pos(long v)
{
	return v > 0 ? json_integer(v) : json_null();
}

json_t *cli_json_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *cli_record_json(const struct views_record *r)
{
	json_t *o = json_object();
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct views_field *f = &r->v[i];
		json_t *v;
		if (views_field_missing(f)) {
			v = json_null();
		} else {
			switch (f->type) {
			case VIEWS_STR:
				v = json_string(f->s);
				break;
			case VIEWS_INT:
			case VIEWS_POS:
				v = json_integer((json_int_t)f->i);
				break;
			case VIEWS_NUM:
				v = json_real(f->num);
				break;
			case VIEWS_BOOL:
				v = json_boolean(f->i);
				break;
			default:
				v = json_array();
				for (k = 0; k < f->nstrs; k++)
					json_array_append_new(v, json_string(f->strs[k]));
				break;
			}
		}
		json_object_set_new(o, f->key, v);
	}
	return o;
}

/* ---- CSV from the JSON rows ------------------------------------------ */

struct csv_rows {
	char **keys;           /* columns in order of first appearance */
	size_t nkeys;
	char ***cells;         /* cells[row][column], NULL: empty */
	size_t nrows, alloc;
};

static size_t csv_column(struct csv_rows *c, const char *key)
{
	size_t i, r;

	for (i = 0; i < c->nkeys; i++)
		if (!strcmp(c->keys[i], key))
			return i;
	c->keys = ab_realloc(c->keys, (c->nkeys + 1) * sizeof(*c->keys));
	c->keys[c->nkeys] = ab_strdup(key);
	for (r = 0; r < c->nrows; r++) {
		c->cells[r] = ab_realloc(c->cells[r], (c->nkeys + 1) * sizeof(**c->cells));
		c->cells[r][c->nkeys] = NULL;
	}
	return c->nkeys++;
}

static void csv_scalar(struct strbuf *sb, json_t *v)
{
	size_t i;
	json_t *x;

	switch (json_typeof(v)) {
	case JSON_STRING:
		strbuf_add(sb, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		strbuf_addf(sb, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		views_fmt_raw(sb, json_real_value(v));
		break;
	case JSON_TRUE:
		strbuf_addstr(sb, "true");
		break;
	case JSON_FALSE:
		strbuf_addstr(sb, "false");
		break;
	case JSON_ARRAY:
		/* a list of names: one cell, ';' between them */
		json_array_foreach(v, i, x) {
			if (i)
				strbuf_addch(sb, ';');
			csv_scalar(sb, x);
		}
		break;
	case JSON_OBJECT: {
		char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15));
		if (text)
			strbuf_addstr(sb, text);
		free(text);
		break;
	}
	default: /* null: empty */
		break;
	}
}

/* Set the fields of object o (keys prefixed by prefix) in row r; nested
 * objects become dotted columns. */
static void csv_set(struct csv_rows *c, size_t r, const char *prefix, json_t *o, const char *skip)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		size_t col;
		if (skip && !strcmp(k, skip))
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%s%s", prefix, k);
		if (json_is_object(v)) {
			/* metrics.energy.value, metrics.energy.unit, params.x */
			strbuf_addch(&key, '.');
			csv_set(c, r, key.buf, v, NULL);
			continue;
		}
		col = csv_column(c, key.buf);
		strbuf_reset(&val);
		/* text a spreadsheet would run as a formula (a system called
		 * "=HYPERLINK(...)") gets an apostrophe first; numbers stay raw */
		if ((json_is_string(v) && export_formula_like(json_string_value(v),
							       json_string_length(v))) ||
		    (json_is_array(v) && json_array_size(v) && json_is_string(json_array_get(v, 0)) &&
		     export_formula_like(json_string_value(json_array_get(v, 0)),
					 json_string_length(json_array_get(v, 0)))))
			strbuf_addch(&val, '\'');
		csv_scalar(&val, v);
		free(c->cells[r][col]);
		c->cells[r][col] = json_is_null(v) ? NULL : ab_strdup(val.buf);
	}
	strbuf_release(&key);
	strbuf_release(&val);
}

static size_t csv_new_row(struct csv_rows *c)
{
	if (c->nrows == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->cells = ab_realloc(c->cells, c->alloc * sizeof(*c->cells));
	}
	c->cells[c->nrows] = ab_calloc(c->nkeys + 1, sizeof(**c->cells));
	return c->nrows++;
}

/* The first field of o holding an array of objects (one CSV row each). */
static const char *nested_rows(json_t *o)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v)
		if (json_is_array(v) && json_array_size(v) && json_is_object(json_array_get(v, 0)))
			return k;
	return NULL;
}

int cli_output_csv(const char *path, json_t *arr)
{
	struct csv_rows c = { 0 };
	struct strbuf out = STRBUF_INIT;
	size_t i, j, r, k;
	json_t *o, *p;
	int rc;

	json_array_foreach(arr, i, o) {
		const char *nest = json_is_object(o) ? nested_rows(o) : NULL;
		if (!json_is_object(o))
			continue;
		if (!nest) {
			csv_set(&c, csv_new_row(&c), "", o, NULL);
			continue;
		}
		/* one row per nested object, the parent's fields repeated;
		 * a nested key that the parent also has gets "field." */
		json_array_foreach(json_object_get(o, nest), j, p) {
			struct strbuf pre = STRBUF_INIT;
			const char *pk;
			json_t *pv;
			int clash = 0;
			r = csv_new_row(&c);
			csv_set(&c, r, "", o, nest);
			json_object_foreach(p, pk, pv)
				clash |= json_object_get(o, pk) != NULL;
			if (clash)
				strbuf_addf(&pre, "%s.", nest);
			csv_set(&c, r, pre.buf, p, NULL);
			strbuf_release(&pre);
		}
	}
	for (k = 0; k < c.nkeys; k++) {
		if (k)
			strbuf_addch(&out, ',');
		csv_add_field(&out, c.keys[k]);
	}
	strbuf_addch(&out, '\n');
	for (r = 0; r < c.nrows; r++) {
		for (k = 0; k < c.nkeys; k++) {
			if (k)
				strbuf_addch(&out, ',');
			if (c.cells[r][k])
				csv_add_field(&out, c.cells[r][k]);
			free(c.cells[r][k]);
		}
		strbuf_addch(&out, '\n');
		free(c.cells[r]);
	}
	for (k = 0; k < c.nkeys; k++)
		free(c.keys[k]);
	free(c.keys);
	free(c.cells);
	rc = cli_output(path, &out);
	strbuf_release(&out);
	return rc;
}

/* ---- fitting terminal tables ----------------------------------------- */

void cli_table_fit(struct table *t, const size_t *drop, size_t ndrop, int wide,
		   struct strbuf *note)
{
	size_t i, n = 0;

	if (wide)
		return;
	for (i = 0; i < ndrop && table_text_width(t) > CLI_WIDTH; i++) {
		table_hide_column(t, drop[i]);
		strbuf_addf(note, "%s%s", n++ ? ", " : "(not shown to fit "
						      "120 columns: ", table_title(t, drop[i]));
	}
	if (n)
		strbuf_addstr(note, "; --wide shows every column)\n");
}

void cli_wrap(struct strbuf *out, const char *text, size_t width)
{
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n'), *end = eol ? eol : p + strlen(p);
		size_t w = width;
		while ((size_t)(end - p) > w) {
			const char *cut = p + w;
			while (cut > p && *cut != ' ')
				cut--;
			if (cut == p)
				break; /* one long word: leave it whole */
			strbuf_add(out, p, (size_t)(cut - p));
			strbuf_addstr(out, "\n  ");
			p = cut + 1;
			w = width > 2 ? width - 2 : width; /* continuation lines are indented */
		}
		strbuf_add(out, p, (size_t)(end - p));
		if (eol)
			strbuf_addch(out, '\n');
		p = eol ? eol + 1 : end;
	}
}
