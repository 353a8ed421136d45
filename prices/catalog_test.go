package prices

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var callTime = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// TestLookup_CurrentModels: the cost of a call is known offline for current
// models of OpenAI, Anthropic, Google and Mistral, dated snapshots included,
// from Default and from Load without a file (which parses on first lookup).
func TestLookup_CurrentModels(t *testing.T) {
	for _, load := range []func() (*Catalog, error){Default, func() (*Catalog, error) { return Load("") }} {
		c, err := load()
		if err != nil {
			t.Fatal(err)
		}
		lookupCurrentModels(t, c)
	}
}

func lookupCurrentModels(t *testing.T, c *Catalog) {
	t.Helper()
	models := map[string][]string{
		"openai": {"gpt-4o", "gpt-4o-mini", "gpt-4o-mini-2024-07-18", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano",
			"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5.1", "gpt-5.2", "gpt-5.4", "gpt-5.4-mini", "gpt-5.5", "o1", "o3", "o3-mini", "o4-mini", "gpt-oss-120b"},
		"anthropic": {"claude-3-5-haiku-20241022", "claude-3-7-sonnet-latest", "claude-haiku-4-5", "claude-sonnet-4-0",
			"claude-sonnet-4-5", "claude-sonnet-4-6", "claude-opus-4-1", "claude-opus-4-5", "claude-opus-4-6", "claude-sonnet-5"},
		"google": {"gemini-2.0-flash", "gemini-2.0-flash-lite", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.5-pro",
			"gemini-3-pro-preview", "gemini-3.1-flash-lite", "gemini-3.5-flash"},
		"mistral": {"mistral-large-latest", "mistral-medium-3", "mistral-small-latest", "codestral-2508", "ministral-8b", "magistral-medium", "mistral-nemo"},
	}
	n := 0
	for provider, names := range models {
		for _, m := range names {
			p, ok := c.Lookup(Call{Provider: provider, Model: m, At: callTime})
			if !ok {
				t.Errorf("%s/%s: no price", provider, m)
				continue
			}
			cost, ok := p.Cost(1000, 1000)
			if !ok || cost <= 0 {
				t.Errorf("%s/%s: cost of 1000+1000 tokens = %v, %v; want a positive known cost", provider, m, cost, ok)
			}
			n++
		}
	}
	if n < 40 {
		t.Errorf("%d models priced, want at least 40", n)
	}
}

func TestLookup_Rules(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		call    Call
		in, out int64
		want    float64 // USD; -1 means unknown
	}{
		{"list price", Call{Provider: "openai", Model: "gpt-4o-mini", At: callTime}, 1_000_000, 1_000_000, 0.15 + 0.60},
		{"case ignored", Call{Provider: "openai", Model: "GPT-4o-mini", At: callTime}, 1_000_000, 0, 0.15},
		{"tier below its start", Call{Provider: "anthropic", Model: "claude-sonnet-4-5", At: callTime}, 200_000, 0, 0.6},
		{"tier: every token at the higher rate", Call{Provider: "anthropic", Model: "claude-sonnet-4-5", At: callTime}, 200_001, 1_000_000, 200_001*6/1e6 + 22.5},
		{"price before a dated change", Call{Provider: "openai", Model: "o3", At: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}, 1_000_000, 0, 10},
		{"price after a dated change", Call{Provider: "openai", Model: "o3", At: callTime}, 1_000_000, 0, 2},
		{"recognised endpoint", Call{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", At: callTime}, 1_000_000, 0, 0.15},
		{"azure falls back to openai's models", Call{Provider: "azure", Model: "gpt-4o-mini", At: callTime}, 1_000_000, 0, 0.15},
		{"local server", Call{Provider: "openai", BaseURL: "http://127.0.0.1:8000/v1", Model: "gpt-4o-mini", At: callTime}, 10, 10, -1},
		{"ollama", Call{Provider: "ollama", Model: "llama3", At: callTime}, 10, 10, -1},
		{"unknown model", Call{Provider: "openai", Model: "no-such-model", At: callTime}, 10, 10, -1},
		{"no output price, output tokens", Call{Provider: "openai", Model: "text-embedding-3-small", At: callTime}, 10, 10, -1},
		{"no output price, no output tokens", Call{Provider: "openai", Model: "text-embedding-3-small", At: callTime}, 1_000_000, 0, 0.02},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := -1.0
			if p, ok := c.Lookup(tc.call); ok {
				if cost, ok := p.Cost(tc.in, tc.out); ok {
					got = cost
				}
			}
			if math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("cost = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLoad_OwnPrices(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "prices.json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := Load(write(`{"prices": [{"model": "llama3", "input_mtok": 0, "output_mtok": 0},
		{"provider": "openai", "model": "gpt-4o-mini", "input_mtok": 1, "output_mtok": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := c.Lookup(Call{Provider: "ollama", BaseURL: "http://127.0.0.1:11434", Model: "llama3"})
	if cost, known := p.Cost(100, 100); !ok || !known || cost != 0 {
		t.Errorf("own price of a local model: %v %v %v, want a known 0", ok, known, cost)
	}
	p, _ = c.Lookup(Call{Provider: "openai", Model: "gpt-4o-mini", At: callTime})
	if cost, _ := p.Cost(1_000_000, 1_000_000); cost != 3 {
		t.Errorf("own price overrides the catalog: cost %v, want 3", cost)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"prices": []}`, "$.prices: want a non-empty list"},
		{`{"prices": [{"input_mtok": 1}]}`, "$.prices[0].model: want the model name"},
		{`{"prices": [{"model": "m"}]}`, "$.prices[0]: want input_mtok or output_mtok"},
		{`{"prices": [{"model": "m", "output_mtok": -1}]}`, "$.prices[0].output_mtok: want a price from 0 to 1000000"},
		{`{"prices": [{"model": "m", "input_mtok": 1e308}]}`, "$.prices[0].input_mtok: want a price from 0 to 1000000 USD per million tokens, got 1e+308"},
		{`{"prices": [{"model": "m", "input_mtok": 1}, {"model": "x", "input_mtok": 1}, {"model": "M", "input_mtok": 2}]}`,
			`$.prices[2]: "M" is priced twice (also $.prices[0])`},
		{`{"models": {}}`, `unknown field "models"`},
		{strings.Repeat(" ", maxOwnFile+1), "larger than the limit"},
	} {
		if _, err := Load(write(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "prices.json") {
			t.Errorf("Load(%.40q) = %v, want an error naming the file and %q", tc.body, err, tc.want)
		}
	}
}
