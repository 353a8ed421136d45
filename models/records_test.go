package models_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// asMap is how the writers encoded a column before the typed records: a
// map, its keys sorted and its values compacted.
func asMap(t *testing.T, raw string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCaseMetadata_ReadWritesBack: metadata read and written again keeps
// every key as it was, declared or not, whatever its order or shape.
func TestCaseMetadata_ReadWritesBack(t *testing.T) {
	for _, raw := range []string{
		`{"zeta": 1.50, "judge_usage": {"a": {"input_tokens": 3}}, "latency_ms": 12345678901234567890}`,
		`{"output_truncated": {"kept_bytes": 5}, "sanitized": "yes", "repeats": 3, "api_replay": {"interactions": []}}`,
		`{"not_calculated": [{"reason": null, "name": "j", "threshold": 0.5, "position": 1}], "pass_at_k": "?"}`,
		`{"judge_usage": {}, "metric_details": null, "api_replay": null, "original": [1, 2]}`,
		`{"repeats": [{"status": "passed"}, {"status": "failed"}], "pass_at_k": true, "pass_hat_k": "no", "repeat_scores": {"m": [1, null]}}`,
		`{"api_replay": {"passed": false, "observed": [7, {"status": 5}], "missing": ["z"], "extra": {"b": 1, "a": 2}}}`,
	} {
		m, err := models.DecodeCaseMetadata(models.JSON(raw))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		got, err := m.Encode()
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if want := asMap(t, raw); string(got) != want {
			t.Errorf("%s\nwritten back as %s\nwant         %s", raw, got, want)
		}
	}
}

// TestCaseMetadata_Encode: a record the runner builds is written exactly as
// the map the runner wrote before: keys sorted, pass_at_k null when no
// repeat was evaluated, the agent's keys beside the runner's.
func TestCaseMetadata_Encode(t *testing.T) {
	cost := 0.25
	m := models.CaseMetadata{
		JudgeUsage:    models.JudgeUsage{"polite": {Calls: 1, Attempts: 2, InputTokens: 10, Cost: &cost}},
		MetricDetails: map[string]map[string]json.RawMessage{"polite": {"model": json.RawMessage(`"m<1>"`)}},
		Sanitized:     &models.Sanitized{Repaired: []string{"output"}},
		CaseRepeats: &models.CaseRepeats{RepeatScores: map[string][]*float64{"polite": {nil, &cost}},
			Repeats: []models.RepeatAnswer{{Status: "error", Metrics: []models.RepeatMetric{}}}},
		Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`), "sanitized": json.RawMessage(`"the agent's"`)},
	}
	got, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":1,"judge_usage":{"polite":{"calls":1,"errors":0,"attempts":2,"cached":0,"input_tokens":10,"output_tokens":0,"cost":0.25}},` +
		`"metric_details":{"polite":{"model":"m\u003c1\u003e"}},"pass_at_k":null,"pass_hat_k":null,"repeat_scores":{"polite":[null,0.25]},` +
		`"repeats":[{"actions":null,"cost":null,"duration_ms":0,"error":null,"input_tokens":null,"metrics":[],"output":null,` +
		`"output_tokens":null,"response_metadata":null,"status":"error"}],"sanitized":{"repaired":["output"]}}`
	if string(got) != want {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
}

// TestCaseMetadata_Decode reads the declared keys, keeps the others in
// Extra and refuses a value that is not an object.
func TestCaseMetadata_Decode(t *testing.T) {
	m, err := models.DecodeCaseMetadata(models.JSON(`{"revision": "r2", "judge_usage": {"old": {"input_tokens": 100, "output_tokens": 20},
		"new": {"calls": 2, "errors": 1, "input_tokens": 5}}, "pass_at_k": true, "pass_hat_k": false, "repeats": [{}, {}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m.Extra["revision"]); got != `"r2"` || len(m.Extra) != 1 {
		t.Errorf("extra = %v, want only revision", m.Extra)
	}
	// An entry written before calls were counted is one call of one attempt.
	if old := m.JudgeUsage["old"]; old.Calls != 1 || old.Attempts != 1 || old.InputTokens != 100 || old.Cost != nil {
		t.Errorf("old entry = %+v", old)
	}
	if n := m.JudgeUsage["new"]; n.Calls != 2 || n.Attempts != 2 || n.Errors != 1 {
		t.Errorf("new entry = %+v", n)
	}
	if !m.Repeated() || *m.PassAtK != true || *m.PassHatK != false {
		t.Errorf("repeats = %+v", m.CaseRepeats)
	}
	for _, raw := range []models.JSON{nil, models.JSON(`null`)} { // SQL NULL, JSON null
		if m, err := models.DecodeCaseMetadata(raw); err != nil || m.CaseRepeats != nil || m.Extra != nil {
			t.Errorf("%q: %+v, %v; want no metadata", raw, m, err)
		}
	}
	if _, err := models.DecodeCaseMetadata(models.JSON(`[1]`)); !errors.Is(err, models.ErrNotJSONObject) {
		t.Errorf("a list: %v, want ErrNotJSONObject", err)
	}
}

// TestAPIReplay_ReadWritesBack: evidence read is written back as it was
// read; evidence built is written field by field, keys sorted.
func TestAPIReplay_ReadWritesBack(t *testing.T) {
	raw := `{"passed":true,"observed":[],"declared":[],"missing":[]}`
	var ev models.APIReplay
	if err := json.Unmarshal([]byte(raw), &ev); err != nil || ev.Unknown || !ev.Passed {
		t.Fatalf("read %+v, %v", ev, err)
	}
	if b, _ := json.Marshal(ev); string(b) != raw {
		t.Errorf("written back as %s, want %s", b, raw)
	}
	one := 0
	built := models.APIReplay{AllowHosts: []string{}, Passed: true, Missing: []models.APIReplayMissing{},
		Observed: []models.APIReplayRequest{{Method: "GET", URL: "https://a/b", Status: "matched", Interaction: &one}}}
	want := `{"allow_hosts":[],"declared":null,"missing":[],"observed":[{"body_bytes":0,"interaction":0,"method":"GET",` +
		`"status":"matched","url":"https://a/b"}],"passed":true}`
	if b, _ := json.Marshal(built); string(b) != want {
		t.Errorf("built evidence = %s\nwant %s", b, want)
	}
}

// TestRunSummary: the summary of a run is written with its keys sorted,
// unavailable values null and the repeat and infrastructure keys only when
// they apply; a summary another writer wrote reads with what it lacks nil.
func TestRunSummary(t *testing.T) {
	one, half := 1.0, 0.5
	run := &models.Run{Cases: []*models.CaseResult{
		{Status: models.StatusPassed, ResponseMetadata: models.JSON(`{"judge_usage":{"j":{"calls":1,"attempts":1,"input_tokens":7,"cost":null}}}`),
			Metrics: []*models.MetricResult{{Name: "j", Threshold: 0.5, Score: &one, Passed: true}}},
		{Status: models.StatusFailed, Metrics: []*models.MetricResult{{Name: "j", Threshold: 0.6, Score: &half}}},
	}}
	s := models.SummaryOf(run, 2, 1500*time.Microsecond)
	s.InfrastructureFailure = map[string]string{"judge": "timeout (2 of 2 calls)"}
	s.Extra = map[string]json.RawMessage{"judge": json.RawMessage(`{"model":"m"}`), "cases": json.RawMessage(`99`)}
	got, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"cases":2,"concurrency":2,"cost":null,"duration_ms":1.5,"errors":0,"failed":1,` +
		`"infrastructure_failure":{"judge":"timeout (2 of 2 calls)"},"input_tokens":null,"judge":{"model":"m"},` +
		`"judge_usage":{"calls":1,"errors":0,"attempts":1,"cached":0,"input_tokens":7,"output_tokens":0,"cost":null},` +
		`"metrics":{"j":{"count":2,"errors":0,"mean":0.75,"not_calculated":0,"passed":1}},"not_evaluated":0,` +
		`"output_tokens":null,"pass_rate":0.5,"passed":1,"quality":0.75,"writer":"agentevals-go"}`
	if string(got) != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
	s.RepeatSummary = models.RepeatSummaryOf(run, 3)
	if got, _ := s.Encode(); !json.Valid(got) || !strings.Contains(string(got), `"pass_at_k":null,"pass_hat_k":null,"pass_rate":0.5,"passed":1,"quality":0.75,"repeats":3,`) {
		t.Errorf("with repeats: %s", got)
	}

	gem, err := models.DecodeRunSummary(models.JSON(`{"total": 3, "passed": 2, "quality": "n/a"}`))
	if err != nil {
		t.Fatal(err)
	}
	if gem.Writer != "" || gem.Cases != nil || gem.Passed == nil || *gem.Passed != 2 || gem.Quality != nil || len(gem.Extra) != 2 {
		t.Errorf("gem summary = %+v", gem)
	}
	// A value that did not fit its field is written back as it was read.
	if b, _ := gem.Encode(); !strings.Contains(string(b), `"quality":"n/a"`) || !strings.Contains(string(b), `"total":3`) {
		t.Errorf("gem summary written back as %s", b)
	}
}
