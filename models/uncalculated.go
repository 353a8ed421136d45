package models

import (
	"encoding/json"
	"fmt"
	"slices"
)

// NotCalculatedKey is the response_metadata key that holds the metrics of a
// case that were not calculated (no score and no error), for example LLM
// metrics without a judge.
//
// Such metrics get no metric row: metric_results.passed is NOT NULL, and a
// row with passed = false under a case whose status is passed reads as a
// failure to anyone who counts failed rows (as a report over the gem's
// tables may), while passed = true would claim a pass that was never
// measured. So InsertRun writes rows for calculated metrics only and keeps
// the others, with their position, threshold and reason, as a list under
// this key; the read queries put them back on the case as MetricResult
// records that are not Calculated, so reports, the dashboard and the run's
// coverage warnings still say what was not calculated and why. The
// invariant "a case whose status is passed has no metric row with passed =
// false" then holds for every reader. Runs saved before this rule keep
// their rows and read the same.
const NotCalculatedKey = "not_calculated"

// notCalculated is one entry of the NotCalculatedKey list.
type notCalculated struct {
	Name      string  `json:"name"`
	Position  int     `json:"position"`
	Threshold float64 `json:"threshold"`
	Reason    *string `json:"reason"`
}

// foldUncalculated moves the case's metrics that were not calculated into
// its response_metadata (see NotCalculatedKey), replacing any list there,
// so that saving a run read back from the database writes the same.
func foldUncalculated(c *CaseResult) error {
	var list []notCalculated
	for _, m := range c.Metrics {
		if !m.Calculated() {
			list = append(list, notCalculated{Name: m.Name, Position: m.Position, Threshold: m.Threshold, Reason: m.Reason})
		}
	}
	obj := map[string]json.RawMessage{}
	if !c.ResponseMetadata.IsNull() {
		if err := json.Unmarshal(c.ResponseMetadata, &obj); err != nil || obj == nil {
			if len(list) == 0 {
				return nil
			}
			return fmt.Errorf("save run: case %q: %w: its response_metadata must be an object to record the metrics it did not calculate",
				c.CaseID, ErrNotJSONObject)
		}
	}
	if _, had := obj[NotCalculatedKey]; !had && len(list) == 0 {
		return nil
	}
	delete(obj, NotCalculatedKey)
	if len(list) > 0 {
		b, err := json.Marshal(list)
		if err != nil {
			return fmt.Errorf("save run: case %q: %w", c.CaseID, err)
		}
		obj[NotCalculatedKey] = b
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("save run: case %q: %w", c.CaseID, err)
	}
	c.ResponseMetadata = JSON(b)
	return nil
}

// unfoldUncalculated puts the metrics listed under NotCalculatedKey back on
// a case read from the database, in position order. An unreadable list is
// left alone: the rows are what they are.
func unfoldUncalculated(c *CaseResult) {
	if c.ResponseMetadata.IsNull() {
		return
	}
	var meta struct {
		List []notCalculated `json:"not_calculated"`
	}
	if json.Unmarshal(c.ResponseMetadata, &meta) != nil || len(meta.List) == 0 {
		return
	}
	for _, n := range meta.List {
		if slices.ContainsFunc(c.Metrics, func(m *MetricResult) bool { return m.Position == n.Position }) {
			continue // a row holds this position: the row wins
		}
		c.Metrics = append(c.Metrics, &MetricResult{CaseResultID: c.ID, Position: n.Position, Name: n.Name,
			Threshold: n.Threshold, Reason: n.Reason, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
	}
	slices.SortStableFunc(c.Metrics, func(a, b *MetricResult) int { return a.Position - b.Position })
}
