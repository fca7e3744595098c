/*
 * report_load.c - the report's inventory and trace windows loaded on a
 * second thread (report_load.h).
 */
#include "core/compat.h"
#include "reports/report_load.h"

#include <pthread.h>

struct report_inv_job {
	struct db *db;                 /* the caller's connection */
	struct db *own;                /* the thread's connection, NULL: none */
	const struct db_inv_query *q;
	size_t max_runs;
	pthread_t tid;
	int started;                   /* the thread runs */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int inv_done;                  /* under mu: inv and rc are set */
	int rc;                        /* views_inventory_build's */
	struct views_inventory inv;
	struct strbuf err;
	int trc;                       /* db_trace_windows_load's */
	struct db_trace_window *tw;
	size_t ntw;
	struct strbuf terr;
};

static void inv_load(struct report_inv_job *j, struct db *db)
{
	j->rc = views_inventory_build(db, j->q, j->max_runs, &j->inv, &j->err);
}

static void traces_load(struct report_inv_job *j, struct db *db)
{
	if (j->rc == 0)
		j->trc = db_trace_windows_load(db, j->q, &j->tw, &j->ntw, &j->terr);
}

static void *inv_main(void *arg)
{
	struct report_inv_job *j = arg;

	inv_load(j, j->own);
	pthread_mutex_lock(&j->mu);
	j->inv_done = 1;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	traces_load(j, j->own);
	return NULL;
}

struct report_inv_job *report_inv_start(struct db *db, const struct db_inv_query *q,
					size_t max_runs)
{
	struct report_inv_job *j = ab_calloc(1, sizeof(*j));
	struct strbuf e = STRBUF_INIT;

	j->db = db;
	j->q = q;
	j->max_runs = max_runs;
	strbuf_init(&j->err, 0);
	strbuf_init(&j->terr, 0);
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
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

int report_inv_wait(struct report_inv_job *j, struct views_inventory *inv, struct strbuf *err)
{
	if (j->started) {
		pthread_mutex_lock(&j->mu);
		while (!j->inv_done)
			pthread_cond_wait(&j->cv, &j->mu);
		pthread_mutex_unlock(&j->mu);
	} else {
		inv_load(j, j->db);
	}
	/* the thread reads nothing of inv from now on; it stays the job's
	 * on failure (empty) */
	*inv = j->inv;
	memset(&j->inv, 0, sizeof(j->inv));
	if (j->rc < 0 && err) {
		strbuf_reset(err);
		strbuf_addbuf(err, &j->err);
	}
	return j->rc;
}

int report_inv_finish(struct report_inv_job *j, struct db_trace_window **tw, size_t *ntw,
		      struct strbuf *err)
{
	int rc;

	if (j->started)
		pthread_join(j->tid, NULL);
	else
		traces_load(j, j->db);
	db_free(j->own);
	rc = j->trc;
	*tw = j->tw;
	*ntw = j->ntw;
	if (rc < 0 && err) {
		strbuf_reset(err);
		strbuf_addbuf(err, &j->terr);
	}
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	strbuf_release(&j->err);
	strbuf_release(&j->terr);
	free(j);
	return rc;
}
