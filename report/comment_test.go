package report

import (
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

func TestWriteComment(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	regressed := compare.Compare(bad, ref, compare.Options{})
	recorded := compare.Compare(bad, ref, compare.Options{})
	recorded.Decision = &models.GateDecision{Mode: "ci", FailOn: "regressions", Exit: 0, Line: "exit 0: no gated regression (--fail-on regressions)",
		Findings: []models.GateFinding{},
		Baseline: &models.GateBaseline{RunID: ref.ID.String(), Source: models.BaselineBranch, Target: "main", Branch: "main",
			Commit: "0123456789abcdef0123", StartedAt: time.Unix(0, 0), Warnings: []string{"the baseline is 40 days older than this run"}}}
	tests := []struct {
		name      string
		cmp       *compare.Comparison
		opts      CommentOptions
		want, not []string
	}{
		{"regressed, verdict first", regressed, CommentOptions{Key: "evals/suite.json", Link: "https://ci.example/run 1", Exit: 1, ExitLine: "exit 1: 2 regressions"},
			[]string{"<!-- agentevals:evals/suite.json -->\n### ❌", "**exit 1: 2 regressions**", "#### Regressions", "! **", "[Full report](https://ci.example/run%201)"}, nil},
		{"recorded decision wins", recorded, CommentOptions{Exit: 1},
			[]string{"### ✅", "exit 0: no gated regression", "newest compatible run of target branch main; made on main at 0123456789ab",
				"> **Warning**: the baseline is 40 days older"}, []string{"Full report"}},
		{"marker cannot be closed early", regressed, CommentOptions{Key: "a --> b\nc"}, []string{"<!-- agentevals:a  b c -->\n"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteComment(&b, tt.cmp, tt.opts); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("comment lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("comment holds %q:\n%s", n, got)
				}
			}
		})
	}
}
