/* fuzz_import.c - the libFuzzer targets of the importers (`make fuzz`;
 * tests/README.md tells how to reproduce a crash).
 *
 * Built once per importer, FUZZ_FORMAT naming it ("moodlexml", "gift",
 * "aiken", "csv"), so that each keeps its own coverage-guided corpus.  An
 * input goes the way of `qbc import --from FUZZ_FORMAT`: qb_imp_run()
 * (UTF-8 check, the importer, the bank finished), then every check, the
 * bank written as a .qb source (write_qb.c) and that source read back and
 * checked again, all in memory.  Built with clang's
 * -fsanitize=fuzzer,address,undefined, so a crash, a leak or undefined
 * behaviour stops the run with the input that caused it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "diag.h"
#include "import.h"
#include "model.h"
#include "read.h"
#include "validate.h"
#include "write_qb.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"gift\"' (or moodlexml, aiken, csv)"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char path[] = "fuzz." FUZZ_FORMAT, back_path[] = "fuzz-back.qb";
	char *text = qb_xmalloc(size + 1); /* the importers read a NUL-terminated file */
	if (size)
		memcpy(text, data, size);
	text[size] = '\0';
	qb_diag_add_source(path, text, size);

	qb_imp im = {0};
	im.bank = qb_bank_new(path);
	im.bank->dir = "/nonexistent-fuzz-dir"; /* media is kept in memory, never written */
	im.bank->id = "fuzz";
	im.bank->id_loc = (qb_loc){path, 1, 1};
	im.file = im.bank->path;
	im.lang = "en";
	const char *fmt = FUZZ_FORMAT;
	if (qb_imp_run(&im, &fmt, text, size) == 0) {
		qb_validate(im.bank);
		qb_buf src = QB_BUF_INIT;
		qb_qb_source(&src, im.bank);
		qb_bank *back = qb_read_text(back_path, src.ptr ? src.ptr : "", src.len);
		if (back) {
			qb_validate(back);
			qb_bank_free(back);
		}
		qb_diag_drop_source(back_path);
		qb_buf_dispose(&src);
	}
	qb_imp_dispose(&im);
	qb_bank_free(im.bank);
	qb_diag_drop_source(path);
	free(text);
	return 0;
}
