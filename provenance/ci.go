package provenance

import (
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// ciInfo is what a CI service's environment says about the job.
type ciInfo struct {
	job            *models.CIJob
	commit, branch string
}

// detectCI reads the standard variables of GitHub Actions, GitLab CI,
// CircleCI, Buildkite and Jenkins; with none of them but CI set to
// anything but "", "0" or "false", the provider is "unknown". The zero
// value (no job) when not in CI.
func detectCI(env func(string) string) ciInfo {
	switch {
	case env("GITHUB_ACTIONS") == "true":
		u := ""
		if server, repo, id := env("GITHUB_SERVER_URL"), env("GITHUB_REPOSITORY"), env("GITHUB_RUN_ID"); server != "" && repo != "" && id != "" {
			u = strings.TrimSuffix(server, "/") + "/" + repo + "/actions/runs/" + id
			if a := env("GITHUB_RUN_ATTEMPT"); a != "" && a != "1" {
				u += "/attempts/" + a
			}
		}
		branch := env("GITHUB_HEAD_REF") // a pull request's branch
		if branch == "" {
			branch = env("GITHUB_REF_NAME")
		}
		return ciInfo{&models.CIJob{Provider: "github-actions", RunURL: u}, env("GITHUB_SHA"), branch}
	case env("GITLAB_CI") == "true":
		return ciInfo{&models.CIJob{Provider: "gitlab", RunURL: first(env("CI_JOB_URL"), env("CI_PIPELINE_URL"))}, env("CI_COMMIT_SHA"), env("CI_COMMIT_REF_NAME")}
	case env("CIRCLECI") == "true":
		return ciInfo{&models.CIJob{Provider: "circleci", RunURL: env("CIRCLE_BUILD_URL")}, env("CIRCLE_SHA1"), env("CIRCLE_BRANCH")}
	case env("BUILDKITE") == "true":
		u := env("BUILDKITE_BUILD_URL")
		if u != "" && env("BUILDKITE_JOB_ID") != "" {
			u += "#" + env("BUILDKITE_JOB_ID")
		}
		return ciInfo{&models.CIJob{Provider: "buildkite", RunURL: u}, env("BUILDKITE_COMMIT"), env("BUILDKITE_BRANCH")}
	case env("JENKINS_URL") != "":
		return ciInfo{&models.CIJob{Provider: "jenkins", RunURL: env("BUILD_URL")}, env("GIT_COMMIT"), strings.TrimPrefix(env("GIT_BRANCH"), "origin/")}
	}
	switch strings.ToLower(env("CI")) {
	case "", "0", "false":
		return ciInfo{}
	}
	return ciInfo{job: &models.CIJob{Provider: "unknown"}}
}

// first is the first non-empty string.
func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
