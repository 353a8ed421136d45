package models

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// TestScrub_TokenCountsAreNotSanitized: a traced case whose spans hold
// only usage counts keeps them as they are and is not marked sanitized;
// a credential under a usage name is still redacted.
func TestScrub_TokenCountsAreNotSanitized(t *testing.T) {
	counts := `{"otlp_trace":{"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","model_calls":1,"spans_received":1,"spans":[{"span_id":"00f067aa0ba902b7","name":"chat","status":"ok","start_ms":0,"duration_ms":1,` +
		`"attributes":{"gen_ai.usage.input_tokens":"812","gen_ai.usage.output_tokens":"40","gen_ai.usage.cache_read.input_tokens":"512","llm.token_count.prompt":"7","llm.token_count.total":"9"}}]}}`
	c := &CaseResult{ResponseMetadata: JSON(counts)}
	if s := c.Scrub(sanitize.Policy{}); s.Changed() || string(c.ResponseMetadata) != counts {
		t.Errorf("token counts: sanitized %+v, response_metadata %s", s, c.ResponseMetadata)
	}
	leaked := strings.Replace(counts, `"llm.token_count.total":"9"`, `"llm.token_count.total":"sk-abcdefghijklmnop"`, 1)
	c = &CaseResult{ResponseMetadata: JSON(leaked)}
	s := c.Scrub(sanitize.Policy{})
	if strings.Contains(string(c.ResponseMetadata), "sk-abc") || strings.Join(s.Redacted, ",") != "response_metadata" ||
		!strings.Contains(string(c.ResponseMetadata), `"gen_ai.usage.input_tokens":"812"`) {
		t.Errorf("credential under a usage name: sanitized %+v, response_metadata %s", s, c.ResponseMetadata)
	}
}

// TestScrub_EveryColumn plants a credential in every column a user can
// reach and finds each redacted and listed.
func TestScrub_EveryColumn(t *testing.T) {
	const secret = `password: hunter2 \nsk-abcdefghijklmnop`
	js := func(s string) JSON { return MustJSON(s) }
	reason := "reason " + secret
	c := &CaseResult{Name: "name " + secret, Question: js(secret), ExpectedAnswer: js(secret),
		ExpectedActions: MustJSON([]any{map[string]any{"name": "login", "arguments": map[string]any{"note": secret}}}),
		Metadata:        MustJSON(map[string]any{"tags": []string{secret}}), Output: js(secret), Actions: MustJSON([]any{map[string]any{"result": secret}}),
		ResponseMetadata: MustJSON(map[string]any{"stderr": secret}), ErrorDetails: MustJSON(map[string]any{"stderr": secret}),
		Metrics: []*MetricResult{{Name: "m", Reason: &reason, ErrorDetails: MustJSON(map[string]any{"raw_reply": secret})}}}
	s := c.Scrub(sanitize.Policy{})
	for col, v := range map[string]string{"name": c.Name, "question": string(c.Question), "expected_answer": string(c.ExpectedAnswer),
		"expected_actions": string(c.ExpectedActions), "metadata": string(c.Metadata), "output": string(c.Output), "actions": string(c.Actions),
		"response_metadata": string(c.ResponseMetadata), "error_details": string(c.ErrorDetails),
		"metrics[0].reason": *c.Metrics[0].Reason, "metrics[0].error_details": string(c.Metrics[0].ErrorDetails)} {
		if strings.Contains(v, "hunter2") || strings.Contains(v, "sk-abc") {
			t.Errorf("%s keeps a credential: %s", col, v)
		}
		if !strings.Contains(strings.Join(s.Redacted, ","), col) {
			t.Errorf("%s is not listed as redacted: %v", col, s.Redacted)
		}
	}
}

func TestRedact_DatabaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://app:s3cret@db.example:5432/evals":                       "postgres://app:xxxxx@db.example:5432/evals",
		"postgres://app@db.example/evals?password=s3cret&sslmode=disable":   "postgres://app@db.example/evals?password=[REDACTED]&sslmode=disable",
		"postgresql://db.example/evals?sslpassword=k3y&application_name=ci": "postgresql://db.example/evals?sslpassword=[REDACTED]&application_name=ci",
		"sqlite:/tmp/evals.sqlite3":                                         "sqlite:/tmp/evals.sqlite3",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
