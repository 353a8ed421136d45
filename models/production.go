package models

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"
)

// ProductionKey is the summary key of a production run's Production
// record, and the case metadata key of each of its cases' ProductionCase.
const ProductionKey = "production"

// Production marks a run as production scoring: one window of traces read
// from a collector's files and scored by a monitor without calling the
// agent. Such a run is never the automatic baseline of a suite run, nor a
// suite run of it.
type Production struct {
	// Monitor is the monitor's name (also the run's suite).
	Monitor string `json:"monitor"`
	// WindowStart and WindowEnd span the scored cases' traces.
	WindowStart time.Time `json:"window_start"`
	WindowEnd   time.Time `json:"window_end"`
	// Files are the trace files read, as given.
	Files []string `json:"files"`
	// Read counts the cases read from the files; Sampled those the sample
	// rate chose; Skipped those sampled but not scored (Filtered by the
	// monitor's trace filter, Capped over max_cases, Duplicates read twice).
	Read       int `json:"read"`
	Sampled    int `json:"sampled"`
	Skipped    int `json:"skipped"`
	Filtered   int `json:"filtered"`
	Capped     int `json:"capped"`
	Duplicates int `json:"duplicates"`
	// Sample is the monitor's sample rate.
	Sample float64 `json:"sample"`
	// SpansRead counts the spans read; SpansSkipped the spans skipped
	// (no trace id, late, other signals).
	SpansRead    int `json:"spans_read"`
	SpansSkipped int `json:"spans_skipped"`
	// Listen is the address a live window received spans on over
	// OTLP/HTTP (Files is then empty); Window its planned length, and
	// ClosedEarly why it closed before that (a signal), with what it had.
	Listen      string `json:"listen,omitempty"`
	Window      string `json:"window,omitempty"`
	ClosedEarly string `json:"closed_early,omitempty"`
}

// ProductionCase is what a production case's metadata keeps of its traces.
type ProductionCase struct {
	ConversationID string    `json:"conversation_id,omitempty"`
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	TraceIDs       []string  `json:"trace_ids"`
	Service        string    `json:"service,omitempty"`
}

// ProductionOf reads the summary's production record; nil when the run is
// not production scoring.
func ProductionOf(s RunSummary) (*Production, error) {
	raw, ok := s.Extra[ProductionKey]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var p Production
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// IsProduction reports whether run is production scoring: its summary
// holds a production record, or (a run not yet executed) its first case's
// metadata holds a ProductionCase with its trace ids.
func IsProduction(run *Run) bool {
	if s, err := DecodeRunSummary(run.Summary); err == nil {
		if _, ok := s.Extra[ProductionKey]; ok {
			return true
		}
	}
	if len(run.Cases) == 0 {
		return false
	}
	meta := bytes.TrimSpace(run.Cases[0].Metadata)
	if len(meta) == 0 || meta[0] != '{' {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(meta, &obj) != nil {
		return false
	}
	var pc ProductionCase
	return json.Unmarshal(obj[ProductionKey], &pc) == nil && len(pc.TraceIDs) > 0
}

// RunKind separates production windows from suite runs in baseline
// queries (BaselineQuery.Kind).
type RunKind string

// The kinds of run.
const (
	KindSuite      RunKind = "suite"
	KindProduction RunKind = "production"
)

// KindOf is the kind of run.
func KindOf(run *Run) RunKind {
	if IsProduction(run) {
		return KindProduction
	}
	return KindSuite
}

// filter keeps the runs of kind k.
func (k RunKind) filter(q *bun.SelectQuery, f sqlFuncs) *bun.SelectQuery {
	switch k {
	case KindSuite:
		return q.Where(f.text("r.summary", ProductionKey) + " IS NULL")
	case KindProduction:
		return q.Where(f.text("r.summary", ProductionKey) + " IS NOT NULL")
	}
	return q
}
