package models

import (
	"encoding/json"
	"fmt"
	"slices"
)

// foldUncalculated moves the case's metrics that were not calculated into
// its response_metadata (see NotCalculatedKey), replacing any list there,
// so that saving a run read back from the database writes the same.
func foldUncalculated(c *CaseResult) error {
	var list []NotCalculated
	for _, m := range c.Metrics {
		if !m.Calculated() {
			list = append(list, NotCalculated{Name: m.Name, Position: m.Position, Threshold: m.Threshold, Reason: m.Reason})
		}
	}
	// Every other key stays exactly as it is: the record is built over the
	// object as read, not decoded.
	var obj map[string]json.RawMessage
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
	j, err := CaseMetadata{NotCalculated: list, Extra: obj}.Encode()
	if err != nil {
		return fmt.Errorf("save run: case %q: %w", c.CaseID, err)
	}
	c.ResponseMetadata = j
	return nil
}

// unfoldUncalculated puts the metrics listed under NotCalculatedKey back on
// a case read from the database, in position order. An unreadable list is
// left alone: the rows are what they are.
func unfoldUncalculated(c *CaseResult) {
	meta, err := DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || len(meta.NotCalculated) == 0 {
		return
	}
	for _, n := range meta.NotCalculated {
		if slices.ContainsFunc(c.Metrics, func(m *MetricResult) bool { return m.Position == n.Position }) {
			continue // a row holds this position: the row wins
		}
		c.Metrics = append(c.Metrics, &MetricResult{CaseResultID: c.ID, Position: n.Position, Name: n.Name,
			Threshold: n.Threshold, Reason: n.Reason, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
	}
	slices.SortStableFunc(c.Metrics, func(a, b *MetricResult) int { return a.Position - b.Position })
}
