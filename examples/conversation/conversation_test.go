package conversation_test

import (
	"io"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/examples/conversation/scripted"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/suite"
)

// TestConversations runs suite.json with go test: one subtest per
// conversation, the scripted provider playing the simulated user and the
// judge. AGENT_REVISION=regressed fails both, each subtest logging the
// failing turn.
func TestConversations(t *testing.T) {
	s, err := suite.Load("suite.json")
	if err != nil {
		t.Fatal(err)
	}
	a, err := adapter.New(s.Agent, adapter.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := a.(io.Closer); ok {
		t.Cleanup(func() { c.Close() })
	}
	srv := httptest.NewServer(scripted.Handler())
	t.Cleanup(srv.Close)
	judge, err := provider.NewJudge(llm.Settings{Provider: llm.ProviderOpenAI, Model: "scripted-judge", BaseURL: srv.URL + "/v1",
		Timeout: 10 * time.Second, Retry: llm.Retry{MaxAttempts: 1}}, provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rev := os.Getenv("AGENT_REVISION")
	if rev == "" {
		rev = "reference"
	}
	evaltest.Run(t, "suite.json", a, evaltest.WithJudge(judge), evaltest.WithMetadata(map[string]any{"revision": rev}))
}
