package models

import (
	"strconv"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Scrub gives a case row the treatment every stored row gets, whether a
// live run made it or an evidence file brought it: the name, the suite's
// definition columns (question, expected answer, expected actions,
// metadata), the agent's columns, the metrics' error details and reasons
// are repaired and redacted under p; the ids, statuses, metric names and
// minimum scores are repaired. The changed columns are listed under
// response_metadata.sanitized, which Scrub also returns.
func (c *CaseResult) Scrub(p sanitize.Policy) Sanitized {
	var s Sanitized
	repair := func(col string, v *string) {
		out, fixed := sanitize.Repair(*v)
		*v = out
		s.Note(col, sanitize.Report{Repaired: fixed})
	}
	text := func(col string, v *string) {
		out, rep := p.Text(*v)
		*v = out
		s.Note(col, rep)
	}
	kept := c.keptMetadataClean(p) // scrub_kept.go
	column := func(col string, v *JSON, redact bool) {
		if *v == nil {
			return
		}
		if redact && kept && (v == &c.ResponseMetadata || v == &c.Actions && c.keptSpanActions()) {
			return // JSON would return it as it is
		}
		if !redact {
			out, fixed := sanitize.RepairJSON(*v)
			*v = JSON(out)
			s.Note(col, sanitize.Report{Repaired: fixed})
			return
		}
		out, rep := p.JSON(*v)
		*v = JSON(out)
		s.Note(col, rep)
	}
	repair("case_id", &c.CaseID)
	repair("status", &c.Status)
	text("name", &c.Name)
	for _, col := range c.DefinitionColumns() {
		column(col.Name, col.Value, col.Name != "minimum_scores")
	}
	for _, col := range c.AgentColumns() {
		column(col.Name, col.Value, true)
	}
	for i, m := range c.Metrics {
		at := "metrics[" + strconv.Itoa(i) + "]"
		repair(at+".name", &m.Name)
		column(at+".error_details", &m.ErrorDetails, true)
		if m.Reason != nil {
			r := *m.Reason
			text(at+".reason", &r)
			m.Reason = &r
		}
	}
	c.NoteSanitized(s)
	return s
}

// ScrubNames repairs and redacts the run row's own text: the suite and
// agent names and the metadata are redacted under p (a credential in a
// name is as visible as one anywhere), the version, digest, status and
// summary repaired. It reports what it changed.
func (r *Run) ScrubNames(p sanitize.Policy) sanitize.Report {
	var rep sanitize.Report
	for _, v := range []*string{&r.Suite, &r.Agent} {
		out, x := p.Text(*v)
		*v = out
		rep.Merge(x)
	}
	for _, v := range []*string{&r.Version, &r.SuiteDigest, &r.Status} {
		out, fixed := sanitize.Repair(*v)
		*v = out
		rep.Repaired = rep.Repaired || fixed
	}
	if r.Metadata != nil {
		out, x := p.JSON(r.Metadata)
		r.Metadata = JSON(out)
		rep.Merge(x)
	}
	if r.Summary != nil {
		out, fixed := sanitize.RepairJSON(r.Summary)
		r.Summary = JSON(out)
		rep.Repaired = rep.Repaired || fixed
	}
	return rep
}
