package models_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

func TestNoteSanitized(t *testing.T) {
	for _, tc := range []struct {
		name, meta string
		repaired   []string
		redacted   []string
		want       string
	}{
		{"nothing changed keeps the column", `{"a":1}`, nil, nil, `{"a":1}`},
		{"null metadata", `null`, []string{"output"}, nil, `{"sanitized":{"repaired":["output"]}}`},
		{"other keys kept digit for digit", `{"n":1.50,"z":"x"}`, nil, []string{"output"},
			`{"n":1.50,"sanitized":{"redacted":["output"]},"z":"x"}`},
		{"merged with what was listed", `{"sanitized":{"repaired":["output"]}}`, []string{"output", "actions"}, []string{"output"},
			`{"sanitized":{"redacted":["output"],"repaired":["output","actions"]}}`},
		{"not an object", `[1]`, []string{"output"}, nil, `{"original":[1],"sanitized":{"repaired":["output"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s models.Sanitized
			for _, col := range tc.repaired {
				s.Note(col, sanitize.Report{Repaired: true})
			}
			for _, col := range tc.redacted {
				s.Note(col, sanitize.Report{Redacted: true})
			}
			s.Note("unchanged", sanitize.Report{})
			c := &models.CaseResult{ResponseMetadata: models.JSON(tc.meta)}
			c.NoteSanitized(s)
			if got := compactJSON(t, c.ResponseMetadata); got != compactJSON(t, models.JSON(tc.want)) {
				t.Errorf("response_metadata = %s, want %s", got, tc.want)
			}
		})
	}
}

func compactJSON(t *testing.T, j models.JSON) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, j); err != nil {
		t.Fatalf("compact %s: %v", j, err)
	}
	return b.String()
}
