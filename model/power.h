/*
 * power.h - power samples of one run, per device, for the power timeline.
 *
 * Ownership: db_power_release() frees what db_power_load() filled in.
 */
#ifndef AB_POWER_H
#define AB_POWER_H

#include "db.h"

struct db_power_device {
	char *device;
	double *t, *watts;
	size_t n;
};

struct db_power {
	int64_t run_id;
	char *system, *benchmark;
	double started, finished;       /* Unix seconds, NAN when unknown */
	struct db_power_device *dev;
	size_t ndev;
};

/* The first run (lowest id) matching f that has power samples; *run_id = 0
 * when none does. */
int db_power_find_run(struct db *db, const struct db_filter *f, int64_t *run_id,
		      struct strbuf *err);
int db_power_load(struct db *db, int64_t run_id, struct db_power *out, struct strbuf *err);
void db_power_release(struct db_power *p);

#endif
