/* "Did you mean ...?": the known name nearest to a misspelt one, for unknown scene keys
 * (scene_json.c) and unknown command-line options (app/cli.c). */
#ifndef DRAPE_IO_SUGGEST_H
#define DRAPE_IO_SUGGEST_H

/* The entry of `names` (NULL-terminated) nearest to `word` in edits (insertions, deletions,
 * substitutions), when it is a plausible typo rather than a different word: within 3 edits and
 * fewer edits than the name is long. NULL when none is. The first of equally near names wins. */
const char* suggest_name(const char* word, const char* const* names);

#endif
