package runner

import (
	"bytes"
	"encoding/json"

	"github.com/agentevals/agentevals/models"
	"github.com/agentevals/agentevals/sanitize"
	"github.com/agentevals/agentevals/suite"
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
	var repaired, redacted []string
	note := func(column string, rep sanitize.Report) {
		if rep.Repaired {
			repaired = append(repaired, column)
		}
		if rep.Redacted {
			redacted = append(redacted, column)
		}
	}
	for _, col := range c.AgentColumns() {
		out, rep := sanitize.JSON(*col.Value)
		*col.Value = models.JSON(out)
		note(col.Name, rep)
	}
	for i, m := range c.Metrics {
		out, rep := sanitize.JSON(m.ErrorDetails)
		m.ErrorDetails = models.JSON(out)
		note(suite.Index("metrics", i)+".error_details", rep)
		if m.Reason != nil {
			r, rep := sanitize.Text(*m.Reason)
			m.Reason = &r
			note(suite.Index("metrics", i)+".reason", rep)
		}
	}
	if len(repaired)+len(redacted) > 0 {
		noteSanitized(c, repaired, redacted)
	}
}

// noteSanitized records under response_metadata.sanitized which columns
// the sanitizer changed. The other keys are kept, numbers digit for digit;
// metadata that is not an object is kept under "original".
func noteSanitized(c *models.CaseResult, repaired, redacted []string) {
	meta := models.CaseMetadata{Sanitized: &models.Sanitized{Repaired: repaired, Redacted: redacted}}
	if !c.ResponseMetadata.IsNull() {
		var obj map[string]any
		dec := json.NewDecoder(bytes.NewReader(c.ResponseMetadata))
		dec.UseNumber()
		if err := dec.Decode(&obj); err != nil || obj == nil {
			meta.Original = json.RawMessage(c.ResponseMetadata)
		} else if meta.Extra, err = rawValues(obj, keepKey); err != nil {
			return
		}
	}
	if j, err := meta.Encode(); err == nil {
		c.ResponseMetadata = j
	}
}
