package eval

import (
	"fmt"
	"io"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Models builds what calls a model: llm agents and the judge.
// modelkit.Models is the one that calls real models; a program that never
// names it links no model SDK, and its Setup builds neither.
type Models interface {
	Agent(s llm.Settings, system string, limiter *llm.Limiter, catalog *prices.Catalog) (agent.Agent, error)
	Judge(s llm.Settings, limiter *llm.Limiter, catalog *prices.Catalog, cacheDir string) (score.Judge, error)
}

// Setup builds a run's agent and judge the same way for evalrun run,
// evalrun experiment and evaltest: each paced by a limiter of its own,
// every model call priced by one catalog, agent processes guarded.
type Setup struct {
	// Models builds llm agents and the judge; nil builds neither.
	Models Models
	// Prices prices every model call; nil: the vendored catalog alone.
	Prices *prices.Catalog
	// Guard starts the guardian that kills the command and worker agents'
	// processes if this process is killed, and returns their process tag
	// and the function that stops it; nil: no guardian (process groups
	// and the parent-death signal remain).
	Guard func() (tag string, stop func(), err error)
	// Warnings receives the warning of a guardian that cannot start; nil
	// discards it.
	Warnings io.Writer
}

// AgentOptions are one agent's limits and environment.
type AgentOptions struct {
	// Concurrency is how many cases run at once (worker agents start as
	// many processes).
	Concurrency int
	// Timeout overrides the suite's agent.timeout when positive.
	Timeout time.Duration
	// MaxAnswerBytes overrides the suite's agent.max_answer_bytes when
	// positive.
	MaxAnswerBytes int
	// LookupEnv reads the environment passed to process agents (nil:
	// os.LookupEnv).
	LookupEnv func(name string) (string, bool)
}

// BuiltAgent is an agent built by Setup.Agent: pass Agent to the Task and
// Close it when the run ends.
type BuiltAgent struct {
	Agent agent.Agent
	// Limiter paces the agent's requests (its rate is shown in progress).
	Limiter *llm.Limiter
	stop    func()
}

// Close closes the agent's processes or connections and stops its
// guardian.
func (b *BuiltAgent) Close() error {
	var err error
	if c, ok := b.Agent.(io.Closer); ok {
		err = c.Close()
	}
	b.stop()
	return err
}

// Agent builds the agent cfg describes. Errors are the configuration's
// (an llm agent without Models wraps adapter.ErrNoModels).
func (s Setup) Agent(cfg suite.AgentConfig, o AgentOptions) (*BuiltAgent, error) {
	b := &BuiltAgent{Limiter: llm.NewLimiter(), stop: func() {}}
	opts := adapter.Options{Concurrency: o.Concurrency, Timeout: o.Timeout, MaxAnswerBytes: o.MaxAnswerBytes,
		LookupEnv: o.LookupEnv, Limiter: b.Limiter, Prices: s.Prices}
	if s.Models != nil {
		opts.LLM = s.Models.Agent
	}
	b.stop, opts.ProcessTag = s.guard(cfg)
	a, err := adapter.New(cfg, opts)
	if err != nil {
		b.stop()
		return nil, err
	}
	b.Agent = a
	return b, nil
}

// guard starts the guardian for command and worker agents; a machine that
// refuses it (a locked-down container) still runs them, with a warning.
func (s Setup) guard(cfg suite.AgentConfig) (stop func(), tag string) {
	if s.Guard == nil || (cfg.Type != suite.AgentCommand && cfg.Type != suite.AgentWorker) {
		return func() {}, ""
	}
	tag, stop, err := s.Guard()
	if err != nil {
		if s.Warnings != nil {
			fmt.Fprintf(s.Warnings, "warning: %v: agent processes that leave their process group may outlive evalrun\n", err)
		}
		return func() {}, ""
	}
	return stop, tag
}

// Judge builds the judge of js with a limiter of its own, reusing the
// verdicts stored in cacheDir ("" keeps none). Without Models it wraps
// adapter.ErrNoModels.
func (s Setup) Judge(js llm.Settings, cacheDir string) (score.Judge, *llm.Limiter, error) {
	if s.Models == nil {
		return nil, nil, fmt.Errorf("a judge calls a model: %w", adapter.ErrNoModels)
	}
	limiter := llm.NewLimiter()
	j, err := s.Models.Judge(js, limiter, s.Prices, cacheDir)
	if err != nil {
		return nil, nil, err
	}
	return j, limiter, nil
}

// JudgeSummary is what the run summary says about judge j (which judge
// ran, its cache counters) when j tells it, else nil (Exec.ExtraSummary).
func JudgeSummary(j score.Judge) func() map[string]any {
	if r, ok := j.(interface{ RunSummary() map[string]any }); ok {
		return r.RunSummary
	}
	return nil
}
