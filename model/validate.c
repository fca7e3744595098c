/*
 * validate.c - the per-metric-kind rules that make a run invalid; see
 * validate.h.  Kinds come from canonical units first (ingest normalises
 * them), names second, so a new parser gets the rules for free.
 */
#include "core/compat.h"
#include "validate.h"
#include "db_priv.h"

#include <math.h>

#define VALIDATE_MAX_MAGNITUDE 1e30

enum kind { KIND_OTHER, KIND_TIME, KIND_NONNEG };

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static enum kind kind_of(const char *name, const char *unit)
{
	static const char *const time_units[] = { "s", "ms", "us", "\xc2\xb5s", "ns", "min",
						  "h", NULL };
	static const char *const nonneg_units[] = { "W", "Wh", "kWh", "J", "kJ", "MJ", NULL };
	size_t i;

	unit = unit ? unit : "";
	name = name ? name : "";
	for (i = 0; time_units[i]; i++)
		if (!strcmp(unit, time_units[i]))
			return KIND_TIME;
	if (has_suffix(unit, "/s") || has_suffix(unit, "/h") || has_suffix(unit, "/min"))
		return KIND_NONNEG;
	for (i = 0; nonneg_units[i]; i++)
		if (!strcmp(unit, nonneg_units[i]))
			return KIND_NONNEG;
	if (!strcmp(name, "time_to_train") || !strncmp(name, "latency", 7))
		return KIND_TIME;
	if (!strncmp(name, "throughput", 10) || has_suffix(name, "_per_second") ||
	    !strcmp(name, "energy") || !strcmp(name, "avg_power") || !strcmp(name, "peak_power"))
		return KIND_NONNEG;
	return KIND_OTHER;
}

int validate_metric(const char *name, double value, const char *unit, char *buf, size_t size)
{
	const char *why = NULL;
	int n;

	/* a positive value of sane size breaks no kind's rule: most values
	 * are, and then the kind (strcmp against unit and name lists) is
	 * not needed */
	if (value > 0 && value <= VALIDATE_MAX_MAGNITUDE)
		return 0;
	if (!isfinite(value))
		why = "not a finite number";
	else if (fabs(value) > VALIDATE_MAX_MAGNITUDE)
		why = "implausibly large, above 1e30";
	else
		switch (kind_of(name, unit)) {
		case KIND_TIME:
			if (!(value > 0))
				why = "a time must be positive";
			break;
		case KIND_NONNEG:
			if (value < 0)
				why = "cannot be negative";
			break;
		case KIND_OTHER:
			break;
		}
	if (!why)
		return 0;
	n = snprintf(buf, size, "impossible value: %s = %.10g%s%s (%s)", name ? name : "?", value,
		     unit && *unit ? " " : "", unit ? unit : "", why);
	if (n < 0 && size)
		buf[0] = '\0';
	return 1;
}

/* ISO 8601 UTC times of one shape compare as strings */
static int finished_before_started(const char *started, const char *finished)
{
	size_t n;

	if (!started || !finished)
		return 0;
	n = strlen(started);
	if (n < 20 || n != strlen(finished) || started[n - 1] != 'Z' || finished[n - 1] != 'Z')
		return 0;
	return strcmp(finished, started) < 0;
}

const struct ingest_run *validate_run(const struct ingest_run *r, struct validate_run *tmp)
{
	size_t i;
	int bad = 0;

	if (r->status != RUN_OK)
		return r;
	for (i = 0; i < r->nmetrics && !bad; i++)
		bad = validate_metric(r->metrics[i].name, r->metrics[i].value, r->metrics[i].unit,
				      tmp->reason, sizeof(tmp->reason));
	if (!bad && finished_before_started(r->started, r->finished)) {
		int n = snprintf(tmp->reason, sizeof(tmp->reason),
				 "impossible times: finished %s before it started %s", r->finished,
				 r->started);
		if (n < 0)
			tmp->reason[0] = '\0';
		bad = 1;
	}
	if (!bad)
		return r;
	tmp->run = *r;
	tmp->run.status = RUN_INVALID;
	tmp->run.excluded_reason = tmp->reason;
	return &tmp->run;
}

int db_count_invalid(struct db *db, const struct db_filter *f, long *n, struct strbuf *err)
{
	static const char sql[] =
		"SELECT count(*) FROM run r JOIN benchmark b ON b.id = r.benchmark_id"
		" JOIN system y ON y.id = r.system_id WHERE r.status = 'invalid'"
		" AND (?1 IS NULL OR b.suite = ?1) AND (?2 IS NULL OR b.name = ?2)"
		" AND (?3 IS NULL OR y.name = ?3 OR y.display_name = ?3)";
	sqlite3_stmt *st;
	int rc = db_prepare(db, &st, sql, err);

	*n = 0;
	if (rc < 0)
		return rc;
	db_bind_text(st, 1, f ? f->suite : NULL);
	db_bind_text(st, 2, f ? f->benchmark : NULL);
	db_bind_text(st, 3, f ? f->system : NULL);
	if (sqlite3_step(st) == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(st, 0);
	else
		rc = db_fail(db, err, "cannot count invalid runs");
	sqlite3_finalize(st);
	return rc < 0 ? rc : 0;
}
