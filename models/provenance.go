package models

// Provenance is where a run was made, recorded by evalrun on every run
// under the summary's "provenance" key: the git checkout of the suite (its
// commit, branch, whether tracked files had changes, the origin remote
// without credentials, the work tree's root), the CI job, the host and the
// working directory. Fields that could not be read are omitted; a summary
// without provenance (the gem's, an older run) reads as nil.
type Provenance struct {
	Branch string `json:"branch,omitempty"`
	CI     *CIJob `json:"ci,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Dirty is true when tracked files differed from Commit; nil when
	// unknown.
	Dirty            *bool  `json:"dirty,omitempty"`
	Host             string `json:"host,omitempty"`
	Remote           string `json:"remote,omitempty"`
	RepositoryRoot   string `json:"repository_root,omitempty"`
	WorkingDirectory string `json:"working_directory,omitempty"`
}

// CIJob is the CI service and job a run was made in.
type CIJob struct {
	// Provider is github-actions, gitlab, circleci, buildkite, jenkins,
	// or "unknown" when only CI is set.
	Provider string `json:"provider"`
	// RunURL is the job's page, when the service says it.
	RunURL string `json:"run_url,omitempty"`
}

// Project names the checkout a run came from, for telling runs of
// different projects apart: the remote, else the repository root, else
// the working directory; "" when nothing was recorded.
func (p *Provenance) Project() string {
	switch {
	case p == nil:
		return ""
	case p.Remote != "":
		return p.Remote
	case p.RepositoryRoot != "":
		return p.RepositoryRoot
	}
	return p.WorkingDirectory
}
