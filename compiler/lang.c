/* lang.c - see lang.h.  The name table covers the languages teachers in
 * East Africa and beyond are most likely to use; other tags still work,
 * they are only shown by their code. */
#include "lang.h"

#include <ctype.h>
#include <string.h>

static const struct {
	const char *code, *english, *native;
} names[] = {
	{"am", "Amharic", "አማርኛ"},       {"ar", "Arabic", "العربية"},
	{"de", "German", "Deutsch"},       {"en", "English", "English"},
	{"es", "Spanish", "Español"},      {"fr", "French", "Français"},
	{"ha", "Hausa", "Hausa"},          {"hi", "Hindi", "हिन्दी"},
	{"ig", "Igbo", "Igbo"},            {"it", "Italian", "Italiano"},
	{"ki", "Kikuyu", "Gĩkũyũ"},        {"lg", "Luganda", "Luganda"},
	{"luo", "Dholuo", "Dholuo"},       {"nl", "Dutch", "Nederlands"},
	{"om", "Oromo", "Afaan Oromoo"},   {"pt", "Portuguese", "Português"},
	{"rw", "Kinyarwanda", "Ikinyarwanda"}, {"so", "Somali", "Soomaali"},
	{"sw", "Kiswahili", "Kiswahili"},  {"ti", "Tigrinya", "ትግርኛ"},
	{"yo", "Yoruba", "Yorùbá"},        {"zh", "Chinese", "中文"},
	{"zu", "Zulu", "isiZulu"},
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
		qb_buf_appendf(out, "%s ('%s')", name, tag);
	else
		qb_buf_appendf(out, "'%s'", tag);
}
