package adapter

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/suite"
)

// Options tune New.
type Options struct {
	// Concurrency is how many cases run at once (worker agents start this
	// many processes). Default 1.
	Concurrency int
	// Timeout overrides the suite's per-call timeout when positive.
	Timeout time.Duration
	// WorkerEnv returns extra environment variables ("NAME=value") for the
	// i-th worker process (used to point workers at per-worker proxies).
	WorkerEnv func(worker int) []string
	// LookupEnv reads evalrun's environment (default os.LookupEnv).
	LookupEnv func(name string) (string, bool)
	// Limiter, when set, paces the requests of http and llm agents across
	// all workers and adapts them to the server's 429s (llm.Limiter).
	Limiter *llm.Limiter
	// Prices prices llm agents' calls; nil means the vendored catalog
	// alone.
	Prices *prices.Catalog
	// LLM builds llm agents (modelkit.Models.Agent); without it a suite
	// whose agent is an llm section is refused.
	LLM NewLLMFunc
	// MaxAnswerBytes overrides the suite's agent.max_answer_bytes when
	// positive.
	MaxAnswerBytes int
	// ProcessTag prefixes the TagEnv value every agent process gets
	// (default: random); pass the tag of a Guardian so that it can kill
	// them if evalrun is killed.
	ProcessTag string
}

// ErrNoModels: something that calls a model (an llm agent, a judge) was
// asked for, and no model provider was given to build it (Options.LLM).
var ErrNoModels = errors.New("no model provider was given to build it")

// NewLLMFunc builds the agent that asks the model s with the system
// prompt, paced by limiter and priced by catalog.
type NewLLMFunc func(s llm.Settings, system string, limiter *llm.Limiter, catalog *prices.Catalog) (agent.Agent, error)

// New builds the agent a suite names. Agents holding processes or
// connections also implement io.Closer; close them when the run ends.
// Building starts no process (worker agents start theirs on first use);
// Suite.CheckAgent reports the same configuration problems without
// building anything.
func New(cfg suite.AgentConfig, opts Options) (agent.Agent, error) {
	if err := suite.AgentConfigError(cfg); err != nil {
		return nil, err
	}
	if opts.Concurrency < 1 {
		opts.Concurrency = 1
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	timeout := time.Duration(cfg.Timeout)
	if opts.Timeout > 0 {
		timeout = opts.Timeout
	}
	if opts.MaxAnswerBytes > 0 {
		cfg.MaxAnswerBytes = opts.MaxAnswerBytes
	}
	if timeout <= 0 {
		timeout = suite.DefaultAgentTimeout
	}
	switch cfg.Type {
	case suite.AgentCommand:
		return newCommandAgent(cfg, baseEnv(cfg.Env, opts.LookupEnv), timeout, opts.ProcessTag), nil
	case suite.AgentWorker:
		return newWorkerAgent(cfg, baseEnv(cfg.Env, opts.LookupEnv), timeout, opts), nil
	case suite.AgentHTTP:
		return newHTTPAgent(cfg, timeout, opts)
	case suite.AgentLLM:
		if opts.LLM == nil {
			return nil, fmt.Errorf("new agent %q: $.agent.llm: an llm agent calls a model: %w", cfg.Name, ErrNoModels)
		}
		return opts.LLM(cfg.LLM.Settings(), cfg.LLM.SystemPrompt, opts.Limiter, opts.Prices)
	default: // refused by agentConfigError
		return nil, fmt.Errorf("new agent %q: $.agent: %w", cfg.Name, suite.ErrNoAgentType)
	}
}

// baseVars are passed to process agents whatever the suite says.
var baseVars = [...]string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ"}

// baseEnv builds a process agent's environment: the minimal base plus the
// names the suite passes through, read from evalrun's environment.
func baseEnv(names []string, lookup func(string) (string, bool)) []string {
	var env []string
	seen := map[string]bool{}
	for _, list := range [][]string{baseVars[:], names} {
		for _, n := range list {
			if seen[n] {
				continue
			}
			seen[n] = true
			if v, ok := lookup(n); ok {
				env = append(env, n+"="+v)
			}
		}
	}
	return env
}

// envKey carries the extra environment of a case's command-agent process.
type envKey struct{}

// WithEnv returns a context whose command-agent process for this case gets
// the extra environment variables ("NAME=value"), e.g. a replay proxy.
func WithEnv(ctx context.Context, env []string) context.Context {
	return context.WithValue(ctx, envKey{}, append(caseEnv(ctx), env...))
}

func caseEnv(ctx context.Context) []string {
	env, _ := ctx.Value(envKey{}).([]string)
	return append([]string(nil), env...)
}
