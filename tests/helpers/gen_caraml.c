/*
 * gen_caraml.c - write a large, deterministic CARAML/JUBE output tree for
 * `make bench` (tests/bench/bench.sh): usage  gen_caraml DIR FACTOR
 *
 * FACTOR benchmark ids under DIR/llm_benchmark_nvidia_amd_run/, laid out as
 * JUBE leaves them:
 *   <id>/result/result.dat                         csv (every 5th aligned,
 *                                                  every 7th pretty)
 *   <id>/<wp>_benchmark/work/<TAG>_power.<r>.csv   one per rank, 10 Hz
 *   <id>/<wp>_benchmark/work/<TAG>_power.<r>.energy.csv
 *   <id>/<wp+1>_combine_energy/work/combined_energy.csv (2025 layout)
 *   <id>/<wp+1>_combine_energy/work/benchmark -> ../../<wp>_benchmark/work
 * EnergyFile cells hold absolute paths of a fictitious cluster, so ingest
 * resolves every one by suffix.  Each table has GBS 16..1024 (7 runs) plus
 * one failed run (nan).  JEDI runs use 2 nodes and gh:* + pynvml:*
 * columns; MI250 8 GCDs whose odd members read 0 W.  All numbers come from
 * a fixed-seed generator: the same FACTOR gives the same bytes.
 */
#include "core/compat.h"
#include "core/core.h"
#include "gen_util.h"

#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define ROWS_PER_RANK 600   /* one minute at jpwr's 10 Hz */
#define BASE "/p/project1/bench/CARAML/llm_training/llm_benchmark_nvidia_amd_run"

struct sys {
	const char *tag, *queue, *method;
	int devices;           /* per node */
	int nodes;
	double xmax;           /* tokens/s per node at saturation */
	double watts;          /* per device under load */
};

static const struct sys systems[] = {
	{ "A100", "dc-gpu", "pynvml", 4, 1, 92000, 380 },
	{ "H100", "dc-h100", "pynvml", 4, 1, 131000, 330 },
	{ "WAIH100", "dc-wai", "pynvml", 4, 1, 160000, 640 },
	{ "JEDI", "all", "pynvml", 4, 2, 196000, 610 },
	{ "MI250", "dc-mi200", "rocm", 8, 1, 98000, 470 },
	{ "GH200", "dc-gh", "pynvml", 1, 1, 49000, 620 },
};

static const long batches[] = { 16, 32, 64, 128, 256, 512, 1024 };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double urand(void)
{
	/* xorshift64*: fixed seed, same sequence on every machine */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}



static void column_names(struct strbuf *sb, const struct sys *s)
{
	int d;

	if (!strcmp(s->tag, "JEDI"))
		for (d = 0; d < s->devices; d++)
			strbuf_addf(sb, ",gh:Module Power Socket %d,gh:Grace Power Socket %d", d, d);
	for (d = 0; d < s->devices; d++)
		strbuf_addf(sb, ",%s:%d", s->method, d);
}

/*
 * Power series of every rank of a run; rank_wh[rank] gets jpwr's integral
 * of each column (devices, then gh:Module on JEDI) for combine_energy.
 */
static int write_power(const char *work, const struct sys *s, double load, double **rank_wh)
{
	struct strbuf data = STRBUF_INIT, path = STRBUF_INIT;
	int ranks_per_node = s->devices == 8 ? 1 : s->devices; /* MI250: one task per node */
	int node, r, d, i, rc = 0;

	for (node = 0; node < s->nodes && !rc; node++) {
		for (r = 0; r < ranks_per_node && !rc; r++) {
			int rank = node * ranks_per_node + r;
			double t = 1724400000.0 + rank * 0.01, *e = rank_wh[rank];

			strbuf_reset(&data);
			strbuf_addstr(&data, ",timestamps");
			column_names(&data, s);
			strbuf_addstr(&data, ",nodename,rank\n");
			for (d = 0; d < 2 * s->devices; d++)
				e[d] = 0;
			for (i = 0; i < ROWS_PER_RANK; i++) {
				double dt = 0.1 + 0.002 * urand();
				strbuf_addf(&data, "%d,%.6f", i, t);
				for (d = 0; d < s->devices && !strcmp(s->tag, "JEDI"); d++) {
					double m = s->watts * load * 1.3 + 20 * urand(), g = 35 + urand();
					strbuf_addf(&data, ",%.3f,%.3f", m, g);
					if (i)
						e[s->devices + d] += m * dt / 3600;
				}
				for (d = 0; d < s->devices; d++) {
					double w = (i < 50 ? 60 : s->watts * load) + 10 * urand();
					if (!strcmp(s->method, "rocm") && d % 2)
						w = 0;
					strbuf_addf(&data, ",%.3f", w);
					if (i)
						e[d] += w * dt / 3600;
				}
				strbuf_addf(&data, ",jrc%04d,%d\n", node + 1, rank);
				t += dt;
			}
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s_power.%d.csv", work, s->tag, rank);
			rc = write_file(path.buf, &data);
			/* the per-rank Series file */
			strbuf_reset(&data);
			strbuf_addstr(&data, ",0\n");
			for (d = 0; d < s->devices; d++) {
				strbuf_addf(&data, "%s:%d,", s->method, d);
				num_format(&data, e[d]);
				strbuf_addch(&data, '\n');
			}
			strbuf_addf(&data, "nodename,jrc%04d\nrank,%d\n", node + 1, rank);
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s_power.%d.energy.csv", work, s->tag, rank);
			if (!rc)
				rc = write_file(path.buf, &data);
		}
	}
	strbuf_release(&data);
	strbuf_release(&path);
	return rc;
}

static int write_combined(const char *work, const struct sys *s, double **rank_wh)
{
	struct strbuf data = STRBUF_INIT, path = STRBUF_INIT;
	int ranks_per_node = s->devices == 8 ? 1 : s->devices;
	int rank, d, rc;

	strbuf_addstr(&data, ",nodename,rank,");
	column_names(&data, s);
	strbuf_addch(&data, '\n');
	for (rank = 0; rank < s->nodes * ranks_per_node; rank++) {
		strbuf_addf(&data, "%d,jrc%04d,%d,0", rank, rank / ranks_per_node + 1, rank);
		for (d = 0; d < s->devices && !strcmp(s->tag, "JEDI"); d++) {
			strbuf_addch(&data, ',');
			num_format(&data, rank_wh[rank][s->devices + d]);
			strbuf_addstr(&data, ",6.5");
		}
		for (d = 0; d < s->devices; d++) {
			strbuf_addch(&data, ',');
			num_format(&data, rank_wh[rank][d]);
		}
		strbuf_addch(&data, '\n');
	}
	strbuf_addf(&path, "%s/combined_energy.csv", work);
	rc = write_file(path.buf, &data);
	strbuf_release(&data);
	strbuf_release(&path);
	return rc;
}

/* rows[0] is the header; style 0 csv, 1 aligned, 2 pretty (right-aligned) */
static void pad_table(struct strbuf *out, char ***rows, size_t nrows, size_t ncols, int style)
{
	size_t *w = calloc(ncols, sizeof(*w)), r, c;

	if (!w)
		abort();
	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++)
			if (strlen(rows[r][c]) > w[c])
				w[c] = strlen(rows[r][c]);
	if (style == 2)
		strbuf_addstr(out, "result:\n");
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < ncols; c++) {
			size_t len = strlen(rows[r][c]);
			if (style == 2)
				strbuf_addstr(out, c ? " | " : "| ");
			else if (c)
				strbuf_addch(out, ',');
			if (style)
				strbuf_addchars(out, ' ', w[c] - len);
			strbuf_addstr(out, rows[r][c]);
		}
		strbuf_addstr(out, style == 2 ? " |\n" : "\n");
		if (style == 2 && r == 0) {
			strbuf_addch(out, '|');
			for (c = 0; c < ncols; c++) {
				strbuf_addchars(out, '-', w[c] + 2);
				strbuf_addch(out, '|');
			}
			strbuf_addch(out, '\n');
		}
	}
	free(w);
}

static char *fmt(const char *f, ...) AB_PRINTF(1, 2);
static char *fmt(const char *f, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, f);
	strbuf_vaddf(&sb, f, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

static const char *const header[] = {
	"JobID", "System", "Version", "Queue", "JobTime", "Runtime(min)", "Model", "ModelSize",
	"Dataset", "Nodes", "Devices", "GlobalBatchSize", "PipelineParallel", "TensorParallel",
	"DataParallel", "Iterations", "Time/iteration(s)", "Tokens/second", "Avg_TFLOPs/GPU",
	"EnergyFile",
};
#define NCOLS (sizeof(header) / sizeof(header[0]))

static int gen_id(const char *dir, int id, long *job, long *files)
{
	const struct sys *s = &systems[id % (int)AB_ARRAY_SIZE(systems)];
	size_t nrows = AB_ARRAY_SIZE(batches) + 2, r, c;
	char ***rows = calloc(nrows, sizeof(*rows));
	struct strbuf root = STRBUF_INIT, work = STRBUF_INIT, comb = STRBUF_INIT, link = STRBUF_INIT;
	struct strbuf table = STRBUF_INIT;
	int ranks = s->nodes * (s->devices == 8 ? 1 : s->devices), k, rc = 0;
	double **rank_wh = calloc((size_t)ranks, sizeof(*rank_wh));
	int devices = s->nodes * s->devices;

	if (!rows || !rank_wh)
		abort();
	for (k = 0; k < ranks; k++)
		if (!(rank_wh[k] = calloc((size_t)(2 * s->devices), sizeof(double))))
			abort();
	strbuf_addf(&root, "%s/llm_benchmark_nvidia_amd_run/%06d", dir, id);
	rows[0] = calloc(NCOLS, sizeof(char *));
	for (c = 0; c < NCOLS; c++)
		rows[0][c] = fmt("%s", header[c]);
	for (r = 1; r < nrows && !rc; r++) {
		long b = r - 1 < AB_ARRAY_SIZE(batches) ? batches[r - 1] : 2048;
		int wp = 2 * (int)(r - 1), failed = r == nrows - 1;
		double x = s->xmax * s->nodes * (double)b / ((double)b + 20) * (0.97 + 0.06 * urand());
		double t_it = (double)b * 2048 / x, load = (double)b / ((double)b + 20);

		rows[r] = calloc(NCOLS, sizeof(char *));
		rows[r][0] = fmt("%ld", (*job)++);
		rows[r][1] = fmt("%s", s->tag);
		rows[r][2] = fmt("2025.01");
		rows[r][3] = fmt("%s", s->queue);
		rows[r][4] = fmt("00:40:00");
		rows[r][5] = fmt("30");
		rows[r][6] = fmt("GPT");
		rows[r][7] = fmt("800M");
		rows[r][8] = fmt("OSCAR");
		rows[r][9] = fmt("%d", s->nodes);
		rows[r][10] = fmt("%d", devices);
		rows[r][11] = fmt("%ld", b);
		rows[r][12] = fmt("1");
		rows[r][13] = fmt("1");
		rows[r][14] = fmt("%d", devices);
		if (failed) {
			rows[r][15] = fmt("nan");
			rows[r][16] = fmt("%s", "");
			rows[r][17] = fmt("nan");
			rows[r][18] = fmt("%s", "");
			rows[r][19] = fmt("%s", "");
			continue;
		}
		rows[r][15] = fmt("%ld", (long)(1740 / t_it));
		rows[r][16] = fmt("%.2f", t_it);
		rows[r][17] = fmt("%.2f", (double)b * 2048 / t_it);
		rows[r][18] = fmt("%.2f", x / devices / 122.9);
		rows[r][19] = fmt("%s/%06d/%06d_combine_energy/work/combined_energy.csv", BASE, id,
				  wp + 1);
		strbuf_reset(&work);
		strbuf_addf(&work, "%s/%06d_benchmark/work", root.buf, wp);
		strbuf_reset(&comb);
		strbuf_addf(&comb, "%s/%06d_combine_energy/work", root.buf, wp + 1);
		rc = mkdirs(work.buf) || mkdirs(comb.buf) ? -1 : 0;
		if (!rc)
			rc = write_power(work.buf, s, load, rank_wh);
		if (!rc)
			rc = write_combined(comb.buf, s, rank_wh);
		strbuf_reset(&link);
		strbuf_addf(&link, "%s/benchmark", comb.buf);
		strbuf_reset(&work);
		strbuf_addf(&work, "../../%06d_benchmark/work", wp);
		if (!rc && symlink(work.buf, link.buf) < 0 && errno != EEXIST) {
			fprintf(stderr, "gen_caraml: cannot link '%s': %s\n", link.buf,
				strerror(errno));
			rc = -1;
		}
		*files += 2 * ranks + 1;
	}
	if (!rc) {
		strbuf_reset(&work);
		strbuf_addf(&work, "%s/result", root.buf);
		rc = mkdirs(work.buf);
		pad_table(&table, rows, nrows, NCOLS, id % 7 == 6 ? 2 : id % 5 == 4 ? 1 : 0);
		strbuf_addstr(&work, "/result.dat");
		if (!rc)
			rc = write_file(work.buf, &table);
		(*files)++;
	}
	for (r = 0; r < nrows; r++) {
		for (c = 0; rows[r] && c < NCOLS; c++)
			free(rows[r][c]);
		free(rows[r]);
	}
	free(rows);
	for (k = 0; k < ranks; k++)
		free(rank_wh[k]);
	free(rank_wh);
	strbuf_release(&root);
	strbuf_release(&work);
	strbuf_release(&comb);
	strbuf_release(&link);
	strbuf_release(&table);
	return rc;
}

int main(int argc, char **argv)
{
	long factor, job = 14000000, files = 0;
	char *end;
	int id;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_caraml DIR FACTOR\n");
		return 2;
	}
	factor = strtol(argv[2], &end, 10);
	if (*end || factor < 1 || factor > 100000) {
		fprintf(stderr, "gen_caraml: FACTOR must be a positive integer\n");
		return 2;
	}
	if (mkdirs(argv[1]) < 0)
		return 3;
	for (id = 0; id < factor; id++)
		if (gen_id(argv[1], id, &job, &files) < 0)
			return 3;
	printf("gen_caraml: %ld files, %ld runs in %s\n", files, factor * 8, argv[1]);
	return 0;
}
