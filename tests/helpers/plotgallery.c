/*
 * plotgallery.c - render one chart of every kind from realistic synthetic
 * data (CARAML-like LLM training throughput, batch sweeps, device scaling,
 * energy, jpwr-like power traces) into a directory:
 *
 *   plotgallery OUTDIR [png|svg|pdf|all] [KIND|all] [WIDTHxHEIGHT]
 *
 * writes OUTDIR/KIND.FORMAT for KIND in bar bargroup batch devices pareto
 * heatmap power.  The README's docs/images PNGs come from here.  Numbers
 * are synthetic but shaped like the CARAML paper's (GPT 800M tokens/s:
 * JEDI 158,153, H100 98,288, MI250 88,621, A100 81,626).
 */
#include "core/core.h"
#include "plots/plot.h"

#include <math.h>

static const char *const vendor_of[][2] = {
	{ "JEDI", "NVIDIA" },    { "GH200", "NVIDIA" }, { "WAIH100", "NVIDIA" },
	{ "H100", "NVIDIA" },    { "A100", "NVIDIA" },  { "MI250", "AMD" },
	{ "MI300X", "AMD" },     { "GC200", "Graphcore" }, { "CS-2", "Cerebras" },
	{ "archer2:compute-cpu-rome", "CPU" },
};

static const char *vendor(const char *sys)
{
	size_t i;

	for (i = 0; i < AB_ARRAY_SIZE(vendor_of); i++)
		if (!strcmp(vendor_of[i][0], sys))
			return vendor_of[i][1];
	return "CPU";
}

/* A deterministic jitter in [-1, 1] (no RNG state: output must not vary). */
static double jitter(unsigned k)
{
	k = k * 2654435761u + 12345u;
	k ^= k >> 13;
	k *= 0x5bd1e995u;
	k ^= k >> 15;
	return (double)(k % 20001u) / 10000.0 - 1.0;
}

/* ---- 1. bar ---------------------------------------------------------- */

static const struct plot_bar bars[] = {
	{ "A100", "NVIDIA", 81626, 80910, 82240, 8, NULL, 0, 0, 0 },
	{ "H100", "NVIDIA", 98288, 97150, 99020, 8, NULL, 0, 0, 0 },
	{ "WAIH100", "NVIDIA", 124930, 123400, 126100, 6, NULL, 0, 0, 0 },
	{ "JEDI", "NVIDIA", 158153, 156900, 159300, 5, NULL, 0, 0, 0 },
	{ "GH200", "NVIDIA", 47505, 47010, 47890, 10, NULL, 0, 0, 0 },
	{ "MI250", "AMD", 88621, 86900, 89700, 7, NULL, 0, 0, 0 },
	{ "MI300X", "AMD", 142880, NAN, NAN, 3, NULL, 0, 0, 0 },
};

static const struct plot_bar_spec bar_spec = {
	.labels = {
		.title = "GPT 800M training throughput per node",
		.subtitle = "CARAML 2024.01 · Megatron-LM · global batch 2048 · "
			    "median of n runs",
		.y_title = "Throughput", .y_unit = "tokens/s",
	},
	.bars = bars,
	.n_bars = AB_ARRAY_SIZE(bars),
	.baseline = "A100",
};

/* ---- 1b. grouped bars ------------------------------------------------- */

static const char *const groups[] = { "GPT 800M", "GPT 13B", "ResNet50 (TF)",
				      "ResNet50 (PyTorch)" };
static const struct plot_sys group_sys[] = {
	{ "A100", "NVIDIA" }, { "H100", "NVIDIA" }, { "JEDI", "NVIDIA" }, { "MI250", "AMD" },
	{ "GC200", "Graphcore" },
};
static const struct plot_cell cells[] = {
	/* GPT 800M */
	{ 1.00, 0.99, 1.01, 8 }, { 1.20, 1.18, 1.22, 8 }, { 1.94, 1.92, 1.95, 5 },
	{ 1.09, 1.06, 1.10, 7 }, { NAN, NAN, NAN, 0 },
	/* GPT 13B */
	{ 1.00, 0.98, 1.02, 6 }, { 1.31, 1.27, 1.33, 6 }, { 2.38, 2.30, 2.41, 4 },
	{ 0.92, 0.88, 0.95, 6 }, { NAN, NAN, NAN, 0 },
	/* ResNet50 TF */
	{ 1.00, 0.99, 1.01, 10 }, { 1.42, 1.40, 1.45, 10 }, { 2.71, 2.66, 2.74, 8 },
	{ 0.81, 0.79, 0.84, 10 }, { 0.64, 0.62, 0.66, 6 },
	/* ResNet50 PyTorch */
	{ 1.00, 0.99, 1.02, 10 }, { 1.55, 1.52, 1.58, 10 }, { 2.95, 2.90, 3.02, 8 },
	{ 0.97, 0.94, 0.99, 9 }, { NAN, NAN, NAN, 0 },
};

static const struct plot_bargroup_spec bargroup_spec = {
	.labels = {
		.title = "Speed relative to A100 across workloads",
		.subtitle = "CARAML 2024.01 · one node each · median of n runs, 95 % CI",
		.y_title = "Throughput relative to A100", .y_unit = "×",
	},
	.groups = groups,
	.n_groups = AB_ARRAY_SIZE(groups),
	.systems = group_sys,
	.n_systems = AB_ARRAY_SIZE(group_sys),
	.cells = cells,
	.reference = 1.0,
	.reference_label = "A100 = 1",
};

/* ---- 2. batch scaling --------------------------------------------------- */

#define MAX_PTS 16

struct batch_sys {
	const char *name;
	double xmax, bhalf;
	int b_from, b_to; /* log2 of the batch sizes that ran */
	int oom_from;     /* log2 of the first failing batch; 0: none */
};

static const struct batch_sys batch_sys[] = {
	{ "JEDI", 172000, 190, 4, 12, 0 },
	{ "H100", 108000, 170, 4, 11, 12 },
	{ "A100", 88500, 150, 4, 10, 11 },
	{ "MI250", 97000, 260, 4, 11, 12 },
};

static struct plot_point batch_pts[AB_ARRAY_SIZE(batch_sys)][MAX_PTS];
static double batch_failed[AB_ARRAY_SIZE(batch_sys)][4];
static struct plot_batch_series batch_series[AB_ARRAY_SIZE(batch_sys)];

static void make_batch(struct plot_batch_spec *s)
{
	size_t i;
	int e;

	for (i = 0; i < AB_ARRAY_SIZE(batch_sys); i++) {
		const struct batch_sys *b = &batch_sys[i];
		struct plot_batch_series *ser = &batch_series[i];
		size_t n = 0, nf = 0;

		for (e = b->b_from; e <= b->b_to; e++) {
			double x = pow(2, e), y = b->xmax * x / (x + b->bhalf);
			double noise = 0.02 * jitter((unsigned)(i * 100 + (size_t)e));
			double spread = fabs(jitter((unsigned)(i * 77 + (size_t)e)));
			double half = y * (0.008 + 0.01 * spread);
			y *= 1 + noise;
			batch_pts[i][n++] = (struct plot_point){ x, y, y - half, y + half };
		}
		if (b->oom_from)
			for (e = b->oom_from; e <= 12; e++)
				batch_failed[i][nf++] = pow(2, e);
		ser->system = b->name;
		ser->vendor = vendor(b->name);
		ser->points = batch_pts[i];
		ser->n_points = n;
		ser->failed = batch_failed[i];
		ser->n_failed = nf;
		ser->xmax = b->xmax;
		ser->bhalf = b->bhalf;
		ser->knee = 9 * b->bhalf; /* X(b) = 0.9 Xmax at b = 9 b_half */
	}
	memset(s, 0, sizeof(*s));
	s->labels.title = "GPT 800M throughput vs global batch size";
	s->labels.subtitle = "CARAML 2024.01 · one node · points: median with 95 % CI · "
			     "curves: fit X(b) = Xmax·b/(b + b½)";
	s->labels.x_title = "Global batch size";
	s->labels.x_unit = "sequences";
	s->labels.y_title = "Throughput";
	s->labels.y_unit = "tokens/s";
	s->series = batch_series;
	s->n_series = AB_ARRAY_SIZE(batch_series);
}

/* ---- 3. device scaling -------------------------------------------------- */

static struct plot_point dev_pts[3][8];
static struct plot_devices_series dev_series[3];

static void make_devices(struct plot_devices_spec *s)
{
	static const char *const names[] = { "JEDI", "A100", "MI250" };
	static const double serial[] = { 0.010, 0.022, 0.035 }; /* Amdahl fraction */
	static const int maxlog[] = { 5, 5, 6 };
	size_t i;
	int e;

	for (i = 0; i < 3; i++) {
		size_t n = 0;
		for (e = 0; e <= maxlog[i]; e++) {
			double p = pow(2, e), sp = 1 / (serial[i] + (1 - serial[i]) / p);
			double half = e ? sp * 0.015 : 0;
			sp *= 1 + 0.01 * jitter((unsigned)(i * 31 + (size_t)e)) * (e > 0);
			dev_pts[i][n++] = (struct plot_point){ p, sp, e ? sp - half : NAN,
							      e ? sp + half : NAN };
		}
		dev_series[i].system = names[i];
		dev_series[i].vendor = vendor(names[i]);
		dev_series[i].points = dev_pts[i];
		dev_series[i].n_points = n;
	}
	memset(s, 0, sizeof(*s));
	s->labels.title = "ResNet50 scaling with the number of devices";
	s->labels.subtitle = "CARAML 2024.01 · TensorFlow · global batch 256 per device · "
			     "speedup vs one device";
	s->labels.x_title = "Devices";
	s->labels.x_unit = "GPUs / GCDs";
	s->labels.y_title = "Speedup";
	s->labels.y_unit = "×";
	s->series = dev_series;
	s->n_series = 3;
}

/* ---- 4. Pareto ---------------------------------------------------------- */

static const struct plot_pareto_point pareto_pts[] = {
	{ "A100", "NVIDIA", NULL, 61200, 81626, PLOT_FRONT_AUTO },
	{ "H100", "NVIDIA", NULL, 70400, 98288, PLOT_FRONT_AUTO },
	{ "WAIH100", "NVIDIA", NULL, 78900, 124930, PLOT_FRONT_AUTO },
	{ "JEDI", "NVIDIA", NULL, 98600, 158153, PLOT_FRONT_AUTO },
	{ "GH200", "NVIDIA", NULL, 101700, 47505, PLOT_FRONT_AUTO },
	{ "MI250", "AMD", NULL, 52300, 88621, PLOT_FRONT_AUTO },
	{ "MI300X", "AMD", NULL, 73800, 142880, PLOT_FRONT_AUTO },
	{ "archer2:compute-cpu-rome", "CPU", NULL, 4100, 2210, PLOT_FRONT_AUTO },
};

static const struct plot_pareto_spec pareto_spec = {
	.labels = {
		.title = "Throughput vs energy efficiency",
		.subtitle = "GPT 800M training · CARAML 2024.01 · energy from jpwr, "
			    "device boundary",
		.x_title = "Energy efficiency", .x_unit = "tokens/Wh",
		.y_title = "Throughput", .y_unit = "tokens/s",
	},
	.points = pareto_pts,
	.n_points = AB_ARRAY_SIZE(pareto_pts),
};

/* ---- 5. heatmap --------------------------------------------------------- */

static const char *const hm_rows[] = { "A100", "H100", "WAIH100", "JEDI", "MI250", "GC200",
				       "archer2:compute-cpu-rome" };
static const char *const hm_cols[] = { "GPT 800M", "GPT 13B", "GPT 175B", "ResNet50 TF",
				       "ResNet50 PyTorch", "FNO PIC2D" };
static const double hm_vals[] = {
	1.00, 1.00, 1.00, 1.00, 1.00, 1.00,
	1.20, 1.31, 1.35, 1.42, 1.55, 1.48,
	1.53, 1.66, 1.71, 1.62, 1.80, NAN,
	1.94, 2.38, 2.51, 2.71, 2.95, 2.60,
	1.09, 0.92, 0.87, 0.81, 0.97, NAN,
	NAN, NAN, NAN, 0.64, NAN, NAN,
	0.027, NAN, NAN, 0.041, 0.035, 0.058,
};

static const struct plot_heatmap_spec heatmap_spec = {
	.labels = {
		.title = "Throughput relative to A100",
		.subtitle = "CARAML 2024.01 · one node each · ratio of medians",
		.x_title = "Benchmark", .y_title = "System",
	},
	.rows = hm_rows,
	.n_rows = AB_ARRAY_SIZE(hm_rows),
	.cols = hm_cols,
	.n_cols = AB_ARRAY_SIZE(hm_cols),
	.ratios = hm_vals,
	.baseline = "A100",
};

/* ---- 6. power ------------------------------------------------------------- */

#define POW_N 420

static double pow_t[8][POW_N], pow_w[8][POW_N];
static struct plot_power_series pow_series[8];
static char pow_names[8][16];

static void make_power(struct plot_power_spec *s)
{
	size_t d, i;

	for (d = 0; d < 8; d++) {
		for (i = 0; i < POW_N; i++) {
			double t = 1700000000.0 + (double)i * 0.5, w;
			double rel = t - 1700000020.0;
			if (rel < 0)
				w = 95 + 3 * jitter((unsigned)(d * 1000 + i));
			else if (rel < 8)
				w = 95 + (rel / 8) * 400;
			else if (rel < 180)
				w = 470 + 12 * (double)(d % 4) + 25 * sin(rel / 3.0 + (double)d) +
				    18 * jitter((unsigned)(d * 1000 + i));
			else
				w = 110 + 4 * jitter((unsigned)(d * 1000 + i));
			pow_t[d][i] = t;
			pow_w[d][i] = w / 2; /* per GCD: half an MI250 */
		}
		if (snprintf(pow_names[d], sizeof(pow_names[d]), "GCD %zu", d) < 0)
			pow_names[d][0] = '\0';
		pow_series[d].device = pow_names[d];
		pow_series[d].t = pow_t[d];
		pow_series[d].watts = pow_w[d];
		pow_series[d].n = POW_N;
	}
	memset(s, 0, sizeof(*s));
	s->labels.title = "Power draw during GPT 800M training on MI250";
	s->labels.subtitle = "jpwr (rocm-smi) · 1 node · 8 GCDs · sampled every 0.5 s";
	s->series = pow_series;
	s->n_series = 8;
	s->run_start = 1700000020.0;
	s->run_stop = 1700000200.0;
	s->t0 = NAN;
}

/* ---- driver --------------------------------------------------------------- */

static int render(const char *dir, const char *kind, const char *fmt, const struct plot_chart *ch,
		  const struct plot_file_opts *opts)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	strbuf_addf(&path, "%s/%s.%s", dir, kind, fmt);
	rc = plot_write_file(path.buf, opts, ch, &err);
	if (rc < 0)
		fprintf(stderr, "plotgallery: %s: %s\n", path.buf, err.buf);
	strbuf_release(&path);
	strbuf_release(&err);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const fmts[] = { "png", "svg", "pdf" };
	struct plot_batch_spec batch;
	struct plot_devices_spec devices;
	struct plot_power_spec power;
	struct plot_chart charts[7];
	struct plot_file_opts opts = { 0 };
	static const char *const names[] = { "bar", "bargroup", "batch", "devices",
					     "pareto", "heatmap", "power" };
	size_t i, f;
	int failed = 0;

	if (argc < 2 || argc > 5 ||
	    (argc == 5 && sscanf(argv[4], "%dx%d", &opts.width, &opts.height) != 2)) {
		fprintf(stderr, "usage: plotgallery OUTDIR [png|svg|pdf|all] [KIND|all] [WxH]\n");
		return 2;
	}
	make_batch(&batch);
	make_devices(&devices);
	make_power(&power);
	charts[0] = (struct plot_chart){ .kind = PLOT_BAR, .u.bar = &bar_spec };
	charts[1] = (struct plot_chart){ .kind = PLOT_BARGROUP, .u.bargroup = &bargroup_spec };
	charts[2] = (struct plot_chart){ .kind = PLOT_BATCH, .u.batch = &batch };
	charts[3] = (struct plot_chart){ .kind = PLOT_DEVICES, .u.devices = &devices };
	charts[4] = (struct plot_chart){ .kind = PLOT_PARETO, .u.pareto = &pareto_spec };
	charts[5] = (struct plot_chart){ .kind = PLOT_HEATMAP, .u.heatmap = &heatmap_spec };
	charts[6] = (struct plot_chart){ .kind = PLOT_POWER, .u.power = &power };
	for (i = 0; i < AB_ARRAY_SIZE(charts); i++) {
		if (argc >= 4 && strcmp(argv[3], "all") && strcmp(argv[3], names[i]))
			continue;
		for (f = 0; f < AB_ARRAY_SIZE(fmts); f++) {
			if (argc >= 3 && strcmp(argv[2], "all") && strcmp(argv[2], fmts[f]))
				continue;
			if (render(argv[1], names[i], fmts[f], &charts[i], &opts) < 0)
				failed = 1;
		}
	}
	plot_shutdown();
	return failed;
}
