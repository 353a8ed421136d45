package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/models"
)

// pricedJudge is a scripted OpenAI-compatible judge, model "judge", whose
// every call reports 200 input and 25 output tokens, and a price file that
// prices it at 1.5 and 6 USD per million (0.00045 USD a call); calls
// counts the calls.
func pricedJudge(t *testing.T) (srv *httptest.Server, calls *atomic.Int64, prices string) {
	t.Setenv("OPENAI_API_KEY", "")
	calls = new(atomic.Int64)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"Same facts.\",\"score\":0.97}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":200,"completion_tokens":25,"total_tokens":225}}`)
	}))
	t.Cleanup(srv.Close)
	prices = filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(prices, []byte(`{"prices": [{"model": "judge", "input_mtok": 1.5, "output_mtok": 6}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, calls, prices
}

// TestRunCmd_MaxJudgeSpend: with a cap of 0.001 USD and judge calls of
// 0.00045 USD each, one question at a time, the third call reaches the
// cap: the other six judged metrics are not calculated (no call made, no
// score, the reason stored), the summary records the cap, and stderr says
// so. Four at a time, the calls in flight may finish, but no call starts
// once the cap is reached.
func TestRunCmd_MaxJudgeSpend(t *testing.T) {
	srv, calls, file := pricedJudge(t)
	st := filepath.Join("..", "..", "examples", "llm_judge", "suite.json")
	for _, tc := range []struct {
		name     string
		j        string
		min, max int64 // judge calls made
	}{
		{"one at a time", "1", 3, 3},
		{"four at a time", "4", 3, 3 + 2}, // two more may be running when the third call reaches the cap
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls.Store(0)
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
			code, out, stderr := evalrun(t, "--database-url", dbURL, "run", st, "-j", tc.j, "--judge-base-url", srv.URL+"/v1",
				"--judge-model", "judge", "--prices", file, "--max-judge-spend", "0.001")
			if code == exitInvalid || code == exitNotSaved {
				t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
			}
			made := calls.Load()
			if made < tc.min || made > tc.max {
				t.Errorf("%d judge calls; want %d to %d", made, tc.min, tc.max)
			}
			run := onlyRun(t, dbURL)
			sum, err := models.DecodeRunSummary(run.Summary)
			if err != nil {
				t.Fatal(err)
			}
			js := sum.JudgeSpend
			if js == nil || !js.Reached || js.Limit != "0.001" || js.NotCalculated != int(9-made) {
				t.Fatalf("summary judge_spend %+v; want the cap 0.001 reached, %d not calculated", js, 9-made)
			}
			if got, want := js.Spent.Float64(), float64(made)*0.00045; got < want-1e-12 || got > want+1e-12 {
				t.Errorf("spent %s; want %d calls × 0.00045 = %g", js.Spent, made, want)
			}
			capped := 0
			for _, c := range run.Cases {
				for _, m := range c.Metrics {
					if m.Reason != nil && *m.Reason == "not calculated: judge spend cap reached" {
						capped++
						if m.Score != nil || m.Passed || m.ErrorDetails != nil {
							t.Errorf("case %s metric %s: left out by the cap but stored as %v/%v", c.CaseID, m.Name, m.Score, m.Passed)
						}
					}
				}
			}
			if capped != js.NotCalculated {
				t.Errorf("%d metrics stored as left out by the cap; the summary says %d", capped, js.NotCalculated)
			}
			want := "judge spend cap reached: the judge's calls cost $" + string(js.Spent) + " of the $0.001 cap; " +
				map[bool]string{true: "6 judged metrics", false: ""}[made == 3]
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr does not say %q:\n%s", want, stderr)
			}
		})
	}
}

// TestRunCmd_MaxJudgeSpend_Unpriced: a cap on a judge whose model has no
// known price is refused before anything runs, naming the model and the
// price-file flag, rather than silently not capping.
func TestRunCmd_MaxJudgeSpend_Unpriced(t *testing.T) {
	srv, calls, _ := pricedJudge(t)
	st := filepath.Join("..", "..", "examples", "llm_judge", "suite.json")
	for _, tc := range []struct{ name, limit, want string }{
		{"unpriced model", "2.50", `--max-judge-spend: the judge model openai "local-judge" has no known price`},
		{"not a number", "two", `--max-judge-spend: spend limit "two": want a positive number`},
		{"zero", "0", `--max-judge-spend: spend limit "0": want a positive number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
			code, _, stderr := evalrun(t, "--database-url", dbURL, "run", st, "--judge-base-url", srv.URL+"/v1",
				"--judge-model", "local-judge", "--max-judge-spend", tc.limit)
			if code != exitInvalid || !strings.Contains(stderr, tc.want) || (tc.name == "unpriced model" && !strings.Contains(stderr, "--prices")) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", code, stderr, tc.want)
			}
			if calls.Load() != 0 {
				t.Errorf("%d judge calls made before the refusal", calls.Load())
			}
		})
	}
}

// TestScoreTraces_MaxJudgeSpend: a monitor's max_judge_spend caps a
// window's judging as --max-judge-spend caps a run's, and the flag wins
// over the key. One case at a time at 0.00045 USD a call: a cap of 0.0005
// lets two calls through, 0.0001 one.
func TestScoreTraces_MaxJudgeSpend(t *testing.T) {
	srv, calls, prices := pricedJudge(t)
	dir := t.TempDir()
	mon := filepath.Join(dir, "monitor.json")
	export := filepath.Join(dir, "traces.jsonl")
	for p, body := range map[string]string{
		mon:    `{"monitor": "shop", "agent": "shop", "max_judge_spend": "0.0005", "checks": [{"type": "task_completion"}]}`,
		export: agentExport(t, 4),
	} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		flags []string
		calls int64
		limit string
	}{
		{"monitor key", nil, 2, "0.0005"},
		{"flag wins", []string{"--max-judge-spend", "0.0001"}, 1, "0.0001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls.Store(0)
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
			args := append([]string{"--database-url", dbURL, "score-traces", mon, "--traces", export, "-j", "1",
				"--judge-base-url", srv.URL + "/v1", "--judge-model", "judge", "--prices", prices}, tc.flags...)
			code, out, stderr := evalrun(t, args...)
			if code != exitOK {
				t.Fatalf("score-traces: exit %d\n%s%s", code, out, stderr)
			}
			if calls.Load() != tc.calls {
				t.Errorf("%d judge calls; want %d", calls.Load(), tc.calls)
			}
			sum, err := models.DecodeRunSummary(onlyRun(t, dbURL).Summary)
			if err != nil {
				t.Fatal(err)
			}
			if js := sum.JudgeSpend; js == nil || !js.Reached || string(js.Limit) != tc.limit || js.NotCalculated != 4-int(tc.calls) {
				t.Errorf("summary judge_spend %+v; want cap %s reached, %d not calculated", js, tc.limit, 4-tc.calls)
			}
			if !strings.Contains(stderr, "judge spend cap reached") {
				t.Errorf("stderr does not say the cap was reached:\n%s", stderr)
			}
		})
	}
}

// agentExport is a collector's JSON-lines file export of n agent
// invocations, one root span each with the user's message and the answer.
func agentExport(t *testing.T, n int) string {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "shop")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for i := range n {
		sp := spans.AppendEmpty()
		sp.SetTraceID(pcommon.TraceID{1, byte(i + 1)})
		sp.SetSpanID(pcommon.SpanID{2, byte(i + 1)})
		sp.SetName("invoke_agent shop")
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i) * time.Second)))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(i)*time.Second + 500*time.Millisecond)))
		sp.Attributes().PutStr("gen_ai.input.messages", fmt.Sprintf(`[{"role":"user","parts":[{"type":"text","content":"Where is order %d?"}]}]`, i))
		sp.Attributes().PutStr("gen_ai.output.messages", fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"text","content":"Order %d ships today."}]}]`, i))
	}
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// TestExperimentCmd_MaxJudgeSpend: the cap holds for each variant's run
// on its own: each run stops starting judged metrics once its third call
// (0.00135 USD) reached the cap of 0.001; its questions run at once, so
// up to two more already started may finish, and the rest are left out.
func TestExperimentCmd_MaxJudgeSpend(t *testing.T) {
	srv, calls, prices := pricedJudge(t)
	st, err := filepath.Abs(filepath.Join("..", "..", "examples", "llm_judge", "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(t.TempDir(), "experiment.json")
	if err := os.WriteFile(exp, []byte(`{"experiment": "capped", "suite": "`+st+`", "variants": [{"name": "a"}, {"name": "b"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	code, out, stderr := evalrun(t, "--database-url", dbURL, "experiment", exp, "--judge-base-url", srv.URL+"/v1",
		"--judge-model", "judge", "--prices", prices, "--max-judge-spend", "0.001")
	if code == exitInvalid || code == exitNotSaved {
		t.Fatalf("experiment: exit %d\n%s%s", code, out, stderr)
	}
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %d, %v; want one per variant", len(runs), err)
	}
	made := 0
	for _, r := range runs {
		sum, err := models.DecodeRunSummary(r.Summary)
		if err != nil {
			t.Fatal(err)
		}
		js := sum.JudgeSpend
		if js == nil {
			t.Fatalf("run %s: no judge_spend in its summary", r.Agent)
		}
		n := int(js.Spent.Float64()/0.00045 + 0.5)
		made += n
		if !js.Reached || n < 3 || n > 5 || js.NotCalculated != 9-n {
			t.Errorf("run %s: judge_spend %+v; want the cap reached after 3 to 5 calls and the other judged metrics left out", r.Agent, js)
		}
	}
	if int(calls.Load()) != made {
		t.Errorf("%d judge calls; the runs' summaries count %d", calls.Load(), made)
	}
}
