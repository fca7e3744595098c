/*
 * jpwr_fmt.c - jpwr files given on their own (they are companions of the
 * CARAML tables, skipped in directory walks, but parse when named).
 *
 * Each file becomes one run of suite "jpwr", benchmark "energy" (lower is
 * better): energy (Wh) at the boundary and energy_per_device, plus
 * duration, avg_power and peak_power for a power series, whose samples go
 * to power_sample.  params.energy_wh keeps every column's energy, keyed
 * "[node/]column", so the per-device figures and the columns outside the
 * boundary (gh:Grace, ...) survive.  An energy_from_counter table of zeros
 * (counters unsupported) is an invalid run.
 *
 * The system is the CARAML tag in the file name (A100_power.0.csv), else
 * the host of a jpwr CLI file name (power.<host>.<pid>.csv), else the
 * first nodename in the data, else "unknown-<family>"; a host name gets
 * the vendor of its column family.
 */
#include "core/compat.h"
#include "caraml_priv.h"

#include <math.h>

/* System name for a file on its own (see the banner). */
static const char *standalone_system(const char *path, const char *node, const char *family,
				     struct strbuf *out, int *is_tag)
{
	const char *base = ingest_basename(path), *p, *tag;
	static const char *const stems[] = { "energy_from_counter.", "energy.", "power." };
	size_t i;

	*is_tag = 0;
	strbuf_reset(out);
	/* a CARAML tag among the '_'/'.'-separated tokens: A100_power.0.csv */
	for (p = base; *p;) {
		size_t n = strcspn(p, "_.");
		if ((tag = caraml_known_tag(p, n))) {
			strbuf_addstr(out, tag);
			*is_tag = 1;
			return out->buf;
		}
		p += n;
		if (*p)
			p++;
	}
	/* jpwr CLI: power.<host>.<pid>.csv */
	for (i = 0; i < AB_ARRAY_SIZE(stems); i++) {
		const char *s = strstr(base, stems[i]);
		size_t n;
		if (!s || (s != base && s[-1] != '_'))
			continue;
		s += strlen(stems[i]);
		n = strcspn(s, "._");
		if (n && strspn(s, "0123456789") < n && strchr(s + n, '.')) {
			strbuf_add(out, s, n);
			return out->buf;
		}
	}
	if (node && *node)
		strbuf_addstr(out, node);
	else
		strbuf_addf(out, "unknown-%s", family ? family : "jpwr");
	return out->buf;
}

static int emit_standalone(struct ingest_file *f, const struct jpwr_energy *e,
			   const struct jpwr_series *ps, double duration, const char *kind,
			   int64_t *run_id, struct strbuf *err)
{
	struct ingest_run run;
	struct ingest_metric m[6];
	struct strbuf sys = STRBUF_INIT, started = STRBUF_INIT, finished = STRBUF_INIT;
	json_t *params = json_object();
	const char *boundary, *family, *vendor, *node = NULL;
	size_t nm = 0, i;
	int is_tag, rc;
	double wh = NAN;
	long devices = 0;

	memset(&run, 0, sizeof(run));
	if (e) {
		node = e->first_node;
		wh = e->boundary ? e->wh : NAN;
		devices = e->devices;
		boundary = e->boundary;
		family = e->family;
		vendor = e->vendor;
		if (e->per_device)
			json_object_set(params, "energy_wh", e->per_device);
		if (e->rank >= 0)
			ingest_param_int(params, "rank", e->rank);
		run.nodes = e->nodes;
	} else {
		node = ps->node;
		wh = ps->wh;
		boundary = ps->boundary;
		family = ps->family;
		vendor = ps->vendor;
		devices = ps->devices;
		run.nodes = 1;
	}
	ingest_param_str(params, "nodename", node);
	ingest_param_str(params, "file", kind);
	run.line = 1;
	run.system.name = standalone_system(f->path, node, family, &sys, &is_tag);
	if (!is_tag)
		run.system.vendor = vendor;
	run.suite = "jpwr";
	run.benchmark = "energy";
	run.bench_metric = "energy";
	run.bench_unit = "Wh";
	run.lower_is_better = 1;
	run.params = params;
	if (!boundary || !isfinite(wh)) {
		run.status = RUN_INVALID;
		run.excluded_reason = "no device energy columns";
	} else if (e && e->counter && wh == 0.0) {
		run.status = RUN_INVALID;
		run.excluded_reason = "energy counters read 0 (not supported on this device)";
	} else {
		m[nm++] = (struct ingest_metric){ "energy", wh, "Wh",
			caraml_energy_meta(boundary, e && e->counter ? "energy_from_counter" : kind) };
		if (devices)
			m[nm++] = (struct ingest_metric){ "energy_per_device", wh / (double)devices,
							  "Wh", caraml_energy_meta(boundary, NULL) };
	}
	run.devices = devices;
	if (ps) {
		if (duration > 0) {
			m[nm++] = (struct ingest_metric){ "duration", duration, "s", NULL };
			if (run.status == RUN_OK)
				m[nm++] = (struct ingest_metric){ "avg_power", wh * 3600.0 / duration,
								  "W", caraml_energy_meta(boundary, NULL) };
		}
		if (run.status == RUN_OK)
			m[nm++] = (struct ingest_metric){ "peak_power", ps->peak, "W",
							  caraml_energy_meta(boundary, NULL) };
		ingest_iso8601(&started, ps->t_first);
		ingest_iso8601(&finished, ps->t_last);
		run.started = started.buf;
		run.finished = finished.buf;
	}
	run.metrics = m;
	run.nmetrics = nm;
	rc = ingest_emit_run(f, &run, run_id, err);
	for (i = 0; i < nm; i++)
		json_decref(m[i].meta);
	json_decref(params);
	strbuf_release(&sys);
	strbuf_release(&started);
	strbuf_release(&finished);
	return rc < 0 ? rc : 0;
}

static int parse_energy_file(struct ingest_file *f, struct strbuf *err)
{
	struct jpwr_energy e;
	int rc;

	jpwr_energy_init(&e);
	rc = jpwr_energy_read_fp(f->fp, f->path, &e, err);
	if (rc == 0)
		rc = emit_standalone(f, &e, NULL, 0,
				     e.rank >= 0 || e.rows <= 1 ? "energy" : "combined_energy", NULL,
				     err);
	jpwr_energy_release(&e);
	return rc;
}

static int parse_power_file(struct ingest_file *f, struct strbuf *err)
{
	struct jpwr_series st;
	int64_t run_id = 0;
	int rc;

	jpwr_series_init(&st);
	rc = jpwr_series_pass(f->fp, f->path, NULL, 0, &st, err);
	if (rc == 0)
		rc = emit_standalone(f, NULL, &st, st.t_last - st.t_first, "power", &run_id, err);
	if (rc == 0 && run_id) {
		struct jpwr_series st2;
		rewind(f->fp);
		jpwr_series_init(&st2);
		rc = jpwr_series_pass(f->fp, f->path, f, run_id, &st2, err);
		jpwr_series_release(&st2);
	}
	jpwr_series_release(&st);
	return rc;
}

/* first line of head, without its terminator */
static size_t head_line(const unsigned char *head, size_t len, size_t from, const char **s)
{
	const unsigned char *nl;
	size_t n;

	*s = (const char *)head + from;
	if (from >= len)
		return 0;
	nl = memchr(head + from, '\n', len - from);
	n = nl ? (size_t)(nl - head) - from : len - from;
	if (n && (*s)[n - 1] == '\r')
		n--;
	return n;
}

static int detect_power(const char *path, const unsigned char *head, size_t len)
{
	const char *s;
	size_t n = head_line(head, len, 0, &s);

	return n >= 11 && !memcmp(s, ",timestamps", 11) && (n == 11 || s[11] == ',') ? 95 : 0;
}

static int detect_combined(const char *path, const unsigned char *head, size_t len)
{
	const char *s;
	size_t n = head_line(head, len, 0, &s), i, start;
	int all_dev = 1, fields = 0;

	if (n >= 15 && !memcmp(s, ",nodename,rank,", 15))
		return 95;
	if (!n || s[0] != ',')
		return 0;
	/* ",rocm:0,rocm:1": a wide table of device columns only */
	for (i = 1, start = 1; i <= n; i++) {
		if (i == n || s[i] == ',') {
			struct strbuf name = STRBUF_INIT;
			strbuf_add(&name, s + start, i - start);
			if (jpwr_column_family(name.buf) < JPWR_GH_OTHER)
				all_dev = 0;
			strbuf_release(&name);
			fields++;
			start = i + 1;
		}
	}
	return all_dev && fields ? 85 : 0;
}

static int detect_series(const char *path, const unsigned char *head, size_t len)
{
	const char *s;
	size_t n = head_line(head, len, 0, &s), n2;
	const char *comma;

	if (n != 2 || memcmp(s, ",0", 2))
		return 0;
	n2 = head_line(head, len, (size_t)(s - (const char *)head) + n +
			      (s[n] == '\r' ? 2 : 1), &s);
	comma = n2 ? memchr(s, ',', n2) : NULL;
	if (!comma)
		return 0;
	{
		struct strbuf key = STRBUF_INIT;
		int ok;
		strbuf_add(&key, s, (size_t)(comma - s));
		ok = jpwr_column_family(key.buf) != JPWR_NONE || !strcmp(key.buf, "nodename");
		strbuf_release(&key);
		return ok ? 95 : 0;
	}
}

const struct ingest_format ingest_fmt_jpwr_combined = {
	"jpwr-combined", FMT_COMPANION, detect_combined, parse_energy_file
};

const struct ingest_format ingest_fmt_jpwr_energy = {
	"jpwr-energy", FMT_COMPANION, detect_series, parse_energy_file
};

const struct ingest_format ingest_fmt_jpwr_power = {
	"jpwr-power", FMT_COMPANION, detect_power, parse_power_file
};
