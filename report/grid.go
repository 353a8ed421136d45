package report

import (
	"errors"
	"fmt"
	"sort"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// ExperimentKey is the run metadata key that ties the runs of one
// experiment together: {"id", "name", "variant", "variants", "started_at",
// "params"}.
const ExperimentKey = "experiment"

// ExperimentInfo is what a run's metadata says about the experiment it
// belongs to.
type ExperimentInfo struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Variant   string         `json:"variant"`
	Variants  []string       `json:"variants"`
	StartedAt string         `json:"started_at"`
	Params    map[string]any `json:"params,omitempty"`
}

// ExperimentOf returns the experiment a run belongs to, or nil.
func ExperimentOf(run *models.Run) *ExperimentInfo {
	var meta struct {
		Experiment *ExperimentInfo `json:"experiment"`
	}
	if run == nil || run.Metadata.IsNull() || run.Metadata.Decode(&meta) != nil {
		return nil
	}
	if meta.Experiment == nil || meta.Experiment.ID == "" {
		return nil
	}
	return meta.Experiment
}

// MaxGridPairs bounds the paired comparisons a grid computes up front: up to
// this many variants every pair is compared, beyond it each variant is
// compared with the first (the reference).
const MaxGridPairs = 6

// Grid is an experiment's runs side by side: the same questions answered by
// every variant, each answer with its scores, the best answer per question
// marked, totals and cost per variant, and paired comparisons.
type Grid struct {
	ID       string        `json:"experiment_id"`
	Name     string        `json:"experiment"`
	Suite    string        `json:"suite"`
	Version  string        `json:"version"`
	Variants []GridVariant `json:"variants"`
	Rows     []GridRow     `json:"questions"`
	Pairs    []GridPair    `json:"pairs"`
	// Pairwise are the pairwise verdicts stored with the variants' runs
	// (experiment --pairwise); absent when none was judged.
	Pairwise []GridPairwise `json:"pairwise,omitempty"`
}

// GridVariant is one variant's run and totals.
type GridVariant struct {
	Name   string         `json:"name"`
	Run    *models.Run    `json:"-"`
	RunID  string         `json:"run_id"`
	Agent  string         `json:"agent"`
	Totals compare.Totals `json:"totals"`
	// Best counts the questions on which this variant's answer is the best
	// (alone or tied with others, while not every variant tied).
	Best int `json:"best"`
	// DurationMS is the sum of the agent call durations.
	DurationMS float64 `json:"duration_ms"`
}

// GridRow is one question with every variant's answer.
type GridRow struct {
	CaseID   string     `json:"case_id"`
	Name     string     `json:"name"`
	Question string     `json:"question"`
	Expected string     `json:"expected_answer"`
	Cells    []GridCell `json:"answers"`
	// Tie is set when two or more answers have a quality and all of them
	// are equal: no answer is best, and the row says so.
	Tie bool `json:"tie,omitempty"`
}

// GridCell is one variant's answer to one question.
type GridCell struct {
	Variant  string       `json:"variant"`
	Position int          `json:"position"`
	Status   string       `json:"status"`
	Output   string       `json:"output"`
	Quality  *float64     `json:"quality"`
	Metrics  []GridMetric `json:"metrics"`
	// Best marks the highest quality of the row (ties share it; a row on
	// which every variant has the same quality marks none).
	Best bool `json:"best"`
	// Conversation says how a conversation went (report/transcript.go),
	// Turns are its exchanges as "user → agent", so variants' transcripts
	// compare side by side; both empty for a single question.
	Conversation string   `json:"conversation,omitempty"`
	Turns        []string `json:"turns,omitempty"`
}

// GridMetric is one metric of one answer; Score is nil when the metric was
// not calculated or ended in an error.
type GridMetric struct {
	Name   string   `json:"name"`
	Score  *float64 `json:"score"`
	Passed bool     `json:"passed"`
	State  string   `json:"state"` // pass, fail, error or not calculated
}

// GridPair is the paired comparison of variant B against variant A.
type GridPair struct {
	A, B string
	*compare.ABComparison
}

// ErrNoExperiment is returned by BuildGrid for runs that carry no
// experiment metadata, or for runs of different experiments.
var ErrNoExperiment = errors.New("not the runs of one experiment")

// BuildGrid lays the runs of one experiment side by side, in the order of
// the variants recorded in their metadata. The runs must evaluate the same
// definition (see SameDefinition); otherwise the error wraps
// ErrIncompatible.
func BuildGrid(runs []*models.Run, opts compare.Options) (*Grid, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("build grid: %w: no runs", ErrNoExperiment)
	}
	first := ExperimentOf(runs[0])
	if first == nil {
		return nil, fmt.Errorf("build grid: %w: run %s has no experiment metadata", ErrNoExperiment, runs[0].ID)
	}
	runs = orderByVariant(runs, first.Variants)
	g := &Grid{ID: first.ID, Name: first.Name, Suite: runs[0].Suite, Version: runs[0].Version}
	for _, r := range runs {
		info := ExperimentOf(r)
		if info == nil || info.ID != first.ID {
			return nil, fmt.Errorf("build grid: %w: run %s belongs to another experiment", ErrNoExperiment, r.ID)
		}
		if err := compare.SameDefinition(runs[0], r, nil, nil); err != nil {
			return nil, fmt.Errorf("build grid: variant %q: %w", info.Variant, err)
		}
		g.Variants = append(g.Variants, GridVariant{Name: info.Variant, Run: r, RunID: r.ID.String(),
			Agent: r.Agent, Totals: compare.TotalsOf(r.Cases, opts)})
	}
	g.buildRows()
	pairs, err := gridPairs(g.Variants, opts)
	if err != nil {
		return nil, err
	}
	g.Pairs = pairs
	g.Pairwise = gridPairwise(g.Variants)
	return g, nil
}

// orderByVariant sorts runs by the variant order of the experiment (runs of
// unknown variants last, by start time).
func orderByVariant(runs []*models.Run, order []string) []*models.Run {
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i
	}
	out := append([]*models.Run(nil), runs...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, oki := rank[variantOf(out[i])]
		rj, okj := rank[variantOf(out[j])]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return compare.Earlier(out[i], out[j])
	})
	return out
}

func variantOf(r *models.Run) string {
	if info := ExperimentOf(r); info != nil {
		return info.Variant
	}
	return ""
}

// buildRows fills the question rows from the variants' cases (matched by
// case id; SameDefinition guarantees the same ids in the same order).
func (g *Grid) buildRows() {
	ref := g.Variants[0].Run
	byID := make([]map[string]*models.CaseResult, len(g.Variants))
	for i, v := range g.Variants {
		byID[i] = make(map[string]*models.CaseResult, len(v.Run.Cases))
		for _, c := range v.Run.Cases {
			byID[i][c.CaseID] = c
			g.Variants[i].DurationMS += c.DurationMS
		}
	}
	for _, rc := range ref.Cases {
		row := GridRow{CaseID: rc.CaseID, Name: rc.Name, Question: jsonText(rc.Question), Expected: jsonText(rc.ExpectedAnswer)}
		for i, v := range g.Variants {
			c := byID[i][rc.CaseID]
			if c == nil {
				row.Cells = append(row.Cells, GridCell{Variant: v.Name, Status: "missing"})
				continue
			}
			row.Cells = append(row.Cells, gridCell(v.Name, c))
		}
		best := markBest(row.Cells)
		for _, i := range best {
			g.Variants[i].Best++
		}
		scored := 0
		for _, c := range row.Cells {
			if c.Quality != nil {
				scored++
			}
		}
		row.Tie = len(best) == 0 && scored >= 2
		g.Rows = append(g.Rows, row)
	}
}

func gridCell(variant string, c *models.CaseResult) GridCell {
	cell := GridCell{Variant: variant, Position: c.Position, Status: compare.CaseStatus(c), Output: jsonText(c.Output)}
	if cell.Status != models.StatusNotEvaluated {
		cell.Quality = c.Quality()
	}
	if tv := NewTranscriptView(c.ResponseMetadata); tv != nil {
		cell.Conversation, cell.Turns = tv.Summary, tv.Exchanges()
	}
	for _, m := range c.Metrics {
		gm := GridMetric{Name: m.Name, Passed: m.Passed, State: metricState(m)}
		if v, ok := m.Value(); ok {
			gm.Score = compare.Ptr(v)
		}
		cell.Metrics = append(cell.Metrics, gm)
	}
	return cell
}

// markBest marks the cells with the highest quality and returns their
// indexes; nothing is marked when fewer than two cells have a quality or
// when every cell with one ties.
func markBest(cells []GridCell) []int {
	var best *float64
	scored := 0
	for _, c := range cells {
		if c.Quality == nil {
			continue
		}
		scored++
		if best == nil || *c.Quality > *best+compare.ScoreEpsilon {
			best = c.Quality
		}
	}
	if scored < 2 {
		return nil
	}
	var idx []int
	for i, c := range cells {
		if c.Quality != nil && *c.Quality >= *best-compare.ScoreEpsilon {
			idx = append(idx, i)
		}
	}
	if len(idx) == scored {
		return nil
	}
	for _, i := range idx {
		cells[i].Best = true
	}
	return idx
}

// gridPairs compares every pair of variants (B against A, A first in
// variant order) up to MaxGridPairs variants, else each variant with the
// first.
func gridPairs(vs []GridVariant, opts compare.Options) ([]GridPair, error) {
	var out []GridPair
	add := func(a, b GridVariant) error {
		ab, err := compare.AB(a.Run, b.Run, opts)
		if err != nil {
			return fmt.Errorf("build grid: %w", err)
		}
		out = append(out, GridPair{A: a.Name, B: b.Name, ABComparison: ab})
		return nil
	}
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if len(vs) > MaxGridPairs && i > 0 {
				return out, nil
			}
			if err := add(vs[i], vs[j]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Pair returns the comparison of variant b against variant a, computing it
// when the grid did not (nil when either name is unknown).
func (g *Grid) Pair(a, b string, opts compare.Options) (*GridPair, error) {
	for i := range g.Pairs {
		if g.Pairs[i].A == a && g.Pairs[i].B == b {
			return &g.Pairs[i], nil
		}
	}
	va, vb := g.variant(a), g.variant(b)
	if va == nil || vb == nil {
		return nil, nil
	}
	ab, err := compare.AB(va.Run, vb.Run, opts)
	if err != nil {
		return nil, fmt.Errorf("compare variants: %w", err)
	}
	return &GridPair{A: a, B: b, ABComparison: ab}, nil
}

func (g *Grid) variant(name string) *GridVariant {
	for i := range g.Variants {
		if g.Variants[i].Name == name {
			return &g.Variants[i]
		}
	}
	return nil
}
