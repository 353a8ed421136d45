package dashboard

import (
	"context"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// Script payloads stored as untrusted answers, names and reasons.
const (
	payloadScript = `<script>document.title="pwned";alert(1)</script>`
	payloadImg    = `"><img src=x onerror="alert(2)">`
	payloadName   = `<b onmouseover=alert(3)>bold</b>`
)

// fixture names the seeded runs.
type fixture struct {
	Baseline, Candidate, NoJudge, XSS *models.Run
}

var t0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func metric(pos int, name string, threshold float64, score *float64, passed bool, reason string) *models.MetricResult {
	m := &models.MetricResult{Position: pos, Name: name, Threshold: threshold, Score: score, Passed: passed}
	if reason != "" {
		m.Reason = &reason
	}
	return m
}

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }

// seedFixture inserts the support example (a baseline and a regressed run),
// a run without a judge (nothing calculated) and a run full of script
// payloads, all through models.DB.InsertRun.
func seedFixture(tb testing.TB, db *models.DB) fixture {
	tb.Helper()
	ctx := context.Background()
	f := fixture{
		// A Ruby-style run: the summary has none of our keys.
		Baseline: supportRun(t0, 0.98, models.JSON(lookupTrace), false, models.JSON(`{}`)),
		Candidate: supportRun(t0.Add(2*time.Hour), 0.92, models.JSON(`[{"group":"orders","name":"lookup_order","arguments":{"id":41}}]`), true,
			models.JSON(`{"cases":3,"passed":1,"failed":1,"errored":1,"not_evaluated":0,"quality":0.3066666666666667,"pass_rate":0.3333333333333333}`)),
	}
	nj := &models.Run{Suite: "Customer support", Agent: "SupportAgent", Version: "1", SuiteDigest: "d2-nojudge",
		StartedAt: t0.Add(3 * time.Hour), FinishedAt: t0.Add(3*time.Hour + time.Second), Summary: models.JSON(`{"judge":"none"}`)}
	nj.Cases = []*models.CaseResult{{Position: 0, CaseID: "returns", Name: "Return window", Status: models.StatusNotEvaluated,
		DurationMS: 700, Question: models.JSON(`"How long do I have to return an item?"`), Output: models.JSON(`"30 days."`),
		Metrics: []*models.MetricResult{metric(0, "semantic_accuracy", 0.9, nil, false, "not calculated: judge disabled for this run")}}}
	f.NoJudge = nj
	xss := &models.Run{Suite: "Billing " + payloadScript, Agent: "Billing" + payloadImg, Version: "1", SuiteDigest: "x",
		StartedAt: t0.Add(time.Hour), FinishedAt: t0.Add(time.Hour + time.Second),
		Metadata: models.JSON(`{"note":"` + `<script>alert(4)</script>` + `"}`), Summary: models.JSON(`{"cases":"three"}`)}
	xss.Cases = []*models.CaseResult{{Position: 0, CaseID: "x1" + payloadImg, Name: payloadName, Status: models.StatusFailed, DurationMS: 10,
		Question: models.JSON(`"` + `<script>alert(5)</script>` + `"`), ExpectedAnswer: models.JSON(`"<iframe src=javascript:alert(6)>"`),
		Metadata: models.JSON(`{"failure_mode":"<svg onload=alert(7)>"}`), Output: models.JSON(`"\"><img src=x onerror=\"alert(2)\">"`),
		Actions:          models.JSON(`[{"group":"<x>","name":"<script>alert(8)</script>","arguments":{"q":"</code><script>alert(9)</script>"}}]`),
		ResponseMetadata: models.JSON(`{"api_replay":{"note":"<script>alert(10)</script>"}}`),
		Metrics: []*models.MetricResult{metric(0, "exact_match", 1, f64(0), false, payloadScript),
			{Position: 1, Name: "safety", Threshold: 0.5, ErrorDetails: models.JSON(`{"message":"<img src=x onerror=alert(11)>"}`)}}}}
	f.XSS = xss
	for _, r := range []*models.Run{f.Baseline, f.XSS, f.Candidate, f.NoJudge} {
		if err := db.InsertRun(ctx, r); err != nil {
			tb.Fatalf("seed: %v", err)
		}
	}
	return f
}

// orderReplay is the API replay evidence of the order lookup, in the shape
// the replay package persists (the credential header redacted).
const orderReplay = `{"api_replay":{"passed":true,"allow_hosts":[],
  "declared":[{"interaction":0,"method":"GET","url":"https://api.example.test/orders/42","headers":{"Authorization":"[REDACTED]"},
    "response":{"status":200,"body_bytes":38,"body_sha256":"5d1c3f0e"},"consumed":true}],
  "observed":[{"method":"GET","url":"https://api.example.test/orders/42","headers":{"Authorization":"[REDACTED]"},"body_bytes":0,
    "status":"matched","interaction":0,"response_status":200}],
  "missing":[]},"model":"fake-1"}`

// lookupTrace is the expected (and, when right, observed) order-lookup call.
const lookupTrace = `[{"group":"orders","name":"lookup_order","arguments":{"id":42}}]`

// supportRun is one run of the support example: semantic accuracy of the
// returns question, the observed order-lookup trace and whether the agent
// fails the greeting.
func supportRun(at time.Time, semantic float64, observed models.JSON, agentFails bool, summary models.JSON) *models.Run {
	r := &models.Run{Suite: "Customer support", Agent: "SupportAgent", Version: "1", SuiteDigest: "d1",
		StartedAt: at, FinishedAt: at.Add(3 * time.Second), Metadata: models.JSON(`{"revision":"abc123"}`), Summary: summary}
	returns := &models.CaseResult{Position: 0, CaseID: "returns", Name: "Return window", Status: models.StatusPassed,
		DurationMS: 812, Question: models.JSON(`"How long do I have to return an item?"`),
		ExpectedAnswer: models.JSON(`"You can return it within 30 days."`),
		MinimumScores:  models.JSON(`{"semantic_accuracy":0.9}`), Metadata: models.JSON(`{"failure_mode":"policy","tags":["returns"]}`),
		Output: models.JSON(`"Returns are accepted within 30 days."`), Actions: models.JSON(`[]`),
		ResponseMetadata: models.JSON(`{"metric_details":{"semantic_accuracy":{"judge":{"provider":"openai","model":"judge-1"},` +
			`"metric_type":"semantic_accuracy","raw_reply":"{\"reason\": \"Same deadline.\", \"score\": 0.95}"}}}`),
		InputTokens: i64(120), OutputTokens: i64(30), Cost: ptr(models.Decimal("0.0012")),
		Metrics: []*models.MetricResult{metric(0, "semantic_accuracy", 0.9, f64(semantic), semantic >= 0.9, "Same deadline.")}}
	status, score := models.StatusPassed, 1.0
	if string(observed) != lookupTrace {
		status, score = models.StatusFailed, 0
	}
	order := &models.CaseResult{Position: 1, CaseID: "lookup", Name: "Order lookup", Status: status, DurationMS: 1500,
		Question: models.JSON(`{"text":"Where is order 42?"}`), ExpectedAnswer: models.JSON(`"It ships tomorrow."`),
		ExpectedActions: models.JSON(lookupTrace), Metadata: models.JSON(`{"failure_mode":"tools"}`), Output: models.JSON(`"It ships tomorrow."`),
		Actions:          observed,
		ResponseMetadata: models.JSON(orderReplay),
		Metrics:          []*models.MetricResult{metric(0, "action_group", 1, f64(score), score == 1, "wrong: lookup_order arguments differ")}}
	greet := &models.CaseResult{Position: 2, CaseID: "greeting", Name: "Greeting", Status: models.StatusPassed, DurationMS: 90,
		Question: models.JSON(`"Hello?"`), ExpectedAnswer: models.JSON(`"Hello! How can I help?"`), Metadata: models.JSON(`{}`),
		Output:  models.JSON(`"Hello! How can I help?"`),
		Metrics: []*models.MetricResult{metric(0, "exact_match", 1, f64(1), true, "")}}
	if agentFails {
		greet.Status, greet.Output = models.StatusError, nil
		greet.ErrorDetails = models.JSON(`{"class":"Timeout","message":"agent timed out after 60s"}`)
		greet.Metrics = []*models.MetricResult{metric(0, "exact_match", 1, nil, false, "")}
	}
	r.Cases = []*models.CaseResult{returns, order, greet}
	return r
}
