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
// checkout, CI, host, working directory) and returns it with the run
// metadata, which gets a "revision" from git when the user gave none.
func collectProvenance(ctx context.Context, dir string, meta map[string]any) (*models.Provenance, map[string]any) {
	p := provenance.Collect(ctx, dir, os.Getenv)
	return p, provenance.WithRevision(meta, p, report.RevisionKeys)
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
