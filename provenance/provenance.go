// Package provenance records where a run is made: the git checkout, the CI
// job, the host and the working directory.
package provenance

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// gitTimeout bounds each git command: provenance never holds a run up.
const gitTimeout = 5 * time.Second

// NoHostEnv is the variable that, set to a true value (1, true, yes),
// keeps the host name out of the provenance (evalrun's --no-host).
const NoHostEnv = "EVALRUN_NO_HOST"

// Collect reads the provenance of a run of a suite in dir (the suite
// file's directory: the checkout it belongs to, wherever evalrun is
// started from). env reads the environment (os.Getenv). Whatever cannot be
// read is left out; without git, or outside a work tree, the CI's own
// variables give commit and branch when they are set.
//
// Every dashboard reader sees it, so no absolute path is stored: the
// repository root is its folder's name, the working directory is relative
// to the root ("." or "services/billing"), or, outside the checkout, to
// the home directory ("~/src/x"). The host name is left out when NoHostEnv
// is set.
func Collect(ctx context.Context, dir string, env func(string) string) *models.Provenance {
	p := &models.Provenance{}
	if !truthy(env(NoHostEnv)) {
		p.Host, _ = os.Hostname()
	}
	wd, _ := os.Getwd()
	p.WorkingDirectory = homeRelative(wd, env("HOME"))
	if root := git(ctx, dir, "rev-parse", "--show-toplevel"); root != "" {
		root = filepath.Clean(root)
		p.RepositoryRoot = filepath.Base(root)
		if rel, ok := within(root, wd); ok {
			p.WorkingDirectory = rel
		}
		p.Commit = git(ctx, dir, "rev-parse", "HEAD")
		if b := git(ctx, dir, "rev-parse", "--abbrev-ref", "HEAD"); b != "HEAD" {
			p.Branch = b // "HEAD" is a detached checkout: no branch
		}
		if p.Commit != "" {
			if status, ok := gitOK(ctx, dir, "status", "--porcelain", "--untracked-files=no"); ok {
				dirty := status != ""
				p.Dirty = &dirty
			}
		}
		p.Remote = StripCredentials(git(ctx, dir, "remote", "get-url", "origin"))
	}
	ci := detectCI(env)
	if ci.job != nil {
		p.CI = ci.job
		if p.Commit == "" {
			p.Commit = ci.commit
		}
		if p.Branch == "" {
			p.Branch = ci.branch
		}
	}
	for _, s := range []*string{&p.Branch, &p.Commit, &p.Host, &p.Remote, &p.RepositoryRoot, &p.WorkingDirectory} {
		*s = sanitize.RedactText(sanitize.EscapeText(*s))
	}
	if p.CI != nil {
		p.CI.RunURL = sanitize.RedactText(sanitize.EscapeText(StripCredentials(p.CI.RunURL)))
	}
	return p
}

// truthy reads a boolean variable: 1, true or yes (any case).
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// within returns path relative to root, with forward slashes, when path
// is root or below it (symbolic links resolved on both sides).
func within(root, path string) (string, bool) {
	if path == "" {
		return "", false
	}
	for _, pair := range [][2]string{{root, path}, {evalSymlinks(root), evalSymlinks(path)}} {
		if rel, err := filepath.Rel(pair[0], pair[1]); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// homeRelative writes path under home as "~/…" ("~" for home itself), so
// no user name is stored; other paths are kept as they are.
func homeRelative(path, home string) string {
	if home == "" || path == "" {
		return path
	}
	if rel, ok := within(home, path); ok {
		if rel == "." {
			return "~"
		}
		return "~/" + rel
	}
	return path
}

// Revision is the run-metadata revision derived from p: the commit's first
// 12 hex digits, "-dirty" appended when tracked files had changes; "" when
// there is no commit.
func Revision(p *models.Provenance) string {
	if p == nil || p.Commit == "" {
		return ""
	}
	r := p.Commit
	if len(r) > 12 {
		r = r[:12]
	}
	if p.Dirty != nil && *p.Dirty {
		r += "-dirty"
	}
	return r
}

// git runs a git command in dir and returns its trimmed output, "" on any
// failure.
func git(ctx context.Context, dir string, args ...string) string {
	out, _ := gitOK(ctx, dir, args...)
	return out
}

// gitOK runs a git command in dir: its trimmed output, and whether it
// succeeded. Prompts are disabled and the output is bounded.
func gitOK(ctx context.Context, dir string, args ...string) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	var out bytes.Buffer
	cmd.Stdout = &limited{w: &out, n: 64 << 10}
	if err := cmd.Run(); err != nil {
		return "", false
	}
	return strings.TrimSpace(out.String()), true
}

// limited keeps the first n bytes written to it and discards the rest.
type limited struct {
	w *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// StripCredentials removes the user and password of a URL
// ("https://user:token@host/org/repo.git" becomes
// "https://host/org/repo.git"); scp-like remotes (git@host:org/repo.git)
// and other text are returned as they are.
func StripCredentials(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return sanitize.RedactText(s)
	}
	u.User = nil
	return u.String()
}

// WithRevision returns meta with "revision" set to Revision(p) when meta
// names no revision under any of keys (the keys read as a revision, e.g.
// report.RevisionKeys) and p has a commit; otherwise meta unchanged. meta
// itself is never modified.
func WithRevision(meta map[string]any, p *models.Provenance, keys []string) map[string]any {
	rev := Revision(p)
	if rev == "" || hasRevision(meta, keys) {
		return meta
	}
	out := maps.Clone(meta)
	if out == nil {
		out = map[string]any{}
	}
	out["revision"] = rev
	return out
}

// hasRevision reports whether the metadata names a revision under a key.
func hasRevision(meta map[string]any, keys []string) bool {
	for _, k := range keys {
		switch v := meta[k].(type) {
		case string:
			if strings.TrimSpace(v) != "" {
				return true
			}
		case json.Number, float64, int, int64:
			return true
		}
	}
	return false
}
