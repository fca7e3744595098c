/*
 * jpwr_resolve.c - find the file an EnergyFile cell names, on this machine.
 *
 * The cell holds a path on the cluster that ran the benchmark (absolute,
 * e.g. /p/project1/x/CARAML/llm_training/llm_benchmark_nvidia_amd_run/
 * 000006/000002_combine_energy/work/combined_energy.csv), or one cut to
 * "CARAML/..." as in the README.  JUBE's layout puts the table at
 * <outpath>/<id>/result/result.dat and the energy file at
 * <outpath>/<id>/<wp>_combine_energy/work/combined_energy.csv, so the
 * table's own ancestors hold it wherever the tree was copied; the
 * directories being ingested (and the working directory) are tried next.
 */
#include "core/compat.h"
#include "caraml_priv.h"

#include <sys/stat.h>

static void add_base(struct jpwr_resolver *r, const char *dir)
{
	size_t i;

	for (i = 0; i < r->nbases; i++)
		if (!strcmp(r->bases[i], dir))
			return;
	r->bases = ab_realloc(r->bases, (r->nbases + 1) * sizeof(*r->bases));
	r->bases[r->nbases++] = ab_strdup(dir);
}

/* dir and all its ancestors, nearest first */
static void add_ancestors(struct jpwr_resolver *r, const char *dir)
{
	char *real = realpath(dir, NULL);
	struct strbuf d = STRBUF_INIT;

	strbuf_addstr(&d, real ? real : dir);
	free(real);
	for (;;) {
		char *slash;
		add_base(r, d.buf);
		slash = strrchr(d.buf, '/');
		if (!slash || d.len <= 1)
			break;
		strbuf_setlen(&d, slash == d.buf ? 1 : (size_t)(slash - d.buf));
	}
	strbuf_release(&d);
}

void jpwr_resolver_init(struct jpwr_resolver *r, const struct ingest_file *f)
{
	struct strbuf dir = STRBUF_INIT;
	size_t i;

	memset(r, 0, sizeof(*r));
	ingest_dirname(&dir, f->path);
	add_ancestors(r, dir.buf);
	for (i = 0; f->opts && i < f->opts->nroots; i++) {
		char *real = realpath(f->opts->roots[i], NULL);
		add_base(r, real ? real : f->opts->roots[i]);
		free(real);
	}
	/* a relative "CARAML/..." value may be relative to where we run */
	{
		char *cwd = realpath(".", NULL);
		if (cwd)
			add_base(r, cwd);
		free(cwd);
	}
	strbuf_release(&dir);
}

void jpwr_resolver_release(struct jpwr_resolver *r)
{
	size_t i;

	for (i = 0; i < r->nbases; i++)
		free(r->bases[i]);
	free(r->bases);
	memset(r, 0, sizeof(*r));
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int try_candidate(const char *base, char **comp, size_t ncomp, size_t k,
			 struct strbuf *out)
{
	size_t i;

	strbuf_reset(out);
	strbuf_addstr(out, base);
	for (i = ncomp - k; i < ncomp; i++) {
		if (!out->len || out->buf[out->len - 1] != '/')
			strbuf_addch(out, '/');
		strbuf_addstr(out, comp[i]);
	}
	return is_file(out->buf);
}

/*
 * The cell holds a path on the machine that ran the benchmark (absolute,
 * or cut to "CARAML/..." in the README).  Match it by suffix: the longest
 * suffix first, under every base; at least 3 components (the workpackage
 * directory, "work", the file) so an unrelated file of the same name is
 * never taken.  ".." anywhere makes the value unusable.
 */
int jpwr_resolve(struct jpwr_resolver *r, const char *value, struct strbuf *out)
{
	char *copy = ab_strdup(value), *p, **comp = NULL;
	size_t ncomp = 0, k, b, kmin;
	int found = 0, bad = 0;

	for (p = copy; *p;) {
		char *q = strchr(p, '/');
		if (q)
			*q = '\0';
		if (!strcmp(p, ".."))
			bad = 1;
		if (*p && strcmp(p, ".")) {
			comp = ab_realloc(comp, (ncomp + 1) * sizeof(*comp));
			comp[ncomp++] = p;
		}
		if (!q)
			break;
		p = q + 1;
	}
	if (bad || !ncomp)
		goto out;
	kmin = ncomp < 3 ? ncomp : 3;
	if (r->hit_k && r->hit_k <= ncomp &&
	    try_candidate(r->bases[r->hit_base], comp, ncomp, r->hit_k, out)) {
		found = 1;
		goto out;
	}
	for (k = ncomp; k >= kmin && !found; k--) {
		for (b = 0; b < r->nbases; b++) {
			if (try_candidate(r->bases[b], comp, ncomp, k, out)) {
				r->hit_base = b;
				r->hit_k = k;
				found = 1;
				break;
			}
		}
	}
out:
	free(comp);
	free(copy);
	return found;
}
