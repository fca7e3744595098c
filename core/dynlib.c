/*
 * dynlib.c - open optional shared libraries by SONAME and fill a table of
 * function pointers from them; see dynlib.h.
 */
#include "compat.h"
#include "dynlib.h"
#include "error.h"

#include <dlfcn.h>
#include <stdlib.h>

int dynlib_once(struct dynlib_once *o, void (*load)(void), struct strbuf *err)
{
	pthread_once(&o->once, load);
	if (o->rc) {
		strbuf_reset(err);
		strbuf_addbuf(err, &o->err);
	}
	return o->rc;
}

int dynlib_load(const struct dynlib *libs, size_t nlibs, void *table, const char *what,
		struct strbuf *err)
{
	const char *dir = secure_getenv("AB_DLOPEN_DIR");
	struct strbuf path = STRBUF_INIT;
	size_t i, j;
	int rc = 0;

	for (i = 0; i < nlibs && !rc; i++) {
		const struct dynlib *l = &libs[i];
		void *h;

		strbuf_reset(&path);
		if (dir && *dir)
			strbuf_addf(&path, "%s/", dir);
		strbuf_addstr(&path, l->soname);
		h = dlopen(path.buf, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			const char *why = dlerror();
			rc = ab_fail(err, AB_EIO,
				     "cannot load %s (%s): install the Debian package %s (%s)",
				     l->soname, what, l->package, why ? why : "dlopen failed");
			break;
		}
		for (j = 0; j < l->nsyms; j++) {
			void *p = dlsym(h, l->syms[j].name);
			if (!p) {
				rc = ab_fail(err, AB_EIO,
					     "%s lacks %s (%s): install a current %s",
					     l->soname, l->syms[j].name, what, l->package);
				break;
			}
			/* POSIX guarantees a data pointer from dlsym converts to
			 * the function pointer type the field has */
			memcpy((char *)table + l->syms[j].offset, &p, sizeof(p));
		}
	}
	strbuf_release(&path);
	return rc;
}
