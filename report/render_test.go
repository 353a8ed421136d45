package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func mustRenderer(tb testing.TB) *Renderer {
	tb.Helper()
	r, err := NewRenderer()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// goldenExt is the golden file extension of f: the format's own, and
// .github.txt for GitHub annotations.
func goldenExt(f Format) string {
	if f == FormatGitHub {
		return ".github.txt"
	}
	return f.Ext()
}

// TestRenderer_Golden renders every format of fixed runs (ids, timestamps
// and scores are fixed in the test) and compares with testdata/*. Run
// `go test ./report -run Golden -update` after an intended change.
func TestRenderer_Golden(t *testing.T) {
	r := mustRenderer(t)
	ref, bad := runfixture.SupportRuns()
	prev, later := runfixture.WorkedExample()
	cases := map[string]*compare.Comparison{
		"support-reference": compare.Compare(ref, nil, compare.Options{}),
		"support-regressed": compare.Compare(bad, ref, compare.Options{Tolerance: 0.02}),
		"worked-example":    compare.Compare(later, prev, compare.Options{Tolerance: 0.02}),
	}
	for name, cmp := range cases {
		for _, f := range Formats() {
			t.Run(name+"/"+string(f), func(t *testing.T) {
				got, err := r.Bytes(f, cmp)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", name+goldenExt(f))
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the golden file; run with -update and review the diff", path)
				}
			})
		}
	}
}

// TestRenderer_JSONSnapshotKeys checks the snapshot key for key against the
// gem's Run, CaseResult and MetricResult#snapshot, plus "not_calculated"
// (beside the cases) and "comparison".
func TestRenderer_JSONSnapshotKeys(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	b, err := mustRenderer(t).Bytes(FormatJSON, compare.Compare(bad, ref, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	keys := topKeys(t, b)
	want := "id suite agent version suite_digest started_at finished_at status metadata summary cases not_calculated comparison"
	if got := strings.Join(keys, " "); got != want {
		t.Fatalf("run keys = %q, want %q", got, want)
	}
	var doc struct {
		StartedAt string            `json:"started_at"`
		Cases     []json.RawMessage `json:"cases"`
		Summary   map[string]any    `json:"summary"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.StartedAt, "2026-11-30T11:00:00.123456Z"; got != want {
		t.Fatalf("started_at = %q, want %q", got, want)
	}
	if _, ok := doc.Summary["unknown_key"]; !ok {
		t.Fatalf("summary not kept as stored: %v", doc.Summary)
	}
	caseKeys := "id name question expected_answer expected_actions minimum_scores metadata output status duration_ms input_tokens output_tokens cost actions response_metadata error metrics"
	if got := strings.Join(topKeys(t, doc.Cases[0]), " "); got != caseKeys {
		t.Fatalf("case keys = %q, want %q", got, caseKeys)
	}
	var c struct {
		Metrics         []json.RawMessage `json:"metrics"`
		ExpectedActions json.RawMessage   `json:"expected_actions"`
	}
	if err := json.Unmarshal(doc.Cases[0], &c); err != nil {
		t.Fatal(err)
	}
	if string(c.ExpectedActions) != "null" {
		t.Fatalf("SQL NULL expected_actions = %s, want null", c.ExpectedActions)
	}
	if got, want := strings.Join(topKeys(t, c.Metrics[0]), " "), "name threshold score passed reason error"; got != want {
		t.Fatalf("metric keys = %q, want %q", got, want)
	}
}

func topKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestRenderer_JUnitConsumer parses the JUnit output with go-junit-report's
// junit package, a real consumer of the format.
func TestRenderer_JUnitConsumer(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	bad.Cases[1].Output = models.MustJSON("bell \a escape \x1b[31m <tag> & \"quotes\" \x00")
	b, err := mustRenderer(t).Bytes(FormatJUnit, compare.Compare(bad, ref, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	var suites junit.Testsuites
	if err := xmlUnmarshal(b, &suites); err != nil {
		t.Fatalf("go-junit-report cannot read the output: %v\n%s", err, b)
	}
	if got, want := len(suites.Suites), 1; got != want {
		t.Fatalf("suites = %d, want %d", got, want)
	}
	s := suites.Suites[0]
	if got, want := len(s.Testcases), 3; got != want {
		t.Fatalf("testcases = %d, want one per question (%d)", got, want)
	}
	if s.Failures != 1 || s.Skipped != 0 || s.Errors != 0 {
		t.Fatalf("failures/errors/skipped = %d/%d/%d, want 1/0/0", s.Failures, s.Errors, s.Skipped)
	}
	ret := s.Testcases[0]
	if ret.Name != "returns" || ret.Failure == nil {
		t.Fatalf("first testcase = %+v, want the failed return question", ret)
	}
	for _, want := range []string{"exact 0.000 < 1", "observed lookup_policy(topic: shipping)"} {
		if !strings.Contains(ret.Failure.Message+ret.Failure.Data, want) {
			t.Fatalf("failure %+v lacks %q", ret.Failure, want)
		}
	}
}

func TestFormat_Ext(t *testing.T) {
	for _, f := range Formats() {
		t.Run(string(f), func(t *testing.T) {
			ext := f.Ext()
			if f == FormatGitHub {
				if ext != "" {
					t.Errorf("Ext() = %q, want none: github is not a file", ext)
				}
				return
			}
			if got, err := FormatFromPath("report" + ext); err != nil || got != f {
				t.Errorf("FormatFromPath(report%s) = %q, %v, want %q", ext, got, err, f)
			}
		})
	}
}

// TestRenderer_NotCalculatedSaysItOnce: a metric the runner could not
// calculate stores "not calculated: <why>" as its reason; the text and
// Markdown reports print the state once, then why.
func TestRenderer_NotCalculatedSaysItOnce(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-000000000009", 9, runfixture.T0,
		runfixture.Case{ID: "q", Question: "Q?", Expected: "A", Output: "A", Metrics: []runfixture.Metric{{Name: "semantic_accuracy", Threshold: 0.9}}})
	r := "not calculated: no judge configured"
	run.Cases[0].Metrics[0].Reason = &r
	run.Cases[0].Status = run.Cases[0].DeriveStatus()
	rend := mustRenderer(t)
	for _, f := range []Format{FormatText, FormatMarkdown} {
		b, err := rend.Bytes(f, compare.Compare(run, nil, compare.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "not calculated: not calculated") || strings.Contains(string(b), "(not calculated:") || !strings.Contains(string(b), "no judge configured") {
			t.Errorf("%s report:\n%s", f, b)
		}
	}
}

// TestRenderer_HTMLLegendFitsBothSchemes checks that the chart legend does
// not name the interval line's colour: it is the text colour, black in the
// light scheme and near-white in the dark one.
func TestRenderer_HTMLLegendFitsBothSchemes(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	out, err := mustRenderer(t).Bytes(FormatHTML, compare.Compare(bad, ref, compare.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("--ci:#e6edf3")) {
		t.Fatal("the dark scheme no longer sets the interval line colour: revisit this test")
	}
	if bytes.Contains(out, []byte("black line")) {
		t.Error(`the legend says "black line", but in the dark scheme the interval line is near-white`)
	}
}
