/*
 * report_load.c - the report's inventory loaded on a second thread
 * (report_load.h).
 */
#include "core/compat.h"
#include "reports/report_load.h"

#include <pthread.h>

struct report_inv_job {
	struct db *db;                 /* the caller's connection */
	struct db *own;                /* the thread's connection, NULL: none */
	const struct db_inv_query *q;
	size_t max_runs;
	const struct db_filter *mlp;
	struct report_mlperf m;
	pthread_t tid;
	int started;                   /* the thread runs */
	int rc;
	struct views_inventory inv;
	struct db_trace_window *tw;
	size_t ntw;
	struct strbuf err;
};

static void inv_load(struct report_inv_job *j, struct db *db)
{
	size_t i;

	j->rc = views_inventory_build(db, j->q, j->max_runs, &j->inv, &j->err);
	if (j->rc == 0 && (j->rc = db_trace_windows_load(db, j->q, &j->tw, &j->ntw, &j->err)) < 0)
		views_inventory_release(&j->inv);
	for (i = 0; j->rc == 0 && j->mlp && i < j->inv.inv.nbenchmarks; i++)
		if (!strcmp(j->inv.inv.benchmarks[i].suite, "mlperf-training")) {
			j->m.done = 1;
			j->m.rc = views_mlperf_build(db, j->mlp, &j->m.v, &j->m.err);
			break;
		}
}

static void *inv_main(void *arg)
{
	struct report_inv_job *j = arg;

	inv_load(j, j->own);
	return NULL;
}

struct report_inv_job *report_inv_start(struct db *db, const struct db_inv_query *q,
					size_t max_runs, const struct db_filter *mlp)
{
	struct report_inv_job *j = ab_calloc(1, sizeof(*j));
	struct strbuf e = STRBUF_INIT;

	j->db = db;
	j->q = q;
	j->max_runs = max_runs;
	j->mlp = mlp;
	strbuf_init(&j->err, 0);
	strbuf_init(&j->m.err, 0);
	/* a second reader of the same file (opened here, in the caller's
	 * thread: SQLite's configuration calls are not thread-safe) */
	if ((getenv("AB_THREADS") && !strcmp(getenv("AB_THREADS"), "1")) ||
	    db_open(&j->own, db_path(db), DB_READONLY, &e) < 0)
		j->own = NULL;   /* AB_THREADS=1: one thread, for comparisons */
	strbuf_release(&e);
	if (j->own && pthread_create(&j->tid, NULL, inv_main, j) == 0)
		j->started = 1;
	return j;
}

int report_inv_finish(struct report_inv_job *j, struct views_inventory *inv,
		      struct db_trace_window **tw, size_t *ntw, struct report_mlperf *m,
		      struct strbuf *err)
{
	int rc;

	if (j->started)
		pthread_join(j->tid, NULL);
	else
		inv_load(j, j->db);
	db_free(j->own);
	rc = j->rc;
	*inv = j->inv;
	*tw = j->tw;
	*ntw = j->ntw;
	*m = j->m;
	if (rc < 0 && err) {
		strbuf_reset(err);
		strbuf_addbuf(err, &j->err);
	}
	strbuf_release(&j->err);
	free(j);
	return rc;
}
