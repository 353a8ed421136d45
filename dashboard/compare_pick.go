package dashboard

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// maxPickRuns bounds the runs offered by each run picker of the compare page.
const maxPickRuns = 50

// runOption is one run in a compare-page picker.
type runOption struct {
	ID       string
	Label    string
	Selected bool
}

// runTitle names a run for people: its revision when recorded, its start
// time, suite and agent ("abc123 · 2026-11-20 11:00:00 UTC · Support · Bot").
func runTitle(r *models.Run) string {
	parts := []string{}
	if rev := report.Revision(r); rev != "" {
		parts = append(parts, "revision "+shortID(rev))
	}
	parts = append(parts, formatTime(r.StartedAt), r.Suite, r.Agent)
	return strings.Join(parts, " · ")
}

// pickerRuns lists the runs the pickers offer: the newest runs of the same
// suite and definition as ref (any agent, since compare takes two agents
// or two prompts on the same questions), or the newest runs of all when
// nothing is chosen yet; the chosen runs are always listed.
func (s *Server) pickerRuns(ctx context.Context, ref *models.Run, chosen ...*models.Run) ([]*models.Run, error) {
	f := models.RunFilter{Limit: maxPickRuns}
	if ref != nil {
		f.Suite, f.Digest = ref.Suite, ref.SuiteDigest
	}
	runs, _, err := s.rows.ListRuns(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("list runs to compare: %w", err)
	}
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r.ID.String()] = true
	}
	for _, c := range chosen {
		if c != nil && !seen[c.ID.String()] {
			runs = append(runs, c)
			seen[c.ID.String()] = true
		}
	}
	return runs, nil
}

// runOptions labels runs for a picker and selects the one with id selected.
func (s *Server) runOptions(ctx context.Context, runs []*models.Run, selected string) ([]runOption, error) {
	stats, err := s.runStatsOf(ctx, runs)
	if err != nil {
		return nil, err
	}
	out := make([]runOption, len(runs))
	for i, r := range runs {
		label := runTitle(r)
		if q := stats[i].Quality; q != nil {
			label += " · quality " + formatScore(q)
		}
		out[i] = runOption{ID: r.ID.String(), Label: label, Selected: r.ID.String() == selected}
	}
	return out, nil
}
