/*
 * validate.h - impossible values make a run `invalid` at ingest.
 *
 * One rule per metric kind, decided from the metric's canonical unit and
 * name: every value finite and at most 1e30 in magnitude; a time (s, ms,
 * min, h, ...; time_to_train, latency) > 0; a throughput (any ".../s" unit,
 * throughput*, *_per_second), energy (Wh, J, kWh) or power (W) >= 0.  A run
 * whose finish precedes its start is impossible too.  The sink calls
 * validate_run() once per run, before storing it: a run with an impossible
 * value is stored as `invalid` with the reason (the analyses count it and
 * leave it out), never as an `ok` run that poisons every statistic.
 *
 * Ownership: the returned pointer is r or points into *tmp (the caller's,
 * nothing to free); tmp borrows r's strings and metrics.
 */
#ifndef AB_VALIDATE_H
#define AB_VALIDATE_H

#include "ingest/ingest.h"
#include "model/db.h"

struct validate_run {
	struct ingest_run run;
	char reason[256];
};

/* r when its values are possible (or it is not ok anyway); else a copy of
 * r in tmp with status RUN_INVALID and excluded_reason saying why. */
const struct ingest_run *validate_run(const struct ingest_run *r, struct validate_run *tmp);

/* The reason one metric value is impossible, into buf; 0 if it is possible. */
int validate_metric(const char *name, double value, const char *unit, char *buf, size_t size);

/* Runs marked invalid among those f selects (NULL: all) into *n; 0 or -AB_EIO. */
int db_count_invalid(struct db *db, const struct db_filter *f, long *n, struct strbuf *err);

#endif
