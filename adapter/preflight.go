package adapter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/suite"
)

// preflightTimeout bounds each preflight probe.
const preflightTimeout = 5 * time.Second

// ErrUnreachable is wrapped by every preflight failure.
var ErrUnreachable = errors.New("unreachable")

// Preflight checks, before any question is asked, that the agent and (when
// judge is non-nil) the judge can be reached, so that an outage stops the
// run instead of becoming a run full of errors:
//
//   - command and worker agents: the program resolves (on PATH, or relative
//     to the agent's directory when it contains a slash) and is executable;
//   - http agents: a TCP connection to the URL's host and port (through the
//     proxy of HTTP_PROXY/HTTPS_PROXY/NO_PROXY when one applies). No
//     request is sent: a question would cost the agent a real answer and
//     may have side effects;
//   - llm agents and the judge: a TCP connection to the provider's endpoint
//     (Settings.Endpoint), likewise without a request: a minimal completion
//     would also prove the key and the model name, but it costs tokens and
//     rate-limit budget on every run, and a wrong key or model already
//     fails the first case with a clear error.
//
// Go-function agents (Type "") need no probe. The error names what was
// unreachable and wraps ErrUnreachable; all problems are reported at once.
func Preflight(ctx context.Context, a suite.AgentConfig, judge *llm.Settings) error {
	var problems []string
	if err := probeAgent(ctx, a); err != nil {
		problems = append(problems, fmt.Sprintf("agent %q: %v", a.Name, err))
	}
	if judge != nil {
		if err := probeURL(ctx, judge.Endpoint()); err != nil {
			problems = append(problems, fmt.Sprintf("judge (%s %s): %v", judge.Provider, judge.Model, err))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("preflight: %w: %s", ErrUnreachable, strings.Join(problems, "; "))
}

func probeAgent(ctx context.Context, cfg suite.AgentConfig) error {
	switch cfg.Type {
	case suite.AgentCommand, suite.AgentWorker:
		if len(cfg.Command) == 0 {
			return nil // refused when the suite is checked
		}
		return probeProgram(cfg.Command[0], cfg.Dir)
	case suite.AgentHTTP:
		return probeURL(ctx, cfg.URL)
	case suite.AgentLLM:
		if cfg.LLM != nil {
			return probeURL(ctx, cfg.LLM.Settings().Endpoint())
		}
	}
	return nil
}

// probeProgram resolves name as exec.Command does when run in dir.
func probeProgram(name, dir string) error {
	if !strings.Contains(name, string(filepath.Separator)) {
		if _, err := exec.LookPath(name); err != nil {
			return fmt.Errorf("program %q is not on PATH (%s)", name, os.Getenv("PATH"))
		}
		return nil
	}
	path := name
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, name)
	}
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Errorf("program %s: %w", path, err)
	case info.IsDir():
		return fmt.Errorf("program %s is a directory", path)
	case info.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("program %s is not executable (chmod +x it, or run it through its interpreter)", path)
	}
	return nil
}

// probeURL opens (and closes) a TCP connection to the URL's host and port,
// or to the proxy the environment names for it.
func probeURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("URL %q has no host", raw)
	}
	addr := hostPort(u)
	via := ""
	if proxy, err := http.ProxyFromEnvironment(&http.Request{URL: u}); err == nil && proxy != nil {
		addr, via = hostPort(proxy), " through proxy "+proxy.Host
	}
	ctx, cancel := context.WithTimeout(ctx, preflightTimeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot connect to %s%s: %w", addr, via, err)
	}
	return conn.Close()
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}
