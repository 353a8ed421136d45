package evidence

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// mergeNamespace derives a merged run's id from its shards' ids, so merging
// the same shards twice gives the same run (and a second import inserts
// nothing).
var mergeNamespace = uuid.MustParse("8f6a3c52-5d0e-4c2b-9a51-3b7d2f0c9e11")

// Merge joins the shards of one definition into one whole run, as an
// unsharded run of the suite would have stored it: cases at their suite
// positions, started_at the earliest start, finished_at the latest finish,
// the summary recomputed with models.SummaryOf (concurrency is the sum of
// the shards', duration_ms the merged wall time, repeats the shards' K with
// pass_at_k and pass_hat_k over the whole run, an infrastructure failure
// the first shard's for each side, the provenance the first shard's (the
// shards of one run share a commit; each ran on its own host and job);
// keys SummaryOf does not produce, such
// as the judge's provider and cache counts, are taken from the shards,
// numbers summed), and the definition's digest, so the
// unsharded history baselines it. names are the files' names for
// messages. It refuses missing, duplicated, overlapping or mismatched
// shards (another digest, suite, agent, version, metadata, repeat count or
// shard count)
// with an *InvalidError.
func Merge(files []*File, names []string) (*File, error) {
	if len(files) == 0 {
		return nil, &InvalidError{File: "merge", Message: "no shard files given"}
	}
	first := files[0]
	bad := func(i int, p, format string, args ...any) error {
		return &InvalidError{File: names[i], Path: p, Message: fmt.Sprintf(format, args...)}
	}
	if first.Shard == nil {
		return nil, bad(0, "$.shard", "not a shard: the file holds a whole run (import it without --merge)")
	}
	n := first.Shard.Count
	if n < 1 || n > MaxShards {
		return nil, bad(0, "$.shard.count", "want a shard count from 1 to %d, got %d", MaxShards, n)
	}
	byIndex := make([]int, n+1) // shard index -> file number + 1
	for i, f := range files {
		switch {
		case f.Shard == nil:
			return nil, bad(i, "$.shard", "not a shard: the file holds a whole run")
		case f.Shard.Count != n:
			return nil, bad(i, "$.shard.count", "shard of %d, but %s is a shard of %d", f.Shard.Count, names[0], n)
		case f.Shard.Index < 1 || f.Shard.Index > n:
			return nil, bad(i, "$.shard.index", "want an index from 1 to %d, got %d", n, f.Shard.Index)
		case byIndex[f.Shard.Index] != 0:
			return nil, bad(i, "$.shard.index", "shard %d of %d is also in %s (duplicated shard)", f.Shard.Index, n, names[byIndex[f.Shard.Index]-1])
		}
		byIndex[f.Shard.Index] = i + 1
		if err := sameDefinition(first, f); err != "" {
			return nil, bad(i, "$", "does not belong with %s: %s (mismatched shards)", names[0], err)
		}
	}
	var missing []string
	for idx := 1; idx <= n; idx++ {
		if byIndex[idx] == 0 {
			missing = append(missing, fmt.Sprint(idx))
		}
	}
	if len(missing) > 0 {
		return nil, &InvalidError{File: strings.Join(names, ", "), Path: "$.shard",
			Message: fmt.Sprintf("missing shard(s) %s of %d", strings.Join(missing, ", "), n)}
	}
	return join(files, n)
}

// sameDefinition describes how f differs from first ("" when it is a shard
// of the same definition and run).
func sameDefinition(first, f *File) string {
	a, b := first.Run, f.Run
	switch {
	case a.Suite != b.Suite:
		return fmt.Sprintf("suite %q against %q", b.Suite, a.Suite)
	case a.Agent != b.Agent:
		return fmt.Sprintf("agent %q against %q", b.Agent, a.Agent)
	case a.Version != b.Version:
		return fmt.Sprintf("version %q against %q", b.Version, a.Version)
	case a.SuiteDigest != b.SuiteDigest:
		return fmt.Sprintf("suite_digest %s against %s", b.SuiteDigest, a.SuiteDigest)
	case strings.Join(first.Definition.CalculatedMetrics, ",") != strings.Join(f.Definition.CalculatedMetrics, ","):
		return "other calculated metrics"
	case strings.Join(first.Definition.CaseIDs, "\x00") != strings.Join(f.Definition.CaseIDs, "\x00"):
		return "other question ids"
	case !sameJSON(json.RawMessage(a.Metadata), json.RawMessage(b.Metadata)):
		return fmt.Sprintf("run metadata %s against %s (give every shard the same --metadata)", b.Metadata, a.Metadata)
	case repeatsOf(a) != repeatsOf(b):
		return fmt.Sprintf("%d repeats per question against %d (give every shard the same --repeat)", repeatsOf(b), repeatsOf(a))
	}
	return ""
}

// repeatsOf is the K of a run made with --repeat K, from its summary's
// repeats (1 without it).
func repeatsOf(r *models.Run) int {
	s, err := models.DecodeRunSummary(r.Summary)
	if err != nil || s.RepeatSummary == nil {
		return 1
	}
	return s.RepeatSummary.Repeats
}

// join builds the merged run from validated, complete shards.
func join(files []*File, n int) (*File, error) {
	first := files[0]
	total := len(first.Definition.CaseIDs)
	cases := make([]*models.CaseResult, total)
	ids := make([]string, 0, len(files))
	run := &models.Run{Suite: first.Run.Suite, Agent: first.Run.Agent, Version: first.Run.Version,
		SuiteDigest: first.Run.SuiteDigest, Status: models.RunStatusCompleted, Metadata: first.Run.Metadata,
		StartedAt: first.Run.StartedAt, FinishedAt: first.Run.FinishedAt}
	concurrency := 0
	extras := map[string]any{}
	infra := map[string]string{}
	for _, f := range files {
		ids = append(ids, f.Run.ID.String())
		if f.Run.StartedAt.Before(run.StartedAt) {
			run.StartedAt = f.Run.StartedAt
		}
		if f.Run.FinishedAt.After(run.FinishedAt) {
			run.FinishedAt = f.Run.FinishedAt
		}
		s, err := models.DecodeRunSummary(f.Run.Summary)
		if err != nil {
			return nil, fmt.Errorf("merge shards: summary: %w", err)
		}
		concurrency += s.Concurrency
		for side, what := range s.InfrastructureFailure {
			if _, ok := infra[side]; !ok { // the first shard's, side by side
				infra[side] = what
			}
		}
		for k, raw := range s.Extra {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, fmt.Errorf("merge shards: summary: %w", err)
			}
			extras[k] = addJSON(extras[k], v)
		}
		for _, c := range f.Run.Cases {
			cases[c.Position] = c
		}
	}
	for p, c := range cases {
		if c == nil { // a validated shard holds every position of its slice; kept as a guard
			return nil, fmt.Errorf("merge shards: no shard holds position %d (%q)", p, first.Definition.CaseIDs[p])
		}
	}
	sort.Strings(ids)
	run.ID = uuid.NewSHA1(mergeNamespace, []byte(strings.Join(ids, ",")))
	for _, c := range cases {
		cp := *c
		cp.RunID = run.ID
		run.Cases = append(run.Cases, &cp)
	}
	summary := models.SummaryOf(run, concurrency, run.FinishedAt.Sub(run.StartedAt))
	if k := repeatsOf(first.Run); k > 1 { // K is the shards' (equal), not their sum; rates over the whole run
		summary.RepeatSummary = models.RepeatSummaryOf(run, k)
	}
	if len(infra) > 0 {
		summary.InfrastructureFailure = infra
	}
	if fs, err := models.DecodeRunSummary(first.Run.Summary); err == nil {
		summary.Provenance = fs.Provenance
	}
	var err error
	if summary.Extra, err = encodeValues(extras); err != nil {
		return nil, fmt.Errorf("merge shards: summary: %w", err)
	}
	if run.Summary, err = summary.Encode(); err != nil {
		return nil, fmt.Errorf("merge shards: summary: %w", err)
	}
	return &File{Run: run, Definition: first.Definition,
		Reason: fmt.Sprintf("merged from %d shards", n)}, nil
}

// encodeValues encodes each value of m.
func encodeValues(m map[string]any) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[k] = b
	}
	return out, nil
}

// addJSON combines two decoded JSON values of shard summaries: numbers
// add up, objects merge key by key, anything else keeps the first value.
func addJSON(a, b any) any {
	switch av := a.(type) {
	case nil:
		return b
	case float64:
		if bv, ok := b.(float64); ok {
			return av + bv
		}
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			out := map[string]any{}
			for k, v := range av {
				out[k] = v
			}
			for k, v := range bv {
				out[k] = addJSON(out[k], v)
			}
			return out
		}
	}
	return a
}
