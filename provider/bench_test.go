package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/llm"
)

// BenchmarkLLMJudge_Assess measures the judge's own overhead per verdict
// (prompt, real langchaingo client, loopback HTTP, parsing) per provider,
// and a cache hit.
func BenchmarkLLMJudge_Assess(b *testing.B) {
	for _, p := range allProviders {
		b.Run(p, func(b *testing.B) {
			srv := newScripted(b, p, step{status: 200, content: `{"reason":"Same facts.","score":0.9}`})
			j, err := NewJudge(srv.settings(), testOptions(), nil)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := j.Assess(ctx, "system", "user"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("cache_hit", func(b *testing.B) {
		srv := newScripted(b, llm.ProviderOpenAI, step{status: 200, content: `{"reason":"Same facts.","score":0.9}`})
		cache, err := OpenCache(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		j, err := NewJudge(srv.settings(), testOptions(), cache)
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		if _, err := j.Assess(ctx, "system", "user"); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if a, err := j.Assess(ctx, "system", "user"); err != nil || a.Details["judge_cache"] != "hit" {
				b.Fatal(fmt.Sprint(a.Details, err))
			}
		}
	})
}
