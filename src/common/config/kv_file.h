/*
 * kv_file.h - the syntax of the project's configuration files
 * (deadline.conf, deadline-estimatord.conf): one Name=Value per line, '#'
 * starts a comment, blanks around names and values are ignored, and a
 * value is read as Slurm's own parser reads it: Name="..." is the text
 * between the quotes (possibly empty), an unquoted value must not be empty.
 */
#ifndef DL_KV_FILE_H
#define DL_KV_FILE_H

#include <stddef.h>

/* Called for each setting in file order; returns 0, or an errno value
 * with a message in msg (the line is prefixed by the parser). */
typedef int (*dl_kv_setter)(void *ctx, const char *name, const char *value,
			    char *msg, size_t msglen);

/* Walks text[0..len) and calls set for every setting; stops at the first
 * error: EINVAL (syntax: a line without '=', a badly quoted or empty
 * value, a NUL byte, a line over 4095 bytes) or the setter's value, with
 * "ORIGIN:LINE: ..." in err. */
int dl_kv_parse(const char *text, size_t len, const char *origin,
		dl_kv_setter set, void *ctx, char *err, size_t errlen);

#endif
