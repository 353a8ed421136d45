package calibrate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/runner"
)

// noisyJudgeServer is a local OpenAI-compatible judge whose score for the
// answer "answer-<i>." is mean(i) plus Gaussian noise of the given sd. The
// k-th call about question i draws from a generator seeded with (seed, i,
// k), so the multiset of scores per question is the same whatever order
// concurrent calls arrive in: the test is deterministic.
func noisyJudgeServer(tb testing.TB, seed uint64, sd float64, mean func(i int) float64) *httptest.Server {
	tb.Helper()
	var mu sync.Mutex
	calls := map[int]uint64{}
	answer := regexp.MustCompile(`answer-(\d+)\.`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m := answer.FindSubmatch(body)
		if m == nil {
			http.Error(w, "no answer in the prompt", http.StatusBadRequest)
			return
		}
		i, _ := strconv.Atoi(string(m[1]))
		mu.Lock()
		k := calls[i]
		calls[i]++
		mu.Unlock()
		rng := rand.New(rand.NewPCG(seed, uint64(i)<<20|k))
		score := math.Round(min(1, max(0, mean(i)+sd*rng.NormFloat64()))*1000) / 1000
		verdict, _ := json.Marshal(fmt.Sprintf(`{"reason":"Scripted verdict.","score":%g}`, score))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":50,"completion_tokens":10,"total_tokens":60}}`, verdict)
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// questionsSuite is a judged suite of n questions with semantic_accuracy
// at threshold 0.5.
func questionsSuite(n int) string {
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Question %d?", "expected_answer": "Answer %d.", "minimum_scores": {"semantic_accuracy": 0.5}}`, i, i, i))
	}
	return `{"suite": "Noise", "agent": {"name": "A", "command": ["true"]},
  "judge": {"provider": "openai", "model": "judge"},
  "questions": [` + strings.Join(qs, ",\n") + `]}`
}

// numberedAgent answers "answer-<i>." to question q<i>.
func numberedAgent() agent.Agent {
	return agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal("answer-" + strings.TrimPrefix(q.ID, "q") + ".")
		return agent.Response{Output: out}, nil
	})
}

// TestRejudge_EstimatesKnownNoise judges 200 stored answers again three
// times with a scripted judge of known noise sd and checks the estimates:
// within-question sd near the true sd, sd_diff near √2·sd, and the MDE
// from them, (1.645+0.842)·sd_diff/√200.
func TestRejudge_EstimatesKnownNoise(t *testing.T) {
	const n = 200
	for _, sd := range []float64{0.05, 0.10} {
		t.Run(fmt.Sprint(sd), func(t *testing.T) {
			srv := noisyJudgeServer(t, 42, sd, func(i int) float64 { return 0.35 + 0.3*float64(i%10)/9 })
			judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "judge", BaseURL: srv.URL + "/v1",
				Timeout: 10 * time.Second, Retry: llm.Retry{MaxAttempts: 1}}, provider.Options{Getenv: func(string) string { return "" }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := mustLoad(t, questionsSuite(n))
			run := mustExecute(t, s, numberedAgent(), runner.ExecOptions{Judge: judge, Concurrency: 4})
			items, err := Rejudge(context.Background(), s, run, judge, RejudgeOptions{Times: 3, Concurrency: 4})
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != n {
				t.Fatalf("re-judged %d questions, want %d", len(items), n)
			}
			st := MeasureStability(items)
			if len(st) != 1 || st[0].Metric != "semantic_accuracy" {
				t.Fatalf("stability = %+v", st)
			}
			m := st[0]
			if m.Repetitions != 3 || m.Questions != n || m.Errors != 0 {
				t.Errorf("repetitions %d, questions %d, errors %d; want 3, %d, 0", m.Repetitions, m.Questions, m.Errors, n)
			}
			if got := *m.WithinSD; math.Abs(got-sd)/sd > 0.10 {
				t.Errorf("within-question sd = %.4f, want %.2f ± 10%%", got, sd)
			}
			if got, want := *m.DiffSD, math.Sqrt2*sd; math.Abs(got-want)/want > 0.12 {
				t.Errorf("sd_diff = %.4f, want √2·%.2f = %.4f ± 12%%", got, sd, want)
			}
			if got, want := *m.MDE, 2.4865*(*m.DiffSD)/math.Sqrt(n); math.Abs(got-want) > 1e-4 {
				t.Errorf("MDE = %.5f, want %.5f", got, want)
			}
			if m.Agreement == nil || *m.Agreement >= 1 || *m.Agreement < 0.5 || m.Kappa == nil {
				t.Errorf("agreement %v, kappa %v: want a measured, imperfect agreement", ptrText(m.Agreement), ptrText(m.Kappa))
			}
			t.Logf("true sd %.2f: within sd %.4f, sd_diff %.4f, MDE %.4f, agreement %.3f, kappa %.3f; %s",
				sd, *m.WithinSD, *m.DiffSD, *m.MDE, *m.Agreement, *m.Kappa, m.Verdict())
		})
	}
}

// TestRejudge_SkipsUnansweredAndChecksTimes: agent errors are not
// re-judged, and fewer than two repetitions is refused.
func TestRejudge_SkipsUnansweredAndChecksTimes(t *testing.T) {
	s := mustLoad(t, questionsSuite(3))
	j := &scriptedJudge{score: 0.7}
	a := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		if q.ID == "q1" {
			return agent.Response{}, &adapter.Error{Kind: "exit_status", Message: "failed"}
		}
		return agent.Response{Output: json.RawMessage(`"x"`)}, nil
	})
	run := mustExecute(t, s, a, runner.ExecOptions{Judge: j})
	if _, err := Rejudge(context.Background(), s, run, j, RejudgeOptions{Times: 1}); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("Times 1: err = %v", err)
	}
	items, err := Rejudge(context.Background(), s, run, j, RejudgeOptions{Times: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.CaseID)
	}
	if got := strings.Join(ids, ","); got != "q0,q2" {
		t.Errorf("re-judged %s, want q0,q2", got)
	}
	st := MeasureStability(items)[0]
	if *st.WithinSD != 0 || *st.MDE != 0 || !strings.Contains(st.Verdict(), "identical scores") {
		t.Errorf("a constant judge: sd %v, MDE %v, verdict %q", ptrText(st.WithinSD), ptrText(st.MDE), st.Verdict())
	}
}
