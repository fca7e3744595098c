/*
 * palette.c - which system looks how: the vendor colour families and the
 * per-system colour and marker assignment, decided here once so every
 * renderer (plots/, the report, the workbook) shows a system the same way.
 *
 * Vendor hues are the Okabe-Ito colour-blind-safe set (Okabe & Ito 2008):
 * NVIDIA bluish green, AMD vermillion, Intel blue, Graphcore reddish
 * purple, Cerebras orange, Google sky blue, other/CPU grey.  Inside a
 * family the six shades differ in lightness only,
 * and every system of a vendor also gets its own marker, so two systems
 * never rely on hue alone.
 */
#include "core/compat.h"
#include "views/views.h"

#define PAL_WHITE ((struct plot_rgb){ 1.0, 1.0, 1.0 })

static struct plot_rgb mix(struct plot_rgb a, struct plot_rgb b, double t)
{
	struct plot_rgb m;

	m.r = a.r + (b.r - a.r) * t;
	m.g = a.g + (b.g - a.g) * t;
	m.b = a.b + (b.b - a.b) * t;
	return m;
}

struct pal_entry {
	char *name;
	enum plot_vendor vendor;
	struct plot_style style;
};

struct plot_palette {
	struct pal_entry *e;
	size_t n, alloc;
};

/*
 * Each family's six shades are evenly spaced on a lightness scale from -1
 * (the base mixed 60 % with white) to +1 (60 % with black), over a window
 * per vendor chosen so that neighbouring hues never meet: Intel only goes
 * darker and Google only lighter than their bases (deep blue vs sky blue),
 * Cerebras stays light so that its dark shades do not turn into AMD's
 * browns.
 */
static const struct {
	const char *name;
	struct plot_rgb base;
	double lo, hi; /* lightness window */
} vendors[PLOT_VENDOR_COUNT] = {
	/* #009E73 */ [PLOT_VENDOR_NVIDIA] = { "NVIDIA", { 0.000, 0.620, 0.451 }, -0.7, 0.8 },
	/* #D55E00 */ [PLOT_VENDOR_AMD] = { "AMD", { 0.835, 0.369, 0.000 }, -0.7, 0.7 },
	/* #0072B2 */ [PLOT_VENDOR_INTEL] = { "Intel", { 0.000, 0.447, 0.698 }, 0.0, 0.9 },
	/* #CC79A7 */ [PLOT_VENDOR_GRAPHCORE] = { "Graphcore", { 0.800, 0.475, 0.655 }, -0.6, 0.9 },
	/* #E69F00 */ [PLOT_VENDOR_CEREBRAS] = { "Cerebras", { 0.902, 0.624, 0.000 }, -0.7, 0.3 },
	/* #56B4E9 */ [PLOT_VENDOR_GOOGLE] = { "Google", { 0.337, 0.706, 0.914 }, -0.8, 0.0 },
	/* #6E6E6E */ [PLOT_VENDOR_OTHER] = { "Other", { 0.430, 0.430, 0.430 }, -0.7, 0.8 },
};

uint32_t plot_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

static int ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = (unsigned char)*a, y = (unsigned char)*b;
		if (x >= 'A' && x <= 'Z')
			x += 'a' - 'A';
		if (y >= 'A' && y <= 'Z')
			y += 'a' - 'A';
		if (x != y)
			return 0;
	}
	return *a == *b;
}

enum plot_vendor plot_vendor_from_name(const char *vendor)
{
	int v;

	if (!vendor)
		return PLOT_VENDOR_OTHER;
	for (v = 0; v < PLOT_VENDOR_OTHER; v++)
		if (ieq(vendor, vendors[v].name))
			return (enum plot_vendor)v;
	return PLOT_VENDOR_OTHER;
}

const char *plot_vendor_label(enum plot_vendor v)
{
	if ((unsigned)v >= PLOT_VENDOR_COUNT)
		v = PLOT_VENDOR_OTHER;
	return vendors[v].name;
}

struct plot_rgb plot_vendor_base(enum plot_vendor v)
{
	if ((unsigned)v >= PLOT_VENDOR_COUNT)
		v = PLOT_VENDOR_OTHER;
	return vendors[v].base;
}

struct plot_rgb plot_vendor_shade(enum plot_vendor v, int shade)
{
	double t;

	if ((unsigned)v >= PLOT_VENDOR_COUNT)
		v = PLOT_VENDOR_OTHER;
	shade = ((shade % PLOT_SHADES) + PLOT_SHADES) % PLOT_SHADES;
	t = vendors[v].lo + (vendors[v].hi - vendors[v].lo) * shade / (PLOT_SHADES - 1);
	if (t < 0)
		return mix(vendors[v].base, PAL_WHITE, -0.6 * t);
	return mix(vendors[v].base, (struct plot_rgb){ 0, 0, 0 }, 0.6 * t);
}

static void preferred(const char *name, int *shade, int *marker)
{
	uint32_t h = plot_hash(name);

	*shade = (int)(h % PLOT_SHADES);
	*marker = (int)((h / PLOT_SHADES) % PLOT_MARKER_COUNT);
}

struct plot_palette *plot_palette_new(void)
{
	return ab_calloc(1, sizeof(struct plot_palette));
}

void plot_palette_free(struct plot_palette *pal)
{
	size_t i;

	if (!pal)
		return;
	for (i = 0; i < pal->n; i++)
		free(pal->e[i].name);
	free(pal->e);
	free(pal);
}

static int by_name(const void *a, const void *b)
{
	const struct pal_entry *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

/* Give every system of vendor v a shade and a marker, in byte order of the
 * names: the free (shade, marker) pair that uses the least-used shade and
 * marker, nearest the name's preferred pair.  Up to PLOT_SHADES x
 * PLOT_MARKER_COUNT systems of one vendor never share both colour and
 * marker (twelve NVIDIA systems get twelve distinct pairs, every shade
 * twice and every marker twice). */
static void assign(struct plot_palette *pal, enum plot_vendor v)
{
	struct pal_entry **fam = ab_calloc(pal->n, sizeof(*fam));
	int shade_used[PLOT_SHADES] = { 0 };
	int marker_used[PLOT_MARKER_COUNT] = { 0 };
	unsigned char pair_used[PLOT_SHADES][PLOT_MARKER_COUNT] = { { 0 } };
	size_t i, nf = 0;

	for (i = 0; i < pal->n; i++)
		if (pal->e[i].vendor == v)
			fam[nf++] = &pal->e[i];
	qsort(fam, nf, sizeof(*fam), by_name);
	for (i = 0; i < nf; i++) {
		int ps, pm, s = -1, m = -1, best = -1, ks, km;

		preferred(fam[i]->name, &ps, &pm);
		for (ks = 0; ks < PLOT_SHADES; ks++) {
			for (km = 0; km < PLOT_MARKER_COUNT; km++) {
				int cs = (ps + ks) % PLOT_SHADES, cm = (pm + km) % PLOT_MARKER_COUNT;
				/* fewest uses first, then closeness to the preferred pair */
				int cost = (pair_used[cs][cm] ? 1000 : 0) +
					   (shade_used[cs] + marker_used[cm]) * 64 + ks + km;
				if (best < 0 || cost < best) {
					best = cost;
					s = cs;
					m = cm;
				}
			}
		}
		shade_used[s]++;
		marker_used[m]++;
		pair_used[s][m] = 1;
		fam[i]->style.vendor = v;
		fam[i]->style.shade = s;
		fam[i]->style.marker = (enum plot_marker)m;
		fam[i]->style.color = plot_vendor_shade(v, s);
	}
	free(fam);
}

void plot_palette_add(struct plot_palette *pal, const char *system, const char *vendor)
{
	size_t i;
	struct pal_entry *e;

	if (!system)
		system = "";
	for (i = 0; i < pal->n; i++)
		if (!strcmp(pal->e[i].name, system))
			return;
	if (pal->n == pal->alloc) {
		pal->alloc = pal->alloc ? 2 * pal->alloc : 8;
		pal->e = ab_realloc(pal->e, pal->alloc * sizeof(*pal->e));
	}
	e = &pal->e[pal->n++];
	memset(e, 0, sizeof(*e));
	e->name = ab_strdup(system);
	e->vendor = plot_vendor_from_name(vendor);
	assign(pal, e->vendor);
}

void plot_palette_style(const struct plot_palette *pal, const char *system, const char *vendor,
			struct plot_style *out)
{
	size_t i;
	int s, m;

	if (!system)
		system = "";
	for (i = 0; pal && i < pal->n; i++) {
		if (!strcmp(pal->e[i].name, system)) {
			*out = pal->e[i].style;
			return;
		}
	}
	preferred(system, &s, &m);
	out->vendor = plot_vendor_from_name(vendor);
	out->shade = s;
	out->marker = (enum plot_marker)m;
	out->color = plot_vendor_shade(out->vendor, s);
}

