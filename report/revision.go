package report

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// RevisionKeys are the run-metadata keys read as the revision of the agent
// that was evaluated, in order of preference (`evalrun run --metadata
// '{"revision":"…"}'`, or what CI tools call a commit).
var RevisionKeys = []string{"revision", "git_sha", "git_commit", "commit", "commit_sha", "sha"}

// Revision returns the revision named in the run's metadata (the first of
// RevisionKeys holding a non-empty string or a number), or "" when none.
func Revision(run *models.Run) string {
	var m map[string]json.RawMessage
	if run == nil || run.Metadata.IsNull() || json.Unmarshal(run.Metadata, &m) != nil {
		return ""
	}
	for _, k := range RevisionKeys {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s = strings.TrimSpace(s); s != "" {
				return s
			}
			continue
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			if _, err := strconv.ParseFloat(string(n), 64); err == nil {
				return string(n)
			}
		}
	}
	return ""
}
