/* rev_bank.c - see rev_bank.h.  The speed work of the revision record:
 * every text's hashes on two threads and every question's on a third,
 * while the bank is checked and its record read. */
#include "rev_bank.h"
#include "params.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "fsutil.h"
#include "hash.h"
#include "i18n.h"
#include "markup.h"

#define HEX 17 /* 16 hex digits and a NUL */

/* A text's hash as tent keeps it: the first 8 bytes of its SHA-256. */
void qb_rev_text_hash8(uint8_t out[8], const char *s)
{
	uint8_t d[QB_SHA256_SIZE];
	qb_hash_sha256(d, s, strlen(s));
	memcpy(out, d, 8);
}

/* ---- hashing the bank ---- */

/* The images a text shows count as its content: each adds its path and
 * the hash of its bytes (nothing for a text without images, so records
 * of such banks stay as they were). */
typedef struct media_ctx {
	qb_buf *b;
	const char *dir;
} media_ctx;

static void hash_image(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(offset);
	const media_ctx *m = payload;
	char *path = qb_fs_join(m->dir, src);
	char *data = NULL;
	size_t len = 0;
	char h[HEX] = "missing";
	if (qb_fs_read(path, &data, &len) == 0)
		qb_hash_sha256_hex(h, 8, data, len);
	qb_buf_appendf(m->b, "\x1dimage %s=%s", src, h);
	free(data);
	free(path);
}

static void append_text(qb_buf *b, const qb_text *t, const char *lang, const char *dir)
{
	const char *s = t->present ? qb_text_get(t, lang) : NULL;
	qb_buf_puts(b, s ? s : "");
	if (s) {
		media_ctx m = {b, dir};
		qb_markup_images(s, hash_image, &m);
	}
	qb_buf_putc(b, '\x1e');
}

/* Everything of question q that a learner sees in lang, pictures included:
 * the first 8 bytes of its SHA-256, as qent keeps it. */
static void question_hash(uint8_t out[8], const qb_bank *bank, const qb_question *q,
                          const char *lang)
{
	qb_buf b = QB_BUF_INIT;
	qb_buf_appendf(&b, "%s\x1e", qb_qtype_name(q->type));
	for (size_t i = 0; i < q->ntags; i++)
		qb_buf_appendf(&b, "%s ", q->tags[i].name);
	qb_buf_putc(&b, '\x1e');
	append_text(&b, &q->prompt, lang, bank->dir);
	/* Its passage, only when it has one (the hashes of the others stay
	 * as they were): an edit of the passage changes its questions. */
	const qb_passage *passage = qb_question_passage(bank, q);
	if (passage) {
		qb_buf_appendf(&b, "passage %s\x1e", passage->id ? passage->id : "");
		append_text(&b, &passage->text, lang, bank->dir);
	}
	for (size_t i = 0; i < q->nchoices; i++) {
		qb_buf_putc(&b, q->choices[i].correct ? '*' : '-');
		append_text(&b, &q->choices[i].text, lang, bank->dir);
		append_text(&b, &q->choices[i].feedback, lang, bank->dir);
		/* What issue 10 added, only when written, so that the hashes
		 * of older questions stay as they were. */
		if (q->choices[i].pinned)
			qb_buf_putc(&b, '!');
		/* issue 36: a mark, only when written (older hashes stay) */
		if (q->choices[i].mark.den)
			qb_buf_appendf(&b, "%%%d/%u", q->choices[i].mark.num, (unsigned)q->choices[i].mark.den);
		if (qb_choice_match(&q->choices[i])->present)
			append_text(&b, qb_choice_match(&q->choices[i]), lang, bank->dir);
	}
	append_text(&b, &q->explanation, lang, bank->dir);
	if (qb_question_feedback_wrong(q)->present)
		append_text(&b, qb_question_feedback_wrong(q), lang, bank->dir);
	if (q->type == QB_QTYPE_NUMERIC) {
		const qb_numeric *num = qb_question_num(q);
		const char *unit = qb_question_rare(q)->unit;
		qb_buf_appendf(&b, "%.17g %.17g %.17g %s\x1e", num->value, num->lo, num->hi,
		               unit ? unit : "");
		/* further answers only when written: older hashes stay */
		for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
			qb_buf_appendf(&b, "%.17g %.17g %.17g =%.17g\x1e", m->num.value, m->num.lo,
			               m->num.hi, m->credit);
			if (m->feedback.present)
				append_text(&b, &m->feedback, lang, bank->dir);
		}
	}
	/* issue 38: a parameterised question's pool, what learners are shown
	 * (only when it has one: older hashes stay) */
	const qb_params *params = qb_question_params(q);
	for (size_t k = 0; params && k < params->npool; k++) {
		qb_buf_puts(&b, "draw");
		for (size_t i = 0; i <= params->nvars; i++)
			qb_buf_appendf(&b, " %.17g", qb_params_value(params, k, i));
		qb_buf_putc(&b, '\x1e');
	}
	if (q->case_sensitive)
		qb_buf_puts(&b, "case\x1e");
	if (qb_question_scoring(bank, q) == QB_SCORING_PARTIAL)
		qb_buf_puts(&b, "partial\x1e");
	if (qb_question_shuffles(bank, q))
		qb_buf_puts(&b, "shuffle\x1e");
	uint8_t d[QB_SHA256_SIZE];
	qb_hash_sha256(d, b.ptr ? b.ptr : "", b.len);
	memcpy(out, d, 8);
	qb_buf_dispose(&b);
}

/* The text of t in the bank's language k (O(1): model.h), by its index:
 * no lookup of the code, as this runs for every text several times. */
const char *qb_rev_text_in(const qb_bank *bank, const qb_text *t, size_t k)
{
	const qb_tr *tr = t->ntr ? qb_text_tr_at(t, k) : NULL;
	return tr ? tr->text : t->ntr ? qb_text_get(t, bank->langs[k].code) : NULL;
}

/* Works out row[k] for the element's text in each of the bank's languages. */
void qb_rev_hash_texts(qb_rev_text_hashes *row, const qb_bank *bank, const qb_text *t)
{
	for (size_t k = 0; k < bank->nlangs; k++) {
		const char *s = qb_rev_text_in(bank, t, k);
		const char *parts[] = {bank->langs[k].code, "=", s ? s : "", "\x1e"};
		uint8_t d[QB_SHA256_SIZE];
		qb_hash_sha256_strs(d, parts, QB_NELEM(parts));
		memcpy(row[k].lang, d, 8);
		qb_rev_text_hash8(row[k].text, s ? s : "");
	}
}

/* The element's description ("question 'x' option 2"), in buf. */
const char *qb_rev_elem_what(const qb_rev_elem_ref *r, char *buf, size_t size)
{
	switch (r->kind) {
	case QB_REV_W_TITLE:
		return _("the bank's title");
	case QB_REV_W_DESCRIPTION:
		return _("the bank's description");
	case QB_REV_W_PROMPT:
		snprintf(buf, size, _("question '%s' prompt"), r->qid);
		break;
	case QB_REV_W_OPTION:
		snprintf(buf, size, _("question '%s' option %zu"), r->qid, r->n);
		break;
	case QB_REV_W_FEEDBACK:
		snprintf(buf, size, _("question '%s' feedback %zu"), r->qid, r->n);
		break;
	case QB_REV_W_MATCH:
		snprintf(buf, size, _("question '%s' pair %zu, right side"), r->qid, r->n);
		break;
	case QB_REV_W_FEEDBACK_WRONG:
		snprintf(buf, size, _("question '%s' feedback-wrong"), r->qid);
		break;
	case QB_REV_W_EXPLANATION:
		snprintf(buf, size, _("question '%s' explanation"), r->qid);
		break;
	case QB_REV_W_PASSAGE:
		snprintf(buf, size, _("passage '%s'"), r->qid);
		break;
	}
	return buf;
}

/* "prefix-N" into buf, without printf: this runs for every option of
 * every question, several times a build. */
static const char *numbered(char *buf, const char *prefix, size_t n)
{
	char digits[24];
	size_t k = 0, len = strlen(prefix);
	do
		digits[k++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	memcpy(buf, prefix, len);
	while (k)
		buf[len++] = digits[--k];
	buf[len] = '\0';
	return buf;
}

void qb_rev_each_element(const qb_bank *bank, qb_rev_elem_fn fn, void *payload)
{
	qb_rev_elem_ref r = {QB_REV_W_TITLE, "-", 0};
	fn(payload, "-", "title", &bank->title, &r);
	if (bank->description.present) {
		r.kind = QB_REV_W_DESCRIPTION;
		fn(payload, "-", "description", &bank->description, &r);
	}
	for (size_t i = 0; i < bank->npassages; i++) {
		const qb_passage *p = &bank->passages[i];
		if (!p->id)
			continue;
		r = (qb_rev_elem_ref){QB_REV_W_PASSAGE, p->id, 0};
		fn(payload, p->id, "passage", &p->text, &r);
	}
	char elem[48];
	for (size_t i = 0; i < bank->nquestions; i++) {
		const qb_question *q = &bank->questions[i];
		if (!q->id)
			continue;
		r = (qb_rev_elem_ref){QB_REV_W_PROMPT, q->id, 0};
		fn(payload, q->id, "prompt", &q->prompt, &r);
		for (size_t c = 0; c < q->nchoices; c++) {
			r.n = c + 1;
			r.kind = QB_REV_W_OPTION;
			fn(payload, q->id, numbered(elem, "option-", c + 1), &q->choices[c].text, &r);
			if (q->choices[c].feedback.present) {
				r.kind = QB_REV_W_FEEDBACK;
				fn(payload, q->id, numbered(elem, "feedback-", c + 1),
				   &q->choices[c].feedback, &r);
			}
			if (qb_choice_match(&q->choices[c])->present) {
				r.kind = QB_REV_W_MATCH;
				fn(payload, q->id, numbered(elem, "match-", c + 1),
				   qb_choice_match(&q->choices[c]), &r);
			}
		}
		r.n = 0;
		if (qb_question_feedback_wrong(q)->present) {
			r.kind = QB_REV_W_FEEDBACK_WRONG;
			fn(payload, q->id, "feedback-wrong", qb_question_feedback_wrong(q), &r);
		}
		r.kind = QB_REV_W_FEEDBACK; /* a numeric question's further answers' */
		for (const qb_num_more *m = qb_question_num_more(q); m; m = m->next) {
			r.n++;
			if (m->feedback.present)
				fn(payload, q->id, numbered(elem, "answer-feedback-", r.n), &m->feedback, &r);
		}
		r.n = 0;
		r.kind = QB_REV_W_EXPLANATION;
		fn(payload, q->id, "explanation", &q->explanation, &r);
	}
}

/* Counts the elements (an upper bound of the texts per language). */
void qb_rev_count_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                       const qb_rev_elem_ref *what)
{
	QB_UNUSED(qid);
	QB_UNUSED(elem);
	QB_UNUSED(t);
	QB_UNUSED(what);
	(*(size_t *)payload)++;
}

/* ---- every text's hashes, on other cores ---- */

/* The rows are made on other threads while the bank is checked and its
 * record read, and used in element order by the stale check and then by
 * the update.  A bank whose rows fit in the budget (a twelfth of the room
 * the memory goal leaves, between ROWS_BUDGET and ROWS_MAX) keeps them
 * all; a bigger one keeps a window of them, the budget in all: the
 * threads stay at most that far ahead of the reader, and hash again from
 * the first element for a second pass (the build's update after its
 * stale check, started early by qb_rev_hashes_rewind()).  So the memory
 * stays small for a bank of any size.  ROW_WORKERS threads share the
 * rows by chunks, in turn: one alone was the last to finish of the
 * threads that run while the bank is checked, and the stale check waited
 * for it. */
#define ROWS_BUDGET ((size_t)2 << 20)
#define ROWS_MAX ((size_t)16 << 20)
#define ROWS_CHUNK ((size_t)256) /* rows published, and released, at once */
#define ROW_WORKERS 2

typedef struct row_worker {
	struct qb_rev_hashes *x;
	size_t w;           /* its chunks: those whose number % nworkers is w  */
	size_t next;        /* the element its pass over the bank is at       */
	bool stopped;
	pthread_t tid;
} row_worker;

struct qb_rev_hashes {
	const qb_bank *bank;
	size_t nelems;      /* qb_rev_each_element()'s calls                        */
	size_t window;      /* rows kept: all (nelems) or a ring of them      */
	qb_rev_text_hashes *rows;  /* window rows of bank->nlangs; row i at i % window */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	row_worker rw[ROW_WORKERS];
	size_t nworkers;    /* the threads making rows (0: none running)     */
	size_t done[ROW_WORKERS]; /* worker w's chunks before done[w] are
	                             ready                  (under mu)    */
	size_t low;         /* rows before low are no longer read (under mu) */
	bool stop;          /* the threads are asked to end    (under mu)    */
	size_t seen_ready;  /* the reader's: rows before it are known ready  */
	size_t seen_low;    /* the reader's last low                         */
	bool threaded;      /* the rows come from the threads                */
	/* Each question's hash in each language (question_hash()), on a
	 * thread of its own from the start: the update's question pass then
	 * only reads them.  NULL when that thread could not start. */
	uint8_t (*qh)[8];   /* question i's in language k at i * nlangs + k   */
	size_t qdone;       /* questions [0, qdone) are hashed  (under mu)    */
	size_t qseen;       /* the reader's copy of qdone                    */
	bool qstop;         /* the question thread is asked to end (under mu) */
	pthread_t qthread;
};

/* Waits until chunk c fits in the window.  False when the worker is to
 * stop. */
static bool chunk_room(qb_rev_hashes *x, size_t c)
{
	pthread_mutex_lock(&x->mu);
	while (!x->stop && x->window < x->nelems && (c + 1) * ROWS_CHUNK > x->low + x->window)
		pthread_cond_wait(&x->cv, &x->mu);
	bool go = !x->stop;
	pthread_mutex_unlock(&x->mu);
	return go;
}

/* Worker w finished its chunk that ends at row end. */
static void chunk_done(qb_rev_hashes *x, size_t w, size_t end)
{
	pthread_mutex_lock(&x->mu);
	x->done[w] = end;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

static void hash_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                      const qb_rev_elem_ref *what)
{
	QB_UNUSED(qid);
	QB_UNUSED(elem);
	QB_UNUSED(what);
	row_worker *r = payload;
	qb_rev_hashes *x = r->x;
	size_t i = r->next++;
	if (r->stopped || i >= x->nelems || (i / ROWS_CHUNK) % x->nworkers != r->w)
		return;
	if (i % ROWS_CHUNK == 0 && x->threaded && !chunk_room(x, i / ROWS_CHUNK)) {
		r->stopped = true;
		return;
	}
	qb_rev_hash_texts(x->rows + i % x->window * x->bank->nlangs, x->bank, t);
	if (x->threaded && ((i + 1) % ROWS_CHUNK == 0 || i + 1 == x->nelems))
		chunk_done(x, r->w, i + 1);
}

static void *hash_all(void *arg)
{
	row_worker *r = arg;
	qb_rev_each_element(r->x->bank, hash_elem, r);
	return NULL;
}

/* Stops the row threads, if any, and waits for them. */
static void hashes_join(qb_rev_hashes *x)
{
	if (!x->nworkers || !x->threaded)
		return;
	pthread_mutex_lock(&x->mu);
	x->stop = true;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	for (size_t w = 0; w < x->nworkers; w++)
		pthread_join(x->rw[w].tid, NULL);
	x->nworkers = 0;
}

/* Starts n row threads from the first element; false when one could not
 * start (the others are stopped then). */
static bool hashes_start_workers(qb_rev_hashes *x, size_t n)
{
	memset(x->done, 0, sizeof x->done);
	x->low = x->seen_ready = x->seen_low = 0;
	x->stop = false;
	x->threaded = true; /* set before the threads start: they read it */
	x->nworkers = n;
	for (size_t w = 0; w < n; w++) {
		x->rw[w] = (row_worker){.x = x, .w = w};
		if (pthread_create(&x->rw[w].tid, NULL, hash_all, &x->rw[w]) != 0) {
			x->nworkers = w; /* those started, stopped at once */
			hashes_join(x);
			return false;
		}
	}
	return true;
}

/* Starts making rows from the first element. */
static void hashes_run(qb_rev_hashes *x)
{
	if (hashes_start_workers(x, ROW_WORKERS) || hashes_start_workers(x, 1))
		return;
	/* Then here and now: every row (a window would not do). */
	x->threaded = false;
	x->nworkers = 1;
	x->window = x->nelems ? x->nelems : 1;
	x->rows = qb_xrealloc(x->rows, (x->window * x->bank->nlangs + 1) * sizeof *x->rows);
	x->rw[0] = (row_worker){.x = x, .w = 0};
	hash_all(&x->rw[0]);
	x->seen_ready = x->nelems;
}

#define QHASH_CHUNK ((size_t)64) /* questions published at once */

static void *hash_questions(void *arg)
{
	qb_rev_hashes *x = arg;
	const qb_bank *bank = x->bank;
	for (size_t i = 0; i < bank->nquestions; i++) {
		for (size_t k = 0; k < bank->nlangs; k++)
			question_hash(x->qh[i * bank->nlangs + k], bank, &bank->questions[i],
			              bank->langs[k].code);
		if ((i + 1) % QHASH_CHUNK == 0 || i + 1 == bank->nquestions) {
			pthread_mutex_lock(&x->mu);
			x->qdone = i + 1;
			pthread_cond_broadcast(&x->cv);
			bool stop = x->qstop;
			pthread_mutex_unlock(&x->mu);
			if (stop)
				break;
		}
	}
	return NULL;
}

/* Starts the question thread; without it, qb_rev_update() hashes the
 * questions itself. */
static void questions_run(qb_rev_hashes *x)
{
	size_t n = x->bank->nquestions * x->bank->nlangs;
	if (!n)
		return;
	x->qh = qb_xmalloc(n * sizeof *x->qh);
	if (pthread_create(&x->qthread, NULL, hash_questions, x) != 0) {
		free(x->qh);
		x->qh = NULL;
	}
}

/* Stops the question thread, if any, and waits for it. */
static void questions_join(qb_rev_hashes *x)
{
	if (!x->qh)
		return;
	pthread_mutex_lock(&x->mu);
	x->qstop = true;
	pthread_mutex_unlock(&x->mu);
	pthread_join(x->qthread, NULL);
	free(x->qh);
	x->qh = NULL;
}

/* Question i's hash in the bank's language k into out: from the question
 * thread (waiting for it) or worked out here. */
void qb_rev_question_hash_at(qb_rev_hashes *x, const qb_bank *bank, size_t i, size_t k,
                             uint8_t out[8])
{
	if (!x || !x->qh || x->bank != bank) {
		question_hash(out, bank, &bank->questions[i], bank->langs[k].code);
		return;
	}
	if (i >= x->qseen) {
		pthread_mutex_lock(&x->mu);
		while (x->qdone <= i)
			pthread_cond_wait(&x->cv, &x->mu);
		x->qseen = x->qdone;
		pthread_mutex_unlock(&x->mu);
	}
	memcpy(out, x->qh[i * bank->nlangs + k], 8);
}

qb_rev_hashes *qb_rev_hashes_start(const qb_bank *bank)
{
	/* Every row when a twelfth of the room the memory goal leaves holds
	 * them (qb_mem_room(), less the record's size), so that the update's
	 * pass needs no second hashing; else a window of at least
	 * ROWS_BUDGET. */
	/* The record, read beside the bank, takes about its file's size of
	 * the room; a first build (no record yet) makes its tables, which
	 * take the room: the hashes then keep to the smallest window. */
	size_t room = qb_mem_room(bank->path);
	char *rpath = qb_rev_path(bank->path);
	struct stat st;
	if (stat(rpath, &st) != 0 || (uint64_t)st.st_size >= room)
		room = 0;
	else
		room = (room - (size_t)st.st_size) / 12;
	free(rpath);
	return qb_rev_hashes_start_budget(bank, room < ROWS_BUDGET ? ROWS_BUDGET
	                                        : room > ROWS_MAX  ? ROWS_MAX
	                                                           : room);
}

qb_rev_hashes *qb_rev_hashes_start_budget(const qb_bank *bank, size_t budget)
{
	qb_rev_hashes *x = qb_xcalloc(1, sizeof *x);
	x->bank = bank;
	qb_rev_each_element(bank, qb_rev_count_elem, &x->nelems);
	size_t row = (bank->nlangs ? bank->nlangs : 1) * sizeof *x->rows;
	x->window = x->nelems;
	if (x->nelems * row > budget)
		x->window = budget / row > 4 * ROWS_CHUNK ? budget / row : 4 * ROWS_CHUNK;
	if (!x->window)
		x->window = 1;
	x->rows = qb_xcalloc(x->window * bank->nlangs + 1, sizeof *x->rows);
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	hashes_run(x);
	questions_run(x);
	return x;
}

/* The row of element i (in qb_rev_each_element() order), once it is done.  The
 * reader asks for the rows in order; a row before the last one asked for
 * may be gone, except when the window holds every row. */
const qb_rev_text_hashes *qb_rev_hashes_row(qb_rev_hashes *x, size_t i)
{
	if (i >= x->nelems)
		return NULL;
	if (x->window < x->nelems && i < x->seen_low) { /* a second pass */
		hashes_join(x);
		hashes_run(x);
	}
	if (x->threaded && (i >= x->seen_ready || i >= x->seen_low + ROWS_CHUNK)) {
		size_t c = i / ROWS_CHUNK, w = c % x->nworkers;
		pthread_mutex_lock(&x->mu);
		x->low = x->seen_low = c * ROWS_CHUNK;
		pthread_cond_broadcast(&x->cv);
		while (x->done[w] <= i && x->nworkers && !x->stop)
			pthread_cond_wait(&x->cv, &x->mu);
		/* Worker w's chunks up to done[w] are ready, and so this one. */
		x->seen_ready = (c + 1) * ROWS_CHUNK;
		pthread_mutex_unlock(&x->mu);
	}
	return x->rows + i % x->window * x->bank->nlangs;
}

void qb_rev_hashes_rewind(qb_rev_hashes *x)
{
	if (x && x->window < x->nelems) {
		hashes_join(x);
		hashes_run(x);
	}
}

void qb_rev_hashes_free(qb_rev_hashes *x)
{
	if (!x)
		return;
	hashes_join(x);
	questions_join(x);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv);
	free(x->rows);
	free(x);
}


/* ---- media ---- */

typedef struct each_media_ctx {
	const qb_bank *bank;
	qb_rev_media_fn fn;
	void *payload;
} each_media_ctx;

static void media_visit(void *payload, const char *src, size_t offset)
{
	QB_UNUSED(offset);
	const each_media_ctx *m = payload;
	char *path = qb_fs_join(m->bank->dir, src);
	m->fn(m->payload, path);
	free(path);
}

static void media_elem(void *payload, const char *qid, const char *elem, const qb_text *t,
                       const qb_rev_elem_ref *what)
{
	QB_UNUSED(qid);
	QB_UNUSED(elem);
	QB_UNUSED(what);
	for (size_t i = 0; i < t->ntr; i++)
		qb_markup_images(t->tr[i].text, media_visit, payload);
}

void qb_rev_each_media(const qb_bank *bank, qb_rev_media_fn fn, void *payload)
{
	each_media_ctx m = {bank, fn, payload};
	qb_rev_each_element(bank, media_elem, &m);
}

