/*
 * pg.h - the central PostgreSQL store: `accelbench pg init`, `push` and
 * `pull` (docs/postgres.md).
 *
 * SQLite stays the local database; PostgreSQL is the shared store that
 * several clusters push to and dashboards read.  The central schema (in
 * the PostgreSQL schema "accelbench") is created and upgraded by numbered
 * migrations like the SQLite one; read-only dashboard views live in the
 * schema "accelbench_dash", the only one the reader role may use.
 *
 * push: every local source the store lacks (by sha256 and identity) lands
 * in its own PostgreSQL transaction, its rows binary-COPYed straight into
 * the central tables with ids reserved in the store (two lanes, each with
 * its own connection).  A run whose dedupe key the store already has
 * (another site pushed it through another file) is stored once and gains
 * a second provenance.
 * pull: the store's sources (all, or those holding runs that match a
 * filter) are written into the local SQLite database through the ingest
 * sink, one SQLite transaction per source, so every reading command works
 * offline afterwards.
 *
 * Connection strings come from the caller (--to/--from or $ACCELBENCH_PG):
 * a libpq keyword/value string or URI.  Passwords come from libpq's usual
 * places and are never printed: pg_conn_label() names a connection
 * without them, and error messages never repeat the connection string.
 *
 * Ownership: pg_connect() returns a connection the caller releases with
 * pg_free() (NULL-safe).  struct db is borrowed.  Error text goes to the
 * caller's strbuf.
 */
#ifndef AB_PG_H
#define AB_PG_H

#include "core/core.h"
#include "model/db.h"

struct pg;

/* Connect; url may be a keyword/value string or a postgresql:// URI. */
int pg_connect(struct pg **out, const char *url, struct strbuf *err);
void pg_free(struct pg *pg);
/* "user@host:port/dbname" (or the socket directory for host); never a password. */
void pg_conn_label(struct pg *pg, struct strbuf *out);

/* The newest central schema version this binary knows. */
int pg_schema_latest(void);

struct pg_init_opts {
	const char *reader_role;   /* role that may only read the dashboard views; NULL = none */
	int schema_version;        /* upgrade only up to this version (0: the latest) */
};

struct pg_init_result {
	int version_before;        /* 0 = no accelbench schema before */
	int version_after;
	int reader_created;        /* 1 when the reader role did not exist before */
};

/* Create or upgrade the central schema (idempotent, safe to run from
 * several clients at once) and create/grant the reader role. */
int pg_init(struct pg *pg, const struct pg_init_opts *o, struct pg_init_result *res,
	    struct strbuf *err);

/* Check every reference between the central tables (docs/postgres.md,
 * "Integrity"): report(ctx, what, n) per check, n rows that break it;
 * *problems = their sum. */
int pg_check(struct pg *pg, void (*report)(void *ctx, const char *what, long long n), void *ctx,
	     long long *problems, struct strbuf *err);

/* What push and pull did, also passed to the progress callback. */
struct pg_totals {
	long sources_total;        /* sources considered */
	long sources_done;         /* sources handled so far (sent, or present already) */
	long sources_sent;         /* transferred now */
	long sources_present;      /* the other side had them already */
	long runs, metrics, power_samples, systems;
	long runs_deduped;         /* runs the other side already held through another source */
	long retries;              /* transactions retried after a deadlock */
	long sources_converted;    /* sources sent with text that was not UTF-8 (converted) */
	uint64_t bytes;            /* COPY bytes transferred */
};

struct pg_progress {
	/* called now and then during a transfer, and once at the end (final = 1) */
	void (*fn)(void *ctx, const struct pg_totals *t, int final);
	void *ctx;
	/* a warning about the transfer (may be NULL); msg may hold any bytes */
	void (*warn)(void *ctx, const char *msg);
};

/* Push every local source the store lacks.  Text that is not UTF-8 (the
 * local database keeps a file's bytes; the store holds UTF-8) is sent with
 * each invalid byte read as Latin-1 and NUL as U+FFFD, with a warning
 * naming the source: one odd file never blocks the pushes after it. */
int pg_push(struct pg *pg, struct db *db, const struct pg_progress *prog,
	    struct pg_totals *totals, struct strbuf *err);

/* Which part of the store to pull; NULL fields match everything. */
struct pg_filter {
	const char *suite;
	const char *benchmark;
	const char *system;        /* system name or display name */
	const char *since;         /* runs started on or after this ISO 8601 date/time */
};

/* Pull the store's sources that the local database lacks (those holding at
 * least one matching run when a filter is given, each whole) into it, one
 * SQLite transaction per source.  totals->sources_sent counts the sources
 * pulled, sources_present those the local database had already. */
int pg_pull(struct pg *pg, struct db *db, const struct pg_filter *f,
	    const struct pg_progress *prog, struct pg_totals *totals, struct strbuf *err);

#endif
