package provider

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/score"
)

// TestClient_404NamesEndpointAndHint: a base URL without /v1 makes an
// OpenAI-compatible server answer 404; the error names the URL requested
// and says how such URLs usually end. With /v1 the same 404 gets no hint.
func TestClient_404NamesEndpointAndHint(t *testing.T) {
	const hint = "OpenAI-compatible base URLs usually end in /v1"
	for _, tc := range []struct {
		name, suffix, wantURL string
		wantHint              bool
	}{
		{"no /v1", "", "/chat/completions", true},
		{"trailing slash", "/", "/chat/completions", true},
		{"with /v1", "/v1", "/v1/chat/completions", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The scripted server serves /v1/chat/completions only; with /v1
			// it answers 404 through its script.
			srv := newScripted(t, llm.ProviderOpenAI, errorBody(llm.ProviderOpenAI, 404, "model not found"))
			s := srv.settings()
			s.BaseURL = srv.srv.URL + tc.suffix
			if tc.suffix == "/v1" {
				s.BaseURL = srv.srv.URL + "/v1"
			}
			j, err := NewJudge(s, testOptions(), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = j.Assess(context.Background(), "s", "u")
			var je *score.Error
			if !errors.As(err, &je) || je.Kind != score.KindProviderError {
				t.Fatalf("error = %v, want a provider_error", err)
			}
			url := "POST " + srv.srv.URL + tc.wantURL
			if !strings.Contains(je.Message, url) || je.Details["url"] != url {
				t.Errorf("message %q / details url %v, want %q", je.Message, je.Details["url"], url)
			}
			if got := strings.Contains(je.Message, hint) && je.Details["hint"] == hint; got != tc.wantHint {
				t.Errorf("message %q, details hint %v: hint shown = %v, want %v", je.Message, je.Details["hint"], got, tc.wantHint)
			}
			if srv.count() != 1 {
				t.Errorf("requests = %d, want 1 (a 404 is not retried)", srv.count())
			}
		})
	}
}

// TestClient_RefusedIsRetried: a closed port is retried like a timeout,
// every attempt is recorded and the error names the endpoint.
func TestClient_RefusedIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, p := range allProviders {
		t.Run(p, func(t *testing.T) {
			s := llm.Settings{Provider: p, Model: "judge-model", BaseURL: "http://user:pw@" + addr + "/v1", Timeout: 2 * time.Second,
				Retry: llm.Retry{MaxAttempts: 3, Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}}
			if p == llm.ProviderOllama {
				s.BaseURL = "http://user:pw@" + addr
			}
			j, err := NewJudge(s, testOptions(), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = j.Assess(context.Background(), "s", "u")
			checkJudgeError(t, err, score.KindUnreachable, 3, nil, "refused")
			var je *score.Error
			errors.As(err, &je)
			if !strings.Contains(je.Message, addr) || strings.Contains(je.Message, "pw") || strings.Contains(je.Message, "user") {
				t.Errorf("message %q: want the endpoint %s without credentials", je.Message, addr)
			}
			if u, _ := je.Details["url"].(string); !strings.Contains(u, addr) || strings.Contains(u, "pw") {
				t.Errorf("details url = %v", je.Details["url"])
			}
			for _, at := range je.Details["attempts"].([]Attempt) {
				if at.Kind != score.KindUnreachable || !strings.Contains(at.Error, "refused") {
					t.Errorf("attempt %+v, want unreachable with the transport's reason", at)
				}
			}
		})
	}
}
