/*
 * mlperf_power.c - energy of an MLPerf training run from its power logs
 * (power/result_N/node_*.txt and sw_*.txt, :::MLLOG format), exactly as
 * mlperf_logging's result_summarizer computes it:
 *
 *   node:   lines stable-sorted by time; from power_measurement_start on,
 *           agg += W * (t - t_prev) per power_reading until the stop line;
 *           E = eff * agg * TTT_ms / (t_stop - t_start) / 1000   [J]
 *           (eff = last conversion_eff, 1.0 by default; stop missing =>
 *           the last reading's time)
 *   switch: E = eff * first interconnect_power_est [W] * TTT_ms / 1000
 *   run:    sum of the node files, then of the switch files.
 *
 * Unparsable lines of a power log are ignored, as the official code does.
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#include <dirent.h>
#include <math.h>

enum pkind { P_OTHER, P_START, P_STOP, P_READING, P_EFF, P_EST };

struct pline {
	double t;
	double v;
	size_t order;
	enum pkind kind;
	long line;
};

struct plines {
	struct pline *v;
	size_t n, alloc;
};

void mlperf_energy_release(struct mlperf_energy *e)
{
	size_t i;

	for (i = 0; i < e->ndevices; i++)
		free(e->devices[i]);
	free(e->devices);
	free(e->r);
	memset(e, 0, sizeof(*e));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Python's sort is stable: equal times keep file order. */
static int cmp_pline(const void *a, const void *b)
{
	const struct pline *x = a, *y = b;

	if (x->t < y->t)
		return -1;
	if (x->t > y->t)
		return 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* 1 if pl is in cmp_pline's order already (a power log nearly always is):
 * without a NaN time that order is total, so qsort would leave it as it
 * is; with one, qsort decides as before. */
static int plines_sorted(const struct plines *pl)
{
	size_t i;

	for (i = 0; i < pl->n; i++) {
		if (isnan(pl->v[i].t))
			return 0;
		if (i && cmp_pline(&pl->v[i - 1], &pl->v[i]) > 0)
			return 0;
	}
	return 1;
}

static int matches(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return !strncmp(name, prefix, n) && ingest_ends_with(name + n, ".txt");
}

/* Read one power log into pl (kinds we need only). */
static int read_power_log(const char *path, const char *rel, struct plines *pl,
			  struct mlperf_energy *e, int device, struct strbuf *why)
{
	struct mllog_reader r;
	struct mllog_rec rec;
	struct strbuf err = STRBUF_INIT;
	FILE *fp = ab_fopen_input(path, &err);
	int rc;

	pl->n = 0;
	if (!fp) {
		strbuf_reset(why);
		strbuf_addbuf(why, &err);
		strbuf_release(&err);
		return -AB_EDATA;
	}
	mllog_init(&r, fp, 0);
	while ((rc = mllog_next(&r, &rec, &err)) == 1) {
		struct pline p = { 0, 0, 0, P_OTHER, 0 };

		if (!rec.ok) {
			/* a reading lost in silence would change the energy */
			strbuf_reset(why);
			strbuf_addf(why, "%s:%ld: unparsable :::MLLOG record (%s)", rel, rec.line,
				    rec.why);
			rc = -AB_EDATA;
			break;
		}
		if (MLLOG_KEY_IS(&rec, "power_reading"))
			p.kind = P_READING;
		else if (MLLOG_KEY_IS(&rec, "power_measurement_start"))
			p.kind = P_START;
		else if (MLLOG_KEY_IS(&rec, "power_measurement_stop"))
			p.kind = P_STOP;
		else if (MLLOG_KEY_IS(&rec, "conversion_eff"))
			p.kind = P_EFF;
		else if (MLLOG_KEY_IS(&rec, "interconnect_power_est"))
			p.kind = P_EST;
		else
			continue;
		if ((p.kind == P_READING || p.kind == P_EFF || p.kind == P_EST) &&
		    (jspan_type(rec.value) != JT_NUM || jspan_num(rec.value, &p.v) < 0 ||
		     !isfinite(p.v))) {
			strbuf_reset(why);
			strbuf_addf(why, "%s:%ld: \"%.*s\" value is not a number", rel, rec.line,
				    (int)rec.key_len, rec.key);
			rc = -AB_EDATA;
			break;
		}
		p.t = rec.time_ms;
		p.line = rec.line;
		p.order = pl->n;
		if (pl->n == pl->alloc) {
			pl->alloc = pl->alloc ? 2 * pl->alloc : 1024;
			pl->v = ab_realloc(pl->v, pl->alloc * sizeof(*pl->v));
		}
		pl->v[pl->n++] = p;
		if (p.kind == P_READING) {
			if (e->n == e->alloc) {
				e->alloc = e->alloc ? 2 * e->alloc : 4096;
				e->r = ab_realloc(e->r, e->alloc * sizeof(*e->r));
			}
			e->r[e->n].t_ms = p.t;
			e->r[e->n].watts = p.v;
			e->r[e->n].device = device;
			e->n++;
		}
	}
	if (rc < 0 && !why->len) {
		strbuf_reset(why);
		strbuf_addf(why, "%s: %s", rel, err.buf);
	}
	mllog_release(&r);
	fclose(fp);
	strbuf_release(&err);
	return rc < 0 ? rc : 0;
}

static int node_energy(struct plines *pl, double ttt_ms, const char *rel, double *out,
		       struct strbuf *why)
{
	double prev = 0, last = 0, start = 0, stop = 0, agg = 0, eff = 1.0;
	int have_start = 0, have_stop = 0;
	size_t i;

	if (!plines_sorted(pl))
		qsort(pl->v, pl->n, sizeof(*pl->v), cmp_pline);
	for (i = 0; i < pl->n; i++) {
		const struct pline *p = &pl->v[i];

		if (p->kind == P_START) {
			start = prev = p->t;
			have_start = 1;
		}
		if (p->kind == P_READING && !have_stop && have_start) {
			agg += p->v * (p->t - prev);
			prev = p->t;
			last = last > p->t ? last : p->t;
		}
		if (p->kind == P_STOP) {
			stop = p->t;
			have_stop = 1;
		}
		if (p->kind == P_EFF)
			eff = p->v;
	}
	if (!have_start) {
		strbuf_reset(why);
		strbuf_addf(why, "%s: no power_measurement_start", rel);
		return -AB_EDATA;
	}
	if (!have_stop)
		stop = last;
	if (stop - start == 0) {
		strbuf_reset(why);
		strbuf_addf(why, "%s: the measurement window is empty", rel);
		return -AB_EDATA;
	}
	*out = eff * agg * ttt_ms / (stop - start) / 1000;
	return 0;
}

static double switch_energy(const struct plines *pl, double ttt_ms)
{
	double agg = 0, eff = 1.0;
	size_t i;

	for (i = 0; i < pl->n; i++) { /* file order, first estimate only */
		if (pl->v[i].kind == P_EFF)
			eff = pl->v[i].v;
		if (pl->v[i].kind == P_EST) {
			agg = pl->v[i].v;
			break;
		}
	}
	return eff * agg * ttt_ms / 1000;
}

int mlperf_power_energy(const char *bench_dir, const char *stem, double ttt_ms,
			struct mlperf_energy *out, struct strbuf *why)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, rel = STRBUF_INIT;
	struct plines pl = { NULL, 0, 0 };
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int rc = 1, pass;

	memset(out, 0, sizeof(*out));
	strbuf_addf(&dir, "%s/power/%s", bench_dir, stem);
	d = opendir(dir.buf);
	if (!d) {
		rc = 0;
		goto done;
	}
	while ((de = readdir(d))) {
		if (!matches(de->d_name, "node_") && !matches(de->d_name, "sw_"))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = ab_realloc(names, cap * sizeof(*names));
		}
		names[n++] = ab_strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	/* nodes first, then switches, as the official sum does */
	for (pass = 0; pass < 2 && rc > 0; pass++) {
		for (i = 0; i < n && rc > 0; i++) {
			int is_node = matches(names[i], "node_");
			double ej = 0;

			if (is_node != (pass == 0))
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir.buf, names[i]);
			strbuf_reset(&rel);
			strbuf_addf(&rel, "power/%s/%s", stem, names[i]);
			out->devices = ab_realloc(out->devices,
						  (out->ndevices + 1) * sizeof(*out->devices));
			out->devices[out->ndevices] = ab_strndup(names[i], strlen(names[i]) - 4);
			out->ndevices++;
			rc = read_power_log(path.buf, rel.buf, &pl, out, (int)out->ndevices - 1, why);
			if (rc < 0)
				break;
			if (is_node) {
				rc = node_energy(&pl, ttt_ms, rel.buf, &ej, why);
				if (rc < 0)
					break;
				out->node_j += ej;
				out->nodes++;
			} else {
				ej = switch_energy(&pl, ttt_ms);
				out->switch_j += ej;
				out->switches++;
			}
			out->joules += ej;
			rc = 1;
		}
	}
	if (rc > 0 && !out->nodes) {
		strbuf_reset(why);
		strbuf_addf(why, "power/%s: no node_*.txt power log", stem);
		rc = -AB_EDATA;
	}
done:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(pl.v);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&rel);
	return rc;
}

int mlperf_power_emit(struct ingest_file *f, int64_t run_id, const struct mlperf_energy *e,
		      struct strbuf *err)
{
	size_t i;
	int rc;

	for (i = 0; i < e->n; i++) {
		rc = ingest_emit_power(f, run_id, e->devices[e->r[i].device], e->r[i].t_ms / 1000.0,
				       e->r[i].watts, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}
