package dashboard

import (
	"encoding/json"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// outcomeView is what an outcome check ran and saw, for the case page: a
// state check's database, query and arguments, or a verifier's program,
// and the value observed.
type outcomeView struct {
	Kind     string // "db_state" or "verifier"
	Database string
	Query    string
	Args     string
	Program  string
	Observed string
}

// newOutcomeView reads an outcome check's details (response_metadata.
// metric_details of its name, or the details of its error); nil for any
// other metric.
func newOutcomeView(details map[string]json.RawMessage, errorDetails models.JSON) *outcomeView {
	if details == nil && !errorDetails.IsNull() {
		var ed struct {
			Details map[string]json.RawMessage `json:"details"`
		}
		_ = json.Unmarshal(errorDetails, &ed)
		details = ed.Details
	}
	var kind string
	_ = json.Unmarshal(details["check_type"], &kind)
	v := &outcomeView{Kind: kind}
	switch kind {
	case "db_state":
		_ = json.Unmarshal(details["database"], &v.Database)
		_ = json.Unmarshal(details["query"], &v.Query)
		v.Args = compactJSON(details["args"])
		v.Observed = compactJSON(details["observed"])
	case "verifier":
		var program []string
		_ = json.Unmarshal(details["program"], &program)
		v.Program = strings.Join(program, " ")
		v.Observed = compactJSON(details["verdict"])
	default:
		return nil
	}
	return v
}

// compactJSON is raw on one line; "" for nothing.
func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
