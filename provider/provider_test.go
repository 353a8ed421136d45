package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/score"
)

// TestLLMJudge_Assess drives the real langchaingo clients of every provider
// against a scripted server and checks how each reply ends.
func TestLLMJudge_Assess(t *testing.T) {
	type want struct {
		score    float64
		kind     string // "" means a verdict
		requests int
		statuses []int // per attempt, for errors
		detail   string
	}
	cases := []struct {
		name    string
		steps   func(p string) []step
		timeout time.Duration
		want    want
	}{
		{"verdict", func(string) []step {
			return []step{{status: 200, content: `{"reason":"States the 30-day deadline.","score":0.9}`}}
		}, 0, want{score: 0.9, requests: 1}},
		{"verdict in a json fence", func(string) []step {
			return []step{{status: 200, content: "```json\n{\"reason\":\"Fine.\",\"score\":1}\n```"}}
		}, 0, want{score: 1, requests: 1}},
		{"malformed reply", func(string) []step {
			return []step{{status: 200, content: "Looks right to me. Score: 9/10"}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: "not a JSON object"}},
		{"score as string", func(string) []step {
			return []step{{status: 200, content: `{"reason":"ok","score":"0.9"}`}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: "not a number"}},
		{"empty content", func(string) []step {
			return []step{{status: 200, content: ""}}
		}, 0, want{kind: score.KindEmptyReply, requests: 1}},
		{"out of range score", func(string) []step {
			return []step{{status: 200, content: `{"reason":"Great.","score":1.5}`}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: "outside [0,1]"}},
		{"negative score", func(string) []step {
			return []step{{status: 200, content: `{"reason":"Bad.","score":-0.1}`}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: "outside [0,1]"}},
		{"empty reason", func(string) []step {
			return []step{{status: 200, content: `{"reason":"  ","score":0.7}`}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: `"reason" is empty`}},
		{"missing score", func(string) []step {
			return []step{{status: 200, content: `{"reason":"Hmm."}`}}
		}, 0, want{kind: score.KindInvalidReply, requests: 1, detail: `no "score"`}},
		{"429 then success", func(p string) []step {
			return []step{errorBody(p, 429, "Rate limit reached"), {status: 200, content: `{"reason":"Ok.","score":0.5}`}}
		}, 0, want{score: 0.5, requests: 2}},
		{"persistent 500", func(p string) []step {
			return []step{errorBody(p, 500, "internal failure")}
		}, 0, want{kind: score.KindServerError, requests: 3, statuses: []int{500, 500, 500}}},
		{"persistent 500 with empty body", func(string) []step {
			return []step{{status: 500, raw: true}}
		}, 0, want{kind: score.KindServerError, requests: 3, statuses: []int{500, 500, 500}}},
		{"persistent 429", func(p string) []step {
			return []step{errorBody(p, 429, "Rate limit reached")}
		}, 0, want{kind: score.KindRateLimited, requests: 3, statuses: []int{429, 429, 429}}},
		{"401 is not retried and the key is redacted", func(p string) []step {
			if p == llm.ProviderOllama { // Ollama takes no key, so none can leak
				return []step{errorBody(p, 401, "unauthorized")}
			}
			return []step{errorBody(p, 401, "Incorrect API key provided: "+testKey)}
		}, 0, want{kind: score.KindProviderError, requests: 1, statuses: []int{401}}},
		{"timeout", func(string) []step {
			return []step{{status: 200, content: `{"reason":"late","score":1}`, delay: 3 * time.Second}}
		}, 150 * time.Millisecond, want{kind: score.KindTimeout, requests: 3}},
	}
	for _, p := range allProviders {
		for _, tc := range cases {
			t.Run(p+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				srv := newScripted(t, p, tc.steps(p)...)
				s := srv.settings()
				if tc.timeout > 0 {
					s.Timeout = tc.timeout
				}
				j, err := NewJudge(s, testOptions(), nil)
				if err != nil {
					t.Fatal(err)
				}
				a, err := j.Assess(context.Background(), "system rubric", "user data")
				if got, want := srv.count(), tc.want.requests; got != want {
					t.Errorf("requests = %d, want %d", got, want)
				}
				if tc.want.kind == "" {
					checkVerdict(t, p, a, err, tc.want.score)
					return
				}
				checkJudgeError(t, err, tc.want.kind, tc.want.requests, tc.want.statuses, tc.want.detail)
			})
		}
	}
}

func checkVerdict(t *testing.T, provider string, a score.Assessment, err error, score float64) {
	t.Helper()
	if err != nil {
		t.Fatalf("Assess error = %v, want a verdict", err)
	}
	if a.Score != score || a.Reason == "" {
		t.Errorf("verdict = %v %q, want score %v and a reason", a.Score, a.Reason, score)
	}
	if a.Usage == nil || a.Usage.InputTokens != 120 || a.Usage.OutputTokens != 30 {
		t.Errorf("usage = %+v, want 120 in / 30 out", a.Usage)
	}
	if a.Usage != nil && a.Usage.Cost != nil {
		t.Errorf("cost = %v, want nil (price unknown on a custom endpoint)", *a.Usage.Cost)
	}
	_ = provider
}

func checkJudgeError(t *testing.T, err error, kind string, attempts int, statuses []int, detail string) {
	t.Helper()
	var je *score.Error
	if !errors.As(err, &je) {
		t.Fatalf("error = %v (%T), want *score.Error", err, err)
	}
	if je.Kind != kind {
		t.Errorf("kind = %q (%s), want %q", je.Kind, je.Message, kind)
	}
	enc, _ := json.Marshal(je.Details)
	if strings.Contains(string(enc), testKey) || strings.Contains(je.Message, testKey) {
		t.Errorf("the API key leaked into the error: %s", enc)
	}
	if detail != "" && !strings.Contains(fmt.Sprint(je.Details), detail) {
		t.Errorf("details %s do not mention %q", enc, detail)
	}
	got, ok := je.Details["attempts"].([]Attempt)
	if !ok || len(got) != attempts {
		t.Fatalf("attempts = %v, want %d recorded", je.Details["attempts"], attempts)
	}
	for i, st := range statuses {
		if got[i].Status != st || got[i].Error == "" {
			t.Errorf("attempt %d = %+v, want status %d with the error text", i+1, got[i], st)
		}
	}
}

// TestLLMJudge_Request checks what reaches each provider: a fresh
// two-message conversation, the credential header, JSON mode where the
// provider supports it and the configured temperature and max tokens.
func TestLLMJudge_Request(t *testing.T) {
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			srv := newScripted(t, p, step{status: 200, content: `{"reason":"ok","score":1}`})
			s := srv.settings()
			temp := 0.2
			s.Temperature, s.MaxTokens = &temp, 321
			j, err := NewJudge(s, testOptions(), nil)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if _, err := j.Assess(context.Background(), "SYSTEM", "USER"); err != nil {
					t.Fatal(err)
				}
			}
			req := srv.last()
			body, _ := json.Marshal(req.body)
			if !strings.Contains(string(body), "SYSTEM") || !strings.Contains(string(body), "USER") {
				t.Errorf("body %s lacks the prompts", body)
			}
			if strings.Count(string(body), "SYSTEM")+strings.Count(string(body), "USER") != 2 {
				t.Errorf("body %s carries an earlier conversation", body)
			}
			switch p {
			case llm.ProviderOpenAI:
				if got := req.header.Get("Authorization"); got != "Bearer "+testKey {
					t.Errorf("Authorization = %q", got)
				}
				if req.body["response_format"] == nil || req.body["max_completion_tokens"] != 321.0 || req.body["temperature"] != 0.2 {
					t.Errorf("body %s lacks json mode, max tokens or temperature", body)
				}
			case llm.ProviderAnthropic:
				if got := req.header.Get("X-Api-Key"); got != testKey {
					t.Errorf("x-api-key = %q", got)
				}
				if req.body["max_tokens"] != 321.0 || req.body["temperature"] != 0.2 {
					t.Errorf("body %s lacks max tokens or temperature", body)
				}
			case llm.ProviderOllama:
				opts, _ := req.body["options"].(map[string]any)
				if req.body["format"] != "json" || opts["num_predict"] != 321.0 || opts["temperature"] != 0.2 {
					t.Errorf("body %s lacks json format, num_predict or temperature", body)
				}
			}
			tot := j.Totals()
			if tot.Calls != 2 || tot.InputTokens != 240 || tot.OutputTokens != 60 || tot.Cost != nil {
				t.Errorf("totals = %+v, want 2 calls, 240/60 tokens, unknown cost", tot)
			}
		})
	}
}

func TestLLMJudge_CanceledContext(t *testing.T) {
	srv := newScripted(t, llm.ProviderOpenAI, step{status: 200, content: `{"reason":"x","score":1}`, delay: 3 * time.Second})
	j, err := NewJudge(srv.settings(), testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = j.Assess(ctx, "s", "u")
	checkJudgeError(t, err, score.KindCanceled, 1, nil, "")
}

// TestLLMJudge_TruncatedReply: a reply cut at max tokens is invalid, and the
// evidence says why.
func TestLLMJudge_TruncatedReply(t *testing.T) {
	body := `{"id":"1","object":"chat.completion","model":"judge-model","choices":[{"index":0,` +
		`"message":{"role":"assistant","content":"{\"reason\":\"The answer states"},"finish_reason":"length"}],` +
		`"usage":{"prompt_tokens":120,"completion_tokens":16,"total_tokens":136}}`
	srv := newScripted(t, llm.ProviderOpenAI, step{status: 200, body: body})
	j, err := NewJudge(srv.settings(), testOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Assess(context.Background(), "s", "u")
	checkJudgeError(t, err, score.KindInvalidReply, 1, nil, "stop_reason:length")
}
