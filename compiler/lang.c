/* lang.c - see lang.h.  The name table covers the languages teachers in
 * East Africa and beyond are most likely to use; other tags still work,
 * they are only shown by their code. */
#include "lang.h"

#include <ctype.h>
#include <string.h>

#include "i18n.h"

static const struct {
	const char *code, *english, *native;
} names[] = {
	{"am", N_("Amharic"), "አማርኛ"},       {"ar", N_("Arabic"), "العربية"},
	{"de", N_("German"), "Deutsch"},       {"en", N_("English"), "English"},
	{"es", N_("Spanish"), "Español"},      {"fr", N_("French"), "Français"},
	{"ha", N_("Hausa"), "Hausa"},          {"hi", N_("Hindi"), "हिन्दी"},
	{"ig", N_("Igbo"), "Igbo"},            {"it", N_("Italian"), "Italiano"},
	{"ki", N_("Kikuyu"), "Gĩkũyũ"},        {"lg", N_("Luganda"), "Luganda"},
	{"luo", N_("Dholuo"), "Dholuo"},       {"nl", N_("Dutch"), "Nederlands"},
	{"om", N_("Oromo"), "Afaan Oromoo"},   {"pt", N_("Portuguese"), "Português"},
	{"rw", N_("Kinyarwanda"), "Ikinyarwanda"}, {"so", N_("Somali"), "Soomaali"},
	{"sw", N_("Kiswahili"), "Kiswahili"},  {"ti", N_("Tigrinya"), "ትግርኛ"},
	{"yo", N_("Yoruba"), "Yorùbá"},        {"zh", N_("Chinese"), "中文"},
	{"zu", N_("Zulu"), "isiZulu"},
};

bool qb_lang_valid(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && isalpha((unsigned char)s[i]))
		i++;
	if (i < 2 || i > 3)
		return false;
	while (i < n) {
		if (s[i] != '-')
			return false;
		size_t j = ++i;
		while (i < n && isalnum((unsigned char)s[i]))
			i++;
		if (i - j < 1 || i - j > 8)
			return false;
	}
	return true;
}

void qb_lang_canonical(qb_buf *out, const char *s, size_t n)
{
	size_t start = 0;
	bool first = true;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '-')
			continue;
		size_t len = i - start;
		if (!first)
			qb_buf_putc(out, '-');
		for (size_t k = 0; k < len; k++) {
			int c = (unsigned char)s[start + k];
			if (!first && len == 2)
				c = toupper(c);
			else if (!first && len == 4 && k == 0)
				c = toupper(c);
			else
				c = tolower(c);
			qb_buf_putc(out, (char)c);
		}
		first = false;
		start = i + 1;
	}
}

static int find(const char *tag)
{
	size_t n = strcspn(tag, "-");
	for (size_t i = 0; i < QB_NELEM(names); i++)
		if (strlen(names[i].code) == n && strncmp(names[i].code, tag, n) == 0)
			return (int)i;
	return -1;
}

const char *qb_lang_english_name(const char *tag)
{
	int i = find(tag);
	return i < 0 ? NULL : names[i].english;
}

const char *qb_lang_native_name(const char *tag)
{
	int i = find(tag);
	return i < 0 ? NULL : names[i].native;
}

void qb_lang_describe(qb_buf *out, const char *tag)
{
	const char *name = qb_lang_english_name(tag);
	if (name)
		name = gettext(name); /* in the language of qbc's messages */
	if (name)
		qb_buf_appendf(out, "%s ('%s')", name, tag);
	else
		qb_buf_appendf(out, "'%s'", tag);
}
