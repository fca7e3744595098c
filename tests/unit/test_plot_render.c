/*
 * test_plot_render.c - every chart kind rendered for real: PNG of the
 * requested size with ink in the plot area, SVG carrying its titles and
 * system names and the same bytes every time, reproducible PDF metadata,
 * drawing into a region of a caller's surface, atomic output and the
 * errors (as values, with their messages).
 */
#include "unit.h"
#include "plots/plot.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[64];

/* ---- small realistic specs ---------------------------------------------- */

static const struct plot_bar bars[] = {
	{ "A100", "NVIDIA", 81626, 80910, 82240, 8, NULL, 0, 0, 0 },
	{ "H100", "NVIDIA", 98288, 97150, 99020, 8, NULL, 0, 0, 0 },
	{ "JEDI", "NVIDIA", 158153, 156900, 159300, 5, NULL, 0, 0, 0 },
	{ "MI250", "AMD", 88621, 86900, 89700, 7, NULL, 0, 0, 0 },
};
static const struct plot_bar_spec bar_spec = {
	.labels = { .title = "GPT 800M throughput", .subtitle = "CARAML · n runs",
		    .y_title = "Throughput", .y_unit = "tokens/s" },
	.bars = bars, .n_bars = 4, .baseline = "A100",
};

static const char *const groups[] = { "GPT 800M", "ResNet50" };
static const struct plot_sys gsys[] = { { "A100", "NVIDIA" }, { "MI250", "AMD" } };
static const struct plot_cell cells[] = { { 1, 0.99, 1.01, 5 }, { 1.09, 1.05, 1.1, 5 },
					  { 1, 0.98, 1.02, 5 }, { NAN, NAN, NAN, 0 } };
static const struct plot_bargroup_spec bargroup_spec = {
	.labels = { .title = "Relative speed", .y_title = "Speed relative to A100",
		    .y_unit = "×" },
	.groups = groups, .n_groups = 2, .systems = gsys, .n_systems = 2, .cells = cells,
	.reference = 1, .reference_label = "A100 = 1",
};

static const struct plot_point bpts[] = { { 16, 12000, 11800, 12300 }, { 64, 40000, 39000, 41000 },
					  { 256, 70000, 69000, 71000 }, { 1024, 80000, NAN, NAN } };
static const double bfail[] = { 2048, 4096 };
static const struct plot_batch_series bser[] = {
	{ "A100", "NVIDIA", bpts, 4, bfail, 2, 88000, 150, 1350, NULL },
};
static const struct plot_batch_spec batch_spec = {
	.labels = { .title = "Batch scaling", .x_title = "Global batch size", .x_unit = "sequences",
		    .y_title = "Throughput", .y_unit = "tokens/s" },
	.series = bser, .n_series = 1,
};

static const struct plot_point dpts[] = { { 1, 1, NAN, NAN }, { 2, 1.9, 1.85, 1.95 },
					  { 4, 3.6, 3.5, 3.7 }, { 8, 6.5, 6.3, 6.7 } };
static const struct plot_devices_series dser[] = { { "MI250", "AMD", dpts, 4, NULL } };
static const struct plot_devices_spec devices_spec = {
	.labels = { .title = "Device scaling", .x_title = "Devices", .x_unit = "GCDs",
		    .y_title = "Speedup", .y_unit = "×" },
	.series = dser, .n_series = 1,
};

static const struct plot_pareto_point ppts[] = {
	{ "A100", "NVIDIA", NULL, 61200, 81626, PLOT_FRONT_AUTO }, { "JEDI", "NVIDIA", NULL, 98600, 158153, PLOT_FRONT_AUTO },
	{ "MI250", "AMD", NULL, 52300, 88621, PLOT_FRONT_AUTO },   { "GH200", "NVIDIA", NULL, 101700, 47505, PLOT_FRONT_AUTO },
};
static const struct plot_pareto_spec pareto_spec = {
	.labels = { .title = "Pareto", .x_title = "Energy efficiency", .x_unit = "tokens/Wh",
		    .y_title = "Throughput", .y_unit = "tokens/s" },
	.points = ppts, .n_points = 4,
};

static const char *const hrows[] = { "A100", "JEDI", "MI250" };
static const char *const hcols[] = { "GPT 800M", "ResNet50" };
static const double hvals[] = { 1, 1, 1.94, 2.71, 1.09, NAN };
static const struct plot_heatmap_spec heatmap_spec = {
	.labels = { .title = "Relative to A100" },
	.rows = hrows, .n_rows = 3, .cols = hcols, .n_cols = 2, .ratios = hvals, .baseline = "A100",
};

static const double pt[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static const double pw0[] = { 90, 95, 400, 410, 405, 398, 120, 100 };
static const double pw1[] = { 88, 93, 380, 395, 401, 390, 118, 99 };
static const struct plot_power_series pser[] = { { "GPU 0", pt, pw0, 8 }, { "GPU 1", pt, pw1, 8 } };
static const struct plot_power_spec power_spec = {
	.labels = { .title = "Power" }, .series = pser, .n_series = 2, .run_start = 1.5,
	.run_stop = 5.5, .t0 = NAN,
};

static struct plot_chart chart_of(enum plot_kind k)
{
	struct plot_chart c = { .kind = k };

	switch (k) {
	case PLOT_BAR: c.u.bar = &bar_spec; break;
	case PLOT_BARGROUP: c.u.bargroup = &bargroup_spec; break;
	case PLOT_BATCH: c.u.batch = &batch_spec; break;
	case PLOT_DEVICES: c.u.devices = &devices_spec; break;
	case PLOT_PARETO: c.u.pareto = &pareto_spec; break;
	case PLOT_HEATMAP: c.u.heatmap = &heatmap_spec; break;
	case PLOT_POWER: c.u.power = &power_spec; break;
	}
	return c;
}

/* ---- helpers ------------------------------------------------------------ */

static void path_of(struct strbuf *sb, const char *name)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%s/%s", tmpdir, name);
}

static void slurp(const char *path, struct strbuf *out)
{
	FILE *fp = fopen(path, "rb");
	char buf[4096];
	size_t n;

	assert_non_null(fp);
	strbuf_reset(out);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(out, buf, n);
	fclose(fp);
}

static int contains(const struct strbuf *sb, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= sb->len; i++)
		if (!memcmp(sb->buf + i, needle, n))
			return 1;
	return 0;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* no temporary file of the atomic writer is left in the test directory */
static int tmp_left(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' && len > 4 && !strcmp(e->d_name + len - 4, ".tmp"))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	if (!t || !*t || strlen(t) >= 40)
		t = "/tmp";
	if (snprintf(tmpdir, sizeof(tmpdir), "%s/abplot.XXXXXX", t) < 0)
		return -1;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	struct strbuf path = STRBUF_INIT;
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int rc = 0;

	(void)state;
	/* the tests write plain files only */
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path_of(&path, e->d_name);
		if (unlink(path.buf) < 0)
			rc = -1;
	}
	if (d)
		closedir(d);
	if (rmdir(tmpdir) < 0)
		rc = -1;
	strbuf_release(&path);
	plot_shutdown(); /* font caches: keeps leak checkers quiet */
	return rc;
}

/* Share of pixels in the box (fractions of the image) that are not white. */
static double ink(cairo_surface_t *img, double x0, double y0, double x1, double y1)
{
	int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
	int stride = cairo_image_surface_get_stride(img), x, y;
	const unsigned char *d;
	long n = 0, inked = 0;

	cairo_surface_flush(img);
	d = cairo_image_surface_get_data(img);
	for (y = (int)(y0 * h); y < (int)(y1 * h); y++)
		for (x = (int)(x0 * w); x < (int)(x1 * w); x++) {
			uint32_t px;
			memcpy(&px, d + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
			n++;
			if ((px & 0xFFFFFF) != 0xFFFFFF)
				inked++;
		}
	return n ? (double)inked / (double)n : 0;
}

/* ---- tests ------------------------------------------------------------- */

static void test_png_every_kind(void **state)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	enum plot_kind k;

	(void)state;
	for (k = PLOT_BAR; k <= PLOT_POWER; k++) {
		struct plot_chart c = chart_of(k);
		cairo_surface_t *img;
		double share;

		path_of(&path, plot_kind_name(k));
		strbuf_addstr(&path, ".png");
		assert_int_equal(plot_write_file(path.buf, NULL, &c, &err), 0);
		img = cairo_image_surface_create_from_png(path.buf);
		assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
		assert_int_equal(cairo_image_surface_get_width(img), 1600);
		assert_int_equal(cairo_image_surface_get_height(img), 1000);
		/* the plot area has data and grid in it, the corner is blank */
		share = ink(img, 0.2, 0.25, 0.9, 0.85);
		assert_true(share > 0.02);
		assert_true(ink(img, 0.0, 0.0, 0.01, 0.01) == 0);
		cairo_surface_destroy(img);
		assert_int_equal(tmp_left(), 0);
	}
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_png_size(void **state)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	struct plot_chart c = chart_of(PLOT_BATCH);
	struct plot_file_opts o = { .width = 1000, .height = 640 };
	cairo_surface_t *img;

	(void)state;
	path_of(&path, "small.png");
	assert_int_equal(plot_write_file(path.buf, &o, &c, &err), 0);
	img = cairo_image_surface_create_from_png(path.buf);
	assert_int_equal(cairo_image_surface_get_width(img), 1000);
	assert_int_equal(cairo_image_surface_get_height(img), 640);
	cairo_surface_destroy(img);
	/* scale 1: the same pixels, a bigger layout */
	o.scale = 1;
	assert_int_equal(plot_write_file(path.buf, &o, &c, &err), 0);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void expect_in(const char *file, const char *const *words, size_t n)
{
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	size_t i;

	path_of(&path, file);
	slurp(path.buf, &body);
	for (i = 0; i < n; i++) {
		if (!strstr(body.buf, words[i]))
			fail_msg("'%s' not in %s", words[i], file);
	}
	strbuf_release(&path);
	strbuf_release(&body);
}

static void test_svg_words(void **state)
{
	static const char *const bar_w[] = { "<title>GPT 800M throughput</title>",
					     "Throughput (tokens/s)", "A100", "H100", "JEDI",
					     "MI250",
					     "n = 5", "baseline: A100", "width=\"800px\"" };
	static const char *const batch_w[] = { "Global batch size (sequences)",
					       "Throughput (tokens/s)", "A100",
					       "failed / out of memory", "knee (90 % of Xmax)" };
	static const char *const dev_w[] = { "Devices (GCDs)", "Speedup (×)",
					     "Parallel efficiency (%)", "MI250", "ideal (linear)" };
	static const char *const par_w[] = { "Energy efficiency (tokens/Wh)",
					     "Throughput (tokens/s)", "JEDI", "GH200", "MI250",
					     "Pareto front" };
	static const char *const heat_w[] = { "Geometric mean", "GPT 800M", "ResNet50", "JEDI",
					      "2.71×", "ratio to A100" };
	static const char *const pow_w[] = { "Power (W)", "Time since run start (s)", "GPU 0",
					     "GPU 1", "run start", "run stop" };
	static const char *const grp_w[] = { "Speed relative to A100 (×)", "GPT 800M", "A100 = 1",
					     "MI250" };
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;
	enum plot_kind k;

	(void)state;
	for (k = PLOT_BAR; k <= PLOT_POWER; k++) {
		struct plot_chart c = chart_of(k);
		path_of(&path, plot_kind_name(k));
		strbuf_addstr(&path, ".svg");
		assert_int_equal(plot_write_file(path.buf, NULL, &c, &err), 0);
	}
	expect_in("bar.svg", bar_w, AB_ARRAY_SIZE(bar_w));
	expect_in("bargroup.svg", grp_w, AB_ARRAY_SIZE(grp_w));
	expect_in("batch.svg", batch_w, AB_ARRAY_SIZE(batch_w));
	expect_in("devices.svg", dev_w, AB_ARRAY_SIZE(dev_w));
	expect_in("pareto.svg", par_w, AB_ARRAY_SIZE(par_w));
	expect_in("heatmap.svg", heat_w, AB_ARRAY_SIZE(heat_w));
	expect_in("power.svg", pow_w, AB_ARRAY_SIZE(pow_w));
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_svg_pdf_reproducible(void **state)
{
	struct strbuf p1 = STRBUF_INIT, p2 = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	struct plot_chart c = chart_of(PLOT_PARETO), other = chart_of(PLOT_BAR);
	char *old = getenv("SOURCE_DATE_EPOCH") ? ab_strdup(getenv("SOURCE_DATE_EPOCH")) : NULL;

	(void)state;
	/* cairo numbers its surfaces per process: another chart in between must
	 * not change the bytes */
	path_of(&p1, "r1.svg");
	path_of(&p2, "r2.svg");
	assert_int_equal(plot_write_file(p1.buf, NULL, &c, &err), 0);
	assert_int_equal(plot_write_file(p2.buf, NULL, &other, &err), 0);
	assert_int_equal(plot_write_file(p2.buf, NULL, &c, &err), 0);
	slurp(p1.buf, &a);
	slurp(p2.buf, &b);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	assert_non_null(strstr(a.buf, "id=\"surface1\""));

	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	path_of(&p1, "r1.pdf");
	path_of(&p2, "r2.pdf");
	assert_int_equal(plot_write_file(p1.buf, NULL, &c, &err), 0);
	assert_int_equal(plot_write_file(p2.buf, NULL, &c, &err), 0);
	slurp(p1.buf, &a);
	slurp(p2.buf, &b);
	assert_memory_equal(a.buf, "%PDF-", 5);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.buf, b.buf, a.len);
	/* 1700000000 = 2023-11-14 22:13:20 UTC */
	assert_true(contains(&a, "20231114221320"));
	assert_true(contains(&a, "/Title (Pareto)"));
	if (old)
		setenv("SOURCE_DATE_EPOCH", old, 1);
	else
		unsetenv("SOURCE_DATE_EPOCH");
	free(old);
	strbuf_release(&p1);
	strbuf_release(&p2);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&err);
}

static void test_draw_region(void **state)
{
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 600, 400);
	cairo_t *cr = cairo_create(img);
	struct plot_rect area = { 60, 40, 420, 300 }, tiny = { 0, 0, 100, 100 };
	struct plot_chart c = chart_of(PLOT_BATCH);
	struct strbuf err = STRBUF_INIT;
	cairo_matrix_t m;
	const unsigned char *d;
	int stride, x, y, outside = 0, inside = 0;

	(void)state;
	cairo_set_source_rgb(cr, 1, 0, 0);
	cairo_paint(cr);
	cairo_set_line_width(cr, 7);
	assert_int_equal(plot_draw(cr, &area, &c, &err), 0);
	/* the caller's state is back */
	assert_true(cairo_get_line_width(cr) == 7);
	cairo_get_matrix(cr, &m);
	assert_true(m.xx == 1 && m.yy == 1 && m.x0 == 0 && m.y0 == 0);
	cairo_surface_flush(img);
	d = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (y = 0; y < 400; y++)
		for (x = 0; x < 600; x++) {
			uint32_t px;
			int in = x >= 60 && x < 480 && y >= 40 && y < 340;
			memcpy(&px, d + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
			if (!in && (px & 0xFFFFFF) != 0xFF0000)
				outside++;
			if (in && (px & 0xFFFFFF) != 0xFF0000)
				inside++;
		}
	assert_int_equal(outside, 0);
	assert_true(inside > 2000);
	/* too small an area is refused */
	assert_int_equal(plot_draw(cr, &tiny, &c, &err), -AB_EUSAGE);
	assert_string_equal(err.buf, "chart area 100x100 is too small: at least 240x160");
	cairo_destroy(cr);
	cairo_surface_destroy(img);
	strbuf_release(&err);
}

static void test_formats(void **state)
{
	struct strbuf err = STRBUF_INIT;
	enum plot_format f;

	(void)state;
	assert_int_equal(plot_format_from_path("a/b.PNG", &f, &err), 0);
	assert_int_equal(f, PLOT_FMT_PNG);
	assert_int_equal(plot_format_from_path("x.svg", &f, &err), 0);
	assert_int_equal(f, PLOT_FMT_SVG);
	assert_int_equal(plot_format_from_path("x.pdf", &f, &err), 0);
	assert_int_equal(f, PLOT_FMT_PDF);
	assert_int_equal(plot_format_from_path("x.jpg", &f, &err), -AB_EUSAGE);
	assert_string_equal(err.buf, "unknown chart file type 'x.jpg': name it .png, .svg or .pdf");
	assert_string_equal(plot_kind_name(PLOT_HEATMAP), "heatmap");
	strbuf_release(&err);
}

static void expect_error(const struct plot_chart *c, const char *file, int code, const char *msg)
{
	struct strbuf path = STRBUF_INIT, err = STRBUF_INIT;

	path_of(&path, file);
	assert_int_equal(plot_write_file(path.buf, NULL, c, &err), code);
	assert_string_equal(err.buf, msg);
	/* nothing is left behind: neither the file nor a temporary file */
	assert_false(exists(path.buf));
	assert_int_equal(tmp_left(), 0);
	strbuf_release(&path);
	strbuf_release(&err);
}

static void test_errors(void **state)
{
	struct plot_bar_spec bs = bar_spec;
	struct plot_heatmap_spec hs = heatmap_spec;
	struct plot_power_spec ps = power_spec;
	struct plot_batch_spec bts = batch_spec;
	struct plot_pareto_spec pas = pareto_spec;
	struct plot_batch_series bad_series = bser[0];
	struct plot_power_series back = pser[0];
	static const double tb[] = { 0, 2, 1, 3, 4, 5, 6, 7 };
	static const double hneg[] = { 1, -1, 1, 1, 1, 1 };
	static const struct plot_point zero_x[] = { { 0, 100, NAN, NAN } };
	struct plot_chart c;
	struct plot_file_opts small = { .width = 300, .height = 200 };
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;

	(void)state;
	bs.n_bars = 0;
	c = (struct plot_chart){ .kind = PLOT_BAR, .u.bar = &bs };
	expect_error(&c, "e1.png", -AB_EDATA, "nothing to plot: the bar chart has no systems");
	bs = bar_spec;
	bs.labels.y_title = NULL;
	expect_error(&c, "e2.svg", -AB_EDATA, "bar chart: the y axis needs a title with its unit");
	hs.ratios = hneg;
	c = (struct plot_chart){ .kind = PLOT_HEATMAP, .u.heatmap = &hs };
	expect_error(&c, "e3.pdf", -AB_EDATA,
		     "heatmap: ratio -1 of 'A100' in 'ResNet50' is not positive");
	back.t = tb;
	ps.series = &back;
	ps.n_series = 1;
	c = (struct plot_chart){ .kind = PLOT_POWER, .u.power = &ps };
	expect_error(&c, "e4.png", -AB_EDATA,
		     "power chart: time goes backwards at sample 3 of 'GPU 0'");
	bad_series.points = zero_x;
	bad_series.n_points = 1;
	bts.series = &bad_series;
	c = (struct plot_chart){ .kind = PLOT_BATCH, .u.batch = &bts };
	expect_error(&c, "e5.png", -AB_EDATA,
		     "batch scaling chart: point (0, 100) of 'A100' cannot be shown");
	pas.labels.x_title = "";
	c = (struct plot_chart){ .kind = PLOT_PARETO, .u.pareto = &pas };
	expect_error(&c, "e6.png", -AB_EDATA,
		     "Pareto chart: the x axis needs a title with its unit");

	c = chart_of(PLOT_BAR);
	assert_int_equal(plot_write_file("e7.gif", NULL, &c, &err), -AB_EUSAGE);
	assert_string_equal(err.buf,
			    "unknown chart file type 'e7.gif': name it .png, .svg or .pdf");
	assert_false(exists("e7.gif"));
	assert_int_equal(tmp_left(), 0);
	/* a path that cannot be created: an I/O error, nothing written */
	path_of(&path, "no/such/dir/x.png");
	assert_int_equal(plot_write_file(path.buf, NULL, &c, &err), -AB_EIO);
	assert_non_null(strstr(err.buf, "cannot create a temporary file for '"));
	assert_non_null(strstr(err.buf, "no/such/dir/x.png': No such file or directory"));
	assert_int_equal(plot_write_file("x.png", &small, &c, &err), -AB_EUSAGE);
	assert_string_equal(err.buf,
			    "chart size 300x200 is too small at scale 2: at least 480x320 pixels");
	strbuf_release(&err);
	strbuf_release(&path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png_every_kind), cmocka_unit_test(test_png_size),
		cmocka_unit_test(test_svg_words),      cmocka_unit_test(test_svg_pdf_reproducible),
		cmocka_unit_test(test_draw_region),    cmocka_unit_test(test_formats),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
