/*
 * report_load.h - the report's loading on both cores: the inventory (the
 * heaviest queries after the configurations) on a second thread with its
 * own read-only connection, while the caller loads the configurations on
 * its own; then the power trace windows there, while the caller builds
 * the views that need the inventory.  Internal to reports/ (report_pdf.c).
 *
 * What comes out is what loading in one thread gives: the same queries,
 * the same structs; only the order in time differs.  When a second
 * connection or thread cannot be had, the inventory is loaded in the
 * caller's thread on its connection at report_inv_wait(), the trace
 * windows at report_inv_finish().
 *
 * Ownership: the job borrows db and q (they must outlive it); the
 * inventory passes to the caller at report_inv_wait(), the trace windows
 * at report_inv_finish(), which also frees the job.
 */
#ifndef AB_REPORT_LOAD_H
#define AB_REPORT_LOAD_H

#include "views/views.h"

struct report_inv_job;

/* Start loading views_inventory_build(q, max_runs), then
 * db_trace_windows_load(q); never fails (see above). */
struct report_inv_job *report_inv_start(struct db *db, const struct db_inv_query *q,
					size_t max_runs);
/* Wait for the inventory and take it: what views_inventory_build returned
 * (0, or negative with err and *inv empty).  Call once, then
 * report_inv_finish() in any case. */
int report_inv_wait(struct report_inv_job *job, struct views_inventory *inv, struct strbuf *err);
/* Wait for the job, take the trace windows and free the job; returns what
 * db_trace_windows_load returned (0, or negative with err and *tw empty;
 * 0 without loading when the inventory failed). */
int report_inv_finish(struct report_inv_job *job, struct db_trace_window **tw, size_t *ntw,
		      struct strbuf *err);

#endif
