/*
 * replay_main.c - runs a libFuzzer target over every file of its corpus
 * directory (and any files given as arguments), so that `make check`
 * exercises each parser with the corpus even without clang.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	uint8_t chunk[4096];

	if (!f) {
		perror(path);
		return 1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			buf = realloc(buf, cap);
			if (!buf) {
				fclose(f);
				return 1;
			}
		}
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *) "", len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, rc = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++, files++)
			rc |= run_file(argv[i]);
	} else {
		DIR *d = opendir(CORPUS_DIR);
		struct dirent *e;

		if (!d) {
			perror(CORPUS_DIR);
			return 1;
		}
		while ((e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR,
				 e->d_name);
			rc |= run_file(path);
			files++;
		}
		closedir(d);
	}
	printf("replayed %d inputs\n", files);
	return rc || !files;
}
