/*
 * power.c - accelbench's own power sampler, a C equivalent of jpwr: a
 * background thread reads every backend (NVML, ROCm SMI, hwmon, RAPL) at a
 * fixed interval while a command runs, streams the readings into a
 * jpwr-compatible power CSV (",timestamps,<col>,..." with a pandas-style
 * index column) and keeps the energy per device: the difference of the
 * device's energy counter when it has one, else jpwr's integral
 * E = sum_{i>=1} P_i * (t_i - t_{i-1}).
 *
 * Boundary: GPUs (nvml/rocm) when present, else the GH200 module, else the
 * CPU packages (RAPL); the energy metric sums that boundary's devices only
 * (a GH200 module contains its GPU; never add both).
 */
#include "core/compat.h"
#include "power_priv.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

struct power_sampler {
	struct power_backend **b;
	size_t nb, ncols;
	long interval_ms;
	pthread_t thread;
	int running;
	atomic_int stop;
	struct atomic_file af;
	int have_file;
	double *w, *j;                  /* per column: this sample */
	double *j_first, *j_last, *integ;
	double t_prev, t_first, t_last, peak;
	long rows;
	int write_error;
	enum power_boundary boundary;
	int have_boundary;
	char *mllog_path;               /* power_set_mllog() */
	struct atomic_file ml;
	int have_ml;
	char host[128];
};

struct power_backend *power_backend_new(const char *name, size_t n)
{
	struct power_backend *b = ab_calloc(1, sizeof(*b));

	b->name = name;
	b->n = n;
	b->cols = ab_calloc(n ? n : 1, sizeof(*b->cols));
	b->boundary = ab_calloc(n ? n : 1, sizeof(*b->boundary));
	b->info = json_object();
	json_object_set_new(b->info, "backend", json_string(name));
	json_object_set_new(b->info, "devices", json_array());
	return b;
}

void power_backend_free(struct power_backend *b)
{
	size_t i;

	if (!b)
		return;
	if (b->close)
		b->close(b);
	for (i = 0; i < b->n; i++)
		free(b->cols[i]);
	free(b->cols);
	free(b->boundary);
	json_decref(b->info);
	free(b);
}

void power_sysfs_path(struct strbuf *out, const char *path)
{
	const char *root = getenv("ACCELBENCH_SYSFS_ROOT");

	strbuf_reset(out);
	if (root && *root)
		strbuf_addstr(out, root);
	strbuf_addstr(out, path);
}

int power_read_text(const char *path, struct strbuf *out)
{
	FILE *fp = fopen(path, "r");
	char buf[512];
	size_t n;

	strbuf_reset(out);
	if (!fp)
		return -1;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	strbuf_add(out, buf, n);
	strbuf_trim(out);
	return 0;
}

typedef int (*backend_open_fn)(struct power_backend **, struct strbuf *);

static const struct {
	const char *name;
	backend_open_fn open;
} backends[] = {
	{ "nvml", power_nvml_open },
	{ "rocm", power_rocm_open },
	{ "hwmon", power_hwmon_open },
	{ "rapl", power_rapl_open },
};

int power_open(struct power_sampler **out, const char *mode, struct strbuf *err)
{
	struct power_sampler *s = ab_calloc(1, sizeof(*s));
	struct strbuf why = STRBUF_INIT;
	size_t i, k;
	int any = 0;

	*out = s;
	if (!mode)
		mode = "auto";
	if (!strcmp(mode, "none"))
		return 0;
	for (i = 0; i < AB_ARRAY_SIZE(backends); i++)
		if (!strcmp(mode, "auto") || !strcmp(mode, backends[i].name))
			any = 1;
	if (!any) {
		power_free(s);
		*out = NULL;
		return ab_fail(err, AB_EUSAGE,
			       "unknown power source '%s' (known: auto, nvml, rocm, hwmon, rapl, none)",
			       mode);
	}
	for (i = 0; i < AB_ARRAY_SIZE(backends); i++) {
		struct power_backend *b = NULL;
		int rc;

		if (strcmp(mode, "auto") && strcmp(mode, backends[i].name))
			continue;
		strbuf_reset(&why);
		rc = backends[i].open(&b, &why);
		if (rc == 1 && b->n > 0) {
			s->b = ab_realloc(s->b, (s->nb + 1) * sizeof(*s->b));
			s->b[s->nb++] = b;
			s->ncols += b->n;
			continue;
		}
		power_backend_free(b);
		if (strcmp(mode, "auto")) {
			int code = rc < 0 ? -rc : AB_EUSAGE;
			ab_fail(err, (enum ab_exit)code, "power source '%s' is not available: %s",
				mode, why.len ? why.buf : "no devices");
			strbuf_release(&why);
			power_free(s);
			*out = NULL;
			return -code;
		}
	}
	strbuf_release(&why);
	s->w = ab_calloc(s->ncols + 1, sizeof(double));
	s->j = ab_calloc(s->ncols + 1, sizeof(double));
	s->j_first = ab_calloc(s->ncols + 1, sizeof(double));
	s->j_last = ab_calloc(s->ncols + 1, sizeof(double));
	s->integ = ab_calloc(s->ncols + 1, sizeof(double));
	/* the boundary: the best family present */
	for (i = 0; i < s->nb; i++)
		for (k = 0; k < s->b[i]->n; k++)
			if (s->b[i]->boundary[k] != POWER_OTHER &&
			    (!s->have_boundary || s->b[i]->boundary[k] < s->boundary)) {
				s->boundary = s->b[i]->boundary[k];
				s->have_boundary = 1;
			}
	return 0;
}

void power_free(struct power_sampler *s)
{
	size_t i;

	if (!s)
		return;
	if (s->running) {
		atomic_store(&s->stop, 1);
		pthread_join(s->thread, NULL);
	}
	if (s->have_file)
		atomic_abort(&s->af);
	if (s->have_ml)
		atomic_abort(&s->ml);
	free(s->mllog_path);
	for (i = 0; i < s->nb; i++)
		power_backend_free(s->b[i]);
	free(s->b);
	free(s->w);
	free(s->j);
	free(s->j_first);
	free(s->j_last);
	free(s->integ);
	free(s);
}

size_t power_ndevices(const struct power_sampler *s)
{
	return s ? s->ncols : 0;
}

json_t *power_info(const struct power_sampler *s)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; s && i < s->nb; i++)
		json_array_append(a, s->b[i]->info);
	return a;
}

void power_describe(const struct power_sampler *s, struct strbuf *out)
{
	size_t i;

	if (!s || !s->nb) {
		strbuf_addstr(out, "power: not sampled (no power source found)");
		return;
	}
	strbuf_addstr(out, "power: ");
	for (i = 0; i < s->nb; i++) {
		const struct power_backend *b = s->b[i];
		const char *what = !strcmp(b->name, "rapl") ? "package" :
				   !strcmp(b->name, "hwmon") ? "sensor" : "GPU";
		strbuf_addf(out, "%s%s (%zu %s%s)", i ? ", " : "", b->name, b->n, what,
			    b->n == 1 ? "" : "s");
	}
}

static const char *boundary_name(enum power_boundary b)
{
	switch (b) {
	case POWER_GPU: return "gpu";
	case POWER_MODULE: return "module";
	case POWER_CPU: return "cpu";
	case POWER_OTHER: break;
	}
	return NULL;
}

/* One row: read every backend, write the CSV line, update the sums. */
static void sample(struct power_sampler *s)
{
	double t = run_now(), sum = 0;
	size_t i, k, c = 0;
	int any = 0;
	char ts[64] = "0";

	/* integrate over exactly the timestamps the CSV will say */
	if (snprintf(ts, sizeof(ts), "%.6f", t) > 0)
		t = strtod(ts, NULL);

	for (i = 0; i < s->nb; i++) {
		struct power_backend *b = s->b[i];
		for (k = 0; k < b->n; k++) {
			s->w[c + k] = NAN;
			s->j[c + k] = NAN;
		}
		if (b->read(b, t, s->w + c, s->j + c) < 0)
			for (k = 0; k < b->n; k++)
				s->w[c + k] = NAN;
		c += b->n;
	}
	if (s->have_file) {
		if (fprintf(s->af.fp, "%ld,%s", s->rows, ts) < 0)
			s->write_error = 1;
		for (c = 0; c < s->ncols; c++) {
			if (isnan(s->w[c]))
				fputc(',', s->af.fp); /* pandas writes NaN as an empty cell */
			else
				fprintf(s->af.fp, ",%.10g", s->w[c]);
		}
		fputc('\n', s->af.fp);
	}
	c = 0;
	for (i = 0; i < s->nb; i++) {
		struct power_backend *b = s->b[i];
		for (k = 0; k < b->n; k++, c++) {
			if (!isnan(s->w[c])) {
				if (s->rows > 0)
					s->integ[c] += s->w[c] * (t - s->t_prev) / 3600.0;
				if (s->have_boundary && b->boundary[k] == s->boundary) {
					sum += s->w[c];
					any = 1;
				}
			}
			if (!isnan(s->j[c])) {
				if (isnan(s->j_first[c]))
					s->j_first[c] = s->j[c];
				s->j_last[c] = s->j[c];
			}
		}
	}
	if (any && sum > s->peak)
		s->peak = sum;
	if (s->have_ml) {
		/* MLPerf training power log: the boundary's sum at each sample */
		if (s->rows == 0)
			fprintf(s->ml.fp, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
				"\"INTERVAL_START\", \"key\": \"power_measurement_start\", \"value\": null, "
				"\"metadata\": {\"host\": \"%s\", \"file\": \"accelbench\", \"lineno\": 0}}\n",
				t * 1000.0, s->host);
		if (any)
			fprintf(s->ml.fp, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
				"\"POINT_IN_TIME\", \"key\": \"power_reading\", \"value\": %.6f, "
				"\"metadata\": {\"host\": \"%s\", \"unit\": \"W\", \"boundary\": \"%s\"}}\n",
				t * 1000.0, sum, s->host, boundary_name(s->boundary));
	}
	if (s->rows == 0)
		s->t_first = t;
	s->t_last = t;
	s->t_prev = t;
	s->rows++;
}

static void *sampler_main(void *arg)
{
	struct power_sampler *s = arg;
	struct timespec start, now;
	long k = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!atomic_load(&s->stop)) {
		double due, left;

		k++;
		due = (double)k * (double)s->interval_ms / 1000.0;
		for (;;) {
			struct timespec ts;
			clock_gettime(CLOCK_MONOTONIC, &now);
			left = due - ((double)(now.tv_sec - start.tv_sec) +
				      (double)(now.tv_nsec - start.tv_nsec) / 1e9);
			if (left <= 0 || atomic_load(&s->stop))
				break;
			if (left > 0.02)
				left = 0.02;
			ts.tv_sec = 0;
			ts.tv_nsec = (long)(left * 1e9);
			nanosleep(&ts, NULL);
		}
		if (atomic_load(&s->stop))
			break;
		sample(s);
	}
	return NULL;
}

int power_start(struct power_sampler *s, long interval_ms, const char *csv_path,
		struct strbuf *err)
{
	size_t i, k;
	int rc;

	if (!s || !s->nb)
		return 0;
	s->interval_ms = interval_ms > 0 ? interval_ms : 100;
	s->rows = 0;
	s->peak = 0;
	for (i = 0; i < s->ncols; i++) {
		s->j_first[i] = NAN;
		s->j_last[i] = NAN;
		s->integ[i] = 0;
	}
	rc = atomic_open(&s->af, csv_path, err);
	if (rc < 0)
		return rc;
	s->have_file = 1;
	if (s->mllog_path) {
		const char *node = getenv("SLURMD_NODENAME");
		rc = atomic_open(&s->ml, s->mllog_path, err);
		if (rc < 0) {
			atomic_abort(&s->af);
			s->have_file = 0;
			return rc;
		}
		s->have_ml = 1;
		if (node && *node)
			snprintf(s->host, sizeof(s->host), "%s", node);
		else if (gethostname(s->host, sizeof(s->host) - 1) < 0)
			snprintf(s->host, sizeof(s->host), "unknown");
		/* a name that needs no JSON escaping */
		for (i = 0; s->host[i]; i++)
			if (s->host[i] == '"' || s->host[i] == '\\' || (unsigned char)s->host[i] < 32)
				s->host[i] = '_';
	}
	fputs(",timestamps", s->af.fp);
	for (i = 0; i < s->nb; i++)
		for (k = 0; k < s->b[i]->n; k++)
			fprintf(s->af.fp, ",%s", s->b[i]->cols[k]);
	fputc('\n', s->af.fp);
	atomic_store(&s->stop, 0);
	sample(s); /* the first row at once: short commands still get an interval */
	if (pthread_create(&s->thread, NULL, sampler_main, s) != 0) {
		atomic_abort(&s->af);
		s->have_file = 0;
		if (s->have_ml)
			atomic_abort(&s->ml);
		s->have_ml = 0;
		return ab_fail(err, AB_EINTERNAL, "cannot start the power sampler thread");
	}
	s->running = 1;
	return 0;
}

int power_stop(struct power_sampler *s, struct power_result *r, const char *energy_path,
	       struct strbuf *err)
{
	struct strbuf en = STRBUF_INIT;
	double counted = 0, integrated = 0;
	size_t i, k, c = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->per_device = json_object();
	if (!s || !s->nb || !s->running)
		return 0;
	atomic_store(&s->stop, 1);
	pthread_join(s->thread, NULL);
	s->running = 0;
	sample(s); /* the last row: the command has just ended */
	strbuf_addstr(&en, ",0\n");
	for (i = 0; i < s->nb; i++) {
		struct power_backend *b = s->b[i];
		for (k = 0; k < b->n; k++, c++) {
			double wh = s->integ[c];
			int counter = !isnan(s->j_first[c]) && !isnan(s->j_last[c]) &&
				      s->j_last[c] >= s->j_first[c];
			if (counter)
				wh = (s->j_last[c] - s->j_first[c]) / 3600.0;
			json_object_set_new(r->per_device, b->cols[k], json_real(wh));
			strbuf_addf(&en, "%s,%.17g\n", b->cols[k], wh);
			if (s->have_boundary && b->boundary[k] == s->boundary) {
				r->wh += wh;
				if (counter)
					counted++;
				else
					integrated++;
			}
		}
	}
	r->samples = s->rows;
	r->t_start = s->t_first;
	r->t_end = s->t_last;
	r->peak_w = s->peak;
	if (s->have_boundary) {
		r->boundary = boundary_name(s->boundary);
		r->source = !integrated ? "counter" : !counted ? "integrated" : "counter+integrated";
		if (r->t_end > r->t_start)
			r->avg_w = r->wh * 3600.0 / (r->t_end - r->t_start);
	}
	if (s->write_error || ferror(s->af.fp)) {
		atomic_abort(&s->af);
		rc = ab_fail(err, AB_EIO, "cannot write the power samples");
	} else {
		rc = atomic_commit(&s->af, err);
	}
	s->have_file = 0;
	if (s->have_ml) {
		fprintf(s->ml.fp, ":::MLLOG {\"namespace\": \"\", \"time_ms\": %.0f, \"event_type\": "
			"\"INTERVAL_END\", \"key\": \"power_measurement_stop\", \"value\": null, "
			"\"metadata\": {\"host\": \"%s\", \"file\": \"accelbench\", \"lineno\": 0}}\n",
			s->t_last * 1000.0, s->host);
		if (rc == 0 && !ferror(s->ml.fp))
			rc = atomic_commit(&s->ml, err);
		else
			atomic_abort(&s->ml);
		s->have_ml = 0;
	}
	if (rc == 0 && energy_path)
		rc = ab_write_file(energy_path, en.buf, en.len, err);
	strbuf_release(&en);
	return rc;
}

void power_set_mllog(struct power_sampler *s, const char *path)
{
	if (!s)
		return;
	free(s->mllog_path);
	s->mllog_path = path ? ab_strdup(path) : NULL;
}

void power_result_release(struct power_result *r)
{
	json_decref(r->per_device);
	r->per_device = NULL;
}
