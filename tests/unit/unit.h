/*
 * unit.h - shared includes for the cmocka unit tests.
 */
#ifndef AB_UNIT_H
#define AB_UNIT_H

#include "core/compat.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/core.h"

/* Directory of ../shared/samples, or NULL when shared/ is absent. */
static inline const char *unit_samples_dir(void)
{
	const char *s = getenv("AB_SAMPLES");
	return (s && *s) ? s : NULL;
}

#define assert_double_near(a, b, rel) \
	assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fabs((double)(b)) + 1e-300)

#endif
