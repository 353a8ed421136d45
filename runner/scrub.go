package runner

import (
	"bytes"
	"encoding/json"

	"agentevals/models"
	"agentevals/sanitize"
	"agentevals/suite"
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
	for _, col := range []struct {
		name string
		j    *models.JSON
	}{
		{"output", &c.Output}, {"actions", &c.Actions}, {"response_metadata", &c.ResponseMetadata}, {"error_details", &c.ErrorDetails},
	} {
		out, rep := sanitize.JSON(*col.j)
		*col.j = models.JSON(out)
		note(col.name, rep)
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
// the sanitizer changed.
func noteSanitized(c *models.CaseResult, repaired, redacted []string) {
	meta := map[string]any{}
	if !c.ResponseMetadata.IsNull() {
		dec := json.NewDecoder(bytes.NewReader(c.ResponseMetadata))
		dec.UseNumber()
		if err := dec.Decode(&meta); err != nil || meta == nil {
			meta = map[string]any{"original": json.RawMessage(c.ResponseMetadata)}
		}
	}
	note := map[string]any{}
	if len(repaired) > 0 {
		note["repaired"] = repaired
	}
	if len(redacted) > 0 {
		note["redacted"] = redacted
	}
	meta["sanitized"] = note
	if j, err := models.NewJSON(meta); err == nil {
		c.ResponseMetadata = j
	}
}
