package runner

// Strict API replay wiring (the replay package does the work).
//
// Loading: a question's "api_interactions" is validated and its response
// bodies snapshotted by replay.Load when the suite loads (problems name the
// suite file and JSON path, exit 2); Case.Replay holds the result, and
// Definition folds Fixtures.Definition() into the digest. Suites without
// replay keep their digest.
//
// Executing: when any case declares fixtures, Execute installs a case hook
// (installReplay) that opens one replay.Session per case with fixtures:
//
//   - Go function agents (and any agent that is not a process or http
//     agent) get an *http.Client through WithHTTPClient; they must make
//     their requests with HTTPClient(ctx).
//   - command agents get a proxy of their own for the case (plain HTTP and
//     HTTPS through a CA generated for the run), announced through
//     HTTP(S)_PROXY, SSL_CERT_FILE and friends (WithEnv).
//   - worker agents get one proxy per worker process, in their environment
//     from the start; the proxy is armed with the session of the case the
//     worker is serving. A worker serving a case without fixtures finds its
//     proxy disarmed, which passes requests through untouched (plain HTTP
//     forwarded, HTTPS in a blind tunnel; the announced CA file also holds
//     the usual trust store): the case reaches the network as a command
//     agent's case without fixtures does, with no proxy at all.
//   - http agents run in a process evalrun did not start, so their
//     environment cannot be set: each case gets its own proxy, announced in
//     the request's Agentevals-Replay-Proxy header (the proxy URL) and
//     Agentevals-Replay-Ca-File header (the run CA's certificate file). The
//     agent must run on the same machine and send that case's API calls
//     through that proxy, trusting that CA.
//
// After the agent answers, the session's evidence goes to
// response_metadata.api_replay (also when the case errored), and a replay
// failure (unexpected, mismatched, exhausted or missing requests) makes the
// case an agent error of kind "api_replay", even when the agent answered
// (an error of the agent's own is kept in details.agent_error).

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"sync"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/replay"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// replayMode is how a run's agent reaches replay.
type replayMode int

const (
	replayInProcess replayMode = iota // WithHTTPClient
	replayPerCase                     // a proxy per case (command agents)
	replayPerWorker                   // a proxy per worker process
	replayHTTP                        // a proxy per case, announced in headers (http agents)
)

// Request headers that tell an http agent where its case's proxy is.
const (
	ReplayProxyHeader  = "Agentevals-Replay-Proxy"
	ReplayCAFileHeader = "Agentevals-Replay-Ca-File"
)

// replayRun is one run's replay machinery.
type replayRun struct {
	mode replayMode
	ca   *replay.CA // nil for in-process replay
	// record and upstream: ExecOptions.Record and Upstream.
	record   *suite.Recordings
	upstream http.RoundTripper

	mu      sync.Mutex
	workers map[int]*replay.Proxy
}

// installReplay returns the case hook that replays fixtures to agent when a
// case of s declares them (nil otherwise); call the returned function when
// the run ends.
func installReplay(s *suite.Suite, ag agent.Agent, opts ExecOptions) (caseHook, func(), error) {
	uses := opts.Record != nil
	for _, c := range s.Cases {
		uses = uses || c.Replay != nil || c.HasTurnReplay()
	}
	if !uses {
		return nil, func() {}, nil
	}
	r := &replayRun{workers: map[int]*replay.Proxy{}, record: opts.Record, upstream: opts.Upstream}
	switch a := ag.(type) {
	case *adapter.Command:
		r.mode = replayPerCase
	case *adapter.Worker:
		r.mode = replayPerWorker
		prev := a.EnvFor
		a.EnvFor = func(n int) []string { // workers start lazily, after this
			var env []string
			if prev != nil {
				env = prev(n)
			}
			if p, err := r.workerProxy(n); err == nil {
				env = append(env, p.Env(nil)...)
			}
			return env
		}
	case *adapter.HTTP:
		r.mode = replayHTTP
	}
	if r.mode != replayInProcess {
		ca, err := replay.NewCA()
		if err != nil {
			return nil, nil, fmt.Errorf("execute suite: %w", err)
		}
		r.ca = ca
	}
	return r.hook, r.close, nil
}

// hook opens the case's session and hands it to the agent.
func (r *replayRun) hook(ctx context.Context, c *suite.Case) (context.Context, afterCall, error) {
	if c.Replay == nil && r.record == nil {
		return ctx, nil, nil
	}
	s := c.Replay.NewSession()
	if r.record != nil {
		s = replay.NewRecorder()
	}
	done := func() {}
	switch r.mode {
	case replayInProcess:
		ctx = agent.WithHTTPClient(ctx, s.Client(r.upstream))
	case replayPerCase, replayHTTP:
		p, err := replay.NewProxy(r.ca, r.upstream)
		if err != nil {
			return ctx, nil, err
		}
		p.Arm(s)
		if r.mode == replayHTTP {
			ctx = context.WithValue(ctx, adapter.ReplayHeadersKey{}, map[string]string{ReplayProxyHeader: p.URL(), ReplayCAFileHeader: r.ca.CertFile()})
		} else {
			ctx = adapter.WithEnv(ctx, p.Env(nil))
		}
		done = func() { p.Close() }
	case replayPerWorker:
		ctx = context.WithValue(ctx, adapter.WorkerReplayKey{}, func(n int) func() {
			p, err := r.workerProxy(n)
			if err != nil {
				return func() {}
			}
			p.Arm(s)
			return func() { p.Arm(nil) }
		})
	}
	return ctx, func(resp agent.Response, err error) (agent.Response, *models.APIReplay, error) {
		done()
		ev, ferr := s.Finish()
		if r.record != nil {
			r.record.Add(c, s.Recorded())
		}
		switch {
		case ferr == nil:
		case err == nil:
			err = &adapter.Error{Kind: "api_replay", Message: ferr.Error()}
		default: // the replay failure is the likely cause; keep the agent's own error too
			// (redacted: a client's error often quotes the URL with its query)
			d := map[string]any{"agent_error": sanitize.String(err.Error())}
			var ae *adapter.Error
			if errors.As(err, &ae) {
				d = maps.Clone(ae.Details)
				if d == nil {
					d = map[string]any{}
				}
				if stderr, ok := d["stderr"].(string); ok {
					d["stderr"] = sanitize.String(stderr)
				}
				d["agent_error"] = map[string]any{"kind": ae.Kind, "message": sanitize.String(ae.Message)}
			}
			err = &adapter.Error{Kind: "api_replay", Message: ferr.Error(), Details: d}
		}
		return resp, ev, err
	}, nil
}

// workerProxy returns worker n's proxy, starting it on first use.
func (r *replayRun) workerProxy(n int) (*replay.Proxy, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.workers[n]; ok {
		return p, nil
	}
	p, err := replay.NewProxy(r.ca, r.upstream)
	if err != nil {
		return nil, err
	}
	r.workers[n] = p
	return p, nil
}

func (r *replayRun) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.workers {
		p.Close()
	}
	if r.ca != nil {
		r.ca.Close()
	}
}
