/*
 * report_load.h - the report's loading on both cores: the inventory (the
 * heaviest queries after the configurations) on a second thread with its
 * own read-only connection, while the caller loads the configurations on
 * its own.  Internal to reports/ (report_pdf.c).
 *
 * What comes out is what loading in one thread gives: the same queries,
 * the same structs; only the order in time differs.  When a second
 * connection or thread cannot be had, the inventory is loaded in the
 * caller's thread on its connection at report_inv_finish().
 *
 * Ownership: the job borrows db and q (they must outlive it); the
 * inventory and trace windows pass to the caller at report_inv_finish(),
 * which also frees the job.
 */
#ifndef AB_REPORT_LOAD_H
#define AB_REPORT_LOAD_H

#include "views/views.h"

struct report_inv_job;

/* The MLPerf training view, built by the job after the inventory when the
 * inventory has an mlperf-training benchmark (done says so). */
struct report_mlperf {
	int done;
	int rc;                  /* views_mlperf_build's */
	struct views_mlperf v;   /* when rc is 0 */
	struct strbuf err;       /* when rc < 0 */
};

/* Start loading views_inventory_build(q, max_runs) and
 * db_trace_windows_load(q), then with mlp (NULL: not) views_mlperf_build
 * (mlp); never fails (see above).  mlp is borrowed, as q. */
struct report_inv_job *report_inv_start(struct db *db, const struct db_inv_query *q,
					size_t max_runs, const struct db_filter *mlp);
/* Wait for the job and take its results; returns what views_inventory_build
 * or db_trace_windows_load returned (0, or negative with err, *inv and *tw
 * then empty).  *m gets the MLPerf view (release m->v and m->err). */
int report_inv_finish(struct report_inv_job *job, struct views_inventory *inv,
		      struct db_trace_window **tw, size_t *ntw, struct report_mlperf *m,
		      struct strbuf *err);

#endif
