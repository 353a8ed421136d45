package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestRenderer_ActionsReadable: observed actions read "<script>" (escaped
// by html/template), not "\u003cscript\u003e", and stay inert.
func TestRenderer_ActionsReadable(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-000000000701", 1, runfixture.T0, runfixture.Case{ID: "q", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}})
	run.Cases[0].Actions = models.JSON(`[{"group":"g","name":"\u003cscript\u003ealert(1)\u003c/script\u003e","arguments":{"q":"a&b"}}]`)
	r := mustRenderer(t)
	for _, tt := range []struct {
		f    Format
		want string
	}{
		{FormatHTML, `&lt;script&gt;alert(1)&lt;/script&gt;`},
		{FormatHTML, `a&amp;b`},
	} {
		b, err := r.Bytes(tt.f, compare.Compare(run, nil, compare.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if out := string(b); !strings.Contains(out, tt.want) || strings.Contains(out, `\u003c`) || strings.Contains(out, "<script>") {
			t.Errorf("%s report: want %q, no \\u003c and no live <script>", tt.f, tt.want)
		}
	}
}
