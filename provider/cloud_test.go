package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// cloudServer is a local server speaking the wire format of Azure OpenAI,
// the Gemini API or the Bedrock runtime: it checks the path and the
// credential each API uses, and replies with a verdict (or a status).
type cloudServer struct {
	provider string
	status   int
	srv      *httptest.Server

	mu   sync.Mutex
	seen []*http.Request
	body []map[string]any
}

const (
	cloudModel   = "judge-model"
	bedrockModel = "anthropic.claude-3-haiku-20240307-v1:0"
	awsKeyID     = "AKIDTESTKEY000001"
)

func newCloudServer(t *testing.T, provider string, status int) *cloudServer {
	c := &cloudServer{provider: provider, status: status}
	c.srv = httptest.NewServer(c)
	t.Cleanup(c.srv.Close)
	return c
}

func (c *cloudServer) wantPath() string {
	switch c.provider {
	case llm.ProviderAzure:
		return "/openai/deployments/" + cloudModel + "/chat/completions"
	case llm.ProviderGemini:
		// The Go client streams even a single reply (a JSON array over REST).
		return "/v1beta/models/" + cloudModel + ":streamGenerateContent"
	}
	return "/model/" + bedrockModel + "/invoke"
}

// authorized reports whether the request carries the credential the way
// the provider's API expects it.
func (c *cloudServer) authorized(r *http.Request) bool {
	switch c.provider {
	case llm.ProviderAzure:
		return r.Header.Get("api-key") == testKey && r.URL.Query().Get("api-version") == AzureAPIVersion
	case llm.ProviderGemini:
		return r.Header.Get("x-goog-api-key") == testKey
	}
	// SigV4: the key id, the region and the service in the credential scope.
	a := r.Header.Get("Authorization")
	return strings.HasPrefix(a, "AWS4-HMAC-SHA256 Credential="+awsKeyID+"/") &&
		strings.Contains(a, "/eu-west-3/bedrock/aws4_request") && strings.Contains(a, "Signature=")
}

func (c *cloudServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	c.mu.Lock()
	c.seen, c.body = append(c.seen, r.Clone(context.Background())), append(c.body, body)
	c.mu.Unlock()
	switch {
	case r.URL.Path != c.wantPath():
		http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
		return
	case !c.authorized(r):
		http.Error(w, `{"error":{"message":"unauthorized"}}`, http.StatusUnauthorized)
		return
	case c.status != http.StatusOK:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.status)
		io.WriteString(w, `{"error":{"code":500,"message":"backend exploded","status":"INTERNAL"},"message":"backend exploded"}`)
		return
	}
	verdict, _ := json.Marshal(`{"score": 0.8, "reason": "Mostly right."}`)
	w.Header().Set("Content-Type", "application/json")
	switch c.provider {
	case llm.ProviderAzure:
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":%q,"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}`, cloudModel, verdict)
	case llm.ProviderGemini:
		fmt.Fprintf(w, `[{"candidates":[{"content":{"role":"model","parts":[{"text":%s}]},"finishReason":"STOP","index":0}],`+
			`"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":30,"totalTokenCount":150}}]`, verdict)
	default:
		fmt.Fprintf(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-3-haiku","content":[{"type":"text","text":%s}],`+
			`"stop_reason":"end_turn","usage":{"input_tokens":120,"output_tokens":30}}`, verdict)
	}
}

func (c *cloudServer) settings() llm.Settings {
	model := cloudModel
	if c.provider == llm.ProviderBedrock {
		model = bedrockModel
	}
	return llm.Settings{Provider: c.provider, Model: model, BaseURL: c.srv.URL, Timeout: 5 * time.Second,
		Retry: llm.Retry{MaxAttempts: 2, Backoff: time.Millisecond, MaxBackoff: time.Millisecond}}
}

func cloudEnv(k string) string {
	switch k {
	case "AZURE_OPENAI_API_KEY", "GEMINI_API_KEY":
		return testKey
	case "AWS_ACCESS_KEY_ID":
		return awsKeyID
	case "AWS_SECRET_ACCESS_KEY":
		return testKey
	case "AWS_REGION":
		return "eu-west-3"
	}
	return ""
}

// TestCloudProviders_Judge: a judge on Azure OpenAI, the Gemini API or
// Bedrock sends the system and user prompts in that API's own format,
// authenticated as it expects, and reads the verdict and the token usage;
// a server error is an error after our own retries (never a pass), and the
// credential never appears in it.
func TestCloudProviders_Judge(t *testing.T) {
	for _, provider := range []string{llm.ProviderAzure, llm.ProviderGemini, llm.ProviderBedrock} {
		t.Run(provider, func(t *testing.T) {
			srv := newCloudServer(t, provider, http.StatusOK)
			j, err := NewJudge(srv.settings(), Options{Getenv: cloudEnv}, nil)
			if err != nil {
				t.Fatal(err)
			}
			rec := &models.UsageRecorder{}
			a, err := j.Assess(models.WithUsageRecorder(context.Background(), rec), "You grade answers.", "Question: 2+2? Answer: 4")
			if err != nil {
				t.Fatalf("assess: %v", err)
			}
			if a.Score != 0.8 || a.Reason != "Mostly right." {
				t.Errorf("verdict = %v %q, want 0.8 %q", a.Score, a.Reason, "Mostly right.")
			}
			acc, _ := rec.Account()
			if acc.Calls != 1 || acc.InputTokens != 120 || acc.OutputTokens != 30 {
				t.Errorf("account = %+v, want 1 call of 120+30 tokens", acc)
			}
			sent, _ := json.Marshal(srv.body[0])
			for _, want := range []string{"You grade answers.", "Question: 2+2? Answer: 4"} {
				if !strings.Contains(string(sent), want) {
					t.Errorf("request body %s lacks %q", sent, want)
				}
			}

			bad := newCloudServer(t, provider, http.StatusInternalServerError)
			j, err = NewJudge(bad.settings(), Options{Getenv: cloudEnv}, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = j.Assess(context.Background(), "s", "u")
			var je *score.Error
			if !errors.As(err, &je) {
				t.Fatalf("server error: got %v, want a *score.Error", err)
			}
			if n := len(bad.seen); n != 2 {
				t.Errorf("%d requests for a server error, want 2 (our retries, none of the SDK's)", n)
			}
			details, _ := json.Marshal(je.Details)
			if strings.Contains(err.Error()+string(details), testKey) {
				t.Errorf("the credential leaked into the error: %v %s", err, details)
			}
		})
	}
}

func TestCloudProviders_Settings(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    llm.Settings
		env  map[string]string
		want string
	}{
		{"azure needs its resource", llm.Settings{Provider: llm.ProviderAzure, Model: "dep"}, nil, "needs a base URL"},
		{"azure needs its key", llm.Settings{Provider: llm.ProviderAzure, Model: "dep", BaseURL: "https://r.openai.azure.com"}, nil, "AZURE_OPENAI_API_KEY is not set"},
		{"gemini needs its key", llm.Settings{Provider: llm.ProviderGemini, Model: "gemini-2.5-flash"}, nil, "GEMINI_API_KEY is not set"},
		{"bedrock needs both keys", llm.Settings{Provider: llm.ProviderBedrock, Model: bedrockModel}, map[string]string{"AWS_ACCESS_KEY_ID": "AKID"}, "AWS_SECRET_ACCESS_KEY must be set"},
		{"bedrock needs a region", llm.Settings{Provider: llm.ProviderBedrock, Model: bedrockModel}, map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s"}, "AWS_REGION is not set"},
		{"unknown provider lists them all", llm.Settings{Provider: "vertex", Model: "m"}, nil, llm.ProviderNames},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewClient(tc.s, Options{Getenv: func(k string) string { return tc.env[k] }})
			if !errors.Is(err, llm.ErrInvalidSettings) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want ErrInvalidSettings mentioning %q", err, tc.want)
			}
		})
	}
}
