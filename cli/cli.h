/*
 * cli.h - shared by the command files in cli/: the context every command
 * gets, option tables, and output helpers.
 *
 * Only cli/ parses argv and decides exit codes.  A command returns an
 * enum ab_exit value.
 */
#ifndef AB_CLI_H
#define AB_CLI_H

#include "core/core.h"
#include "model/db.h"
#include "views/views.h"
#include <jansson.h>

struct ctx {
	const char *db_path;  /* --db, $ACCELBENCH_DB or ./accelbench.db */
	int db_explicit;      /* db_path came from --db or $ACCELBENCH_DB */
	struct db *db;        /* opened by cli_need_db() per the command's flags */
	unsigned cmd_flags;   /* the running command's enum cmd_flags */
	const char *argv0;
};

enum cmd_flags {
	NO_DB = 0,
	NEED_DB_READ = 1 << 0,
	NEED_DB_WRITE = 1 << 1
};

enum opt_kind {
	OPT_FLAG,     /* int: set to 1 */
	OPT_STRING,   /* const char *: the argument */
	OPT_LIST,     /* struct opt_list: appended */
	OPT_INT,      /* long: parsed strictly */
	OPT_DOUBLE    /* double: parsed strictly */
};

struct opt_list {
	const char **v;
	size_t n;
};

struct opt {
	char short_name;        /* 0 = none */
	const char *long_name;
	enum opt_kind kind;
	void *value;
	const char *arg;        /* argument name for usage, NULL for flags */
	const char *help;
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct ctx *ctx);
	unsigned flags;
	const char *synopsis;   /* after "accelbench NAME " */
	const char *summary;    /* one line */
};

/* Open ctx->db as the command's flags say (read-only for NEED_DB_READ),
 * after its options were parsed so usage errors come first.  Returns
 * AB_OK or an exit code after printing why. */
int cli_need_db(struct ctx *ctx);

/* The command table (main.c), terminated by a zeroed entry. */
extern const struct cmd cli_commands[];
const struct cmd *cli_find(const char *name);

/*
 * Parse options from argv[1..]; non-options are moved to the front of argv
 * and their count returned (>= 0), or -AB_EUSAGE after printing an error.
 * "-h"/"--help" prints usage and returns -AB_OK - 100 (see CLI_HELP).
 */
#define CLI_HELP (-100)
int cli_parse(const struct cmd *cmd, const struct opt *opts, int argc, char **argv);
/*
 * For commands that take options only: parse them; returns 0 to go on, or
 * 1 with *code the exit status to return (usage printed for -h, or a usage
 * error reported, an unexpected argument included).
 */
int cli_parse_options(const char *name, const struct opt *opts, int argc, char **argv,
		      int *code);
void cli_usage(FILE *fp, const struct cmd *cmd, const struct opt *opts);
void cli_free_list(struct opt_list *l);

/* Print "accelbench: msg" on stderr and return code. */
int cli_error(int code, const char *fmt, ...) AB_PRINTF(2, 3);
/* Report a status from a module (0 or negative) with its message. */
int cli_status(int status, const struct strbuf *err);
/* Write a buffer to stdout (or -o FILE atomically); I/O errors -> AB_EIO. */
int cli_output(const char *path, const struct strbuf *data);
/* "note: N invalid runs left out" on stderr when the selection has any (notes.c). */
void cli_note_invalid(struct ctx *ctx, const char *suite, const char *benchmark,
		      const char *system);
/* names.c: a benchmark, system, metric or baseline (each NULL = not given)
 * that matches nothing in the database is a usage error naming the valid
 * ones; returns AB_OK or the exit status after printing why. */
int cli_check_names(struct ctx *ctx, const char *cmd, const char *suite, const char *benchmark,
		    const char *system, const char *metric, const char *baseline);
/* Print a JSON value (indented, sorted keys) followed by a newline. */
int cli_output_json(const char *path, json_t *j);
/* Append v as a JSON real: the shortest of 15..17 significant digits that
 * reads back equal, in jansson's spelling (40.0, 1e20, 1e-5). */
void cli_json_real(struct strbuf *out, double v);

/* Render an array of JSON objects as a table with these columns
 * ("key" or "key:Title" or "key:Title:r" for right alignment). */
struct table *cli_json_table(json_t *arr, const char *const *cols);

/* fmt.c: JSON values (null when missing: not finite, NULL, or <= 0 for
 * counts that are unknown), and the JSON object of a views/ record. */
json_t *cli_json_num(double v);
json_t *cli_json_pos(long v);
json_t *cli_json_str(const char *s);
json_t *cli_record_json(const struct views_record *r);
/*
 * The CSV of a JSON array of objects (what --json prints): one column per
 * field in order of first appearance, one row per object; an object with
 * an array of objects (scaling's "points") gives one row per element with
 * its own fields repeated; nested objects give dotted columns
 * ("metrics.energy.value", "metrics.energy.unit").  Numbers raw (15 significant digits, as JSON),
 * null empty, lists of names joined by ';'.  To stdout or path.
 */
int cli_output_csv(const char *path, json_t *arr);

/* Terminal tables fit CLI_WIDTH columns unless --wide: cli_table_fit()
 * hides columns of t in the order of drop[] until it fits and says in note
 * which ones; cli_wrap() appends text wrapped at width (continuation lines
 * indented by two). */
#define CLI_WIDTH 120
void cli_table_fit(struct table *t, const size_t *drop, size_t ndrop, int wide,
		   struct strbuf *note);
void cli_wrap(struct strbuf *out, const char *text, size_t width);

#endif
