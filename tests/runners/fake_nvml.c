/*
 * fake_nvml.c - a stand-in libnvidia-ml.so.1 for the power sampler tests
 * (built by tests/cli/t5001-power.sh; never shipped).  Scripted readings:
 *   FAKE_NVML_POWER="100:10,200:0"  GPU g's k-th power reading is
 *                                   base_g + k * step_g watts
 *   FAKE_NVML_ENERGY=J              each energy-counter read adds J joules
 *                                   (unset: counter "not supported")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXG 8

static double base[MAXG], step[MAXG];
static unsigned long calls[MAXG], ecalls[MAXG];
static unsigned ngpu;

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount_v2(unsigned int *n);
int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void **h);
int nvmlDeviceGetPowerUsage(void *h, unsigned int *mw);
int nvmlDeviceGetTotalEnergyConsumption(void *h, unsigned long long *mj);
int nvmlDeviceGetName(void *h, char *buf, unsigned int len);
int nvmlDeviceGetUUID(void *h, char *buf, unsigned int len);
int nvmlDeviceGetSerial(void *h, char *buf, unsigned int len);
int nvmlSystemGetDriverVersion(char *buf, unsigned int len);

int nvmlInit_v2(void)
{
	const char *s = getenv("FAKE_NVML_POWER");
	char *end;

	ngpu = 0;
	while (s && *s && ngpu < MAXG) {
		base[ngpu] = strtod(s, &end);
		step[ngpu] = *end == ':' ? strtod(end + 1, &end) : 0;
		ngpu++;
		s = *end == ',' ? end + 1 : end;
		if (!*end)
			break;
	}
	return ngpu ? 0 : 1;
}

int nvmlShutdown(void) { return 0; }

int nvmlDeviceGetCount_v2(unsigned int *n)
{
	*n = ngpu;
	return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int i, void **h)
{
	if (i >= ngpu)
		return 2;
	*h = (void *)(size_t)(i + 1);
	return 0;
}

static unsigned idx(void *h) { return (unsigned)((size_t)h - 1); }

int nvmlDeviceGetPowerUsage(void *h, unsigned int *mw)
{
	unsigned g = idx(h);

	*mw = (unsigned int)((base[g] + step[g] * (double)calls[g]++) * 1000.0 + 0.5);
	return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(void *h, unsigned long long *mj)
{
	const char *e = getenv("FAKE_NVML_ENERGY");
	unsigned g = idx(h);

	if (!e)
		return 3; /* NVML_ERROR_NOT_SUPPORTED */
	*mj = (unsigned long long)(atof(e) * 1000.0 * (double)ecalls[g]++ + 0.5);
	return 0;
}

int nvmlDeviceGetName(void *h, char *buf, unsigned int len)
{
	(void)h;
	snprintf(buf, len, "NVIDIA A100-SXM4-40GB");
	return 0;
}

int nvmlDeviceGetUUID(void *h, char *buf, unsigned int len)
{
	snprintf(buf, len, "GPU-fake-%04u", idx(h));
	return 0;
}

int nvmlDeviceGetSerial(void *h, char *buf, unsigned int len)
{
	snprintf(buf, len, "FAKE%04u", idx(h));
	return 0;
}

int nvmlSystemGetDriverVersion(char *buf, unsigned int len)
{
	snprintf(buf, len, "535.00-fake");
	return 0;
}
