package runner

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Infrastructure error kinds. An agent call failed from infrastructure
// when it timed out, could not be started (the executable is missing), its
// HTTP request got no reply (connection refused or reset, DNS) or a gateway
// answered 502, 503 or 504. A judge call failed from infrastructure when
// the provider was unreachable, timed out, answered 5xx or kept answering
// 429 after the retries. Anything else (an exit status, a bad reply, an
// invalid verdict) is the agent's or the judge's own answer.
var (
	infraAgentKinds = map[string]bool{"timeout": true, "start": true, "http": true}
	infraJudgeKinds = map[string]bool{score.KindUnreachable: true, score.KindTimeout: true,
		score.KindServerError: true, score.KindRateLimited: true}
	gatewayStatus = map[float64]bool{502: true, 503: true, 504: true}
)

// callCounter counts agent calls and judged metrics, and how many of each
// failed from infrastructure. It is safe for concurrent use.
type callCounter struct {
	mu                     sync.Mutex
	agentCalls, agentInfra int
	judgeCalls, judgeInfra int
	agentFirst, judgeFirst string
}

// agent records one agent call's outcome (nil: it answered).
func (c *callCounter) agent(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.agentCalls++
	if err == nil {
		return
	}
	e := decodeError(agentErrorJSON(err))
	status, _ := e.Details["status"].(float64)
	if infraAgentKinds[e.Kind] || (e.Kind == "http_status" && gatewayStatus[status]) {
		c.agentInfra++
		if c.agentFirst == "" {
			c.agentFirst = e.Kind + ": " + e.Message
		}
	}
}

// judge records one judged metric's outcome: its error details (SQL NULL
// when it was scored).
func (c *callCounter) judge(details models.JSON) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.judgeCalls++
	if details.IsNull() {
		return
	}
	if e := decodeError(details); infraJudgeKinds[e.Kind] {
		c.judgeInfra++
		if c.judgeFirst == "" {
			c.judgeFirst = e.Kind + ": " + e.Message
		}
	}
}

// judged records the outcome of every judge-backed metric calculated on
// the case (names in judgeMetrics).
func (c *callCounter) judged(rec *models.CaseResult, judgeMetrics map[string]bool) {
	for _, m := range rec.Metrics {
		if judgeMetrics[m.Name] && m.Calculated() {
			c.judge(m.ErrorDetails)
		}
	}
}

// failure is the summary's infrastructure_failure value, or nil when
// neither every agent call nor every judge call failed from infrastructure.
// The errors it quotes (an HTTP reply's body, a provider's message) are
// redacted under p like every stored string.
func (c *callCounter) failure(p sanitize.Policy) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	if c.agentCalls > 0 && c.agentInfra == c.agentCalls {
		out["agent"] = describeOutage(p, c.agentFirst, c.agentCalls)
	}
	if c.judgeCalls > 0 && c.judgeInfra == c.judgeCalls {
		out["judge"] = describeOutage(p, c.judgeFirst, c.judgeCalls)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// describeOutage is "the first error (n of n calls)", the error cut to a
// readable length.
func describeOutage(p sanitize.Policy, first string, n int) string {
	first, _ = p.Text(first)
	first = strings.Join(strings.Fields(first), " ")
	if r := []rune(first); len(r) > 200 {
		first = string(r[:200]) + "…"
	}
	calls := "calls"
	if n == 1 {
		calls = "call"
	}
	return fmt.Sprintf("%s (%d of %d %s)", first, n, n, calls)
}

type errorJSON struct {
	Kind    string         `json:"kind"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

func decodeError(j models.JSON) errorJSON {
	var e errorJSON
	_ = j.Decode(&e) // written by agentErrorJSON or metricErrorJSON
	return e
}

// JudgeMetrics are the calculated metric names scored by the judge.
func JudgeMetrics(s *suite.Suite, calculated []string) map[string]bool {
	want := map[string]bool{}
	for _, name := range calculated {
		want[name] = true
	}
	out := map[string]bool{}
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if want[m.Name] && s.MetricNeedsJudge(c, m.Name) {
				out[m.Name] = true
			}
		}
	}
	return out
}
