/*
 * cost.h - prices file and cost figures: performance per currency unit,
 * total cost of ownership over the lifetime, cost per million units of
 * work, and their sensitivity to the hardware and electricity prices.
 * Pure computation plus a parser (no database, no printing).
 *
 * Prices file (JSON, UTF-8; keys starting with "_" are comments; any
 * other unknown key is an error, so a typo cannot silently drop a price):
 *   {
 *     "currency": "EUR",                      optional, default "EUR"
 *     "electricity_price_per_kwh": 0.25,      defaults for every system
 *     "pue": 1.2,                             optional, default 1.0
 *     "lifetime_years": 5,
 *     "utilisation": 0.8,                     optional, default 1.0
 *     "node_overhead": 10000,                 optional, default 0
 *     "systems": {
 *       "JEDI":  { "price_per_device": 35000, "node_overhead": 25000 },
 *       "MI250": { "price_per_node": 150000, "pue": 1.4 }
 *     }
 *   }
 * A system entry holds price_per_device and/or price_per_node and may
 * override any default.  After merging, each system needs a price,
 * electricity_price_per_kwh >= 0 and lifetime_years > 0; pue >= 1;
 * 0 < utilisation <= 1; every money figure >= 0.
 *
 * Formulas (the XLSX report writes the same ones as live formulas):
 *   capex        = devices * price_per_device
 *                  + nodes * (price_per_node + node_overhead)
 *   busy_hours   = lifetime_years * 8760 * utilisation   (8760 h a year)
 *   energy_kwh   = avg_power_w / 1000 * busy_hours * pue
 *   energy_cost  = energy_kwh * electricity_price_per_kwh
 *   tco          = capex + energy_cost
 *   work         = throughput * 3600 * busy_hours         (units over life)
 *   perf_per_currency     = throughput / capex            (units/s per EUR)
 *   cost_per_million      = tco / work * 1e6
 *   energy_cost_per_million = energy_cost / work * 1e6
 * Idle power outside busy hours is not charged (NEEDSWORK: an idle_power
 * key).  Sensitivity: the same with capex x 0.8 / 1.2 and with the
 * electricity price x 0.8 / 1.2.  avg_power_w is the power of the whole
 * measured configuration at its boundary; a GPU-only figure underestimates
 * the energy cost, which is why the boundary is carried into the result.
 */
#ifndef AB_COST_H
#define AB_COST_H

#include "core/compat.h"
#include "core/strbuf.h"
#include "model/energy.h"

#define COST_HOURS_PER_YEAR 8760.0
#define COST_SENSITIVITY 0.20

struct cost_prices {
	char *system;                     /* owned by the prices file */
	double price_per_device;          /* 0 when not given */
	double price_per_node;            /* 0 when not given */
	double node_overhead;
	double electricity_price_per_kwh;
	double pue;
	double lifetime_years;
	double utilisation;
};

struct cost_prices_file {
	char *name;          /* file name used in messages */
	char *currency;
	struct cost_prices *systems;
	size_t nsystems;     /* in file order */
};

/*
 * Read and validate a prices file.  On success *out is a new file the
 * caller frees with cost_prices_file_free().  Errors are values: -AB_EIO
 * when the file cannot be read, -AB_EDATA for bad JSON
 * ("prices.json:3:14: ...") or bad content ("prices.json: system \"JEDI\":
 * ..."); *out is NULL then.
 */
int cost_prices_load(const char *path, struct cost_prices_file **out, struct strbuf *err);
/* The same from text; name is used in messages. */
int cost_prices_parse(const char *text, size_t len, const char *name,
		      struct cost_prices_file **out, struct strbuf *err);
/* The prices of a system (exact name), or NULL. */
const struct cost_prices *cost_prices_find(const struct cost_prices_file *f, const char *system);
void cost_prices_file_free(struct cost_prices_file *f);

/* What was measured for one configuration. */
struct cost_usage {
	double nodes;
	double devices;
	double throughput;   /* work units per second (tokens/s, images/s...) */
	double avg_power_w;  /* whole configuration; NAN if not measured */
	enum energy_boundary boundary;
};

struct cost_variant {
	double tco;
	double cost_per_million;
};

struct cost_result {
	enum energy_boundary boundary;   /* of the energy figures */
	double capex;
	double busy_hours;
	double energy_kwh;               /* energy figures NAN without power */
	double energy_cost;
	double tco;
	double work;
	double perf_per_currency;
	double cost_per_million;
	double energy_cost_per_million;
	struct cost_variant price_low;   /* capex x 0.8 */
	struct cost_variant price_high;  /* capex x 1.2 */
	struct cost_variant elec_low;    /* electricity price x 0.8 */
	struct cost_variant elec_high;   /* electricity price x 1.2 */
};

/*
 * Cost figures of one configuration.  Returns 0 or -AB_EDATA (nodes not
 * > 0, devices < 0, throughput not > 0, negative power).  Without a
 * measured power (NAN) the energy-dependent figures are NAN and capex,
 * perf_per_currency still come out.
 */
int cost_compute(const struct cost_prices *p, const struct cost_usage *u,
		 struct cost_result *out, struct strbuf *err);

#endif
