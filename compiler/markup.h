/* markup.h - Markdown in bank texts, through md4c with raw HTML off:
 * CommonMark blocks (lists, fenced code, quotes, headings), tables,
 * strikethrough and LaTeX math spans.  Math is written as
 * <span class="math inline" dir="ltr">\(...\)</span> and
 * <span class="math display" dir="ltr">\[...\]</span>, the TeX escaped as
 * HTML text, which Anki's MathJax renders as it is and a player finds by
 * class; dir="ltr" isolates the formula, so that it reads left to right
 * inside right-to-left text (a subscript stays right of its base).  An
 * image whose file is a sound (qb_markup_media_kind()) becomes
 * <audio controls src="..."> with its description as the fallback text.  Raw HTML in a text is not markup: md4c escapes it, so "<script>"
 * reaches the output as "&lt;script&gt;".  Links with a scheme other than
 * http, https or mailto are neutralised to "#" (no javascript: URLs). */
#ifndef QB_MARKUP_H
#define QB_MARKUP_H

#include "buf.h"
#include "qb.h"

/* What a media file is, by its extension (case ignored): a picture (png,
 * jpg, jpeg, gif, webp, svg), a sound (mp3, ogg, oga, m4a, wav, opus) or
 * neither (an error in a bank). */
typedef enum qb_media_kind { QB_MEDIA_IMAGE, QB_MEDIA_AUDIO, QB_MEDIA_OTHER } qb_media_kind;
qb_media_kind qb_markup_media_kind(const char *src);

/* Maps an image path as written in the bank ("media/a.png") to the src
 * the output should use, or returns NULL to keep it. */
typedef const char *(*qb_markup_image_fn)(void *payload, const char *src);

enum {
	QB_MARKUP_INLINE = 1 /* drop the <p>...</p> around a single paragraph */
};

/* Appends the HTML for the Markdown text md to out.  Returns 0, or -1 if
 * md4c failed (out of memory). */
int qb_markup_html(qb_buf *out, const char *md, unsigned flags, qb_markup_image_fn image,
                   void *payload);

/* Calls fn for every image in md, in order, with its src as written and
 * the byte offset of the src within md (or of the image when the src was
 * rewritten by Markdown escapes). */
typedef void (*qb_markup_image_visit)(void *payload, const char *src, size_t offset);
int qb_markup_images(const char *md, qb_markup_image_visit fn, void *payload);

/* Calls fn for every formula ($...$ or $$...$$) in md with its TeX and the
 * byte offset of the TeX within md. */
int qb_markup_math(const char *md, qb_markup_image_visit fn, void *payload);

/* Calls fn for every link destination in md, like qb_markup_images. */
int qb_markup_links(const char *md, qb_markup_image_visit fn, void *payload);

/* True when a link URL is allowed as it is (http, https, mailto, or no
 * scheme at all). */
bool qb_markup_url_safe(const char *url);

/* The plain text of md without markup (for sort fields, descriptions and
 * titles); appended to out. */
int qb_markup_plain(qb_buf *out, const char *md);

#endif
