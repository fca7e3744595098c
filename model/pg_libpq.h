/*
 * pg_libpq.h - libpq, loaded at first use (core/dynlib.h): model/pg*.c call
 * PQexec() & co. as usual, through this header.
 *
 * accelbench is not linked with libpq: loading it (and the TLS, Kerberos
 * and LDAP libraries it pulls in) at every start costs ~8 ms, and only
 * `pg`, `push` and `pull` talk to PostgreSQL.  pg_connect() calls
 * pg_libpq_load() first, and every other libpq call needs the connection
 * it returns, so no call runs before the table is filled.
 *
 * How: <libpq-fe.h> still declares every type and prototype.
 * struct pg_libpq holds one pointer per function we call, each declared
 * from the real prototype (__typeof__), and below, every name is
 * redirected to its pointer: PQexec(c, q) becomes (pg_libpq_fn.PQexec)(c, q).
 * A function called without a line in PG_LIBPQ_SYMS and a redirect fails to
 * link (no -lpq), a redirect without the line fails to compile.
 * pg_libpq.c defines PG_LIBPQ_NO_REDIRECT: it names the fields themselves.
 *
 * Ownership and threads: pg_libpq_fn (and the load's outcome, static in
 * pg_libpq.c) is written once, under pthread_once, by the first
 * pg_libpq_load(), and read-only afterwards: a table of constants in all but
 * name, so it meets "no globals beyond read-only tables".  push uses it
 * from two threads, both started after pg_connect() loaded it.
 */
#ifndef AB_PG_LIBPQ_H
#define AB_PG_LIBPQ_H

#include "core/core.h"

#include <libpq-fe.h>

#define PG_LIBPQ_SYMS(X)                                                       \
	X(PQclear) X(PQcmdStatus) X(PQcmdTuples) X(PQconnectdb)                \
	X(PQconninfoFree) X(PQconninfoParse) X(PQdb) X(PQerrorMessage)         \
	X(PQescapeLiteral) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfreemem)  \
	X(PQgetCopyData) X(PQgetResult) X(PQgetisnull) X(PQgetvalue) X(PQhost) \
	X(PQntuples) X(PQport) X(PQputCopyData) X(PQputCopyEnd) X(PQreset)     \
	X(PQresultErrorField) X(PQresultErrorMessage) X(PQresultStatus)        \
	X(PQsendQuery) X(PQsetNoticeProcessor) X(PQstatus)                     \
	X(PQtransactionStatus) X(PQuser)

#define PG_LIBPQ_FIELD(f) __typeof__(f) *f;
struct pg_libpq {
	PG_LIBPQ_SYMS(PG_LIBPQ_FIELD)
};
#undef PG_LIBPQ_FIELD

extern struct pg_libpq pg_libpq_fn;

/* Load libpq.so.5 (once per process; later calls return the first
 * outcome): 0, or -AB_EIO with err naming the library and the Debian
 * package to install. */
int pg_libpq_load(struct strbuf *err);

#ifndef PG_LIBPQ_NO_REDIRECT
#define PQclear (pg_libpq_fn.PQclear)
#define PQcmdStatus (pg_libpq_fn.PQcmdStatus)
#define PQcmdTuples (pg_libpq_fn.PQcmdTuples)
#define PQconnectdb (pg_libpq_fn.PQconnectdb)
#define PQconninfoFree (pg_libpq_fn.PQconninfoFree)
#define PQconninfoParse (pg_libpq_fn.PQconninfoParse)
#define PQdb (pg_libpq_fn.PQdb)
#define PQerrorMessage (pg_libpq_fn.PQerrorMessage)
#define PQescapeLiteral (pg_libpq_fn.PQescapeLiteral)
#define PQexec (pg_libpq_fn.PQexec)
#define PQexecParams (pg_libpq_fn.PQexecParams)
#define PQfinish (pg_libpq_fn.PQfinish)
#define PQfreemem (pg_libpq_fn.PQfreemem)
#define PQgetCopyData (pg_libpq_fn.PQgetCopyData)
#define PQgetResult (pg_libpq_fn.PQgetResult)
#define PQgetisnull (pg_libpq_fn.PQgetisnull)
#define PQgetvalue (pg_libpq_fn.PQgetvalue)
#define PQhost (pg_libpq_fn.PQhost)
#define PQntuples (pg_libpq_fn.PQntuples)
#define PQport (pg_libpq_fn.PQport)
#define PQputCopyData (pg_libpq_fn.PQputCopyData)
#define PQputCopyEnd (pg_libpq_fn.PQputCopyEnd)
#define PQreset (pg_libpq_fn.PQreset)
#define PQresultErrorField (pg_libpq_fn.PQresultErrorField)
#define PQresultErrorMessage (pg_libpq_fn.PQresultErrorMessage)
#define PQresultStatus (pg_libpq_fn.PQresultStatus)
#define PQsendQuery (pg_libpq_fn.PQsendQuery)
#define PQsetNoticeProcessor (pg_libpq_fn.PQsetNoticeProcessor)
#define PQstatus (pg_libpq_fn.PQstatus)
#define PQtransactionStatus (pg_libpq_fn.PQtransactionStatus)
#define PQuser (pg_libpq_fn.PQuser)
#endif

#endif
