/* stale.c - see stale.h.  The whole of the rules: for a text L that did
 * not change since the record and another language K of its element.
 *
 *   part of L's basis   K's text since     L stale   the build takes
 *   for K               the record         for K     K into L's basis
 *   ------------------  -----------------  --------  ----------------
 *   same                (any)              no        (already there)
 *   none                (any)              no        yes
 *   differs             new                no        yes
 *   differs             caught up          no        yes
 *   differs             unchanged          yes       no
 *   differs             changed            yes       no
 *
 * A text that changed since the record is never stale: the build writes
 * it against every other language's current text (its basis is made
 * new) and takes its reviewed mark away.  `qbc review` and an import of
 * a translated (not fuzzy) unit give the text that basis too (review
 * and --reviewed mark it reviewed); an import, fuzzy or not, also takes
 * the imported text into the other languages' bases, so it never makes
 * them stale.  A reviewed mark stays while the text is current and its
 * basis took in no caught-up text. */
#include "stale.h"

#include <stddef.h>

static const qb_stale_rule rules[] = {
	{QB_PART_SAME, QB_OTHER_NEW, false, false},
	{QB_PART_SAME, QB_OTHER_SAME, false, false},
	{QB_PART_SAME, QB_OTHER_CAUGHT, false, false},
	{QB_PART_SAME, QB_OTHER_CHANGED, false, false},
	{QB_PART_NONE, QB_OTHER_NEW, false, true},
	{QB_PART_NONE, QB_OTHER_SAME, false, true},
	{QB_PART_NONE, QB_OTHER_CAUGHT, false, true},
	{QB_PART_NONE, QB_OTHER_CHANGED, false, true},
	{QB_PART_DIFFERS, QB_OTHER_NEW, false, true},
	{QB_PART_DIFFERS, QB_OTHER_CAUGHT, false, true},
	{QB_PART_DIFFERS, QB_OTHER_SAME, true, false},
	{QB_PART_DIFFERS, QB_OTHER_CHANGED, true, false},
};

const qb_stale_rule *qb_stale_rule_of(qb_stale_part part, qb_stale_other other)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (rules[i].part == part && rules[i].other == other)
			return &rules[i];
	return &rules[0]; /* unreachable: the table covers every pair */
}
