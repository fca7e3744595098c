/*
 * compat.h - included first by every accelbench source file.
 *
 * Pulls in the C library headers every module uses and then poisons the
 * unbounded string functions, so that using them is a compile error rather
 * than a review comment.  Build strings with struct strbuf instead.
 */
#ifndef AB_COMPAT_H
#define AB_COMPAT_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(AB_NO_POISON)
#pragma GCC poison sprintf vsprintf strcpy strcat strncpy strtok gets
#endif

#define AB_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define AB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define AB_UNUSED __attribute__((unused))
/* for the few short helpers the hot loops call per field, which the
 * compiler would otherwise call out of line once they grow past its limit */
#define AB_ALWAYS_INLINE __attribute__((always_inline))
#else
#define AB_PRINTF(f, a)
#define AB_UNUSED
#define AB_ALWAYS_INLINE
#endif

#endif
