/* export.h — a run's history and verdicts in formats other tools read (docs/export.md):
 *
 *   knossos    Jepsen's EDN history of a `mutex`: per client process, :invoke then :ok,
 *              :fail or :info of :acquire and :release, in true-time order (Knossos,
 *              github.com/jepsen-io/knossos: `lein run --model mutex FILE.edn`);
 *   porcupine  a JSON array of Porcupine's Operation {ClientId, Input, Call, Output, Return}
 *              (github.com/anishathalye/porcupine, model.go), times in ns;
 *   shiviz     ShiViz's log: its parsing regex on the first line, an empty delimiter line,
 *              then one line per event, "host {vector clock as JSON} event text", the clocks
 *              computed from the requests and replies of the history.
 *
 * And the verdicts of a run as one JSON document (docs/verdicts.md). Each writer appends to
 * a buffer and is a pure function of its inputs: the same run, byte-identical files. */
#ifndef LOCKLAB_EXPORT_H
#define LOCKLAB_EXPORT_H

#include <stdint.h>

#include "check.h"
#include "history.h"
#include "scenario.h"
#include "util.h"

typedef enum export_format { EXPORT_KNOSSOS, EXPORT_PORCUPINE, EXPORT_SHIVIZ, EXPORT_COUNT } export_format;

/* The format a name gives ("knossos", "porcupine", "shiviz"), or -1. */
int export_format_parse(const char *name);
/* "knossos, porcupine or shiviz": for messages. */
const char *export_format_names(void);

void export_render(const history *h, export_format f, buf *out);

/* The verdicts document: the run (scenario, file, seed, protocol, scripts), each property's
 * verdict with its instant, the history events at that instant, its evidence and the faults
 * before it, and the scenario's expectations. cr NULL with error set: the run failed before
 * it could be judged, and the document says why. */
void verdicts_render(const history *h, const scenario *sc, const check_result *cr, uint64_t seed, const char *error,
                     buf *out);

#endif
