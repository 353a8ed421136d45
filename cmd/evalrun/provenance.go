package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provenance"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// collectProvenance reads where a run of a suite in dir is made (its
// checkout, CI, host unless noHost, working directory) and returns it
// with the run metadata, which gets a "revision" from git when the user
// gave none.
func collectProvenance(ctx context.Context, dir string, meta map[string]any, noHost envBool) (*models.Provenance, map[string]any) {
	env := os.Getenv
	if noHost {
		env = func(k string) string {
			if k == provenance.NoHostEnv {
				return "1"
			}
			return os.Getenv(k)
		}
	}
	p := provenance.Collect(ctx, dir, env)
	return p, provenance.WithRevision(meta, p, report.RevisionKeys)
}

// HostFlag keeps the host name out of a run's provenance.
type HostFlag struct {
	NoHost envBool `name:"no-host" env:"EVALRUN_NO_HOST" help:"Do not record this machine's host name in the run's provenance (every dashboard reader sees it); also $$${env}=1. Paths are stored relative to the repository (or to your home directory) either way."`
}

// writeBaselineElsewhere says when the baseline was made in another
// project (remote, repository or working directory) than the run: the
// embedded default database is shared by every project of the user, so a
// suite and agent name reused elsewhere would otherwise pair runs that
// have nothing to do with each other, silently.
func writeBaselineElsewhere(w io.Writer, run, baseline *models.Run) {
	if e := report.BaselineElsewhere(run, baseline); e != "" {
		fmt.Fprintf(w, "Baseline made elsewhere: %s; give this project its own suite name (or --database-url), or pass --baseline RUN, to compare with your own runs\n",
			sanitize.EscapeText(e))
	}
}
