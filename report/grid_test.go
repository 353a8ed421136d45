package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// experimentRuns tags runs as the variants of one experiment.
func experimentRuns(id string, names []string, runs ...*models.Run) []*models.Run {
	for i, r := range runs {
		r.Agent = "SupportAgent [" + names[i] + "]"
		r.Metadata = models.MustJSON(map[string]any{ExperimentKey: ExperimentInfo{ID: id, Name: "Revisions <b>",
			Variant: names[i], Variants: names, StartedAt: "2026-11-30T09:00:00Z"}})
	}
	return runs
}

func TestBuildGrid(t *testing.T) {
	ref, reg := runfixture.SupportRuns()
	// Given in reverse order: the grid follows the experiment's variant order.
	runs := experimentRuns("e1", []string{"reference", "regressed"}, ref, reg)
	g, err := BuildGrid([]*models.Run{runs[1], runs[0]}, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{g.Variants[0].Name, g.Variants[1].Name}; got[0] != "reference" || got[1] != "regressed" {
		t.Fatalf("variants = %v", got)
	}
	if g.ID != "e1" || len(g.Rows) != 3 || len(g.Pairs) != 1 {
		t.Fatalf("grid = %+v", g)
	}
	tests := []struct {
		row       int
		best      [2]bool
		status    [2]string
		outputRef string
	}{
		{0, [2]bool{true, false}, [2]string{"passed", "failed"}, "You can return it within 30 days."},
		{1, [2]bool{false, false}, [2]string{"passed", "passed"}, "Shipping takes 3 to 5 business days."},
		{2, [2]bool{false, false}, [2]string{"passed", "passed"}, "We are open 9 to 5, Monday to Friday."},
	}
	for _, tt := range tests {
		row := g.Rows[tt.row]
		for i, c := range row.Cells {
			if c.Best != tt.best[i] || c.Status != tt.status[i] {
				t.Errorf("%s/%s: best %v status %s, want %v %s", row.CaseID, c.Variant, c.Best, c.Status, tt.best[i], tt.status[i])
			}
		}
		if row.Cells[0].Output != tt.outputRef {
			t.Errorf("%s: output %q", row.CaseID, row.Cells[0].Output)
		}
	}
	if g.Variants[0].Best != 1 || g.Variants[1].Best != 0 {
		t.Errorf("best counts = %d, %d", g.Variants[0].Best, g.Variants[1].Best)
	}
	p := g.Pairs[0]
	if p.A != "reference" || p.B != "regressed" || p.Changes.NewlyFailing != 1 {
		t.Errorf("pair = %s vs %s %+v", p.B, p.A, p.Changes)
	}
	back, err := g.Pair("regressed", "reference", compare.Options{})
	if err != nil || back == nil || back.Changes.NewlyPassing != 1 {
		t.Errorf("reverse pair = %+v, %v", back, err)
	}
	if none, err := g.Pair("reference", "nope", compare.Options{}); none != nil || err != nil {
		t.Errorf("unknown variant: %v, %v", none, err)
	}
}

func TestBuildGrid_Refused(t *testing.T) {
	ref, reg := runfixture.SupportRuns()
	if _, err := BuildGrid([]*models.Run{ref, reg}, compare.Options{}); !errors.Is(err, ErrNoExperiment) {
		t.Errorf("runs without experiment metadata: %v", err)
	}
	runs := experimentRuns("e1", []string{"a", "b"}, ref, reg)
	runs[1].Metadata = models.MustJSON(map[string]any{ExperimentKey: ExperimentInfo{ID: "e2", Variant: "b"}})
	if _, err := BuildGrid(runs, compare.Options{}); !errors.Is(err, ErrNoExperiment) {
		t.Errorf("runs of two experiments: %v", err)
	}
	ref, reg = runfixture.SupportRuns()
	reg.SuiteDigest, reg.Summary = "other", models.JSON(`{"writer":"agentevals-go"}`)
	ref.Summary = reg.Summary
	if _, err := BuildGrid(experimentRuns("e1", []string{"a", "b"}, ref, reg), compare.Options{}); !errors.Is(err, compare.ErrIncompatible) {
		t.Errorf("runs of two definitions: %v", err)
	}
}

func TestMarkBest(t *testing.T) {
	q := func(v float64) *float64 { return &v }
	tests := []struct {
		name  string
		cells []GridCell
		want  []int
	}{
		{"one best", []GridCell{{Quality: q(1)}, {Quality: q(0.5)}}, []int{0}},
		{"tied best", []GridCell{{Quality: q(1)}, {Quality: q(1)}, {Quality: q(0)}}, []int{0, 1}},
		{"all tied", []GridCell{{Quality: q(0.5)}, {Quality: q(0.5)}}, nil},
		{"one scored", []GridCell{{Quality: q(0.5)}, {}}, nil},
		{"unscored ignored", []GridCell{{}, {Quality: q(0.2)}, {Quality: q(0.4)}}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markBest(tt.cells)
			if len(got) != len(tt.want) {
				t.Fatalf("best = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] || !tt.cells[got[i]].Best {
					t.Errorf("best = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// TestRenderer_RenderGrid renders every grid format with hostile text in
// an answer: escaped in HTML and Markdown, control sequences stripped in
// text, and JUnit refused.
func TestRenderer_RenderGrid(t *testing.T) {
	ref, reg := runfixture.SupportRuns()
	reg.Cases[1].Output = models.MustJSON("<script>alert(1)</script>\x1b[31m | pipe")
	g, err := BuildGrid(experimentRuns("e1", []string{"reference", "regressed"}, ref, reg), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		f          Format
		want, deny []string
	}{
		{FormatText, []string{"Experiment: Revisions <b>", "* reference", "regressed vs reference: B regressed", "tokens 300 in, 60 out"}, []string{"\x1b", "tokens 300/60"}},
		{FormatMarkdown, []string{"| Question | reference | regressed |", "**PASS 1.000**", `\| pipe`}, []string{"<script>", "\x1b"}},
		{FormatHTML, []string{"&lt;script&gt;", `class="best"`, "Content-Security-Policy"}, []string{"<script>", "\x1b"}},
		{FormatJSON, []string{`"experiment_id": "e1"`, `"best": true`}, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := r.RenderGrid(&buf, tt.f, g); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, d := range tt.deny {
				if strings.Contains(out, d) {
					t.Errorf("output contains %q", d)
				}
			}
		})
	}
	if err := r.RenderGrid(&bytes.Buffer{}, FormatJUnit, g); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("junit grid: %v", err)
	}
}
