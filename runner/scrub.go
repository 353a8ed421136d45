package runner

import (
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Every untrusted column of a case (the answer, actions, response metadata,
// error details with stderr, scorer reasons quoting answers, and the
// suite's own text) passes through the sanitizer before the case is
// reported or saved: PostgreSQL refuses NUL characters and lone
// surrogates in jsonb, and one bad value would lose the whole run's
// transaction; credentials must never reach a table or a report. When
// anything was changed the case's response metadata says so under
// "sanitized":
//
//	{"sanitized": {"repaired": ["output"], "redacted": ["error_details"], "pii": ["output"]}}
//
// listing the columns (and "metrics[i].reason") that were changed. The
// pass is models.CaseResult.Scrub, the one an evidence file's import
// runs too.

// scrubCase repairs and redacts the case's columns under the run's policy.
func scrubCase(c *models.CaseResult, p sanitize.Policy) { _ = c.Scrub(p) }
