package runner

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"agentevals/models"
)

// PostgreSQL rejects NUL characters in text and jsonb values, and one bad
// value would lose the whole run's transaction. Untrusted text (stderr,
// agent metadata, scorer reasons quoting answers) is therefore scrubbed
// before the run is returned: every NUL (and, in reasons, every invalid
// UTF-8 sequence) becomes U+FFFD.

const replacementChar = "\uFFFD"

// scrubCase removes NUL characters from the case's untrusted columns.
func scrubCase(c *models.CaseResult) {
	c.ErrorDetails = scrubJSON(c.ErrorDetails)
	c.ResponseMetadata = scrubJSON(c.ResponseMetadata)
	c.Output = scrubJSON(c.Output)
	c.Actions = scrubJSON(c.Actions)
	for _, m := range c.Metrics {
		m.ErrorDetails = scrubJSON(m.ErrorDetails)
		if m.Reason != nil && (strings.ContainsRune(*m.Reason, 0) || !utf8.ValidString(*m.Reason)) {
			r := strings.ToValidUTF8(strings.ReplaceAll(*m.Reason, "\x00", replacementChar), replacementChar)
			m.Reason = &r
		}
	}
}

// scrubJSON rewrites a JSON value whose strings or keys hold NUL; others
// are returned unchanged (SQL NULL stays NULL).
func scrubJSON(j models.JSON) models.JSON {
	if j == nil || !bytes.Contains(j, []byte(`\u0000`)) {
		return j
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return j
	}
	out, err := json.Marshal(scrubValue(v))
	if err != nil {
		return j
	}
	return models.JSON(out)
}

func scrubValue(v any) any {
	switch t := v.(type) {
	case string:
		return strings.ReplaceAll(t, "\x00", replacementChar)
	case []any:
		for i := range t {
			t[i] = scrubValue(t[i])
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			out[strings.ReplaceAll(k, "\x00", replacementChar)] = scrubValue(val)
		}
		return out
	}
	return v
}
