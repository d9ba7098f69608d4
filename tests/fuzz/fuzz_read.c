/* fuzz_read.c - the libFuzzer target of the plain-text reader and the
 * checks (`make fuzz`; tests/README.md tells how to reproduce a crash).
 *
 * Each input is read twice: whole (qb_read_text(), as `qbc check` reads a
 * bank given whole) and from a file in blocks of a size the input's first
 * byte picks (qb_read_file(), as a bank is read from disk: lines cut at
 * every block boundary), and each bank goes through every check.  Built
 * with clang's -fsanitize=fuzzer,address,undefined, so a crash, a leak or
 * undefined behaviour stops the run with the input that caused it. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diag.h"
#include "model.h"
#include "read.h"
#include "validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(qb_bank *bank, const char *path)
{
	if (bank) {
		qb_validate(bank);
		qb_bank_free(bank);
	}
	qb_diag_drop_source(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check(qb_read_text("fuzz.qb", (const char *)data, size), "fuzz.qb");

	/* The same bytes from a file (in memory), in blocks of 1 to 256
	 * bytes: the reader's block boundaries fall everywhere. */
	int fd = memfd_create("fuzz.qb", 0);
	if (fd < 0)
		return 0;
	size_t put = 0;
	while (put < size) {
		ssize_t n = write(fd, data + put, size - put);
		if (n <= 0)
			break;
		put += (size_t)n;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (put == size)
		check(qb_read_file(path, size ? (size_t)data[0] + 1 : 1), path);
	close(fd);
	return 0;
}
