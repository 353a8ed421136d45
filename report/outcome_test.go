package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/sanitize"
)

// TestRenderer_OutcomeBanner: the banner shows the run's own outcome apart
// from the baseline state, so a first run whose checks fail is never green.
func TestRenderer_OutcomeBanner(t *testing.T) {
	r := mustRenderer(t)
	tests := []struct {
		name    string
		cases   []runfixture.Case
		banner  string
		outcome string
	}{
		{"first run, nothing passes", []runfixture.Case{{ID: "q", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(0))}}},
			"verdict bad", "FAILED: 0 of 1 evaluated question passed (1 failed)"},
		{"first run, agent error", []runfixture.Case{{ID: "q", AgentErr: "boom", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, nil)}}},
			"verdict bad", "FAILED: 0 of 1 evaluated question passed (1 error)"},
		{"first run, nothing calculated", []runfixture.Case{{ID: "q", Metrics: []runfixture.Metric{runfixture.NewMetric("judge", 0.5, nil)}}},
			"verdict warn", "NOT EVALUATED: no question had a calculated check (1 question)"},
		{"first run, all pass", []runfixture.Case{{ID: "q", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
			{ID: "r", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}}},
			"verdict ok", "PASSED: all 2 evaluated questions passed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := compare.Compare(runfixture.Build("01900000-0000-7000-8000-000000000601", 1, runfixture.T0, tt.cases...), nil, compare.Options{})
			for _, f := range []Format{FormatHTML, FormatText, FormatMarkdown} {
				b, err := r.Bytes(f, c)
				if err != nil {
					t.Fatal(err)
				}
				out := string(b)
				want := tt.outcome
				if f == FormatMarkdown {
					want = sanitize.EscapeMarkdown(want)
				}
				if !strings.Contains(out, want) || !strings.Contains(out, "no baseline: thresholds only") {
					t.Errorf("%s: no %q next to the baseline state", f, want)
				}
				if f == FormatHTML && !strings.Contains(out, `<p class="`+tt.banner+`" id="verdict">`) {
					t.Errorf("html banner is not %q", tt.banner)
				}
			}
		})
	}
}
