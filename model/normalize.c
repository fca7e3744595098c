/*
 * normalize.c - the built-in table that maps accelerator names and CARAML
 * system tags to a vendor and a canonical accelerator name.
 *
 * Matching is case-insensitive on whole tokens: the first rule whose every
 * keyword occurs in the name wins, so more specific rules come first
 * ("H100 PCIe" before "H100", "GH200" before "H100").
 */
#include "core/compat.h"
#include "db.h"
#include "ingest/ingest.h"

#include <ctype.h>

struct accel_rule {
	const char *keys[3];   /* all must occur (as substrings, case-insensitive) */
	const char *vendor;
	const char *accelerator;
	long per_node;
};

/* CARAML system tags first (exact tags), then generic device names. */
static const struct accel_rule tags[] = {
	{ { "JEDI" }, "NVIDIA", "GH200", 4 },
	{ { "JUPITER" }, "NVIDIA", "GH200", 4 },
	{ { "WAIH100" }, "NVIDIA", "H100", 4 },
	{ { "MILA" }, "NVIDIA", "A100", 4 },
	{ { "A100" }, "NVIDIA", "A100", 4 },
	{ { "H100" }, "NVIDIA", "H100-PCIe", 4 },  /* CARAML's dc-h100: 4x H100-PCIe */
	{ { "GH200" }, "NVIDIA", "GH200", 1 },
	{ { "MI250" }, "AMD", "MI250", 8 },        /* 4 cards = 8 GCDs, counted as devices */
	{ { "MI300X" }, "AMD", "MI300X", 8 },
	{ { "MI300A" }, "AMD", "MI300A", 4 },
	{ { "GC200" }, "Graphcore", "GC200 IPU", 4 },
};

static const struct accel_rule rules[] = {
	{ { "GB200" }, "NVIDIA", "GB200", 0 },
	{ { "GH200" }, "NVIDIA", "GH200", 0 },
	{ { "Grace Hopper" }, "NVIDIA", "GH200", 0 },
	{ { "H100", "PCIe" }, "NVIDIA", "H100-PCIe", 0 },
	{ { "H100", "NVL" }, "NVIDIA", "H100-NVL", 0 },
	{ { "H200" }, "NVIDIA", "H200", 0 },
	{ { "H100" }, "NVIDIA", "H100", 0 },
	{ { "B200" }, "NVIDIA", "B200", 0 },
	{ { "A100" }, "NVIDIA", "A100", 0 },
	{ { "A30" }, "NVIDIA", "A30", 0 },
	{ { "A10" }, "NVIDIA", "A10", 0 },
	{ { "L40S" }, "NVIDIA", "L40S", 0 },
	{ { "L40" }, "NVIDIA", "L40", 0 },
	{ { "L4" }, "NVIDIA", "L4", 0 },
	{ { "RTX 4090" }, "NVIDIA", "RTX 4090", 0 },
	{ { "RTX 6000" }, "NVIDIA", "RTX 6000", 0 },
	{ { "GeForce" }, "NVIDIA", "GeForce", 0 },
	{ { "V100" }, "NVIDIA", "V100", 0 },
	{ { "MI300X" }, "AMD", "MI300X", 0 },
	{ { "MI300A" }, "AMD", "MI300A", 0 },
	{ { "MI325X" }, "AMD", "MI325X", 0 },
	{ { "MI250" }, "AMD", "MI250", 8 },
	{ { "MI210" }, "AMD", "MI210", 0 },
	{ { "MI100" }, "AMD", "MI100", 0 },
	{ { "GC200" }, "Graphcore", "GC200 IPU", 4 },
	{ { "IPU" }, "Graphcore", "IPU", 0 },
	{ { "CS-2" }, "Cerebras", "CS-2", 1 },
	{ { "CS-3" }, "Cerebras", "CS-3", 1 },
	{ { "WSE" }, "Cerebras", "WSE", 1 },
	{ { "TPU" }, "Google", "TPU", 0 },
	{ { "Gaudi" }, "Intel", "Gaudi", 0 },
	{ { "Max 1550" }, "Intel", "Max 1550", 0 },
	{ { "Xeon" }, "CPU", "Xeon", 0 },
	{ { "EPYC" }, "CPU", "EPYC", 0 },
	{ { "Grace" }, "CPU", "Grace", 0 },
};

static int icontains(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	for (; *hay; hay++) {
		for (i = 0; i < n; i++)
			if (!hay[i] || tolower((unsigned char)hay[i]) != tolower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

static int match(const struct accel_rule *r, const char *name)
{
	size_t k;

	for (k = 0; k < AB_ARRAY_SIZE(r->keys) && r->keys[k]; k++)
		if (!icontains(name, r->keys[k]))
			return 0;
	return 1;
}

int db_normalize_accel(const char *name, struct db_accel *out)
{
	size_t i;

	if (!name || !*name)
		return -1;
	for (i = 0; i < AB_ARRAY_SIZE(tags); i++) {
		if (!strcmp(name, tags[i].keys[0])) {
			out->vendor = tags[i].vendor;
			out->accelerator = tags[i].accelerator;
			out->per_node = tags[i].per_node;
			return 0;
		}
	}
	for (i = 0; i < AB_ARRAY_SIZE(rules); i++) {
		if (match(&rules[i], name)) {
			out->vendor = rules[i].vendor;
			out->accelerator = rules[i].accelerator;
			out->per_node = rules[i].per_node;
			return 0;
		}
	}
	return -1;
}

int db_normalize_accelerator(const char *accelerator, struct db_accel *out)
{
	if (db_normalize_accel(accelerator, out) == 0)
		return 0;
	/* not in the table, but it says who made it ("NVIDIA RTX A5000") */
	out->vendor = ingest_vendor_of(accelerator);
	if (!out->vendor)
		return -1;
	out->accelerator = accelerator;
	out->per_node = 0;
	return 0;
}
