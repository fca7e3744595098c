/*
 * cost.c - the prices file (jansson) and the cost formulas; see cost.h
 * for the file format and every formula.
 */
#include "core/compat.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "model/cost.h"

#include <math.h>
#include <jansson.h>

/* Unset keys are NAN while parsing; defaults are applied after merging. */
enum key_scope { SCOPE_SYSTEM = 1 << 0, SCOPE_TOP = 1 << 1 };
enum key_range { RANGE_MONEY, RANGE_PUE, RANGE_POSITIVE, RANGE_FRACTION };

struct price_key {
	const char *name;
	size_t off;
	unsigned scope;
	enum key_range range;
};

static const struct price_key keys[] = {
	{ "price_per_device", offsetof(struct cost_prices, price_per_device), SCOPE_SYSTEM,
	  RANGE_MONEY },
	{ "price_per_node", offsetof(struct cost_prices, price_per_node), SCOPE_SYSTEM,
	  RANGE_MONEY },
	{ "node_overhead", offsetof(struct cost_prices, node_overhead), SCOPE_SYSTEM | SCOPE_TOP,
	  RANGE_MONEY },
	{ "electricity_price_per_kwh", offsetof(struct cost_prices, electricity_price_per_kwh),
	  SCOPE_SYSTEM | SCOPE_TOP, RANGE_MONEY },
	{ "pue", offsetof(struct cost_prices, pue), SCOPE_SYSTEM | SCOPE_TOP, RANGE_PUE },
	{ "lifetime_years", offsetof(struct cost_prices, lifetime_years), SCOPE_SYSTEM | SCOPE_TOP,
	  RANGE_POSITIVE },
	{ "utilisation", offsetof(struct cost_prices, utilisation), SCOPE_SYSTEM | SCOPE_TOP,
	  RANGE_FRACTION },
};

static double *field(struct cost_prices *p, const struct price_key *k)
{
	return (double *)(void *)((char *)p + k->off);
}

static double field_get(const struct cost_prices *p, const struct price_key *k)
{
	return *(const double *)(const void *)((const char *)p + k->off);
}

static void prices_unset(struct cost_prices *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < AB_ARRAY_SIZE(keys); i++)
		*field(p, &keys[i]) = NAN;
}

/* "prices.json: " or "prices.json: system \"JEDI\": " */
static void where(struct strbuf *sb, const char *name, const char *system)
{
	strbuf_addf(sb, "%s: ", name);
	if (system)
		strbuf_addf(sb, "system \"%s\": ", system);
}

static int bad(struct strbuf *err, const char *name, const char *system, const char *fmt,
	       const char *key, double v)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	where(&sb, name, system);
	strbuf_addf(&sb, fmt, key, v);
	rc = ab_fail(err, AB_EDATA, "%s", sb.buf);
	strbuf_release(&sb);
	return rc;
}

static int check_range(const struct price_key *k, double v, const char *name,
		       const char *system, struct strbuf *err)
{
	switch (k->range) {
	case RANGE_MONEY:
		if (!(v >= 0.0))
			return bad(err, name, system, "\"%s\" must not be negative (got %g)", k->name, v);
		break;
	case RANGE_PUE:
		if (!(v >= 1.0))
			return bad(err, name, system, "\"%s\" must be at least 1 (got %g)", k->name, v);
		break;
	case RANGE_POSITIVE:
		if (!(v > 0.0))
			return bad(err, name, system, "\"%s\" must be positive (got %g)", k->name, v);
		break;
	case RANGE_FRACTION:
		if (!(v > 0.0 && v <= 1.0))
			return bad(err, name, system, "\"%s\" must be in (0, 1] (got %g)", k->name, v);
		break;
	}
	return 0;
}

/*
 * Read the number keys of obj allowed in scope into p.  Keys starting with
 * "_" are comments; "skip" names one more key the caller handles.
 */
static int read_keys(json_t *obj, unsigned scope, const char *const *skip, size_t nskip,
		     struct cost_prices *p, const char *name, const char *system,
		     struct strbuf *err)
{
	const char *key;
	json_t *val;

	json_object_foreach(obj, key, val) {
		const struct price_key *k = NULL;
		size_t i;
		int handled = key[0] == '_';

		for (i = 0; !handled && i < nskip; i++)
			handled = !strcmp(key, skip[i]);
		if (handled)
			continue;
		for (i = 0; i < AB_ARRAY_SIZE(keys); i++)
			if (!strcmp(key, keys[i].name))
				k = &keys[i];
		if (!k || !(k->scope & scope)) {
			struct strbuf sb = STRBUF_INIT;
			int rc;

			where(&sb, name, system);
			if (k)
				strbuf_addf(&sb, "\"%s\" belongs in a system entry", key);
			else
				strbuf_addf(&sb, "unknown key \"%s\"", key);
			rc = ab_fail(err, AB_EDATA, "%s", sb.buf);
			strbuf_release(&sb);
			return rc;
		}
		if (!json_is_number(val)) {
			struct strbuf sb = STRBUF_INIT;
			int rc;

			where(&sb, name, system);
			strbuf_addf(&sb, "\"%s\" is not a number", key);
			rc = ab_fail(err, AB_EDATA, "%s", sb.buf);
			strbuf_release(&sb);
			return rc;
		}
		*field(p, k) = json_number_value(val);
		if (check_range(k, *field(p, k), name, system, err))
			return -AB_EDATA;
	}
	return 0;
}

/* Inherit unset keys from the file's defaults, then the built-in ones;
 * check what must be there. */
static int merge(struct cost_prices *p, const struct cost_prices *top, const char *name,
		 struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *missing = NULL;
	size_t i;
	int rc = 0, has_price = !isnan(p->price_per_device) || !isnan(p->price_per_node);

	for (i = 0; i < AB_ARRAY_SIZE(keys); i++)
		if (isnan(*field(p, &keys[i])))
			*field(p, &keys[i]) = field_get(top, &keys[i]);
	if (!has_price)
		missing = "\"price_per_device\" or \"price_per_node\"";
	else if (isnan(p->electricity_price_per_kwh))
		missing = "\"electricity_price_per_kwh\"";
	else if (isnan(p->lifetime_years))
		missing = "\"lifetime_years\"";
	if (missing) {
		where(&sb, name, p->system);
		strbuf_addf(&sb, "no %s", missing);
		rc = ab_fail(err, AB_EDATA, "%s", sb.buf);
	}
	strbuf_release(&sb);
	if (isnan(p->price_per_device))
		p->price_per_device = 0.0;
	if (isnan(p->price_per_node))
		p->price_per_node = 0.0;
	if (isnan(p->node_overhead))
		p->node_overhead = 0.0;
	if (isnan(p->pue))
		p->pue = 1.0;
	if (isnan(p->utilisation))
		p->utilisation = 1.0;
	return rc;
}

static int fail_json(struct strbuf *err, const char *name, const json_error_t *je)
{
	if (je->line > 0)
		return ab_fail(err, AB_EDATA, "%s:%d:%d: %s", name, je->line, je->column, je->text);
	return ab_fail(err, AB_EDATA, "%s: %s", name, je->text);
}

static int build(json_t *root, const char *name, struct cost_prices_file **out,
		 struct strbuf *err)
{
	static const char *const top_skip[] = { "currency", "systems" };
	struct cost_prices_file *f = ab_calloc(1, sizeof(*f));
	struct cost_prices top;
	json_t *cur, *systems, *val;
	const char *key;
	int rc;

	f->name = ab_strdup(name);
	if (!json_is_object(root)) {
		rc = ab_fail(err, AB_EDATA, "%s: not a JSON object", name);
		goto fail;
	}
	prices_unset(&top);
	if ((rc = read_keys(root, SCOPE_TOP, top_skip, AB_ARRAY_SIZE(top_skip), &top, name, NULL,
			    err)))
		goto fail;
	cur = json_object_get(root, "currency");
	if (cur && !json_is_string(cur)) {
		rc = ab_fail(err, AB_EDATA, "%s: \"currency\" is not a string", name);
		goto fail;
	}
	f->currency = ab_strdup(cur ? json_string_value(cur) : "EUR");
	systems = json_object_get(root, "systems");
	if (!json_is_object(systems) || !json_object_size(systems)) {
		rc = ab_fail(err, AB_EDATA, "%s: no \"systems\" object with prices", name);
		goto fail;
	}
	f->systems = ab_calloc(json_object_size(systems), sizeof(*f->systems));
	json_object_foreach(systems, key, val) {
		struct cost_prices *p = &f->systems[f->nsystems];

		prices_unset(p);
		p->system = ab_strdup(key);
		f->nsystems++;
		if (!json_is_object(val)) {
			rc = ab_fail(err, AB_EDATA, "%s: system \"%s\": not a JSON object", name, key);
			goto fail;
		}
		if ((rc = read_keys(val, SCOPE_SYSTEM, NULL, 0, p, name, key, err)) ||
		    (rc = merge(p, &top, name, err)))
			goto fail;
	}
	*out = f;
	return 0;
fail:
	cost_prices_file_free(f);
	return rc;
}

int cost_prices_parse(const char *text, size_t len, const char *name,
		      struct cost_prices_file **out, struct strbuf *err)
{
	json_error_t je;
	json_t *root;
	int rc;

	*out = NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return fail_json(err, name, &je);
	rc = build(root, name, out, err);
	json_decref(root);
	return rc;
}

int cost_prices_load(const char *path, struct cost_prices_file **out, struct strbuf *err)
{
	json_error_t je;
	json_t *root;
	FILE *fp;
	int rc;

	*out = NULL;
	fp = ab_fopen_input(path, err); /* a FIFO or a device would block or never end */
	if (!fp)
		return -AB_EIO;
	root = json_loadf(fp, JSON_REJECT_DUPLICATES, &je);
	if (ferror(fp)) {
		fclose(fp);
		json_decref(root);
		return ab_fail(err, AB_EIO, "cannot read \"%s\"", path);
	}
	fclose(fp);
	if (!root)
		return fail_json(err, path, &je);
	rc = build(root, path, out, err);
	json_decref(root);
	return rc;
}

const struct cost_prices *cost_prices_find(const struct cost_prices_file *f, const char *system)
{
	size_t i;

	for (i = 0; f && system && i < f->nsystems; i++)
		if (!strcmp(f->systems[i].system, system))
			return &f->systems[i];
	return NULL;
}

void cost_prices_file_free(struct cost_prices_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nsystems; i++)
		free(f->systems[i].system);
	free(f->systems);
	free(f->currency);
	free(f->name);
	free(f);
}

/* ---- formulas -------------------------------------------------------- */

/* TCO and cost per million units for scaled capex and electricity price. */
static struct cost_variant variant(const struct cost_result *r, const struct cost_prices *p,
				   double capex_factor, double elec_factor)
{
	struct cost_variant v;
	double energy_cost = r->energy_kwh * p->electricity_price_per_kwh * elec_factor;

	v.tco = r->capex * capex_factor + energy_cost;
	v.cost_per_million = v.tco / r->work * 1e6;
	return v;
}

int cost_compute(const struct cost_prices *p, const struct cost_usage *u,
		 struct cost_result *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	out->boundary = u->boundary;
	out->energy_kwh = out->energy_cost = out->tco = out->cost_per_million = NAN;
	out->energy_cost_per_million = NAN;
	if (!isfinite(u->nodes) || !(u->nodes > 0.0))
		return ab_fail(err, AB_EDATA, "node count %g is not positive", u->nodes);
	if (!isfinite(u->devices) || !(u->devices >= 0.0))
		return ab_fail(err, AB_EDATA, "device count %g is negative", u->devices);
	if (!isfinite(u->throughput) || !(u->throughput > 0.0))
		return ab_fail(err, AB_EDATA, "throughput %g is not positive", u->throughput);
	if (!isnan(u->avg_power_w) && !(u->avg_power_w >= 0.0 && isfinite(u->avg_power_w)))
		return ab_fail(err, AB_EDATA, "average power %g W is not a non-negative number",
			       u->avg_power_w);

	out->capex = u->devices * p->price_per_device +
		     u->nodes * (p->price_per_node + p->node_overhead);
	out->busy_hours = p->lifetime_years * COST_HOURS_PER_YEAR * p->utilisation;
	out->work = u->throughput * 3600.0 * out->busy_hours;
	out->perf_per_currency = out->capex > 0.0 ? u->throughput / out->capex : NAN;
	if (!isnan(u->avg_power_w)) {
		out->energy_kwh = u->avg_power_w / 1000.0 * out->busy_hours * p->pue;
		out->energy_cost = out->energy_kwh * p->electricity_price_per_kwh;
		out->tco = out->capex + out->energy_cost;
		out->cost_per_million = out->tco / out->work * 1e6;
		out->energy_cost_per_million = out->energy_cost / out->work * 1e6;
	}
	out->price_low = variant(out, p, 1.0 - COST_SENSITIVITY, 1.0);
	out->price_high = variant(out, p, 1.0 + COST_SENSITIVITY, 1.0);
	out->elec_low = variant(out, p, 1.0, 1.0 - COST_SENSITIVITY);
	out->elec_high = variant(out, p, 1.0, 1.0 + COST_SENSITIVITY);
	return 0;
}
