/*
 * report_pdf.c - the procurement report (report.h) rendered from views/
 * structs onto the document engine (pdf_priv.h).  Every number printed
 * here comes from a view, formatted by views_fmt_*, so it equals the CLI's.
 *
 * The document is built by one function, twice: a dry run to learn the
 * pages of the headings, then the real PDF (see pdf_priv.h).
 */
#include "core/compat.h"
#include "core/atomic.h"
#include "core/error.h"
#include "plots/plot.h"
#include "reports/pdf_priv.h"
#include "reports/report.h"
#include "reports/report_load.h"
#include "views/views.h"

#include <ctype.h>
#include <math.h>
#include <time.h>

/* UTF-8 punctuation, spelled once (a hex escape swallows following hex letters) */
#define LQ "\xe2\x80\x9c"
#define RQ "\xe2\x80\x9d"
#define DASH "\xe2\x80\x94"
#define NDASH "\xe2\x80\x93"
#define TIMES "\xc3\x97"
#define MIDDOT "\xc2\xb7"
#define ELLIPSIS "\xe2\x80\xa6"
/* WORD JOINER: no line break here (after a dash inside a number range) */
#define WJ "\xe2\x81\xa0"

/* Above this many runs the appendix lists configurations, not runs. */
#define APPENDIX_MAX_RUNS 3000

struct bench {
	const char *suite, *name, *metric, *unit;
	char *raw_unit;                    /* the unit as measured (unit is normalised) */
	int lower;
	const char *boundary;              /* measurement boundary of energy, if any */
	struct views_stats stats;          /* this benchmark's configurations */
	size_t nsystems;
	char dest[32];
	struct views_compare cmp;          /* best configurations vs the baseline */
	int has_cmp;
	char *cmp_why;                     /* why there is no comparison */
	struct views_pareto par;           /* best configurations: headline x efficiency */
	int has_par;
	const char *par_y;                 /* its energy metric: NULL energy_efficiency,
					    * "energy" (MLPerf training: energy to train) */
	int sweeps_batch, sweeps_devices;  /* a scaling chart has something to show */
	struct views_cost cost;
	int has_cost;
	char *cost_why;
	const char *baseline;              /* its suite's baseline, NULL: none */
	enum db_per per;                   /* the spec's normalisation */
	size_t n_unnormalised;             /* configurations without the count */
};

/* The benchmarks of one suite share a baseline and a composite. */
struct grp {
	const char *suite;
	const char *baseline;              /* NULL when no system ran its benchmarks */
	struct views_compare all;          /* every benchmark of the suite, best vs best */
	int has_all;
};

/* Sources in order of first mention: "S1", "S2", ... (the systems table,
 * then the appendix), listed at the end of the appendix. */
struct srcref {
	const char *path, *sha;   /* borrowed from the inventory; sha "" when unknown */
};

/* The MLPerf training view, built before it is known to be needed (done
 * says it was). */
struct report_mlperf {
	int done;
	int rc;                  /* views_mlperf_build's */
	struct views_mlperf v;   /* when rc is 0 */
	struct strbuf err;       /* when rc < 0 */
};

struct rep {
	struct db *db;
	struct srcref *src;                /* rebuilt by each pass, same order */
	size_t nsrc;
	struct plot_palette *pal;
	struct cost_prices_file *prices;
	const struct report_spec *spec;
	const struct report_opts *o;
	struct views_inventory inv;
	struct bench *b;
	size_t nb;
	struct grp *g;
	size_t ng;
	struct views_mlperf mlp;           /* MLPerf training official scores */
	struct report_mlperf pm;           /* the same, built while the inventory loads */
	struct db_trace_window *tw;        /* runs with power traces */
	size_t ntw;
};

/* ---- small formatting helpers ------------------------------------------ */

/* The index of a source, registered on first mention.  A path mentioned
 * without its hash (a systems file) takes the hash of a later mention. */
static size_t src_index(struct rep *r, const char *path, const char *sha)
{
	size_t i;

	for (i = 0; i < r->nsrc; i++)
		if (!strcmp(r->src[i].path, path) &&
		    (!strcmp(r->src[i].sha, sha) || !*r->src[i].sha || !*sha)) {
			if (!*r->src[i].sha)
				r->src[i].sha = sha;
			return i;
		}
	r->src = ab_realloc(r->src, (r->nsrc + 1) * sizeof(*r->src));
	r->src[r->nsrc].path = path;
	r->src[r->nsrc].sha = sha;
	return r->nsrc++;
}

/* A fact's source tag: " S3" in small grey. */
static void src_tag(struct strbuf *sb, struct rep *r, const char *path)
{
	if (!path)
		return;
	strbuf_addf(sb, " <span size=\"smaller\" foreground=\"#777777\">S%zu</span>",
		    src_index(r, path, "") + 1);
}

static enum db_per spec_per(const struct report_spec *s, const char *bench)
{
	const struct report_bench *sb = report_spec_bench(s, bench);

	if (!sb)
		return DB_PER_SYSTEM;
	return sb->norm == REPORT_NORM_DEVICE ? DB_PER_DEVICE
	       : sb->norm == REPORT_NORM_NODE ? DB_PER_NODE
					      : DB_PER_SYSTEM;
}

/* "95 %" for the spec's confidence level (one decimal when needed). */
static void fmt_level(struct strbuf *sb, double level)
{
	views_fmt_level(sb, level);
	strbuf_addstr(sb, " %");
}

static void fmt_date(struct strbuf *sb, long long t)
{
	static const char *const months[] = { "January", "February", "March", "April", "May",
					      "June", "July", "August", "September", "October",
					      "November", "December" };
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm)) {
		strbuf_addstr(sb, "(unknown date)");
		return;
	}
	strbuf_addf(sb, "%d %s %d", tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900);
}

static void add_value(struct strbuf *sb, double v)
{
	views_fmt_value(sb, v);
}

/* views_fmt_ci's "[lo, hi]" that never breaks across lines */
static void fmt_ci(struct strbuf *sb, double lo, double hi)
{
	size_t start = sb->len;
	char *comma;

	views_fmt_ci(sb, lo, hi);
	comma = strstr(sb->buf + start, ", ");
	if (comma && sb->buf[start] == '[') {
		struct strbuf tail = STRBUF_INIT;

		strbuf_addstr(&tail, comma + 2);
		strbuf_setlen(sb, (size_t)(comma - sb->buf) + 1);
		strbuf_addstr(sb, "\xc2\xa0");   /* no-break space */
		strbuf_addbuf(sb, &tail);
		strbuf_release(&tail);
	}
}

/* "2n × 4d · b256 · fp16" for a configuration; no-break spaces keep it on
 * one line. */
#define NBSP "\xc2\xa0"

static void fmt_shape(struct strbuf *sb, const struct db_config *c)
{
	size_t start = sb->len;

	if (c->nodes > 0)
		strbuf_addf(sb, "%ldn", c->nodes);
	if (c->devices > 0)
		strbuf_addf(sb, "%s%ldd", sb->len > start ? NBSP TIMES NBSP : "", c->devices);
	if (c->global_batch > 0)
		strbuf_addf(sb, "%sb%ld", sb->len > start ? NBSP MIDDOT NBSP : "", c->global_batch);
	if (c->precision) {
		if (sb->len > start)
			strbuf_addstr(sb, NBSP MIDDOT NBSP);
		pdf_esc(sb, c->precision);
	}
	if (sb->len == start)
		strbuf_addstr(sb, DASH);
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "\xe2\x80\x94";
}

/* Table cells, each formatted into sb (a scratch buffer) and set. */
static void cell_esc(struct pdf_table *t, size_t col, struct strbuf *sb, const char *text)
{
	strbuf_reset(sb);
	pdf_esc(sb, text);
	pdf_table_cell(t, col, sb->buf);
}

static void cell_value(struct pdf_table *t, size_t col, struct strbuf *sb, double v)
{
	strbuf_reset(sb);
	add_value(sb, v);
	pdf_table_cell(t, col, sb->buf);
}

static void cell_money(struct pdf_table *t, size_t col, struct strbuf *sb, double v)
{
	strbuf_reset(sb);
	views_fmt_money(sb, v);
	pdf_table_cell(t, col, sb->buf);
}

static void cell_shape(struct pdf_table *t, size_t col, struct strbuf *sb,
		       const struct db_config *c)
{
	strbuf_reset(sb);
	fmt_shape(sb, c);
	pdf_table_cell(t, col, sb->buf);
}

/* The shape of one run (an appendix row), as a configuration's. */
static void cell_run_shape(struct pdf_table *t, size_t col, struct strbuf *sb, long nodes,
			   long devices, long global_batch, const char *precision)
{
	struct db_config shape;

	memset(&shape, 0, sizeof(shape));
	shape.nodes = nodes;
	shape.devices = devices;
	shape.global_batch = global_batch;
	shape.precision = (char *)precision;
	cell_shape(t, col, sb, &shape);
}

/* A column of a table: its title (NULL: the caller sets it) and alignment. */
struct colspec {
	const char *title;
	enum pdf_align align;
};

/* A table of these n columns. */
static struct pdf_table *table_cols_new(const struct colspec *cols, size_t n, double font_size)
{
	struct pdf_table *t = pdf_table_new(n, font_size);
	size_t i;

	for (i = 0; i < n; i++)
		pdf_table_col(t, i, cols[i].title, cols[i].align);
	return t;
}

/* A title "name (unit)" for column col. */
static void col_unit(struct pdf_table *t, size_t col, struct strbuf *sb, const char *name,
		     const char *unit, enum pdf_align align)
{
	strbuf_reset(sb);
	pdf_esc(sb, name);
	strbuf_addstr(sb, " (");
	pdf_esc(sb, unit);
	strbuf_addstr(sb, ")");
	pdf_table_col(t, col, sb->buf, align);
}

/* "S3:120" (S3 without a line): a source and line cell. */
static void cell_source_line(struct pdf_table *t, size_t col, size_t si, long line)
{
	if (line > 0)
		pdf_table_cellf(t, col, "S%zu:%ld", si + 1, line);
	else
		pdf_table_cellf(t, col, "S%zu", si + 1);
}

/* A bullet's lead: the benchmark's name in bold (the caller closes it). */
static void bold_name(struct strbuf *sb, const char *name)
{
	strbuf_addstr(sb, "<b>");
	pdf_esc(sb, name);
}

/* Number agreement in generated sentences: "1 run", "3 runs". */
static void add_count(struct strbuf *sb, size_t n, const char *one, const char *many)
{
	strbuf_addf(sb, "%zu %s", n, n == 1 ? one : many);
}

/* "the one run", "both runs", "all 4 runs", "2 of 5 runs": k of n things. */
static void add_k_of_n(struct strbuf *sb, size_t k, size_t n, const char *one, const char *many)
{
	if (k == n && n == 1)
		strbuf_addf(sb, "the one %s", one);
	else if (k == n && n == 2)
		strbuf_addf(sb, "both %s", many);
	else if (k == n)
		strbuf_addf(sb, "all %zu %s", n, many);
	else
		strbuf_addf(sb, "%zu of %zu %s", k, n, many);
}

/* The verb for a subject of n things: "has"/"have". */
static const char *agree(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* ---- sections ------------------------------------------------------------ */

static void cover(struct pdf_doc *d, struct rep *r)
{
	const struct db_inventory *inv = &r->inv.inv;
	struct strbuf sb = STRBUF_INIT;

	pdf_dest(d, "sec-cover");
	pdf_goto(d, 190);
	strbuf_reset(&sb);
	pdf_esc(&sb, r->spec->title);
	pdf_para(d, PDF_TITLE, sb.buf);
	pdf_space(d, 6);
	if (r->spec->organisation) {
		strbuf_reset(&sb);
		pdf_esc(&sb, r->spec->organisation);
		pdf_para(d, PDF_SUBTITLE, sb.buf);
	}
	if (r->spec->author) {
		strbuf_reset(&sb);
		pdf_esc(&sb, r->spec->author);
		pdf_para(d, PDF_SUBTITLE, sb.buf);
	}
	strbuf_reset(&sb);
	fmt_date(&sb, r->o->now);
	pdf_para(d, PDF_SUBTITLE, sb.buf);
	if (r->inv.data_note) {
		pdf_space(d, 14);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "<span foreground=\"#b03020\" weight=\"bold\">");
		pdf_esc(&sb, r->inv.data_note);
		strbuf_addstr(&sb, ": every number in this report comes from a generated, "
				   "simulated campaign, not from measurements.</span>");
		pdf_para(d, PDF_SUBTITLE, sb.buf);
	}
	pdf_goto(d, 640);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "<b>Provenance.</b> ");
	add_count(&sb, inv->nsystems, "benchmark system", "benchmark systems");
	strbuf_addstr(&sb, ", ");
	add_count(&sb, inv->n_ok + inv->n_failed + inv->n_aborted + inv->n_invalid, "run", "runs");
	strbuf_addstr(&sb, " from ");
	add_count(&sb, inv->nsources, "source file", "source files");
	strbuf_addf(&sb, "; provenance hash (sha256 over the sources' sha256s, sorted) "
			 "<tt>%s</tt>; database <tt>", inv->provenance);
	pdf_esc(&sb, r->o->db_path);
	strbuf_addstr(&sb, "</tt>; generated by accelbench ");
	pdf_esc(&sb, r->o->version);
	strbuf_addstr(&sb, ".");
	pdf_para(d, PDF_SMALL, sb.buf);
	strbuf_release(&sb);
}

static void contents(struct pdf_doc *d)
{
	pdf_heading(d, 1, "Contents", "sec-contents", 0);
	pdf_toc(d);
}

static int is_baseline(const struct rep *r, const char *system)
{
	size_t i;

	for (i = 0; i < r->ng; i++)
		if (r->g[i].baseline && !strcmp(r->g[i].baseline, system))
			return 1;
	return 0;
}

static void systems_section(struct pdf_doc *d, struct rep *r)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT },       { "Vendor, accelerator", PDF_LEFT },
		{ "Per node", PDF_RIGHT },    { "Nodes used", PDF_RIGHT },
		{ "Host CPU / interconnect", PDF_LEFT }, { "Software", PDF_LEFT },
		{ "Runs", PDF_RIGHT },        { "Files", PDF_RIGHT },
	};
	const struct db_inventory *inv = &r->inv.inv;
	struct pdf_table *t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7.5);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	pdf_heading(d, 1, "Systems under test", "sec-systems", 1);
	pdf_para(d, PDF_BODY,
		 "Each system as the benchmark tools named it, with what the database knows about "
		 "it. Vendor and accelerator are normalised from the accelerator the tool "
		 "reported (or a systems file); " LQ "nodes used" RQ " is the largest "
		 "configuration measured. After each fact, in grey, the file it came from "
		 "(S1, S2, " ELLIPSIS " listed with their sha256 under " LQ "Source files" RQ
		 " at the end of the appendix).");
	for (i = 0; i < inv->nsystems; i++) {
		const struct db_inv_system *y = &inv->systems[i];
		/* a systems file is cited by its name, as the database keeps it */
		const char *sys_src = y->src_system;

		pdf_table_row(t, NULL, NULL);
		strbuf_reset(&sb);
		pdf_esc(&sb, y->name);
		if (y->display_name && strcmp(y->display_name, y->name)) {
			strbuf_addstr(&sb, "\n<small>");
			pdf_esc(&sb, y->display_name);
			strbuf_addstr(&sb, "</small>");
		}
		if (is_baseline(r, y->name))
			strbuf_addstr(&sb, " <i>(baseline)</i>");
		pdf_table_cell(t, 0, sb.buf);
		strbuf_reset(&sb);
		pdf_esc(&sb, or_dash(y->vendor));
		strbuf_addstr(&sb, " ");
		pdf_esc(&sb, or_dash(y->accelerator));
		if (y->vendor || y->accelerator)
			src_tag(&sb, r, sys_src);
		pdf_table_cell(t, 1, sb.buf);
		strbuf_reset(&sb);
		if (y->per_node > 0) {
			strbuf_addf(&sb, "%ld", y->per_node);
			src_tag(&sb, r, sys_src);
		} else {
			strbuf_addstr(&sb, DASH);
		}
		pdf_table_cell(t, 2, sb.buf);
		strbuf_reset(&sb);
		if (y->max_nodes > 0) {
			strbuf_addf(&sb, "%ld", y->max_nodes);
			src_tag(&sb, r, y->src_nodes);
		} else {
			strbuf_addstr(&sb, DASH);
		}
		pdf_table_cell(t, 3, sb.buf);
		strbuf_reset(&sb);
		pdf_esc(&sb, or_dash(y->host_cpu));
		strbuf_addstr(&sb, " / ");
		pdf_esc(&sb, or_dash(y->interconnect));
		if (y->host_cpu || y->interconnect)
			src_tag(&sb, r, sys_src);
		pdf_table_cell(t, 4, sb.buf);
		strbuf_reset(&sb);
		pdf_esc(&sb, or_dash(y->frameworks));
		if (y->frameworks)
			src_tag(&sb, r, y->src_framework);
		pdf_table_cell(t, 5, sb.buf);
		pdf_table_cellf(t, 6, "%zu", y->runs);
		pdf_table_cellf(t, 7, "%zu", y->nsources);
		if (is_baseline(r, y->name))
			pdf_table_emph(t);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);
	pdf_para(d, PDF_SMALL, "Sources: a user's systems file when one described the system; "
			       "for MLPerf, the submission's system description (systems/"
			       "&lt;name&gt;.json beside the results); otherwise the first result "
			       "file with a run of the system. Nodes used: a result file with a run "
			       "at that size. Software: the first result file naming a framework. "
			       "Runs and files: every run of the system in the database and the "
			       "files they came from.");
	strbuf_release(&sb);
}

#define UP "\xe2\x96\xb2"      /* ▲ better than the baseline */
#define DOWN "\xe2\x96\xbc"    /* ▼ worse */
#define APPROX "\xe2\x89\x88"  /* ≈ indistinguishable */

/* How systems are compared with the baseline (the comparison views' options). */
static void compare_method(struct pdf_doc *d, struct rep *r)
{
	struct strbuf sb = STRBUF_INIT;
	struct compare_opts co;

	compare_opts_init(&co);
	co.level = r->spec->level;
	strbuf_addstr(&sb, "Each system's best configuration (by median) is compared with the "
			   "baseline's best: the ratio of medians, oriented so that > 1 is better, "
			   "with a ");
	fmt_level(&sb, co.level);
	strbuf_addf(&sb, " percentile bootstrap CI (exact, from the order-statistic "
			 "distribution of each median, when a side has %d runs or more; else %zu "
			 "resamples with seed %lu), and a two-sided Mann" NDASH "Whitney U test, "
			 "Holm-adjusted over the comparisons of each table. A verdict (" UP
			 " better, " DOWN " worse) needs both the CI to exclude 1 and an adjusted p "
			 "below %.2f; anything else is " APPROX " indistinguishable. The composite "
			 "is the geometric mean of a system's ratios over the benchmarks every "
			 "compared system ran, with a bootstrap CI over the runs.",
		    COMPARE_EXACT_MIN_N, co.resamples, co.seed, co.alpha);
	pdf_heading(d, 2, "Comparisons", NULL, 0);
	pdf_para(d, PDF_BODY, sb.buf);
	strbuf_release(&sb);
}

/* What each measurement boundary means and where it comes from. */
static const struct {
	const char *name, *what;
} boundaries[] = {
	{ "gpu", "the accelerators' own power counters (jpwr: NVML, ROCm SMI, gc-monitor), "
		 "without host CPU, memory, network or cooling" },
	{ "module", "the GH200 superchip module's counters (GPU, Grace CPU and memory), without "
		    "the rest of the node" },
	{ "node", "the nodes' AC power at the wall, from MLPerf power analyzers (SPEC PTDaemon)" },
	{ "node+switch", "the nodes' AC power plus the interconnect switches' power, from MLPerf "
			 "power analyzers (the scope of MLPerf training power results)" },
};

/* The energy boundary of each suite, and what it includes. */
static void energy_method(struct pdf_doc *d, struct rep *r)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, n = 0;

	strbuf_addstr(&sb, "Energy is each run's own measurement; ");
	for (i = 0; i < r->nb; i++) {
		const struct bench *b = &r->b[i];

		if (!b->boundary)
			continue;
		for (k = 0; k < i; k++)
			if (r->b[k].boundary && !strcmp(r->b[k].boundary, b->boundary) &&
			    !strcmp(r->b[k].suite, b->suite))
				break;
		if (k < i)
			continue;
		strbuf_addstr(&sb, n++ ? "; " : "");
		pdf_esc(&sb, b->suite);
		strbuf_addstr(&sb, " measured at the <b>");
		pdf_esc(&sb, b->boundary);
		strbuf_addstr(&sb, "</b> boundary");
		for (k = 0; k < AB_ARRAY_SIZE(boundaries); k++)
			if (!strcmp(boundaries[k].name, b->boundary))
				strbuf_addf(&sb, ": %s", boundaries[k].what);
	}
	if (!n)
		strbuf_addstr(&sb, "no benchmark here has a recorded measurement boundary");
	strbuf_addstr(&sb, ". Figures at different boundaries are not comparable: a GPU-only "
			   "reading leaves out the host, memory and network a node-level reading "
			   "includes.");
	pdf_heading(d, 2, "Energy", NULL, 0);
	pdf_para(d, PDF_BODY, sb.buf);
	strbuf_release(&sb);
}

static void methodology(struct pdf_doc *d, struct rep *r)
{
	static const struct colspec cols[] = {
		{ "Benchmark", PDF_LEFT }, { "Suite", PDF_LEFT }, { "Headline metric", PDF_LEFT },
		{ "Better", PDF_LEFT }, { "Runs per configuration", PDF_RIGHT },
		{ "Energy boundary", PDF_LEFT },
	};
	const struct db_inventory *inv = &r->inv.inv;
	struct pdf_table *t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7.5);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	pdf_heading(d, 1, "Methodology", "sec-method", 1);
	pdf_heading(d, 2, "Metrics", NULL, 0);
	for (i = 0; i < r->nb; i++) {
		const struct bench *b = &r->b[i];
		size_t k, lo = (size_t)-1, hi = 0;

		for (k = 0; k < b->stats.n; k++) {
			size_t n = b->stats.rows[k].s.n;

			if (n < lo)
				lo = n;
			if (n > hi)
				hi = n;
		}
		pdf_table_row(t, b->dest, NULL);
		cell_esc(t, 0, &sb, b->name);
		cell_esc(t, 1, &sb, b->suite);
		strbuf_reset(&sb);
		pdf_esc(&sb, b->metric);
		strbuf_addstr(&sb, " (");
		pdf_esc(&sb, b->unit);
		strbuf_addstr(&sb, ")");
		pdf_table_cell(t, 2, sb.buf);
		pdf_table_cell(t, 3, b->lower ? "lower" : "higher");
		if (lo == hi)
			pdf_table_cellf(t, 4, "%zu", lo);
		else
			pdf_table_cellf(t, 4, "%zu\xe2\x80\x93%zu", lo, hi);
		cell_esc(t, 5, &sb, b->boundary ? b->boundary
				 : b->has_par ? "measured, boundary not recorded"
					      : "not measured");
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);

	pdf_heading(d, 2, "Runs", NULL, 0);
	strbuf_reset(&sb);
	add_count(&sb, inv->n_ok + inv->n_failed + inv->n_aborted + inv->n_invalid, "run", "runs");
	strbuf_addf(&sb, " in total: %zu ok, %zu failed, %zu aborted, %zu invalid "
			 "(%zu with a recorded reason for exclusion). Statistics use the ok runs of "
			 "each configuration; failed, aborted and invalid runs are counted and listed "
			 "in the appendix, never averaged in.",
		    inv->n_ok, inv->n_failed, inv->n_aborted, inv->n_invalid, inv->n_excluded);
	pdf_para(d, PDF_BODY, sb.buf);
	pdf_heading(d, 2, "Statistics", NULL, 0);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "A <i>configuration</i> is benchmark \xc3\x97 system \xc3\x97 nodes "
			   "\xc3\x97 devices \xc3\x97 global batch \xc3\x97 precision. Each is "
			   "summarised by the median of its runs with a distribution-free ");
	fmt_level(&sb, r->spec->level);
	strbuf_addf(&sb, " confidence interval from order statistics (exact binomial ranks); "
			 "below %zu runs no such interval exists and the tables say "
			 "\xe2\x80\x9cn too small\xe2\x80\x9d. Outliers (Tukey fences at 1.5 IQR, "
			 "or a modified z-score above 3.5) are flagged and counted, never dropped.",
		    stats_ci_min_n(r->spec->level));
	pdf_para(d, PDF_BODY, sb.buf);
	compare_method(d, r);
	energy_method(d, r);
	strbuf_release(&sb);
}

static void stats_table(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT }, { "Configuration", PDF_LEFT }, { "n", PDF_RIGHT },
		{ "Failed", PDF_RIGHT }, { NULL, PDF_RIGHT }, { NULL, PDF_RIGHT },
		{ "CV", PDF_RIGHT }, { "Outliers", PDF_RIGHT },
	};
	struct pdf_table *t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7.5);
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	col_unit(t, 4, &sb, "Median", b->unit, PDF_RIGHT);
	strbuf_reset(&sb);
	fmt_level(&sb, r->spec->level);
	strbuf_addstr(&sb, " CI");
	pdf_table_col(t, 5, sb.buf, PDF_RIGHT);
	for (i = 0; i < b->stats.n; i++) {
		const struct views_stats_row *row = &b->stats.rows[i];

		pdf_table_row(t, NULL, NULL);
		cell_esc(t, 0, &sb, row->c->system);
		cell_shape(t, 1, &sb, row->c);
		pdf_table_cellf(t, 2, "%zu", row->s.n);
		pdf_table_cellf(t, 3, "%zu", row->s.n_failed);
		cell_value(t, 4, &sb, row->s.median);
		strbuf_reset(&sb);
		fmt_ci(&sb, row->s.ci_low, row->s.ci_high);
		pdf_table_cell(t, 5, sb.buf);
		strbuf_reset(&sb);
		if (isfinite(row->s.cv))
			strbuf_addf(&sb, "%.1f\xc2\xa0%%", 100.0 * row->s.cv);
		else
			strbuf_addstr(&sb, "n/a");
		pdf_table_cell(t, 6, sb.buf);
		pdf_table_cellf(t, 7, "%zu", row->s.n_outliers);
		if (b->baseline && !strcmp(row->c->system, b->baseline))
			pdf_table_emph(t);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);
	strbuf_release(&sb);
}

/* "5.0 h", "12 min", "40 s" for an offset in seconds (sign kept). */
static void fmt_offset(struct strbuf *sb, double s)
{
	double a = fabs(s);

	if (a >= 3600.0)
		strbuf_addf(sb, "%s%.1f h", s < 0 ? "\xe2\x88\x92" : "+", a / 3600.0);
	else if (a >= 120.0)
		strbuf_addf(sb, "%s%.0f min", s < 0 ? "\xe2\x88\x92" : "+", a / 60.0);
	else
		strbuf_addf(sb, "%s%.0f s", s < 0 ? "\xe2\x88\x92" : "+", a);
}

/* Append up to three names of v (distinct), then "and N more". */
static void name_list(struct strbuf *sb, const char *const *v, size_t n)
{
	size_t i, shown = 0, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(v[j], v[i]))
				break;
		if (j < i)
			continue;
		if (shown == 3) {
			size_t more = 0;

			for (; i < n; i++) {
				for (j = 0; j < i; j++)
					if (!strcmp(v[j], v[i]))
						break;
				more += j == i;
			}
			strbuf_addf(sb, " and %zu more", more);
			return;
		}
		if (shown)
			strbuf_addstr(sb, ", ");
		pdf_esc(sb, v[i]);
		shown++;
	}
}

/* Compared configurations that differ from the baseline's, named by what
 * differs: precision, batch, scale (nodes or devices). */
static size_t threat_shapes(struct pdf_doc *d, const struct rep *r, const struct bench *b)
{
	static const char *const what[] = { "precision", "global batch", "scale (nodes or "
									 "accelerators)" };
	const char **names = ab_calloc(b->cmp.n + 1, sizeof(*names));
	struct strbuf sb = STRBUF_INIT;
	size_t k, i, nt = 0, shown = 0;

	for (i = 0; i < b->cmp.n; i++)
		shown += report_spec_has_system(r->spec, b->cmp.pairs[i].sys->system);
	for (k = 0; k < 3; k++) {
		size_t n = 0;

		for (i = 0; i < b->cmp.n; i++) {
			const struct db_config *x = b->cmp.pairs[i].sys, *y = b->cmp.pairs[i].base;
			int differs;

			if (b->cmp.pairs[i].same_shape ||
			    !report_spec_has_system(r->spec, x->system))
				continue;
			if (k == 0)
				differs = (x->precision == NULL) != (y->precision == NULL) ||
					  (x->precision && strcmp(x->precision, y->precision));
			else if (k == 1)
				differs = x->global_batch != y->global_batch;
			else
				differs = x->nodes != y->nodes || x->devices != y->devices;
			if (differs)
				names[n++] = x->system;
		}
		if (!n)
			continue;
		strbuf_reset(&sb);
		bold_name(&sb, b->name);
		strbuf_addstr(&sb, "</b>: ");
		add_k_of_n(&sb, n, shown, "system", "systems");
		strbuf_addf(&sb, " %s compared with the baseline at a different %s (",
			    agree(n, "is", "are"), what[k]);
		name_list(&sb, names, n);
		strbuf_addstr(&sb, k == 0 ? "); a lower precision may be faster for reasons the "
					    "hardware alone does not explain."
				  : k == 1 ? "); throughput depends on the batch, so the ratio "
					     "mixes hardware and setup."
					   : "); the ratio compares system sizes as well as "
					     "hardware" );
		if (k == 2)
			strbuf_addstr(&sb, b->per == DB_PER_SYSTEM
						   ? " (the spec can normalise per accelerator or node)."
						   : ", though the values are normalised.");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	free(names);
	strbuf_release(&sb);
	return nt;
}

/* MLPerf training run sets that the rules would not accept as they are,
 * and what the official score drops. */
static size_t threat_mlperf(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	const char **few = ab_calloc(r->mlp.n + 1, sizeof(*few));
	const char **noscore = ab_calloc(r->mlp.n + 1, sizeof(*noscore));
	struct strbuf sb = STRBUF_INIT;
	size_t i, nfew = 0, nnoscore = 0, nsets = 0, dropped = 0, nt = 0;

	for (i = 0; i < r->mlp.n; i++) {
		const struct views_mlperf_row *o = &r->mlp.rows[i];

		if (!o->benchmark || strcmp(o->benchmark, b->name) ||
		    !report_spec_has_system(r->spec, o->system))
			continue;
		nsets++;
		if (o->max_dropped > dropped)
			dropped = o->max_dropped;
		if (o->required_runs && o->runs < o->required_runs)
			few[nfew++] = o->system;
		if (!isfinite(o->official_score))
			noscore[nnoscore++] = o->system;
	}
	if (nfew) {
		bold_name(&sb, b->name);
		strbuf_addstr(&sb, "</b>: ");
		add_k_of_n(&sb, nfew, nsets, "MLPerf run set", "MLPerf run sets");
		strbuf_addf(&sb, " %s fewer result files than the rules require (",
			    agree(nfew, "has", "have"));
		name_list(&sb, few, nfew);
		strbuf_addstr(&sb, nfew == 1 ? "); its score is not comparable with complete "
					       "submissions."
					     : "); their scores are not comparable with complete "
					       "submissions.");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	if (nnoscore) {
		strbuf_reset(&sb);
		bold_name(&sb, b->name);
		strbuf_addf(&sb, "</b>: %zu MLPerf run set%s ha%s no official score (too many "
				 "runs did not converge, or none is left): ", nnoscore,
			    nnoscore == 1 ? "" : "s", nnoscore == 1 ? "s" : "ve");
		name_list(&sb, noscore, nnoscore);
		strbuf_addstr(&sb, ".");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	if (nsets) {
		strbuf_reset(&sb);
		bold_name(&sb, b->name);
		strbuf_addf(&sb, "</b>: the official scores of its %zu run set%s drop the fastest "
				 "and the slowest %zu result file%s as the MLPerf rules do (olympic "
				 "mean); the statistics tables keep every converged run.",
			    nsets, nsets == 1 ? "" : "s", dropped ? dropped : 1,
			    dropped > 1 ? "s" : "");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	free(few);
	free(noscore);
	strbuf_release(&sb);
	return nt;
}

/* Power traces whose clock disagrees with the run's (model/inventory.h). */
static size_t threat_skew(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	struct strbuf sb = STRBUF_INIT;
	const struct db_trace_window *first = NULL;
	size_t i, ntraced = 0, nchecked = 0, noff = 0, nt = 0;

	for (i = 0; i < r->ntw; i++) {
		const struct db_trace_window *w = &r->tw[i];

		if (strcmp(w->suite, b->suite) || strcmp(w->benchmark, b->name) ||
		    !report_spec_has_system(r->spec, w->system))
			continue;
		ntraced++;
		nchecked += w->checked;
		if (w->noff) {
			noff++;
			if (!first)
				first = w;
		}
	}
	if (noff) {
		double hours = first->offset / 3600.0;

		bold_name(&sb, b->name);
		strbuf_addstr(&sb, "</b>: clock skew in power traces: in ");
		add_k_of_n(&sb, noff, nchecked, "run", "runs");
		strbuf_addf(&sb, " with power samples a trace lies outside the run's own start and "
				 "end (%srun %lld of ", noff > 1 ? "e.g. " : "", (long long)first->id);
		pdf_esc(&sb, first->system);
		strbuf_addstr(&sb, ", device ");
		pdf_esc(&sb, first->off_device ? first->off_device : "?");
		strbuf_addstr(&sb, ": ");
		fmt_offset(&sb, first->offset);
		strbuf_addstr(&sb, ")");
		if (fabs(first->offset) >= 3000.0 &&
		    fabs(hours - floor(hours + 0.5)) * 3600.0 < 120.0)
			strbuf_addstr(&sb, "; whole hours suggest a time-zone difference between the "
					   "power meter's clock and the benchmark's");
		strbuf_addstr(&sb, ". Energy integrated over these runs' windows misses or "
				   "misplaces samples.");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	if (ntraced > nchecked) {
		strbuf_reset(&sb);
		bold_name(&sb, b->name);
		strbuf_addf(&sb, "</b>: %zu run%s with power traces %s no start time, so %s "
				 "clock cannot be checked against the power meter's.",
			    ntraced - nchecked, ntraced - nchecked == 1 ? "" : "s",
			    ntraced - nchecked == 1 ? "has" : "have",
			    ntraced - nchecked == 1 ? "its" : "their");
		pdf_bullet(d, sb.buf);
		nt++;
	}
	strbuf_release(&sb);
	return nt;
}

static void threats(struct pdf_doc *d, struct rep *r)
{
	const struct db_inventory *inv = &r->inv.inv;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, nthreats = 0;

	pdf_heading(d, 1, "Threats to validity", "sec-threats", 1);
	pdf_para(d, PDF_BODY, "Generated from the data: each point names what in the database "
			      "limits the conclusions above.");
	if (r->inv.data_note) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "<b>Simulated data.</b> The database holds ");
		pdf_esc(&sb, r->inv.data_note);
		strbuf_addstr(&sb, "; no conclusion about real hardware follows from it.");
		pdf_bullet(d, sb.buf);
		nthreats++;
	}
	for (i = 0; i < r->nb; i++) {
		const struct bench *b = &r->b[i];
		size_t small = 0, outl = 0, failed = 0, missing = 0;

		for (k = 0; k < b->stats.n; k++) {
			const struct views_stats_row *row = &b->stats.rows[k];

			small += row->s.n < stats_ci_min_n(r->spec->level);
			outl += row->s.n_outliers;
			failed += row->s.n_failed;
			missing += row->c->n_missing;
		}
		if (small) {
			strbuf_reset(&sb);
			if (small == b->stats.n && small == 1)
				strbuf_addstr(&sb, "<b>The one configuration of ");
			else if (small == b->stats.n)
				strbuf_addf(&sb, "<b>All %zu configurations of ", small);
			else
				strbuf_addf(&sb, "<b>%zu of %zu configurations of ", small, b->stats.n);
			pdf_esc(&sb, b->name);
			strbuf_addf(&sb, "</b> %s fewer than %zu ok runs: %s no confidence "
					 "interval.", agree(small, "has", "have"),
				    stats_ci_min_n(r->spec->level),
				    agree(small, "its median carries", "their medians carry"));
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		if (!b->boundary) {
			strbuf_reset(&sb);
			bold_name(&sb, b->name);
			strbuf_addstr(&sb, b->has_par ? "</b>: the database does not record where its "
							"energy was measured (device, node, "
							"node+switch); compare it with other "
							"benchmarks' energy with care."
						      : "</b>: no energy was measured; energy "
							"efficiency cannot be compared.");
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		if (outl) {
			strbuf_reset(&sb);
			bold_name(&sb, b->name);
			strbuf_addstr(&sb, "</b>: ");
			add_count(&sb, outl, "run is", "runs are");
			strbuf_addf(&sb, " flagged as %s (kept in the statistics; the median is "
					 "robust to %s).", agree(outl, "an outlier", "outliers"),
				    agree(outl, "it", "them"));
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		if (failed) {
			strbuf_reset(&sb);
			bold_name(&sb, b->name);
			strbuf_addstr(&sb, "</b>: ");
			add_count(&sb, failed, "run", "runs");
			strbuf_addf(&sb, " failed, aborted or %s invalid; a system that fails often "
					 "may be slower in practice than its median suggests.",
				    agree(failed, "was", "were"));
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		if (b->has_cmp) {
			size_t differ = 0, few = 0;

			for (k = 0; k < b->cmp.n; k++) {
				if (!report_spec_has_system(r->spec, b->cmp.pairs[k].sys->system))
					continue;
				differ += !b->cmp.pairs[k].same_shape;
				few += b->cmp.pairs[k].res.n < STATS_CI_MIN_N ||
				       b->cmp.pairs[k].res.n_baseline < STATS_CI_MIN_N;
			}
			if (differ)
				nthreats += threat_shapes(d, r, b);
			if (few) {
				strbuf_reset(&sb);
				bold_name(&sb, b->name);
				strbuf_addstr(&sb, "</b>: ");
				add_count(&sb, few, "comparison rests", "comparisons rest");
				strbuf_addf(&sb, " on fewer than %d runs on a side; %s wide or "
						 "missing.", STATS_CI_MIN_N,
					    agree(few, "its CI is", "their CIs are"));
				pdf_bullet(d, sb.buf);
				nthreats++;
			}
		}
		if (missing) {
			strbuf_reset(&sb);
			bold_name(&sb, b->name);
			strbuf_addstr(&sb, "</b>: ");
			add_count(&sb, missing, "ok run lacks", "ok runs lack");
			strbuf_addstr(&sb, " the headline metric.");
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		if (!strcmp(b->suite, "mlperf-training"))
			nthreats += threat_mlperf(d, r, b);
		if (!strcmp(b->suite, "mlperf-inference")) {
			size_t inval = 0, nconf = 0;

			for (k = 0; k < b->stats.n; k++) {
				inval += b->stats.rows[k].c->n_invalid;
				nconf += b->stats.rows[k].c->n_invalid > 0;
			}
			if (inval) {
				strbuf_reset(&sb);
				bold_name(&sb, b->name);
				strbuf_addf(&sb, "</b>: %zu MLPerf inference result%s of %zu "
						 "configuration%s %s INVALID by LoadGen's own check; "
						 "they are not in the statistics.", inval,
					    inval == 1 ? "" : "s", nconf, nconf == 1 ? "" : "s",
					    inval == 1 ? "is" : "are");
				pdf_bullet(d, sb.buf);
				nthreats++;
			}
		}
		nthreats += threat_skew(d, r, b);
	}
	if (inv->nsources == 1) {
		pdf_bullet(d, "<b>Single source.</b> Every result comes from one file: nothing "
			      "cross-checks it.");
		nthreats++;
	} else {
		/* systems whose every result comes from one file */
		const char **one = ab_calloc(inv->nsystems + 1, sizeof(*one));
		size_t n = 0;

		for (i = 0; i < inv->nsystems; i++)
			if (inv->systems[i].nsources == 1 &&
			    report_spec_has_system(r->spec, inv->systems[i].name))
				one[n++] = inv->systems[i].name;
		if (n) {
			strbuf_reset(&sb);
			strbuf_addstr(&sb, "<b>Single-source results.</b> ");
			add_k_of_n(&sb, n, inv->nsystems, "system", "systems");
			strbuf_addf(&sb, " %s every result from one file (", agree(n, "has", "have"));
			name_list(&sb, one, n);
			strbuf_addstr(&sb, "): nothing independent cross-checks them; a second "
					   "campaign would show whether the numbers repeat.");
			sb.buf[strlen("<b>Single-source results.</b> ")] =
				(char)toupper((unsigned char)sb.buf[strlen("<b>Single-source results.</b> ")]);
			pdf_bullet(d, sb.buf);
			nthreats++;
		}
		free(one);
	}
	if (!nthreats)
		pdf_para(d, PDF_BODY, "No threat was found in the data.");
	strbuf_release(&sb);
}


static void appendix_runs(struct pdf_doc *d, struct rep *r)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT }, { "Configuration", PDF_LEFT }, { "Status", PDF_LEFT },
		{ NULL, PDF_RIGHT }, { "Job", PDF_LEFT }, { "Source:line", PDF_LEFT },
		{ "sha256", PDF_LEFT }, { "Run id", PDF_RIGHT },
	};
	const struct db_inventory *inv = &r->inv.inv;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k;
	struct pdf_table *t;

	pdf_para(d, PDF_BODY, "Every run behind this report, by benchmark and system. The system "
			      "column links back to the benchmark's section; the source column "
			      "gives the file (listed at the end of the appendix with its sha256) "
			      "and the line the run was read from.");
	for (k = 0; k < r->nb; k++) {
		const struct bench *b = &r->b[k];
		struct strbuf h = STRBUF_INIT;

		t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7);
		col_unit(t, 3, &h, "Value", b->raw_unit, PDF_RIGHT);
		for (i = 0; i < inv->nruns; i++) {
			const struct db_inv_run *run = &inv->runs[i];
			size_t si;

			if (strcmp(run->benchmark, b->name) || strcmp(run->suite, b->suite) ||
			    !report_spec_has_system(r->spec, run->system))
				continue;
			si = src_index(r, run->source ? run->source : "",
				       run->sha256 ? run->sha256 : "");
			pdf_table_row(t, b->dest, NULL);
			cell_esc(t, 0, &sb, run->system);
			cell_run_shape(t, 1, &sb, run->nodes, run->devices, run->global_batch,
				       run->precision);
			strbuf_reset(&sb);
			if (strcmp(run->status, "ok"))
				strbuf_addstr(&sb, "<b>");
			pdf_esc(&sb, run->status);
			if (strcmp(run->status, "ok"))
				strbuf_addstr(&sb, "</b>");
			if (run->excluded_reason) {
				strbuf_addstr(&sb, ": ");
				pdf_esc(&sb, run->excluded_reason);
			}
			pdf_table_cell(t, 2, sb.buf);
			strbuf_reset(&sb);
			if (isfinite(run->value))
				add_value(&sb, run->value);
			else
				strbuf_addstr(&sb, DASH);
			pdf_table_cell(t, 3, sb.buf);
			cell_esc(t, 4, &sb, or_dash(run->job_id));
			cell_source_line(t, 5, si, run->line);
			strbuf_reset(&sb);
			strbuf_addstr(&sb, "<tt>");
			if (run->sha256)
				strbuf_add(&sb, run->sha256,
					   strlen(run->sha256) < 10 ? strlen(run->sha256) : 10);
			strbuf_addstr(&sb, "</tt>");
			pdf_table_cell(t, 6, sb.buf);
			pdf_table_cellf(t, 7, "%lld", (long long)run->id);
		}
		strbuf_reset(&h);
		strbuf_addf(&h, "Runs of %s (%s)", b->name, b->suite);
		pdf_heading(d, 2, h.buf, NULL, 0);
		pdf_table_draw(d, t);
		pdf_table_free(t);
		strbuf_release(&h);
	}
	strbuf_release(&sb);
}

/* Length of the directory (up to and including its last '/') that every
 * cited source path starts with; 0 when they share none but the root. */
static size_t sources_common_dir(const struct rep *r)
{
	size_t i, n, k;

	if (!r->nsrc)
		return 0;
	n = strlen(r->src[0].path);
	for (i = 1; i < r->nsrc; i++) {
		const char *p = r->src[i].path;

		for (k = 0; k < n && p[k] == r->src[0].path[k]; k++)
			;
		n = k;
	}
	while (n > 0 && r->src[0].path[n - 1] != '/')
		n--;
	return n > 1 ? n : 0;
}

/* Every source file the report cites (S1, S2, ...) with its sha256; paths
 * relative to the folder they all share, which is named once, so the table
 * reads the same wherever the data lives. */
static void appendix_sources(struct pdf_doc *d, struct rep *r)
{
	static const struct colspec cols[] = {
		{ "Source", PDF_LEFT }, { "Path", PDF_LEFT }, { "sha256", PDF_LEFT },
	};
	struct strbuf sb = STRBUF_INIT;
	struct pdf_table *t;
	size_t i, dir = sources_common_dir(r);

	pdf_dest(d, "sec-sources");
	pdf_heading(d, 2, "Source files", NULL, 0);
	strbuf_addstr(&sb, "The files the facts and runs above came from, numbered in the "
			   "order the report first cites them; sha256 as ingested "
			   "(" DASH " for a file read as a companion of another).");
	if (dir) {
		struct strbuf root = STRBUF_INIT;

		strbuf_add(&root, r->src[0].path, dir);
		strbuf_addstr(&sb, " Paths are relative to <tt>");
		pdf_esc(&sb, root.buf);
		strbuf_addstr(&sb, "</tt>.");
		strbuf_release(&root);
	}
	pdf_para(d, PDF_SMALL, sb.buf);
	t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7);
	for (i = 0; i < r->nsrc; i++) {
		pdf_table_row(t, NULL, NULL);
		pdf_table_cellf(t, 0, "S%zu", i + 1);
		cell_esc(t, 1, &sb, r->src[i].path + dir);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "<tt>");
		pdf_esc(&sb, *r->src[i].sha ? r->src[i].sha : DASH);
		strbuf_addstr(&sb, "</tt>");
		pdf_table_cell(t, 2, sb.buf);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);

	strbuf_release(&sb);
}

/* Runs not ok listed one by one in a grouped appendix; the rest are
 * counted by reason. */
#define APPENDIX_MAX_BAD 100

/* A database too large to list every run: each configuration with the
 * ids, files and lines of its runs (so every run can be found), and every
 * run that was not ok by itself. */
static void appendix_grouped(struct pdf_doc *d, struct rep *r)
{
	static const struct colspec cfg_cols[] = {
		{ "System", PDF_LEFT }, { "Configuration", PDF_LEFT },
		{ "Runs\n<span weight=\"normal\">all / not ok</span>", PDF_RIGHT },
		{ "Run ids", PDF_RIGHT }, { "Source:lines", PDF_LEFT },
	};
	static const struct colspec reason_cols[] = {
		{ "Status", PDF_LEFT }, { "Reason", PDF_LEFT }, { "Runs", PDF_RIGHT },
	};
	static const struct colspec bad_cols[] = {
		{ "Benchmark", PDF_LEFT }, { "System", PDF_LEFT }, { "Configuration", PDF_LEFT },
		{ "Status", PDF_LEFT }, { "Job", PDF_LEFT }, { "Source:line", PDF_LEFT },
		{ "Run id", PDF_RIGHT },
	};
	const struct db_inventory *inv = &r->inv.inv;
	struct strbuf sb = STRBUF_INIT;
	struct pdf_table *t;
	size_t i, k, total = inv->n_ok + inv->n_failed + inv->n_aborted + inv->n_invalid;
	size_t nbad_sel;

	strbuf_addf(&sb, "The database holds %zu runs: listed one per row they would fill some "
			 "%zu pages, more than a reader can use (this report lists every run up "
			 "to %d). So each configuration is listed with the ids of its runs and the "
			 "files and lines they were read from, enough to find any run; every run "
			 "that was not ok is listed by itself below; and "
			 "<tt>accelbench ls runs --csv</tt> prints every run with its source file "
			 "and line.",
		    total, total / 50 + 1, APPENDIX_MAX_RUNS);
	pdf_para(d, PDF_BODY, sb.buf);
	for (k = 0; k < r->nb; k++) {
		const struct bench *b = &r->b[k];
		struct strbuf row = STRBUF_INIT, h = STRBUF_INIT;

		t = table_cols_new(cfg_cols, AB_ARRAY_SIZE(cfg_cols), 7);
		for (i = 0; i < inv->ncfgsrc; i++) {
			const struct db_inv_cfgsrc *c = &inv->cfgsrc[i];
			const struct db_inv_cfgsrc *p = i ? &inv->cfgsrc[i - 1] : NULL;
			size_t si;
			int same;

			if (strcmp(c->benchmark, b->name) || strcmp(c->suite, b->suite) ||
			    !report_spec_has_system(r->spec, c->system))
				continue;
			/* rows of one configuration from several files: one row, a line each */
			same = p && !strcmp(p->suite, c->suite) && !strcmp(p->benchmark, c->benchmark) &&
			       !strcmp(p->system, c->system) && p->nodes == c->nodes &&
			       p->devices == c->devices && p->global_batch == c->global_batch &&
			       (p->precision == NULL) == (c->precision == NULL) &&
			       (!p->precision || !strcmp(p->precision, c->precision));
			si = src_index(r, c->source ? c->source : "", c->sha256 ? c->sha256 : "");
			if (!same) {
				pdf_table_row(t, b->dest, NULL);
				cell_esc(t, 0, &sb, c->system);
				cell_run_shape(t, 1, &sb, c->nodes, c->devices, c->global_batch,
					       c->precision);
				strbuf_reset(&row);
			} else {
				strbuf_addch(&row, '\n');
			}
			strbuf_addf(&row, "S%zu", si + 1);
			if (c->line_min > 0 && c->line_min == c->line_max)
				strbuf_addf(&row, ":%ld", c->line_min);
			else if (c->line_min > 0)
				strbuf_addf(&row, ":%ld" NDASH "%ld", c->line_min, c->line_max);
			strbuf_addf(&row, " (%zu)", c->n);
			pdf_table_cell(t, 4, row.buf);
			/* counts and id ranges over the configuration's files */
			{
				size_t n = 0, bad = 0, j = i;
				int64_t lo = c->id_min, hi = c->id_max;

				while (j > 0 && same) {   /* back to the configuration's first row */
					const struct db_inv_cfgsrc *x = &inv->cfgsrc[j - 1];

					if (strcmp(x->system, c->system) || x->nodes != c->nodes ||
					    x->devices != c->devices || x->global_batch != c->global_batch ||
					    strcmp(x->benchmark, c->benchmark) ||
					    (x->precision == NULL) != (c->precision == NULL) ||
					    (x->precision && strcmp(x->precision, c->precision)))
						break;
					j--;
				}
				for (; j <= i; j++) {
					n += inv->cfgsrc[j].n;
					bad += inv->cfgsrc[j].n_not_ok;
					if (inv->cfgsrc[j].id_min < lo)
						lo = inv->cfgsrc[j].id_min;
					if (inv->cfgsrc[j].id_max > hi)
						hi = inv->cfgsrc[j].id_max;
				}
				pdf_table_cellf(t, 2, "%zu / %zu", n, bad);
				if (lo == hi)
					pdf_table_cellf(t, 3, "%lld", (long long)lo);
				else
					pdf_table_cellf(t, 3, "%lld" NDASH "%lld", (long long)lo,
							(long long)hi);
			}
		}
		strbuf_addf(&h, "Runs of %s (%s) by configuration", b->name, b->suite);
		pdf_heading(d, 2, h.buf, NULL, 0);
		pdf_table_draw(d, t);
		pdf_table_free(t);
		strbuf_release(&h);
		strbuf_release(&row);
	}
	pdf_para(d, PDF_SMALL, "Run ids: the smallest and largest of the configuration (ids are "
			       "given in ingest order, so a file's runs are contiguous); "
			       "Source:lines: each file with the first and last line of the "
			       "configuration's runs in it and how many runs it holds.");
	pdf_heading(d, 2, "Runs that were not ok", NULL, 0);
	nbad_sel = 0;
	for (i = 0; i < inv->nbad; i++)
		nbad_sel += report_spec_has_system(r->spec, inv->bad[i].system);
	{
		/* by status and reason, from the runs loaded */
		struct pdf_table *rt = table_cols_new(reason_cols, AB_ARRAY_SIZE(reason_cols), 7);
		size_t j, nrows = 0, nsel = 0;

		for (i = 0; i < inv->nbad; i++) {
			const struct db_inv_run *x = &inv->bad[i];
			size_t cnt = 0;

			if (!report_spec_has_system(r->spec, x->system))
				continue;
			nsel++;
			for (j = 0; j < i; j++)
				if (report_spec_has_system(r->spec, inv->bad[j].system) &&
				    !strcmp(inv->bad[j].status, x->status) &&
				    !strcmp(or_dash(inv->bad[j].excluded_reason),
					    or_dash(x->excluded_reason)))
					break;
			if (j < i)
				continue;
			for (j = i; j < inv->nbad; j++)
				cnt += report_spec_has_system(r->spec, inv->bad[j].system) &&
				       !strcmp(inv->bad[j].status, x->status) &&
				       !strcmp(or_dash(inv->bad[j].excluded_reason),
					       or_dash(x->excluded_reason));
			pdf_table_row(rt, NULL, NULL);
			cell_esc(rt, 0, &sb, x->status);
			cell_esc(rt, 1, &sb, or_dash(x->excluded_reason));
			pdf_table_cellf(rt, 2, "%zu", cnt);
			nrows++;
		}
		if (nsel > APPENDIX_MAX_BAD && nrows)
			pdf_table_draw(d, rt);
		pdf_table_free(rt);
		if (nsel > APPENDIX_MAX_BAD) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%zu%s runs were not ok, counted above by reason; the first "
					 "%d are listed below, the others are counted in their "
					 "configuration's row.", nsel, inv->bad_omitted ? "+" : "",
				    APPENDIX_MAX_BAD);
			pdf_para(d, PDF_SMALL, sb.buf);
		}
	}
	if (!inv->nbad) {
		pdf_para(d, PDF_BODY, "Every run was ok.");
	} else {
		size_t listed = 0;

		t = table_cols_new(bad_cols, AB_ARRAY_SIZE(bad_cols), 7);

		for (i = 0; i < inv->nbad && listed < APPENDIX_MAX_BAD; i++) {
			const struct db_inv_run *run = &inv->bad[i];
			size_t si;

			if (!report_spec_has_system(r->spec, run->system))
				continue;
			listed++;
			for (k = 0; k < r->nb; k++)
				if (!strcmp(r->b[k].name, run->benchmark) &&
				    !strcmp(r->b[k].suite, run->suite))
					break;
			si = src_index(r, run->source ? run->source : "",
				       run->sha256 ? run->sha256 : "");
			pdf_table_row(t, k < r->nb ? r->b[k].dest : NULL, NULL);
			cell_esc(t, 0, &sb, run->benchmark);
			cell_esc(t, 1, &sb, run->system);
			cell_run_shape(t, 2, &sb, run->nodes, run->devices, run->global_batch,
				       run->precision);
			strbuf_reset(&sb);
			strbuf_addstr(&sb, "<b>");
			pdf_esc(&sb, run->status);
			strbuf_addstr(&sb, "</b>");
			/* many: the reasons are in the table above */
			if (run->excluded_reason && nbad_sel <= APPENDIX_MAX_BAD) {
				strbuf_addstr(&sb, ": ");
				pdf_esc(&sb, run->excluded_reason);
			}
			pdf_table_cell(t, 3, sb.buf);
			cell_esc(t, 4, &sb, or_dash(run->job_id));
			cell_source_line(t, 5, si, run->line);
			pdf_table_cellf(t, 6, "%lld", (long long)run->id);
		}
		pdf_table_draw(d, t);
		pdf_table_free(t);
		if (inv->bad_omitted) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "More than %d runs were not ok: the counts by reason cover "
					 "the first %d (<tt>accelbench ls runs --csv</tt> lists them "
					 "all).", APPENDIX_MAX_RUNS, APPENDIX_MAX_RUNS);
			pdf_para(d, PDF_SMALL, sb.buf);
		}
	}
	strbuf_release(&sb);
}

static void appendix(struct pdf_doc *d, struct rep *r)
{
	pdf_heading(d, 1, "Appendix: every run", "sec-appendix", 1);
	if (r->inv.inv.runs_omitted)
		appendix_grouped(d, r);
	else
		appendix_runs(d, r);
	appendix_sources(d, r);
}

/* ---- comparisons, charts, trade-offs ----------------------------------- */


static const char *verdict_mark(enum compare_verdict v)
{
	return v == COMPARE_FASTER ? UP : v == COMPARE_SLOWER ? DOWN : APPROX;
}

static const char *verdict_words(enum compare_verdict v)
{
	return v == COMPARE_FASTER ? "better" : v == COMPARE_SLOWER ? "worse" : "indistinguishable";
}

/* "1.23×" and "[1.20–1.26]" with three significant digits. */
static void fmt_ratio(struct strbuf *sb, double v)
{
	views_fmt_ratio(sb, v); /* as the charts label it */
}

static void fmt_ratio_ci(struct strbuf *sb, double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		strbuf_addstr(sb, "no CI");
		return;
	}
	/* a range never breaks across lines */
	if (lo < 0.1)
		strbuf_addf(sb, "%.2g" NDASH WJ "%.2g", lo, hi);
	else
		strbuf_addf(sb, "%.*f" NDASH WJ "%.*f", lo >= 10 ? 1 : 2, lo, hi >= 10 ? 1 : 2, hi);
}

static const struct views_pair *bench_pair(const struct bench *b, const char *system)
{
	size_t i;

	if (!b->has_cmp)
		return NULL;
	for (i = 0; i < b->cmp.n; i++)
		if (!strcmp(b->cmp.pairs[i].sys->system, system))
			return &b->cmp.pairs[i];
	return NULL;
}

static const struct views_pareto_row *bench_eff(const struct bench *b, const char *system)
{
	size_t i;

	if (!b->has_par)
		return NULL;
	for (i = 0; i < b->par.n; i++)
		if (!strcmp(b->par.rows[i].x->system, system))
			return &b->par.rows[i];
	return NULL;
}

static int bench_ran(const struct bench *b, const char *system)
{
	size_t i;

	for (i = 0; i < b->stats.n; i++)
		if (!strcmp(b->stats.rows[i].c->system, system))
			return 1;
	return 0;
}

static const struct views_composite *composite_of(const struct grp *g, const char *system)
{
	size_t i;

	if (!g->has_all)
		return NULL;
	for (i = 0; i < g->all.n_composite; i++)
		if (!strcmp(g->all.composite[i].system, system))
			return &g->all.composite[i];
	return NULL;
}

/* "JEDI (4× GH200)" from a configuration. */
static void fmt_system(struct strbuf *sb, const struct db_config *c)
{
	pdf_esc(sb, c->system);
	if (c->accelerator && c->devices > 0) {
		strbuf_addf(sb, " (%ld" TIMES " ", c->devices);
		pdf_esc(sb, c->accelerator);
		strbuf_addch(sb, ')');
	}
}

/* The generated findings: one per benchmark, then the composite and the
 * caveats.  Built from the comparison view only; a difference is stated
 * only when its verdict says so. */
static size_t findings(struct pdf_doc *d, struct rep *r, const struct grp *g, int compact)
{
	size_t max_bench = compact ? 3 : 4;
	struct strbuf sb = STRBUF_INIT;
	size_t i, k, n = 0, differ = 0;

	for (i = 0; i < r->nb && n < max_bench; i++) {
		const struct bench *b = &r->b[i];
		const struct views_pair *best = NULL;
		size_t nbetter = 0, nworse = 0, ncmp = 0;

		if (!b->has_cmp || strcmp(b->suite, g->suite))
			continue;
		for (k = 0; k < b->cmp.n; k++) {
			const struct views_pair *p = &b->cmp.pairs[k];

			if (!report_spec_has_system(r->spec, p->sys->system))
				continue;
			ncmp++;
			differ += !p->same_shape;
			nbetter += p->res.verdict == COMPARE_FASTER;
			nworse += p->res.verdict == COMPARE_SLOWER;
			if (p->res.verdict == COMPARE_FASTER &&
			    (!best || p->res.speedup > best->res.speedup))
				best = p;
		}
		if (!ncmp)
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "On <b>");
		pdf_esc(&sb, b->name);
		strbuf_addstr(&sb, "</b>, ");
		if (best) {
			const struct views_pareto_row *e = bench_eff(b, best->sys->system);
			const struct views_pareto_row *eb = bench_eff(b, g->baseline);

			fmt_system(&sb, best->sys);
			strbuf_addstr(&sb, b->lower ? " needed " : " delivered ");
			fmt_ratio(&sb, b->lower ? 1.0 / best->res.speedup : best->res.speedup);
			strbuf_addstr(&sb, " the ");
			pdf_esc(&sb, g->baseline);
			strbuf_addstr(&sb, " baseline's ");
			pdf_esc(&sb, b->metric);
			strbuf_addstr(&sb, " (");
			fmt_level(&sb, best->res.level);
			strbuf_addstr(&sb, " CI ");
			fmt_ratio_ci(&sb, b->lower ? 1.0 / best->res.speedup_ci_high : best->res.ratio_ci_low,
				     b->lower ? 1.0 / best->res.speedup_ci_low : best->res.ratio_ci_high);
			if (best->res.n == best->res.n_baseline)
				strbuf_addf(&sb, ", n = %zu each", best->res.n);
			else
				strbuf_addf(&sb, ", n = %zu and %zu", best->res.n, best->res.n_baseline);
			strbuf_addstr(&sb, ")");
			if (!best->same_shape)
				strbuf_addstr(&sb, " in a different configuration");
			if (e && eb && isfinite(e->yv) && isfinite(eb->yv) && eb->yv > 0) {
				double pct = 100.0 * (e->yv / eb->yv - 1.0);

				strbuf_addf(&sb, "; its median %s was %.0f %% %s "
						 "(medians, not tested)",
					    b->par_y ? "energy per run" : "energy efficiency",
					    fabs(pct), pct >= 0 ? "higher" : "lower");
			}
			strbuf_addstr(&sb, ".");
			if (nbetter > 1)
				strbuf_addf(&sb, " %zu of the %zu compared systems were better than the "
						 "baseline.", nbetter, ncmp);
		} else if (nworse == ncmp) {
			strbuf_addf(&sb, "every compared system (%zu) was worse than the ", ncmp);
			pdf_esc(&sb, g->baseline);
			strbuf_addstr(&sb, " baseline.");
		} else {
			strbuf_addstr(&sb, "no system was better than the ");
			pdf_esc(&sb, g->baseline);
			strbuf_addf(&sb, " baseline beyond run-to-run noise (%zu of %zu "
					 "indistinguishable).", ncmp - nworse, ncmp);
		}
		pdf_bullet(d, sb.buf);
		n++;
	}
	if (g->has_all && g->all.n_common > 1) {
		const struct views_composite *best = NULL;

		for (k = 0; k < g->all.n_composite; k++) {
			const struct views_composite *c = &g->all.composite[k];

			if (report_spec_has_system(r->spec, c->system) && c->verdict == COMPARE_FASTER &&
			    (!best || c->gm.gm > best->gm.gm))
				best = c;
		}
		strbuf_reset(&sb);
		if (best) {
			strbuf_addf(&sb, "Across the %zu benchmarks every compared system ran, <b>",
				    g->all.n_common);
			pdf_esc(&sb, best->system);
			strbuf_addstr(&sb, "</b> had the highest geometric-mean speedup over ");
			pdf_esc(&sb, g->baseline);
			strbuf_addstr(&sb, ": ");
			fmt_ratio(&sb, best->gm.gm);
			strbuf_addstr(&sb, " (");
			fmt_level(&sb, best->gm.level);
			strbuf_addstr(&sb, " CI over the runs ");
			fmt_ratio_ci(&sb, best->gm.boot_ci_low, best->gm.boot_ci_high);
			strbuf_addstr(&sb, ").");
		} else {
			strbuf_addf(&sb, "Across the %zu benchmarks every compared system ran, no "
					 "system's geometric-mean speedup over ", g->all.n_common);
			pdf_esc(&sb, g->baseline);
			strbuf_addstr(&sb, " is distinguishable from 1.");
		}
		pdf_bullet(d, sb.buf);
		n++;
	}
	if (differ && !compact) {   /* compact: said above the table */
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu comparison%s pair%s configurations that differ from the "
				 "baseline's (nodes, devices, batch or precision; marked " LQ "%s" RQ
				 "): each system is shown at its best configuration.",
			    differ, differ == 1 ? "" : "s", differ == 1 ? "s" : "", "\xe2\x89\xa0");
		pdf_bullet(d, sb.buf);
		n++;
	}
	strbuf_release(&sb);
	return n;
}

/* Systems of a suite's summary: those that ran one of its benchmarks. */
static int summary_has(struct rep *r, const size_t *bi, size_t nbi, const char *sys)
{
	size_t k;

	for (k = 0; k < nbi; k++)
		if (bench_eff(&r->b[bi[k]], sys) || bench_pair(&r->b[bi[k]], sys) ||
		    bench_ran(&r->b[bi[k]], sys))
			return 1;
	return 0;
}

/* Above this many systems a suite's summary is compact: one line per
 * system (ratio, mark and CI), so that it stays on one page; the headline
 * values and efficiencies are in the benchmark sections. */
#define SUMMARY_COMPACT_ROWS 12

static void summary_group(struct pdf_doc *d, struct rep *r, const struct grp *g)
{
	const struct db_inventory *inv = &r->inv.inv;
	struct strbuf sb = STRBUF_INIT;
	size_t *bi = ab_calloc(r->nb + 1, sizeof(*bi)), nbi = 0, i, k, first, nrows = 0;
	size_t per_table;
	int compact;

	for (k = 0; k < r->nb; k++)
		if (!strcmp(r->b[k].suite, g->suite))
			bi[nbi++] = k;
	for (i = 0; i < inv->nsystems; i++)
		nrows += summary_has(r, bi, nbi, inv->systems[i].name);
	compact = nrows > SUMMARY_COMPACT_ROWS;
	per_table = compact ? 6 : 5;
	if (compact && g != r->g)
		pdf_new_page(d);   /* each large suite's summary on a page of its own */
	if (r->ng > 1) {
		strbuf_addf(&sb, "%s: baseline %s", g->suite, g->baseline ? g->baseline : "none");
		pdf_need(d, 120);
		pdf_heading(d, 2, sb.buf, NULL, 0);
	}
	if (!g->baseline) {
		pdf_para(d, PDF_BODY, "No system to compare with; the benchmark sections give the "
				      "statistics.");
		free(bi);
		strbuf_release(&sb);
		return;
	}
	if (compact) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%zu systems: one line each (ratio, mark and CI; shaded: the "
				 "baseline); the headline values, energy efficiency and which "
				 "configurations differ (" "\xe2\x89\xa0" ") are in each benchmark's "
				 "comparison table.", nrows);
		pdf_para(d, PDF_SMALL, sb.buf);
	}
	/* at most five (compact: six) benchmarks per table, so cells stay legible */
	for (first = 0; first < nbi; first += per_table) {
		size_t last = first + per_table < nbi ? first + per_table : nbi;
		int with_gm = last == nbi && g->has_all && g->all.n_common > 1;
		struct pdf_table *t = pdf_table_new(1 + (last - first) + (with_gm ? 1 : 0),
						    compact ? 5.5 : 7);

		pdf_table_col(t, 0, "System", PDF_LEFT);
		/* ratios and CIs never break inside; long system names wrap
		 * first (compact: the room goes to the names, so that 36 rows
		 * stay on one page; a cell may break between ratio and CI) */
		if (compact)
			pdf_table_dense(t);
		else
			pdf_table_col_max(t, 0, 0.25);
		for (k = first; k < last; k++) {
			const struct bench *b = &r->b[bi[k]];

			strbuf_reset(&sb);
			pdf_esc(&sb, b->name);
			strbuf_addstr(&sb, "\n<span weight=\"normal\">");
			pdf_esc(&sb, b->unit);
			strbuf_addstr(&sb, b->lower ? ", lower is better" : ", higher is better");
			strbuf_addstr(&sb, "</span>");
			pdf_table_col(t, 1 + k - first, sb.buf, PDF_RIGHT);
		}
		if (with_gm) {
			strbuf_reset(&sb);
			strbuf_addf(&sb, "Geometric mean\n<span weight=\"normal\">over %zu common "
					 "benchmarks</span>", g->all.n_common);
			pdf_table_col(t, 1 + last - first, sb.buf, PDF_RIGHT);
		}
		for (i = 0; i < inv->nsystems; i++) {
			const char *sys = inv->systems[i].name;
			int is_base = !strcmp(sys, g->baseline);

			if (!summary_has(r, bi, nbi, sys))
				continue;
			pdf_table_row(t, NULL, NULL);
			strbuf_reset(&sb);
			pdf_esc(&sb, sys);
			if (is_base && !compact)   /* compact: the shaded row */
				strbuf_addstr(&sb, "\n<i>baseline</i>");
			pdf_table_cell(t, 0, sb.buf);
			for (k = first; k < last; k++) {
				const struct bench *b = &r->b[bi[k]];
				const struct views_pair *p = bench_pair(b, sys);
				const struct views_pareto_row *e = bench_eff(b, sys);

				strbuf_reset(&sb);
				if (p) {
					strbuf_addstr(&sb, "<b>");
					fmt_ratio(&sb, p->res.speedup);
					strbuf_addf(&sb, "</b>" NBSP "%s%s%s",
						    verdict_mark(p->res.verdict),
						    p->same_shape || compact ? "" : NBSP "\xe2\x89\xa0",
						    compact ? " " : "\n");
					fmt_ratio_ci(&sb, p->res.speedup_ci_low, p->res.speedup_ci_high);
					if (!compact)
						strbuf_addstr(&sb, "\n");
				} else if (is_base && b->has_cmp) {
					strbuf_addstr(&sb, compact ? "<b>1" TIMES "</b>" : "<b>1" TIMES "</b>\n");
				}
				if (compact) {
					if (!p && !(is_base && b->has_cmp))
						strbuf_addstr(&sb, DASH);
				} else if (e) {
					strbuf_addstr(&sb, "<span foreground=\"#555555\">");
					add_value(&sb, e->xv);
					if (isfinite(e->yv)) {
						strbuf_addstr(&sb, " " MIDDOT " ");
						add_value(&sb, e->yv);
						strbuf_addstr(&sb, " ");
						pdf_esc(&sb, b->par.y_unit);
					}
					strbuf_addstr(&sb, "</span>");
				} else if (!p && !(is_base && b->has_cmp)) {
					strbuf_addstr(&sb, DASH);
				}
				pdf_table_cell(t, 1 + k - first, sb.buf);
			}
			if (with_gm) {
				const struct views_composite *c = composite_of(g, sys);

				strbuf_reset(&sb);
				if (c && isfinite(c->gm.gm)) {
					strbuf_addstr(&sb, "<b>");
					fmt_ratio(&sb, c->gm.gm);
					strbuf_addf(&sb, "</b>" NBSP "%s%s", verdict_mark(c->verdict),
						    compact ? " " : "\n");
					fmt_ratio_ci(&sb, c->gm.boot_ci_low, c->gm.boot_ci_high);
				} else if (is_base) {
					strbuf_addstr(&sb, "<b>1" TIMES "</b>");
				} else {
					strbuf_addstr(&sb, DASH);
				}
				pdf_table_cell(t, 1 + last - first, sb.buf);
			}
			if (is_base)
				pdf_table_emph(t);
		}
		pdf_table_draw(d, t);
		pdf_table_free(t);
	}
	findings(d, r, g, compact);
	free(bi);
	strbuf_release(&sb);
}

static void summary_section(struct pdf_doc *d, struct rep *r)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	pdf_heading(d, 1, "Executive summary", "sec-summary", 1);
	strbuf_addstr(&sb, "Each system at its best configuration against the baseline of its "
			   "suite. A ratio is " LQ "times better than the baseline" RQ " (a "
			   "speedup for time-like metrics): " UP " better, " DOWN " worse, " APPROX
			   " indistinguishable (bootstrap CI of the ratio of medians containing 1, or a "
			   "Holm-adjusted Mann" NDASH "Whitney p above 0.05); \xe2\x89\xa0 "
			   "configurations differ. Under each ratio: the median headline value and, where "
			   "measured, the median energy efficiency. The bullets under each table are "
			   "generated from the same comparisons.");
	pdf_para(d, PDF_SMALL, sb.buf);
	for (i = 0; i < r->ng; i++)
		summary_group(d, r, &r->g[i]);
	if (r->inv.data_note) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "<b>All of these numbers are ");
		pdf_esc(&sb, r->inv.data_note);
		strbuf_addstr(&sb, ".</b>");
		pdf_para(d, PDF_BODY, sb.buf);
	}
	strbuf_release(&sb);
}

static void compare_table(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT }, { "Configuration", PDF_LEFT }, { "n / n base", PDF_RIGHT },
		{ "Median", PDF_RIGHT }, { NULL, PDF_RIGHT }, { NULL, PDF_RIGHT },
		{ "p (Holm)", PDF_RIGHT }, { "Verdict", PDF_LEFT }, { "Bootstrap", PDF_LEFT },
	};
	struct pdf_table *t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7);
	struct strbuf sb = STRBUF_INIT;
	size_t i, nexact = 0, nshown = 0;

	pdf_table_col(t, 4, b->lower ? "Speedup" : "Ratio", PDF_RIGHT);
	fmt_level(&sb, b->cmp.copts.level);
	strbuf_addstr(&sb, " CI");
	pdf_table_col(t, 5, sb.buf, PDF_RIGHT);
	for (i = 0; i < b->cmp.n; i++) {
		const struct views_pair *p = &b->cmp.pairs[i];

		if (!report_spec_has_system(r->spec, p->sys->system))
			continue;
		nshown++;
		nexact += p->res.boot == COMPARE_BOOT_EXACT;
		pdf_table_row(t, NULL, NULL);
		cell_esc(t, 0, &sb, p->sys->system);
		strbuf_reset(&sb);
		fmt_shape(&sb, p->sys);
		if (!p->same_shape) {
			strbuf_addstr(&sb, "\n\xe2\x89\xa0 base ");
			fmt_shape(&sb, p->base);
		}
		pdf_table_cell(t, 1, sb.buf);
		pdf_table_cellf(t, 2, "%zu / %zu", p->res.n, p->res.n_baseline);
		cell_value(t, 3, &sb, p->res.median);
		strbuf_reset(&sb);
		fmt_ratio(&sb, p->res.speedup);
		pdf_table_cell(t, 4, sb.buf);
		strbuf_reset(&sb);
		fmt_ratio_ci(&sb, p->res.speedup_ci_low, p->res.speedup_ci_high);
		pdf_table_cell(t, 5, sb.buf);
		strbuf_reset(&sb);
		if (isfinite(p->res.p_adjusted))
			strbuf_addf(&sb, p->res.p_adjusted < 0.001 ? "%.1e" : "%.3f", p->res.p_adjusted);
		else
			strbuf_addstr(&sb, "n/a");
		pdf_table_cell(t, 6, sb.buf);
		pdf_table_cellf(t, 7, "%s %s", verdict_mark(p->res.verdict),
				verdict_words(p->res.verdict));
		pdf_table_cell(t, 8, compare_boot_method_name(p->res.boot));
	}
	if (nshown)
		pdf_table_draw(d, t);
	pdf_table_free(t);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "Each system's best configuration against the baseline ");
	pdf_esc(&sb, b->baseline);
	strbuf_addstr(&sb, "'s best; ");
	strbuf_addstr(&sb, b->lower ? "speedup = baseline median / median (time-like metric)"
				    : "ratio = median / baseline median");
	strbuf_addstr(&sb, ", > 1 is better. ");
	fmt_level(&sb, b->cmp.copts.level);
	strbuf_addstr(&sb, " percentile bootstrap CI of the ratio of medians (");
	if (nexact == nshown && nshown)
		strbuf_addf(&sb, "exact, n " "\xe2\x89\xa5" " %d", COMPARE_EXACT_MIN_N);
	else if (nexact)
		strbuf_addf(&sb, "exact where n " "\xe2\x89\xa5" " %d, else %zu resamples, seed %lu",
			    COMPARE_EXACT_MIN_N, b->cmp.copts.resamples, b->cmp.copts.seed);
	else
		strbuf_addf(&sb, "%zu resamples, seed %lu", b->cmp.copts.resamples,
			    b->cmp.copts.seed);
	strbuf_addstr(&sb, "); Mann" NDASH "Whitney U, Holm-adjusted over ");
	if (b->cmp.n == 1)
		strbuf_addstr(&sb, "the one comparison");
	else
		strbuf_addf(&sb, "the %zu comparisons", b->cmp.n);
	strbuf_addf(&sb, " of the table. A verdict needs both the CI to exclude 1 and p &lt; %.2f.",
		    COMPARE_ALPHA);
	pdf_para(d, PDF_SMALL, sb.buf);
	strbuf_release(&sb);
}

/* A chart drawn by plots/ from the views/ chart the CLI's `plot` draws. */
struct chart_ctx {
	struct rep *r;
	const struct bench *b;
	enum views_chart_kind kind;
};

/* The options of a report chart: the spec's systems, normalisation and
 * confidence level, the report's palette. */
static void chart_opts(const struct rep *r, const struct bench *b, enum views_chart_kind kind,
		       struct views_chart_opts *fo)
{
	memset(fo, 0, sizeof(*fo));
	fo->suite = b->suite;
	fo->benchmark = b->name;
	fo->baseline = b->baseline;
	fo->systems = (const char *const *)r->spec->systems;
	fo->nsystems = r->spec->nsystems;
	fo->palette = r->pal;
	/* the bar chart normalises per accelerator or node as the tables do,
	 * and draws its whiskers at the spec's level */
	fo->per_device = kind == VIEWS_CHART_BAR && b->per == DB_PER_DEVICE;
	fo->per_node = kind == VIEWS_CHART_BAR && b->per == DB_PER_NODE;
	fo->level = r->spec->level;
	fo->y_metric = b->par_y;
	/* the whole suite's MLPerf scores, as loaded (not for one system) */
	if (r->spec->nsystems != 1)
		fo->mlperf_scores = r->mlp.scores;
}

static int draw_chart(cairo_t *cr, double x, double y, double w, double h, void *vctx,
		      struct strbuf *err)
{
	struct chart_ctx *c = vctx;
	struct views_chart_opts fo;
	struct views_chart *fig = NULL;
	struct plot_rect area = { x, y, w, h };
	int rc;

	chart_opts(c->r, c->b, c->kind, &fo);
	rc = views_chart_build(c->r->db, c->kind, &fo, &fig, err);
	if (rc == -AB_EDATA) {
		/* the data has nothing this chart can show: say so in its place */
		struct strbuf msg = STRBUF_INIT;
		PangoLayout *l = pango_cairo_create_layout(cr);

		strbuf_addstr(&msg, "No chart: ");
		strbuf_addbuf(&msg, err);
		strbuf_reset(err);
		pango_layout_set_text(l, msg.buf, -1);
		pango_layout_set_width(l, (int)(w * PANGO_SCALE));
		cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
		cairo_move_to(cr, x, y);
		pango_cairo_show_layout(cr, l);
		g_object_unref(l);
		strbuf_release(&msg);
		return 0;
	}
	if (rc == 0) {
		cairo_save(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_rectangle(cr, x, y, w, h);
		cairo_fill(cr);
		cairo_restore(cr);
		rc = plot_draw(cr, &area, views_chart_spec(fig), err);
	}
	views_chart_free(fig);
	return rc;
}

/* A level-2 heading (NULL: none) and a chart, kept on one page. */
static int chart(struct pdf_doc *d, struct rep *r, const struct bench *b, enum views_chart_kind kind,
		 const char *heading, struct strbuf *err)
{
	struct chart_ctx c = { r, b, kind };
	double w = pdf_text_width(d);
	size_t n = b->nsystems;
	/* horizontal bars grow with the number of systems */
	double h = kind == VIEWS_CHART_BAR ? 120.0 + 16.0 * (double)n : w * 0.58;

	if (h < w * 0.5)
		h = w * 0.5;
	if (heading) {
		pdf_need(d, h + 40.0);
		pdf_heading(d, 2, heading, NULL, 0);
	}
	return pdf_figure(d, h, draw_chart, &c, err);
}

static void cost_table(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	struct pdf_table *t = pdf_table_new(8, 7);
	struct strbuf sb = STRBUF_INIT;
	const char *cur = b->cost.prices && b->cost.prices->currency ? b->cost.prices->currency
								      : "EUR";
	size_t i;

	pdf_table_col(t, 0, "System", PDF_LEFT);
	pdf_table_col(t, 1, "Configuration", PDF_LEFT);
	strbuf_addf(&sb, "Capex (%s)", cur);
	pdf_table_col(t, 2, sb.buf, PDF_RIGHT);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "TCO (%s)", cur);
	pdf_table_col(t, 3, sb.buf, PDF_RIGHT);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s per million ", cur);
	pdf_esc(&sb, b->cost.work_unit);
	pdf_table_col(t, 4, sb.buf, PDF_RIGHT);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "Perf per ");
	strbuf_addstr(&sb, cur);
	pdf_table_col(t, 5, sb.buf, PDF_RIGHT);
	pdf_table_col(t, 6, "Price " "\xc2\xb1" "20 %", PDF_RIGHT);
	pdf_table_col(t, 7, "Electricity " "\xc2\xb1" "20 %", PDF_RIGHT);
	for (i = 0; i < b->cost.n; i++) {
		const struct views_cost_row *row = &b->cost.rows[i];

		if (!report_spec_has_system(r->spec, row->c->system))
			continue;
		pdf_table_row(t, NULL, NULL);
		cell_esc(t, 0, &sb, row->c->system);
		cell_shape(t, 1, &sb, row->c);
		cell_money(t, 2, &sb, row->res.capex);
		cell_money(t, 3, &sb, row->res.tco);
		cell_money(t, 4, &sb, row->res.cost_per_million);
		cell_value(t, 5, &sb, row->res.perf_per_currency);
		strbuf_reset(&sb);
		views_fmt_money(&sb, row->res.price_low.cost_per_million);
		strbuf_addstr(&sb, NDASH);
		views_fmt_money(&sb, row->res.price_high.cost_per_million);
		pdf_table_cell(t, 6, sb.buf);
		strbuf_reset(&sb);
		views_fmt_money(&sb, row->res.elec_low.cost_per_million);
		strbuf_addstr(&sb, NDASH);
		views_fmt_money(&sb, row->res.elec_high.cost_per_million);
		pdf_table_cell(t, 7, sb.buf);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);
	strbuf_release(&sb);
}

static int tradeoffs(struct pdf_doc *d, struct rep *r, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, ncost = 0, npar = 0;
	int rc = 0;

	pdf_heading(d, 1, "Trade-offs", "sec-tradeoffs", 1);
	pdf_para(d, PDF_BODY, "The headline metric against energy efficiency (MLPerf training: "
			      "time to train against the energy of a run) for each benchmark with "
			      "energy measurements: a configuration is on the Pareto front when no "
			      "other one is better on both.");
	for (i = 0; i < r->nb && !rc; i++) {
		const struct bench *b = &r->b[i];

		if (!b->has_par || b->par.n < 2)
			continue;
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "Pareto front: ");
		strbuf_addstr(&sb, b->name);
		rc = chart(d, r, b, VIEWS_CHART_PARETO, sb.buf, err);
		npar++;
	}
	if (!npar)
		pdf_para(d, PDF_BODY, "No benchmark has energy measurements of two or more systems, "
				      "so there is no front to draw.");
	pdf_heading(d, 2, "Cost", NULL, 0);
	if (!r->prices) {
		pdf_para(d, PDF_BODY, "No prices were given (<tt>--prices FILE</tt> or the spec's "
				      "<tt>cost.prices</tt>), so there is no cost table.");
	}
	for (i = 0; r->prices && i < r->nb && !rc; i++) {
		const struct bench *b = &r->b[i];

		strbuf_reset(&sb);
		bold_name(&sb, b->name);
		strbuf_addstr(&sb, "</b>");
		if (!b->has_cost) {
			strbuf_addstr(&sb, ": ");
			pdf_esc(&sb, b->cost_why ? b->cost_why : "no cost figures");
			pdf_para(d, PDF_BODY, sb.buf);
			continue;
		}
		pdf_para(d, PDF_BODY, sb.buf);
		cost_table(d, r, b);
		ncost++;
	}
	if (ncost) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "Prices from <tt>");
		pdf_esc(&sb, r->prices->name);
		strbuf_addstr(&sb, "</tt>. TCO = capex + energy cost over the lifetime (busy hours "
				   "= lifetime " TIMES " 8760 h " TIMES " utilisation, energy at the measured "
				   "average power " TIMES " PUE); cost per million units = TCO / work over "
				   "the lifetime. The last columns show the cost per million with the "
				   "hardware price, then the electricity price, 20 % lower and higher.");
		pdf_para(d, PDF_SMALL, sb.buf);
	}
	strbuf_release(&sb);
	return rc;
}

/* The official MLPerf training scores of benchmark b (views/mlperf.c, the
 * rows `stats --suite mlperf-training` prints). */
static void mlperf_scores(struct pdf_doc *d, struct rep *r, const struct bench *b)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT }, { "Round", PDF_LEFT },
		{ "Result files\n<span weight=\"normal\">converged / not / required</span>", PDF_RIGHT },
		{ "Official score (min)", PDF_RIGHT }, { "Scaling", PDF_RIGHT },
		{ "Median (min)", PDF_RIGHT }, { "Energy (kJ)", PDF_RIGHT }, { "Run set", PDF_LEFT },
	};
	struct pdf_table *t;
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 0, dropped = 0;

	for (i = 0; i < r->mlp.n; i++)
		n += r->mlp.rows[i].benchmark && !strcmp(r->mlp.rows[i].benchmark, b->name) &&
		     report_spec_has_system(r->spec, r->mlp.rows[i].system);
	if (!n)
		return;
	pdf_heading(d, 2, "MLPerf official scores", NULL, 0);
	t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7);
	for (i = 0; i < r->mlp.n; i++) {
		const struct views_mlperf_row *o = &r->mlp.rows[i];

		if (!o->benchmark || strcmp(o->benchmark, b->name) ||
		    !report_spec_has_system(r->spec, o->system))
			continue;
		if (o->max_dropped > dropped)
			dropped = o->max_dropped;
		pdf_table_row(t, NULL, NULL);
		strbuf_reset(&sb);
		pdf_esc(&sb, or_dash(o->system));
		if (o->system_name && *o->system_name) {
			strbuf_addstr(&sb, "\n<small>");
			pdf_esc(&sb, o->system_name);
			strbuf_addstr(&sb, "</small>");
		}
		pdf_table_cell(t, 0, sb.buf);
		strbuf_reset(&sb);
		pdf_esc(&sb, or_dash(o->round));
		if (o->weak)
			strbuf_addstr(&sb, " (weak scaling)");
		pdf_table_cell(t, 1, sb.buf);
		if (o->required_runs)
			pdf_table_cellf(t, 2, "%zu / %zu / %zu", o->valid, o->failed, o->required_runs);
		else
			pdf_table_cellf(t, 2, "%zu / %zu / ?", o->valid, o->failed);
		strbuf_reset(&sb);
		if (isfinite(o->official_score)) {
			strbuf_addstr(&sb, "<b>");
			views_fmt_value(&sb, o->official_score);
			strbuf_addstr(&sb, "</b>");
		} else {
			strbuf_addstr(&sb, "no score");
		}
		pdf_table_cell(t, 3, sb.buf);
		strbuf_reset(&sb);
		if (isfinite(o->scaling_factor))
			strbuf_addf(&sb, "%.4f", o->scaling_factor);
		pdf_table_cell(t, 4, sb.buf);
		cell_value(t, 5, &sb, o->median);
		strbuf_reset(&sb);
		if (isfinite(o->official_energy_j))
			views_fmt_value(&sb, o->official_energy_j / 1000.0);
		else
			pdf_esc(&sb, o->energy_note ? o->energy_note : DASH);
		pdf_table_cell(t, 6, sb.buf);
		strbuf_reset(&sb);
		if (o->status && strcmp(o->status, "ok")) {
			strbuf_addstr(&sb, "<b>");
			pdf_esc(&sb, o->status);
			strbuf_addstr(&sb, "</b>");
		} else {
			strbuf_addstr(&sb, "valid");
		}
		if (o->note) {
			strbuf_addstr(&sb, "; ");
			pdf_esc(&sb, o->note);
		}
		pdf_table_cell(t, 7, sb.buf);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "As the MLCommons results summarizer scores a run set: the olympic mean of "
			 "the times to train of the result files, dropping the fastest and the slowest "
			 "%zu, a run that did not converge counting as the slowest, no score when more "
			 "than that many did not converge; times the scaling factor (scaling.json). "
			 "Energy likewise from the power logs of the same runs. The median is of the "
			 "converged runs, as in the tables below. Same numbers as "
			 "<tt>accelbench stats --suite mlperf-training</tt>.",
		    dropped ? dropped : 1);
	pdf_para(d, PDF_SMALL, sb.buf);
	strbuf_release(&sb);
}

/* Latency and token metrics of an MLPerf inference scenario, when measured. */
static const struct {
	const char *metric, *title;
} scenario_metrics[] = {
	{ "latency_p50", "p50" },
	{ "latency_p90", "p90" },
	{ "latency_p99", "p99" },
	{ "latency_p99_9", "p99.9" },
	{ "ttft_p99", "TTFT p99" },
	{ "tpot_p99", "TPOT p99" },
	{ "avg_power", "Power" },
};

static int scenario_metrics_table(struct pdf_doc *d, struct rep *r, const struct bench *b,
				  struct strbuf *err)
{
	struct views_stats ms[AB_ARRAY_SIZE(scenario_metrics)];
	int have[AB_ARRAY_SIZE(scenario_metrics)];
	struct strbuf sb = STRBUF_INIT;
	struct pdf_table *t;
	size_t i, k, col, ncols = 3, any = 0;
	int rc = 0;

	for (k = 0; k < AB_ARRAY_SIZE(scenario_metrics); k++) {
		struct db_config_query q = { b->suite, b->name, NULL, scenario_metrics[k].metric };
		struct strbuf why = STRBUF_INIT;
		size_t j, nv = 0;

		have[k] = 0;
		rc = views_stats_build(r->db, &q, &ms[k], &why);
		if (rc == -AB_EDATA) {
			strbuf_release(&why);
			rc = 0;
			continue;
		}
		if (rc < 0) {
			strbuf_addbuf(err, &why);
			strbuf_release(&why);
			while (k-- > 0)
				if (have[k])
					views_stats_release(&ms[k]);
			return rc;
		}
		strbuf_release(&why);
		for (j = 0; j < ms[k].n; j++)
			nv += ms[k].rows[j].s.n;
		if (!nv) {
			views_stats_release(&ms[k]);
			continue;
		}
		have[k] = 1;
		ncols++;
		any++;
	}
	if (!any)
		return 0;
	pdf_heading(d, 2, "MLPerf inference scenario metrics", NULL, 0);
	t = pdf_table_new(ncols, 7);
	pdf_table_col(t, 0, "System", PDF_LEFT);
	strbuf_addstr(&sb, "Scenario metric\n<span weight=\"normal\">");
	pdf_esc(&sb, b->metric);
	strbuf_addstr(&sb, " (");
	pdf_esc(&sb, b->unit);
	strbuf_addstr(&sb, ")</span>");
	pdf_table_col(t, 1, sb.buf, PDF_RIGHT);
	for (k = 0, col = 2; k < AB_ARRAY_SIZE(scenario_metrics); k++) {
		if (!have[k])
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s\n<span weight=\"normal\">", scenario_metrics[k].title);
		pdf_esc(&sb, ms[k].n ? ms[k].rows[0].c->unit : "");
		strbuf_addstr(&sb, "</span>");
		pdf_table_col(t, col++, sb.buf, PDF_RIGHT);
	}
	pdf_table_col(t, ncols - 1, "Result", PDF_LEFT);
	for (i = 0; i < b->stats.n; i++) {
		const struct views_stats_row *row = &b->stats.rows[i];

		pdf_table_row(t, NULL, NULL);
		cell_esc(t, 0, &sb, row->c->system);
		cell_value(t, 1, &sb, row->s.median);
		for (k = 0, col = 2; k < AB_ARRAY_SIZE(scenario_metrics); k++) {
			const struct db_config *c;
			size_t j;

			if (!have[k])
				continue;
			strbuf_reset(&sb);
			c = db_configs_find(&ms[k].configs, row->c);
			for (j = 0; c && j < ms[k].n; j++)
				if (ms[k].rows[j].c == c)
					add_value(&sb, ms[k].rows[j].s.median);
			if (!sb.len)
				strbuf_addstr(&sb, DASH);
			pdf_table_cell(t, col++, sb.buf);
		}
		strbuf_reset(&sb);
		if (row->c->n_invalid)
			strbuf_addf(&sb, "<b>INVALID</b> (%zu run%s)", row->c->n_invalid,
				    row->c->n_invalid == 1 ? "" : "s");
		else if (row->s.n)
			strbuf_addstr(&sb, "valid");
		else
			strbuf_addstr(&sb, "no valid run");
		pdf_table_cell(t, ncols - 1, sb.buf);
	}
	pdf_table_draw(d, t);
	pdf_table_free(t);
	pdf_para(d, PDF_SMALL, "The scenario's metric as LoadGen reports it (Offline and Server: "
			       "samples or tokens per second; SingleStream and MultiStream: the "
			       "latency percentile the rules name) with the latency percentiles, "
			       "time to first token and time per output token where measured "
			       "(medians of the official runs). INVALID: LoadGen's own verdict (for "
			       "Server, the latency bound was missed).");
	for (k = 0; k < AB_ARRAY_SIZE(scenario_metrics); k++)
		if (have[k])
			views_stats_release(&ms[k]);
	strbuf_release(&sb);
	return 0;
}

static void fmt_thres(struct strbuf *sb, double v)
{
	if (isfinite(v))
		strbuf_addf(sb, "%+.0f %%", 100.0 * v);
	else
		strbuf_addstr(sb, "none");
}

/* The reference ReFrame checked each run against, and its verdict. */
#define REFS_LIST_MAX 120

static int reframe_refs(struct pdf_doc *d, struct rep *r, const struct bench *b,
			struct strbuf *err)
{
	static const struct colspec cols[] = {
		{ "System", PDF_LEFT }, { "Run", PDF_RIGHT }, { "Job", PDF_LEFT }, { NULL, PDF_RIGHT },
		{ "Reference", PDF_RIGHT },
		{ "Allowed range\n<span weight=\"normal\">thresholds</span>", PDF_RIGHT },
		{ "Result", PDF_LEFT },
	};
	const struct report_bench *sbn = report_spec_bench(r->spec, b->name);
	struct db_ref_run *v = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct pdf_table *t;
	size_t n = 0, i, shown = 0, npass = 0, nfail = 0;
	int rc;

	rc = db_ref_runs_load(r->db, b->suite, b->name, sbn ? sbn->metric : NULL, &v, &n, err);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++)
		if (report_spec_has_system(r->spec, v[i].system)) {
			npass += v[i].result && !strcmp(v[i].result, "pass");
			nfail += v[i].result && !strcmp(v[i].result, "fail");
			shown++;
		}
	if (!shown) {
		db_ref_runs_release(v, n);
		return 0;
	}
	pdf_heading(d, 2, "ReFrame references and pass/fail per run", NULL, 0);
	t = table_cols_new(cols, AB_ARRAY_SIZE(cols), 7);
	col_unit(t, 3, &sb, "Value", b->raw_unit, PDF_RIGHT);
	for (i = 0; i < n; i++) {
		const struct db_ref_run *x = &v[i];
		int fail = x->result && !strcmp(x->result, "fail");

		if (!report_spec_has_system(r->spec, x->system))
			continue;
		/* many runs: the failures are listed, passes counted */
		if (shown > REFS_LIST_MAX && !fail)
			continue;
		pdf_table_row(t, NULL, NULL);
		cell_esc(t, 0, &sb, x->system);
		pdf_table_cellf(t, 1, "%lld", (long long)x->id);
		cell_esc(t, 2, &sb, or_dash(x->job_id));
		cell_value(t, 3, &sb, x->value);
		cell_value(t, 4, &sb, x->reference);
		strbuf_reset(&sb);
		if (isfinite(x->lower_bound) || isfinite(x->upper_bound)) {
			if (isfinite(x->lower_bound))
				add_value(&sb, x->lower_bound);
			else
				strbuf_addstr(&sb, "\xe2\x88\x92\xe2\x88\x9e");
			strbuf_addstr(&sb, " " NDASH " ");
			if (isfinite(x->upper_bound))
				add_value(&sb, x->upper_bound);
			else
				strbuf_addstr(&sb, "\xe2\x88\x9e");
			strbuf_addstr(&sb, "\n");
		}
		fmt_thres(&sb, x->lower_thres);
		strbuf_addstr(&sb, " / ");
		fmt_thres(&sb, x->upper_thres);
		pdf_table_cell(t, 5, sb.buf);
		if (fail)
			pdf_table_cell(t, 6, "<b>fail</b>");
		else
			pdf_table_cell(t, 6, x->result ? x->result : "not checked");
	}
	if (shown <= REFS_LIST_MAX || nfail)
		pdf_table_draw(d, t);
	pdf_table_free(t);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%zu run%s checked against a reference: %zu passed, %zu failed%s. "
			 "ReFrame's own verdict from its performance log or report (a value "
			 "outside reference " TIMES " (1 + threshold) fails).",
		    shown, shown == 1 ? "" : "s", npass, nfail,
		    shown > REFS_LIST_MAX ? "; only the failures are listed" : "");
	pdf_para(d, PDF_SMALL, sb.buf);
	db_ref_runs_release(v, n);
	strbuf_release(&sb);
	return 0;
}

static int bench_section(struct pdf_doc *d, struct rep *r, const struct bench *b,
			 struct strbuf *err)
{
	const struct report_bench *sbn = report_spec_bench(r->spec, b->name);
	struct strbuf sb = STRBUF_INIT, h = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&h, "%s (%s)", b->name, b->suite);
	pdf_heading(d, 1, h.buf, b->dest, 1);
	strbuf_addstr(&sb, "Headline metric: <b>");
	pdf_esc(&sb, b->metric);
	strbuf_addstr(&sb, "</b> in ");
	pdf_esc(&sb, b->unit);
	strbuf_addf(&sb, ", %s is better; ", b->lower ? "lower" : "higher");
	add_count(&sb, b->stats.n, "configuration", "configurations");
	strbuf_addstr(&sb, " of ");
	add_count(&sb, b->nsystems, "system", "systems");
	strbuf_addstr(&sb, ".");
	if (b->per != DB_PER_SYSTEM) {
		strbuf_addf(&sb, " <b>Normalised per %s</b> (the spec's " LQ "normalise" RQ ": "
				 "%s): ", db_per_name(b->per), report_norm_name(sbn->norm));
		strbuf_addf(&sb, b->lower ? "each run's value is multiplied by the %ss of its "
					    "configuration (%s-time), "
					  : "each run's value is divided by the %ss of its "
					    "configuration%s, ",
			    db_per_name(b->per), b->lower ? db_per_name(b->per) : "");
		strbuf_addstr(&sb, "so tables, ratios and verdicts compare what one unit "
				   "delivers; the appendix lists runs as measured.");
		if (b->n_unnormalised)
			strbuf_addf(&sb, " %zu configuration%s without a known %s count %s left "
					 "out.", b->n_unnormalised, b->n_unnormalised == 1 ? "" : "s",
				    db_per_name(b->per), b->n_unnormalised == 1 ? "is" : "are");
	}
	pdf_para(d, PDF_BODY, sb.buf);
	if (b->nsystems >= 1) {
		rc = chart(d, r, b, VIEWS_CHART_BAR, "Best configuration per system", err);
	}
	if (!rc && !strcmp(b->suite, "mlperf-training"))
		mlperf_scores(d, r, b);
	if (!rc && !strcmp(b->suite, "mlperf-inference"))
		rc = scenario_metrics_table(d, r, b, err);
	if (!rc && b->has_cmp) {
		pdf_heading(d, 2, "Comparison with the baseline", NULL, 0);
		compare_table(d, r, b);
	} else if (!rc && b->baseline) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "No comparison with the baseline: ");
		pdf_esc(&sb, b->cmp_why ? b->cmp_why : "not possible");
		strbuf_addstr(&sb, ".");
		pdf_para(d, PDF_BODY, sb.buf);
	}
	if (!rc && b->has_par) {
		size_t k, ne = 0;

		for (k = 0; k < b->par.n; k++)
			ne += isfinite(b->par.rows[k].yv);
		if (ne) {
			struct pdf_table *t = pdf_table_new(5, 7);

			pdf_heading(d, 2, b->par_y ? "Energy" : "Energy efficiency", NULL, 0);
			pdf_table_col(t, 0, "System", PDF_LEFT);
			pdf_table_col(t, 1, "Configuration", PDF_LEFT);
			col_unit(t, 2, &sb, b->metric, b->unit, PDF_RIGHT);
			col_unit(t, 3, &sb, b->par.y_metric, b->par.y_unit, PDF_RIGHT);
			pdf_table_col(t, 4, "Pareto", PDF_LEFT);
			for (k = 0; k < b->par.n; k++) {
				const struct views_pareto_row *row = &b->par.rows[k];

				if (!report_spec_has_system(r->spec, row->x->system))
					continue;
				pdf_table_row(t, NULL, NULL);
				cell_esc(t, 0, &sb, row->x->system);
				cell_shape(t, 1, &sb, row->x);
				cell_value(t, 2, &sb, row->xv);
				cell_value(t, 3, &sb, row->yv);
				pdf_table_cell(t, 4, row->state == PARETO_FRONT ? "front"
						     : row->state == PARETO_DOMINATED ? "dominated"
										      : DASH);
			}
			pdf_table_draw(d, t);
			pdf_table_free(t);
			strbuf_reset(&sb);
			strbuf_addstr(&sb, "Medians of each system's best configuration; energy "
					   "measured at the ");
			pdf_esc(&sb, b->boundary ? b->boundary : "unknown");
			strbuf_addstr(&sb, " boundary");
			if (b->par_y)
				strbuf_addstr(&sb, " (energy of each run, as the MLPerf power rules "
						   "measure it; lower is better)");
			strbuf_addstr(&sb, ".");
			pdf_para(d, PDF_SMALL, sb.buf);
		}
	}
	if (!rc && b->sweeps_batch) {
		rc = chart(d, r, b, VIEWS_CHART_SCALING, "Batch-size scaling", err);
	}
	if (!rc && b->sweeps_devices) {
		rc = chart(d, r, b, VIEWS_CHART_DEVICES, "Device scaling", err);
	}
	if (!rc) {
		pdf_heading(d, 2, "Statistics per configuration", NULL, 0);
		stats_table(d, r, b);
		strbuf_reset(&sb);
		strbuf_addstr(&sb, "Median of the ok runs with its distribution-free ");
		fmt_level(&sb, r->spec->level);
		strbuf_addstr(&sb, " CI (order statistics); CV = standard deviation / mean; "
				   "outliers flagged by Tukey fences or modified z-score, never "
				   "removed. Shaded: the baseline.");
		pdf_para(d, PDF_SMALL, sb.buf);
	}
	if (!rc && !strcmp(b->suite, "reframe"))   /* only ReFrame checks references */
		rc = reframe_refs(d, r, b, err);
	strbuf_release(&sb);
	strbuf_release(&h);
	return rc;
}

/* The whole document; called once per pass. */
static int build(struct pdf_doc *d, struct rep *r, struct strbuf *err)
{
	size_t i;

	int rc = 0;

	r->nsrc = 0;   /* each pass numbers the sources anew, in the same order */
	cover(d, r);
	contents(d);
	summary_section(d, r);
	systems_section(d, r);
	methodology(d, r);
	for (i = 0; i < r->nb && !rc; i++)
		rc = bench_section(d, r, &r->b[i], err);
	if (!rc)
		rc = tradeoffs(d, r, err);
	if (rc)
		return rc;
	threats(d, r);
	appendix(d, r);
	return pdf_doc_finish(d, err);
}

/* ---- data -------------------------------------------------------------- */

static int bench_selected(const struct report_spec *s, const char *suite, const char *name)
{
	if (!report_spec_has_suite(s, suite))
		return 0;
	return s->nbenchmarks == 0 || report_spec_bench(s, name) != NULL;
}

static void rep_release(struct rep *r)
{
	size_t i;

	for (i = 0; i < r->nb; i++) {
		struct bench *b = &r->b[i];

		views_stats_release(&b->stats);
		if (b->has_cmp)
			views_compare_release(&b->cmp);
		if (b->has_par)
			views_pareto_release(&b->par);
		if (b->has_cost)
			views_cost_release(&b->cost);
		free(b->cmp_why);
		free(b->cost_why);
		free(b->raw_unit);
	}
	free(r->b);
	for (i = 0; i < r->ng; i++)
		if (r->g[i].has_all)
			views_compare_release(&r->g[i].all);
	free(r->g);
	views_inventory_release(&r->inv);
	views_mlperf_release(&r->mlp);
	if (r->pm.done && r->pm.rc == 0)
		views_mlperf_release(&r->pm.v);
	strbuf_release(&r->pm.err);
	free(r->src);
	db_trace_windows_release(r->tw, r->ntw);
	plot_palette_free(r->pal);
	cost_prices_file_free(r->prices);
	/* released twice is released once (load's failures) */
	{
		const struct report_spec *spec = r->spec;
		const struct report_opts *o = r->o;

		memset(r, 0, sizeof(*r));
		r->spec = spec;
		r->o = o;
	}
}

/* Default baseline: the system that ran the most of the report's
 * benchmarks, then the most runs, then the first by name. */
static const char *pick_baseline(struct rep *r, const char *suite)
{
	const struct db_inventory *inv = &r->inv.inv;
	size_t i, k, j, best_nb = 0, best_runs = 0;
	const char *best = NULL;

	for (i = 0; i < inv->nsystems; i++) {
		size_t nb = 0;

		for (k = 0; k < r->nb; k++)
			for (j = 0; strcmp(r->b[k].suite, suite) ? 0 : j < r->b[k].stats.n; j++)
				if (!strcmp(r->b[k].stats.rows[j].c->system, inv->systems[i].name) &&
				    r->b[k].stats.rows[j].s.n > 0) {
					nb++;
					break;
				}
		if (!best || nb > best_nb || (nb == best_nb && inv->systems[i].runs > best_runs) ||
		    (nb == best_nb && inv->systems[i].runs == best_runs &&
		     strcmp(inv->systems[i].name, best) < 0)) {
			best = inv->systems[i].name;
			best_nb = nb;
			best_runs = inv->systems[i].runs;
		}
	}
	return best_nb ? best : NULL;
}

/* Whether a batch scaling chart has something to show: a system measured
 * at three batch sizes in otherwise the same configuration. */
static void sweeps(struct bench *b)
{
	size_t i, j;

	for (i = 0; i < b->stats.n; i++) {
		const struct db_config *c = b->stats.rows[i].c;
		size_t nbatch = 1;

		if (!b->stats.rows[i].s.n)
			continue;
		for (j = 0; j < b->stats.n; j++) {
			const struct db_config *o = b->stats.rows[j].c;

			if (j == i || !b->stats.rows[j].s.n || strcmp(o->system, c->system) ||
			    (o->precision == NULL) != (c->precision == NULL) ||
			    (o->precision && strcmp(o->precision, c->precision)))
				continue;
			nbatch += o->nodes == c->nodes && o->devices == c->devices &&
				  o->global_batch > 0 && c->global_batch > o->global_batch;
		}
		if (nbatch >= 3 && c->global_batch > 0)
			b->sweeps_batch = 1;
	}
}

/* Whether the device scaling chart has something to show: what the chart
 * view itself finds (a system, or an MLPerf family of systems, at several
 * device counts); 0, or a negative error. */
static int sweeps_devices(struct db *db, const struct rep *r, struct bench *b, struct strbuf *err)
{
	struct views_chart_opts fo;
	struct views_chart *fig = NULL;
	struct strbuf why = STRBUF_INIT;
	int rc;

	chart_opts(r, b, VIEWS_CHART_DEVICES, &fo);
	rc = views_chart_build(db, VIEWS_CHART_DEVICES, &fo, &fig, &why);
	views_chart_free(fig);
	b->sweeps_devices = rc == 0;
	if (rc == -AB_EDATA)
		rc = 0;
	else if (rc < 0)
		strbuf_addbuf(err, &why);
	strbuf_release(&why);
	return rc;
}

/* Whether system ran a benchmark of suite. */
static int bench_suite_has(const struct rep *r, const char *suite, const char *system)
{
	size_t k, j;

	for (k = 0; k < r->nb; k++)
		for (j = 0; !strcmp(r->b[k].suite, suite) && j < r->b[k].stats.n; j++)
			if (!strcmp(r->b[k].stats.rows[j].c->system, system))
				return 1;
	return 0;
}

/* Comparisons, efficiency, sweeps and cost of each benchmark. */
static int load_views(struct db *db, struct rep *r, struct strbuf *err)
{
	struct compare_opts copts;
	struct views_compare_opts vo;
	size_t i, k;
	int rc;

	compare_opts_init(&copts);
	copts.level = r->spec->level;
	memset(&vo, 0, sizeof(vo));
	vo.best = 1;
	vo.copts = &copts;
	r->pal = plot_palette_new();
	for (i = 0; i < r->inv.inv.nsystems; i++)
		plot_palette_add(r->pal, r->inv.inv.systems[i].name, r->inv.inv.systems[i].vendor);
	if (r->spec->prices && (rc = cost_prices_load(r->spec->prices, &r->prices, err)) < 0)
		return rc;
	for (i = 0; i < r->nb; i++)
		if (!strcmp(r->b[i].suite, "mlperf-training"))
			break;
	if (i < r->nb) {
		struct db_filter f = { "mlperf-training", NULL, NULL };

		if (r->spec->nsystems == 1)
			f.system = r->spec->systems[0];
		if (r->pm.done) {
			/* built on the inventory's thread, with this filter */
			rc = r->pm.rc;
			r->mlp = r->pm.v;
			memset(&r->pm.v, 0, sizeof(r->pm.v));
			r->pm.done = 0;
			if (rc < 0)
				strbuf_addbuf(err, &r->pm.err);
		} else {
			rc = views_mlperf_build(db, &f, &r->mlp, err);
		}
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < r->nb; i++) {
		struct bench *b = &r->b[i];
		const struct report_bench *sbn = report_spec_bench(r->spec, b->name);
		struct db_config_query q = { b->suite, b->name, NULL, sbn ? sbn->metric : NULL };
		struct strbuf why = STRBUF_INIT;

		vo.baseline = b->baseline;
		db_configs_set_per(db, b->per);
		if (b->baseline) {
			rc = views_compare_build(db, &q, &vo, &b->cmp, &why);
			if (rc == 0)
				b->has_cmp = 1;
			else if (rc == -AB_EDATA)
				b->cmp_why = strbuf_detach(&why, NULL);
			else {
				db_configs_set_per(db, DB_PER_SYSTEM);
				strbuf_addbuf(err, &why);
				strbuf_release(&why);
				return rc;
			}
			strbuf_reset(&why);
		}
		rc = views_pareto_build(db, &q, NULL, NULL, NULL, 1, &b->par, &why);
		if (rc == -AB_EDATA) {
			/* no efficiency: the energy of each run (MLPerf training's
			 * energy to train, lower is better) */
			strbuf_reset(&why);
			rc = views_pareto_build(db, &q, "energy", NULL, NULL, 1, &b->par, &why);
			if (rc == 0)
				b->par_y = "energy";
		}
		db_configs_set_per(db, DB_PER_SYSTEM);
		if (rc == 0) {
			b->has_par = 1;
			for (k = 0; !b->boundary && k < b->par.ys.n; k++)
				b->boundary = b->par.ys.v[k].boundary;
		}
		else if (rc != -AB_EDATA) {
			strbuf_addbuf(err, &why);
			strbuf_release(&why);
			return rc;
		}
		strbuf_reset(&why);
		sweeps(b);
		if ((rc = sweeps_devices(db, r, b, err)) < 0) {
			strbuf_release(&why);
			return rc;
		}
		if (r->prices) {
			struct views_cost_opts co = { r->prices, 0, 0 };

			rc = views_cost_build(db, &q, &co, &b->cost, &why);
			if (rc == 0)
				b->has_cost = 1;
			else if (rc == -AB_EDATA)
				b->cost_why = strbuf_detach(&why, NULL);
			else {
				strbuf_addbuf(err, &why);
				strbuf_release(&why);
				return rc;
			}
		}
		strbuf_release(&why);
	}
	for (i = 0; i < r->ng; i++) {
		struct grp *g = &r->g[i];
		struct strbuf why = STRBUF_INIT;
		struct db_config_query q = { g->suite, NULL, NULL, NULL };
		size_t nbg = 0;

		for (k = 0; k < r->nb; k++)
			nbg += !strcmp(r->b[k].suite, g->suite);
		vo.baseline = g->baseline;
		if (g->baseline && nbg > 1 && r->spec->nbenchmarks == 0 &&
		    views_compare_build(db, &q, &vo, &g->all, &why) == 0)
			g->has_all = 1;
		strbuf_release(&why);
	}
	return 0;
}

/* Keep only the rows of the spec's systems; count the systems. */
static void filter_systems(const struct report_spec *s, struct bench *b)
{
	size_t i, k = 0, j;

	for (i = 0; i < b->stats.n; i++)
		if (report_spec_has_system(s, b->stats.rows[i].c->system))
			b->stats.rows[k++] = b->stats.rows[i];
	b->stats.n = k;
	b->nsystems = 0;
	for (i = 0; i < k; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(b->stats.rows[j].c->system, b->stats.rows[i].c->system))
				break;
		b->nsystems += j == i;
	}
}

/* The configurations, the MLPerf training view and, once the job has the
 * inventory, everything else the report shows but the trace windows. */
static int load_views_all(struct db *db, const struct report_spec *s, struct rep *r,
			  struct report_inv_job *job, struct strbuf *err)
{
	struct db_config_query q = { NULL, NULL, NULL, NULL };
	size_t i, j;
	int rc;

	if (s->nsuites == 1)
		q.suite = s->suites[0];
	if (s->nsystems == 1)
		q.system = s->systems[0];
	/* both cores: the inventory on a second connection while this
	 * thread loads the configurations of every benchmark, headline and
	 * efficiency, once (the sections below get them from the cache; a
	 * spec's own metrics and normalisations query alone), and the MLPerf
	 * training view when the suite has runs (used when a section is of
	 * that suite) */
	if (!s->nbenchmarks)
		db_configs_prefetch2(db, &q, "energy_efficiency");
	if (report_spec_has_suite(s, "mlperf-training")) {
		const char *ml = "mlperf-training";
		struct db_filter mf = { "mlperf-training", NULL, NULL };
		struct db_inv_query mq;

		memset(&mq, 0, sizeof(mq));
		mq.suites = &ml;
		mq.nsuites = 1;
		if (s->nsystems == 1)
			mf.system = s->systems[0];
		if (db_suites_have_runs(db, &mq, NULL) > 0) {
			r->pm.done = 1;
			r->pm.rc = views_mlperf_build(db, &mf, &r->pm.v, &r->pm.err);
		}
	}
	rc = report_inv_wait(job, &r->inv, err);
	if (rc < 0)
		return rc == -AB_EDATA
			       ? ab_fail(err, AB_EDATA, "report: %s",
					 s->nsuites || s->nsystems || s->nbenchmarks
						 ? "no runs match the spec's selection"
						 : "the database holds no runs")
			       : rc;
	/* one section per benchmark, in the inventory's order (suite, name) */
	r->b = ab_calloc(r->inv.inv.nbenchmarks + 1, sizeof(*r->b));
	for (i = 0; i < r->inv.inv.nbenchmarks; i++) {
		const struct db_inv_bench *ib = &r->inv.inv.benchmarks[i];
		const struct report_bench *sb;
		struct db_config_query bq = q;
		struct bench *b;

		if (!bench_selected(s, ib->suite, ib->name))
			continue;
		b = &r->b[r->nb];
		sb = report_spec_bench(s, ib->name);
		bq.suite = ib->suite;
		bq.benchmark = ib->name;
		bq.metric = sb ? sb->metric : NULL;
		b->per = spec_per(s, ib->name);
		db_configs_set_per(db, b->per);
		rc = views_stats_build(db, &bq, &b->stats, err);
		db_configs_set_per(db, DB_PER_SYSTEM);
		if (rc < 0) {
			rep_release(r);
			return rc;
		}
		if (s->level != STATS_LEVEL)
			views_stats_set_level(&b->stats, s->level);
		r->nb++;
		b->n_unnormalised = b->stats.configs.n_unnormalised;
		filter_systems(s, b);
		b->suite = b->stats.configs.v[0].suite;
		b->name = b->stats.configs.v[0].benchmark;
		b->metric = b->stats.configs.v[0].metric;
		b->unit = b->stats.configs.v[0].unit;
		b->raw_unit = ab_strdup(b->unit);
		if (b->per != DB_PER_SYSTEM) {
			/* model/dataset.c's suffix: " per node", " × nodes" */
			struct strbuf sfx = STRBUF_INIT;
			size_t ul = strlen(b->raw_unit);

			strbuf_addf(&sfx, b->lower ? " \xc3\x97 %ss" : " per %s", db_per_name(b->per));
			if (ul > sfx.len && !strcmp(b->raw_unit + ul - sfx.len, sfx.buf))
				b->raw_unit[ul - sfx.len] = 0;
			strbuf_release(&sfx);
		}
		b->lower = b->stats.configs.v[0].lower_is_better;
		for (j = 0; j < b->stats.configs.n; j++)
			if (b->stats.configs.v[j].boundary) {
				b->boundary = b->stats.configs.v[j].boundary;
				break;
			}
		snprintf(b->dest, sizeof(b->dest), "bench-%zu", r->nb);
	}
	for (i = 0; i < s->nbenchmarks; i++) {
		for (j = 0; j < r->nb; j++)
			if (!strcmp(r->b[j].name, s->benchmarks[i].name))
				break;
		if (j == r->nb) {
			rep_release(r);
			return ab_fail(err, AB_EDATA, "report: benchmark '%s' has no runs in the "
					       "database%s%s", s->benchmarks[i].name,
				       s->nsuites ? " (in the selected suites)" : "", "");
		}
	}
	if (!r->nb) {
		rep_release(r);
		return ab_fail(err, AB_EDATA, "report: no benchmark matches the spec");
	}
	r->db = db;
	/* one group per suite, in the order of the benchmarks */
	r->g = ab_calloc(r->nb + 1, sizeof(*r->g));
	for (i = 0; i < r->nb; i++) {
		for (j = 0; j < r->ng; j++)
			if (!strcmp(r->g[j].suite, r->b[i].suite))
				break;
		if (j == r->ng) {
			struct grp *g = &r->g[r->ng++];

			g->suite = r->b[i].suite;
			g->baseline = s->baseline && bench_suite_has(r, g->suite, s->baseline)
					      ? s->baseline
					      : pick_baseline(r, g->suite);
		}
		r->b[i].baseline = r->g[j].baseline;
	}
	rc = load_views(db, r, err);
	if (rc < 0) {
		rep_release(r);
		return rc;
	}
	return 0;
}

static int load(struct db *db, const struct report_spec *s, const struct report_opts *o,
		struct rep *r, struct strbuf *err)
{
	struct db_inv_query iq;
	struct report_inv_job *job;
	const char **bn;
	size_t i;
	int rc, trc;

	memset(r, 0, sizeof(*r));
	r->spec = s;
	r->o = o;
	strbuf_init(&r->pm.err, 0);
	/* names the spec asks for must exist (in its suites); without names or
	 * suites the report's own inventory below says all there is to say */
	if (s->nsystems || s->baseline || s->nsuites) {
		struct db_inv_query aq;

		memset(&aq, 0, sizeof(aq));
		aq.suites = (const char *const *)s->suites;
		aq.nsuites = s->nsuites;
		rc = db_suites_have_runs(db, &aq, err);
		if (rc == 0)
			return s->nsuites ? ab_fail(err, AB_EDATA, "report: no runs of the suites "
								 "the spec selects")
					  : ab_fail(err, AB_EDATA, "no runs match the selection");
		for (i = 0; rc > 0 && i < s->nsystems + (s->baseline ? 1 : 0); i++) {
			const char *name = i < s->nsystems ? s->systems[i] : s->baseline;

			rc = db_system_has_runs(db, &aq, name, err);
			if (rc == 0)
				rc = ab_fail(err, AB_EDATA, "report: %s '%s' has no runs in the "
							    "database%s",
					     i < s->nsystems ? "system" : "baseline", name,
					     s->nsuites ? " (in the suites the spec selects)" : "");
		}
		if (rc < 0)
			return rc;
	}
	bn = ab_calloc(s->nbenchmarks + 1, sizeof(*bn));
	for (i = 0; i < s->nbenchmarks; i++)
		bn[i] = s->benchmarks[i].name;
	memset(&iq, 0, sizeof(iq));
	iq.suites = (const char *const *)s->suites;
	iq.nsuites = s->nsuites;
	iq.benchmarks = bn;
	iq.nbenchmarks = s->nbenchmarks;
	iq.systems = (const char *const *)s->systems;
	iq.nsystems = s->nsystems;
	job = report_inv_start(db, &iq, APPENDIX_MAX_RUNS);
	rc = load_views_all(db, s, r, job, err);
	/* the trace windows (for the threats) loaded meanwhile */
	trc = report_inv_finish(job, &r->tw, &r->ntw, rc < 0 ? NULL : err);
	free(bn);
	if (rc >= 0 && trc < 0)
		rc = trc;
	if (rc < 0)
		rep_release(r);
	return rc < 0 ? rc : 0;
}

/* ---- entry point ------------------------------------------------------- */

int report_write_pdf(struct db *db, const struct report_spec *spec, const struct report_opts *o,
		     const char *path, struct strbuf *err)
{
	struct pdf_doc_opts po;
	struct pdf_doc *dry = NULL;
	struct strbuf header = STRBUF_INIT, footer = STRBUF_INIT;
	struct rep r;
	int rc, pass;

	/* cairo and pango are loaded at first use: before any work, so a
	 * missing library fails at once with its name */
	if ((rc = gfx_load(err)) < 0)
		return rc;
	/* the report asks for the same configurations for tables, comparisons
	 * and charts: each query runs once */
	db_configs_cache_enable(db);
	rc = load(db, spec, o, &r, err);
	if (rc < 0)
		return rc;
	memset(&po, 0, sizeof(po));
	if (spec->page == REPORT_PAGE_LETTER) {
		po.page_w = 612.0;
		po.page_h = 792.0;
	} else {
		po.page_w = 595.28;
		po.page_h = 841.89;
	}
	po.title = spec->title;
	po.author = spec->author;
	po.subject = "Accelerator benchmark results for a procurement decision";
	po.keywords = r.inv.data_note;
	strbuf_addf(&footer, "accelbench %s", o->version);
	po.creator = footer.buf;
	po.date = o->now;
	strbuf_addstr(&header, spec->title);
	if (r.inv.data_note)
		strbuf_addf(&header, " \xe2\x80\x94 %s", r.inv.data_note);
	po.header = header.buf;
	po.footer = footer.buf;

	rc = pdf_doc_new(&dry, NULL, &po, err);
	if (!rc)
		rc = build(dry, &r, err);
	/* A second real pass only when the contents moved a heading (a table
	 * of contents longer than a page).  Each pass writes a fresh temporary
	 * file; only a complete one replaces the target. */
	{
		struct pdf_doc *prev = dry;

		for (pass = 0; !rc && pass < 2; pass++) {
			struct atomic_file af;
			struct pdf_doc *next = NULL;
			int same;

			if ((rc = atomic_open(&af, path, err)) < 0)
				break;
			rc = pdf_doc_new(&next, af.fp, &po, err);
			if (!rc) {
				pdf_doc_pages_from(next, prev);
				rc = build(next, &r, err);
			}
			same = !rc && (pdf_doc_same_pages(next, prev) || pass == 1);
			if (prev != dry)
				pdf_doc_free(prev);
			prev = next;
			if (rc || !same) {
				if (next)
					pdf_doc_end_output(next);
				atomic_abort(&af);
				continue;
			}
			rc = atomic_commit(&af, err);
			break;
		}
		if (prev != dry)
			pdf_doc_free(prev);
	}
	pdf_doc_free(dry);
	strbuf_release(&header);
	strbuf_release(&footer);
	rep_release(&r);
	return rc;
}
