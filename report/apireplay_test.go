package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/replay"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// hostile is planted in evidence: HTML, Markdown table syntax and an ANSI
// escape that must all come out inert.
const hostile = "<script>alert(1)</script> | cell | \x1b[31mred\x1b[0m"

// replayFixtures declares a GET and a POST on host.
func replayFixtures(t *testing.T, host string) *replay.Fixtures {
	t.Helper()
	fx, err := replay.Load(json.RawMessage(`[
	  {"expect_request": {"method": "GET", "url": "https://`+host+`/orders", "query": {"id": "42"}},
	   "respond_with": {"json": {"status": "ready"}}},
	  {"expect_request": {"method": "POST", "url": "https://`+host+`/labels", "json": {"order": 42, "express": false}},
	   "respond_with": {"json": {"label": "L-1"}}},
	  {"expect_request": {"method": "DELETE", "url": "https://`+host+`/labels/L-1"},
	   "respond_with": {"status": 200, "json": null}}]`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// replayEvidence runs a real replay session: the passing agent makes all
// three declared requests; the failing one sends a wrong body and never
// deletes the label.
func replayEvidence(t *testing.T, host string, fail bool) *replay.Evidence {
	t.Helper()
	s := replayFixtures(t, host).NewSession()
	c := s.Client(nil)
	do := func(method, url, body string) {
		req, err := http.NewRequest(method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if resp, err := c.Do(req); err == nil {
			resp.Body.Close()
		}
	}
	do("GET", "https://"+host+"/orders?id=42", "")
	if fail {
		do("POST", "https://"+host+"/labels", `{"order": 42, "express": true}`)
		ev, err := s.Finish()
		if err == nil {
			t.Fatal("failing session: Finish returned no failure")
		}
		ev.Observed[1].Differences = append(ev.Observed[1].Differences, hostile)
		return ev
	}
	do("POST", "https://"+host+"/labels", `{"order": 42, "express": false}`)
	do("DELETE", "https://"+host+"/labels/L-1", "")
	ev, err := s.Finish()
	if err != nil {
		t.Fatalf("passing session: %v", err)
	}
	return ev
}

// replayRun is a run of three cases: passing replay, failing replay, and
// evidence in a shape another writer might use.
func replayRun(t *testing.T) *models.Run {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	run := &models.Run{ID: uuid.MustParse("01900000-0000-7000-8000-0000000a0001"), Suite: "Replay", Agent: "Agent",
		Version: "1", SuiteDigest: "d", Status: models.RunStatusCompleted, StartedAt: at, FinishedAt: at,
		Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
	metas := []map[string]any{
		{"api_replay": replayEvidence(t, "pass.example", false)},
		{"api_replay": replayEvidence(t, "shipping.example", true), "other": 1},
		{"api_replay": map[string]any{"requests": []any{map[string]any{"path": hostile}}}},
	}
	for i, meta := range metas {
		c := &models.CaseResult{ID: int64(i + 1), RunID: run.ID, Position: i, CaseID: []string{"ok", "bad", "ruby"}[i],
			Question: models.MustJSON("q"), Output: models.MustJSON("a"), Metadata: models.JSON(`{}`),
			MinimumScores: models.JSON(`{"exact":1}`), Actions: models.JSON(`[]`), ResponseMetadata: models.MustJSON(meta)}
		c.Name = c.CaseID
		score := 1.0
		c.Metrics = []*models.MetricResult{{ID: int64(i + 1), CaseResultID: c.ID, Name: "exact", Threshold: 1, Score: &score, Passed: true}}
		if i == 1 {
			c.ErrorDetails = models.MustJSON(map[string]string{"class": "api_replay", "message": "api replay: 1 mismatched request, 2 declared requests never made"})
		}
		c.Status = c.DeriveStatus()
		run.Cases = append(run.Cases, c)
	}
	return run
}

// TestRenderer_APIReplay checks that text, Markdown and HTML show each
// case's replay verdict, and for the failing case its observed requests,
// differences and missing requests, with hostile strings inert.
func TestRenderer_APIReplay(t *testing.T) {
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cmp := compare.Compare(replayRun(t), nil, compare.Options{})
	// common holds text the Markdown template escapes as a whole.
	common := []string{
		"API replay: 3 declared, 3 matched",
		"API replay failed: 1 mismatched request, 2 declared requests never made (3 declared, 1 matched)",
		"body.express: want false, got true",
		"never made",
		"DELETE https://shipping.example/labels/L-1",
		"interaction 3",
		"API replay evidence in an unknown shape",
	}
	tests := []struct {
		format report.Format
		want   []string
		banned []string
	}{
		{report.FormatText,
			[]string{"BAD mismatched POST https://shipping.example/labels", "ok  matched GET https://shipping.example/orders?id=42",
				"<script>alert(1)</script> | cell | red"},
			[]string{"\x1b"}},
		{report.FormatMarkdown,
			[]string{"### API replay", "(interaction 3)", "**mismatched**", "https://shipping.example/orders?id=42",
				`&lt;script&gt;alert\(1\)&lt;/script&gt; \| cell \| red`},
			[]string{"\x1b", "<script", "| cell |"}},
		{report.FormatHTML,
			[]string{`<span class="failed">mismatched</span> POST https://shipping.example/labels`,
				`<span class="failed">never made</span>`, "&lt;script&gt;alert(1)&lt;/script&gt; | cell | red"},
			[]string{"\x1b", "<script"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			b, err := r.Bytes(tt.format, cmp)
			if err != nil {
				t.Fatal(err)
			}
			out := string(b)
			want := append([]string{}, tt.want...)
			for _, w := range common {
				if tt.format == report.FormatMarkdown {
					w = sanitize.EscapeMarkdown(w)
				}
				want = append(want, w)
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, bad := range tt.banned {
				if strings.Contains(out, bad) {
					t.Errorf("output holds %q", bad)
				}
			}
			// a passing case shows its verdict only, not its requests
			if strings.Contains(out, "pass.example") {
				t.Errorf("passing case lists its requests:\n%s", out)
			}
		})
	}
}

// TestRenderer_APIReplayJSONUnchanged checks that the JSON report keeps the
// evidence as stored.
func TestRenderer_APIReplayJSONUnchanged(t *testing.T) {
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	run := replayRun(t)
	b, err := r.Bytes(report.FormatJSON, compare.Compare(run, nil, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			ResponseMetadata json.RawMessage `json:"response_metadata"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	if err := json.Compact(&got, doc.Cases[1].ResponseMetadata); err != nil {
		t.Fatal(err)
	}
	if err := json.Compact(&want, run.Cases[1].ResponseMetadata); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("response_metadata = %s, want %s", got.String(), want.String())
	}
}

// TestRenderer_APIReplayGolden keeps the replay run's text, Markdown and
// HTML reports as golden files for review; -update (the flag of the
// package's golden tests) rewrites them.
func TestRenderer_APIReplayGolden(t *testing.T) {
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	update := false
	if f := flag.Lookup("update"); f != nil {
		update = f.Value.String() == "true"
	}
	cmp := compare.Compare(replayRun(t), nil, compare.Options{})
	for _, f := range []report.Format{report.FormatText, report.FormatMarkdown, report.FormatHTML} {
		got, err := r.Bytes(f, cmp)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "api-replay"+f.Ext())
		if update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./report -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file; run with -update and review the diff", path)
		}
	}
}
