package suite

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Calculated lists, sorted, the metric names that will be calculated: all
// of them, except judge-backed metrics when withJudge is false.
//
// A shard calculates what its whole suite does (the definition is the
// whole suite's).
func (s *Suite) Calculated(withJudge bool) []string {
	if s.whole != nil {
		return s.whole.Calculated(withJudge)
	}
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if seen[m.Name] {
				continue
			}
			if withJudge || !s.MetricNeedsJudge(c, m.Name) {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// NeedsJudge reports whether any metric of the suite is judge-backed, that
// is whether a judge changes what is calculated. When it is false a judge
// need not be built: Calculated(true) equals Calculated(false), and so do
// the digests.
func (s *Suite) NeedsJudge() bool {
	if s.whole != nil {
		return s.whole.NeedsJudge()
	}
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if s.MetricNeedsJudge(c, m.Name) {
				return true
			}
		}
	}
	return false
}

// MetricNeedsJudge reports whether a metric name of case c resolves to a
// judge-backed type.
func (s *Suite) MetricNeedsJudge(c *Case, name string) bool {
	typ, _, ok := s.definitionFor(c, name)
	return ok && s.Registry[typ].NeedsJudge
}

// Plan returns the run record as it will be saved, without results: suite,
// agent, version, digest (for the given calculated metric names), a summary
// holding only the writer marker, and each case's definition columns in
// suite order (metadata with the retrieval context, see savedMetadata). The baseline is looked up with it before any agent is called.
func (s *Suite) Plan(calculated []string) *models.Run {
	digest, err := s.Digest(calculated)
	if err != nil {
		// Loaded suites hold only portable JSON; this cannot happen.
		digest = "invalid:" + err.Error()
	}
	run := &models.Run{Suite: sanitize.String(s.Name), Agent: sanitize.String(s.Agent.Name), Version: s.Version,
		SuiteDigest: digest, Status: models.RunStatusCompleted,
		Summary: models.MustJSON(map[string]string{"writer": GoWriter})}
	for i, c := range s.Cases {
		run.Cases = append(run.Cases, &models.CaseResult{
			Position:        s.position(i),
			CaseID:          c.ID,
			Name:            sanitize.String(c.Name),
			Question:        shownColumn(jsonColumn(c.Question)),
			ExpectedAnswer:  shownColumn(jsonColumn(c.ExpectedAnswer)),
			ExpectedActions: shownColumn(jsonColumn(c.ExpectedActions)),
			MinimumScores:   scoresColumn(c.Metrics),
			Metadata:        shownColumn(savedMetadata(c)),
		})
	}
	return run
}

// shownColumn is a definition column as the case row stores it: repaired
// and with credentials redacted, like every stored string. The suite text
// the author wrote is what the agent is asked and what the scorers compare
// against (suite.Case keeps it as written), and the digest is computed
// from the Case, not from these columns, so redaction never changes a
// suite's fingerprint; a planned run and a saved one hold the same rows.
func shownColumn(j models.JSON) models.JSON {
	if j == nil {
		return nil
	}
	out, _ := sanitize.JSON(j)
	return models.JSON(out)
}

// savedMetadata is the case row's metadata column: the question's metadata
// and, when the question has retrieval context and its metadata no
// "context" key, that context under "context" (an array of strings), so a
// verdict that relied on it can be re-checked from the saved run. Execute
// saves what Plan returns, so a planned run and a saved one agree; the
// digest is unchanged, as it already covers metadata and context apart.
func savedMetadata(c *Case) models.JSON {
	meta := bytes.TrimSpace(c.Metadata)
	if len(c.Context) == 0 || len(meta) < 2 || meta[0] != '{' {
		return jsonColumn(c.Metadata)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(meta, &obj); err != nil {
		return jsonColumn(c.Metadata)
	}
	if _, taken := obj["context"]; taken {
		return jsonColumn(c.Metadata)
	}
	var b bytes.Buffer
	b.Write(meta[:len(meta)-1]) // the object without its closing brace
	if len(obj) > 0 {
		b.WriteByte(',')
	}
	writeString(&b, "context")
	b.WriteString(":[")
	for i, passage := range c.Context {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, passage)
	}
	b.WriteString("]}")
	return models.JSON(b.Bytes())
}

// jsonColumn keeps an absent value as SQL NULL.
func jsonColumn(raw json.RawMessage) models.JSON {
	if raw == nil {
		return nil
	}
	return models.JSON(append([]byte(nil), raw...))
}

// scoresColumn writes minimum_scores in the suite's metric order.
func scoresColumn(ms []Metric) models.JSON {
	pairs := make([]scoreMember, len(ms))
	for i, m := range ms {
		pairs[i] = scoreMember{name: m.Name, threshold: json.RawMessage(strconv.FormatFloat(m.Threshold, 'g', -1, 64))}
	}
	return models.JSON(encodeScores(pairs))
}

// GoWriter is the summary's writer value (models.RunSummary.Writer): it
// marks a run as written by this implementation. Runs that carry the same
// marker have comparable suite_digest values, so reports link them only
// when their digests are equal; the persisted-definition fallback (docs/architecture.md, the
// fingerprint) is for runs written by another implementation, such as the Ruby gem.
const GoWriter = models.GoWriter
