/*
 * systems_file.c - the user's systems file: what the tools do not say about
 * a machine (vendor, accelerator, devices per node, TDP, site), keyed by the
 * system's name as the tools call it.  Ingested like any result file, so it
 * is versioned by its sha256 and lands in one transaction:
 *
 *   { "accelbench_systems": {
 *       "archer2:compute-gpu-torch": { "vendor": "AMD", "accelerator": "MI210",
 *                                      "accelerators_per_node": 4, "tdp_w": 300,
 *                                      "site": "EPCC" },
 *       "archer2:compute": { "vendor": "CPU", "accelerator": "EPYC 7742" } } }
 *
 * Known keys fill the system's columns; any other key goes to its meta.
 * What the file says wins over the built-in name table afterwards.
 */
#include "core/compat.h"
#include "ingest_priv.h"

#include <ctype.h>

#define SYSTEMS_FILE_MAX (4u << 20) /* a hand-written file; anything bigger is not one */

static int detect_systems(const char *path, const unsigned char *head, size_t len)
{
	size_t i = 0;

	while (i < len && isspace(head[i]))
		i++;
	if (i == len || head[i] != '{')
		return 0;
	return memmem(head, len, "\"accelbench_systems\"", 20) ? 90 : 0;
}

static const char *str_field(struct ingest_file *f, json_t *o, const char *key, const char *name,
			     struct strbuf *err, int *rc)
{
	json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		*rc = ingest_fail_at(f, err, 0, "system '%s': '%s' must be a string", name, key);
		return NULL;
	}
	return json_string_value(v);
}

static int parse_systems(struct ingest_file *f, struct strbuf *err)
{
	static const char *const known[] = { "vendor", "accelerator", "accelerators_per_node",
					     "host_cpu", "interconnect", "site", "tdp_w",
					     "display_name" };
	json_error_t je;
	json_t *root, *systems, *o;
	const char *name;
	int rc = 0;

	if (f->size > SYSTEMS_FILE_MAX)
		return ingest_fail_at(f, err, 0, "systems file larger than %u bytes", SYSTEMS_FILE_MAX);
	/* small by construction (checked above), so one read is fine */
	root = json_loadf(f->fp, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ingest_fail_at(f, err, je.line, "%s", je.text);
	systems = json_object_get(root, "accelbench_systems");
	if (!json_is_object(systems)) {
		json_decref(root);
		return ingest_fail_at(f, err, 0, "'accelbench_systems' must be an object of systems");
	}
	json_object_foreach(systems, name, o) {
		struct ingest_system sys = { 0 };
		json_t *meta, *v;
		const char *key;
		size_t k;

		if (!json_is_object(o)) {
			rc = ingest_fail_at(f, err, 0, "system '%s': expected an object", name);
			break;
		}
		sys.name = name;
		sys.vendor = str_field(f, o, "vendor", name, err, &rc);
		sys.accelerator = str_field(f, o, "accelerator", name, err, &rc);
		sys.host_cpu = str_field(f, o, "host_cpu", name, err, &rc);
		sys.interconnect = str_field(f, o, "interconnect", name, err, &rc);
		sys.site = str_field(f, o, "site", name, err, &rc);
		sys.display_name = str_field(f, o, "display_name", name, err, &rc);
		if (rc)
			break;
		v = json_object_get(o, "accelerators_per_node");
		if (v && !(json_is_integer(v) && json_integer_value(v) > 0)) {
			rc = ingest_fail_at(f, err, 0, "system '%s': 'accelerators_per_node' must be a "
						       "positive integer", name);
			break;
		}
		sys.accelerators_per_node = v ? (long)json_integer_value(v) : 0;
		v = json_object_get(o, "tdp_w");
		if (v && !(json_is_number(v) && json_number_value(v) > 0)) {
			rc = ingest_fail_at(f, err, 0, "system '%s': 'tdp_w' must be a positive number",
					    name);
			break;
		}
		sys.tdp_w = v ? json_number_value(v) : 0;
		meta = json_object();
		json_object_set_new(meta, "described", json_string(ingest_basename(f->path)));
		json_object_foreach(o, key, v) {
			for (k = 0; k < AB_ARRAY_SIZE(known) && strcmp(known[k], key); k++)
				;
			if (k == AB_ARRAY_SIZE(known))
				json_object_set(meta, key, v);
		}
		sys.meta = meta;
		rc = ingest_emit_system(f, &sys, err);
		json_decref(meta);
		if (rc)
			break;
	}
	json_decref(root);
	return rc;
}

const struct ingest_format ingest_fmt_systems_file = {
	"accelbench-systems", 0, detect_systems, parse_systems
};
