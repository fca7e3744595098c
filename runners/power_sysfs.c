/*
 * power_sysfs.c - the two sysfs backends (under $ACCELBENCH_SYSFS_ROOT
 * when set, so tests can use a fake tree):
 *
 * hwmon: /sys/class/hwmon/hwmon*.  The GH200 ACPI power meters expose
 * device/power1_average (µW) with device/power1_oem_info ("Module Power
 * Socket 0", "Grace Power Socket 0", ...); their columns are jpwr's
 * "gh:<label>".  Other hwmon chips with powerN_average/powerN_input are
 * recorded as "hwmon:<chip>[:<label>]" but never summed (what they measure
 * is not known in general).
 *
 * rapl: /sys/class/powercap/<zone>:<N> top-level zones (packages, psys):
 * the cumulative energy_uj counter, which wraps at max_energy_range_uj; the
 * backend unwraps it and derives power from consecutive readings.
 */
#include "core/compat.h"
#include "power_priv.h"

#include <dirent.h>
#include <math.h>
#include <unistd.h>

static int cmp_natural(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return strverscmp(x, y);
}

/* Sorted entries of dir whose names start with prefix. */
static char **list_dir(const char *dir, const char *prefix, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		v = ab_realloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = ab_strdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_natural);
	return v;
}

static void free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- hwmon ---------------------------------------------------------- */

struct sysfs_priv {
	char **files;             /* value file per column */
	double *max_j;            /* rapl: counter range in J */
	double *prev_j, *acc_j, *prev_t;
	int *primed;
};

static void sysfs_close(struct power_backend *b)
{
	struct sysfs_priv *p = b->priv;
	size_t i;

	if (!p)
		return;
	for (i = 0; i < b->n; i++)
		free(p->files[i]);
	free(p->files);
	free(p->max_j);
	free(p->prev_j);
	free(p->acc_j);
	free(p->prev_t);
	free(p->primed);
	free(p);
	b->priv = NULL;
}

static int read_number(const char *path, double *v)
{
	struct strbuf sb = STRBUF_INIT;
	char *end;
	int rc = -1;

	if (power_read_text(path, &sb) == 0 && sb.len) {
		errno = 0;
		*v = strtod(sb.buf, &end);
		rc = (errno || *end || !isfinite(*v)) ? -1 : 0;
	}
	strbuf_release(&sb);
	return rc;
}

static int hwmon_read(struct power_backend *b, double t, double *watts, double *joules)
{
	struct sysfs_priv *p = b->priv;
	size_t i;

	(void)t;
	(void)joules;
	for (i = 0; i < b->n; i++) {
		double uw;
		if (read_number(p->files[i], &uw) == 0)
			watts[i] = uw / 1e6;
	}
	return 0;
}

struct found {
	char **cols, **files;
	enum power_boundary *bnd;
	json_t *devs;
	size_t n;
};

static void found_add(struct found *f, const char *col, const char *file, enum power_boundary b,
		      json_t *dev)
{
	f->cols = ab_realloc(f->cols, (f->n + 1) * sizeof(*f->cols));
	f->files = ab_realloc(f->files, (f->n + 1) * sizeof(*f->files));
	f->bnd = ab_realloc(f->bnd, (f->n + 1) * sizeof(*f->bnd));
	f->cols[f->n] = ab_strdup(col);
	f->files[f->n] = ab_strdup(file);
	f->bnd[f->n] = b;
	json_object_set_new(dev, "column", json_string(col));
	json_array_append_new(f->devs, dev);
	f->n++;
}

static struct power_backend *found_backend(struct found *f, const char *name,
					   int (*read)(struct power_backend *, double, double *,
						       double *))
{
	struct power_backend *b = power_backend_new(name, f->n);
	struct sysfs_priv *p = ab_calloc(1, sizeof(*p));
	size_t i;

	for (i = 0; i < f->n; i++) {
		b->cols[i] = f->cols[i];
		b->boundary[i] = f->bnd[i];
	}
	p->files = f->files;
	p->max_j = ab_calloc(f->n + 1, sizeof(double));
	p->prev_j = ab_calloc(f->n + 1, sizeof(double));
	p->acc_j = ab_calloc(f->n + 1, sizeof(double));
	p->prev_t = ab_calloc(f->n + 1, sizeof(double));
	p->primed = ab_calloc(f->n + 1, sizeof(int));
	json_object_set(b->info, "devices", f->devs);
	json_decref(f->devs);
	free(f->cols);
	free(f->bnd);
	b->priv = p;
	b->read = read;
	b->close = sysfs_close;
	return b;
}

static void found_release(struct found *f)
{
	free_list(f->cols, f->n);
	free_list(f->files, f->n);
	free(f->bnd);
	json_decref(f->devs);
}

int power_hwmon_open(struct power_backend **out, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, file = STRBUF_INIT, label = STRBUF_INIT,
		      col = STRBUF_INIT, chip = STRBUF_INIT;
	struct found f = { 0 };
	char **ents;
	size_t n, i;
	int k;

	*out = NULL;
	f.devs = json_array();
	power_sysfs_path(&dir, "/sys/class/hwmon");
	ents = list_dir(dir.buf, "hwmon", &n);
	for (i = 0; i < n; i++) {
		double v;
		/* GH200: device/power1_average + device/power1_oem_info */
		strbuf_reset(&file);
		strbuf_addf(&file, "%s/%s/device/power1_average", dir.buf, ents[i]);
		if (read_number(file.buf, &v) == 0) {
			struct strbuf lp = STRBUF_INIT;
			json_t *d = json_object();
			strbuf_addf(&lp, "%s/%s/device/power1_oem_info", dir.buf, ents[i]);
			if (power_read_text(lp.buf, &label) < 0 || !label.len)
				strbuf_setstr(&label, ents[i]);
			strbuf_release(&lp);
			strbuf_reset(&col);
			strbuf_addf(&col, "gh:%s", label.buf);
			json_object_set_new(d, "name", json_string(label.buf));
			json_object_set_new(d, "path", json_string(file.buf));
			found_add(&f, col.buf, file.buf,
				  !strncmp(label.buf, "Module", 6) ? POWER_MODULE : POWER_OTHER, d);
			continue;
		}
		/* any other chip: powerN_average or powerN_input */
		strbuf_reset(&file);
		strbuf_addf(&file, "%s/%s/name", dir.buf, ents[i]);
		if (power_read_text(file.buf, &chip) < 0 || !chip.len)
			strbuf_setstr(&chip, ents[i]);
		for (k = 1; k <= 8; k++) {
			static const char *const kinds[] = { "average", "input" };
			size_t m;
			for (m = 0; m < 2; m++) {
				json_t *d;
				strbuf_reset(&file);
				strbuf_addf(&file, "%s/%s/power%d_%s", dir.buf, ents[i], k, kinds[m]);
				if (read_number(file.buf, &v) < 0)
					continue;
				strbuf_reset(&label);
				strbuf_reset(&col);
				{
					struct strbuf lp = STRBUF_INIT;
					strbuf_addf(&lp, "%s/%s/power%d_label", dir.buf, ents[i], k);
					power_read_text(lp.buf, &label);
					strbuf_release(&lp);
				}
				strbuf_addf(&col, "hwmon:%s", chip.buf);
				if (label.len)
					strbuf_addf(&col, ":%s", label.buf);
				else if (k > 1)
					strbuf_addf(&col, ":power%d", k);
				d = json_object();
				json_object_set_new(d, "name", json_string(col.buf + 6));
				json_object_set_new(d, "path", json_string(file.buf));
				found_add(&f, col.buf, file.buf, POWER_OTHER, d);
				break;
			}
		}
	}
	free_list(ents, n);
	strbuf_release(&file);
	strbuf_release(&label);
	strbuf_release(&col);
	strbuf_release(&chip);
	if (!f.n) {
		strbuf_addf(err, "no hwmon power sensor under %s", dir.buf);
		strbuf_release(&dir);
		found_release(&f);
		return 0;
	}
	strbuf_release(&dir);
	*out = found_backend(&f, "hwmon", hwmon_read);
	return 1;
}

/* ---- RAPL ----------------------------------------------------------- */

static int rapl_read(struct power_backend *b, double t, double *watts, double *joules)
{
	struct sysfs_priv *p = b->priv;
	size_t i;

	for (i = 0; i < b->n; i++) {
		double uj, j, d;
		if (read_number(p->files[i], &uj) < 0)
			continue;
		j = uj / 1e6;
		if (!p->primed[i]) {
			p->primed[i] = 1;
			p->prev_j[i] = j;
			p->prev_t[i] = t;
			joules[i] = 0;
			continue;
		}
		/* the counter wraps at max_energy_range_uj back to 0 */
		d = j >= p->prev_j[i] ? j - p->prev_j[i] : j + (p->max_j[i] - p->prev_j[i]);
		p->acc_j[i] += d;
		if (t > p->prev_t[i])
			watts[i] = d / (t - p->prev_t[i]);
		joules[i] = p->acc_j[i];
		p->prev_j[i] = j;
		p->prev_t[i] = t;
	}
	return 0;
}

int power_rapl_open(struct power_backend **out, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, file = STRBUF_INIT, name = STRBUF_INIT,
		      col = STRBUF_INIT;
	struct found f = { 0 };
	double *maxes = NULL;
	char **ents;
	size_t n, i;
	int unreadable = 0;

	*out = NULL;
	f.devs = json_array();
	power_sysfs_path(&dir, "/sys/class/powercap");
	ents = list_dir(dir.buf, "", &n);
	for (i = 0; i < n; i++) {
		const char *colon = strchr(ents[i], ':');
		double v, max;
		json_t *d;
		size_t k;
		int dup = 0;

		/* top-level zones only ("intel-rapl:0", not "intel-rapl:0:1"):
		 * sub-zones are inside their package */
		if (!colon || strchr(colon + 1, ':') || ents[i][0] == '.')
			continue;
		strbuf_reset(&file);
		strbuf_addf(&file, "%s/%s/energy_uj", dir.buf, ents[i]);
		if (read_number(file.buf, &v) < 0) {
			if (errno == EACCES || access(file.buf, F_OK) == 0)
				unreadable = 1;
			continue;
		}
		{
			struct strbuf mp = STRBUF_INIT;
			strbuf_addf(&mp, "%s/%s/max_energy_range_uj", dir.buf, ents[i]);
			if (read_number(mp.buf, &max) < 0 || max <= 0)
				max = 0;
			strbuf_reset(&mp);
			strbuf_addf(&mp, "%s/%s/name", dir.buf, ents[i]);
			if (power_read_text(mp.buf, &name) < 0 || !name.len)
				strbuf_setstr(&name, ents[i]);
			strbuf_release(&mp);
		}
		strbuf_reset(&col);
		strbuf_addf(&col, "rapl:%s", name.buf);
		for (k = 0; k < f.n; k++)
			if (!strcmp(f.cols[k], col.buf))
				dup = 1;
		if (dup)
			strbuf_addf(&col, ":%s", colon + 1);
		d = json_object();
		json_object_set_new(d, "name", json_string(name.buf));
		json_object_set_new(d, "zone", json_string(ents[i]));
		json_object_set_new(d, "max_energy_range_uj", json_real(max));
		maxes = ab_realloc(maxes, (f.n + 1) * sizeof(*maxes));
		maxes[f.n] = max / 1e6;
		found_add(&f, col.buf, file.buf,
			  !strncmp(name.buf, "package", 7) ? POWER_CPU : POWER_OTHER, d);
	}
	free_list(ents, n);
	strbuf_release(&file);
	strbuf_release(&name);
	strbuf_release(&col);
	if (!f.n) {
		strbuf_addf(err, unreadable ? "RAPL counters under %s are not readable (root only)" :
					      "no RAPL zone under %s", dir.buf);
		strbuf_release(&dir);
		found_release(&f);
		free(maxes);
		return 0;
	}
	strbuf_release(&dir);
	*out = found_backend(&f, "rapl", rapl_read);
	memcpy(((struct sysfs_priv *)(*out)->priv)->max_j, maxes, (*out)->n * sizeof(double));
	free(maxes);
	return 1;
}
