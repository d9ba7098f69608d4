/* Unit tests of the translator's pieces of a text (qb_tu_pieces()) and
 * of the markup a translation keeps (qb_tu_markup_check()). */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "harness.h"
#include "translate.h"

/* The pieces as "text[kind:markup]text...", and the text they make. */
typedef struct shown {
	qb_buf marked, joined;
} shown;

static void show(void *payload, const char *kind, const char *s, size_t len)
{
	shown *sh = payload;
	qb_buf_append(&sh->joined, s, len);
	if (kind)
		qb_buf_appendf(&sh->marked, "[%s:%.*s]", kind, (int)len, s);
	else
		qb_buf_append(&sh->marked, s, len);
}

/* The pieces of text, marked; checks that they make the text again. */
static const char *pieces(const char *text)
{
	static char out[512];
	shown sh = {QB_BUF_INIT, QB_BUF_INIT};
	qb_tu_pieces(text, show, &sh);
	STR_EQ(qb_buf_cstr(&sh.joined), text);
	snprintf(out, sizeof out, "%s", qb_buf_cstr(&sh.marked));
	qb_buf_dispose(&sh.marked);
	qb_buf_dispose(&sh.joined);
	return out;
}

/* The reason qb_tu_markup_check() gives, or "" when it accepts. */
static const char *why(const char *source, const char *target)
{
	static char out[512];
	qb_buf b = QB_BUF_INIT;
	int rc = qb_tu_markup_check(source, target, &b);
	snprintf(out, sizeof out, "%s", rc == 0 ? "" : qb_buf_cstr(&b));
	OK((rc == 0) == (b.len == 0));
	qb_buf_dispose(&b);
	return out;
}

int main(void)
{
	/* A gap's braces and marks are markup, its answers text. */
	STR_EQ(pieces("Water {{evaporates|evaporate}}."),
	       "Water [gap:{{]evaporates[gap:|]evaporate[gap:}}].");
	STR_EQ(pieces("It {{=condenses ~melts ~freezes}}"),
	       "It [gap:{{=]condenses[gap: ~]melts[gap: ~]freezes[gap:}}]");
	STR_EQ(pieces("{{ = a b  ~c }}"), "[gap:{{ = ]a b[gap:  ~]c[gap: }}]");
	STR_EQ(pieces("{{a|a}}"), "[gap:{{]a[gap:|]a[gap:}}]");
	STR_EQ(pieces("{{|x}}"), "[gap:{{|]x[gap:}}]");
	STR_EQ(pieces("{{}}"), "[gap:{{}}]");
	STR_EQ(pieces("not {{closed"), "not {{closed");
	STR_EQ(pieces("\\{{a}}"), "\\{{a}}");
	/* A picture's '![' and a link's '[' are markup, their text is not. */
	STR_EQ(pieces("See ![A cell](media/a.gif)."),
	       "See [media:![]A cell[media:](media/a.gif)].");
	STR_EQ(pieces("[docs](https://x.org) and $x$"),
	       "[link:[]docs[link:](https://x.org)] and [math:$x$]");
	STR_EQ(pieces("[1] and [a [b](u)"), "[1] and [a [link:[]b[link:](u)]");
	STR_EQ(pieces("[no target] here"), "[no target] here");
	STR_EQ(pieces("`{{x}}` {{y}}"), "[code:`{{x}}`] [gap:{{]y[gap:}}]");

	/* Translated answers are the translator's; the gaps are not. */
	const char *src = "Water {{evaporates|evaporate}}; it {{=condenses ~melts ~freezes}}.";
	STR_EQ(why(src, "L’eau {{s’évapore}} ; elle {{=se condense ~fond ~gèle}}."), "");
	STR_EQ(why(src, "L’eau {{s’évapore|évapore|evapore}} ; elle {{= se condense ~fond ~gèle}}."),
	       "");
	OK(strstr(why(src, "L’eau {{s’évapore}} ; elle {{~se condense ~fond ~gèle}}."),
	          "gap 2 of the translation has no right choice") != NULL);
	OK(strstr(why(src, "L’eau {{s’évapore}} ; elle {{=se condense ~fond}}."),
	          "gap 2 of the translation has 2 choices, the source 3") != NULL);
	OK(strstr(why(src, "Elle {{=se condense ~fond ~gèle}} ; l’eau {{s’évapore}}."),
	          "gap 1 is a typed gap") != NULL);
	OK(strstr(why(src, "L’eau {{s’évapore}} ; elle {{se condense}}."),
	          "gap 2 is a choice gap") != NULL);
	OK(strstr(why(src, "L’eau {{ | s’évapore}} ; elle {{=se condense ~fond ~gèle}}."),
	          "gap 1 of the translation has an empty answer") != NULL);
	OK(strstr(why(src, "L’eau s’évapore ; elle {{=se condense ~fond ~gèle}}."),
	          "the translation has 1 cloze gap, the source 2") != NULL);
	OK(strstr(why(src, "L’eau {{s’évapore}} ; elle {{=se condense ~fond ~gèle."),
	          "a '{{' of the translation has no '}}'") != NULL);
	/* A picture may be the language's own; its '![' stays. */
	STR_EQ(why("See ![A cell](a.gif).", "Voyez ![Une cellule](fr/a.gif)."), "");
	OK(strstr(why("See ![A cell](a.gif).", "Voyez [Une cellule](a.gif)."), "lacks") != NULL);
	STR_EQ(why("Read [the notes](https://x.org).", "Lisez [les notes](https://x.org)."), "");
	OK(strstr(why("Read [the notes](https://x.org).", "Lisez les notes(https://x.org)."),
	          "lacks") != NULL);

	return h_done("unit/translate");
}
