package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestJudgeUsage_InEveryReport: the text, Markdown (the GitHub job
// summary) and HTML reports show the judge usage recorded on the cases next
// to the agent usage, with failed calls, retries and cache hits, and an
// unknown price as "unknown", never as $0.
func TestJudgeUsage_InEveryReport(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-0000000c0001", 1, runfixture.T0,
		runfixture.Case{ID: "a", Question: "q", Expected: "x", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.5, runfixture.Score(0.9))}},
		runfixture.Case{ID: "b", Question: "q", Expected: "x", Output: "y", Metrics: []runfixture.Metric{{Name: "semantic_accuracy", Threshold: 0.5, Err: "invalid_reply: not JSON"}}},
		runfixture.Case{ID: "c", Question: "q", Expected: "x", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.5, runfixture.Score(0.9))}},
	)
	meta := []string{
		`{"judge_usage":{"semantic_accuracy":{"calls":1,"errors":0,"attempts":2,"cached":0,"input_tokens":120,"output_tokens":30,"cost":null}}}`,
		`{"judge_usage":{"semantic_accuracy":{"calls":1,"errors":1,"attempts":1,"cached":0,"input_tokens":120,"output_tokens":30,"cost":null}}}`,
		`{"judge_usage":{"semantic_accuracy":{"calls":0,"errors":0,"attempts":0,"cached":1,"input_tokens":0,"output_tokens":0,"cost":0}}}`,
	}
	for i, m := range meta {
		run.Cases[i].ResponseMetadata = models.JSON(m)
	}
	const want = "2 calls (1 failed, 1 retry), 1 verdict from cache, 240 input tokens, 60 output tokens, cost unknown"
	r := mustRenderer(t)
	c := compare.Compare(run, nil, compare.Options{})
	for f, line := range map[Format]string{
		FormatText:     "\nJudge usage: " + want + "\n",
		FormatMarkdown: "\n- Judge usage: " + want + "\n",
		FormatHTML:     `<dt>Judge usage</dt><dd id="judge-usage">` + want + "</dd>",
	} {
		b, err := r.Bytes(f, c)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), line) {
			t.Errorf("%s report lacks %q:\n%s", f, line, b)
		}
		if f != FormatMarkdown && !strings.Contains(string(b), "errors count 0") {
			t.Errorf("%s report does not say that errors count 0 in quality", f)
		}
	}
}

func TestJudgeUsageOf(t *testing.T) {
	cases := func(meta ...string) []*models.CaseResult {
		var out []*models.CaseResult
		for _, m := range meta {
			out = append(out, &models.CaseResult{ResponseMetadata: models.JSON(m)})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		meta []string
		want string
	}{
		{"nothing recorded", []string{`{}`, `null`}, "none recorded"},
		{"priced", []string{`{"judge_usage":{"a":{"calls":2,"errors":0,"attempts":2,"cached":0,"input_tokens":1000,"output_tokens":100,"cost":0.0012},` +
			`"b":{"calls":0,"cached":3,"input_tokens":0,"output_tokens":0,"cost":0}}}`},
			"2 calls, 3 verdicts from cache, 1000 input tokens, 100 output tokens, cost $0.0012"},
		{"tiny cost is not $0", []string{`{"judge_usage":{"a":{"calls":1,"attempts":1,"input_tokens":10,"output_tokens":1,"cost":0.0000021}}}`},
			"1 call, 10 input tokens, 1 output token, cost < $0.0001"},
		{"one unpriced call makes the cost unknown", []string{`{"judge_usage":{"a":{"calls":1,"attempts":1,"input_tokens":10,"output_tokens":1,"cost":0.5}}}`,
			`{"judge_usage":{"a":{"calls":1,"errors":1,"attempts":3,"input_tokens":0,"output_tokens":0,"cost":null}}}`},
			"2 calls (1 failed, 2 retries), 10 input tokens, 1 output token, cost unknown"},
		{"entries without calls are one verdict each", []string{`{"judge_usage":{"a":{"input_tokens":100,"output_tokens":20}}}`},
			"1 call, 100 input tokens, 20 output tokens, cost unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := JudgeUsageOf(cases(tc.meta...)).String(); got != tc.want {
				t.Errorf("JudgeUsageOf = %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestJudgeUsage_SpendCap: a run made under a judge spend cap says so after
// its judge usage in every report, with the judged metrics it left out.
func TestJudgeUsage_SpendCap(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-0000000c0002", 1, runfixture.T0,
		runfixture.Case{ID: "a", Question: "q", Expected: "x", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.5, runfixture.Score(0.9))}})
	r := mustRenderer(t)
	for _, tc := range []struct{ summary, want string }{
		{`{"judge_spend":{"limit":0.001,"spent":0.00135,"reached":true,"not_calculated":6}}`, "; spend cap $0.001 reached: 6 judged metrics not calculated"},
		{`{"judge_spend":{"limit":2.5,"spent":0.1,"reached":false,"not_calculated":0}}`, "; spend cap $2.5, not reached"},
	} {
		run.Summary = models.JSON(tc.summary)
		c := compare.Compare(run, nil, compare.Options{})
		for _, f := range []Format{FormatText, FormatMarkdown, FormatHTML} {
			b, err := r.Bytes(f, c)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("%s report lacks %q", f, tc.want)
			}
		}
	}
}
