/*
 * mlperf_system.c - where a file sits in an MLPerf submission tree
 * (submitter, system, benchmark, round from the folder names, which the
 * official tools trust more than the placeholders inside the logs) and
 * the system description JSON that becomes the system row.
 *
 * A system is identified as "<submitter>/<system folder>": the folder name
 * is the JSON's file stem and is unique within a submission, while
 * system_name (the display name) is not unique across submitters.
 */
#include "core/compat.h"
#include "mlperf_priv.h"

#include <ctype.h>
#include <unistd.h>

void mlperf_layout_init(struct mlperf_layout *l)
{
	strbuf_init(&l->root, 0);
	strbuf_init(&l->submitter, 0);
	strbuf_init(&l->system, 0);
	strbuf_init(&l->bench, 0);
	strbuf_init(&l->scenario, 0);
	strbuf_init(&l->division, 0);
	strbuf_init(&l->bench_dir, 0);
	strbuf_init(&l->round, 0);
	strbuf_init(&l->scaling, 0);
}

void mlperf_layout_release(struct mlperf_layout *l)
{
	strbuf_release(&l->root);
	strbuf_release(&l->submitter);
	strbuf_release(&l->system);
	strbuf_release(&l->bench);
	strbuf_release(&l->scenario);
	strbuf_release(&l->division);
	strbuf_release(&l->bench_dir);
	strbuf_release(&l->round);
	strbuf_release(&l->scaling);
}

/* Path components of the lexically absolute, normalised path. */
struct comps {
	struct strbuf text;   /* components separated by NULs */
	const char **v;
	size_t n;
};

static void comps_split(struct comps *c, const char *path)
{
	struct strbuf abs = STRBUF_INIT;
	size_t *off, i, start;

	if (path[0] != '/') {
		char *cwd = getcwd(NULL, 0);
		if (cwd) {
			strbuf_addstr(&abs, cwd);
			strbuf_addch(&abs, '/');
			free(cwd);
		}
	}
	strbuf_addstr(&abs, path);
	strbuf_init(&c->text, abs.len + 1);
	off = ab_malloc((abs.len / 2 + 2) * sizeof(*off));
	c->n = 0;
	/* copy the components NUL-separated; pointers are made at the end
	 * because the buffer may move while it grows */
	for (i = 0; i <= abs.len; i = start + 1) {
		const char *s = abs.buf + i;
		size_t len;

		start = i;
		while (start < abs.len && abs.buf[start] != '/')
			start++;
		len = start - i;
		if (!len || (len == 1 && s[0] == '.'))
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			if (c->n)
				c->n--;
			continue;
		}
		off[c->n++] = c->text.len;
		strbuf_add(&c->text, s, len);
		strbuf_addch(&c->text, 0);
	}
	c->v = ab_malloc((c->n + 1) * sizeof(*c->v));
	for (i = 0; i < c->n; i++)
		c->v[i] = c->text.buf + off[i];
	free(off);
	strbuf_release(&abs);
}

static void comps_release(struct comps *c)
{
	strbuf_release(&c->text);
	free(c->v);
}

static void comps_join(struct strbuf *out, const struct comps *c, size_t upto)
{
	size_t i;

	strbuf_reset(out);
	for (i = 0; i < upto; i++) {
		strbuf_addch(out, '/');
		strbuf_addstr(out, c->v[i]);
	}
	if (!out->len)
		strbuf_addch(out, '/');
}

/* "4.1" from "training_results_v4.1" or "v4.1". */
static int round_of_comp(const char *s, struct strbuf *out)
{
	const char *v = strrchr(s, 'v');
	const char *p;
	int dots = 0;

	if (!v || (v != s && v[-1] != '_' && v[-1] != '-'))
		return 0;
	p = v + 1;
	if (!isdigit((unsigned char)*p))
		return 0;
	for (; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			return 0;
	}
	if (!dots || p[-1] == '.')
		return 0;
	strbuf_setstr(out, v + 1);
	return 1;
}

void mlperf_abs_dirname(struct strbuf *out, const char *path)
{
	struct comps c;

	comps_split(&c, path);
	comps_join(out, &c, c.n ? c.n - 1 : 0);
	comps_release(&c);
}

void mlperf_round_of(struct strbuf *out, const char *path)
{
	struct comps c;
	size_t i;

	strbuf_reset(out);
	comps_split(&c, path);
	for (i = 0; i + 1 < c.n; i++)
		round_of_comp(c.v[i], out);
	comps_release(&c);
}

int mlperf_layout_training(struct mlperf_layout *l, const char *path)
{
	struct comps c;
	size_t n, sub;
	int rc = -1;

	comps_split(&c, path);
	n = c.n;
	strbuf_reset(&l->scaling);
	if (n >= 5 && !strcmp(c.v[n - 4], "results")) {
		sub = n - 5;
		strbuf_setstr(&l->system, c.v[n - 3]);
	} else if (n >= 6 && !strcmp(c.v[n - 5], "results") &&
		   (!strcmp(c.v[n - 3], "strong") || !strcmp(c.v[n - 3], "weak"))) {
		sub = n - 6;
		strbuf_setstr(&l->system, c.v[n - 4]);
		strbuf_setstr(&l->scaling, c.v[n - 3]);
	} else {
		goto out;
	}
	strbuf_setstr(&l->submitter, c.v[sub]);
	/* the summarizer's only alias: folder "mask" is maskrcnn */
	strbuf_setstr(&l->bench, strcmp(c.v[n - 2], "mask") ? c.v[n - 2] : "maskrcnn");
	comps_join(&l->root, &c, sub + 1);
	comps_join(&l->bench_dir, &c, n - 1);
	strbuf_reset(&l->scenario);
	strbuf_reset(&l->division);
	strbuf_reset(&l->round);
	for (n = 0; n < sub; n++)
		round_of_comp(c.v[n], &l->round);
	rc = 0;
out:
	comps_release(&c);
	return rc;
}

int mlperf_layout_inference(struct mlperf_layout *l, const char *path)
{
	struct comps c;
	size_t n, k, res;
	int rc = -1;

	comps_split(&c, path);
	n = c.n;
	/* .../<Scenario>/performance[/run_N]/FILE */
	if (n >= 3 && !strncmp(c.v[n - 2], "run_", 4) && !strcmp(c.v[n - 3], "performance"))
		k = n - 4;
	else if (n >= 2 && !strcmp(c.v[n - 2], "performance"))
		k = n - 3;
	else
		goto out;
	/* k = Scenario, k-1 = model, k-2 = system, k-3 = "results", k-4 = submitter */
	if (k < 4 || strcmp(c.v[k - 3], "results"))
		goto out;
	res = k - 3;
	strbuf_setstr(&l->scenario, c.v[k]);
	strbuf_setstr(&l->bench, c.v[k - 1]);
	strbuf_setstr(&l->system, c.v[k - 2]);
	strbuf_setstr(&l->submitter, c.v[res - 1]);
	strbuf_reset(&l->division);
	if (res >= 2)
		strbuf_setstr(&l->division, c.v[res - 2]);
	comps_join(&l->root, &c, res);
	comps_join(&l->bench_dir, &c, n - 1);
	strbuf_reset(&l->scaling);
	strbuf_reset(&l->round);
	for (k = 0; k + 1 < res; k++)
		round_of_comp(c.v[k], &l->round);
	rc = 0;
out:
	comps_release(&c);
	return rc;
}

/* ---- system descriptions --------------------------------------------- */

void mlperf_sysdesc_init(struct mlperf_sysdesc *d)
{
	memset(d, 0, sizeof(*d));
	strbuf_init(&d->name, 0);
}

void mlperf_sysdesc_release(struct mlperf_sysdesc *d)
{
	json_decref(d->json);
	d->json = NULL;
	strbuf_release(&d->name);
}

long mlperf_json_count(json_t *v)
{
	long long x;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ? (long)json_integer_value(v) : 0;
	if (json_is_real(v)) {
		double d = json_real_value(v);
		return d > 0 && d < 1e9 && d == (double)(long)d ? (long)d : 0;
	}
	if (json_is_string(v) &&
	    num_parse_ll(json_string_value(v), json_string_length(v), &x) == NUM_OK && x > 0 &&
	    x < 1000000000)
		return (long)x;
	return 0;
}

static const char *str_member(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s && *s ? s : NULL;
}

#define SYSDESC_MAX_BYTES (4u << 20)

/* Read a small JSON file; bytes that are not UTF-8 are taken as latin-1
 * (the official tools would choke on them; a description is worth keeping). */
static json_t *load_json_file(const char *path, struct strbuf *why)
{
	struct strbuf raw = STRBUF_INIT, utf = STRBUF_INIT;
	json_error_t je;
	json_t *j = NULL;
	FILE *fp = ab_fopen_input(path, why);
	char blk[8192];
	size_t n, i;

	if (!fp) {
		/* "cannot open 'PATH': reason": the caller names the file */
		const char *colon = strstr(why->buf, "': ");
		if (colon)
			strbuf_setstr(why, colon + 3);
		return NULL;
	}
	while ((n = fread(blk, 1, sizeof(blk), fp)) > 0) {
		strbuf_add(&raw, blk, n);
		if (raw.len > SYSDESC_MAX_BYTES)
			break;
	}
	if (ferror(fp)) {
		strbuf_setstr(why, strerror(errno));
		goto out;
	}
	if (raw.len > SYSDESC_MAX_BYTES) {
		strbuf_reset(why);
		strbuf_addf(why, "larger than %u bytes", SYSDESC_MAX_BYTES);
		goto out;
	}
	j = json_loadb(raw.buf, raw.len, JSON_ALLOW_NUL, &je);
	if (!j) {
		if (json_error_code(&je) == json_error_invalid_utf8) {
			for (i = 0; i < raw.len; i++) {
				unsigned char c = (unsigned char)raw.buf[i];
				if (c < 0x80) {
					strbuf_addch(&utf, c);
				} else {
					strbuf_addch(&utf, 0xc0 | (c >> 6));
					strbuf_addch(&utf, 0x80 | (c & 0x3f));
				}
			}
			j = json_loadb(utf.buf, utf.len, JSON_ALLOW_NUL, &je);
		}
		if (!j) {
			strbuf_reset(why);
			strbuf_addf(why, "line %d: %s", je.line, je.text);
		}
	}
out:
	fclose(fp);
	strbuf_release(&raw);
	strbuf_release(&utf);
	return j;
}

int mlperf_sysdesc_load(struct mlperf_sysdesc *d, const struct mlperf_layout *l,
			struct ingest_file *f, struct strbuf *why)
{
	struct strbuf path = STRBUF_INIT;
	json_t *j;
	int rc = 0;

	json_decref(d->json);
	d->json = NULL;
	d->display_name = d->accelerator = d->host_cpu = d->interconnect = NULL;
	d->framework = d->division = d->status = d->submitter = NULL;
	d->nodes = d->per_node = 0;
	d->meta_text = NULL;
	strbuf_reset(&d->name);
	strbuf_addf(&d->name, "%s/%s", l->submitter.buf, l->system.buf);
	strbuf_addf(&path, "%s/systems/%s.json", l->root.buf, l->system.buf);
	/* every log of a system reads the same description: loaded once */
	j = ingest_memo_json(f, path.buf, &d->meta_text);
	if (j)
		goto loaded;
	if (access(path.buf, F_OK) < 0)
		goto out;
	j = load_json_file(path.buf, why);
	if (j && !json_is_object(j)) {
		json_decref(j);
		j = NULL;
		strbuf_setstr(why, "not a JSON object");
	}
	if (!j) {
		struct strbuf msg = STRBUF_INIT;
		strbuf_addf(&msg, "systems/%s.json: %s", l->system.buf, why->buf);
		strbuf_reset(why);
		strbuf_addbuf(why, &msg);
		strbuf_release(&msg);
		rc = -AB_EDATA;
		goto out;
	}
	d->meta_text = ingest_memo_json_put(f, path.buf, j);
loaded:
	d->json = j;
	d->display_name = str_member(j, "system_name");
	d->accelerator = str_member(j, "accelerator_model_name");
	d->host_cpu = str_member(j, "host_processor_model_name");
	d->interconnect = str_member(j, "accelerator_interconnect");
	d->framework = str_member(j, "framework");
	d->division = str_member(j, "division");
	d->submitter = str_member(j, "submitter");
	d->status = str_member(j, "status");
	d->nodes = mlperf_json_count(json_object_get(j, "number_of_nodes"));
	d->per_node = mlperf_json_count(json_object_get(j, "accelerators_per_node"));
out:
	strbuf_release(&path);
	return rc;
}

void mlperf_sysdesc_division(struct mlperf_sysdesc *d, const char *division)
{
	if (division && *division && strcmp(division, "closed"))
		strbuf_addf(&d->name, " (%s)", division);
}

void mlperf_sysdesc_fill(const struct mlperf_sysdesc *d, struct ingest_system *sys)
{
	memset(sys, 0, sizeof(*sys));
	sys->name = d->name.buf;
	sys->display_name = d->display_name;
	sys->accelerator = d->accelerator;
	sys->accelerators_per_node = d->per_node;
	sys->host_cpu = d->host_cpu;
	sys->interconnect = d->interconnect;
	sys->meta = d->json;
	sys->meta_json = d->meta_text;
}
