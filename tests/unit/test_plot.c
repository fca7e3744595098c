/*
 * test_plot.c - the chart kit's pure parts with known answers: nice ticks
 * (linear, log2, log10), tick and value formatting (thousands separators,
 * SI suffixes), label shortening, axis titles, palette stability and the
 * diverging scale.
 */
#include "unit.h"
#include "plots/plot_priv.h"

static void assert_ticks(const double *got, size_t n, const double *want, size_t m)
{
	size_t i;

	assert_int_equal(n, m);
	for (i = 0; i < n; i++)
		assert_double_near(got[i], want[i], 1e-12);
}

static void test_ticks_linear(void **state)
{
	double t[PLOT_MAX_TICKS], step;
	size_t n;
	static const double t87[] = { 0, 20, 40, 60, 80, 100 };
	static const double t87b[] = { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90 };
	static const double tneg[] = { -4, -2, 0, 2, 4, 6, 8 };
	static const double tsmall[] = { 0.001, 0.002, 0.003, 0.004, 0.005 };
	static const double tin[] = { 0, 50000, 100000, 150000 };

	(void)state;
	/* the classic: [0, 87] in at most 6 ticks is 0..100 by 20 */
	n = plot_ticks_linear(0, 87, 6, t, PLOT_MAX_TICKS, &step);
	assert_ticks(t, n, t87, AB_ARRAY_SIZE(t87));
	assert_double_near(step, 20, 1e-12);
	/* with room for 10, steps of 10 cover it */
	n = plot_ticks_linear(0, 87, 10, t, PLOT_MAX_TICKS, &step);
	assert_ticks(t, n, t87b, AB_ARRAY_SIZE(t87b));
	/* a range across zero: 2 is the 1-2-5 step, and 0 is exactly 0 */
	n = plot_ticks_linear(-3.2, 7.9, 7, t, PLOT_MAX_TICKS, &step);
	assert_ticks(t, n, tneg, AB_ARRAY_SIZE(tneg));
	assert_true(t[2] == 0.0 && !signbit(t[2]));
	n = plot_ticks_linear(0.0011, 0.0047, 6, t, PLOT_MAX_TICKS, &step);
	assert_ticks(t, n, tsmall, AB_ARRAY_SIZE(tsmall));
	/* ticks inside limits only: [0, 175000] with at most 5 */
	n = plot_ticks_linear_inside(0, 175000, 5, t, PLOT_MAX_TICKS, &step);
	assert_ticks(t, n, tin, AB_ARRAY_SIZE(tin));
	/* a degenerate range still gives two ticks */
	n = plot_ticks_linear(5, 5, 6, t, PLOT_MAX_TICKS, &step);
	assert_true(n >= 2 && t[0] <= 5 && t[n - 1] >= 5);
}

static void test_ticks_log(void **state)
{
	double t[PLOT_MAX_TICKS];
	size_t n;
	static const double b2[] = { 16, 32, 64, 128, 256, 512, 1024, 2048, 4096 };
	static const double b2s[] = { 16, 64, 256, 1024, 4096 };
	static const double d10[] = { 10, 100, 1000, 10000, 100000, 1000000 };
	static const double small[] = { 2, 5 };
	static const double dev[] = { 1, 4, 16, 64 };

	(void)state;
	/* CARAML's batch sweep 16..4096 on a log2 axis */
	n = plot_ticks_log(16, 4096, 2, 10, t, PLOT_MAX_TICKS);
	assert_ticks(t, n, b2, AB_ARRAY_SIZE(b2));
	/* too many for the room: every second power, aligned to 4^k */
	n = plot_ticks_log(16, 4096, 2, 5, t, PLOT_MAX_TICKS);
	assert_ticks(t, n, b2s, AB_ARRAY_SIZE(b2s));
	n = plot_ticks_log(0.8, 80, 2, 4, t, PLOT_MAX_TICKS);
	assert_ticks(t, n, dev, AB_ARRAY_SIZE(dev));
	n = plot_ticks_log(3, 2e6, 10, 8, t, PLOT_MAX_TICKS);
	assert_ticks(t, n, d10, AB_ARRAY_SIZE(d10));
	/* inside one decade: 1-2-5 */
	n = plot_ticks_log(1.5, 9, 10, 6, t, PLOT_MAX_TICKS);
	assert_ticks(t, n, small, AB_ARRAY_SIZE(small));
	assert_int_equal(plot_ticks_log(0, 10, 10, 6, t, PLOT_MAX_TICKS), 0);
}

static void check_axis_labels(enum plot_scale scale, const double *ticks, size_t n, double step,
			      const char *const *want)
{
	struct plot_numfmt f;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	plot_numfmt_ticks(&f, scale, ticks, n, step);
	for (i = 0; i < n; i++) {
		strbuf_reset(&sb);
		plot_numfmt_apply(&sb, &f, ticks[i]);
		assert_string_equal(sb.buf, want[i]);
	}
	strbuf_release(&sb);
}

static void test_tick_format(void **state)
{
	static const double big[] = { 0, 50000, 100000, 150000 };
	static const char *const big_s[] = { "0", "50k", "100k", "150k" };
	static const double mid[] = { 0, 2000, 4000, 6000 };
	static const char *const mid_s[] = { "0", "2,000", "4,000", "6,000" };
	static const double m[] = { 0, 500000, 1000000, 1500000 };
	static const char *const m_s[] = { "0", "0.5M", "1.0M", "1.5M" };
	static const double frac[] = { -0.4, -0.2, 0, 0.2 };
	static const char *const frac_s[] = { "-0.4", "-0.2", "0", "0.2" };
	static const double l2[] = { 0.25, 1, 16, 1024, 4096 };
	static const char *const l2_s[] = { "0.25", "1", "16", "1024", "4096" };
	static const double l2i[] = { 16, 1024, 4096 };
	static const char *const l2i_s[] = { "16", "1024", "4096" };
	static const double l10[] = { 0.01, 1, 1000, 10000, 1000000 };
	static const char *const l10_s[] = { "0.01", "1", "1,000", "10k", "1M" };

	(void)state;
	check_axis_labels(PLOT_SCALE_LINEAR, big, 4, 50000, big_s);
	check_axis_labels(PLOT_SCALE_LINEAR, mid, 4, 2000, mid_s);
	check_axis_labels(PLOT_SCALE_LINEAR, m, 4, 500000, m_s);
	check_axis_labels(PLOT_SCALE_LINEAR, frac, 4, 0.2, frac_s);
	/* batch sizes read 4096, not 4,096 */
	check_axis_labels(PLOT_SCALE_LOG2, l2i, 3, 0, l2i_s);
	check_axis_labels(PLOT_SCALE_LOG2, l2, 5, 0, l2_s);
	check_axis_labels(PLOT_SCALE_LOG10, l10, 5, 0, l10_s);
}

/* chart value labels are views_fmt_value, the tables' format */
static void check_value(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	views_fmt_value(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/* what a label says when the table's number does not fit its bar */
static void check_value_short(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	views_fmt_value_short(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void check_ratio(double v, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	plot_format_ratio(&sb, v);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_value_format(void **state)
{
	(void)state;
	check_value(158152.8, "158,153");
	check_value(81626, "81,626");
	check_value(1000, "1,000");
	check_value(999.4, "999.4");
	check_value(585.14, "585.1"); /* the GC200 bar and table row of the demo */
	check_value(1234567, "1,234,567");
	check_value(183.37, "183.4");
	check_value(12.345, "12.35"); /* 12.345 is 12.3449999... in binary */
	check_value(0.9234, "0.923");
	check_value(0.0293, "0.0293"); /* 3 significant digits at least */
	check_value(0.012345, "0.0123");
	check_value(0, "0.000");
	check_value(-2500, "-2,500");
	check_value_short(585.14, "585");
	check_value_short(1234.5, "1,234"); /* no digits lost before the point */
	check_value_short(999499, "999k");
	check_value_short(12345, "12.3k");
	check_value_short(999999.7, "1M");
	check_value_short(25.4e9, "25.4G");
	check_value_short(0.012345, "0.0123");
	check_ratio(1.2069, "1.21\xC3\x97");
	check_ratio(0.027, "0.027\xC3\x97");
	check_ratio(12.34, "12.3\xC3\x97");
	check_ratio(1500, "1,500\xC3\x97");
	check_ratio(NAN, "\xE2\x80\x94");
}

static void check_short(const char *s, size_t max, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	plot_label_shorten(&sb, s, max);
	assert_string_equal(sb.buf, want);
	assert_true(plot_utf8_len(sb.buf) <= max);
	strbuf_release(&sb);
}

static void test_label_shorten(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *names[] = { "archer2:compute-gpu-torch", "NVIDIA A100-SXM4-80GB (JURECA-DC)",
				"Größenänderung-Prüfstand", "x", "--::--", "a b c d e f g h" };
	size_t i, k;

	(void)state;
	check_short("JEDI", 10, "JEDI");
	check_short("JEDI", 4, "JEDI");
	/* the last word survives when it fits in half the room */
	check_short("archer2:compute-gpu-torch", 16, "archer2\xE2\x80\xA6torch");
	check_short("archer2:compute-gpu-torch", 20, "archer2\xE2\x80\xA6gpu-torch");
	/* else the end goes, cut at a word */
	check_short("GH200 Grace Hopper Superchip", 15, "GH200 Grace\xE2\x80\xA6");
	check_short("GH200 Grace Hopper Superchip", 3, "GH2");
	/* UTF-8: code points are counted and never split */
	check_short("Größenänderung", 6, "Größe\xE2\x80\xA6");
	/* whatever the input and limit, the result fits and is valid UTF-8 */
	for (i = 0; i < AB_ARRAY_SIZE(names); i++) {
		for (k = 0; k <= plot_utf8_len(names[i]) + 1; k++) {
			const unsigned char *p;
			plot_label_shorten(&sb, names[i], k);
			assert_true(plot_utf8_len(sb.buf) <= k);
			for (p = (const unsigned char *)sb.buf; *p; p++)
				/* a lead byte is followed by a continuation byte */
				if ((*p & 0xC0) == 0xC0)
					assert_true((p[1] & 0xC0) == 0x80);
		}
	}
	strbuf_release(&sb);
}

static void test_axis_title(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	plot_axis_title(&sb, "Throughput", "tokens/s", NULL, NULL);
	assert_string_equal(sb.buf, "Throughput (tokens/s)");
	plot_axis_title(&sb, NULL, NULL, "Power", "W");
	assert_string_equal(sb.buf, "Power (W)");
	plot_axis_title(&sb, "Global batch size", "", "x", NULL);
	assert_string_equal(sb.buf, "Global batch size");
	plot_axis_title(&sb, "", NULL, NULL, NULL);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static int same_style(const struct plot_style *a, const struct plot_style *b)
{
	return a->marker == b->marker && a->shade == b->shade && a->vendor == b->vendor &&
	       a->color.r == b->color.r && a->color.g == b->color.g && a->color.b == b->color.b;
}

/* Identity: twelve NVIDIA systems in one chart, every pair distinguishable
 * (never the same colour and the same marker), whatever the order added. */
static void test_palette_twelve_nvidia(void **state)
{
	static const char *const names[] = {
		"NVIDIA/eos_n1_ngc24.04_pytorch", "NVIDIA/eos_n8_ngc24.04_pytorch",
		"NVIDIA/eos_n64_ngc24.04_nemo", "NVIDIA/eos_n128_ngc24.04_nemo",
		"NVIDIA/eos_n512_ngc24.04_nemo", "NVIDIA/eos_n1452_ngc24.04_nemo",
		"Lambda/lambda_1cc_n4_ngc24.04_nemo", "Lambda/lambda_1cc_n8_ngc24.04_nemo",
		"Dell/XE9680x8H100-SXM-80GB_ngc24.04_pytorch", "Dell/XE8640x4H100-SXM-80GB",
		"HPE/hpe_cray_xd670_h100_sxm_80gb_n1_pytorch", "Oracle/BM.GPU.H100.8_n16"
	};
	struct plot_palette *a = plot_palette_new(), *b = plot_palette_new();
	struct plot_style s[12], t;
	size_t i, j, n = AB_ARRAY_SIZE(names);

	(void)state;
	for (i = 0; i < n; i++) {
		plot_palette_add(a, names[i], "NVIDIA");
		plot_palette_add(b, names[n - 1 - i], "NVIDIA");
	}
	for (i = 0; i < n; i++) {
		plot_palette_style(a, names[i], "NVIDIA", &s[i]);
		plot_palette_style(b, names[i], "NVIDIA", &t);
		assert_int_equal(s[i].shade, t.shade);   /* order does not matter */
		assert_int_equal(s[i].marker, t.marker);
		assert_int_equal(s[i].vendor, PLOT_VENDOR_NVIDIA);
		for (j = 0; j < i; j++)
			assert_false(s[i].shade == s[j].shade && s[i].marker == s[j].marker);
	}
	plot_palette_free(a);
	plot_palette_free(b);
}

static void test_palette(void **state)
{
	static const char *const sys[][2] = {
		{ "A100", "NVIDIA" }, { "H100", "NVIDIA" }, { "GH200", "NVIDIA" },
		{ "JEDI", "NVIDIA" }, { "WAIH100", "NVIDIA" }, { "MI250", "AMD" },
		{ "MI300X", "amd" },  { "GC200", "Graphcore" }, { "CS-2", "Cerebras" },
		{ "TPUv4", "Google" }, { "Gaudi2", "Intel" }, { "rome", "CPU" },
	};
	size_t n = AB_ARRAY_SIZE(sys), i, j;
	struct plot_palette *a = plot_palette_new(), *b = plot_palette_new();
	struct plot_style sa, sb;

	(void)state;
	for (i = 0; i < n; i++)
		plot_palette_add(a, sys[i][0], sys[i][1]);
	/* the other order, with a duplicate */
	for (i = n; i-- > 0;)
		plot_palette_add(b, sys[i][0], sys[i][1]);
	plot_palette_add(b, "A100", "AMD");
	for (i = 0; i < n; i++) {
		plot_palette_style(a, sys[i][0], NULL, &sa);
		plot_palette_style(b, sys[i][0], NULL, &sb);
		assert_true(same_style(&sa, &sb));
		assert_int_equal(sa.vendor, plot_vendor_from_name(sys[i][1]));
	}
	/* the five NVIDIA systems: five shades, five markers */
	for (i = 0; i < 5; i++) {
		plot_palette_style(a, sys[i][0], NULL, &sa);
		for (j = 0; j < i; j++) {
			plot_palette_style(a, sys[j][0], NULL, &sb);
			assert_int_not_equal(sa.shade, sb.shade);
			assert_int_not_equal(sa.marker, sb.marker);
		}
	}
	/* a system alone keeps its hash-preferred style in any palette */
	plot_palette_style(a, "MI250", NULL, &sa);
	plot_palette_style(NULL, "MI250", "AMD", &sb);
	assert_true(same_style(&sa, &sb));
	assert_int_equal(sa.shade, (int)(plot_hash("MI250") % PLOT_SHADES));
	assert_int_equal(plot_hash(""), 2166136261u);
	assert_int_equal(plot_hash("a"), 0xe40c292cu); /* FNV-1a test vector */
	plot_palette_free(a);
	plot_palette_free(b);
	plot_palette_free(NULL);

	assert_int_equal(plot_vendor_from_name("nvidia"), PLOT_VENDOR_NVIDIA);
	assert_int_equal(plot_vendor_from_name("GRAPHCORE"), PLOT_VENDOR_GRAPHCORE);
	assert_int_equal(plot_vendor_from_name("CPU"), PLOT_VENDOR_OTHER);
	assert_int_equal(plot_vendor_from_name(NULL), PLOT_VENDOR_OTHER);
	assert_string_equal(plot_vendor_label(PLOT_VENDOR_AMD), "AMD");
	/* the families' pure hues are Okabe-Ito's */
	sa.color = plot_vendor_base(PLOT_VENDOR_NVIDIA);
	assert_double_near(sa.color.g, 158 / 255.0, 1e-3);
	/* shades run from light to dark */
	for (i = 1; i < PLOT_SHADES; i++)
		assert_true(plot_luminance(plot_vendor_shade(PLOT_VENDOR_AMD, (int)i)) <
			    plot_luminance(plot_vendor_shade(PLOT_VENDOR_AMD, (int)i - 1)));
}

static void test_diverging(void **state)
{
	struct plot_rgb c;

	(void)state;
	c = plot_diverging(1.0, 4);
	assert_double_near(c.r, 0.969, 1e-9);
	c = plot_diverging(4.0, 4); /* the purple end, #542788 */
	assert_double_near(c.r, 0.329, 1e-9);
	assert_double_near(c.b, 0.533, 1e-9);
	c = plot_diverging(100.0, 4); /* saturates */
	assert_double_near(c.r, 0.329, 1e-9);
	c = plot_diverging(0.25, 4); /* the orange end, #B35806 */
	assert_double_near(c.r, 0.702, 1e-9);
	/* symmetric in log space: 2x and 1/2x sit half way, on the inner anchors */
	c = plot_diverging(2.0, 4); /* #998EC3 */
	assert_double_near(c.g, 0.557, 1e-9);
	c = plot_diverging(0.5, 4); /* #F1A340 */
	assert_double_near(c.g, 0.639, 1e-9);
	assert_true(plot_luminance(plot_diverging(2, 4)) < plot_luminance(plot_diverging(1.1, 4)));
	assert_true(plot_luminance(plot_diverging(0.5, 4)) <
		    plot_luminance(plot_diverging(0.9, 4)));
}

static void test_axis_setup(void **state)
{
	struct plot_axis a;

	(void)state;
	/* nice limits widen to whole steps */
	plot_axis_setup(&a, PLOT_SCALE_LINEAR, PLOT_AXIS_ZERO | PLOT_AXIS_NICE, 3, 87, 6);
	assert_double_near(a.lo, 0, 0);
	assert_double_near(a.hi, 100, 1e-12);
	assert_int_equal(a.n_ticks, 6);
	plot_axis_set_pixels(&a, 100, 200);
	assert_double_near(plot_axis_map(&a, 50), 150, 1e-12);
	/* log2 axis with padding keeps 16 and 4096 inside */
	plot_axis_setup(&a, PLOT_SCALE_LOG2, PLOT_AXIS_PAD, 16, 4096, 12);
	assert_true(a.lo < 16 && a.hi > 4096);
	assert_int_equal(a.n_ticks, 9);
	plot_axis_set_pixels(&a, 0, 800);
	assert_double_near(plot_axis_map(&a, 256) - plot_axis_map(&a, 128),
			   plot_axis_map(&a, 128) - plot_axis_map(&a, 64), 1e-9);
	/* minor grid lines on log10 axes */
	plot_axis_setup(&a, PLOT_SCALE_LOG10, 0, 1, 100, 6);
	assert_int_equal(a.n_minor, 16);
	assert_int_equal(plot_max_yticks(100), 4);
	assert_int_equal(plot_max_yticks(10000), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_linear), cmocka_unit_test(test_ticks_log),
		cmocka_unit_test(test_tick_format),  cmocka_unit_test(test_value_format),
		cmocka_unit_test(test_label_shorten), cmocka_unit_test(test_axis_title),
		cmocka_unit_test(test_palette), cmocka_unit_test(test_palette_twelve_nvidia),      cmocka_unit_test(test_diverging),
		cmocka_unit_test(test_axis_setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
