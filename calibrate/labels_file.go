package calibrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/bounds"
)

// LabelsFormat and LabelsVersion are the header line of a labels file
// written by evalrun label: {"format": "agentevals-labels", "version": 1}.
const (
	LabelsFormat  = "agentevals-labels"
	LabelsVersion = 1
)

// errUnlabelled marks a row of an exported file that is still empty.
var errUnlabelled = errors.New("not labelled")

// labelContext is what an exported row shows the person who fills it in;
// ParseLabels ignores it, and a row with it but no label is skipped.
type labelContext struct {
	Why            any `json:"why,omitempty"`
	Question       any `json:"question,omitempty"`
	ExpectedAnswer any `json:"expected_answer,omitempty"`
	Answer         any `json:"answer,omitempty"`
	JudgeScore     any `json:"judge_score,omitempty"`
	JudgeReason    any `json:"judge_reason,omitempty"`
}

// maxLabelLine is the longest line a labels file may hold, and
// maxLabelDepth the deepest nesting of objects and arrays in a line.
const (
	maxLabelLine  = 4 << 20
	maxLabelDepth = 32
)

// checkLabelLine refuses a line that is not UTF-8, nests deeper than
// maxLabelDepth, or repeats a key in one object (the decoder would keep
// the last value silently).
func checkLabelLine(line []byte) error {
	if err := bounds.CheckEncoding(line); err != nil {
		return err
	}
	if err := (bounds.Limits{MaxDepth: maxLabelDepth, MaxBytes: maxLabelLine}).CheckJSON(line); err != nil {
		return err
	}
	type frame struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(line))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // not JSON: the parser says so in its own words
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.keys != nil && top.wantKey {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return fmt.Errorf("key %q appears twice in one object", k)
				}
				top.keys[k] = true
				top.wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			return nil
		}
		if top := stack[len(stack)-1]; top.keys != nil {
			top.wantKey = true // a value ended: a key comes next
		}
	}
}

// labelsHeader reports whether line is a labels file header, and an error
// for a header of another format or version.
func labelsHeader(line []byte) (bool, error) {
	var h struct {
		Format  *string `json:"format"`
		Version int     `json:"version"`
	}
	if !bytes.Contains(line, []byte(`"format"`)) || json.Unmarshal(line, &h) != nil || h.Format == nil {
		return false, nil
	}
	if *h.Format != LabelsFormat || h.Version != LabelsVersion {
		return true, fmt.Errorf("header: want format %q version %d, got %q version %d", LabelsFormat, LabelsVersion, *h.Format, h.Version)
	}
	return true, nil
}

// LabelRecord is one label as evalrun label appends it: who gave it,
// when, on which run.
type LabelRecord struct {
	CaseID string `json:"case_id"`
	Metric string `json:"metric"`
	Label  string `json:"label"` // "pass" or "fail"
	Note   string `json:"note,omitempty"`
	Rater  string `json:"rater"`
	At     string `json:"at"`
	RunID  string `json:"run_id"`
}

// NewLabelRecord stamps a label with the time, in UTC.
func NewLabelRecord(caseID, metric string, pass bool, note, rater, runID string, at time.Time) LabelRecord {
	l := "fail"
	if pass {
		l = "pass"
	}
	return LabelRecord{CaseID: caseID, Metric: metric, Label: l, Note: strings.TrimSpace(note), Rater: rater,
		At: at.UTC().Format(time.RFC3339), RunID: runID}
}

// DefaultLabelsPath is the labels file kept next to a suite file:
// support.json → support.labels.jsonl.
func DefaultLabelsPath(suitePath string) string {
	base := strings.TrimSuffix(suitePath, filepath.Ext(suitePath))
	return base + ".labels.jsonl"
}

// AppendLabel appends one record to the labels file at path, creating it
// with its header line when it does not exist. Nothing written is ever
// rewritten: a person's earlier labels stay as they were.
func AppendLabel(path string, rec LabelRecord) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("labels file: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("labels file %s: %w", path, err)
	}
	var buf bytes.Buffer
	if st.Size() == 0 {
		h, _ := json.Marshal(map[string]any{"format": LabelsFormat, "version": LabelsVersion})
		buf.Write(append(h, '\n'))
	}
	line, err := json.Marshal(rec)
	if err != nil {
		f.Close()
		return err
	}
	buf.Write(append(line, '\n'))
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("labels file %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("labels file %s: %w", path, err)
	}
	return f.Close()
}

// ReadLabelsFile reads the labels already given in path; a missing file
// holds none.
func ReadLabelsFile(path string) ([]Label, error) {
	data, err := bounds.ReadFile(path, bounds.DefaultMaxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("labels file %s: %w", path, err)
	}
	labels, err := ParseLabels(bytes.NewReader(data))
	if err != nil && !bytes.Contains(data, []byte(`"case_id"`)) {
		return nil, nil // a header only: no label yet
	}
	if err != nil {
		return nil, fmt.Errorf("labels file %s: %w", path, err)
	}
	return labels, nil
}
