package interop_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// view renders Go records in the neutral shape interop.rb prints, so the
// two sides compare as JSON values.
func view(t *testing.T, r *models.Run) map[string]any {
	t.Helper()
	ts := func(tm time.Time) string {
		if tm.Location() != time.UTC {
			t.Errorf("time %v read back outside UTC", tm)
		}
		return tm.UTC().Format("2006-01-02T15:04:05.000000Z")
	}
	js := func(j models.JSON) any {
		var v any
		if err := j.Decode(&v); err != nil {
			t.Errorf("decode %s: %v", j, err)
		}
		return v
	}
	out := map[string]any{
		"id": r.ID.String(), "sequence": r.Sequence, "suite": r.Suite, "agent": r.Agent, "version": r.Version,
		"suite_digest": r.SuiteDigest, "status": r.Status, "started_at": ts(r.StartedAt), "finished_at": ts(r.FinishedAt),
		"metadata": js(r.Metadata), "summary": js(r.Summary), "created_at": ts(r.CreatedAt), "updated_at": ts(r.UpdatedAt),
	}
	var cases []any
	for _, c := range r.Cases {
		var cost any
		if c.Cost != nil {
			cost = *c.Cost
		}
		cm := map[string]any{
			"id": c.ID, "run_id": c.RunID.String(), "position": c.Position, "case_id": c.CaseID, "name": c.Name,
			"status": c.Status, "duration_ms": c.DurationMS, "question": js(c.Question), "expected_answer": js(c.ExpectedAnswer),
			"expected_actions": js(c.ExpectedActions), "minimum_scores": js(c.MinimumScores), "metadata": js(c.Metadata),
			"output": js(c.Output), "actions": js(c.Actions), "actions_is_nil": c.Actions.IsNull(),
			"response_metadata": js(c.ResponseMetadata), "error_details": js(c.ErrorDetails),
			"input_tokens": c.InputTokens, "output_tokens": c.OutputTokens, "cost": cost,
			"created_at": ts(c.CreatedAt), "updated_at": ts(c.UpdatedAt),
		}
		var metrics []any
		for _, m := range c.Metrics {
			metrics = append(metrics, map[string]any{
				"id": m.ID, "case_result_id": m.CaseResultID, "position": m.Position, "name": m.Name,
				"threshold": m.Threshold, "score": m.Score, "passed": m.Passed, "reason": m.Reason,
				"error_details": js(m.ErrorDetails), "created_at": ts(m.CreatedAt), "updated_at": ts(m.UpdatedAt),
			})
		}
		cm["metrics"] = metrics
		cases = append(cases, cm)
	}
	out["cases"] = cases
	return normalize(t, out).(map[string]any)
}

// normalize passes a value through JSON, so Go and Ruby views hold the same
// Go types (float64, string, map, slice, nil), with empty lists as [].
func normalize(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return nilToEmpty(out)
}

func nilToEmpty(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if (k == "cases" || k == "metrics") && val == nil {
				x[k] = []any{}
				continue
			}
			x[k] = nilToEmpty(val)
		}
	case []any:
		for i := range x {
			x[i] = nilToEmpty(x[i])
		}
	}
	return v
}

// rubyView strips what only Ruby reports (association and read-only
// checks, which the test asserts separately) and turns decimal text into
// numbers.
func rubyView(t *testing.T, r map[string]any) map[string]any {
	t.Helper()
	r = normalize(t, r).(map[string]any)
	for _, k := range []string{"readonly", "previous_id"} {
		delete(r, k)
	}
	for _, c := range r["cases"].([]any) {
		cm := c.(map[string]any)
		if cm["run_matches"] != true {
			t.Errorf("case %v: belongs_to :run does not find its run", cm["case_id"])
		}
		delete(cm, "run_matches")
		if s, ok := cm["cost"].(string); ok {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Errorf("cost %q: %v", s, err)
			}
			cm["cost"] = f
		}
		for _, m := range cm["metrics"].([]any) {
			mm := m.(map[string]any)
			if mm["case_result_matches"] != true {
				t.Errorf("metric %v: belongs_to :case_result does not find its case", mm["name"])
			}
			delete(mm, "case_result_matches")
		}
	}
	return r
}

// fixtureView is the fixture run in the neutral shape, without the values
// the database generates.
func fixtureView(t *testing.T, f *fixture, i int) map[string]any {
	t.Helper()
	r := normalize(t, f.raw[i]).(map[string]any)
	for _, c := range r["cases"].([]any) {
		cm := c.(map[string]any)
		cm["actions_is_nil"] = cm["actions"] == nil
		if s, ok := cm["cost"].(string); ok {
			v, _ := strconv.ParseFloat(s, 64)
			cm["cost"] = v
		}
	}
	return r
}

// withoutGenerated drops the database's ids and sequence and Rails
// timestamps (the run's uuid comes from the writer and stays).
func withoutGenerated(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	v = normalize(t, v).(map[string]any)
	for _, k := range []string{"sequence", "created_at", "updated_at"} {
		delete(v, k)
	}
	for _, c := range v["cases"].([]any) {
		cm := c.(map[string]any)
		for _, k := range []string{"id", "run_id", "created_at", "updated_at"} {
			delete(cm, k)
		}
		for _, m := range cm["metrics"].([]any) {
			mm := m.(map[string]any)
			for _, k := range []string{"id", "case_result_id", "created_at", "updated_at"} {
				delete(mm, k)
			}
		}
	}
	return v
}

// same reports every path where two JSON values differ.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	var diffs []string
	diffJSON("", got, want, &diffs)
	sort.Strings(diffs)
	if len(diffs) > 0 {
		if len(diffs) > 20 {
			diffs = append(diffs[:20], fmt.Sprintf("… %d more", len(diffs)-20))
		}
		t.Errorf("%s differ:\n  %s", what, strings.Join(diffs, "\n  "))
	}
}

func diffJSON(path string, got, want any, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: got %v, want an object", path, got))
			return
		}
		for k := range w {
			if _, ok := g[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: missing", path, k))
				continue
			}
			diffJSON(path+"."+k, g[k], w[k], out)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: unexpected %v", path, k, g[k]))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: got %v, want %v", path, got, want))
			return
		}
		for i := range w {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), g[i], w[i], out)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			*out = append(*out, fmt.Sprintf("%s: got %#v, want %#v", path, got, want))
		}
	}
}

// savedByGo is how Go saves a view (view, fixtureView): a metric that was
// not calculated (no score, no error) gets no row and is listed under
// response_metadata.not_calculated instead (models.NotCalculatedKey).
func savedByGo(v map[string]any) map[string]any {
	for _, c := range v["cases"].([]any) {
		cm := c.(map[string]any)
		var kept, folded []any
		for _, m := range cm["metrics"].([]any) {
			mm := m.(map[string]any)
			if mm["score"] == nil && mm["error_details"] == nil {
				folded = append(folded, map[string]any{"name": mm["name"], "position": mm["position"],
					"threshold": mm["threshold"], "reason": mm["reason"]})
				continue
			}
			kept = append(kept, m)
		}
		if kept == nil {
			kept = []any{}
		}
		cm["metrics"] = kept
		if len(folded) > 0 {
			rm, _ := cm["response_metadata"].(map[string]any)
			if rm == nil {
				rm = map[string]any{}
			}
			rm["not_calculated"] = folded
			cm["response_metadata"] = rm
		}
	}
	return v
}
