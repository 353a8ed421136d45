package provenance

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestStripCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:ghp_secret123@github.com/org/repo.git": "https://github.com/org/repo.git",
		"https://token@gitlab.com/org/repo.git":              "https://gitlab.com/org/repo.git",
		"git@github.com:org/repo.git":                        "git@github.com:org/repo.git",
		"ssh://git@host:22/org/repo":                         "ssh://host:22/org/repo",
		"":                                                   "",
	} {
		if got := StripCredentials(in); got != want {
			t.Errorf("StripCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDetectCI(t *testing.T) {
	tests := []struct {
		name                       string
		env                        map[string]string
		provider, url, sha, branch string
	}{
		{"none", nil, "", "", "", ""},
		{"CI=false", map[string]string{"CI": "false"}, "", "", "", ""},
		{"generic", map[string]string{"CI": "true"}, "unknown", "", "", ""},
		{"github", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r",
			"GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_SHA": "abc", "GITHUB_HEAD_REF": "feature", "GITHUB_REF_NAME": "7/merge"},
			"github-actions", "https://github.com/o/r/actions/runs/42/attempts/2", "abc", "feature"},
		{"gitlab", map[string]string{"GITLAB_CI": "true", "CI_JOB_URL": "https://gitlab.com/o/r/-/jobs/9", "CI_COMMIT_SHA": "def", "CI_COMMIT_REF_NAME": "main"},
			"gitlab", "https://gitlab.com/o/r/-/jobs/9", "def", "main"},
		{"circleci", map[string]string{"CIRCLECI": "true", "CIRCLE_BUILD_URL": "https://circleci.com/gh/o/r/5", "CIRCLE_SHA1": "123", "CIRCLE_BRANCH": "dev"},
			"circleci", "https://circleci.com/gh/o/r/5", "123", "dev"},
		{"buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_BUILD_URL": "https://buildkite.com/o/p/builds/3", "BUILDKITE_JOB_ID": "j1", "BUILDKITE_COMMIT": "456", "BUILDKITE_BRANCH": "b"},
			"buildkite", "https://buildkite.com/o/p/builds/3#j1", "456", "b"},
		{"jenkins", map[string]string{"JENKINS_URL": "https://ci.example/", "BUILD_URL": "https://ci.example/job/x/8/", "GIT_COMMIT": "789", "GIT_BRANCH": "origin/main"},
			"jenkins", "https://ci.example/job/x/8/", "789", "main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ci := detectCI(func(k string) string { return tt.env[k] })
			provider, url := "", ""
			if ci.job != nil {
				provider, url = ci.job.Provider, ci.job.RunURL
			}
			if provider != tt.provider || url != tt.url || ci.commit != tt.sha || ci.branch != tt.branch {
				t.Errorf("got %q %q %q %q, want %q %q %q %q", provider, url, ci.commit, ci.branch, tt.provider, tt.url, tt.sha, tt.branch)
			}
		})
	}
}

// TestCollect reads a real git checkout: commit, branch, the dirty flag
// (tracked changes only), the remote without its credentials; outside a
// checkout only host and working directory, and the CI's commit.
func TestCollect(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: apt-get install -y git")
	}
	dir := t.TempDir()
	gitIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	gitIn("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "suite.json"), []byte("{}"), 0o644)
	gitIn("add", "suite.json")
	gitIn("commit", "-q", "-m", "first")
	gitIn("remote", "add", "origin", "https://bot:glpat-abcdefgh12345@gitlab.example/org/app.git")
	noEnv := func(string) string { return "" }
	p := Collect(context.Background(), dir, noEnv)
	if len(p.Commit) != 40 || p.Branch != "main" || p.Dirty == nil || *p.Dirty || p.Remote != "https://gitlab.example/org/app.git" || p.CI != nil {
		t.Fatalf("clean checkout: %+v", p)
	}
	if p.RepositoryRoot != filepath.Base(dir) {
		t.Errorf("repository root %q, want its folder's name %q (no absolute path)", p.RepositoryRoot, filepath.Base(dir))
	}
	os.WriteFile(filepath.Join(dir, "untracked.txt"), []byte("x"), 0o644)
	if p := Collect(context.Background(), dir, noEnv); *p.Dirty {
		t.Error("an untracked file made the checkout dirty")
	}
	os.WriteFile(filepath.Join(dir, "suite.json"), []byte(`{"changed": true}`), 0o644)
	p = Collect(context.Background(), dir, noEnv)
	if !*p.Dirty || Revision(p) != p.Commit[:12]+"-dirty" {
		t.Errorf("changed tracked file: dirty %v, revision %q", *p.Dirty, Revision(p))
	}

	outside := t.TempDir()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": "0123456789abcdef0123", "GITHUB_REF_NAME": "main"}
	p = Collect(context.Background(), outside, func(k string) string { return env[k] })
	if p.Commit != "0123456789abcdef0123" || p.Branch != "main" || p.RepositoryRoot != "" || p.Dirty != nil || p.Host == "" || p.WorkingDirectory == "" {
		t.Errorf("outside a checkout in CI: %+v", p)
	}
}

func TestWithRevision(t *testing.T) {
	dirty := true
	p := &models.Provenance{Commit: "0123456789abcdef0123456789abcdef01234567", Dirty: &dirty}
	keys := []string{"revision", "git_sha"}
	if got := WithRevision(nil, p, keys); got["revision"] != "0123456789ab-dirty" {
		t.Errorf("no metadata: %v", got)
	}
	given := map[string]any{"git_sha": "mine"}
	if got := WithRevision(given, p, keys); len(got) != 1 || got["git_sha"] != "mine" {
		t.Errorf("the user's revision was overridden: %v", got)
	}
	blank := map[string]any{"revision": " "}
	if got := WithRevision(blank, p, keys); got["revision"] != "0123456789ab-dirty" || blank["revision"] != " " {
		t.Errorf("blank revision: %v (input %v)", got, blank)
	}
	if got := WithRevision(given, nil, keys); got["revision"] != nil {
		t.Errorf("no provenance: %v", got)
	}
}

func TestTargetBranch(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Target
	}{
		{"outside CI", map[string]string{}, Target{}},
		{"github pull request", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature"},
			Target{Branch: "main", From: "GITHUB_BASE_REF"}},
		{"github push", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main"}, Target{Branch: "main", From: "GITHUB_REF_NAME"}},
		{"gitlab merge request", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_REF_NAME": "fix", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "develop"},
			Target{Branch: "develop", From: "CI_MERGE_REQUEST_TARGET_BRANCH_NAME"}},
		{"buildkite without a pull request", map[string]string{"BUILDKITE": "true", "BUILDKITE_BRANCH": "main", "BUILDKITE_PULL_REQUEST_BASE_BRANCH": ""},
			Target{Branch: "main", From: "BUILDKITE_BRANCH"}},
		{"CI naming no branch", map[string]string{"CI": "true"}, Target{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TargetBranch(func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("TargetBranch = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestCollect_Private: every dashboard reader sees the provenance, so it
// holds no absolute path (the working directory relative to the
// repository, or to the home directory) and no host name when
// EVALRUN_NO_HOST is set.
func TestCollect_Private(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(home, "src", "shop")
	sub := filepath.Join(repo, "services", "billing")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", repo, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	env := map[string]string{"HOME": home}
	get := func(k string) string { return env[k] }
	for _, tc := range []struct{ wd, want string }{{sub, "services/billing"}, {repo, "."}, {home, "~"}} {
		t.Chdir(tc.wd)
		p := Collect(context.Background(), sub, get)
		if p.WorkingDirectory != tc.want || p.RepositoryRoot != "shop" || p.Host == "" {
			t.Errorf("from %s: working directory %q, repository root %q, host %q; want %q, shop and the host",
				tc.wd, p.WorkingDirectory, p.RepositoryRoot, p.Host, tc.want)
		}
	}
	outside := filepath.Join(home, "scratch")
	os.MkdirAll(outside, 0o755)
	t.Chdir(outside)
	env[NoHostEnv] = "1"
	p := Collect(context.Background(), outside, get)
	if p.WorkingDirectory != "~/scratch" || p.RepositoryRoot != "" || p.Host != "" {
		t.Errorf("outside a repository with %s=1: %+v", NoHostEnv, p)
	}
}
