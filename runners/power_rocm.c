/*
 * power_rocm.c - AMD GPUs through ROCm SMI, loaded at run time with
 * dlopen("librocm_smi64.so").  Per device: rsmi_dev_power_get (µW, ROCm
 * 5.6+) or rsmi_dev_power_ave_get (µW, older), and the energy counter
 * rsmi_dev_energy_count_get (counts × resolution µJ).  Columns are named
 * like jpwr's rocm method, "rocm:<index>" (an MI250 has two per package).
 */
#include "core/compat.h"
#include "power_priv.h"

#include <dlfcn.h>
#include <math.h>

typedef int rsmi_ret;   /* rsmi_status_t: 0 = RSMI_STATUS_SUCCESS */

struct rocm {
	void *lib;
	rsmi_ret (*init)(uint64_t);
	rsmi_ret (*shutdown)(void);
	rsmi_ret (*count)(uint32_t *);
	rsmi_ret (*power)(uint32_t, uint64_t *, int *);
	rsmi_ret (*power_ave)(uint32_t, uint32_t, uint64_t *);
	rsmi_ret (*energy)(uint32_t, uint64_t *, float *, uint64_t *);
	rsmi_ret (*name)(uint32_t, char *, size_t);
	rsmi_ret (*serial)(uint32_t, char *, uint32_t);
	rsmi_ret (*uid)(uint32_t, uint64_t *);
	rsmi_ret (*version)(int, char *, uint32_t);
};

static int rocm_read(struct power_backend *b, double t, double *watts, double *joules)
{
	struct rocm *r = b->priv;
	uint32_t i;

	(void)t;
	for (i = 0; i < b->n; i++) {
		uint64_t uw, cnt, ts;
		float res;
		int type;
		if (r->power && r->power(i, &uw, &type) == 0)
			watts[i] = (double)uw / 1e6;
		else if (r->power_ave && r->power_ave(i, 0, &uw) == 0)
			watts[i] = (double)uw / 1e6;
		if (r->energy && r->energy(i, &cnt, &res, &ts) == 0 && cnt > 0)
			joules[i] = (double)cnt * (double)res / 1e6;
	}
	return 0;
}

static void rocm_close(struct power_backend *b)
{
	struct rocm *r = b->priv;

	if (!r)
		return;
	r->shutdown();
	dlclose(r->lib);
	free(r);
	b->priv = NULL;
}

#define RSMI_SYM(field, name) (*(void **)&r->field = dlsym(r->lib, name))

int power_rocm_open(struct power_backend **out, struct strbuf *err)
{
	struct rocm *r = ab_calloc(1, sizeof(*r));
	struct power_backend *b;
	uint32_t count = 0, i;
	char buf[256];
	json_t *devs;

	*out = NULL;
	r->lib = dlopen("librocm_smi64.so", RTLD_NOW | RTLD_LOCAL);
	if (!r->lib)
		r->lib = dlopen("librocm_smi64.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!r->lib) {
		strbuf_addstr(err, "librocm_smi64.so not found (no ROCm)");
		free(r);
		return 0;
	}
	RSMI_SYM(init, "rsmi_init");
	RSMI_SYM(shutdown, "rsmi_shut_down");
	RSMI_SYM(count, "rsmi_num_monitor_devices");
	RSMI_SYM(power, "rsmi_dev_power_get");
	RSMI_SYM(power_ave, "rsmi_dev_power_ave_get");
	RSMI_SYM(energy, "rsmi_dev_energy_count_get");
	RSMI_SYM(name, "rsmi_dev_name_get");
	RSMI_SYM(serial, "rsmi_dev_serial_number_get");
	RSMI_SYM(uid, "rsmi_dev_unique_id_get");
	RSMI_SYM(version, "rsmi_version_str_get");
	if (!r->init || !r->shutdown || !r->count || (!r->power && !r->power_ave)) {
		strbuf_addstr(err, "librocm_smi64.so lacks the power functions");
		goto fail;
	}
	if (r->init(0) != 0) {
		strbuf_addstr(err, "rsmi_init failed (amdgpu driver not loaded?)");
		goto fail;
	}
	if (r->count(&count) != 0 || count == 0 || count > 1024) {
		strbuf_addstr(err, "ROCm SMI reports no GPU");
		r->shutdown();
		goto fail;
	}
	b = power_backend_new("rocm", count);
	b->priv = r;
	b->read = rocm_read;
	b->close = rocm_close;
	/* RSMI_SW_COMP_DRIVER = 0 */
	if (r->version && r->version(0, buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		json_object_set_new(b->info, "driver_version", json_string(buf));
	}
	devs = json_object_get(b->info, "devices");
	for (i = 0; i < count; i++) {
		json_t *d = json_object();
		struct strbuf col = STRBUF_INIT;
		uint64_t uid, cnt, ts;
		float res;

		strbuf_addf(&col, "rocm:%u", i);
		b->cols[i] = strbuf_detach(&col, NULL);
		b->boundary[i] = POWER_GPU;
		json_object_set_new(d, "column", json_string(b->cols[i]));
		if (r->name && r->name(i, buf, sizeof(buf)) == 0) {
			buf[sizeof(buf) - 1] = '\0';
			json_object_set_new(d, "name", json_string(buf));
		}
		if (r->serial && r->serial(i, buf, sizeof(buf)) == 0) {
			buf[sizeof(buf) - 1] = '\0';
			json_object_set_new(d, "serial", json_string(buf));
		}
		if (r->uid && r->uid(i, &uid) == 0) {
			char hex[32];
			if (snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)uid) > 0)
				json_object_set_new(d, "unique_id", json_string(hex));
		}
		json_object_set_new(d, "energy_counter",
				    json_boolean(r->energy && r->energy(i, &cnt, &res, &ts) == 0));
		json_array_append_new(devs, d);
	}
	*out = b;
	return 1;
fail:
	dlclose(r->lib);
	free(r);
	return 0;
}
