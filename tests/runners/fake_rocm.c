/*
 * fake_rocm.c - a stand-in librocm_smi64.so for the power sampler tests
 * (built by tests/cli/t5001-power.sh; never shipped).  Scripted readings:
 *   FAKE_ROCM_POWER="300:5"  device d's k-th reading is base_d + k * step_d W
 *   FAKE_ROCM_ENERGY=J       each energy-counter read adds J joules
 *                            (resolution 15.3 uJ per count, like an MI250);
 *                            unset: the counter reads 0 (unsupported)
 * Only the older rsmi_dev_power_ave_get is provided, as on ROCm < 5.6.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXD 8

static double base[MAXD], step[MAXD];
static unsigned long calls[MAXD], ecalls[MAXD];
static uint32_t ndev;

int rsmi_init(uint64_t flags);
int rsmi_shut_down(void);
int rsmi_num_monitor_devices(uint32_t *n);
int rsmi_dev_power_ave_get(uint32_t d, uint32_t sensor, uint64_t *uw);
int rsmi_dev_energy_count_get(uint32_t d, uint64_t *count, float *res, uint64_t *ts);
int rsmi_dev_name_get(uint32_t d, char *buf, size_t len);
int rsmi_dev_serial_number_get(uint32_t d, char *buf, uint32_t len);
int rsmi_dev_unique_id_get(uint32_t d, uint64_t *id);
int rsmi_version_str_get(int comp, char *buf, uint32_t len);

int rsmi_init(uint64_t flags)
{
	const char *s = getenv("FAKE_ROCM_POWER");
	char *end;

	(void)flags;
	ndev = 0;
	while (s && *s && ndev < MAXD) {
		base[ndev] = strtod(s, &end);
		step[ndev] = *end == ':' ? strtod(end + 1, &end) : 0;
		ndev++;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return ndev ? 0 : 8;
}

int rsmi_shut_down(void) { return 0; }

int rsmi_num_monitor_devices(uint32_t *n)
{
	*n = ndev;
	return 0;
}

int rsmi_dev_power_ave_get(uint32_t d, uint32_t sensor, uint64_t *uw)
{
	(void)sensor;
	if (d >= ndev)
		return 2;
	*uw = (uint64_t)((base[d] + step[d] * (double)calls[d]++) * 1e6 + 0.5);
	return 0;
}

int rsmi_dev_energy_count_get(uint32_t d, uint64_t *count, float *res, uint64_t *ts)
{
	const char *e = getenv("FAKE_ROCM_ENERGY");

	if (d >= ndev)
		return 2;
	*res = 15.3f;
	*ts = 0;
	/* counts of 15.3 uJ; starts at 1000 counts so it is "supported" */
	*count = e ? 1000 + (uint64_t)(atof(e) * 1e6 / 15.3f * (double)ecalls[d]++ + 0.5) : 0;
	return 0;
}

int rsmi_dev_name_get(uint32_t d, char *buf, size_t len)
{
	(void)d;
	snprintf(buf, len, "AMD Instinct MI250X");
	return 0;
}

int rsmi_dev_serial_number_get(uint32_t d, char *buf, uint32_t len)
{
	snprintf(buf, len, "RFAKE%02u", (unsigned)d);
	return 0;
}

int rsmi_dev_unique_id_get(uint32_t d, uint64_t *id)
{
	*id = 0x1234000000000000ull + d;
	return 0;
}

int rsmi_version_str_get(int comp, char *buf, uint32_t len)
{
	(void)comp;
	snprintf(buf, len, "6.2.4-fake");
	return 0;
}
