package modelkit

import (
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/score"
)

// Models builds what calls a model with provider's clients: llm agents and
// the judge (eval.Models). A caller hands it to the run's set-up
// (eval.Setup); code that never names it links no model SDK.
type Models struct{}

// Agent builds the agent of an llm agent section: the model s asked with
// the system prompt, paced by limiter and priced by catalog (nil: the
// vendored catalog alone).
func (Models) Agent(s llm.Settings, system string, limiter *llm.Limiter, catalog *prices.Catalog) (agent.Agent, error) {
	return NewAgent(s, system, provider.Options{Limiter: limiter, Prices: catalog})
}

// Judge builds the judge of s, paced by limiter and priced by catalog,
// reusing the verdicts stored in cacheDir ("" keeps none).
func (Models) Judge(s llm.Settings, limiter *llm.Limiter, catalog *prices.Catalog, cacheDir string) (score.Judge, error) {
	var cache *provider.Cache
	if cacheDir != "" {
		var err error
		if cache, err = provider.OpenCache(cacheDir); err != nil {
			return nil, err
		}
	}
	return provider.NewJudge(s, provider.Options{Limiter: limiter, Prices: catalog}, cache)
}
