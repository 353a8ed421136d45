package models

import (
	"encoding/json"
	"fmt"
)

// PairwiseKey is the run summary key of a PairwiseRecord. The verdicts of
// a pairwise comparison made while a run was executed (an experiment's
// candidate variant against its reference variant) are kept in the
// candidate run's summary, written with the run: the gem reads summary as
// an opaque JSON object, so its models read such a run unchanged, and
// nothing is updated after the fact.
const PairwiseKey = "pairwise"

// PairwiseRecord holds every question's pairwise verdict of run B (the
// run it is stored with, or the candidate of evalrun compare) against
// run A.
type PairwiseRecord struct {
	// RunA is the id of the reference run, RunB the candidate's.
	RunA string `json:"run_a"`
	RunB string `json:"run_b,omitempty"`
	// VariantA and VariantB name the experiment variants, when any.
	VariantA string `json:"variant_a,omitempty"`
	VariantB string `json:"variant_b,omitempty"`
	// Judge is the judge's provider and model.
	Judge    map[string]string `json:"judge,omitempty"`
	Verdicts []PairVerdict     `json:"verdicts"`
}

// PairVerdict is one question judged twice with the answers' slots
// swapped. AFirst and BFirst are the choices ("A", "B" or "tie") with A,
// then B, in the first slot; Winner is A or B only when both agree, else
// "tie". Error is set, and the choices empty, when either reading failed:
// such a pair counts neither as a tie nor as consistent.
type PairVerdict struct {
	CaseID       string `json:"case_id"`
	AFirst       string `json:"a_first,omitempty"`
	BFirst       string `json:"b_first,omitempty"`
	Winner       string `json:"winner,omitempty"`
	ReasonAFirst string `json:"reason_a_first,omitempty"`
	ReasonBFirst string `json:"reason_b_first,omitempty"`
	Error        string `json:"error,omitempty"`
}

// PairwiseOf reads the PairwiseRecord of a run summary; nil when it holds
// none. A present value that is not a record is an error.
func PairwiseOf(summary JSON) (*PairwiseRecord, error) {
	s, err := DecodeRunSummary(summary)
	if err != nil {
		return nil, err
	}
	raw, ok := s.Extra[PairwiseKey]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var rec PairwiseRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("summary.%s: want a pairwise record: %w", PairwiseKey, err)
	}
	return &rec, nil
}
