package compare

import (
	"fmt"
	"slices"

	"github.com/agentevals-go/agentevals/models"
)

// Slice dimensions.
const (
	SliceFailureMode = "failure_mode" // metadata.failure_mode
	SliceTag         = "tag"          // each string of metadata.tags
)

// Slice is the totals of the cases sharing a failure mode or a tag.
type Slice struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Totals
	// Baseline is nil without a baseline.
	Baseline *Totals `json:"baseline"`
	// Regressions counts the slice's questions with a regression finding,
	// gating or not, each once however many of its metrics regressed (one
	// finding per question, as the regressions list shows them).
	Regressions int `json:"regressions"`
}

// Labels returns the slice labels of a case: its metadata.failure_mode
// (a string, number or boolean) and each string in metadata.tags.
func Labels(c *models.CaseResult) (failureMode string, tags []string) {
	var meta map[string]any
	if err := c.Metadata.Decode(&meta); err != nil || meta == nil {
		return "", nil
	}
	switch v := meta["failure_mode"].(type) {
	case string:
		failureMode = v
	case float64, bool:
		failureMode = fmt.Sprint(v)
	}
	switch v := meta["tags"].(type) {
	case []any:
		for _, t := range v {
			if s, ok := t.(string); ok && s != "" && !slices.Contains(tags, s) {
				tags = append(tags, s)
			}
		}
	case string:
		if v != "" {
			tags = []string{v}
		}
	}
	return failureMode, tags
}

type sliceKey struct{ key, value string }

func groupCases(cases []*models.CaseResult) (map[sliceKey][]*models.CaseResult, []sliceKey) {
	groups := map[sliceKey][]*models.CaseResult{}
	var order []sliceKey
	add := func(k sliceKey, c *models.CaseResult) {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	for _, c := range cases {
		fm, tags := Labels(c)
		if fm != "" {
			add(sliceKey{SliceFailureMode, fm}, c)
		}
		for _, t := range tags {
			add(sliceKey{SliceTag, t}, c)
		}
	}
	return groups, order
}

// buildSlices groups the run's cases (and the baseline's) by failure mode
// and tag, failure modes first, each dimension sorted by value.
func buildSlices(cmp *Comparison, opts Options) []Slice {
	groups, order := groupCases(cmp.Run.Cases)
	var baseGroups map[sliceKey][]*models.CaseResult
	if cmp.Baseline != nil {
		baseGroups, _ = groupCases(cmp.Baseline.Cases)
	}
	regressed := map[string]bool{}
	for _, q := range cmp.RegressionsByQuestion() {
		if q.CaseID != "" {
			regressed[q.CaseID] = true
		}
	}
	slices.SortStableFunc(order, func(a, b sliceKey) int {
		if a.key != b.key {
			if a.key == SliceFailureMode {
				return -1
			}
			return 1
		}
		switch {
		case a.value < b.value:
			return -1
		case a.value > b.value:
			return 1
		}
		return 0
	})
	out := make([]Slice, 0, len(order))
	for _, k := range order {
		s := Slice{Key: k.key, Value: k.value, Totals: TotalsOf(groups[k], opts)}
		if cmp.Baseline != nil {
			bt := TotalsOf(baseGroups[k], opts)
			s.Baseline = &bt
		}
		for _, c := range groups[k] {
			if regressed[c.CaseID] {
				s.Regressions++
			}
		}
		out = append(out, s)
	}
	return out
}
