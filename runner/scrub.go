package runner

import (
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// Every untrusted column of a case (the answer, actions, response metadata,
// error details with stderr, scorer reasons quoting answers) passes
// through the sanitizer before the case is reported or saved: PostgreSQL
// refuses NUL characters and lone surrogates in jsonb, and one bad value
// would lose the whole run's transaction; credentials must never reach a
// table or a report. When anything was changed the case's response
// metadata says so under "sanitized":
//
//	{"sanitized": {"repaired": ["output"], "redacted": ["error_details"]}}
//
// listing the columns (and "metrics[i].reason") that were changed.

// scrubCase repairs and redacts the case's untrusted columns.
func scrubCase(c *models.CaseResult) {
	var changed models.Sanitized
	for _, col := range c.AgentColumns() {
		out, rep := sanitize.JSON(*col.Value)
		*col.Value = models.JSON(out)
		changed.Note(col.Name, rep)
	}
	for i, m := range c.Metrics {
		out, rep := sanitize.JSON(m.ErrorDetails)
		m.ErrorDetails = models.JSON(out)
		changed.Note(suite.Index("metrics", i)+".error_details", rep)
		if m.Reason != nil {
			r, rep := sanitize.Text(*m.Reason)
			m.Reason = &r
			changed.Note(suite.Index("metrics", i)+".reason", rep)
		}
	}
	c.NoteSanitized(changed)
}
