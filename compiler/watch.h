/* watch.h - following the files a bank is built from (inotify): the bank
 * file, the pictures and sounds it shows, its labels.  `qbc watch` and
 * `qbc preview` both wait here for the next save. */
#ifndef QB_WATCH_H
#define QB_WATCH_H

#include "model.h"

typedef struct qb_watch qb_watch;

/* A new watcher, or NULL (errno set). */
qb_watch *qb_watch_new(void);
void qb_watch_free(qb_watch *w);

/* Marks bank dirty whenever path is saved.  Editors save in place (close
 * after write) or by renaming a new file over the old one, so the folder
 * of path is watched, not the file.  Returns 0 or -1 (errno set: the
 * folder does not exist or cannot be watched). */
int qb_watch_file(qb_watch *w, const char *path, size_t bank);
/* Adds the pictures and sounds bank (index i) shows; those it showed
 * before stay watched.  A file in a folder that does not exist yet is
 * not watched: saving the bank rebuilds it. */
void qb_watch_bank_media(qb_watch *w, const qb_bank *bank, size_t i);

/* Waits for a save, then lets the editor finish (several events per
 * save, 150 ms of quiet) and sets dirty[i] for each bank i whose files
 * were saved (dirty has nbanks entries, cleared first).  Returns 1 after
 * a save, 0 when stopfd (>= 0) became readable first, -1 on failure. */
int qb_watch_wait(qb_watch *w, bool *dirty, size_t nbanks, int stopfd);

#endif
