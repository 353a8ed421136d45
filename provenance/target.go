package provenance

import (
	"context"
	"strings"
)

// Target is the branch a CI job's automatic baseline comes from, and the
// variable that named it.
type Target struct {
	Branch string
	// From is the environment variable read ("GITHUB_BASE_REF", …).
	From string
}

// TargetBranch reads from a CI job's environment the branch its run is
// measured against: a pull (merge) request's base branch, else, for a
// push build, the branch being built (so that main is compared with
// main). The zero Target outside CI and when the service names neither.
func TargetBranch(env func(string) string) Target {
	for _, v := range []string{"GITHUB_BASE_REF", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "BUILDKITE_PULL_REQUEST_BASE_BRANCH", "CHANGE_TARGET"} {
		if b := env(v); b != "" && b != "false" {
			return Target{Branch: b, From: v}
		}
	}
	ci := detectCI(env)
	if ci.job == nil || ci.branch == "" {
		return Target{}
	}
	from := map[string]string{"github-actions": "GITHUB_REF_NAME", "gitlab": "CI_COMMIT_REF_NAME", "circleci": "CIRCLE_BRANCH",
		"buildkite": "BUILDKITE_BRANCH", "jenkins": "GIT_BRANCH"}[ci.job.Provider]
	if ci.job.Provider == "github-actions" && env("GITHUB_HEAD_REF") != "" {
		from = "GITHUB_HEAD_REF"
	}
	return Target{Branch: ci.branch, From: from}
}

// Ancestry answers whether a commit is an ancestor of (or is) the checkout
// at dir's HEAD, so that a baseline at or before the merge base can be
// preferred; a commit git does not know (a shallow clone) is not one.
func Ancestry(ctx context.Context, dir string) func(commit string) bool {
	return func(commit string) bool {
		if commit == "" || strings.HasPrefix(commit, "-") {
			return false
		}
		_, ok := gitOK(ctx, dir, "merge-base", "--is-ancestor", commit, "HEAD")
		return ok
	}
}
