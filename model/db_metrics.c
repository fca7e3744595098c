/*
 * db_metrics.c - run_data.metrics (schema 9, docs/schema.md "Storage"): a
 * run's metrics packed into its row as JSON object text, the keys metric
 * kind ids in decimal, ascending, the values numbers in the shortest form
 * that reads back as the same double, always with a '.' or an exponent (a
 * JSON reader gives a real, as metric_data's REAL column did).  Writing,
 * reading (no JSON library: the text is ours), and the SQL aggregate the
 * migration packs old metric_data rows with.
 */
#include "core/compat.h"
#include "db_priv.h"
#include "core/num.h"

#include <math.h>

static int item_cmp(const void *a, const void *b)
{
	const struct db_metric_item *x = a, *y = b;

	return (x->kind > y->kind) - (x->kind < y->kind);
}

/*
 * A value with at most 15 significant digits and at most 9 decimals in
 * fixed notation (most measurements: 263.375, 0.3, 2107): n / 10^k for the
 * smallest k whose quotient is v.  The quotient of two exact doubles is
 * correctly rounded, as strtod is, so the text reads back as v; and with
 * <= 15 digits it is what %.15g prints (v is within an ulp of it, far from
 * a 15-digit rounding boundary), i.e. jtext_real()'s text, at a fraction
 * of its cost (it tries 15, 16 and 17 digits).  0: not such a value.
 */
static int number_short(struct strbuf *out, double v)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	double a = fabs(v);
	int k;

	if (!(a >= 1e-4 && a < 1e15))
		return 0; /* %g's exponent notation, or more than 15 digits */
	for (k = 0; k < (int)(sizeof(p10) / sizeof(p10[0])); k++) {
		double x = a * p10[k];
		unsigned long long n, ip, fp;
		char b[40];
		int i = (int)sizeof(b), d;

		if (x >= 1e15)
			return 0;
		n = (unsigned long long)(x + 0.5);
		if ((double)n / p10[k] != a)
			continue;
		/* the smallest k: no trailing zero after the point ("N.0" for k 0) */
		ip = n / (unsigned long long)p10[k];
		fp = n % (unsigned long long)p10[k];
		if (!k)
			b[--i] = '0';
		for (d = 0; d < k; d++) {
			b[--i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		b[--i] = '.';
		do {
			b[--i] = (char)('0' + ip % 10);
			ip /= 10;
		} while (ip);
		if (v < 0)
			b[--i] = '-';
		strbuf_add(out, b + i, sizeof(b) - (size_t)i);
		return 1;
	}
	return 0;
}

void db_metrics_number(struct strbuf *out, double v)
{
	size_t at = out->len, i;

	if (v == 0)
		v = 0.0; /* a REAL column stored -0.0 as 0 too */
	if (number_short(out, v))
		return;
	jtext_real(out, v);
	for (i = at; i < out->len; i++)
		if (out->buf[i] == '.' || out->buf[i] == 'e' || out->buf[i] == 'E')
			return;
	strbuf_add(out, ".0", 2);
}

void db_metrics_pack(struct strbuf *out, struct db_metric_item *v, size_t n)
{
	size_t i, k;

	/* a run has a few metrics, mostly in kind order already */
	for (i = 1; i < n; i++) {
		struct db_metric_item t = v[i];

		for (k = i; k > 0 && v[k - 1].kind > t.kind; k--)
			v[k] = v[k - 1];
		v[k] = t;
	}
	/* written in place, room made once (the writer packs every run's) */
	for (i = 0, k = 2; i < n; i++)
		k += 24 + v[i].text_len;
	strbuf_grow(out, k);
	for (i = 0; i < n; i++) {
		char d[24], *p = out->buf + out->len;
		size_t j = sizeof(d);
		unsigned long long u = (unsigned long long)v[i].kind; /* an id: > 0 */

		do {
			d[--j] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		*p++ = i ? ',' : '{';
		*p++ = '"';
		memcpy(p, d + j, sizeof(d) - j);
		p += sizeof(d) - j;
		*p++ = '"';
		*p++ = ':';
		if (v[i].text) {
			memcpy(p, v[i].text, v[i].text_len);
			p += v[i].text_len;
		}
		strbuf_setlen(out, (size_t)(p - out->buf));
		if (!v[i].text) /* grows out itself */
			db_metrics_number(out, v[i].value);
	}
	if (n)
		strbuf_addch(out, '}');
}

/*
 * The number at p: its bytes (digits, sign, point, exponent) read by
 * num_parse_double, exact for the plain decimals the sink writes.  *end is
 * set past the number; NULL when those bytes are not one finite number.
 */
double db_metrics_value(const char *p, const char **end)
{
	const char *q = p;
	double v;

	while ((*q >= '0' && *q <= '9') || *q == '.' || *q == '-' || *q == '+' || *q == 'e' ||
	       *q == 'E')
		q++;
	if (q == p || num_parse_double(p, (size_t)(q - p), &v) != NUM_OK) {
		*end = NULL;
		return 0;
	}
	*end = q;
	return v;
}

int db_metrics_next_kind(const char **pp, int64_t *kind, const char **value)
{
	const char *p = *pp;
	int64_t k = 0;
	int digits = 0;

	if (!p)
		return 0;
	if (*p == '{' || *p == ',')
		p++;
	else
		return *p == '}' ? 0 : -1;
	if (*p == '}' && p[-1] == '{')
		return 0;
	if (*p++ != '"')
		return -1;
	while (*p >= '0' && *p <= '9' && digits < 18) {
		k = 10 * k + (*p++ - '0');
		digits++;
	}
	if (!digits || *p++ != '"' || *p++ != ':')
		return -1;
	if (!((*p >= '0' && *p <= '9') || *p == '-'))
		return -1;
	*kind = k;
	*value = p;
	/* past the number: to the ',' or '}' after it */
	while (*p && *p != ',' && *p != '}')
		p++;
	if (!*p)
		return -1;
	*pp = p;
	return 1;
}

int db_metrics_next(const char **pp, int64_t *kind, double *value)
{
	const char *p = *pp, *v, *end;
	int rc = db_metrics_next_kind(&p, kind, &v);

	if (rc <= 0)
		return rc;
	/* the number must run exactly to the ',' or '}' next_kind found */
	*value = db_metrics_value(v, &end);
	if (end != p)
		return -1;
	*pp = p;
	return 1;
}

/* ab_pack_metrics(kind_id, value): the packed text of the rows aggregated
 * (the migration from metric_data), NULL for none. */
struct pack_agg {
	struct db_metric_item *v;
	size_t n, cap;
};

static void agg_step(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	struct pack_agg *a = sqlite3_aggregate_context(cx, sizeof(*a));

	(void)argc;
	if (!a)
		return;
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 8;
		a->v = ab_realloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n].kind = sqlite3_value_int64(argv[0]);
	a->v[a->n].value = sqlite3_value_double(argv[1]);
	a->v[a->n].text = NULL;
	a->v[a->n].text_len = 0;
	a->n++;
}

static void agg_final(sqlite3_context *cx)
{
	struct pack_agg *a = sqlite3_aggregate_context(cx, 0);
	struct strbuf sb = STRBUF_INIT;

	if (!a || !a->n) {
		sqlite3_result_null(cx);
		return;
	}
	qsort(a->v, a->n, sizeof(*a->v), item_cmp);
	db_metrics_pack(&sb, a->v, a->n);
	sqlite3_result_text(cx, sb.buf, (int)sb.len, SQLITE_TRANSIENT);
	strbuf_release(&sb);
	free(a->v);
}

int db_metrics_register(sqlite3 *sql)
{
	return sqlite3_create_function(sql, "ab_pack_metrics", 2,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
				       NULL, agg_step, agg_final);
}
