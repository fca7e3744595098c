/*
 * inventory.c - the inventory view: systems under test with where each
 * fact came from, the provenance of the sources, run status counts and,
 * for an appendix, every run.  Decides the data note a renderer must show
 * ("simulated example data" when any listed system is simulated).
 */
#include "core/compat.h"
#include "views/views.h"

int views_inventory_build(struct db *db, const struct db_inv_query *q, size_t max_runs,
			  struct views_inventory *out, struct strbuf *err)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = db_inventory_load(db, q, max_runs, &out->inv, err);
	if (rc < 0)
		return rc;
	if (!out->inv.nsystems) {
		db_inventory_release(&out->inv);
		return ab_fail(err, AB_EDATA, "no runs match the selection");
	}
	out->data_note = out->inv.simulated ? VIEWS_SIMULATED_NOTE : NULL;
	return 0;
}

void views_inventory_release(struct views_inventory *v)
{
	db_inventory_release(&v->inv);
	memset(v, 0, sizeof(*v));
}
