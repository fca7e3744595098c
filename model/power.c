/*
 * power.c - read power samples back per device; see power.h.
 */
#include "core/compat.h"
#include "power.h"
#include "db_priv.h"

#include <math.h>

static const char sql_find[] =
	"SELECT r.id FROM run r JOIN benchmark b ON b.id = r.benchmark_id"
	" JOIN system y ON y.id = r.system_id"
	" WHERE (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
	"  AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)"
	"  AND EXISTS (SELECT 1 FROM power_sample p WHERE p.run_id = r.id)"
	" ORDER BY r.id LIMIT 1";

static const char sql_run[] =
	"SELECT y.name, b.name, (julianday(r.started) - 2440587.5) * 86400.0,"
	" (julianday(r.finished) - 2440587.5) * 86400.0"
	" FROM run r JOIN benchmark b ON b.id = r.benchmark_id JOIN system y ON y.id = r.system_id"
	" WHERE r.id = ?1";

static const char sql_samples[] =
	"SELECT device, t, watts FROM power_sample WHERE run_id = ?1 ORDER BY device, t";

int db_power_find_run(struct db *db, const struct db_filter *f, int64_t *run_id,
		      struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc = db_prepare(db, &st, sql_find, err);

	*run_id = 0;
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	rc = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? 0 : db_fail(db, err, "cannot find a run");
	sqlite3_finalize(st);
	return rc;
}

static double opt_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int db_power_load(struct db *db, int64_t run_id, struct db_power *out, struct strbuf *err)
{
	sqlite3_stmt *st;
	struct db_power_device *d = NULL;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->run_id = run_id;
	rc = db_prepare(db, &st, sql_run, err);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return ab_fail(err, AB_EDATA, "no run with id %lld", (long long)run_id);
	}
	out->system = ab_strdup((const char *)sqlite3_column_text(st, 0));
	out->benchmark = ab_strdup((const char *)sqlite3_column_text(st, 1));
	out->started = opt_double(st, 2);
	out->finished = opt_double(st, 3);
	sqlite3_finalize(st);
	rc = db_prepare(db, &st, sql_samples, err);
	if (rc < 0)
		goto fail;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *dev = (const char *)sqlite3_column_text(st, 0);
		if (!d || strcmp(d->device, dev)) {
			out->dev = ab_realloc(out->dev, (out->ndev + 1) * sizeof(*out->dev));
			d = &out->dev[out->ndev++];
			memset(d, 0, sizeof(*d));
			d->device = ab_strdup(dev);
			cap = 0;
		}
		if (d->n == cap) {
			cap = cap ? 2 * cap : 256;
			d->t = ab_realloc(d->t, cap * sizeof(double));
			d->watts = ab_realloc(d->watts, cap * sizeof(double));
		}
		d->t[d->n] = sqlite3_column_double(st, 1);
		d->watts[d->n] = sqlite3_column_double(st, 2);
		d->n++;
	}
	if (rc != SQLITE_DONE) {
		rc = db_fail(db, err, "cannot read power samples");
		sqlite3_finalize(st);
		goto fail;
	}
	sqlite3_finalize(st);
	return 0;
fail:
	db_power_release(out);
	return rc;
}

void db_power_release(struct db_power *p)
{
	size_t i;

	for (i = 0; i < p->ndev; i++) {
		free(p->dev[i].device);
		free(p->dev[i].t);
		free(p->dev[i].watts);
	}
	free(p->dev);
	free(p->system);
	free(p->benchmark);
	memset(p, 0, sizeof(*p));
}
