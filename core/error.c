/*
 * error.c - errors as values; see error.h.
 */
#include "compat.h"
#include "error.h"

static const char *const exit_names[] = {
	[AB_OK] = "ok",
	[AB_EDATA] = "data rejected",
	[AB_EUSAGE] = "usage error",
	[AB_EIO] = "i/o error",
	[AB_EINTERNAL] = "internal error",
};

const char *ab_exit_name(enum ab_exit code)
{
	if ((size_t)code < AB_ARRAY_SIZE(exit_names))
		return exit_names[code];
	return "unknown";
}

int ab_fail(struct strbuf *err, enum ab_exit code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		strbuf_reset(err);
		va_start(ap, fmt);
		strbuf_vaddf(err, fmt, ap);
		va_end(ap);
	}
	return -(int)code;
}

int ab_fail_at(struct strbuf *err, enum ab_exit code, const char *file, long line,
	       const char *fmt, ...)
{
	va_list ap;

	if (err) {
		strbuf_reset(err);
		va_start(ap, fmt);
		strbuf_vaddf(err, fmt, ap);
		va_end(ap);
		ab_error_prefix(err, file, line);
	}
	return -(int)code;
}

void ab_error_prefix(struct strbuf *err, const char *file, long line)
{
	struct strbuf tmp = STRBUF_INIT;

	if (!err || !file)
		return;
	if (line > 0)
		strbuf_addf(&tmp, "%s:%ld: ", file, line);
	else
		strbuf_addf(&tmp, "%s: ", file);
	strbuf_addbuf(&tmp, err);
	strbuf_reset(err);
	strbuf_addbuf(err, &tmp);
	strbuf_release(&tmp);
}

int ab_exit_code(int status)
{
	if (status >= 0)
		return AB_OK;
	if (-status <= AB_EINTERNAL)
		return -status;
	return AB_EINTERNAL;
}
