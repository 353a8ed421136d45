package monitor

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentevals-go/agentevals/suite"
)

// question is one case of the suite a window is scored as.
type question struct {
	ID       string          `json:"id"`
	Question any             `json:"question"`
	Checks   json.RawMessage `json:"checks"`
	Metadata any             `json:"metadata,omitempty"`
}

// suite builds the suite the monitor's checks are scored in: one question
// per case, every question with the monitor's checks and no reference.
// Problems are named against the monitor file's own paths.
func (m *Monitor) suite(qs []question) (*suite.Suite, error) {
	doc := map[string]any{"suite": m.Name, "agent": map[string]string{"name": m.Agent}}
	if m.judge != nil {
		doc["judge"] = m.judge
	}
	for i := range qs {
		qs[i].Checks = m.checks
	}
	doc["questions"] = qs
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	s, err := suite.Parse(m.Path, m.Dir, data, m.registry)
	var verr *suite.ValidationError
	if errors.As(err, &verr) {
		return nil, renamed(verr)
	}
	return s, err
}

// renamed moves problems found in the built suite to the monitor's paths.
func renamed(verr *suite.ValidationError) error {
	out := &suite.ValidationError{What: "monitor"}
	seen := map[string]bool{}
	for _, p := range verr.Problems {
		switch {
		case strings.HasPrefix(p.Path, "$.questions["):
			if i := strings.Index(p.Path, "].checks"); i >= 0 {
				p.Path = "$.checks" + p.Path[i+len("].checks"):]
			} else {
				p.Path = "$"
			}
		case p.Path == "$.suite":
			p.Path = "$.monitor"
		case strings.HasPrefix(p.Path, "$.agent"):
			p.Path = "$.agent"
		}
		if strings.Contains(p.Message, "needs the question's") {
			p.Message += "; a production trace has no reference, so a monitor takes reference-free checks only"
		}
		if key := p.Path + "\x00" + p.Message; !seen[key] {
			seen[key] = true
			out.Problems = append(out.Problems, p)
		}
	}
	return out
}
