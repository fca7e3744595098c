/*
 * error.h - exit codes and errors-as-values.
 *
 * Module functions return 0 on success or a negative status, -AB_EDATA,
 * -AB_EIO or -AB_EINTERNAL, and describe the failure in a caller-owned
 * struct strbuf.  Only cli/ turns a status into an exit code (ab_exit_code).
 * Messages are lowercase, failure first, subject quoted, with the data
 * position as "file:line[:col]: what".
 */
#ifndef AB_ERROR_H
#define AB_ERROR_H

#include "compat.h"
#include "strbuf.h"

enum ab_exit {
	AB_OK = 0,
	AB_EDATA = 1,     /* input data rejected */
	AB_EUSAGE = 2,    /* bad command line */
	AB_EIO = 3,       /* file system or database I/O failure */
	AB_EINTERNAL = 4  /* a bug or an impossible state */
};

/* Replace err's contents by the message and return -code. */
int ab_fail(struct strbuf *err, enum ab_exit code, const char *fmt, ...) AB_PRINTF(3, 4);
/* Same, with "file:line: " in front (line 0 omits the line). */
int ab_fail_at(struct strbuf *err, enum ab_exit code, const char *file, long line,
	       const char *fmt, ...) AB_PRINTF(5, 6);
/* Prefix an existing message with "file:line: ". */
void ab_error_prefix(struct strbuf *err, const char *file, long line);
/* Map a status (0 or negative) to a process exit code. */
int ab_exit_code(int status);
const char *ab_exit_name(enum ab_exit code);

#endif
