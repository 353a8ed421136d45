package evidence

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/models"
)

// InvalidError says what is wrong with an evidence file (or a set of
// shards): the file, the JSON path of the offending value and what was
// expected. Nothing is written for an invalid file.
type InvalidError struct {
	File, Path, Message string
}

// Error reads "FILE: PATH: MESSAGE".
func (e *InvalidError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Path, e.Message)
}

// Read reads and validates an evidence file (see Validate) with the
// default Options.
func Read(path string) (*File, error) { return ReadWith(path, Options{}) }

// ReadWith reads an evidence file of at most MaxFileBytes (a device or a
// FIFO that goes on is refused there) and parses it with ParseWith.
func ReadWith(path string, o Options) (*File, error) {
	data, err := bounds.ReadFile(path, MaxFileBytes)
	if bounds.IsLimit(err) {
		return nil, &InvalidError{File: path, Message: err.Error()}
	}
	if err != nil {
		return nil, fmt.Errorf("read evidence: %w", err)
	}
	return ParseWith(path, data, o)
}

// Parse is ParseWith with the default Options.
func Parse(name string, data []byte) (*File, error) { return ParseWith(name, data, Options{}) }

// ParseWith decodes and validates an evidence file's bytes; name is used
// in messages. Before validation the run's times are normalized to UTC
// microseconds and checked against the window around now, its strings
// repaired and redacted as a live run's, and its answers cut to the answer
// cap.
func ParseWith(name string, data []byte, o Options) (*File, error) {
	bad := func(p, format string, args ...any) error {
		return &InvalidError{File: name, Path: p, Message: fmt.Sprintf(format, args...)}
	}
	if err := fileLimits().CheckJSON(data); err != nil {
		var be *bounds.Error
		if errors.As(err, &be) && be.Path != "" {
			return nil, bad(be.Path, "%s (limit: %s)", be.Message, be.Limit)
		}
		return nil, bad("", "%v", err)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if !json.Valid(data) {
		err := json.Unmarshal(data, &head) // says where the JSON breaks
		return nil, bad("", "not an evidence file: not valid JSON: %v", err)
	}
	if t := bytes.TrimSpace(data); t[0] != '{' || json.Unmarshal(data, &head) != nil {
		return nil, bad("$", "not an evidence file: want a JSON object with \"format\": %q and \"version\": %d", Format, Version)
	}
	if head.Format != Format {
		return nil, bad("$.format", "want %q, got %q", Format, head.Format)
	}
	if head.Version != Version {
		return nil, bad("$.version", "this evalrun reads version %d, got %d (use the evalrun that wrote the file, or a newer one)", Version, head.Version)
	}
	var d document
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, bad("", "%v", err)
	}
	if d.Run == nil {
		return nil, bad("$.run", "missing: want the runs row as an object")
	}
	cols := fileColumns()
	run := new(models.Run)
	if err := decodeRow(d.Run, run, cols.run); err != nil {
		return nil, bad("$.run", "%v", err)
	}
	byPosition := map[int]*models.CaseResult{}
	metricRows := map[*models.MetricResult]int{}
	for i, row := range d.CaseResults {
		c := new(models.CaseResult)
		if err := decodeRow(row, c, cols.cases); err != nil {
			return nil, bad(fmt.Sprintf("$.case_results[%d]", i), "%v", err)
		}
		if _, dup := byPosition[c.Position]; dup {
			return nil, bad(fmt.Sprintf("$.case_results[%d].position", i), "position %d is taken by an earlier case", c.Position)
		}
		byPosition[c.Position] = c
		run.Cases = append(run.Cases, c)
	}
	for i, row := range d.MetricResults {
		p := fmt.Sprintf("$.metric_results[%d]", i)
		var pos int
		if err := json.Unmarshal(row["case_position"], &pos); err != nil {
			return nil, bad(p+".case_position", "want the position of the metric's case, a whole number")
		}
		c, ok := byPosition[pos]
		if !ok {
			return nil, bad(p+".case_position", "no case has position %d", pos)
		}
		m := new(models.MetricResult)
		if err := decodeRow(row, m, cols.metrics, "case_position"); err != nil {
			return nil, bad(p, "%v", err)
		}
		c.Metrics = append(c.Metrics, m)
		metricRows[m] = i
	}
	normalizeTimes(run)
	if err := o.checkTimes(run, bad); err != nil {
		return nil, err
	}
	written := cloneRun(run)
	if cut := capAnswers(run, o.answerCap()); !scrub(run) && !cut { // the live run's order: cut, then sanitize
		written = nil // nothing to compare but the rows themselves
	}
	f := &File{Run: run, Definition: d.Definition, Shard: d.Shard, Reason: d.Reason, metricRows: metricRows, asWritten: written}
	if err := f.validate(name); err != nil {
		return nil, err
	}
	return f, nil
}

// Validate checks the file against the contract: run status and times,
// JSON objects where the tables require them, case statuses, positions,
// thresholds and scores in [0,1], metric rows matching each case's
// minimum_scores, the rows matching the definition (digest, case ids in
// order, calculated metrics), the shard's slice, and the summary's counts.
func (f *File) Validate(name string) error { return f.validate(name) }

func (f *File) validate(name string) error {
	bad := func(p, format string, args ...any) error {
		return &InvalidError{File: name, Path: p, Message: fmt.Sprintf(format, args...)}
	}
	r, def := f.Run, f.Definition
	switch {
	case r.ID == uuid.Nil:
		return bad("$.run.id", "want the run's UUID")
	case r.Status != models.RunStatusCompleted:
		return bad("$.run.status", "want %q, got %q", models.RunStatusCompleted, r.Status)
	case r.Suite == "" || r.Agent == "" || r.SuiteDigest == "":
		return bad("$.run", "suite, agent and suite_digest must not be empty")
	case r.FinishedAt.Before(r.StartedAt):
		return bad("$.run.finished_at", "finished_at %s is before started_at %s", r.FinishedAt, r.StartedAt)
	case def.SuiteDigest != r.SuiteDigest:
		return bad("$.definition.suite_digest", "%q does not match the run's suite_digest %q", def.SuiteDigest, r.SuiteDigest)
	}
	for col, j := range map[string]models.JSON{"metadata": r.Metadata, "summary": r.Summary} {
		if !isObject(j) {
			return bad("$.run."+col, "want a JSON object")
		}
	}
	if err := uniqueIDs(def, bad); err != nil {
		return err
	}
	if !sort.StringsAreSorted(def.CalculatedMetrics) {
		return bad("$.definition.calculated_metrics", "want the names sorted")
	}
	calculated := map[string]bool{}
	for _, n := range def.CalculatedMetrics {
		calculated[n] = true
	}
	if s := f.Shard; s != nil && (s.Count < 1 || s.Count > MaxShards || s.Index < 1 || s.Index > s.Count) {
		return bad("$.shard", "want 1 <= index <= count <= %d, got index %d of %d", MaxShards, s.Index, s.Count)
	}
	if err := checkSummaryNumbers(r.Summary, bad); err != nil {
		return err
	}
	stop := interruptedOf(r)
	want := 0 // the next position the rows must hold
	for i, c := range r.Cases {
		p := fmt.Sprintf("$.case_results[%d]", i)
		if f.Shard != nil {
			for want < len(def.CaseIDs) && !f.Shard.Holds(want) {
				want++
			}
		}
		if stop != nil && c.Position > want { // an interrupted run holds the questions that finished
			want = c.Position
		}
		switch {
		case c.RunID != r.ID:
			return bad(p+".run_id", "%s is not the run's id %s", c.RunID, r.ID)
		case c.Position != want || want >= len(def.CaseIDs):
			return bad(p+".position", "want %d (rows in suite order, %s), got %d", want, f.sliceRule(), c.Position)
		case c.CaseID != def.CaseIDs[c.Position]:
			return bad(p+".case_id", "the definition has %q at position %d, got %q", def.CaseIDs[c.Position], c.Position, c.CaseID)
		case !validStatus(c.Status):
			return bad(p+".status", "want passed, failed, error or not_evaluated, got %q", c.Status)
		case c.DurationMS < 0 || math.IsNaN(c.DurationMS):
			return bad(p+".duration_ms", "want a number >= 0, got %v", c.DurationMS)
		case !isObject(c.Metadata):
			return bad(p+".metadata", "want a JSON object")
		}
		want++
		if err := checkMetrics(c, calculated, func(j int, format string, args ...any) error {
			if j < len(c.Metrics) {
				if row, ok := f.metricRows[c.Metrics[j]]; ok {
					return bad(fmt.Sprintf("$.metric_results[%d] (case %q, metric %q)", row, c.CaseID, c.Metrics[j].Name), format, args...)
				}
			}
			return bad(fmt.Sprintf("%s (case %q) metric %d", p, c.CaseID, j), format, args...)
		}); err != nil {
			return err
		}
		if derived := c.DeriveStatus(); c.Status != derived {
			return bad(p+".status", "%q, but its rows make the case %q (agent error, metric verdicts)", c.Status, derived)
		}
	}
	if stop != nil {
		if f.Shard != nil || stop.Planned != len(def.CaseIDs) || stop.Finished != len(r.Cases) {
			return bad("$.run.summary.interrupted", "want finished = %d rows and planned = %d questions of a whole run, got %d and %d",
				len(r.Cases), len(def.CaseIDs), stop.Finished, stop.Planned)
		}
		return checkSummaryCounts(r, func(format string, args ...any) error { return bad("$.run.summary", format, args...) })
	}
	if f.Shard == nil && len(r.Cases) != len(def.CaseIDs) {
		return bad("$.case_results", "%d rows for a definition of %d questions (a whole run holds every question)", len(r.Cases), len(def.CaseIDs))
	}
	if s := f.Shard; s != nil {
		if slice := (len(def.CaseIDs) + s.Count - s.Index) / s.Count; len(r.Cases) != slice {
			return bad("$.case_results", "%d rows, but shard %d of %d of a definition of %d questions holds %d", len(r.Cases), s.Index, s.Count, len(def.CaseIDs), slice)
		}
	}
	return checkSummaryCounts(r, func(format string, args ...any) error { return bad("$.run.summary", format, args...) })
}

// sliceRule says which positions the rows must hold.
func (f *File) sliceRule() string {
	if f.Shard == nil {
		return "0, 1, 2, … for a whole run"
	}
	return fmt.Sprintf("shard %d of %d holds the positions p with p mod %d = %d", f.Shard.Index, f.Shard.Count, f.Shard.Count, f.Shard.Index-1)
}

// passEpsilon absorbs floating-point error in a mean of repeat scores that
// reaches its threshold (the runner's own tolerance).
const passEpsilon = 1e-9

// checkMetrics checks one case's metric rows: positions 0.., names and
// thresholds as in minimum_scores, scores and thresholds in [0,1], and
// only calculated metrics of the definition carrying a verdict.
func checkMetrics(c *models.CaseResult, calculated map[string]bool, bad func(int, string, ...any) error) error {
	var minimum map[string]float64
	if err := c.MinimumScores.Decode(&minimum); err != nil {
		return bad(0, "minimum_scores: want an object of thresholds: %v", err)
	}
	if len(c.Metrics) != len(minimum) {
		return bad(len(c.Metrics), "the case has %d metric rows for %d minimum_scores (one row per metric)", len(c.Metrics), len(minimum))
	}
	for j, m := range c.Metrics {
		t, ok := minimum[m.Name]
		switch {
		case m.Position != j:
			return bad(j, "want position %d, got %d", j, m.Position)
		case !ok:
			return bad(j, "%q is not in the case's minimum_scores", m.Name)
		case m.Threshold < 0 || m.Threshold > 1 || m.Threshold != t:
			return bad(j, "threshold %v: want the case's minimum score %v, in [0, 1]", m.Threshold, t)
		case m.Score != nil && (*m.Score < 0 || *m.Score > 1 || math.IsNaN(*m.Score)):
			return bad(j, "score %v is outside [0, 1]", *m.Score)
		case m.Calculated() && !calculated[m.Name]:
			return bad(j, "%q has a verdict but is not among the definition's calculated metrics", m.Name)
		case m.Passed && m.Errored():
			return bad(j, "%q passed with error_details: a metric that errored fails (passed false, score null)", m.Name)
		case m.Passed && m.Score == nil:
			return bad(j, "%q passed without a score", m.Name)
		case m.Passed && *m.Score < m.Threshold-passEpsilon:
			return bad(j, "%q passed with score %v below its threshold %v", m.Name, *m.Score, m.Threshold)
		case !m.Passed && m.Score != nil && !m.Errored() && *m.Score >= m.Threshold && !repeated(c):
			return bad(j, "%q failed with score %v at or above its threshold %v (thresholds are inclusive: that score passes)", m.Name, *m.Score, m.Threshold)
		}
	}
	return nil
}

// interruptedOf is the run's interrupted record (nil when it ran to the end).
func interruptedOf(r *models.Run) *models.Interrupted {
	s, err := models.DecodeRunSummary(r.Summary)
	if err != nil {
		return nil
	}
	return s.Interrupted
}

// checkSummaryCounts refuses a summary whose case counts disagree with the
// rows (keys the summary lacks are not checked: the Ruby gem's may differ).
func checkSummaryCounts(r *models.Run, bad func(string, ...any) error) error {
	s, err := models.DecodeRunSummary(r.Summary)
	if err != nil {
		return bad("%v", err)
	}
	counts := map[string]int{}
	for _, c := range r.Cases {
		counts[c.Status]++
	}
	for _, k := range []struct {
		name  string
		value *int
		rows  int
	}{
		{"cases", s.Cases, len(r.Cases)}, {"passed", s.Passed, counts[models.StatusPassed]},
		{"failed", s.Failed, counts[models.StatusFailed]}, {"errors", s.Errors, counts[models.StatusError]},
		{"not_evaluated", s.NotEvaluated, counts[models.StatusNotEvaluated]},
	} {
		if k.value != nil && *k.value != k.rows {
			return bad("%s is %v but the rows hold %d", k.name, *k.value, k.rows)
		}
	}
	return nil
}

func validStatus(s string) bool {
	switch s {
	case models.StatusPassed, models.StatusFailed, models.StatusError, models.StatusNotEvaluated:
		return true
	}
	return false
}

func isObject(j models.JSON) bool {
	t := bytes.TrimSpace(j)
	return len(t) > 0 && t[0] == '{' && json.Valid(t)
}
