package outcome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Exchanger sends a program one document and reads its reply (the
// adapter's Program satisfies it).
type Exchanger interface {
	Exchange(ctx context.Context, in []byte) ([]byte, error)
	io.Closer
}

// ProgramError is a failed exchange as an Exchanger reports it: Kind is
// start, timeout, exit_status, background_processes, bad_response or
// interrupted; Details hold the stderr tail and the command.
type ProgramError struct {
	Kind, Message string
	Details       map[string]any
}

func (e *ProgramError) Error() string { return e.Kind + ": " + e.Message }

// ProgramSpec is a program to start: a verifier or a setup step.
type ProgramSpec struct {
	Command, Env []string
	Dir          string
	Timeout      time.Duration
	Worker       bool
}

// Options bind outcome checks to a run.
type Options struct {
	// NewProgram builds a program (adapter.NewProgram in evalrun).
	NewProgram func(ProgramSpec) Exchanger
	// LookupEnv reads the database URLs (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// RunID is the run's id, given to setup and teardown steps.
	RunID string
}

// Runtime holds a run's verifier programs and database connections.
type Runtime struct {
	suite *suite.Suite
	opts  Options
	dbs   map[string]*stateDB

	mu       sync.Mutex
	programs map[string]Exchanger
}

// Used reports whether the suite has an outcome check, a database or a
// setup or teardown step: only then does a run need a Runtime.
func Used(s *suite.Suite) bool {
	if len(s.Databases) > 0 || len(s.Setup) > 0 || len(s.Teardown) > 0 {
		return true
	}
	for _, ev := range s.Evaluators {
		if isOutcome(ev.Type) {
			return true
		}
	}
	for _, c := range s.Cases {
		for _, ev := range c.Checks {
			if isOutcome(ev.Type) {
				return true
			}
		}
	}
	return false
}

func isOutcome(typ string) bool { return typ == score.Verifier || typ == score.StateCheck }

// Open connects to the suite's databases (URLs read from the environment)
// and prepares every state check's query, so that a missing variable, an
// unreachable database or a query that does not parse is refused before
// any question is asked, naming the file and field.
func Open(ctx context.Context, s *suite.Suite, opts Options) (*Runtime, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	rt := &Runtime{suite: s, opts: opts, dbs: map[string]*stateDB{}, programs: map[string]Exchanger{}}
	for _, d := range s.Databases {
		url, ok := opts.LookupEnv(d.URLEnv)
		if !ok || strings.TrimSpace(url) == "" {
			rt.Close()
			return nil, fmt.Errorf("%s: %s: environment variable %s is not set (want the database URL: postgres://… or sqlite:PATH)", s.Path, suite.Child(suite.Child("$.databases", d.Name), "url_env"), d.URLEnv)
		}
		db, err := openState(ctx, d, url)
		if err != nil {
			rt.Close()
			return nil, fmt.Errorf("%s: %s: %w", s.Path, suite.Child("$.databases", d.Name), err)
		}
		rt.dbs[d.Name] = db
	}
	if err := rt.prepareAll(ctx); err != nil {
		rt.Close()
		return nil, err
	}
	return rt, nil
}

// prepareAll prepares every state check's query on its database.
func (rt *Runtime) prepareAll(ctx context.Context) error {
	check := func(where string, ev suite.Evaluator) error {
		if ev.Type != score.StateCheck {
			return nil
		}
		p, _, err := score.ParseState(ev.Params)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := rt.dbs[p.Database].prepare(ctx, p.Query); err != nil {
			return fmt.Errorf("%s.query: %w", where, err)
		}
		return nil
	}
	for _, ev := range rt.suite.Evaluators {
		if err := check(rt.suite.Path+": "+suite.Child(suite.Child("$.evaluators", ev.Name), "params"), ev); err != nil {
			return err
		}
	}
	for _, c := range rt.suite.Cases {
		for i, ev := range c.Checks {
			if err := check(fmt.Sprintf("%s.checks[%d]", c.Source, i), ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// Bind returns a copy of reg whose verifier and db_state types score
// through this runtime.
func (rt *Runtime) Bind(reg score.Registry) score.Registry {
	out := make(score.Registry, len(reg))
	for k, v := range reg {
		out[k] = v
	}
	if def, ok := out[score.Verifier]; ok {
		def.New = func(params json.RawMessage, _ score.Judge) (score.Scorer, error) { return rt.newVerifier(params) }
		out[score.Verifier] = def
	}
	if def, ok := out[score.StateCheck]; ok {
		def.New = func(params json.RawMessage, _ score.Judge) (score.Scorer, error) { return rt.newStateCheck(params) }
		out[score.StateCheck] = def
	}
	return out
}

// program returns the shared program of spec, started on first use.
func (rt *Runtime) program(spec ProgramSpec) (Exchanger, error) {
	if rt.opts.NewProgram == nil {
		return nil, errors.New("outcome runtime: no program runner configured")
	}
	key, _ := json.Marshal(spec)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if p, ok := rt.programs[string(key)]; ok {
		return p, nil
	}
	p := rt.opts.NewProgram(spec)
	rt.programs[string(key)] = p
	return p, nil
}

// Close stops every program and closes every connection; nothing for a
// nil runtime.
func (rt *Runtime) Close() error {
	if rt == nil {
		return nil
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var errs []error
	for _, p := range rt.programs {
		errs = append(errs, p.Close())
	}
	rt.programs = map[string]Exchanger{}
	for _, db := range rt.dbs {
		errs = append(errs, db.close())
	}
	rt.dbs = map[string]*stateDB{}
	return errors.Join(errs...)
}
