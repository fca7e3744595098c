/*
 * num.h - strict, locale-independent number parsing and formatting.
 *
 * Parsing accepts the whole (trimmed) string or nothing; "nan", "inf" are
 * reported separately so callers can decide what a missing value means.
 * Formatting always uses '.' as the decimal point whatever LC_NUMERIC says.
 */
#ifndef AB_NUM_H
#define AB_NUM_H

#include "compat.h"
#include "strbuf.h"

enum num_kind {
	NUM_OK = 0,      /* a finite number */
	NUM_EMPTY = 1,   /* empty or blank */
	NUM_NAN = 2,     /* nan / NaN / null / None */
	NUM_INF = 3,     /* inf / -inf / Infinity */
	NUM_BAD = -1     /* not a number */
};

/* Parse s[0..len) as a double; *out is set for NUM_OK (and +-inf for NUM_INF). */
enum num_kind num_parse_double(const char *s, size_t len, double *out);
/* Narrow s[0..len) to drop the blanks (space, tab, CR, LF) at both ends:
 * the blanks the parsers here accept around a number. */
static inline void num_trim(const char **s, size_t *len)
{
	while (*len && (**s == ' ' || **s == '\t' || **s == '\r' || **s == '\n')) {
		(*s)++;
		(*len)--;
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t' ||
			(*s)[*len - 1] == '\r' || (*s)[*len - 1] == '\n'))
		(*len)--;
}
/* 1 when s[0..len) is a number that is not zero but reads as 0 or as a
 * subnormal double (1e-400: underflow, its digits are lost); 0 otherwise. */
int num_underflows(const char *s, size_t len);
/* Parse a (trimmed) decimal integer that fits in long long. */
enum num_kind num_parse_ll(const char *s, size_t len, long long *out);
/* Shortest "%.17g"-style repr that round-trips, with '.' decimal point. */
void num_format(struct strbuf *sb, double v);
/* Fixed decimals with optional thousands separator ',' (for tables). */
void num_format_fixed(struct strbuf *sb, double v, int decimals, int thousands);

#endif
