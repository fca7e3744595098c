/*
 * palette.c - drawing colours that are not a system's: the diverging
 * heatmap scale and the device colours of a power trace (the system
 * palette is views/palette.c).
 */
#include "plots/plot_priv.h"

/* PuOr (ColorBrewer, colour-blind safe): orange below 1, purple above. */
static const struct plot_rgb diverging[5] = {
	{ 0.702, 0.345, 0.024 }, /* #B35806 */
	{ 0.945, 0.639, 0.251 }, /* #F1A340 */
	{ 0.969, 0.969, 0.969 }, /* #F7F7F7 */
	{ 0.600, 0.557, 0.765 }, /* #998EC3 */
	{ 0.329, 0.153, 0.533 }, /* #542788 */
};

struct plot_rgb plot_diverging(double ratio, double lim)
{
	double t, pos;
	int k;

	if (!(ratio > 0) || !(lim > 1))
		return diverging[2];
	t = log(ratio) / log(lim);
	if (t < -1)
		t = -1;
	if (t > 1)
		t = 1;
	pos = (t + 1) * 2; /* 0..4 */
	k = (int)floor(pos);
	if (k >= 4)
		return diverging[4];
	return plot_mix(diverging[k], diverging[k + 1], pos - k);
}

static const struct plot_rgb qualitative[] = {
	{ 0.000, 0.447, 0.698 }, /* blue */
	{ 0.902, 0.624, 0.000 }, /* orange */
	{ 0.000, 0.620, 0.451 }, /* bluish green */
	{ 0.800, 0.475, 0.655 }, /* reddish purple */
	{ 0.337, 0.706, 0.914 }, /* sky blue */
	{ 0.835, 0.369, 0.000 }, /* vermillion */
	{ 0.250, 0.250, 0.250 }, /* near black */
	{ 0.750, 0.680, 0.100 }, /* darkened yellow */
};

struct plot_rgb plot_qualitative(size_t i)
{
	struct plot_rgb c = qualitative[i % AB_ARRAY_SIZE(qualitative)];

	/* a second round is darker so that 9..16 devices stay distinct */
	if ((i / AB_ARRAY_SIZE(qualitative)) % 2)
		c = plot_mix(c, (struct plot_rgb){ 0, 0, 0 }, 0.45);
	return c;
}
