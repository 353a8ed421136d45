package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/suite"
)

func TestJudgeFlags_Judge(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ANTHROPIC_API_KEY", "test-anthropic-key")
	st := &suite.ModelConfig{Provider: "ollama", Model: "llama3", BaseURL: "http://127.0.0.1:11434"}
	cases := []struct {
		name  string
		flags JudgeFlags
		cfg   *suite.ModelConfig
		want  string // provider/model@base, "" for no judge, "exit2:..." for an error
	}{
		{"no judge anywhere", JudgeFlags{}, nil, ""},
		{"suite judge", JudgeFlags{}, st, "ollama/llama3@http://127.0.0.1:11434"},
		{"no-judge wins", JudgeFlags{NoJudge: true, JudgeModel: "m"}, st, ""},
		{"model override keeps the suite provider", JudgeFlags{JudgeModel: "qwen"}, st, "ollama/qwen@http://127.0.0.1:11434"},
		{"provider override drops the suite url", JudgeFlags{JudgeProvider: "anthropic", JudgeModel: "claude-3-5-haiku-latest"}, st, "anthropic/claude-3-5-haiku-latest@"},
		{"provider override without model", JudgeFlags{JudgeProvider: "anthropic"}, st, "exit2:give --judge-model too"},
		{"model without suite judge", JudgeFlags{JudgeModel: "llama3", JudgeProvider: "ollama"}, nil, "ollama/llama3@"},
		{"provider without model", JudgeFlags{JudgeProvider: "ollama"}, nil, "exit2:give --judge-model"},
		{"missing key", JudgeFlags{JudgeModel: "gpt-4o-mini"}, nil, "exit2:OPENAI_API_KEY is not set"},
		{"bad url", JudgeFlags{JudgeBaseURL: "http://[::1"}, st, "exit2:not a valid URL"},
		{"unknown provider", JudgeFlags{JudgeProvider: "vertex", JudgeModel: "g"}, nil, "exit2:unknown provider"},
		{"cache is a file", JudgeFlags{JudgeCache: "/dev/null/x"}, st, "exit2:--judge-cache"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.flags
			j, err := f.judge(context.Background(), tc.cfg)
			if strings.HasPrefix(tc.want, "exit2:") {
				var ee *exitError
				if !errors.As(err, &ee) || ee.Code != exitInvalid || !strings.Contains(err.Error(), strings.TrimPrefix(tc.want, "exit2:")) {
					t.Fatalf("judge = %v, want exit 2 mentioning %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if j != nil || f.judgeSummary() != nil {
					t.Fatalf("judge = %v, want none", j)
				}
				return
			}
			s := j.(*provider.Judge).Totals()
			got := s.Provider + "/" + s.Model + "@"
			if fs, ok, _ := f.settings(tc.cfg); ok {
				got += fs.BaseURL
			}
			if got != tc.want {
				t.Errorf("judge = %s, want %s", got, tc.want)
			}
			if sum := f.judgeSummary(); sum["judge"] == nil {
				t.Errorf("summary = %v, want judge totals", sum)
			}
		})
	}
}

func TestJudgeFlags_SummaryWithCache(t *testing.T) {
	f := JudgeFlags{JudgeCache: t.TempDir()}
	if _, err := f.judge(context.Background(), &suite.ModelConfig{Provider: "ollama", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	sum := f.judgeSummary()
	c, ok := sum["judge_cache"].(map[string]any)
	if !ok || c["hits"] != int64(0) || c["misses"] != int64(0) {
		t.Errorf("summary = %v, want judge_cache with zero hits and misses", sum)
	}
}

// TestEnvBool_EmptyVariable: EVAL_NO_JUDGE set but empty (as CI templates
// leave it) reads as false instead of failing every command; true values
// switch the judge off, anything else is refused.
func TestEnvBool_EmptyVariable(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  bool
		ok    bool
	}{{"", false, true}, {"  ", false, true}, {"0", false, true}, {"true", true, true}, {"YES", true, true}, {"maybe", false, false}} {
		t.Run(tt.value, func(t *testing.T) {
			t.Setenv("EVAL_NO_JUDGE", tt.value)
			var cli struct{ JudgeFlags }
			p, err := kong.New(&cli)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Parse(nil)
			if (err == nil) != tt.ok || bool(cli.NoJudge) != tt.want {
				t.Errorf("EVAL_NO_JUDGE=%q: no-judge %v, err %v; want %v, ok %v", tt.value, cli.NoJudge, err, tt.want, tt.ok)
			}
		})
	}
}
