package models

import (
	"encoding/json"
	"slices"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Note lists column under what the sanitizer's report says it did to it.
func (s *Sanitized) Note(column string, rep sanitize.Report) {
	if rep.Repaired {
		s.Repaired = appendNew(s.Repaired, column)
	}
	if rep.Redacted {
		s.Redacted = appendNew(s.Redacted, column)
	}
	if rep.PII {
		s.PII = appendNew(s.PII, column)
	}
}

// Changed reports whether any column is listed.
func (s Sanitized) Changed() bool { return len(s.Repaired)+len(s.Redacted)+len(s.PII) > 0 }

// NoteSanitized adds the columns s lists to the case's
// response_metadata.sanitized, keeping what was listed there and every
// other key as it was; metadata that is not an object is kept under
// "original". A live run and an imported file record their changes alike.
func (c *CaseResult) NoteSanitized(s Sanitized) {
	if !s.Changed() {
		return
	}
	meta, err := DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil {
		meta = CaseMetadata{Original: json.RawMessage(c.ResponseMetadata)}
	}
	if meta.Sanitized == nil {
		meta.Sanitized = &Sanitized{}
	}
	for _, col := range s.Repaired {
		meta.Sanitized.Repaired = appendNew(meta.Sanitized.Repaired, col)
	}
	for _, col := range s.Redacted {
		meta.Sanitized.Redacted = appendNew(meta.Sanitized.Redacted, col)
	}
	for _, col := range s.PII {
		meta.Sanitized.PII = appendNew(meta.Sanitized.PII, col)
	}
	if j, err := meta.Encode(); err == nil {
		c.ResponseMetadata = j
	}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
