/*
 * table.h - a small grid of strings for terminal tables and CSV.
 *
 * Ownership: the table owns copies of every string added to it;
 * table_free() (NULL-safe) releases them all.
 */
#ifndef AB_TABLE_H
#define AB_TABLE_H

#include "compat.h"
#include "strbuf.h"

enum table_align { TABLE_LEFT = 0, TABLE_RIGHT = 1 };

struct table;

struct table *table_new(void);
void table_free(struct table *t);
/* Columns are added first; NULL cells print as empty. */
void table_add_column(struct table *t, const char *title, enum table_align align);
size_t table_columns(const struct table *t);
size_t table_rows(const struct table *t);
/* Start a new row; then set cells by column index. */
void table_add_row(struct table *t);
void table_set(struct table *t, size_t col, const char *value);
void table_setf(struct table *t, size_t col, const char *fmt, ...) AB_PRINTF(3, 4);
const char *table_get(const struct table *t, size_t row, size_t col);
const char *table_title(const struct table *t, size_t col);

/* Leave column col out of the text rendering (CSV keeps it). */
void table_hide_column(struct table *t, size_t col);
/* Width in characters of the widest line table_render_text() writes. */
size_t table_text_width(const struct table *t);
/* Aligned text: header, a dashed rule, rows; columns separated by two spaces. */
void table_render_text(const struct table *t, struct strbuf *out);
/* RFC 4180 CSV: quotes only where needed, "\n" line ends. */
void table_render_csv(const struct table *t, struct strbuf *out);
/* Quote one CSV field into out. */
void csv_add_field(struct strbuf *out, const char *s);

#endif
