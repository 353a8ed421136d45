package suite

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/internal/suggest"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Selection picks the questions a run covers. Every criterion given must
// hold (they intersect); none given selects the whole suite.
type Selection struct {
	// IDs are question ids or glob patterns (path.Match syntax: *, ?,
	// [a-z]) such as "refund-*"; a question matching any of them is kept.
	IDs []string
	// Tags keep the questions whose metadata "tags" (a string or an array
	// of strings; a golden-set line's meta.tags) holds any of them.
	Tags []string
	// Failed, when non-nil, keeps the questions with these ids (those that
	// failed or errored in an earlier run; FailedSource names it for
	// messages, e.g. "--failed-in 0192…").
	Failed       []string
	FailedSource string
}

// Select returns a copy of the suite restricted to the selected questions,
// in suite order (nothing selected by any criterion: the suite itself).
// The digest of the copy covers only those questions, so a partial run is
// never the baseline of a full one. An id or pattern that matches nothing,
// a tag no question has, or a selection left empty is a *ValidationError.
func (s *Suite) Select(sel Selection) (*Suite, error) {
	if len(sel.IDs) == 0 && len(sel.Tags) == 0 && sel.Failed == nil {
		return s, nil
	}
	var list []Problem
	add := func(flag, format string, args ...any) {
		list = append(list, Problem{File: s.Path, Path: flag, Message: fmt.Sprintf(format, args...)})
	}
	for _, pat := range sel.IDs {
		if _, err := path.Match(pat, ""); err != nil {
			add("--only", "%q is not a valid pattern: %v", pat, err)
		}
	}
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	usedID := make([]bool, len(sel.IDs))
	usedTag := make([]bool, len(sel.Tags))
	failed := map[string]bool{}
	for _, id := range sel.Failed {
		failed[id] = true
	}
	cp := *s
	cp.Cases = nil
	if s.memo != nil {
		cp.memo = &digestMemo{} // its own: the copy has other cases
	}
	for _, c := range s.Cases {
		keep := true
		if len(sel.IDs) > 0 {
			hit := false
			for i, pat := range sel.IDs {
				if ok, _ := path.Match(pat, c.ID); ok || pat == c.ID {
					usedID[i], hit = true, true
				}
			}
			keep = keep && hit
		}
		if len(sel.Tags) > 0 {
			hit := false
			tags := caseTags(c)
			for i, t := range sel.Tags {
				if tags[t] {
					usedTag[i], hit = true, true
				}
			}
			keep = keep && hit
		}
		if sel.Failed != nil {
			keep = keep && failed[c.ID]
		}
		if keep {
			cp.Cases = append(cp.Cases, c)
		}
	}
	for i, pat := range sel.IDs {
		if !usedID[i] {
			if strings.ContainsAny(pat, "*?[") {
				add("--only", "no question id matches the pattern %q", pat)
			} else {
				add("--only", "no question has id %q%s", pat, closeIDs(s, pat))
			}
		}
	}
	for i, t := range sel.Tags {
		if !usedTag[i] {
			add("--tag", "no question has tag %q (tags come from metadata.tags; known tags: %s)", t, knownTags(s))
		}
	}
	if len(list) == 0 && len(cp.Cases) == 0 {
		switch {
		case sel.Failed != nil && len(sel.Failed) == 0:
			add("--failed-in", "%s has no failed or errored question: nothing to run", sel.FailedSource)
		case sel.Failed != nil:
			if len(sel.Failed) == 1 {
				add("--failed-in", "the 1 failed or errored question of %s is not selected by the other flags or no longer in the suite", sel.FailedSource)
			} else {
				add("--failed-in", "none of the %d failed or errored questions of %s is selected by the other flags or still in the suite", len(sel.Failed), sel.FailedSource)
			}
		default:
			add("--only", "no question matches every given --only and --tag")
		}
	}
	if len(list) > 0 {
		return nil, &ValidationError{Problems: list}
	}
	return &cp, nil
}

// caseTags reads metadata "tags": a string or an array of strings.
func caseTags(c *Case) map[string]bool {
	var meta struct {
		Tags json.RawMessage `json:"tags"`
	}
	out := map[string]bool{}
	if json.Unmarshal(c.Metadata, &meta) != nil || meta.Tags == nil {
		return out
	}
	var one string
	if json.Unmarshal(meta.Tags, &one) == nil {
		out[one] = true
		return out
	}
	var many []any
	_ = json.Unmarshal(meta.Tags, &many)
	for _, t := range many {
		if s, ok := t.(string); ok {
			out[s] = true
		}
	}
	return out
}

func knownTags(s *Suite) string {
	seen := map[string]bool{}
	for _, c := range s.Cases {
		for t := range caseTags(c) {
			seen[t] = true
		}
	}
	if len(seen) == 0 {
		return "none"
	}
	var out []string
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return sanitize.String(strings.Join(out, ", "))
}

// closeIDs suggests up to three ids close to want: " (did you mean …?)".
func closeIDs(s *Suite, want string) string {
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.ID)
	}
	return suggest.Hint(want, names, 3)
}

// closeTypes suggests the check types nearest a misspelled one.
func closeTypes(s *Suite, typ string) string { return suggest.Hint(typ, s.Registry.Names(), 2) }
