/*
 * energy.h - energy to solution from power samples, and work per energy.
 * Pure computation (no database, no printing).
 *
 * Every figure carries its measurement boundary: a GPU-only reading and a
 * whole-node reading of the same run differ by the host, memory, fans and
 * network, so comparing them would be wrong; the boundary travels with the
 * number into tables and charts.
 *
 * Integration of samples (t in seconds, non-decreasing: two samples at one
 * time add nothing; power in W):
 *   trapezoid   E = sum_{i>=1} (P_i + P_{i-1}) / 2 (t_i - t_{i-1})
 *   jpwr        E = sum_{i>=1} P_i (t_i - t_{i-1})    (what jpwr's
 *               ctxmgr computes, formats/caraml.md 4.1; kept so our numbers
 *               can be checked against its energy files)
 * both reported in Wh (J / 3600).  avg power = trapezoid energy / duration.
 */
#ifndef AB_ENERGY_H
#define AB_ENERGY_H

#include "core/compat.h"
#include "core/strbuf.h"

enum energy_boundary {
	ENERGY_BOUNDARY_UNKNOWN = 0,
	ENERGY_BOUNDARY_GPU = 1,          /* accelerator device(s) only */
	ENERGY_BOUNDARY_MODULE = 2,       /* superchip module (GH200: GPU + CPU + memory) */
	ENERGY_BOUNDARY_NODE = 3,         /* whole node(s) at the wall / BMC */
	ENERGY_BOUNDARY_NODE_SWITCH = 4   /* nodes plus interconnect switches (MLPerf) */
};

/* "unknown", "gpu", "module", "node", "node+switch". */
const char *energy_boundary_name(enum energy_boundary b);
/* Parse the names above (also "device" = "gpu"); 0 or -AB_EDATA. */
int energy_boundary_parse(const char *s, enum energy_boundary *out, struct strbuf *err);

struct energy_summary {
	enum energy_boundary boundary;
	size_t n_samples;
	double t_start, t_end;
	double duration_s;
	double energy_wh;        /* trapezoid */
	double energy_wh_jpwr;   /* jpwr's product rule */
	double avg_power_w;      /* NAN when duration is 0 */
	double peak_power_w;
	int peak_is_bound;       /* 1: peak is an upper bound (see energy_sum) */
};

/*
 * Integrate one series of n >= 1 samples.  Returns 0 or -AB_EDATA (time
 * going backwards, a non-finite value, a negative power), the message
 * naming the 1-based sample.
 */
int energy_from_samples(const double *t, const double *w, size_t n,
			enum energy_boundary boundary, struct energy_summary *out,
			struct strbuf *err);

/* One device's series for energy_sum. */
struct energy_series {
	const double *t;
	const double *w;
	size_t n;
};

/*
 * Total over k devices measured together (e.g. the 4 GPUs of a node):
 * energies add; the duration spans all series; avg power = total energy /
 * duration.  When every series has the same timestamps the peak is the
 * peak of the summed power; otherwise it is the sum of the per-device
 * peaks, an upper bound, and peak_is_bound = 1.  Returns 0 or -AB_EDATA.
 */
int energy_sum(const struct energy_series *s, size_t k, enum energy_boundary boundary,
	       struct energy_summary *out, struct strbuf *err);

struct energy_eff {
	enum energy_boundary boundary;
	double work_per_wh;   /* e.g. tokens/Wh, images/Wh */
	double j_per_unit;    /* joules per token / image / sample */
};

/* From total work (tokens, images...) and energy in Wh.  NAN where a
 * denominator is not positive. */
void energy_efficiency(double work, double energy_wh, enum energy_boundary boundary,
		       struct energy_eff *out);
/* The same from a rate: throughput (units/s) and average power (W). */
void energy_efficiency_rate(double throughput, double avg_power_w,
			    enum energy_boundary boundary, struct energy_eff *out);

#endif
