package report

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// ProvenanceOf reads the provenance a run's summary records; nil when it
// has none (a run of the gem, or of an older evalrun).
func ProvenanceOf(run *models.Run) *models.Provenance {
	if run == nil {
		return nil
	}
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil {
		return nil
	}
	return s.Provenance
}

// ProvenanceLine says where a run was made, in one line: "commit
// 1a2b3c4d5e6f-dirty, branch main, remote https://host/org/repo.git, CI
// github-actions https://…, host build-7, directory /src/app"; "" when
// nothing was recorded. Values are untrusted: escape them for the output.
func ProvenanceLine(p *models.Provenance) string {
	if p == nil {
		return ""
	}
	var parts []string
	add := func(label, v string) {
		if v != "" {
			parts = append(parts, label+" "+v)
		}
	}
	commit := p.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit != "" && p.Dirty != nil && *p.Dirty {
		commit += "-dirty"
	}
	add("commit", commit)
	add("branch", p.Branch)
	if p.Remote != "" {
		add("remote", p.Remote)
	} else {
		add("repository", p.RepositoryRoot)
	}
	if p.CI != nil {
		add("CI", strings.TrimSpace(p.CI.Provider+" "+p.CI.RunURL))
	}
	add("host", p.Host)
	add("directory", p.WorkingDirectory)
	return strings.Join(parts, ", ")
}

// BaselineElsewhere says when a baseline was made in another project
// than the run (another remote, repository or working directory, as far as
// both recorded one): "the baseline was made in /home/b/other, this run in
// /src/app"; "" when they agree or either lacks provenance.
func BaselineElsewhere(run, baseline *models.Run) string {
	if baseline == nil {
		return ""
	}
	a, b := ProvenanceOf(run), ProvenanceOf(baseline)
	if a == nil || b == nil {
		return ""
	}
	for _, pair := range [][2]string{{a.Remote, b.Remote}, {a.RepositoryRoot, b.RepositoryRoot}, {a.WorkingDirectory, b.WorkingDirectory}} {
		if pair[0] != "" && pair[1] != "" {
			if pair[0] == pair[1] {
				return ""
			}
			where := func(p *models.Provenance) string {
				if p.Host != "" && a.Host != b.Host {
					return p.Project() + " on host " + p.Host
				}
				return p.Project()
			}
			return fmt.Sprintf("the baseline was made in %s, this run in %s", where(b), where(a))
		}
	}
	return ""
}
