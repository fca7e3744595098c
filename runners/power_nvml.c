/*
 * power_nvml.c - NVIDIA GPUs through NVML, loaded at run time with
 * dlopen("libnvidia-ml.so.1") so accelbench neither links against nor
 * needs the driver.  Per GPU: nvmlDeviceGetPowerUsage (mW) and, where the
 * GPU supports it (Volta and newer), nvmlDeviceGetTotalEnergyConsumption
 * (mJ since the driver loaded).  Columns are named like jpwr's pynvml
 * method, "pynvml:<index>", over all GPUs of the node.
 */
#include "core/compat.h"
#include "power_priv.h"

#include <dlfcn.h>
#include <math.h>

typedef int nvml_ret;               /* nvmlReturn_t: 0 = NVML_SUCCESS */
typedef void *nvml_dev;             /* nvmlDevice_t: an opaque pointer */

struct nvml {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	nvml_ret (*count)(unsigned int *);
	nvml_ret (*handle)(unsigned int, nvml_dev *);
	nvml_ret (*power)(nvml_dev, unsigned int *);
	nvml_ret (*energy)(nvml_dev, unsigned long long *);
	nvml_ret (*name)(nvml_dev, char *, unsigned int);
	nvml_ret (*uuid)(nvml_dev, char *, unsigned int);
	nvml_ret (*serial)(nvml_dev, char *, unsigned int);
	nvml_ret (*driver)(char *, unsigned int);
	nvml_dev *dev;
};

static int nvml_read(struct power_backend *b, double t, double *watts, double *joules)
{
	struct nvml *n = b->priv;
	size_t i;

	(void)t;
	for (i = 0; i < b->n; i++) {
		unsigned int mw;
		unsigned long long mj;
		if (n->power(n->dev[i], &mw) == 0)
			watts[i] = mw / 1000.0;
		if (n->energy && n->energy(n->dev[i], &mj) == 0)
			joules[i] = (double)mj / 1000.0;
	}
	return 0;
}

static void nvml_close(struct power_backend *b)
{
	struct nvml *n = b->priv;

	if (!n)
		return;
	n->shutdown();
	dlclose(n->lib);
	free(n->dev);
	free(n);
	b->priv = NULL;
}

#define NVML_SYM(field, name, opt)                                             \
	do {                                                                   \
		*(void **)&n->field = dlsym(n->lib, name);                     \
		if (!n->field && !(opt)) {                                     \
			strbuf_addf(err, "libnvidia-ml.so.1 lacks %s", name);  \
			goto fail;                                             \
		}                                                              \
	} while (0)

int power_nvml_open(struct power_backend **out, struct strbuf *err)
{
	struct nvml *n = ab_calloc(1, sizeof(*n));
	struct power_backend *b = NULL;
	unsigned int count = 0, i;
	char buf[256];
	json_t *devs;

	*out = NULL;
	n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!n->lib) {
		strbuf_addstr(err, "libnvidia-ml.so.1 not found (no NVIDIA driver)");
		free(n);
		return 0;
	}
	NVML_SYM(init, "nvmlInit_v2", 0);
	NVML_SYM(shutdown, "nvmlShutdown", 0);
	NVML_SYM(count, "nvmlDeviceGetCount_v2", 0);
	NVML_SYM(handle, "nvmlDeviceGetHandleByIndex_v2", 0);
	NVML_SYM(power, "nvmlDeviceGetPowerUsage", 0);
	NVML_SYM(energy, "nvmlDeviceGetTotalEnergyConsumption", 1);
	NVML_SYM(name, "nvmlDeviceGetName", 1);
	NVML_SYM(uuid, "nvmlDeviceGetUUID", 1);
	NVML_SYM(serial, "nvmlDeviceGetSerial", 1);
	NVML_SYM(driver, "nvmlSystemGetDriverVersion", 1);
	if (n->init() != 0) {
		strbuf_addstr(err, "nvmlInit failed (driver not loaded?)");
		dlclose(n->lib);
		free(n);
		return 0;
	}
	if (n->count(&count) != 0 || count == 0 || count > 1024) {
		strbuf_addstr(err, "NVML reports no GPU");
		n->shutdown();
		dlclose(n->lib);
		free(n);
		return 0;
	}
	n->dev = ab_calloc(count, sizeof(*n->dev));
	b = power_backend_new("nvml", count);
	b->priv = n;
	b->read = nvml_read;
	b->close = nvml_close;
	if (n->driver && n->driver(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		json_object_set_new(b->info, "driver_version", json_string(buf));
	}
	devs = json_object_get(b->info, "devices");
	for (i = 0; i < count; i++) {
		json_t *d = json_object();
		struct strbuf col = STRBUF_INIT;
		unsigned long long mj;

		strbuf_addf(&col, "pynvml:%u", i);
		b->cols[i] = strbuf_detach(&col, NULL);
		b->boundary[i] = POWER_GPU;
		json_object_set_new(d, "column", json_string(b->cols[i]));
		if (n->handle(i, &n->dev[i]) != 0) {
			json_decref(d);
			strbuf_addf(err, "NVML cannot open GPU %u", i);
			power_backend_free(b);
			return -AB_EIO;
		}
		if (n->name && n->name(n->dev[i], buf, sizeof(buf)) == 0) {
			buf[sizeof(buf) - 1] = '\0';
			json_object_set_new(d, "name", json_string(buf));
		}
		if (n->uuid && n->uuid(n->dev[i], buf, sizeof(buf)) == 0) {
			buf[sizeof(buf) - 1] = '\0';
			json_object_set_new(d, "uuid", json_string(buf));
		}
		if (n->serial && n->serial(n->dev[i], buf, sizeof(buf)) == 0) {
			buf[sizeof(buf) - 1] = '\0';
			json_object_set_new(d, "serial", json_string(buf));
		}
		json_object_set_new(d, "energy_counter",
				    json_boolean(n->energy && n->energy(n->dev[i], &mj) == 0));
		json_array_append_new(devs, d);
	}
	*out = b;
	return 1;
fail:
	dlclose(n->lib);
	free(n);
	return 0;
}
