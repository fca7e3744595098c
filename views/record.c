/*
 * record.c - a row as an ordered list of named, typed fields: what the
 * JSON and CSV renderers walk, so both carry the same fields.
 */
#include "core/compat.h"
#include "views/views.h"

#include <math.h>

void views_record_reset(struct views_record *r)
{
	r->n = 0;
}

void views_record_release(struct views_record *r)
{
	free(r->v);
	r->v = NULL;
	r->n = r->alloc = 0;
}

static struct views_field *add(struct views_record *r, const char *key, enum views_type type)
{
	struct views_field *f;

	if (r->n == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 32;
		r->v = ab_realloc(r->v, r->alloc * sizeof(*r->v));
	}
	f = &r->v[r->n++];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->type = type;
	f->num = NAN;
	return f;
}

void views_rec_str(struct views_record *r, const char *key, const char *s)
{
	add(r, key, VIEWS_STR)->s = s;
}

void views_rec_int(struct views_record *r, const char *key, long long i)
{
	add(r, key, VIEWS_INT)->i = i;
}

void views_rec_pos(struct views_record *r, const char *key, long i)
{
	add(r, key, VIEWS_POS)->i = i;
}

void views_rec_num(struct views_record *r, const char *key, double v)
{
	add(r, key, VIEWS_NUM)->num = v;
}

void views_rec_bool(struct views_record *r, const char *key, int b)
{
	add(r, key, VIEWS_BOOL)->i = !!b;
}

void views_rec_strs(struct views_record *r, const char *key, const char *const *strs, size_t n)
{
	struct views_field *f = add(r, key, VIEWS_STRS);

	f->strs = strs;
	f->nstrs = n;
}

int views_field_missing(const struct views_field *f)
{
	switch (f->type) {
	case VIEWS_STR:
		return !f->s;
	case VIEWS_POS:
		return f->i <= 0;
	case VIEWS_NUM:
		return !isfinite(f->num);
	default:
		return 0;
	}
}
