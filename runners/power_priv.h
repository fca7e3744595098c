/*
 * power_priv.h - the power sampler's backends (runners/ only).
 *
 * A backend measures a fixed set of devices, each a column of the
 * jpwr-compatible power CSV ("pynvml:0", "rocm:1", "gh:Module Power Socket
 * 0", "rapl:package-0").  read() fills watts[i] (NAN when this sample has
 * no value yet, e.g. the first RAPL reading) and joules[i], the device's
 * cumulative energy counter in J when it has one (NAN otherwise); the
 * sampler integrates the rest with jpwr's rule.
 *
 * Ownership: a backend owns its columns, info and library handle;
 * power_backend_free() releases everything (NULL-safe).
 */
#ifndef AB_POWER_PRIV_H
#define AB_POWER_PRIV_H

#include "run_priv.h"

enum power_boundary {
	POWER_GPU = 0,      /* nvml, rocm */
	POWER_MODULE,       /* gh:Module (GH200 superchip: contains the GPU) */
	POWER_CPU,          /* rapl packages */
	POWER_OTHER         /* other hwmon sensors: recorded, never summed */
};

struct power_backend {
	const char *name;           /* nvml, rocm, hwmon, rapl */
	size_t n;
	char **cols;                /* column names, n of them */
	enum power_boundary *boundary; /* per column */
	json_t *info;               /* {"backend", "driver_version"?, "devices": [...]} */
	int (*read)(struct power_backend *b, double t, double *watts, double *joules);
	void (*close)(struct power_backend *b);
	void *priv;
};

/* Each returns 1 with *out set, 0 when the backend is not present here
 * (why in err), or <0 on a real error. */
int power_nvml_open(struct power_backend **out, struct strbuf *err);
int power_rocm_open(struct power_backend **out, struct strbuf *err);
int power_hwmon_open(struct power_backend **out, struct strbuf *err);
int power_rapl_open(struct power_backend **out, struct strbuf *err);

/* power.c helpers for backends */
struct power_backend *power_backend_new(const char *name, size_t n);
void power_backend_free(struct power_backend *b);
/* ACCELBENCH_SYSFS_ROOT (tests) + path, e.g. "/sys/class/hwmon". */
void power_sysfs_path(struct strbuf *out, const char *path);
/* Read a small sysfs file into out (trimmed); 0 or -1. */
int power_read_text(const char *path, struct strbuf *out);

#endif
