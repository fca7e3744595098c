/*
 * fmt.c - machine-readable rendering of views/ records: a JSON object
 * and a CSV row from the same fields, so --json and --csv always agree.
 * JSON numbers are null when not finite; the CSV cell is then empty.
 */
#include "core/compat.h"
#include "cli.h"

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

void cli_record_csv(struct strbuf *out, const struct views_record *r, int header)
{
	struct strbuf cell = STRBUF_INIT;
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		const struct views_field *f = &r->v[i];
		strbuf_reset(&cell);
		if (header) {
			strbuf_addstr(&cell, f->key);
		} else if (!views_field_missing(f)) {
			switch (f->type) {
			case VIEWS_STR:
				strbuf_addstr(&cell, f->s);
				break;
			case VIEWS_INT:
			case VIEWS_POS:
				strbuf_addf(&cell, "%lld", f->i);
				break;
			case VIEWS_NUM:
				views_fmt_raw(&cell, f->num);
				break;
			case VIEWS_BOOL:
				strbuf_addstr(&cell, f->i ? "true" : "false");
				break;
			default:
				for (k = 0; k < f->nstrs; k++)
					strbuf_addf(&cell, "%s%s", k ? ";" : "", f->strs[k]);
				break;
			}
		}
		if (i)
			strbuf_addch(out, ',');
		csv_add_field(out, cell.buf);
	}
	strbuf_addch(out, '\n');
	strbuf_release(&cell);
}
